/**
 * Contact: particles against static/kinematic colliders (half-planes,
 * circles, segments, closed polygons) and against the boundary edges of soft
 * bodies (other bodies and, for non-incident edges, their own). In game mode
 * with a game-mode implicit integrator, contact is inside the Newton solve
 * (implicit.ts, candidates from detection.ts; docs/contact.md); the rest of
 * this comment describes the post-solve filter (response.ts).
 *
 * Files: detection.ts (contact geometry, colliders, candidate search, pattern
 * bookkeeping) → response.ts (post-solve detection and filter) → events.ts
 * (begin / end / active) → contact.ts (ContactSystem: orchestration);
 * simple.ts (FOSSSim's simple mode).
 *
 * Runs after the implicit solve, on the dense state (ctx.x, ctx.v), as a
 * velocity filter (the course's): for each contact the relative velocity into
 * the normal is removed (or reflected by the COR) and the tangential velocity
 * is reduced by at most μ times that normal change (Coulomb). Penetration is
 * corrected by moving positions only; a correction that lifts a particle
 * against the force on it takes that potential energy out of its outgoing
 * normal speed, so the correction never adds energy.
 *
 * Detection: a uniform-grid spatial hash over swept boxes of all items
 * (body boundary edges, collider segments, polygon edges, circles, polygons),
 * rebuilt every step into preallocated buffers; narrow phase is continuous
 * (swept point–segment and point–circle), so a particle cannot pass through a
 * zero-thickness segment whatever its speed.
 *
 * `mode = 'simple'` instead reproduces FOSSSim's SimpleCollisionHandler for
 * XML scenes: after the step, particle–particle, particle–edge and
 * particle–half-plane pairs that overlap and approach get their velocities
 * reflected by the COR (no friction, no position change).
 */
import type { StepContext } from '../solver/context';
import { growF, growI } from './detection';
import { ContactEvents } from './events';
import { SimpleCollisionHandler } from './simple';

export { COLLIDER_CIRCLE, COLLIDER_SEGMENT, COLLIDER_POLYGON } from './detection';
export type { ContactEvent } from './events';

/**
 * The contact system of a world: detection (detection.ts) → post-solve response (response.ts) →
 * events (events.ts), orchestrated here (snapshot before the solve, refinement, the contact step
 * after it); FOSSSim's simple mode in simple.ts.
 */
export class ContactSystem extends ContactEvents {
  /** Contact runs only when enabled (XML scenes: `<collision type="simple"/>`). */
  enabled = false;
  /** 'game': filter + friction + CCD + penetration correction; 'simple': FOSSSim's SimpleCollisionHandler. */
  mode: 'game' | 'simple' = 'game';
  /**
   * Game mode with a game-mode implicit integrator (default on): body–body, self and inelastic
   * (COR 0) collider contacts enter the Newton solve as exact-distance penalty + lagged friction
   * potentials (src/collision/implicit.ts). After the solve only tunnelling is corrected and
   * bouncy (COR > 0) collider contacts are filtered. Other integrators use the velocity filter.
   */
  implicit = true;

  /**
   * Kinematics stage: move kinematic colliders by one step and build their world-space shapes
   * for this step (game mode; FOSSSim's simple mode has no colliders).
   */
  moveColliders(ctx: StepContext): void {
    if (!this.enabled || this.mode !== 'game') return;
    if (this.topoRef !== ctx.topology) this.rebuild(ctx);
    this.updateColliders(ctx);
  }

  /**
   * Forces stage: keep the start-of-step state and, in game mode with a game-mode implicit
   * integrator, search this step's contact candidates and put their potential into the force model.
   */
  beginStep(ctx: StepContext): void {
    const model = ctx.model;
    model.contact = null;
    this.implicitOn = false;
    this.growthsAtStep = this.patternGrowths;
    if (!this.enabled) return;
    this.x0 = growF(this.x0, ctx.x.length);
    this.x0.set(ctx.x);
    this.v0 = growF(this.v0, ctx.v.length);
    this.v0.set(ctx.v);
    if (this.mode !== 'game') return;
    const t = ctx.topology;
    if (this.topoRef !== t) this.rebuild(ctx);
    if (this.implicit && ctx.newton !== 'fosssim' && !t.dense &&
      (ctx.integrator === 'implicit-euler' || ctx.integrator === 'linearized-implicit-euler')) {
      this.refinements = 0;
      this.trustLevel = 0;
      this.stepNo++;
      this.buildCandidates(ctx); // refills the rebuild tokens first
      this.implicitOn = true;
      model.contact = this.potential;
    }
  }

  /**
   * Response stage, after the solve and before the state is written back: FOSSSim's simple
   * response, or game mode's post-solve detection, tunnelling correction and velocity filter.
   */
  respond(ctx: StepContext): void {
    if (!this.enabled) return;
    if (this.topoRef !== ctx.topology) this.rebuild(ctx);
    if (this.mode === 'simple') {
      const sm = this.simple;
      sm.radius = this.radius;
      sm.n = this.n;
      sm.cor = this.cor;
      sm.simpleOrder = this.simpleOrder;
      sm.solveSimple(ctx);
      return;
    }
    this.detect(ctx);
    let touching = 0;
    for (let k = 0; k < this.nPairs; k++) touching += this.pairHit[k]!;
    this.touching = touching;
    const st = ctx.stats;
    st.contactCandidates = this.implicitOn ? this.potential.count : 0;
    st.contactTouching = touching;
    st.contactRebuilds = this.patternGrowths - this.growthsAtStep;
    st.contactRebuildsTotal = this.patternGrowths;
  }

