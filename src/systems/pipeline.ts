/**
 * The fixed step as one ordered list of named stages: read `step()` below top to bottom.
 *
 *   sync        components → topology (rebuilt only when entities were added or removed),
 *               element parameters, masses and `fixed` flags; dense state x, v gathered; disturbed
 *               sleeping islands woken (when everything sleeps, forces, solve and response rest)
 *   kinematics  kinematic colliders move to this step's pose (anchors' targets were set by input)
 *   forces      the force model the solver calls this step: elements, anchors, contact candidates
 *   solve       time integration (FOSSSim's integrators or game-mode Newton), contact refinement
 *   response    collision response and velocity filter (FOSSSim's simple mode, or game mode)
 *   writeback   dense state → components
 *   events      contact begin / end / active; sleeping islands counted, put to sleep (src/systems/sleep.ts)
 *   render      nothing in the engine: the game layer registers its render sync here
 *
 * User systems (`addSystem`) run before or after any stage, in the order they were added. Between
 * sync and writeback the step's state is the dense ctx.x / ctx.v (components are written back at
 * writeback); before sync and after writeback the components are the state.
 *
 * Fail-safe: in game mode (newton ≠ 'fosssim') one wrapper guards forces → response. When a
 * solve throws a numerical failure (a plain Error: a singular or indefinite system) or leaves a
 * non-finite value in x or v, and the failure is traced to a particle, that particle's island (a body,
 * or particles joined by elements) is held at its start positions and the rest of the world is solved
 * again (isolate(): a degenerate element does not freeze the world). When that does not succeed, the
 * whole step keeps its start positions and halves its velocities (a damped fallback, so the next step
 * does not repeat the failure). Either way stats.failSafe says why (and failSafeHeld what was held).
 * FOSSSim-exact scenes fail as FOSSSim would, but reported: a numerical failure or a non-finite
 * x or v restores the start of the step exactly and throws a SimulationError (step, time, reason,
 * the first non-finite particle). InputErrors and programming errors always propagate.
 *
 * Each stage is timed into ctx.stats.stageMs when `profile` is on.
 */
import { InputError, SimulationError } from '../errors';
import type { Components } from '../components';
import { ContactSystem } from '../collision/contact';
import type { PenaltyTerm } from '../collision/penalty';
import { createEntityLists, dropSolver, newtonSolverOf, type EntityLists, type IntegratorType, type StepContext } from '../solver/context';
import { explicitEuler, implicitEulerFosssim, symplecticEuler, FOSSSIM_NEWTON_MAX_ITERS } from '../solver/integrators';
import type { CarriedFactor, NewtonSettings } from '../solver/newton';
import { createStepStats, MAX_STAGES, type StepStats } from '../solver/stats';
import { buildTopology, type Topology } from '../solver/topology';
import { Workspace } from '../solver/workspace';
import { admitEntities, syncParams } from './ecs';
import { AnchorSet, ForceModel } from './forces';
import { refreshFrozen, SleepSystem, staticIslands } from './sleep';

/** The stages, in run order. */
export const STAGES = ['sync', 'kinematics', 'forces', 'solve', 'response', 'writeback', 'events', 'render'] as const;
export type StageName = (typeof STAGES)[number];

const SYNC = 0, KINEMATICS = 1, FORCES = 2, SOLVE = 3, RESPONSE = 4, WRITEBACK = 5, EVENTS = 6, RENDER = 7;

/** A user system: game code run at a named point of every fixed step. */
export type SystemFn = (ctx: StepContext) => void;

export interface SystemPlacement {
  /** Run before the stage's own work (default: after). */
  before?: boolean;
}

export interface PipelineOptions {
  dt: number;
  integrator: IntegratorType;
  newton: NewtonSettings | 'fosssim';
  massMatrix: 'lumped' | 'consistent';
  c: Components;
  lists: EntityLists;
}

type StageFn = (p: Pipeline) => void;

const now: () => number = typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();

