/** Set Newton solver tuning (src/solver/newton.ts NewtonTuning) for a world's tests. */
import { PhysicsWorld } from '../../src/world';
import { newtonSolverOf } from '../../src/solver/context';
import { buildJelly } from '../../src/cli/bench-jellies';
import type { MaterialName } from '../../src/elements';
import type { NewtonTuning } from '../../src/solver/newton';

/** Turn the Newton solver's rest chords (restChord) on or off for a world, on whatever solver each step uses. */
export function setRestChord(w: PhysicsWorld, on: boolean): PhysicsWorld {
  return tuneSolver(w, { restChord: on });
}

/**
 * Set rest chords, chord chains, predicted-error stops, island convergence, contact chords and cut chords (restChord,
 * chordChain, contractionMax, islandConvergence, contactChords, cutChord) before every solve. A
 * contact-pattern growth or topology change replaces the solver, which keeps its predecessor's
 * tuning (NewtonSolver.tuning); the solver is made here when there is none yet (a world's first).
 */
export function tuneSolver(
  w: PhysicsWorld,
  opts: { restChord?: boolean; chordChain?: number; contractionMax?: number; islandConvergence?: boolean; contactChords?: boolean; cutChord?: number; majorCg?: number; constantGuess?: boolean; guessStop?: boolean },
): PhysicsWorld {
  w.addSystem('solve', (ctx) => {
    const implicit = ctx.integrator === 'implicit-euler' || ctx.integrator === 'linearized-implicit-euler';
    if (!implicit || ctx.newton === 'fosssim') return; // no game-mode Newton solver
    const s = newtonSolverOf(ctx); // a world's first solver, or one a pattern growth made this step
    if (opts.restChord !== undefined) s.restChord = opts.restChord;
    if (opts.chordChain !== undefined) s.chordChain = opts.chordChain;
    if (opts.contractionMax !== undefined) s.contractionMax = opts.contractionMax;
    if (opts.islandConvergence !== undefined) s.islandConvergence = opts.islandConvergence;
    if (opts.contactChords !== undefined) s.contactChords = opts.contactChords;
    if (opts.cutChord !== undefined) s.cutChord = opts.cutChord;
    if (opts.majorCg !== undefined) s.majorCg = opts.majorCg;
    if (opts.constantGuess !== undefined) s.constantGuess = opts.constantGuess;
    if (opts.guessStop !== undefined) s.guessStop = opts.guessStop;
  }, { before: true });
  return w;
}

/**
 * The bench's clamped jelly of `triangles` triangles (test/solver-bitexact's, 200 by default), kicked by a
 * shear velocity (vx = kick × (y − 0.5)), stepped once, then tuned: `pcg` puts it on the PCG path
 * (pcgMinDofs 0), the other fields are set on its solver as given.
 */
export function kickedJelly(material: MaterialName, kick: number, tune: Partial<NewtonTuning> & { pcg?: boolean } = {}, triangles = 200): PhysicsWorld {
  const w = new PhysicsWorld({ dt: 1 / 60, integrator: 'implicit-euler' });
  buildJelly(triangles, w, material);
  const P = w.c.Particle;
  for (const e of w.lists.particles) if (P.fixed[e] === 0) P.vx[e] = kick * (P.y[e]! - 0.5);
  w.step();
  const { pcg, ...fields } = tune;
  const newton = w.newtonSolver();
  if (pcg) newton.pcgMinDofs = 0;
  newton.applyTuning({ ...newton.tuning(), ...fields });
  return w;
}