  /** Events stage: this step's begin / end / active lists (empty unless game-mode contact is on). */
  events(ctx: StepContext): void {
    if (!this.enabled || this.mode !== 'game') {
      this.begin.length = 0;
      this.end.length = 0;
      this.active.length = 0;
      return;
    }
    this.collectEvents(ctx);
  }

  /** Refinement solves allowed per step (see refine). */
  maxRefinements = 3;
  /** Refinement solves in the last step. */
  refinements = 0;
  /** Solves that ended with a particle on the side of its trust box (refined unless at maxRefinements), since creation. */
  pinnedSolves = 0;
  private oldP: Int32Array = new Int32Array(0);
  private oldItem: Int32Array = new Int32Array(0);
  private xs: Float64Array = new Float64Array(0);
  private dxs: Float64Array = new Float64Array(0);
  private readonly gq = new Float64Array(4);
  /** Initial guess of a refinement after a pinned solve (exactly ndof long). */
  private warm: Float64Array = new Float64Array(0);

  /**
   * After a solve with contact: redo the candidate search with the solve's result xs added to
   * the swept boxes and distance tests. When a pair that was not a candidate is in contact at xs
   * (d < r̂: the solve moved a particle where the prediction x + h v never went, e.g. squeezed
   * sideways by an impact), the step is restored and solved again with the larger candidate
   * set (returns true; the solve stage integrates again). At most `maxRefinements` per step.
   */
  refine(ctx: StepContext): boolean {
    if (!this.implicitOn) return false;
    if (this.refinements >= this.maxRefinements) return false;
    // the old candidates [0, m) and guards [m, mt): each list ordered like the new candidates
    const pot = this.potential, m = pot.count, mt = pot.total;
    this.oldP = growI(this.oldP, mt);
    this.oldItem = growI(this.oldItem, mt);
    for (let k = 0; k < mt; k++) {
      this.oldP[k] = pot.node[3 * k]!;
      this.oldItem[k] = pot.item[k]!;
    }
    this.xs = growF(this.xs, ctx.x.length);
    this.xs.set(ctx.x);
    // the solve stopped with a particle on the side of its trust box: search around the result too
    const pinned = pot.pinned(this.xs);
    if (pinned) this.trustLevel++; // a larger trust region around the result (δ × 4)
    this.buildCandidates(ctx, this.xs);
    // candidates are ordered by particle, then half-planes (item < 0, in order), then items ascending
    let j = 0, g = m, missing = pinned;
    if (pinned) this.pinnedSolves++;
    const q = this.gq;
    const nx = ctx.x.length, x0 = this.x0;
    this.dxs = growF(this.dxs, nx);
    for (let i = 0; i < nx; i++) this.dxs[i] = this.xs[i]! - x0[i]!;
    for (let k = 0; k < pot.count && !missing; k++) {
      const p = pot.node[3 * k]!, it = pot.item[k]!;
      while (j < m && (this.oldP[j]! < p || (this.oldP[j] === p && this.before(this.oldItem[j]!, it)))) j++;
      if (j < m && this.oldP[j] === p && this.oldItem[j] === it) continue;
      // a guard of the solve had the potential too (its iterates were kept on its side)
      while (g < mt && (this.oldP[g]! < p || (this.oldP[g] === p && this.before(this.oldItem[g]!, it)))) g++;
      if (g < mt && this.oldP[g] === p && this.oldItem[g] === it) continue;
      // missed: in contact at the result, or the path xᵗ → result went through the surface
      pot.geom(k, this.xs, q);
      if (q[0]! < pot.radius(k) || (pot.barrierKappa(k) > 0 && pot.impactTime(k, x0, this.dxs) >= 0)) missing = true;
    }
    if (!missing) return false;
    this.refinements++;
    if (pinned) {
      // continue from the result (every iterate was intersection-free) with the larger trust region
      if (this.warm.length !== nx) this.warm = new Float64Array(nx);
      for (let i = 0; i < nx; i++) this.warm[i] = this.xs[i]!;
      pot.warmStart = this.warm;
    }
    ctx.x.set(this.x0.subarray(0, ctx.x.length));
    ctx.v.set(this.v0.subarray(0, ctx.v.length));
    return true;
  }

  /**
   * Pair order of 'simple' mode, from FOSSSim's `<collisiondetection type>`:
   * 'allpairs' (FOSSSim's default, AllPairsDetector): for each particle i in index order,
   * its particles j > i, then its edges, then the half-planes;
   * 'contest' (ContestDetector): all particle–particle pairs (i < j, sorted), then all
   * particle–edge pairs (sorted by particle, then edge), then all particle–half-plane pairs.
   * Each response changes velocities the later pairs see, so the order changes the result.
   */
  simpleOrder: 'allpairs' | 'contest' = 'allpairs';
  /** FOSSSim's simple mode (its `recorder` collects FOSSSim's collision list for the CLI). */
  readonly simple = new SimpleCollisionHandler();
}
