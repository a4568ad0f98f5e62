/**
 * StepContext: everything a stage of the fixed step may read or write, and nothing else (as Box2D's
 * b2StepContext). The pipeline (src/systems/pipeline.ts) owns one per world; stages, contact
 * (src/collision) and the integrators take it instead of the whole world, so no module below
 * src/world.ts needs the world.
 *
 * Declared here, in the solver layer, because every layer above (systems, collision) may import the
 * solver and none of them may import each other in both directions (docs/design.md, "Layers").
 */
import type { Components } from '../components';
import type { NewtonSettings, NewtonTuning } from './newton';
import { NewtonSolver } from './newton';
import type { SystemModel } from './model';
import type { StepStats } from './stats';
import type { EntityLists, Topology } from './topology';

export { createEntityLists, type EntityLists } from './topology';
import { Workspace } from './workspace';

/** FOSSSim's time integrators (scene `<integrator type>`); the implicit ones run game-mode Newton unless `newton` is 'fosssim'. */
export type IntegratorType = 'explicit-euler' | 'symplectic-euler' | 'linearized-implicit-euler' | 'implicit-euler';

export interface StepContext {
  // ---- settings (the world's setters write them) ----
  /** Fixed step (s). */
  dt: number;
  integrator: IntegratorType;
  /** Game-mode Newton settings, or 'fosssim' (FOSSSim's exact integrators). */
  newton: NewtonSettings | 'fosssim';
  massMatrix: 'lumped' | 'consistent';

  // ---- source data: bitECS component stores and creation-ordered entity lists ----
  readonly c: Components;
  readonly lists: EntityLists;
  /**
   * Entities created through bitECS (addEntity + addComponent) since the last topology build, in
   * creation order: their unset defaults are filled and their data validated when the topology is
   * rebuilt (src/systems/ecs.ts). PhysicsWorld.add* computes and validates at once and queues nothing.
   */
  readonly pending: EntityLists;

  // ---- derived data, rebuilt by the sync stage when `topologyDirty` ----
  /** Set when entities were added or removed (or the mass matrix type changed). */
  topologyDirty: boolean;
  /**
   * Bumped whenever data that contact reads per topology changed without a topology change
   * (masses, fixed flags, particle radii or body ids, edge radii: src/systems/ecs.ts syncParams).
   * Contact compares it with the value it last built from, as it compares the topology object.
   */
  paramsVersion: number;
  topology: Topology;
  model: SystemModel;
  workspace: Workspace;
  /** Game-mode Newton solver of this topology (created on first use). */
  newtonSolver: NewtonSolver | null;
  /** The tuning of the solver a rebuild dropped, given to the next one (NewtonSolver.tuning). */
  newtonTuning: NewtonTuning | null;

  // ---- state of this step ----
  /** Dense, creation-ordered positions and velocities (2 per particle): the state between the sync and write-back stages. */
  x: Float64Array;
  v: Float64Array;
  /** Steps completed (the step being run has index stepCount). */
  stepCount: number;
  readonly stats: StepStats;
}

/** The game-mode Newton solver of the context's topology, created on first use. */
export function newtonSolverOf(ctx: StepContext): NewtonSolver {
  if (ctx.newtonSolver) return ctx.newtonSolver;
  const s = new NewtonSolver(ctx.topology);
  if (ctx.newtonTuning) s.applyTuning(ctx.newtonTuning);
  return (ctx.newtonSolver = s);
}

/**
 * Drop the context's Newton solver (a new topology or sparsity pattern): the next one is made on
 * first use with the same tuning (what a game or a test set on world.newtonSolver() stays set).
 */
export function dropSolver(ctx: StepContext): void {
  if (ctx.newtonSolver) ctx.newtonTuning = ctx.newtonSolver.tuning();
  ctx.newtonSolver = null;
}

/**
 * Contact grew the topology's sparsity pattern (src/collision, setContactPairs): a new workspace
 * redoes the ordering and symbolic factorization, and the Newton solver starts afresh.
 */
export function rebuildSolver(ctx: StepContext): void {
  ctx.workspace = new Workspace(ctx.topology, ctx.stats);
  dropSolver(ctx);
}
