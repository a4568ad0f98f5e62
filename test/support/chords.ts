/** Helpers of the chord tests (test/contact-chords, test/cut-chord): counting a world's iterations, and its step tolerance. */
import type { PhysicsWorld } from '../../src/world';

/** Newton iterations, assemblies (iterations that were not chords) and steps that ended unconverged over `steps` more steps. */
export function countChords(w: PhysicsWorld, steps: number): { iters: number; assemblies: number; unconverged: number } {
  let iters = 0, chords = 0, unconverged = 0;
  for (let s = 0; s < steps; s++) {
    // a contact-pattern growth replaces the solver (its counters start at 0): count chords per step
    const s0 = w.newtonSolver(), before = s0.chordIters;
    w.step();
    const s1 = w.newtonSolver();
    chords += s1 === s0 ? s1.chordIters - before : s1.chordIters;
    iters += w.lastStats.newtonIters;
    unconverged += w.lastStats.converged ? 0 : 1;
  }
  return { iters, assemblies: iters - chords, unconverged };
}

/** The default game-mode step tolerance at positions x (x0, y0, x1, …): 1e-6 × their bounding-box diagonal. */
export function stepTolerance(x: Float64Array): number {
  const xs = x.filter((_, i) => i % 2 === 0), ys = x.filter((_, i) => i % 2 === 1);
  return 1e-6 * Math.hypot(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
}
