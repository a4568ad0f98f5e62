/** The PhysicsWorld API: entities, validation, determinism, independence from removal history. */
import { describe, expect, it } from 'vitest';
import { PhysicsWorld } from '../src/world';
import { InputError } from '../src/errors';

/** A small CST jelly (n×n grid of squares, two triangles each) with hinges on the top row. */
function jelly(world: PhysicsWorld, n: number, fixBottom = true): number[] {
  const ids: number[] = [];
  const h = 1 / n;
  for (let j = 0; j <= n; j++) {
    for (let i = 0; i <= n; i++) ids.push(world.addParticle({ x: i * h, y: j * h, m: 0.1, fixed: fixBottom && j === 0 }));
  }
  const at = (i: number, j: number) => ids[j * (n + 1) + i]!;
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      world.addTriangle(at(i, j), at(i + 1, j), at(i + 1, j + 1), { youngsModulus: 2000, poissonRatio: 0.3 });
      world.addTriangle(at(i, j), at(i + 1, j + 1), at(i, j + 1), { youngsModulus: 2000, poissonRatio: 0.3 });
    }
  }
  for (let i = 0; i + 2 <= n; i++) world.addHinge(at(i, n), at(i + 1, n), at(i + 2, n), { alpha: 0.5 });
  return ids;
}

describe('PhysicsWorld', () => {
  it('free fall with explicit Euler follows the closed form exactly', () => {
    const w = new PhysicsWorld({ dt: 0.01, gravity: [0, -10], integrator: 'explicit-euler' });
    w.addParticle({ x: 0, y: 0, m: 2 });
    for (let k = 0; k < 10; k++) w.step();
    const x = w.readPositions();
    const v = w.readVelocities();
    // v_k = −10 k h; y_k = −10 h² k(k−1)/2
    expect(v[1]).toBeCloseTo(-1, 12);
    expect(x[1]).toBeCloseTo(-10 * 0.0001 * 45, 12);
  });

  it('implicit Euler keeps a stiff jelly bounded and brings it to rest under gravity', () => {
    const w = new PhysicsWorld({ dt: 1 / 60 });
    jelly(w, 4);
    for (let k = 0; k < 300; k++) w.step();
    expect(w.lastStats.converged).toBe(true);
    const v = w.readVelocities();
    const x = w.readPositions();
    expect(Math.max(...v.map(Math.abs))).toBeLessThan(0.05);
    // sagged, but not collapsed
    const top = Math.max(...Array.from(x).filter((_, i) => i % 2 === 1));
    expect(top).toBeLessThan(1);
    expect(top).toBeGreaterThan(0.7);
  });

  it('is deterministic: the same inputs give bit-identical states', () => {
    const run = () => {
      const w = new PhysicsWorld({ dt: 1 / 60 });
      jelly(w, 3, false);
      w.addHalfplane(0, -1, 0, 1);
      for (let k = 0; k < 30; k++) w.step();
      return w.readPositions();
    };
    const a = run();
    const b = run();
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
  });

  it('results do not depend on removal history (entity ids recycled)', () => {
    const plain = new PhysicsWorld({ dt: 1 / 60 });
    jelly(plain, 3);
    const churned = new PhysicsWorld({ dt: 1 / 60 });
    // Create and remove some entities first so ids and query order differ.
    const junk = [0, 1, 2, 3].map((i) => churned.addParticle({ x: i, y: 5, m: 1 }));
    churned.addSpring(junk[0]!, junk[1]!, { alpha: 1 });
    churned.removeEntity(junk[2]!);
    churned.removeEntity(junk[0]!);
    jelly(churned, 3);
    churned.removeEntity(junk[1]!);
    churned.removeEntity(junk[3]!);
    expect(churned.lists.springs.length).toBe(0);
    for (let k = 0; k < 20; k++) {
      plain.step();
      churned.step();
    }
    const a = plain.readPositions();
    const b = churned.readPositions();
    expect(b.length).toBe(a.length);
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
  });

  it('removing a particle removes the elements that use it', () => {
    const w = new PhysicsWorld();
    const ids = jelly(w, 2);
    const before = w.lists.triangles.length;
    w.removeEntity(ids[4]!); // the centre particle: used by 6 triangles
    expect(w.lists.triangles.length).toBe(before - 6);
    w.step();
    expect(w.readPositions().every(Number.isFinite)).toBe(true);
  });

  it('grows component stores past their initial capacity', () => {
    const w = new PhysicsWorld({ gravity: null });
    const ids: number[] = [];
    for (let i = 0; i < 500; i++) ids.push(w.addParticle({ x: i, y: 0, m: 1, vx: 1 }));
    w.step();
    const x = w.readPositions();
    expect(x[2 * 499]).toBeCloseTo(499 + 1 / 60, 12);
  });

  it('rejects bad arguments with clear InputErrors', () => {
    const w = new PhysicsWorld();
    const a = w.addParticle({ x: 0, y: 0, m: 1 });
    const b = w.addParticle({ x: 1, y: 0, m: 1 });
    expect(() => w.addParticle({ x: NaN, y: 0, m: 1 })).toThrow(/addParticle: 'x': expected a number with \|x\| <= 1e9 \(m\), got NaN/);
    expect(() => w.addParticle({ x: 0, y: 0, m: -1 })).toThrow(InputError);
    expect(() => w.addSpring(a, a, { alpha: 1 })).toThrow(/addSpring: 'a' and 'b': expected two different particles/);
    expect(() => w.addSpring(a, 999, { alpha: 1 })).toThrow(/addSpring: 'b': expected a particle of this world, got 999/);
    expect(() => w.addTriangle(a, b, w.addParticle({ x: 2, y: 0, m: 1 }), { youngsModulus: 1, poissonRatio: 0.3 })).toThrow(/addTriangle: 'rest': expected a triangle of non-zero area/);
    expect(() => w.addTriangle(a, b, w.addParticle({ x: 0, y: 1, m: 1 }), { youngsModulus: 1, poissonRatio: 1 })).toThrow(/poissonRatio/);
    expect(() => new PhysicsWorld({ dt: 0 })).toThrow(/dt/);
    expect(() => w.removeEntity(12345)).toThrow(/removeEntity: 'eid': expected an engine entity of this world, got 12345/);
  });
});