export class Pipeline {
  readonly ctx: StepContext;
  /** Contact settings, colliders' shapes and this step's contact events (src/collision). */
  readonly contact = new ContactSystem();
  /** Pointer anchors: zero-rest-length springs to moving targets, part of the implicit solve. */
  readonly anchors = new AnchorSet(64);
  /** anchors.version at the last solve: a change ends the Newton solver's rest chords (their factor lacks it). */
  anchorsSeen = 0;
  /** The concrete force model of ctx.model (anchors attached). */
  forceModel: ForceModel;
  /** Sleeping islands (src/systems/sleep.ts): off unless the world's `sleeping` option is on. */
  readonly sleep = new SleepSystem();
  /** FOSSSim's penalty force (`<collision type="penalty">`), bound to every rebuilt topology before its workspace; null: none. */
  penalty: PenaltyTerm | null = null;
  /** Time each stage into ctx.stats.stageMs / stepMs. */
  profile = false;
  /** Skip the user systems (PhysicsWorld.warmUp steps the engine's own stages only). */
  userSystemsMuted = false;
  /**
   * The step being run failed and its start was put back (game mode's fail-safe): its events stage
   * reports no contact beginning or ending, as a resting step (the response that finds this step's
   * contacts may not have run, and the last step's pair list is not part of the state).
   */
  stepFailed = false;

  private readonly beforeStage: SystemFn[][] = STAGES.map(systemList);
  private readonly afterStage: SystemFn[][] = STAGES.map(systemList);
  /** The step's failure, if any (solveStages): reason ('' = solved), message, particle (−1: unknown). */
  private failure = '';
  private failDetail = '';
  private failParticle = -1;
  /** isolate(): particles held this step (0: none), the reason and detail reported for them. */
  private heldParticles = 0;
  private heldFailure = '';
  private heldDetail = '';
  /** Start-of-step state for the fail-safe (grown with the topology). */
  private savedX = new Float64Array(0);
  private savedV = new Float64Array(0);

  constructor(o: PipelineOptions) {
    const stats = createStepStats();
    const topology = buildTopology(o.c, o.lists, { massMatrix: o.massMatrix });
    this.forceModel = new ForceModel(topology);
    this.ctx = {
      // dt starts as null so V8 stores the field tagged (an immutable number object): drivers that
      // run in the baseline tier (updateColliders, integrate) read and pass it without boxing a
      // copy, as a field first stored as a double would make them do (16 B per read; the allocation
      // gate sees it; docs/design.md, "Scratch and calling convention"). Assigned right below.
      dt: null as unknown as number, integrator: o.integrator, newton: o.newton, massMatrix: o.massMatrix,
      c: o.c, lists: o.lists, pending: createEntityLists(),
      topologyDirty: true, paramsVersion: 0, topology, model: this.forceModel, workspace: new Workspace(topology, stats), newtonSolver: null, newtonTuning: null,
      x: new Float64Array(0), v: new Float64Array(0), stepCount: 0, stats,
    };
    this.ctx.dt = o.dt;
    if (STAGES.length > MAX_STAGES) throw new Error('pipeline: more stages than StepStats.stageMs holds');
  }

  /** Run `fn` before or after `stage` in every step, after the systems already there. */
  addSystem(stage: StageName, fn: SystemFn, where: SystemPlacement = {}): void {
    const i = stageIndex(stage);
    (where.before ? this.beforeStage : this.afterStage)[i]!.push(fn);
  }

  /** Remove a system added with addSystem; returns whether it was there. */
  removeSystem(fn: SystemFn): boolean {
    for (const lists of [this.beforeStage, this.afterStage]) {
      for (const list of lists) {
        const k = list.indexOf(fn);
        if (k >= 0) {
          list.splice(k, 1);
          return true;
        }
      }
    }
    return false;
  }

  /** The topology of the current entities (rebuilt first when they changed). */
  ensureTopology(): void {
    if (this.ctx.topologyDirty) rebuildTopology(this);
  }

  /** Put a carried factor back (snapshots). */
  restoreFactor(f: CarriedFactor): boolean {
    return newtonSolverOf(this.ctx).restoreFactor(this.ctx.workspace, f, this.ctx.dt);
  }

