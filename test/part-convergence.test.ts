/**
 * Part convergence (NewtonSolver.partConvergence, docs/solver.md "Part convergence"): island convergence over
 * contact islands (bodies joined by the pairs that touch at the iterate), so a body at rest stops iterating while
 * a body it does not push on is still landing beside it.
 *   - a landing pile keeps more particles out of its solves with it, for no more Newton iterations;
 *   - from the same states, a step with it ends about as close to a far tighter solve as one without;
 *   - off, the solver is the one before (contact-bitexact checks the hashes).
 */
import { describe, expect, it } from 'vitest';
import type { PhysicsWorld } from '../src/world';
import { buildScene } from '../src/cli/bench-scenes';
import { tuneSolver } from './support/rest-chord';
import { maxDiff } from './support/islands';
import { stepFrom, stepTolerance } from './support/chords';

/** Newton iterations, particles kept by converged (contact) islands, and unconverged steps over `steps` steps of pile20. */
function landing(partConvergence: boolean, steps: number): { iters: number; kept: number; unconverged: number } {
  const w = tuneSolver(buildScene('pile20').world, { partConvergence });
  let iters = 0, kept = 0, unconverged = 0;
  for (let s = 0; s < steps; s++) {
    // a contact-pattern growth replaces the solver (its counters start at 0)
    const s0 = w.newtonSolver(), before = s0.convergedIslandParticles;
    w.step();
    const s1 = w.newtonSolver();
    kept += s1 === s0 ? s1.convergedIslandParticles - before : s1.convergedIslandParticles;
    iters += w.lastStats.newtonIters;
    unconverged += w.lastStats.converged ? 0 : 1;
  }
  return { iters, kept, unconverged };
}

describe('part convergence', () => {
  it('a landing pile (pile20, its first 90 steps) keeps more particles out of its solves, for no more Newton iterations', () => {
    const on = landing(true, 90), off = landing(false, 90);
    if (process.env.PRINT_COUNTS) console.log(`on ${JSON.stringify(on)} off ${JSON.stringify(off)}`);
    // measured: 29,390 particles kept with it, 25,592 without; 992 and 971 Newton iterations; 28 steps at the cap in both
    expect(on.kept).toBeGreaterThan(1.1 * off.kept);
    expect(on.iters).toBeLessThan(1.05 * off.iters);
    expect(on.unconverged).toBeLessThanOrEqual(off.unconverged + 2);
  }, 120_000);

  it('from the same states of a landing pile, a step with it ends about as close to a far tighter solve as one without', () => {
    const w: PhysicsWorld = buildScene('pile20').world;
    const step = (bytes: Uint8Array, on: boolean, tight: boolean): { x: Float64Array; converged: boolean } =>
      stepFrom(w, bytes, (ns) => {
        ns.partConvergence = on;
      }, tight ? { tolerance: 1e-9, maxIters: 300 } : undefined);
    let allOn = 0, allOff = 0, sumOn = 0, sumOff = 0, converged = 0;
    for (let s = 0; s < 120; s++) {
      if (s % 8 === 4) {
        const bytes = w.snapshot();
        const tol = stepTolerance(w.readPositions());
        const ref = step(bytes, false, true);
        const on = step(bytes, true, false), off = step(bytes, false, false);
        const dOn = maxDiff(on.x, ref.x) / tol, dOff = maxDiff(off.x, ref.x) / tol;
        if (process.env.PRINT_COUNTS) console.log(`step ${s}: on ${dOn.toFixed(3)} off ${dOff.toFixed(3)} tolerances from the reference (converged ${ref.converged} ${on.converged} ${off.converged})`);
        allOn += dOn;
        allOff += dOff;
        if (ref.converged) {
          sumOn += dOn;
          sumOff += dOff;
          converged++;
        }
        w.restore(bytes);
      }
      w.newtonSolver().partConvergence = true;
      w.step();
    }
    if (process.env.PRINT_COUNTS) console.log({ converged, allOn, allOff, meanOn: sumOn / converged, meanOff: sumOff / converged });
    // measured (15 states, steps 4–116): summed and converged-state distances equal to three decimals (a kept body
    // stops within the tolerance; what it leaves is far below the landing's capped steps' distance to the reference)
    expect(allOn).toBeLessThan(1.1 * allOff);
    expect(converged).toBeGreaterThan(5);
    expect(sumOn / converged).toBeLessThan(sumOff / converged + 1);
  }, 240_000);
});
