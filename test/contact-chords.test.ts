/**
 * Contact chords (NewtonSolver.contactChords, docs/solver.md "Stop 30"): with contact on the direct path, a
 * chord iteration after a small full Newton step and chains after a rest chord.
 *   - a settling pile assembles and factors fewer Hessians with them, for the same Newton iterations;
 *   - from the same states, a step with them ends within a tolerance of where one without does, measured from
 *     a tightly converged solve;
 *   - off, the solver is the one before (contact-bitexact checks the hashes).
 */
import { describe, expect, it } from 'vitest';
import { PhysicsWorld } from '../src/world';
import { makeJellyPile } from '../src/cli/bench-jellies';
import { tuneSolver } from './support/rest-chord';
import { maxDiff } from './support/islands';
import { countChords, stepFrom, stepTolerance } from './support/chords';

/** contact-bitexact's pile (10 jellies × 50 triangles in a box, game mode), after `steps` steps; contactChords set before every solve when given. */
function pile(steps: number, contactChords?: boolean): PhysicsWorld {
  const w = tuneSolver(new PhysicsWorld({}), { contactChords });
  makeJellyPile(w, 10, 50);
  for (let s = 0; s < steps; s++) w.step();
  return w;
}

describe('contact chords', () => {
  it('a settling pile (steps 90–270) assembles fewer Hessians with them, for about the same Newton iterations', () => {
    const on = countChords(pile(90, true), 180);
    const off = countChords(pile(90, false), 180);
    if (process.env.PRINT_COUNTS) console.log(`on ${JSON.stringify(on)} off ${JSON.stringify(off)}`);
    expect(on.assemblies).toBeLessThan(0.8 * off.assemblies);
    expect(on.iters).toBeLessThan(1.2 * off.iters);
  }, 60_000);

  it('from the same states, a step with them ends within a tolerance as close to a solve converged to 1e-10 as one without', () => {
    const w = pile(90);
    // the tight solve: tolerance 1e-10, 64 iterations
    const step = (bytes: Uint8Array, contactChords: boolean, tight: boolean): Float64Array =>
      stepFrom(w, bytes, (ns) => { ns.contactChords = contactChords; }, tight ? { tolerance: 1e-10, maxIters: 64 } : undefined).x;
    let worst = 0, farthest = 0, compared = 0;
    for (let s = 0; s < 120; s++) {
      if (s % 6 === 0) {
        const bytes = w.snapshot();
        const tol = stepTolerance(w.readPositions());
        const tight = step(bytes, true, true);
        const dOn = maxDiff(step(bytes, true, false), tight) / tol;
        const dOff = maxDiff(step(bytes, false, false), tight) / tol;
        if (process.env.PRINT_COUNTS) console.log(`step ${90 + s}: on ${dOn.toFixed(3)} off ${dOff.toFixed(3)} tolerances from the tight solve`);
        worst = Math.max(worst, dOn - dOff);
        farthest = Math.max(farthest, dOn);
        compared++;
        w.restore(bytes);
        w.newtonSolver().contactChords = true;
      }
      w.step();
    }
    expect(compared).toBe(20);
    // measured: up to 0.47 tolerances further than without (a chord's last step leaves θ/(1 − θ) × its step,
    // a Newton step about its square), and 1.53 tolerances from the tight solve at most (1.06 without)
    expect(worst).toBeLessThan(1);
    expect(farthest).toBeLessThan(2);
  }, 120_000);
});
