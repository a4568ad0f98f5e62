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
import { colliderPage, compareTwins, paddlePile, smallPile, type Scene } from './support/twins';

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

/** Steps `make()` twice side by side, one world with a no-op system after the solve (which turns the shortcut off). */
function withAndWithoutShortcut(make: () => Scene, steps: number): { firstDifference: number; touching: number } {
  return compareTwins(make, steps, (twin) => twin.world.addSystem('solve', () => {}));
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
    const make = paddlePile;
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