  /** One fixed step of ctx.dt. */
  step(): void {
    const ctx = this.ctx;
    const t0 = this.profile ? now() : 0;
    this.run(SYNC, syncStage);
    this.run(KINEMATICS, kinematicsStage);
    const guarded = ctx.newton !== 'fosssim';
    this.stepFailed = false;
    this.saveState();
    this.solveStages(guarded);
    if (guarded) {
      if (this.failure !== '' && this.failParticle >= 0) this.isolate();
      this.stepFailed = this.failSafe(this.failure, this.failDetail, this.failParticle);
    } else if (!allFinite(ctx.x, ctx.topology.ndof) || !allFinite(ctx.v, ctx.topology.ndof)) this.failFosssim('the state became non-finite', null);
    this.run(WRITEBACK, writebackStage);
    this.run(EVENTS, eventsStage);
    ctx.stepCount++; // the step is complete: render systems see the world after it
    this.run(RENDER, renderStage);
    if (this.profile) ctx.stats.stepMs = now() - t0;
  }

  /**
   * forces → solve → response. A numerical failure (a plain Error from the solve) in game mode, or a
   * non-finite x or v it left, is recorded in failure / failDetail / failParticle ('' when the step
   * was solved); in FOSSSim mode a numerical failure throws a SimulationError at once.
   */
  private solveStages(guarded: boolean): void {
    const ctx = this.ctx;
    this.failure = '';
    this.failDetail = '';
    this.failParticle = -1;
    try {
      this.run(FORCES, forcesStage);
      this.run(SOLVE, solveStage);
      this.run(RESPONSE, responseStage);
    } catch (e) {
      if (!isNumericalFailure(e)) throw e;
      if (!guarded) this.failFosssim(e instanceof Error ? e.message : String(e), e);
      this.failure = 'solver-error';
      this.failDetail = (e as Error).message;
      this.failParticle = failedParticle(e);
      return;
    }
    if (!guarded) return;
    const n = ctx.topology.ndof;
    if (allFinite(ctx.x, n) && allFinite(ctx.v, n)) return;
    const bad = firstNonFinite(ctx.x, ctx.v, n);
    this.failure = 'non-finite';
    this.failParticle = bad >= 0 ? bad >> 1 : -1;
    this.failDetail = bad >= 0 ? `particle ${bad >> 1} is the first with a non-finite ${bad % 2 === 0 ? 'x' : 'y'} position or velocity` : 'a non-finite state';
  }

  /**
   * Game mode, after a failed solve traced to a particle: hold that particle's island (the particles
   * joined to it by elements or a body id) where it started the step, like a pinned one, and solve the
   * rest of the world again from the start of the step, up to MAX_HELD_ISLANDS islands (a failure traced
   * to an island already held, or to no particle, ends the retries). When a retry succeeds the step
   * stands: the held islands keep their start positions with halved velocities and the step is still
   * reported as failed safe (stats.failSafe, failSafeDetail says what was held, failSafeHeld counts the
   * particles). Otherwise the whole world is held (failSafe below). The holds last for this step only:
   * the next step tries the island again, so an edit that repairs it takes effect at once. A retry runs
   * the forces, solve and response stages again, with the user systems placed at them.
   * Failure path only: allocates.
   */
  private isolate(): void {
    const ctx = this.ctx, t = ctx.topology, n = t.n;
    const held = new Uint8Array(n);
    const before = t.frozen.slice();
    const firstReason = this.failure, first = this.failDetail, firstParticle = this.failParticle;
    let islands = 0, count = 0;
    while (this.failure !== '' && this.failParticle >= 0 && this.failParticle < n && held[this.failParticle] === 0 && islands < MAX_HELD_ISLANDS) {
      const newly = markIsland(t, this.failParticle, held);
      if (newly === 0) break; // nothing free to hold (a pinned particle's island)
      count += newly;
      islands++;
      copyPrefix(t.ndof, this.savedX, ctx.x);
      copyPrefix(t.ndof, this.savedV, ctx.v);
      for (let i = 0; i < n; i++) t.frozen[i] = before[i]! | held[i]!;
      refreshFrozen(ctx);
      this.solveStages(true);
    }
    const solved = this.failure === '';
    t.frozen.set(before);
    refreshFrozen(ctx);
    if (!solved) {
      // the whole world is held (failSafe): report the first failure
      this.failure = this.failure === '' ? 'solver-error' : this.failure;
      this.failDetail = first;
      this.failParticle = firstParticle;
      return;
    }
    for (let i = 0; i < n; i++) {
      if (held[i] === 0) continue;
      ctx.x[2 * i] = this.savedX[2 * i]!;
      ctx.x[2 * i + 1] = this.savedX[2 * i + 1]!;
      ctx.v[2 * i] = 0.5 * this.savedV[2 * i]!;
      ctx.v[2 * i + 1] = 0.5 * this.savedV[2 * i + 1]!;
    }
    this.heldParticles = count;
    this.heldFailure = firstReason;
    this.heldDetail = `${first}; held ${count} particle${count === 1 ? '' : 's'} (${islands} island${islands === 1 ? '' : 's'}) at the start of the step, the rest of the world stepped`;
    this.failParticle = firstParticle;
  }

