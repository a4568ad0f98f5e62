/**
 * Cut chords (NewtonSolver.cutChord, docs/solver.md "Cut chords"): on the direct path, after a Newton step that Φ's
 * Armijo test cut to a quarter or less while the step is still more than chordWithin tolerances, the next
 * iteration is a chord on the same factor.
 *   - a landing pile assembles and factors fewer Hessians with them, for no more Newton iterations;
 *   - from the same states, a step with them ends about as close to a far tighter solve as one without;
 *   - off, the solver is the one before (contact-bitexact checks the hashes).
 */
import { describe, expect, it } from 'vitest';
import type { PhysicsWorld } from '../src/world';
import { buildScene } from '../src/cli/bench-scenes';
import { tuneSolver } from './support/rest-chord';
import { maxDiff } from './support/islands';
import { countChords, stepFrom, stepTolerance } from './support/chords';

/** pile20 (the bench's 20 jellies dropped into a box), cutChord set before every solve, after `steps` steps. */
function pile20(steps: number, cutChord: number): PhysicsWorld {
  const w = tuneSolver(buildScene('pile20').world, { cutChord });
  for (let s = 0; s < steps; s++) w.step();
  return w;
}

describe('cut chords', () => {
  it('a landing pile (pile20, steps 30–120) assembles fewer Hessians with them, for no more Newton iterations', () => {
    const on = countChords(pile20(30, 2), 90);
    const off = countChords(pile20(30, 0), 90);
    if (process.env.PRINT_COUNTS) console.log(`on ${JSON.stringify(on)} off ${JSON.stringify(off)}`);
    // measured: 957 Newton iterations and 731 assemblies with them, 1,044 and 821 without; 28 and 29 steps at the cap
    expect(on.assemblies).toBeLessThan(0.9 * off.assemblies);
    expect(on.iters).toBeLessThan(1.05 * off.iters);
    expect(on.unconverged).toBeLessThanOrEqual(off.unconverged + 2);
  }, 120_000);

  it('from the same states of a landing pile, a step with them ends about as close to a far tighter solve as one without', () => {
    // untuned (cut chords on by default): each solve below sets cutChord on the solver it starts with, which a
    // contact-pattern growth's replacement keeps (NewtonSolver.tuning)
    const w = buildScene('pile20').world;
    for (let s = 0; s < 30; s++) w.step();
    // the reference: tolerance 1e-9 and up to 300 iterations
    const step = (bytes: Uint8Array, cutChord: number, tight: boolean): { x: Float64Array; converged: boolean; cuts: number } => {
      let c0 = 0;
      const r = stepFrom(w, bytes, (ns) => {
        ns.cutChord = cutChord;
        c0 = ns.cutChordIters;
      }, tight ? { tolerance: 1e-9, maxIters: 300 } : undefined);
      return { x: r.x, converged: r.converged, cuts: w.newtonSolver() === r.solver ? r.solver.cutChordIters - c0 : 0 };
    };
    let allOn = 0, allOff = 0, sumOn = 0, sumOff = 0, converged = 0, cuts = 0;
    for (let s = 0; s < 90; s++) {
      if (s % 6 === 0) {
        const bytes = w.snapshot();
        const tol = stepTolerance(w.readPositions());
        const ref = step(bytes, 0, true);
        const on = step(bytes, 2, false), off = step(bytes, 0, false);
        const dOn = maxDiff(on.x, ref.x) / tol, dOff = maxDiff(off.x, ref.x) / tol;
        if (process.env.PRINT_COUNTS) console.log(`step ${30 + s}: cut chords ${on.cuts}, on ${dOn.toFixed(3)} off ${dOff.toFixed(3)} tolerances from the reference (converged ${ref.converged} ${on.converged} ${off.converged})`);
        allOn += dOn;
        allOff += dOff;
        if (ref.converged) {
          sumOn += dOn;
          sumOff += dOff;
          converged++;
        }
        cuts += on.cuts;
        w.restore(bytes);
      }
      w.newtonSolver().cutChord = 2;
      w.step();
    }
    if (process.env.PRINT_COUNTS) console.log({ converged, cuts, allOn, allOff, meanOn: sumOn / converged, meanOff: sumOff / converged });
    // measured (15 states, steps 30–114): 14 cut chords; summed distances 9,434 against 9,497 tolerances (the
    // landing's capped steps end centimetres from the reference either way); where the reference converged (10
    // states) a mean of 6.77 against 6.92 tolerances
    expect(cuts).toBeGreaterThan(5);
    expect(allOn).toBeLessThan(1.1 * allOff);
    expect(converged).toBeGreaterThan(5);
    expect(sumOn / converged).toBeLessThan(sumOff / converged + 1);
  }, 240_000);
});
