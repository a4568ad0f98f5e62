/**
 * StepStats: what the last step did (solver path, Newton iterations, fail-safe, contact counts)
 * and how long each pipeline stage took (src/systems/pipeline.ts), as Box2D's b2Profile.
 */

export interface StepStats {
  /** Game mode: Newton iterations of the last step, over all its solves (contact refinements included). */
  newtonIters: number;
  /** Game mode: the last step used its whole Newton budget (NewtonSettings.maxStepIters). */
  newtonCapped: boolean;
  converged: boolean;
  /**
   * Which linear-solver path ran last: 'ldlt' (sparse LDLᵀ, factored this
   * iteration), 'pcg-ldlt' (PCG preconditioned by a reused LDLᵀ factor),
   * 'chord-ldlt' (a chord iteration: the reused factor's solve alone, src/solver/newton.ts),
   * 'dense-lu', or 'none'.
   */
  linearPath: string;
  /**
   * Game mode: '' when the step was solved; otherwise why it failed safe ('solver-error': the
   * linear solve threw, e.g. a singular matrix; 'non-finite': a NaN/∞ reached x or v). The island the
   * failure was traced to was then held at its start-of-step positions with halved velocities while
   * the rest of the world stepped (failSafeHeld > 0), or, when that failed too, the whole world was
   * (src/systems/pipeline.ts).
   */
  failSafe: string;
  /**
   * Why, in words, when the step failed safe ('' otherwise): the solver's message, or which
   * particle first held a non-finite position or velocity.
   */
  failSafeDetail: string;
  /** The particle (dense index, creation order) the failure was traced to, or −1 when not known. */
  failSafeParticle: number;
  /** That particle's body id (0: no body), or −1 when not known. */
  failSafeBody: number;
  /**
   * Particles held at their start-of-step positions while the rest of the world stepped (the failure
   * was traced to their island: src/systems/pipeline.ts, isolate); 0 when none were, including a step
   * that held the whole world.
   */
  failSafeHeld: number;
  /** Steps that failed safe since the world was created. */
  failSafeSteps: number;
  /** Contact (src/collision): candidate pairs and touching pairs of the last step. */
  contactCandidates: number;
  contactTouching: number;
  /** Contact-pattern rebuilds (pattern + symbolic factorization) in the last step / since creation. */
  contactRebuilds: number;
  contactRebuildsTotal: number;
  /** Topology builds since creation (entities added or removed, or a node reference edited). */
  topologyBuilds: number;
  /**
   * Symbolic analyses since creation: a Workspace built (fill-reducing ordering + symbolic LDLᵀ, or
   * a dense LU), after a topology build or a contact-pattern growth. A parameter edit adds none.
   */
  symbolicBuilds: number;
  /** Component edits that refreshed the topology's numeric data in place, since creation (steps with an edit). */
  paramRefreshes: number;
  /**
   * Sleeping (src/systems/sleep.ts): the step rested — every free particle slept, so forces, solve
   * and response did nothing — and the particles asleep at its start.
   */
  resting: boolean;
  sleepingParticles: number;
  /**
   * Milliseconds spent in each pipeline stage in the last step, indexed by stage
   * (src/systems/pipeline.ts: STAGES; user systems count in the stage they run in), when the
   * world's `profile` is on; all zero otherwise. A typed array: timing a stage allocates nothing.
   */
  stageMs: Float64Array;
  /** Whole-step milliseconds of the last step (profile on). */
  stepMs: number;
}

/** Room for the pipeline's stages in StepStats.stageMs. */
export const MAX_STAGES = 16;

export function createStepStats(): StepStats {
  // stepMs starts as a fraction, then is zeroed: V8 gives the field its double representation at
  // creation. Created as 0 (a small integer), the first profiled step changed the field's
  // representation, which deprecated the object shape every world's stats had, and the optimized
  // Newton step then deoptimized on a world created before that (the pile bench, step 2).
  const stats: StepStats = {
    newtonIters: 0, newtonCapped: false, converged: true, linearPath: 'none', failSafe: '', failSafeDetail: '',
    failSafeParticle: -1, failSafeBody: -1, failSafeHeld: 0, failSafeSteps: 0,
    contactCandidates: 0, contactTouching: 0, contactRebuilds: 0, contactRebuildsTotal: 0,
    topologyBuilds: 0, symbolicBuilds: 0, paramRefreshes: 0, resting: false, sleepingParticles: 0,
    stageMs: new Float64Array(MAX_STAGES), stepMs: 0.5,
  };
  stats.stepMs = 0;
  return stats;
}
