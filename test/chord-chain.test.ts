/**
 * Chord chains (src/solver/newton.ts NewtonSolver.chordChain, docs/solver.md "Chord chains"): on the PCG
 * path, and on the direct path of a world without contact, a rest chord taken whole but not within the
 * tolerance is followed by more chord iterations on the same factor while they are whole and
 * contracting, instead of Newton's iterations (a Hessian assembly and a PCG solve or a factorization
 * each); the rest chord there is not bound to the last assembly's iterate, and a chord step whose whole
 * length is within the tolerance ends the solve even when the line search cut it (round-off at the
 * minimum). These tests check, against chordChain = 0 (the solver before, bit for bit:
 * test/solver-bitexact.test.ts):
 *   - a settling clamped jelly (the bench's jelly scene), on either path, assembles far less (and runs
 *     far fewer PCG iterations), and once settled never assembles (without chains it alternated chord
 *     and Newton);
 *   - kicked jellies of every material take no more assemblies, PCG iterations or unconverged steps (a
 *     long rest chord far from its factor is not taken; the chain's chords do not count against the
 *     iteration limit), and neither does a swinging rope (springs and hinges), which a taken one hurt;
 *   - each step, taken by both from the same state, ends within one Newton step tolerance of the other;
 *   - a world with contact chains only with contact chords (NewtonSolver.contactChords; its rest chords keep the
 *     distance test either way);
 *   - a snapshot taken after a chained step continues bit-identically;
 *   - once settled, a step within the tolerance is tried whole only (no line-search halvings on rounding).
 */
import { describe, expect, it } from 'vitest';
import { PhysicsWorld } from '../src/world';
import { MATERIAL_NAMES, type MaterialName } from '../src/elements';
import { buildScene } from '../src/cli/bench-scenes';
import { digest } from './support/digest';
import { maxDiff } from './support/islands';
import { kickedJelly, tuneSolver } from './support/rest-chord';
import { ropePoints } from '../src/mesh/rope';
import { meshBox } from '../src/mesh';

/**
 * A kicked clamped jelly (test/support/rest-chord.ts) with the given chordChain, on the PCG path or the direct
 * one; without predicted-error stops, which end some chains' rest chords early (test/predicted-stop.test.ts).
 */
function jelly(material: MaterialName, kick: number, chordChain: number, triangles = 200, pcg = true, guessStop = true): PhysicsWorld {
  return kickedJelly(material, kick, { pcg, chordChain, contractionMax: 0, guessStop }, triangles);
}

interface Counts {
  iters: number;
  /** Newton iterations that assembled the Hessian (iterations − chord iterations). */
  assemblies: number;
  cg: number;
  chained: number;
  unconverged: number;
  /** Assemblies per step. */
  perStep: number[];
}

function run(w: PhysicsWorld, steps: number): Counts {
  const nw = w.newtonSolver();
  const c0 = nw.chordIters, cg0 = nw.cgItersTotal, ch0 = nw.chainedChordIters;
  const perStep: number[] = [];
  let iters = 0, unconverged = 0;
  for (let s = 0; s < steps; s++) {
    const before = nw.chordIters;
    w.step();
    iters += w.lastStats.newtonIters;
    perStep.push(w.lastStats.newtonIters - (nw.chordIters - before));
    if (!w.lastStats.converged) unconverged++;
  }
  const chords = nw.chordIters - c0;
  return { iters, assemblies: iters - chords, cg: nw.cgItersTotal - cg0, chained: nw.chainedChordIters - ch0, unconverged, perStep };
}

