/**
 * Game mode: a failing element or body is held, the rest of the world keeps moving (issue 16, item 4:
 * "one degenerate element freezes the whole world silently"). Before, a zero-length hinge, two
 * coincident particles joined by a spring or a free particle of mass 0 anywhere made every step fail
 * safe and an unrelated falling particle stayed where it was. src/systems/pipeline.ts, isolate().
 */
import { describe, expect, it } from 'vitest';
import { PhysicsWorld } from '../src/world';
import { SoftSim, type SoftFailSafe } from '../src/game/sim';

type Build = (w: PhysicsWorld) => number[];

const BROKEN: [string, Build][] = [
  ['a zero-length hinge', (w) => {
    const a = w.addParticle({ x: 0, y: 0, m: 1 }), b = w.addParticle({ x: 0, y: 0, m: 1 }), c = w.addParticle({ x: 1, y: 0, m: 1 });
    w.addHinge(a, b, c, { alpha: 1 });
    return [a, b, c];
  }],
  ['two coincident particles joined by a spring', (w) => {
    const a = w.addParticle({ x: 0, y: 0, m: 1 }), b = w.addParticle({ x: 0, y: 0, m: 1 });
    w.addSpring(a, b, { alpha: 10, l0: 1 });
    return [a, b];
  }],
  ['a free particle of mass 0', (w) => [w.addParticle({ x: 0, y: 0, m: 0 })]],
];

/** y of a particle dropped from (5, 5) after `steps` steps, alone in a world. */
function freeFall(steps: number): number {
  const w = new PhysicsWorld({});
  const p = w.addParticle({ x: 5, y: 5, m: 1 });
  for (let s = 0; s < steps; s++) w.step();
  return w.c.Particle.y[p]!;
}

describe('a failing island is held, the rest of the world steps', () => {
  for (const [what, build] of BROKEN) {
    it(`${what}: an unrelated particle falls exactly as it would alone, the failure is reported`, () => {
      const w = new PhysicsWorld({});
      const broken = build(w);
      const start = broken.map((e) => [w.c.Particle.x[e]!, w.c.Particle.y[e]!]);
      const p = w.addParticle({ x: 5, y: 5, m: 1 });
      for (let s = 0; s < 10; s++) {
        w.step();
        const st = w.lastStats;
        expect(st.failSafe).toBe('solver-error');
        expect(st.failSafeHeld).toBe(broken.length);
        expect(st.failSafeDetail).toMatch(/held \d+ particles? \(1 island\) at the start of the step, the rest of the world stepped/);
        expect(st.failSafeParticle).toBeGreaterThanOrEqual(0);
      }
      expect(w.lastStats.failSafeSteps).toBe(10);
      expect(w.c.Particle.y[p]).toBe(freeFall(10)); // bit for bit: the held island did not touch it
      broken.forEach((e, k) => {
        expect(w.c.Particle.x[e]).toBe(start[k]![0]);
        expect(w.c.Particle.y[e]).toBe(start[k]![1]);
      });
    });
  }

  it('a jelly with a degenerate element is held; another jelly lands; repairing the element frees it at the next step', () => {
    const w = new PhysicsWorld({});
    w.addHalfplane(0, 0, 0, 1);
    w.contacts.enabled = true;
    const jelly = (x0: number) => {
      const body = w.createBody();
      const ids: number[] = [];
      for (let j = 0; j < 3; j++) for (let i = 0; i < 3; i++) ids.push(w.addParticle({ x: x0 + 0.1 * i, y: 0.5 + 0.1 * j, m: 0, radius: 0.01, body }));
      for (let j = 0; j < 2; j++) {
        for (let i = 0; i < 2; i++) {
          const a = ids[3 * j + i]!, b = ids[3 * j + i + 1]!, c = ids[3 * j + i + 3]!, d = ids[3 * j + i + 4]!;
          w.addTriangle(a, b, d, { youngsModulus: 1e4, poissonRatio: 0.3, density: 100, material: 'neohookean' });
          w.addTriangle(a, d, c, { youngsModulus: 1e4, poissonRatio: 0.3, density: 100, material: 'neohookean' });
        }
      }
      return { body, ids };
    };
    const good = jelly(0), bad = jelly(2);
    // a zero-length hinge inside the second jelly: its top corner doubled
    const twin = w.addParticle({ x: w.c.Particle.x[bad.ids[8]!]!, y: w.c.Particle.y[bad.ids[8]!]!, m: 0.1, radius: 0.01, body: bad.body });
    const hinge = w.addHinge(bad.ids[8]!, twin, bad.ids[7]!, { alpha: 1 });
    const badY0 = w.c.Particle.y[bad.ids[0]!]!;
    for (let s = 0; s < 60; s++) {
      w.step();
      expect(w.lastStats.failSafe).toBe('solver-error');
      expect(w.lastStats.failSafeBody).toBe(bad.body);
      expect(w.lastStats.failSafeHeld).toBe(10);
    }
    expect(w.c.Particle.y[bad.ids[0]!]).toBe(badY0);
    const goodLow = Math.min(...good.ids.map((e) => w.c.Particle.y[e]!));
    expect(goodLow).toBeLessThan(0.05); // it fell 0.5 m onto the floor
    expect(goodLow).toBeGreaterThan(-0.01);
    // repair: remove the hinge; the held jelly falls from the next step on
    w.removeEntity(hinge);
    w.step();
    expect(w.lastStats.failSafe).toBe('');
    expect(w.lastStats.failSafeHeld).toBe(0);
    expect(w.c.Particle.y[bad.ids[0]!]).toBeLessThan(badY0);
  });

  it('is deterministic: two runs, the same state hashes', () => {
    const run = () => {
      const w = new PhysicsWorld({});
      BROKEN[0]![1](w);
      w.addParticle({ x: 5, y: 5, m: 1 });
      const hashes: string[] = [];
      for (let s = 0; s < 5; s++) {
        w.step();
        hashes.push(w.stateHash());
      }
      return hashes;
    };
    expect(run()).toEqual(run());
  });

  it('when the failing island is the whole world, nothing moves (the island is held, as the world was before)', () => {
    const w = new PhysicsWorld({});
    const a = w.addParticle({ x: 0, y: 0, m: 1 }), b = w.addParticle({ x: 0, y: 0, m: 1 }), c = w.addParticle({ x: 1, y: 0, m: 1 });
    w.addHinge(a, b, c, { alpha: 1 });
    // the same hinge joined to the falling particle: one island, so holding it holds everything
    const p = w.addParticle({ x: 5, y: 5, m: 1 });
    w.addSpring(c, p, { alpha: 1 });
    const y0 = w.c.Particle.y[p]!;
    w.step();
    expect(w.lastStats.failSafe).toBe('solver-error');
    expect(w.lastStats.failSafeHeld).toBe(4);
    expect(w.c.Particle.y[p]).toBe(y0);
  });
});

