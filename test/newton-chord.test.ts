/**
 * Chord iterations of the game-mode Newton solver on its PCG path (src/solver/newton.ts,
 * docs/solver.md "Chord iterations"): after a small full Newton step taken whole, the next
 * iteration skips the Hessian assembly and PCG and takes the reused LDLᵀ factor's solve
 * −M⁻¹∇Φ as its direction. These tests check that
 *   - with chordWithin = 0 the solver is the one before chord iterations, bit for bit (the
 *     PCG hashes test/solver-bitexact.test.ts carried until chord iterations were added);
 *   - chord iterations happen, stop no step short of convergence that converged without them, need
 *     no more Newton iterations, fewer PCG iterations, and the states stay within the Newton step
 *     tolerance of the chord-free solver;
 *   - the direct LDLᵀ path (below pcgMinDofs) takes none in a fast-converging solve (a jelly
 *     without contact), and takes them in a landing pile's slow tails (NewtonSolver.slowChord:
 *     past the stick-prediction iterations, full steps shrinking by less than half), with the same
 *     Newton iterations and states within a fiftieth of a particle radius of Newton's alone;
 *   - rest chords (NewtonSolver.restChord: a step that follows a converged solve, near where that
 *     solve's Hessian was assembled, starts with a chord iteration on its factor) happen in a settling
 *     jelly and keep its states within the Newton tolerance; none in free flight or with linearized
 *     implicit Euler (one Newton step by definition).
 */
import { digest } from './support/digest';
import { describe, expect, it } from 'vitest';
import { PhysicsWorld } from '../src/world';
import { buildJelly } from '../src/cli/bench-jellies';
import { buildScene } from '../src/cli/bench-scenes';
import type { NewtonSolver } from '../src/solver/newton';
import { MATERIAL_NAMES, type MaterialName } from '../src/elements';
import { meshBox } from '../src/mesh';
import { kickedJelly, tuneSolver } from './support/rest-chord';
import { maxDiff } from './support/islands';
import { newtonSolverOf } from '../src/solver/context';

/**
 * test/solver-bitexact.test.ts's PCG jelly (200 triangles, shear kick), with the given chordWithin and
 * chordChain (default 0: chord iterations and rest chords alone, as before chord chains;
 * test/chord-chain.test.ts tests those).
 */
function jelly(material: MaterialName, kick: number, chordWithin: number, triangles = 200, chordChain = 0): PhysicsWorld {
  return kickedJelly(material, kick, { pcg: true, chordWithin, chordChain }, triangles);
}

interface Run {
  w: PhysicsWorld;
  newtonIters: number;
  unconverged: number;
  cgIters: number;
  chords: number;
  /** Of the chords, rest chords (the direct path's first iteration of a step). */
  restChords: number;
}

function run(w: PhysicsWorld, steps: number): Run {
  const newton = w.newtonSolver();
  const cg0 = newton.cgItersTotal, ch0 = newton.chordIters, r0 = newton.restChordIters;
  let newtonIters = 0, unconverged = 0;
  for (let s = 0; s < steps; s++) {
    w.step();
    newtonIters += w.lastStats.newtonIters;
    if (!w.lastStats.converged) unconverged++;
  }
  return { w, newtonIters, unconverged, cgIters: newton.cgItersTotal - cg0, chords: newton.chordIters - ch0, restChords: newton.restChordIters - r0 };
}

