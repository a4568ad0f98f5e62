/**
 * Held islands (src/solver/islands.ts): islands of the system matrix with no free particle (every
 * particle pinned or asleep) are neither assembled nor factored by the game-mode Newton solve. The
 * factor sets their rows to identity (SparseLDLT.factor's `held`), whatever it held before, and the
 * solve's results stay bit-identical to assembling and factoring everything.
 */
import { describe, expect, it } from 'vitest';
import { fillReducingOrder } from '../src/solver/ordering';
import { elementIslands, flattenIslands, markHeldIslands } from '../src/solver/islands';
import { PhysicsWorld } from '../src/world';
import { solveAfterCoupled, spd, squareJelly as jelly, twoChains } from './support/islands';

describe('held islands: the factorization', () => {
  // two chains, 0–3 and 4–7, with pattern entries linking 3–4 (a contact pair of an earlier step)
  const { p, island, rhs } = twoChains();
  const coupled = spd(p, 10, () => true);
  const split = spd(p, 10, (a, b) => island(a) === island(b));
  const held = Uint8Array.from([0, 0, 0, 0, 1, 1, 1, 1]);

  it('rows of held particles become identity rows; the other rows solve bit-identically to the full factorization', () => {
    // the factor first holds the coupled matrix (non-zero entries between the two chains), as after a
    // step in which the islands touched: the held rows must not keep any of it
    const { got, want, f } = solveAfterCoupled(p, fillReducingOrder(p, 2), coupled, split, held, rhs);
    for (let d = 0; d < 8; d++) expect(got[d]).toBe(want[d]);
    for (let d = 8; d < 16; d++) expect(got[d]).toBe(0);
    // the held rows are identity rows (D = 1), whatever the matrix holds there
    for (let k = 0; k < 16; k++) if (held[f.perm[k]! >> 1] === 1) expect(f.D[k]).toBe(1);
  });

  it('islands: elements join particles, contact pairs join islands; an island without a free particle is held', () => {
    const w = new PhysicsWorld({ dt: 1 / 60 });
    const a = [w.addParticle({ x: 0, y: 0, m: 1 }), w.addParticle({ x: 1, y: 0, m: 1 })];
    const b = [w.addParticle({ x: 3, y: 0, m: 1, fixed: true }), w.addParticle({ x: 4, y: 0, m: 1, fixed: true })];
    const c = [w.addParticle({ x: 6, y: 0, m: 1, fixed: true }), w.addParticle({ x: 7, y: 0, m: 1 })];
    for (const [i, j] of [a, b, c]) w.addSpring(i!, j!, { alpha: 10 });
    const t = w.topology();
    const comp = new Int32Array(t.n);
    elementIslands(t, comp);
    expect(flattenIslands(t.n, comp)).toBe(3);
    const held = new Uint8Array(t.n);
    expect(markHeldIslands(t.n, comp, t.fixed, held, new Uint8Array(t.n))).toBe(2);
    expect(Array.from(held)).toEqual([0, 0, 1, 1, 0, 0]); // c has a free particle: not held
  });
});

/** Five jellies in a row on the ground, sleeping on; from step 120 one of them is kicked up every 30 steps. */
function row(skip: boolean): { hashes: string[]; held: number; resting: number } {
  const w = new PhysicsWorld({ dt: 1 / 60, sleeping: true });
  w.contacts.enabled = true;
  w.contacts.friction = 0.5;
  w.addHalfplane(0, 0, 0, 1);
  const bodies: number[][] = [];
  for (let j = 0; j < 5; j++) bodies.push(jelly(w, -1.2 + 0.6 * j, 0.25));
  const P = w.c.Particle;
  const hashes: string[] = [];
  let held = 0, resting = 0;
  for (let s = 0; s < 300; s++) {
    if (s >= 120 && s % 30 === 0) for (const e of bodies[(s / 30) % 5]!) P.vy[e] = P.vy[e]! + 2;
    w.newtonSolver().skipHeldIslands = skip;
    w.step();
    hashes.push(w.stateHash());
    if (w.lastStats.resting) resting++;
    else held = Math.max(held, w.newtonSolver().heldParticles);
  }
  return { hashes, held, resting };
}

describe('held islands: the Newton solve', () => {
  it('jellies asleep beside a kicked one: left out of assembly and factorization, and every step bit-identical to solving them', () => {
    const on = row(true), off = row(false);
    expect(on.held).toBeGreaterThan(0); // the mechanism ran: asleep jellies were held in some solve
    expect(off.held).toBe(0);
    expect(on.resting).toBeGreaterThan(0); // all asleep before the kicks
    expect(on.hashes).toEqual(off.hashes);
  }, 60_000);
});
