/**
 * A topology rebuild (a body added or removed, a particle pinned) keeps the contact node pairs of the pattern it
 * replaces (src/systems/pipeline.ts, rebuildTopology): the first candidate search after it finds them in the
 * pattern instead of growing it again with the same pairs, which cost a second ordering and symbolic factorization
 * in the step (docs/solver.md, "Stop 35"). Pairs with a removed particle are dropped.
 */
import { describe, expect, it } from 'vitest';
import { PhysicsWorld } from '../src/world';
import { makeJellyPile } from '../src/cli/bench-jellies';
import { squareJelly } from './support/islands';

/** Two jellies stacked on the floor, stepped until the pattern holds body–body contact pairs. */
function stacked(): { world: PhysicsWorld; top: number[] } {
  const world = new PhysicsWorld({ dt: 1 / 60 });
  world.contacts.enabled = true;
  world.contacts.friction = 0.5;
  const pile = makeJellyPile(world, 2, 32, { columns: 1 });
  for (let s = 0; s < 90; s++) world.step();
  return { world, top: pile.particles[1]! };
}

/** The topology's contact pairs as sorted "eidA-eidB" strings (lower id first). */
function pairKeys(world: PhysicsWorld): string[] {
  const t = world.topology();
  const out: string[] = [];
  for (let k = 0; k < t.contactPairCount; k++) {
    const a = t.particleEids[t.contactPairs[2 * k]!]!, b = t.particleEids[t.contactPairs[2 * k + 1]!]!;
    out.push(a < b ? `${a}-${b}` : `${b}-${a}`);
  }
  return out.sort();
}

describe('contact pairs across a topology rebuild', () => {
  it('a body added far away: the pattern keeps its pairs, and the step makes one symbolic analysis, no pattern growth', () => {
    const { world } = stacked();
    const before = pairKeys(world);
    expect(before.length).toBeGreaterThan(0);
    const builds = world.lastStats.topologyBuilds, symbolic = world.lastStats.symbolicBuilds;
    squareJelly(world, 0, 3); // in the air above the pile: no contact this step
    world.step();
    expect(world.lastStats.topologyBuilds).toBe(builds + 1);
    expect(world.lastStats.contactRebuilds).toBe(0);
    expect(world.lastStats.symbolicBuilds).toBe(symbolic + 1);
    expect(pairKeys(world)).toEqual(before);
  });

  it('a removed body takes its pairs with it; the others stay', () => {
    const { world, top } = stacked();
    const removed = new Set(top);
    const before = pairKeys(world);
    const kept = before.filter((k) => !k.split('-').some((e) => removed.has(Number(e))));
    expect(kept.length).toBeLessThan(before.length);
    for (const e of top) world.removeEntity(e);
    world.step();
    const after = pairKeys(world);
    for (const k of after) for (const e of k.split('-')) expect(removed.has(Number(e))).toBe(false);
    // the pairs the removal left are still in the pattern (the step may add new ones)
    for (const k of kept) expect(after).toContain(k);
  });
});