describe('Newton chord iterations (PCG path; the direct path\'s slow tails and rest chords)', () => {
  it('chordWithin = 0 is the solver before chord iterations, bit for bit', () => {
    // the GOLDEN hashes of test/solver-bitexact.test.ts before chord iterations (commit 8e0fb27)
    const before: [MaterialName, string][] = [
      ['fosssim', '901793e25327e9d538e96156c6d917e3'],
      ['neohookean', '8c2ac18ed05c2c4e1f8e25945b9a05c9'],
    ];
    for (const [m, hash] of before) {
      const r = run(jelly(m, 6, 0), 200);
      expect(r.chords).toBe(0);
      expect(digest(r.w)).toBe(hash);
    }
  });

  for (const m of MATERIAL_NAMES) {
    it(`${m}: chord iterations stay within the step tolerance and cut PCG iterations (kicked jelly)`, () => {
      const off = run(jelly(m, 6, 0), 200);
      const on = run(jelly(m, 6, 100), 200);
      expect(on.chords).toBeGreaterThan(50);
      expect(on.unconverged).toBeLessThanOrEqual(off.unconverged);
      expect(on.newtonIters).toBeLessThanOrEqual(off.newtonIters + 10);
      expect(on.cgIters).toBeLessThan(0.9 * off.cgIters);
      // Newton's stopping tolerance is 1e-6 × the body's size (a 1 m jelly); the states after 200
      // steps agree far better than that (measured 1e-8 … 1e-7)
      expect(maxDiff(on.w.readPositions(), off.w.readPositions())).toBeLessThan(1e-6);
      expect(maxDiff(on.w.readVelocities(), off.w.readVelocities())).toBeLessThan(1e-4);
    });
  }

  it('a settling jelly (the bench scene): about the same Newton iterations, chords (rest chords among them) instead of most assemblies and PCG solves', () => {
    const off = run(jelly('fosssim', 0, 0, 400), 120);
    const on = run(jelly('fosssim', 0, 100, 400), 120);
    // measured: 272 against 268 (a rest chord that does not finish its step is followed by Newton's)
    expect(on.newtonIters).toBeLessThanOrEqual(off.newtonIters + 10);
    expect(on.restChords).toBeGreaterThan(50);
    expect(on.unconverged).toBe(0);
    expect(off.unconverged).toBe(0);
    expect(on.chords).toBeGreaterThan(100);
    expect(on.cgIters).toBeLessThan(0.7 * off.cgIters);
    expect(maxDiff(on.w.readPositions(), off.w.readPositions())).toBeLessThan(1e-7);
  });

  it('the direct LDLᵀ path takes no slow-tail chord iteration in a fast-converging solve (a jelly without contact)', () => {
    const w = new PhysicsWorld({ dt: 1 / 60, integrator: 'implicit-euler' });
    buildJelly(400, w);
    w.step();
    const r = run(w, 60);
    expect(r.newtonIters).toBeGreaterThan(60); // second iterations happened
    const chained = w.newtonSolver().chainedChordIters; // chord chains' (test/chord-chain.test.ts)
    expect(r.chords - r.restChords - chained).toBe(0);
  });

  it('rest chords: a settling clamped jelly starts most steps on the last factor; the states stay within the Newton tolerance of Newton alone', () => {
    const make = (on: boolean): PhysicsWorld => {
      // rest chords alone (chord chains: test/chord-chain.test.ts)
      const w = tuneSolver(new PhysicsWorld({ dt: 1 / 60, integrator: 'implicit-euler' }), { restChord: on, chordChain: 0 });
      buildJelly(400, w);
      return w;
    };
    const off = run(make(false), 240), on = run(make(true), 240);
    expect(off.restChords).toBe(0);
    // measured: 176 rest chords in 240 steps; 400 Newton iterations against 396 (a chord step that
    // does not finish its step is followed by Newton's); no unconverged step
    expect(on.restChords).toBeGreaterThan(120);
    expect(on.unconverged).toBe(0);
    expect(on.newtonIters).toBeLessThanOrEqual(off.newtonIters + 10);
    // the tolerance: 1e-6 × the 1 m jelly
    expect(maxDiff(on.w.readPositions(), off.w.readPositions())).toBeLessThan(1e-6);
  });

  it('rest chords: an anchor set or cleared ends them until the next factorization (the factor lacks or has its spring)', () => {
    // without the stop at the guess, which ends the settled steps with no iteration (test/constant-guess.test.ts)
    const w = tuneSolver(new PhysicsWorld({ dt: 1 / 60, integrator: 'implicit-euler' }), { guessStop: false });
    buildJelly(400, w);
    run(w, 200);
    const newton = (): NewtonSolver => w.newtonSolver();
    const rest = (): number => newton().restChordIters;
    let r0 = rest();
    w.step();
    expect(rest() - r0).toBe(1); // settled: a rest chord
    const e = w.lists.particles[w.lists.particles.length - 1]!;
    w.setAnchor(e, w.c.Particle.x[e]!, w.c.Particle.y[e]!, 500);
    r0 = rest();
    w.step();
    expect(rest() - r0).toBe(0); // the anchor's spring is not in the factor
    run(w, 30);
    w.clearAnchors();
    r0 = rest();
    w.step();
    expect(rest() - r0).toBe(0); // nor is its removal
  });

  it('rest chords: none in free flight (each step moves every particle further than chordWithin tolerances) but where chord chains waive that distance, none with linearized implicit Euler', () => {
    // from x̃ = xᵗ + h vᵗ (constantGuess off: from x̃ + h² g a flying jelly needs fewer iterations, test/constant-guess.test.ts)
    const falling = (chordChain: number, contact: boolean): PhysicsWorld => {
      const w = new PhysicsWorld({ dt: 1 / 60, integrator: 'implicit-euler' });
      w.contacts.enabled = contact; // a contact term with nothing to touch
      const mesh = meshBox(0.5, 0.5, 6, 6);
      const ids: number[] = [];
      for (let v = 0; v < mesh.positions.length / 2; v++) ids.push(w.addParticle({ x: mesh.positions[2 * v]!, y: mesh.positions[2 * v + 1]!, m: 0, vx: v % 3 === 0 ? 0.5 : 0 }));
      for (let t = 0; t < mesh.triangles.length; t += 3) {
        w.addTriangle(ids[mesh.triangles[t]!]!, ids[mesh.triangles[t + 1]!]!, ids[mesh.triangles[t + 2]!]!, { youngsModulus: 2e4, poissonRatio: 0.3, density: 100 });
      }
      return tuneSolver(w, { chordChain, constantGuess: false });
    };
    const off = run(falling(0, false), 60);
    expect(off.newtonIters).toBeGreaterThanOrEqual(60);
    expect(off.restChords).toBe(0);
    expect(run(falling(3, true), 60).restChords).toBe(0); // chains run without contact only
    // without contact, chord chains (chordChain) try a rest chord on every step after the first (no factor
    // yet). Here each is longer than chordWithin tolerances, so none is taken (a long rest chord far from
    // its factor: test/chord-chain.test.ts): one chord more a step, the same Newton iterations. The states
    // agree to rounding: where chains run, a last step within the tolerance that Φ's rounding rejects whole
    // is not halved (src/solver/newton.ts, roundOff): its iterate stays put, where halvings moved it a little (2.7e-14 m here)
    const on = run(falling(3, false), 60);
    expect(on.restChords).toBe(59);
    expect(on.newtonIters).toBe(off.newtonIters + 59);
    const dx = maxDiff(on.w.readPositions(), off.w.readPositions());
    if (process.env.PRINT_GOLDEN) console.log(`free flight, chains on and off: ${dx}`);
    expect(dx).toBeLessThan(1e-9); // a thousandth of the step tolerance (1e-6 × the 0.5 m jelly's size)
    const lin = new PhysicsWorld({ dt: 1 / 60, integrator: 'linearized-implicit-euler' });
    buildJelly(400, lin);
    const rl = run(lin, 240);
    expect(rl.chords).toBe(0);
  });

  it('direct path, a landing pile (pile20, 60 steps): chord iterations in the slow tails; each step, from the same state, about the same Newton iterations and a state within 100 tolerances', () => {
    // slowChord is set on the first solver; a contact-pattern growth's replacement keeps it (NewtonSolver.tuning)
    const landing = (slowChord: number): { w: PhysicsWorld; chords: () => number } => {
      const { world: w } = buildScene('pile20');
      let chords = 0, seen: NewtonSolver | null = null, c0 = 0;
      w.addSystem('solve', (ctx) => {
        const ns = newtonSolverOf(ctx);
        ns.slowChord = slowChord;
        ns.cutChord = 0; // cut chords (test/cut-chord.test.ts) are compared on their own
        seen = ns;
        c0 = ns.chordIters;
      }, { before: true });
      w.addSystem('solve', (ctx) => {
        const ns = ctx.newtonSolver!;
        chords += ns === seen ? ns.chordIters - c0 : ns.chordIters; // a re-solve's pattern growth may replace it
      });
      return { w, chords: () => chords };
    };
    // Each step is taken by both from the same state (off takes on's): whole trajectories part from the
    // landing's steps at the iteration cap on (a jelly topples one way or the other) and from stick–slip
    // switches within the tolerance (friction's ε is 1.7 µm)
    const on = landing(0.5), off = landing(0);
    let itersOn = 0, itersOff = 0, unconvergedOn = 0, unconvergedOff = 0, worst = 0;
    for (let s = 0; s < 60; s++) {
      off.w.restore(on.w.snapshot());
      on.w.step();
      off.w.step();
      itersOn += on.w.lastStats.newtonIters;
      itersOff += off.w.lastStats.newtonIters;
      unconvergedOn += on.w.lastStats.converged ? 0 : 1;
      unconvergedOff += off.w.lastStats.converged ? 0 : 1;
      // in tolerances (1e-6 × the pile's size, about 7.6 m at the landing), on the steps both converged
      if (on.w.lastStats.converged && off.w.lastStats.converged) worst = Math.max(worst, maxDiff(on.w.readPositions(), off.w.readPositions()) / 7.6e-6);
    }
    if (process.env.PRINT_MEASURED) console.log({ chords: on.chords(), iters: [itersOn, itersOff], unconverged: [unconvergedOn, unconvergedOff], worst });
    expect(off.chords()).toBe(0);
    // measured: 71 chord iterations, 621 Newton iterations against 620, 18 capped steps both, 30.5 tolerances at most
    // (2.3e-4 m: a stick–slip switch within one tolerance moves the converged state further)
    expect(on.chords()).toBeGreaterThan(10);
    expect(itersOn).toBeLessThanOrEqual(itersOff + 10);
    expect(unconvergedOn).toBeLessThanOrEqual(unconvergedOff + 1);
    expect(worst).toBeLessThan(100);
  }, 60_000);
});