describe('chord chains', () => {
  for (const pcg of [true, false]) {
    it(`a settled clamped jelly (${pcg ? 'PCG' : 'direct'} path): each step's line search tries its step whole only, no halvings at the minimum`, () => {
      // Φ's decrease along a step within the tolerance is rounding there; halving such a step up to 30 times
      // found a point rounding could not tell from the start: 325 (PCG) and 352 (direct) trials for 120 iterations in
      // steps 240–360, up to 23 in one step (the 1k bench jelly's p95 steps), before the round-off rule
      const w = kickedJelly('fosssim', 0, { pcg }, 400);
      for (let s = 0; s < 240; s++) w.step();
      const nw = w.newtonSolver();
      const t0 = nw.lineSearchTrials;
      let iters = 0;
      for (let s = 0; s < 120; s++) {
        w.step();
        iters += w.lastStats.newtonIters;
        expect(w.lastStats.converged).toBe(true);
      }
      expect(nw.lineSearchTrials - t0).toBe(iters);
    });

    it(`a settling clamped jelly (${pcg ? 'PCG' : 'direct'} path) assembles less than half as often, and not at all once settled`, () => {
      // measured (400 triangles, 360 steps), PCG path: assemblies 239 → 76, PCG iterations 736 → 246,
      // Newton iterations (chords included) 549 → 555, 85 chained chords, in the last 120 steps 70
      // assemblies → 0; direct path: assemblies 284 → 109, Newton iterations 542 → 550, 81 chained chords,
      // last 120 steps 62 → 0. Both without the stop at the guess (guessStop), which ends half these steps with no
      // iteration (chains or not) and so is a baseline of its own: with it, assemblies 163 → 76 (PCG) and 214 → 109
      // (direct) for Newton iterations 343 → 378 and 342 → 373 (test/constant-guess.test.ts)
      const off = run(jelly('fosssim', 0, 0, 400, pcg, false), 360);
      const on = run(jelly('fosssim', 0, 3, 400, pcg, false), 360);
      expect(off.chained).toBe(0);
      expect(on.chained).toBeGreaterThan(40);
      expect(on.unconverged).toBe(0);
      expect(off.unconverged).toBe(0);
      expect(on.assemblies).toBeLessThan(0.5 * off.assemblies);
      if (pcg) expect(on.cg).toBeLessThan(0.5 * off.cg);
      expect(on.iters).toBeLessThanOrEqual(off.iters + 20); // rest chords not taken count as iterations
      const late = (c: Counts): number => c.perStep.slice(-120).reduce((a, b) => a + b, 0);
      expect(late(off)).toBeGreaterThan(30); // chord, Newton, Newton …: a cut rest chord went back to Newton
      expect(late(on)).toBe(0);
    });
  }

  for (const m of MATERIAL_NAMES) {
    it(`${m}: a kicked jelly takes no more assemblies, PCG iterations or unconverged steps`, () => {
      // measured (200 steps, assemblies / PCG iterations / unconverged): fosssim 481 / 3011 / 10 → 475 /
      // 2975 / 10, stvk 484 / 3116 / 0 → 478 / 3080 / 0, neohookean 422 / 2398 / 0 → 403 / 2296 / 0,
      // corotational 444 / 2111 / 0 → 431 / 2047 / 0 (its rest chords far from the factor are long: not taken)
      const off = run(jelly(m, 6, 0), 200);
      const on = run(jelly(m, 6, 3), 200);
      expect(on.assemblies).toBeLessThanOrEqual(off.assemblies);
      expect(on.cg).toBeLessThanOrEqual(off.cg);
      expect(on.unconverged).toBeLessThanOrEqual(off.unconverged);
    });
  }

  it('a swinging rope (springs and hinges, no contact): a long rest chord far from its factor is not taken', () => {
    // taking it (the first version of chains) left 12 of 300 steps unconverged, against none
    const rope = (chordChain: number): PhysicsWorld => {
      const w = new PhysicsWorld({ dt: 1 / 60, integrator: 'implicit-euler' });
      const pts = ropePoints(0, 0, 2, 0, 40);
      const ids: number[] = [];
      for (let i = 0; i < pts.length / 2; i++) ids.push(w.addParticle({ x: pts[2 * i]!, y: pts[2 * i + 1]!, m: 0.05, fixed: i === 0 }));
      for (let i = 0; i + 1 < ids.length; i++) w.addSpring(ids[i]!, ids[i + 1]!, { alpha: 2000 });
      for (let i = 0; i + 2 < ids.length; i++) w.addHinge(ids[i]!, ids[i + 1]!, ids[i + 2]!, { alpha: 0.05 });
      w.step();
      w.newtonSolver().chordChain = chordChain;
      return w;
    };
    const off = run(rope(0), 300), on = run(rope(3), 300);
    expect(off.unconverged).toBe(0);
    expect(on.unconverged).toBe(0);
    expect(on.assemblies).toBeLessThanOrEqual(off.assemblies);
  });

  it('a step budget (maxStepIters) counts the rest chords not taken: no step takes more', () => {
    // a jelly in free flight without contact, its nodes moving apart: each step's rest chord is too long to
    // be taken (test/newton-chord.test.ts); before, it did not count against the budget (3 iterations a step)
    const w = new PhysicsWorld({ dt: 1 / 60, integrator: 'implicit-euler', newton: { maxStepIters: 2 } });
    const mesh = meshBox(0.5, 0.5, 6, 6);
    const ids: number[] = [];
    for (let v = 0; v < mesh.positions.length / 2; v++) ids.push(w.addParticle({ x: mesh.positions[2 * v]!, y: mesh.positions[2 * v + 1]!, m: 0, vx: v % 3 === 0 ? 0.5 : 0 }));
    for (let t = 0; t < mesh.triangles.length; t += 3) {
      w.addTriangle(ids[mesh.triangles[t]!]!, ids[mesh.triangles[t + 1]!]!, ids[mesh.triangles[t + 2]!]!, { youngsModulus: 2e4, poissonRatio: 0.3, density: 100 });
    }
    let most = 0;
    for (let s = 0; s < 60; s++) {
      w.step();
      most = Math.max(most, w.lastStats.newtonIters);
    }
    expect(w.newtonSolver().restChordIters).toBeGreaterThan(20); // measured 29
    expect(most).toBeLessThanOrEqual(2);
  });

  it('each step, from the same state, ends within one Newton step tolerance of the solver without chains', () => {
    // measured: at most 0.53 (fosssim), 0.61 (stvk), 0.39 (neohookean), 0.19 (corotational) tolerances
    for (const m of MATERIAL_NAMES) {
      const w = jelly(m, 6, 3);
      let chained = 0, compared = 0;
      for (let s = 0; s < 200; s++) {
        const snap = w.snapshot();
        w.newtonSolver().chordChain = 0;
        w.step();
        const without = w.readPositions(), convergedWithout = w.lastStats.converged;
        w.restore(snap);
        const nw = w.newtonSolver();
        nw.chordChain = 3;
        const ch0 = nw.chainedChordIters;
        w.step();
        chained += nw.chainedChordIters - ch0;
        if (!convergedWithout || !w.lastStats.converged) continue;
        compared++;
        // the step tolerance: 1e-6 × the free particles' bounding-box diagonal, at most that of the 1 × 1 m jelly
        expect(maxDiff(w.readPositions(), without)).toBeLessThan(1e-6 * Math.SQRT2);
      }
      expect(compared).toBeGreaterThan(180);
      expect(chained).toBeGreaterThan(0);
    }
  });

  it('a world with contact chains only with contact chords (row20: twenty jellies resting on the ground, 300 steps)', () => {
    const run = (contactChords: boolean): { chained: number; rest: number } => {
      const { world } = buildScene('row20');
      tuneSolver(world, { contactChords });
      let chained = 0, rest = 0;
      for (let s = 0; s < 300; s++) {
        world.step();
        // a contact-pattern growth replaces the solver: its counters start at 0
        const nw = world.newtonSolver();
        chained += nw.chainedChordIters;
        rest += nw.restChordIters;
        nw.chainedChordIters = 0;
        nw.restChordIters = 0;
      }
      if (process.env.PRINT_COUNTS) console.log(`contactChords ${contactChords}: chained ${chained}, rest ${rest}`);
      return { chained, rest };
    };
    const off = run(false), on = run(true);
    expect(off.rest).toBeGreaterThan(100); // rest chords, near their factor: measured 172
    expect(off.chained).toBe(0);
    expect(on.rest).toBeGreaterThan(100); // measured 135
    expect(on.chained).toBeGreaterThan(0); // measured 72
  });

  it('a snapshot taken after a chained step continues bit-identically', () => {
    const a = jelly('neohookean', 0, 3, 400);
    const nw = a.newtonSolver();
    let s = 0;
    for (; s < 300; s++) {
      const ch0 = nw.chainedChordIters;
      a.step();
      if (nw.chainedChordIters > ch0 && s > 20) break;
    }
    expect(s).toBeLessThan(300);
    const snap = a.snapshot();
    const ch0 = a.newtonSolver().chainedChordIters;
    for (let k = 0; k < 60; k++) a.step();
    const chained = a.newtonSolver().chainedChordIters - ch0;
    const first = digest(a);
    // restored into the same world: the solver's tuning (pcgMinDofs 0) is not state, the world keeps it
    a.restore(snap);
    expect(a.newtonSolver().pcgMinDofs).toBe(0);
    const ch1 = a.newtonSolver().chainedChordIters;
    for (let k = 0; k < 60; k++) a.step();
    expect(chained).toBeGreaterThan(0);
    expect(a.newtonSolver().chainedChordIters - ch1).toBe(chained);
    expect(digest(a)).toBe(first);
  });
});
