/**
 * The game layer's collision filters, sensors and one-way platforms (pixels, y down): SoftBody.setCollisionFilter /
 * setSensor, soft.circle / segment options, the `sensor` flag of SoftContact.
 */
import { describe, expect, it } from 'vitest';
import { SoftSim, type SoftContact } from '../src/game/sim';

function sim(): SoftSim {
  return new SoftSim({ pixelsPerMetre: 100, originX: 0, originY: 600, gravity: [0, 981] });
}
function steps(s: SoftSim, n: number): void {
  for (let i = 0; i < n; i++) s.stepOnce();
}

describe('game layer: filters, sensors, one-way', () => {
  it('a coin sensor reports contactstart with sensor: true and does not slow the falling jelly', () => {
    const run = (coin: boolean) => {
      const s = sim();
      s.bounds(0, 0, 800, 600);
      const c = coin ? s.circle(400, 300, 20, { sensor: true }) : null;
      const b = s.jelly(400, 100, { width: 60, height: 60, stiffness: 3e4, density: 50 });
      const got: boolean[] = [];
      s.on('contactstart', (e: SoftContact) => {
        if (c && e.collider === c) got.push(e.sensor);
      });
      steps(s, 60);
      return { got, y: b.centroid.y, vy: b.velocity.y };
    };
    const a = run(true), b = run(false);
    expect(a.got).toEqual([true]);
    expect(a.y).toBe(b.y);
    expect(a.vy).toBe(b.vy);
  });

  it('a one-way platform (oneWay: true) lets a jumping jelly up through and holds it on top', () => {
    const s = sim();
    s.bounds(0, 0, 800, 600);
    s.segment(300, 400, 500, 400, 10, { oneWay: true });
    const b = s.jelly(400, 560, { width: 60, height: 60, stiffness: 3e4, density: 50 });
    steps(s, 20); // settle on the floor
    b.applyImpulse(0, -b.mass * 700); // ≈ 7 m/s up
    steps(s, 120);
    const box = b.boundingBox;
    expect(box.y + box.height).toBeLessThan(396); // resting on the platform's top (y 395)
    expect(box.y + box.height).toBeGreaterThan(380);
  });

  it('setCollisionFilter: two jellies with exclusive masks pass through each other; setSensor ignores the floor', () => {
    const s = sim();
    s.bounds(0, 0, 800, 600);
    const a = s.jelly(400, 540, { width: 80, height: 80, stiffness: 3e4, density: 50 }).setCollisionFilter({ category: 2, mask: 1 });
    const b = s.jelly(400, 300, { width: 60, height: 60, stiffness: 3e4, density: 50 }).setCollisionFilter({ category: 4, mask: 1 });
    expect(b.collisionFilter).toEqual({ category: 4, mask: 1, sensor: undefined });
    steps(s, 90);
    const bottom = (x: { y: number; height: number }): number => x.y + x.height;
    expect(bottom(b.boundingBox)).toBeGreaterThan(590); // on the floor, inside a
    expect(bottom(a.boundingBox)).toBeGreaterThan(590);
    b.setSensor(true);
    steps(s, 30);
    expect(b.boundingBox.y).toBeGreaterThan(600); // through the floor
  });
});
