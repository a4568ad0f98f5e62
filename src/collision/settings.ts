/**
 * Game-mode contact settings: one object, owned by ContactSystem (contact.ts, which exposes each
 * field under the same name: `world.contacts.friction = 0.3`) and read by the parts that need it
 * (candidate search, pattern book, post-solve response, refinement).
 */
export class ContactSettings {
  /** Coefficient of restitution (default for colliders without their own). */
  cor = 0;
  /** Coulomb friction coefficient μ (default for colliders without their own). */
  friction = 0.5;
  /** Broad-phase cell size (m); 0 = automatic (twice the mean boundary-edge length). */
  cellSize = 0;
  /** Penalty stiffness κ = stiffness · m / h² (m: the particle's mass). */
  stiffness = 100;
  /** Friction smoothing velocity ε_v (m/s): static friction lets a contact creep at most this fast. */
  frictionEpsV = 1e-4;
  /** Candidate margin beyond r̂, in particle radii (plus 10 % of the particle's predicted motion). */
  margin = 2;
  /**
   * Cap on the contact pattern: a contact pair of the pattern that was no candidate for more than
   * `staleSteps` steps is dropped at the next rebuild.
   */
  staleSteps = 60;
  /**
   * Rebuilds (pattern + symbolic factorization) are rate-limited by a token bucket: `rebuildBurst`
   * tokens, refilled at `rebuildRate` per simulated second. While no token is left, candidates
   * whose coupling blocks are missing use the diagonal-block majorizer (implicit.ts) until a
   * rebuild is allowed.
   */
  rebuildRate = 4;
  rebuildBurst = 8;
  /** Refinement solves allowed per step (ContactSystem.refine). */
  maxRefinements = 3;
  /** Gauss–Seidel passes of the post-solve response over its pairs per step. */
  iterations = 4;
}

/** The settings' numeric fields in a fixed order (snapshots). */
export const CONTACT_SETTING_FIELDS = [
  'cor', 'friction', 'cellSize', 'stiffness', 'frictionEpsV', 'margin', 'staleSteps', 'rebuildRate', 'rebuildBurst',
  'maxRefinements', 'iterations',
] as const satisfies readonly (keyof ContactSettings)[];
