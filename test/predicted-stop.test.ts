/**
 * Predicted-error stops (src/solver/newton.ts, NewtonSolver.contractionMax; docs/solver.md "Predicted-error
 * stops"): where chord chains run, a chain's first chord measures its factor's contraction θ, and a later rest
 * chord on that factor ends the solve when θ/(1 − θ) × its step is within the tolerance.
 *   - a settling clamped jelly (both linear-solver paths) ends many steps on one chord instead of two, and each
 *     such step lands within one step tolerance of a tightly converged solve from the same state;
 *   - hanging spring sheets, whose factor ages fast as they swing: steps ended so are no further from the tight
 *     solve than Newton-ended steps (a measurement above contractionMax must drop the carried estimate: kept,
 *     the sheet pinned along its top ended a step 4.9 tolerances off);
 *   - kicked jellies of every material: no unconverged step more, each stop within the tolerance;
 *   - snapshots carry the estimate (a restored world continues bit-identically), and refuse a forged one.
 */
import { describe, expect, it } from 'vitest';
import { PhysicsWorld } from '../src/world';
import { MATERIAL_NAMES } from '../src/elements';
import { meshSheet } from '../src/mesh/grid';
import { kickedJelly } from './support/rest-chord';
import { digest } from './support/digest';
import { maxDiff } from './support/islands';

/** A hanging sheet of springs (12 × 12 cells, 1 m), pinned at its two top corners or along its top, some nodes pushed sideways. */
function sheet(pin: 'corners' | 'top'): PhysicsWorld {
  const w = new PhysicsWorld({ dt: 1 / 60, integrator: 'implicit-euler' });
  const m = meshSheet(1, 1, 12, 12);
  const top = Array.from(m.top);
  const pinned = new Set(pin === 'corners' ? [top[0]!, top[top.length - 1]!] : top);
  const ids: number[] = [];
  for (let v = 0; v < m.positions.length / 2; v++) {
    ids.push(w.addParticle({ x: m.positions[2 * v]!, y: m.positions[2 * v + 1]!, m: 0.01, fixed: pinned.has(v), vx: v % 7 === 0 ? 1 : 0 }));
  }
  for (let e = 0; e < m.edges.length; e += 2) w.addSpring(ids[m.edges[e]!]!, ids[m.edges[e + 1]!]!, { alpha: 500 });
  w.step();
  return w;
}

interface Comparison {
  /** Steps ended on a predicted-error stop. */
  stops: number;
  /** Largest distance (in step tolerances) from the tight solve: of steps ended on a stop, of the others, and without stops. */
  stopErr: number;
  otherErr: number;
  offErr: number;
  unconverged: number;
  unconvergedOff: number;
  chained: number;
  chainedOff: number;
}

/**
 * Steps `w` `steps` times. Before each step, two copies restored from its snapshot take the same step: one with
 * predicted-error stops off, one converged tightly (tolerance 1e-10, 64 iterations). Distances are in `w`'s step
 * tolerances (1e-6 × the diagonal of the free particles' box), over steps all three solves converged.
 */
function compare(w: PhysicsWorld, steps: number): Comparison {
  const off = new PhysicsWorld(), tight = new PhysicsWorld();
  const nw = w.newtonSolver();
  const r: Comparison = { stops: 0, stopErr: 0, otherErr: 0, offErr: 0, unconverged: 0, unconvergedOff: 0, chained: 0, chainedOff: 0 };
  const fixed = new Set<number>();
  const P = w.c.Particle;
  w.lists.particles.forEach((e, i) => { if (P.fixed[e] === 1) fixed.add(i); });
  for (let s = 0; s < steps; s++) {
    const bytes = w.snapshot();
    off.restore(bytes);
    off.newtonSolver().contractionMax = 0;
    tight.restore(bytes);
    tight.newton = { ...(tight.newton as Exclude<PhysicsWorld['newton'], 'fosssim'>), tolerance: 1e-10, maxIters: 64 };
    tight.newtonSolver().contractionMax = 0;
    const stops0 = nw.predictedStops, chained0 = nw.chainedChordIters, chainedOff0 = off.newtonSolver().chainedChordIters;
    w.step();
    off.step();
    tight.step();
    const stopped = nw.predictedStops > stops0;
    r.stops += stopped ? 1 : 0;
    r.chained += nw.chainedChordIters - chained0;
    r.chainedOff += off.newtonSolver().chainedChordIters - chainedOff0;
    r.unconverged += w.lastStats.converged ? 0 : 1;
    r.unconvergedOff += off.lastStats.converged ? 0 : 1;
    const x = tight.readPositions(), a = w.readPositions(), b = off.readPositions();
    let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
    for (let i = 0; 2 * i < x.length; i++) {
      if (fixed.has(i)) continue;
      minX = Math.min(minX, x[2 * i]!); maxX = Math.max(maxX, x[2 * i]!);
      minY = Math.min(minY, x[2 * i + 1]!); maxY = Math.max(maxY, x[2 * i + 1]!);
    }
    const tol = 1e-6 * Math.sqrt((maxX - minX) ** 2 + (maxY - minY) ** 2);
    const da = maxDiff(a, x), db = maxDiff(b, x);
    if (!tight.lastStats.converged) continue;
    if (w.lastStats.converged) {
      if (stopped) r.stopErr = Math.max(r.stopErr, da / tol);
      else r.otherErr = Math.max(r.otherErr, da / tol);
    }
    if (off.lastStats.converged) r.offErr = Math.max(r.offErr, db / tol);
  }
  if (process.env.PRINT_PREDICTED) console.log(JSON.stringify(r));
  return r;
}

