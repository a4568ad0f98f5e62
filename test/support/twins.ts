/**
 * Twin worlds for tests of shortcuts that must not change results (the response from the solve's candidates, the
 * candidate search's skin lists): a scene made twice, one twin altered (its shortcut turned off), stepped side by
 * side and compared bit for bit at every step. Also the contact scenes those tests share.
 */
import { SoftSim } from '../../src/game/sim';
import { addJelly20, contactWorld } from '../../src/cli/bench-scenes';
import type { PhysicsWorld } from '../../src/world';

export interface Scene {
  world: PhysicsWorld;
  drive?: (step: number) => void;
}

/**
 * Steps `make()` twice side by side, `alter` applied to the second: the first step at which positions, velocities,
 * contact events or touching pairs differ (−1: none), and the most pairs that touched in a step.
 */
export function compareTwins(make: () => Scene, steps: number, alter: (twin: Scene) => void): { firstDifference: number; touching: number } {
  const a = make(), b = make();
  alter(b);
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
export function colliderPage(sleeping: boolean): Scene {
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
export function smallPile(): Scene {
  const world = contactWorld([[0, 0, 0, 1], [-1.5, 0, 1, 0], [1.5, 0, -1, 0]]);
  for (let j = 0; j < 6; j++) addJelly20(world, j, -0.9 + 0.9 * (j % 3) + (j >= 3 ? 0.12 : -0.05), 0.5 + 0.9 * Math.floor(j / 3));
  return { world };
}

/** smallPile with a circle paddle that waits at the left wall, then sweeps through the bottom row (steps 150–249). */
export function paddlePile(): Scene {
  const s = smallPile();
  const paddle = s.world.addCircleCollider(-1.3, 0.3, 0.12);
  return { world: s.world, drive: (step) => s.world.setColliderVelocity(paddle, step >= 150 && step < 250 ? 1 : 0, 0) };
}
