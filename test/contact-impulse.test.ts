/**
 * Contact events report the impulse the contact actually applied over each step (src/collision/response.ts,
 * solveImpulses): h times the solve's contact force at the solution, plus the velocity filter's impulse.
 * Check: over a landing, the sum of the reported normal impulses equals the body's momentum change minus
 * gravity's impulse (only gravity and contact act on the body's total momentum).
 */
import { describe, expect, it } from 'vitest';
import { PhysicsWorld } from '../src/world';
import { meshBox } from '../src/mesh';

function dropJelly(floor: 'halfplane' | 'segment', h0: number) {
  const w = new PhysicsWorld({ gravity: [0, -9.81] });
  w.contacts.enabled = true;
  w.contacts.friction = 0.5;
  const ground = floor === 'halfplane' ? w.addHalfplane(0, 0, 0, 1) : w.addSegmentCollider(-3, 0, 3, 0);
  const mesh = meshBox(0.4, 0.4, 4, 4);
  const body = w.createBody();
  const ids: number[] = [];
  for (let v = 0; v < mesh.positions.length / 2; v++) {
    ids.push(w.addParticle({ x: mesh.positions[2 * v]!, y: mesh.positions[2 * v + 1]! + 0.2 + h0, m: 0, radius: 0.02, body }));
  }
  for (let t = 0; t < mesh.triangles.length; t += 3) {
    w.addTriangle(ids[mesh.triangles[t]!]!, ids[mesh.triangles[t + 1]!]!, ids[mesh.triangles[t + 2]!]!, { youngsModulus: 2e4, poissonRatio: 0.3, density: 100 });
  }
  w.step();
  const t = w.topology();
  let M = 0;
  const p = (): number => {
    let s = 0;
    for (const e of ids) s += t.mass[2 * w.particleIndex(e)]! * w.c.Particle.vy[e]!;
    return s;
  };
  for (const e of ids) M += t.mass[2 * w.particleIndex(e)]!;
  const p0 = p();
  let J = 0, Jy = 0, steps = 0, maxJ = 0;
  for (let s = 0; s < 90; s++) {
    w.step();
    steps++;
    let js = 0;
    for (const ev of w.contacts.active) {
      if (ev.collider !== ground) continue;
      J += ev.impulse;
      Jy += ev.impulse * ev.ny;
      js += ev.impulse;
    }
    maxJ = Math.max(maxJ, js);
  }
  const dp = p() - p0;
  const gravity = -M * 9.81 * w.dt * steps;
  return { J, Jy, expected: dp - gravity, M, dt: w.dt, maxJ, pAfter: p() };
}

describe('contact impulse in events', () => {
  for (const floor of ['halfplane', 'segment'] as const) {
    it(`${floor}: Σ reported normal impulses over a landing = Δp − gravity impulse within 3 %`, () => {
      const r = dropJelly(floor, 0.3);
      // the jelly hit at about 2.4 m/s and came to rest: the contact took all its momentum and carried its weight
      expect(r.expected).toBeGreaterThan(r.M * 2);
      expect(Math.abs(r.Jy - r.expected) / r.expected).toBeLessThan(0.03);
      expect(Math.abs(r.J - r.expected) / r.expected).toBeLessThan(0.03);
    });
  }

  it('at rest the reported impulse per step is the weight times dt (within 2 %)', () => {
    const w = new PhysicsWorld({ gravity: [0, -9.81] });
    w.contacts.enabled = true;
    const ground = w.addHalfplane(0, 0, 0, 1);
    const mesh = meshBox(0.4, 0.4, 4, 4);
    const body = w.createBody();
    const ids: number[] = [];
    for (let v = 0; v < mesh.positions.length / 2; v++) ids.push(w.addParticle({ x: mesh.positions[2 * v]!, y: mesh.positions[2 * v + 1]! + 0.22, m: 0, radius: 0.02, body }));
    for (let t = 0; t < mesh.triangles.length; t += 3) {
      w.addTriangle(ids[mesh.triangles[t]!]!, ids[mesh.triangles[t + 1]!]!, ids[mesh.triangles[t + 2]!]!, { youngsModulus: 2e4, poissonRatio: 0.3, density: 100 });
    }
    for (let s = 0; s < 240; s++) w.step();
    let M = 0;
    const t = w.topology();
    for (const e of ids) M += t.mass[2 * w.particleIndex(e)]!;
    const J = w.contacts.active.filter((ev) => ev.collider === ground).reduce((a, ev) => a + ev.impulse, 0);
    expect(Math.abs(J - M * 9.81 * w.dt) / (M * 9.81 * w.dt)).toBeLessThan(0.02);
  });
});