describe("SoftSim.on('failsafe')", () => {
  it('reports the step, the reason, the body handle and the held count; off() stops it', () => {
    const sim = new SoftSim({ pixelsPerMetre: 100, originX: 0, originY: 600 });
    sim.bounds(0, 0, 800, 600);
    const ok = sim.jelly(200, 300, { width: 80, height: 80, stiffness: 3e4, density: 50 });
    const broken = sim.jelly(500, 300, { width: 80, height: 80, stiffness: 3e4, density: 50 });
    const w = sim.world;
    const [a, b] = broken.particles as number[];
    const twin = w.addParticle({ x: w.c.Particle.x[a!]!, y: w.c.Particle.y[a!]!, m: 0.1, body: broken.bodyId });
    w.addHinge(a!, twin, b!, { alpha: 1 });
    const seen: SoftFailSafe[] = [];
    const fn = (e: SoftFailSafe) => seen.push(e);
    sim.on('failsafe', fn);
    const okY = w.c.Particle.y[ok.particles[0]!]!;
    for (let s = 0; s < 5; s++) sim.stepOnce();
    expect(seen.length).toBe(5);
    expect(seen[4]!.step).toBe(w.stepCount);
    expect(seen[4]!.reason).toBe('solver-error');
    expect(seen[4]!.body).toBe(broken);
    expect(seen[4]!.held).toBe(broken.particles.length + 1);
    expect(seen[4]!.detail).toMatch(/the rest of the world stepped/);
    expect(w.c.Particle.y[ok.particles[0]!]).toBeLessThan(okY); // the other jelly falls
    sim.off('failsafe', fn);
    sim.stepOnce();
    expect(seen.length).toBe(5);
    expect(() => sim.on('failsafe', 42 as never)).toThrow(/on: 'fn': expected a function/);
  });
});