  /**
   * No user system runs between the forces stage's candidate search and the response (after the forces stage,
   * around the solve, before the response): the state the response sees is the solve's, and the colliders are
   * those the search saw, so the response may take its pairs from the search (ContactResponse.fromSolve).
   */
  solvedAsSearched(): boolean {
    if (this.userSystemsMuted) return true;
    return this.afterStage[FORCES]!.length === 0 && this.beforeStage[SOLVE]!.length === 0 &&
      this.afterStage[SOLVE]!.length === 0 && this.beforeStage[RESPONSE]!.length === 0;
  }

  /** One stage: the systems before it, its own work, the systems after it (timed when profiling). */
  private run(i: number, work: StageFn): void {
    const t0 = this.profile ? now() : 0;
    // runSystems is called on every step, with no systems while they are muted: a scene warmed up with its
    // systems muted (world.warmUp) first ran them after the warm-up, and that first call deoptimized the step
    const ctx = this.ctx, muted = this.userSystemsMuted;
    runSystems(muted ? NO_SYSTEMS : this.beforeStage[i]!, ctx, i);
    work(this);
    runSystems(muted ? NO_SYSTEMS : this.afterStage[i]!, ctx, i);
    if (this.profile) ctx.stats.stageMs[i] = now() - t0;
  }

  private saveState(): void {
    const ctx = this.ctx, n = ctx.topology.ndof;
    if (this.savedX.length < n) {
      this.savedX = new Float64Array(n);
      this.savedV = new Float64Array(n);
    }
    copyPrefix(n, ctx.x, this.savedX);
    copyPrefix(n, ctx.v, this.savedV);
  }

  /**
   * FOSSSim mode: put back the start of the step exactly (the world stays at its last good state)
   * and throw a SimulationError naming the step, its time and the first non-finite particle.
   */
  private failFosssim(reason: string, cause: unknown): never {
    const ctx = this.ctx, n = ctx.topology.ndof;
    const bad = firstNonFinite(ctx.x, ctx.v, n);
    copyPrefix(n, this.savedX, ctx.x);
    copyPrefix(n, this.savedV, ctx.v);
    const step = ctx.stepCount + 1;
    const element = bad >= 0 ? `particle ${bad >> 1} is the first with a non-finite ${bad % 2 === 0 ? 'x' : 'y'} position or velocity` : '';
    const hint = cause === null && (ctx.integrator === 'explicit-euler' || ctx.integrator === 'symplectic-euler')
      ? '; the explicit integrator diverged: try a smaller dt or an implicit integrator' : '';
    throw new SimulationError(step, step * ctx.dt, reason + hint, element, cause === null ? undefined : { cause });
  }

