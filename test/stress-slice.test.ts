/**
 * A fast slice of the game-mode stress matrix (issue 16, item 4; the whole matrix is `npm run stress`,
 * test/stress/main.ts): the cells that failed before the fixes, 300 steps each.
 *
 *   neohookean E = 100 Pa, dt = 1/30, rest (ν 0.3 and 0.49)  exploded (|x| 451 m and 2,500 m): the old C²
 *       extension of 1/J let a triangle shrunk to a point fall below its rest energy, and the initial
 *       guess x̃ could invert soft triangles that the line search then never guarded
 *   stvk / neohookean / corotational E = 1e4, dt = 1/60, ν = 0.3, mirrored  20 / 99 / … triangles still
 *       inverted after 300 steps: self-contact kept the body from turning back through itself
 *   stvk E = 1e6, dt = 1/30, ν = 0.3, scrambled with newton.maxStepIters = 10  (no step budget before:
 *       20 iterations a step, hundreds of steps)
 *   neohookean E = 1e4, dt = 1/240, ν = 0.3, mirrored  hung in mid-air with 19 triangles inverted: the
 *       inversion guard cut every step to nothing beside a recovering neighbour (src/systems/inversion.ts)
 *   neohookean E = 1e6, dt = 1/240, ν = 0.3, scrambled  exploded (|x| 2,174 m): the quadratic Taylor
 *       continuation of 1/J stored |F|⁶ energy in inverted triangles (src/elements/materials.ts, nhG)
 *   neohookean mirrored at E = 1e4, dt = 1/30, ν = 0; E = 1e6, dt = 1/240, ν = 0; E = 100 Pa, dt = 1/60, ν = 0.3
 *       73 / 62 / 91 triangles still inverted after 300 steps (stop 45): a triangle squeezed flat contracted
 *       towards a point (the continuation's shape term; src/elements/materials.ts, nhSize)
 *   neohookean E = 1e6, dt = 1/60, mirrored (ν 0 and 0.3)  159–200 triangles still inverted after 300 steps
 *       (since fb9a5f0, found by the whole matrix in stop 25): a particle past its own body's edge was no
 *       longer put back after the solve, and the body did not turn back (src/collision/response.ts,
 *       selfFolded)
 */
import { describe, expect, it } from 'vitest';
import { PhysicsWorld } from '../src/world';
import { actorInverted } from '../src/collision/response';
import type { ContactBoundary } from '../src/collision/boundary';
import { MATERIAL_NAMES, type MaterialName } from '../src/elements';
import { buildCell, defects, runCell, type Cell } from './stress/matrix';

const cell = (material: Cell['material'], E: number, dtInv: number, nu: number, start: Cell['start']): Cell => ({ material, E, dt: 1 / dtInv, nu, start });

