/** Set Newton solver tuning (src/solver/newton.ts NewtonTuning) for a world's tests. */
import type { PhysicsWorld } from '../../src/world';
import { newtonSolverOf } from '../../src/solver/context';

/** Turn the Newton solver's rest chords (restChord) on or off for a world, on whatever solver each step uses. */
export function setRestChord(w: PhysicsWorld, on: boolean): PhysicsWorld {
  return tuneSolver(w, { restChord: on });
}

/**
 * Set rest chords, chord chains and island convergence (restChord, chordChain, islandConvergence) before every solve. A
 * contact-pattern growth or topology change replaces the solver, which keeps its predecessor's
 * tuning (NewtonSolver.tuning); the solver is made here when there is none yet (a world's first).
 */
export function tuneSolver(w: PhysicsWorld, opts: { restChord?: boolean; chordChain?: number; islandConvergence?: boolean }): PhysicsWorld {
  w.addSystem('solve', (ctx) => {
    const implicit = ctx.integrator === 'implicit-euler' || ctx.integrator === 'linearized-implicit-euler';
    if (!implicit || ctx.newton === 'fosssim') return; // no game-mode Newton solver
    const s = newtonSolverOf(ctx); // a world's first solver, or one a pattern growth made this step
    if (opts.restChord !== undefined) s.restChord = opts.restChord;
    if (opts.chordChain !== undefined) s.chordChain = opts.chordChain;
    if (opts.islandConvergence !== undefined) s.islandConvergence = opts.islandConvergence;
  }, { before: true });
  return w;
}