  /**
   * Game mode: report the step's failure (`failure`: '' when it was solved). When isolate() held the
   * failing islands and solved the rest, the step stands; otherwise the whole world is put back to the
   * start of the step with halved velocities; returns whether it was (the events stage then reports
   * a resting step's events: this step's response may not have run).
   */
  private failSafe(failure: string, detail: string, particle: number): boolean {
    const ctx = this.ctx, n = ctx.topology.ndof, st = ctx.stats;
    const held = this.heldParticles;
    this.heldParticles = 0;
    st.failSafe = failure;
    st.failSafeHeld = held;
    if (failure === '' && held === 0) {
      if (st.failSafeDetail !== '') {
        st.failSafeDetail = '';
        st.failSafeParticle = -1;
        st.failSafeBody = -1;
      }
      return false;
    }
    if (held > 0) {
      st.failSafe = this.heldFailure;
      detail = this.heldDetail;
    }
    const t = ctx.topology;
    const body = particle >= 0 && particle < t.n ? ctx.c.Particle.body[t.particleEids[particle]!]! : -1;
    st.failSafeDetail = `step ${ctx.stepCount + 1}: ${detail}${body > 0 ? ` (body ${body})` : ''}`;
    st.failSafeParticle = particle;
    st.failSafeBody = body;
    if (held === 0) restoreDamped(n, this.savedX, this.savedV, ctx.x, ctx.v);
    st.converged = false;
    st.failSafeSteps++;
    return held === 0;
  }
}

/**
 * An exception thrown by a user system, with the stage it ran in (the original is its `cause`).
 * Never taken for a numerical failure of the solve: the fail-safe does not swallow game code's errors.
 */