describe('game mode under abuse (the stress matrix\'s worst cells)', () => {
  for (const c of [cell('neohookean', 1e2, 30, 0.3, 'rest'), cell('neohookean', 1e2, 30, 0.49, 'rest')]) {
    it(`${c.material} E=${c.E} ν=${c.nu} dt=1/30 dropped at rest: never explodes, never below the floor`, { timeout: 180_000 }, () => {
      const r = runCell(c);
      expect(r.steps).toBe(300);
      expect(defects(r)).toEqual([]);
      expect(r.maxAbs).toBeLessThan(2); // a 0.5 m jelly on the floor at x = 0
      expect(r.minY).toBeGreaterThan(-0.02);
    });
  }

  for (const material of ['stvk', 'neohookean', 'corotational'] as const) {
    it(`${material} E=1e4 mirrored (every triangle inverted): recovers, no triangle inverted at the end`, { timeout: 180_000 }, () => {
      const r = runCell(cell(material, 1e4, 60, 0.3, 'mirrored'));
      expect(defects(r)).toEqual([]);
      expect(r.invertedEnd).toBe(0);
      expect(r.failSafeSteps).toBe(0);
    });
  }

  it('neohookean E=1e4 dt=1/240 mirrored: never hangs in mid-air (inversion-guard deadlock), recovers', { timeout: 180_000 }, () => {
    const r = runCell(cell('neohookean', 1e4, 240, 0.3, 'mirrored'));
    expect(defects(r)).toEqual([]);
    expect(r.frozen).toBe(false);
    expect(r.invertedEnd).toBe(0);
    expect(r.minY).toBeLessThan(0.05); // it reached the floor
  });

  for (const nu of [0, 0.3]) {
    it(`neohookean E=1e6 dt=1/60 ν=${nu} mirrored: turns back (a folded body's own floor pairs are put back after the solve)`, { timeout: 180_000 }, () => {
      const r = runCell(cell('neohookean', 1e6, 60, nu, 'mirrored'));
      expect(defects(r)).toEqual([]);
      expect(r.invertedEnd).toBe(0);
      expect(r.failSafeSteps).toBe(0);
    });
  }

  for (const [E, dtInv, nu] of [[1e4, 30, 0], [1e6, 240, 0], [1e2, 60, 0.3]] as const) {
    it(`neohookean E=${E} dt=1/${dtInv} ν=${nu} mirrored: turns back (a flattened triangle kept its size only with the size term)`, { timeout: 180_000 }, () => {
      const r = runCell(cell('neohookean', E, dtInv, nu, 'mirrored'));
      expect(defects(r)).toEqual([]);
      expect(r.invertedEnd).toBe(0);
      expect(r.failSafeSteps).toBe(0);
    });
  }

  it('neohookean E=1e6 dt=1/240 scrambled: the energy stored in inverted triangles does not blow the jelly away', { timeout: 180_000 }, () => {
    const r = runCell(cell('neohookean', 1e6, 240, 0.3, 'scrambled'));
    expect(defects(r)).toEqual([]);
    expect(r.maxAbs).toBeLessThan(5);
  });

  it('a scrambled start with newton.maxStepIters = 10: no step takes more, the state stays valid and recovers', { timeout: 180_000 }, () => {
    const r = runCell(cell('stvk', 1e6, 30, 0.3, 'scrambled'), 300, { maxStepIters: 10 });
    expect(r.itersMax).toBeLessThanOrEqual(10);
    expect(defects(r)).toEqual([]);
    expect(r.failSafeSteps).toBe(0);
    expect(r.invertedEnd).toBe(0);
  });
});

describe('newton.maxStepIters (the step budget)', () => {
  it('is validated, kept by snapshots, and bounds the iterations of a step with contact refinements', () => {
    expect(() => runCell(cell('stvk', 1e6, 30, 0.3, 'rest'), 1, { maxStepIters: -1 })).not.toThrow(); // runCell reports, never throws
    expect(runCell(cell('stvk', 1e6, 30, 0.3, 'rest'), 1, { maxStepIters: -1 }).exception).toMatch(/maxStepIters': expected a whole number in \[0, 1000\]/);
    expect(runCell(cell('stvk', 1e6, 30, 0.3, 'rest'), 1, { maxStepIters: 2.5 }).exception).toMatch(/maxStepIters/);
    const { world } = buildCell(cell('corotational', 1e6, 30, 0.3, 'scrambled'), { maxStepIters: 3 });
    for (let s = 0; s < 20; s++) {
      world.step();
      expect(world.lastStats.newtonIters).toBeLessThanOrEqual(3);
    }
    const copy = PhysicsWorld.fromSnapshot(world.snapshot());
    expect(copy.newton).toEqual(world.newton);
    expect((copy.newton as { maxStepIters: number }).maxStepIters).toBe(3);
    world.step();
    copy.step();
    expect(copy.stateHash()).toBe(world.stateHash());
  });
});

describe('floor pairs of a folded body (src/collision/response.ts actorInverted)', () => {
  // A body's own floor pairs are put back after the solve only while a triangle of a material that
  // resists inversion is inverted: a reflection-invariant material rests folded, and putting its pairs
  // back every step stirred the bench's stirred scene (26–42 → 37–71 ms median per 500 steps).
  const one = (material: MaterialName, mirrored: boolean): boolean => {
    const w = new PhysicsWorld({});
    const body = w.createBody();
    const ids = [[0, 0], [1, 0], [0, 1]].map(([x, y]) => w.addParticle({ x: x!, y: y!, m: 0, body }));
    w.addTriangle(ids[0]!, ids[1]!, ids[2]!, { youngsModulus: 1e4, poissonRatio: 0.3, density: 10, material });
    const t = w.topology();
    const x0 = w.readPositions();
    if (mirrored) x0[2 * w.particleIndex(ids[2]!) + 1] = -1; // (0, 1) → (0, −1): the triangle inverted
    const bnd = { actor: () => body } as unknown as ContactBoundary;
    return actorInverted(t, bnd, x0, body);
  };
  for (const m of MATERIAL_NAMES) {
    it(`${m}: an inverted triangle counts only for a material that resists inversion`, () => {
      expect(one(m, false)).toBe(false);
      expect(one(m, true)).toBe(m === 'neohookean' || m === 'corotational');
    });
  }
});
