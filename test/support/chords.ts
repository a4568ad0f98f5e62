/**
 * Helpers of the chord tests (test/contact-chords, test/cut-chord): counting a world's iterations, its step tolerance,
 * and one step from a snapshot with the solver tuned (or converged tightly) for comparison.
 */
import type { PhysicsWorld } from '../../src/world';
import type { NewtonSolver } from '../../src/solver/newton';

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

/**
 * One step of game-mode world w from the snapshot `bytes`, `tune` applied first to the solver the step starts with
 * (a contact-pattern growth's replacement keeps its tuning). With `tight`, the step is solved at that tolerance and up
 * to that many iterations (the contact potential's cap raises a solve's); w's settings are put back after. Returns the
 * positions, whether the solve converged, and the solver the step started with.
 */
export function stepFrom(
  w: PhysicsWorld, bytes: Uint8Array, tune: (s: NewtonSolver) => void, tight?: { tolerance: number; maxIters: number },
): { x: Float64Array; converged: boolean; solver: NewtonSolver } {
  const settings = w.newton;
  if (settings === 'fosssim') throw new Error('stepFrom: game mode expected');
  const pot = w.contacts.potential, cap = pot.maxIters;
  w.restore(bytes);
  if (tight) {
    w.newton = { ...settings, tolerance: tight.tolerance, maxIters: Math.min(64, tight.maxIters) };
    pot.maxIters = tight.maxIters;
  }
  const solver = w.newtonSolver();
  tune(solver);
  w.step();
  const x = w.readPositions().slice(), converged = w.lastStats.converged;
  w.newton = settings;
  pot.maxIters = cap;
  return { x, converged, solver };
}
