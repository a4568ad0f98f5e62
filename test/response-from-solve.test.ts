/**
 * The response's detection from the solve's candidates (src/collision/response.ts, fromSolve; docs/contact.md,
 * "The response from the solve's candidates"): where every particle moved less than a quarter of the candidate
 * margin and no collider moved, the post-solve detection takes its pairs from the candidate search instead of a
 * broad phase of its own. It must find exactly what the broad phase finds. A user system placed around the solve
 * turns it off (the state the response sees may then not be the solve's), so each scene here runs twice, with and
 * without a no-op system there: positions, velocities, contact events and touching pairs must agree bit for bit
 * at every step, and the shortcut must have been taken.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ContactResponse } from '../src/collision/response';
import { SoftSim } from '../src/game/sim';
import { addJelly20, contactWorld } from '../src/cli/bench-scenes';
import type { PhysicsWorld } from '../src/world';

/** fromSolve's outcomes while a test runs: taken (the broad phase skipped) or not. */
const outcome = { taken: 0, declined: 0 };
const proto = ContactResponse.prototype as unknown as { fromSolve: (ctx: unknown) => boolean };
const original = proto.fromSolve;

function spy(): void {
  outcome.taken = 0;
  outcome.declined = 0;
  vi.spyOn(proto, 'fromSolve').mockImplementation(function (this: unknown, ctx: unknown) {
    const r = original.call(this, ctx);
    if (r) outcome.taken++;
    else outcome.declined++;
    return r;
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

interface Scene {
  world: PhysicsWorld;
  drive?: (step: number) => void;
}

/** Steps `make()` twice side by side, one world with a no-op system after the solve; the first differing step or −1. */
function withAndWithoutShortcut(make: () => Scene, steps: number): { firstDifference: number; touching: number } {
  const a = make(), b = make();
  b.world.addSystem('solve', () => {});
  const P = a.world.c.Particle, Q = b.world.c.Particle;
  const events = (w: PhysicsWorld): string => JSON.stringify([w.contacts.begin, w.contacts.end, w.contacts.active]);
  let touching = 0;
  for (let s = 0; s < steps; s++) {
    a.drive?.(s);
    b.drive?.(s);
    a.world.step();
    b.world.step();
    const ea = a.world.lists.particles, eb = b.world.lists.particles;
    for (let k = 0; k < ea.length; k++) {
      const i = ea[k]!, j = eb[k]!;
      if (!Object.is(P.x[i], Q.x[j]) || !Object.is(P.y[i], Q.y[j]) || !Object.is(P.vx[i], Q.vx[j]) || !Object.is(P.vy[i], Q.vy[j])) {
        return { firstDifference: s, touching };
      }
    }
    if (events(a.world) !== events(b.world) || a.world.lastStats.contactTouching !== b.world.lastStats.contactTouching) {
      return { firstDifference: s, touching };
    }
    touching = Math.max(touching, a.world.lastStats.contactTouching);
  }
  return { firstDifference: -1, touching };
}

/** Jellies landing among every collider kind: half-plane bounds, two circles, a thick segment, a triangle polygon. */
function colliderPage(sleeping: boolean): Scene {
  const sim = new SoftSim({ pixelsPerMetre: 100, originX: 0, originY: 500 });
  sim.sleeping = sleeping;
  sim.bounds(0, 0, 800, 500);
  sim.circle(150, 440, 55);
  sim.circle(360, 465, 40);
  sim.segment(430, 300, 790, 400, 12);
  sim.polygon([500, 500, 610, 420, 740, 500]);
  sim.jelly(160, 250, { width: 100, height: 70, stiffness: 2e5, density: 20 });
  sim.jelly(370, 200, { radius: 40, stiffness: 6e4, density: 20 });
  sim.jelly(600, 150, { width: 70, height: 70, stiffness: 1e5, density: 20, material: 'neohookean' });
  sim.jelly(640, 60, { radius: 30, stiffness: 8e4, density: 20 });
  return { world: sim.world };
}

/** Six of the bench pile's jellies (boxes and discs, alternating) dropped into a 3 m box with friction. */
function smallPile(): Scene {
  const world = contactWorld([[0, 0, 0, 1], [-1.5, 0, 1, 0], [1.5, 0, -1, 0]]);
  for (let j = 0; j < 6; j++) addJelly20(world, j, -0.9 + 0.9 * (j % 3) + (j >= 3 ? 0.12 : -0.05), 0.5 + 0.9 * Math.floor(j / 3));
  return { world };
}

describe('the response from the solve candidates', () => {
  it('finds what the broad phase finds among every collider kind, landing and at rest', () => {
    spy();
    const r = withAndWithoutShortcut(() => colliderPage(false), 420);
    expect(r.firstDifference).toBe(-1);
    expect(r.touching).toBeGreaterThan(5);
    // the world without the system took the shortcut in most steps (its twin never reaches it: the system)
    expect(outcome.taken).toBeGreaterThan(200);
  });

  it('finds what the broad phase finds in a pile with friction, with sleeping on', () => {
    spy();
    const r = withAndWithoutShortcut(() => {
      const s = smallPile();
      s.world.sleeping = true;
      return s;
    }, 300);
    expect(r.firstDifference).toBe(-1);
    expect(r.touching).toBeGreaterThan(20);
    expect(outcome.taken).toBeGreaterThan(50);
  });

  it('is not taken while a collider moves, and the results agree', () => {
    spy();
    const make = (): Scene => {
      const s = smallPile();
      const paddle = s.world.addCircleCollider(-1.3, 0.3, 0.12);
      return { world: s.world, drive: (step) => s.world.setColliderVelocity(paddle, step >= 150 && step < 250 ? 1 : 0, 0) };
    };
    // the paddle first waits (the shortcut may be taken), then sweeps through the bottom row
    const world = make();
    let takenWhileMoving = 0;
    for (let s = 0; s < 250; s++) {
      world.drive!(s);
      const before = outcome.taken;
      world.world.step();
      if (s >= 150) takenWhileMoving += outcome.taken - before;
    }
    expect(takenWhileMoving).toBe(0);
    expect(outcome.taken).toBeGreaterThan(0);
    expect(withAndWithoutShortcut(make, 250).firstDifference).toBe(-1);
  });

  it('hands a particle ending inside a polygon to the broad phase, which pushes it out', () => {
    spy();
    // a jelly spawned across a polygon collider's edge: its particles inside the polygon are far from every edge
    // the candidate search pairs them with, and only the response's polygon test sees them
    const make = (): Scene => {
      const sim = new SoftSim({ pixelsPerMetre: 100, originX: 0, originY: 500, gravity: [0, 0] });
      sim.sleeping = false;
      sim.bounds(0, 0, 800, 500);
      sim.polygon([300, 500, 300, 200, 600, 200, 600, 500]);
      sim.jelly(330, 190, { width: 120, height: 120, stiffness: 2e5, density: 20 });
      return { world: sim.world };
    };
    const s = make();
    const K = s.world.c.Particle;
    const inside = (): number => s.world.lists.particles.filter((e) => {
      const x = K.x[e]!, y = K.y[e]!;
      return x > 3.0 && x < 6.0 && y > 0 && y < 3.0;
    }).length;
    const before = inside();
    expect(before).toBeGreaterThan(10);
    s.world.step();
    expect(outcome.declined).toBeGreaterThan(0);
    expect(inside()).toBeLessThan(before);
    expect(withAndWithoutShortcut(make, 60).firstDifference).toBe(-1);
  });
});