export class SystemError extends Error {
  readonly stage: StageName;
  constructor(stage: StageName, cause: unknown) {
    super(`a system at stage '${stage}' threw: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'SystemError';
    this.stage = stage;
  }
}

/**
 * An empty list of systems whose elements V8 stores as tagged values from the start. A list made by `[]`
 * starts with small-integer elements and changes its hidden class at its first push; V8 then makes later
 * `[]` of the same site with tagged elements at once. So the first world had lists of two hidden classes and
 * a second world lists of the other one only, and the stage runner (run, runSystems, solvedAsSearched,
 * responseStage), optimized on the first world's lists, was deoptimized ("wrong map") at the second world's
 * first step and compiled again some 500 steps later, in a resting step (docs/solver.md, "Stop 40").
 */
function systemList(): SystemFn[] {
  const list: SystemFn[] = [noSystem];
  list.pop();
  return list;
}

function noSystem(): void {}

/** The systems run while user systems are muted. */
const NO_SYSTEMS: SystemFn[] = systemList();

function runSystems(list: SystemFn[], ctx: StepContext, stage: number): void {
  try {
    for (let k = 0; k < list.length; k++) list[k]!(ctx);
  } catch (e) {
    if (e instanceof InputError || e instanceof SystemError) throw e;
    throw new SystemError(STAGES[stage]!, e);
  }
}

function stageIndex(stage: StageName): number {
  const i = STAGES.indexOf(stage);
  if (i < 0) throw new InputError(`addSystem: unknown stage '${String(stage)}' (expected one of ${STAGES.join(', ')})`);
  return i;
}

/** Islands isolate() may hold in one step before it holds the whole world. */
export const MAX_HELD_ISLANDS = 4;

/**
 * held[i] ← 1 for every free particle of p's static island (src/systems/sleep.ts, staticIslands:
 * particles joined by elements or sharing a body id > 0). Returns how many were newly marked.
 * Failure path only (allocates).
 */
function markIsland(t: Topology, p: number, held: Uint8Array): number {
  const n = t.n, comp = new Int32Array(n);
  staticIslands(t, comp);
  const root = comp[p]!;
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (held[i] === 0 && t.fixedSrc[i] === 0 && comp[i] === root) {
      held[i] = 1;
      count++;
    }
  }
  return count;
}

/** The particle a solver error names (its `particle` field, src/solver/newton.ts), or −1. */
function failedParticle(e: unknown): number {
  const p = (e as { particle?: unknown }).particle;
  return typeof p === 'number' && Number.isInteger(p) ? p : -1;
}

/** The plain Errors a solve throws for a singular or indefinite system; scene and programming errors are not. */
function isNumericalFailure(e: unknown): boolean {
  return e instanceof Error && !(e instanceof InputError) && e.constructor === Error;
}

// ---- the stages' own work ------------------------------------------------------------------

function syncStage(p: Pipeline): void {
  const ctx = p.ctx;
  // components are the source of truth: edits refresh the topology's numbers in place (src/systems/ecs.ts)
  const refreshes = ctx.stats.paramRefreshes;
  if (!ctx.topologyDirty) syncParams(ctx);
  if (ctx.topologyDirty) rebuildTopology(p);
  const t = ctx.topology, P = ctx.c.Particle;
  gatherKernel(t.n, t.particleEids, P.x, P.y, P.vx, P.vy, ctx.x, ctx.v);
  // sleeping: wake what was disturbed; a world where every free particle sleeps skips forces → response
  const sl = p.sleep, st = ctx.stats;
  sl.beforeStep(ctx, p.anchors, p.contact, ctx.stats.paramRefreshes !== refreshes);
  st.resting = sl.resting;
  st.sleepingParticles = sl.sleepingCount;
}

function kinematicsStage(p: Pipeline): void {
  p.contact.moveColliders(p.ctx);
}

function forcesStage(p: Pipeline): void {
  if (p.sleep.resting) return restingStats(p.ctx.stats);
  p.contact.beginStep(p.ctx);
}

/** A resting step (everything asleep) solves nothing: no Newton iteration, no contact candidate. */
function restingStats(st: StepStats): void {
  st.newtonIters = 0;
  st.converged = true;
  st.linearPath = 'none';
  st.contactCandidates = 0;
  st.contactRebuilds = 0;
}

function solveStage(p: Pipeline): void {
  const ctx = p.ctx;
  ctx.stats.newtonIters = 0; // the step's Newton budget counts from here (NewtonSettings.maxStepIters)
  ctx.stats.newtonCapped = false;
  if (p.sleep.resting) return;
  // anchors added or removed: the carried factor (rest chords, the PCG preconditioner) lacks their terms
  if (p.anchors.version !== p.anchorsSeen) {
    p.anchorsSeen = p.anchors.version;
    if (ctx.newtonSolver !== null) ctx.newtonSolver.refreshParams();
  }
  integrate(ctx);
  // contact in the solve (src/collision): solve again when the result met pairs the candidate search
  // missed, unless the step's Newton budget is used up (the last solve's result stands)
  while (!ctx.stats.newtonCapped && p.contact.refine(ctx)) integrate(ctx);
}

function responseStage(p: Pipeline): void {
  if (p.sleep.resting) return;
  p.contact.respond(p.ctx, p.solvedAsSearched());
}

function writebackStage(p: Pipeline): void {
  const ctx = p.ctx, t = ctx.topology, P = ctx.c.Particle;
  scatterKernel(t.n, t.particleEids, P.x, P.y, P.vx, P.vy, ctx.x, ctx.v);
}

function eventsStage(p: Pipeline): void {
  if (p.sleep.resting || p.stepFailed) p.contact.restEvents();
  else p.contact.events(p.ctx);
  p.sleep.afterStep(p.ctx, p.contact.active, p.anchors);
}

function renderStage(_p: Pipeline): void {
  // the engine draws nothing: the game layer's render sync runs here as a user system
}

/** Forces and time integration over the dense state. */
function integrate(ctx: StepContext): void {
  const model = ctx.model, ws = ctx.workspace;
  const x = ctx.x, v = ctx.v, h = ctx.dt;
  switch (ctx.integrator) {
    case 'explicit-euler':
      explicitEuler(model, x, v, h, ws);
      break;
    case 'symplectic-euler':
      symplecticEuler(model, x, v, h, ws);
      break;
    case 'linearized-implicit-euler':
      if (ctx.newton === 'fosssim') implicitEulerFosssim(model, x, v, h, ws, 1);
      else newtonSolverOf(ctx).step(model, x, v, h, ctx.newton, 1, ws);
      break;
    case 'implicit-euler':
      if (ctx.newton === 'fosssim') implicitEulerFosssim(model, x, v, h, ws, FOSSSIM_NEWTON_MAX_ITERS);
      else newtonSolverOf(ctx).step(model, x, v, h, ctx.newton, ctx.newton.maxIters, ws);
      break;
  }
}

/**
 * Rebuild everything derived from the set of entities (setup rate: allocates): bitECS-created
 * entities get their defaults and every entity's data is validated first (src/systems/ecs.ts).
 */
function rebuildTopology(p: Pipeline): void {
  const ctx = p.ctx;
  admitEntities(ctx);
  // The contact pairs the last pattern had (game-mode contact) stay in the new one: without them, the first
  // candidate search after a body was added or removed grew the pattern again with the same pairs, a second
  // ordering and symbolic factorization in the same step (docs/solver.md, "Stop 35"). Not after contact was turned
  // off (nothing would drop them), nor with FOSSSim's penalty force, which adds its own pairs to every topology
  // (attach, below).
  const old = ctx.topology, carry = p.penalty === null && p.contact.enabled && p.contact.mode === 'game';
  const contactPairEids = carry ? pairEids(old.particleEids, old.contactPairs, old.contactPairCount) : undefined;
  const t = buildTopology(ctx.c, ctx.lists, { massMatrix: ctx.massMatrix, contactPairEids });
  ctx.stats.topologyBuilds++;
  const model = new ForceModel(t);
  model.anchors = p.anchors;
  if (p.penalty) model.penalty = p.penalty.attach(t); // before the workspace: it may grow the pattern
  p.anchors.remap(t.particleEids);
  p.forceModel = model;
  ctx.topology = t;
  ctx.model = model;
  ctx.workspace = new Workspace(t, ctx.stats);
  dropSolver(ctx);
  ctx.x = new Float64Array(t.ndof);
  ctx.v = new Float64Array(t.ndof);
  ctx.topologyDirty = false;
}

/** A topology's contact pairs as particle entity ids (undefined when it has none). */
function pairEids(particleEids: Int32Array, pairs: Int32Array, count: number): Int32Array | undefined {
  if (count === 0) return undefined;
  const out = new Int32Array(2 * count);
  for (let q = 0; q < 2 * count; q++) out[q] = particleEids[pairs[q]!]!;
  return out;
}

// Loop kernels with nothing but the loop (docs/solver.md, "Allocation work, part 4": a driver's
// named accesses before a long first loop left it on OSR code entered from the interpreter).

function gatherKernel(
  n: number, eids: Int32Array, px: Float64Array, py: Float64Array, pvx: Float64Array, pvy: Float64Array,
  x: Float64Array, v: Float64Array,
): void {
  for (let i = 0; i < n; i++) {
    const e = eids[i]!;
    x[2 * i] = px[e]!;
    x[2 * i + 1] = py[e]!;
    v[2 * i] = pvx[e]!;
    v[2 * i + 1] = pvy[e]!;
  }
}

function scatterKernel(
  n: number, eids: Int32Array, px: Float64Array, py: Float64Array, pvx: Float64Array, pvy: Float64Array,
  x: Float64Array, v: Float64Array,
): void {
  for (let i = 0; i < n; i++) {
    const e = eids[i]!;
    px[e] = x[2 * i]!;
    py[e] = x[2 * i + 1]!;
    pvx[e] = v[2 * i]!;
    pvy[e] = v[2 * i + 1]!;
  }
}

/** dst[i] = src[i] for i < n (no subarray view per step). */
function copyPrefix(n: number, src: Float64Array, dst: Float64Array): void {
  for (let i = 0; i < n; i++) dst[i] = src[i]!;
}

/** The first DOF where x or v is not finite, or -1. */
function firstNonFinite(x: Float64Array, v: Float64Array, n: number): number {
  for (let i = 0; i < n; i++) if (!Number.isFinite(x[i]!) || !Number.isFinite(v[i]!)) return i;
  return -1;
}

function allFinite(a: Float64Array, n: number): boolean {
  for (let i = 0; i < n; i++) if (!Number.isFinite(a[i]!)) return false;
  return true;
}

/** x ← x0; v ← v0 / 2 (0 where that is not finite). */
function restoreDamped(n: number, x0: Float64Array, v0: Float64Array, x: Float64Array, v: Float64Array): void {
  for (let i = 0; i < n; i++) {
    x[i] = x0[i]!;
    const vi = 0.5 * v0[i]!;
    v[i] = Number.isFinite(vi) ? vi : 0;
  }
}
