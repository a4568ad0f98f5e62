/** Turn the Newton solver's rest chords (src/solver/newton.ts, restChord) on or off for a world, on whatever solver each step uses. */
import type { PhysicsWorld } from '../../src/world';

export function setRestChord(w: PhysicsWorld, on: boolean): PhysicsWorld {
  // a topology change or a contact-pattern growth replaces the solver: set it before every solve
  w.addSystem('solve', (ctx) => {
    if (ctx.newtonSolver) ctx.newtonSolver.restChord = on;
  }, { before: true });
  return w;
}