describe('predicted-error stops', () => {
  for (const pcg of [true, false]) {
    it(`a settling clamped jelly (${pcg ? 'PCG' : 'direct'} path): fewer chained chords, each stop within one step tolerance of a tight solve`, () => {
      const r = compare(kickedJelly('fosssim', 0, { pcg }, 400), 240);
      expect(r.stops).toBeGreaterThan(40);
      expect(r.chained).toBeLessThan(r.chainedOff / 2);
      expect(r.stopErr).toBeGreaterThan(0);
      expect(r.stopErr).toBeLessThan(1);
      expect(r.unconverged).toBe(0);
    });
  }

  for (const pin of ['corners', 'top'] as const) {
    it(`a hanging spring sheet pinned ${pin === 'top' ? 'along its top' : 'at two corners'}: steps ended on a stop are no further from a tight solve than Newton's`, () => {
      const r = compare(sheet(pin), 300);
      expect(r.stops).toBeGreaterThan(10);
      expect(r.stopErr).toBeLessThan(2);
      expect(r.stopErr).toBeLessThan(r.offErr);
    });
  }

  for (const material of MATERIAL_NAMES) {
    it(`${material}: a kicked jelly takes no more unconverged steps, and its stops are within the tolerance`, () => {
      const r = compare(kickedJelly(material, 6, { pcg: material === 'stvk' || material === 'corotational' }), 150);
      expect(r.unconverged).toBeLessThanOrEqual(r.unconvergedOff);
      expect(r.stopErr).toBeLessThan(1.5);
    });
  }

  for (const pcg of [true, false]) {
    it(`a snapshot carries the estimate (${pcg ? 'PCG' : 'direct'} path): restored, the world continues bit-identically, stops included`, () => {
      const w = kickedJelly('fosssim', 0, { pcg }, 400);
      const nw = w.newtonSolver();
      // the snapshot taken just before the first step that stops: that stop uses the carried estimate
      let s = 0, snap = w.snapshot();
      for (; s < 200 && nw.predictedStops === 0; s++) {
        snap = w.snapshot();
        w.step();
      }
      expect(s).toBeLessThan(200);
      // restored into a world tuned the same (the solver's tuning, pcgMinDofs 0, is not state)
      const copy = kickedJelly('fosssim', 0, { pcg }, 400);
      copy.restore(snap);
      const cw = copy.newtonSolver();
      const stops0 = cw.predictedStops;
      copy.step();
      expect(cw.predictedStops - stops0).toBe(1);
      const a0 = nw.predictedStops;
      for (let k = 0; k < 60; k++) {
        w.step();
        copy.step();
      }
      expect(cw.predictedStops - stops0 - 1).toBe(nw.predictedStops - a0);
      expect(digest(copy)).toBe(digest(w));
      expect(copy.stateHash()).toBe(w.stateHash());
    });
  }

  it('whatever contractionMax a game sets, the carried estimate stays below 1: every snapshot restores', () => {
    // θ up to 0.84 on the two-corner sheet; a θ of 0.5 or more would carry η = θ/(1 − θ) ≥ 1, which restore refuses
    const w = sheet('corners');
    w.newtonSolver().contractionMax = 1;
    const copy = sheet('corners');
    let largest = 0;
    for (let s = 0; s < 400; s++) {
      w.step();
      largest = Math.max(largest, (w.newtonSolver() as unknown as { contraction: number }).contraction);
      expect(() => copy.restore(w.snapshot())).not.toThrow(); // 10 of 400 were refused (η up to 2.6) before
    }
    expect(largest).toBeGreaterThan(0.25); // large estimates were carried (θ > 0.2)
    expect(largest).toBeLessThan(1);
  });

  it('a forged estimate (NaN, 1 or more) in a snapshot is refused with a message, the world unchanged', () => {
    const target = kickedJelly('fosssim', 0, { pcg: true });
    for (let k = 0; k < 5; k++) target.step();
    const before = target.stateHash();
    for (const forged of [Number.NaN, 1, 7, -0.5]) {
      const w = kickedJelly('fosssim', 0, { pcg: true });
      for (let k = 0; k < 5; k++) w.step();
      const nw = w.newtonSolver() as unknown as { contraction: number; contractionFactor: number; factorCount: number };
      nw.contraction = forged;
      nw.contractionFactor = nw.factorCount;
      const bytes = w.snapshot();
      expect(() => target.restore(bytes), String(forged)).toThrow(/the factor contraction is .*expected a number in \[0, 1\)/);
      expect(target.stateHash()).toBe(before);
    }
  });
});
