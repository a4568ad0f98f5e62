/**
 * Contact: particles against static/kinematic colliders (half-planes, circles, segments, closed
 * polygons) and against the boundary edges of soft bodies (other bodies and, for non-incident
 * edges, their own). ContactSystem is the façade the step pipeline (src/systems/pipeline.ts) calls,
 * once per stage; it owns the settings and composes the parts (docs/contact.md, "Parts"):
 *
 *   kinematics  moveColliders  colliders.ts      kinematic colliders' shapes at both poses
 *   forces      beginStep      candidates.ts     candidate search on the shared broad phase
 *                                                (broadphase.ts), pattern growth (pattern-book.ts),
 *                                                the candidates' potential (implicit.ts) → model.contact
 *   solve       refine         refine.ts         search again around the result; solve again?
 *   response    respond        response.ts       post-solve detection, safety net, velocity filter
 *                                                (pairs.ts), or FOSSSim's simple mode (simple.ts)
 *   events      events         events.ts         begin / end / active from the pairs
 *
 * Per topology, boundary.ts builds the contact boundary (surface particles, boundary and rod
 * edges, radii, inverse masses) that the search, the response and the events read. Geometry
 * kernels: geometry.ts; the potential's kernels: candidate-kernels.ts, barrier-friction.ts.
 *
 * Game mode with a game-mode implicit integrator (`implicit`, default): contact is inside the
 * Newton solve; after it only tunnelling is corrected and bouncy (COR > 0) collider contacts are
 * filtered. Other integrators use the velocity filter alone. `mode = 'simple'` instead reproduces
 * FOSSSim's SimpleCollisionHandler for XML scenes.
 */
import { f, MAX_SPEED, numArg, RANGES } from '../ranges';
import type { StepContext } from '../solver/context';
import { buildBoundary, emptyBoundary, type ContactBoundary } from './boundary';
import { setContactPairs } from '../solver/topology';
import { rebuildSolver } from '../solver/context';
import { ItemBroadphase } from './broadphase';
import { growF } from './buffers';
import { CandidateSearch } from './candidates';
import type { SkinLists } from './skin-lists';
import { KinematicColliders } from './colliders';
import { ContactEvents, type ContactEvent } from './events';
import { ContactFilter } from './filter';
import { ContactPotential } from './implicit';
import { ContactPairs } from './pairs';
import { PatternBook } from './pattern-book';
import { Refinement } from './refine';
import { ContactResponse } from './response';
import { CONTACT_SETTING_FIELDS, ContactSettings } from './settings';
import { sensorPass } from './sensors';
import { SimpleCollisionHandler } from './simple';

export { COLLIDER_CIRCLE, COLLIDER_SEGMENT, COLLIDER_POLYGON } from './colliders';
export { CONTACT_SETTING_FIELDS } from './settings';
export type { ContactEvent } from './events';

/**
 * The contact state a step carries to the next (src/systems/snapshot.ts writes it): settings, polygon
 * vertices, the boundary's orientation, the pattern book and the topology's contact pairs, the last
 * step's active contacts. Plain numbers and typed arrays.
 */
export interface ContactState {
  /** enabled, implicit, the boundary is current (built for this topology), the pair stamps are mapped. */
  flags: Uint8Array;
  mode: string;
  simpleOrder: string;
  /** ContactSettings in CONTACT_SETTING_FIELDS order. */
  settings: Float64Array;
  polyLocal: Float64Array;
  /** Pattern book: step number, tokens; then counters (growths, deferred, dropped, pinned solves). */
  counters: Float64Array;
  contactPairs: Int32Array;
  pairSeen: Int32Array;
  /** The boundary's edges, ea and eb interleaved (when current). */
  boundaryEdges: Int32Array;
  meanEdge: number;
  prevKeys: Float64Array;
  prevEvents: Float64Array;
}

export class ContactSystem {
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
   * Pair order of 'simple' mode, from FOSSSim's `<collisiondetection type>`:
   * 'allpairs' (FOSSSim's default, AllPairsDetector): for each particle i in index order,
   * its particles j > i, then its edges, then the half-planes;
   * 'contest' (ContestDetector): all particle–particle pairs (i < j, sorted), then all
   * particle–edge pairs (sorted by particle, then edge), then all particle–half-plane pairs.
   * Each response changes velocities the later pairs see, so the order changes the result.
   */
  simpleOrder: 'allpairs' | 'contest' = 'allpairs';
  /** Game-mode settings (also under their own names below: `contacts.friction`, …). */
  readonly settings = new ContactSettings();

  // ---- parts ----
  /** Kinematic colliders: polygon vertices and this step's shapes. */
  readonly colliders = new KinematicColliders();
  /** This step's candidate potentials (valid while implicit contact is on). */
  readonly potential = new ContactPotential();
  private boundary: ContactBoundary = emptyBoundary();
  private readonly broadphase = new ItemBroadphase();
  private readonly book = new PatternBook(this.settings);
  /** Collision filters, sensors and one-way colliders of this step (filter.ts). */
  readonly filter = new ContactFilter();
  private readonly search = new CandidateSearch(this.settings, this.colliders, this.broadphase, this.potential, this.book, this.filter);
  /** The candidate search's skin lists (skin-lists.ts; `on`, and their build and reuse counts: tests and profiling). */
  get skinLists(): SkinLists {
    return this.search.skin;
  }
  private readonly refinement = new Refinement(this.settings, this.potential, this.search);
  private readonly pairs = new ContactPairs();
  private readonly response = new ContactResponse(this.settings, this.colliders, this.broadphase, this.potential, this.pairs, this.filter);
  private readonly log = new ContactEvents();
  /** FOSSSim's simple mode (its `recorder` collects FOSSSim's collision list for the CLI). */
  readonly simple = new SimpleCollisionHandler();

  // ---- this step ----
  /** Start-of-step positions and velocities. */
  private x0: Float64Array = new Float64Array(0);
  private v0: Float64Array = new Float64Array(0);
  /** Contact is in this step's solve (the potential is model.contact). */
  private implicitOn = false;
  private growthsAtStep = 0;
  /** Number of pairs that touched in the last step (benchmark figure). */
  touching = 0;

  /**
   * Kinematics stage: move kinematic colliders by one step and build their world-space shapes
   * for this step (game mode; FOSSSim's simple mode has no colliders).
   */
  moveColliders(ctx: StepContext): void {
    if (!this.enabled || this.mode !== 'game') return;
    this.ensureBoundary(ctx);
    this.colliders.update(ctx);
  }

  /**
   * Forces stage: keep the start-of-step state and, in game mode with a game-mode implicit
   * integrator, search this step's contact candidates and put their potential into the force model.
   */
  beginStep(ctx: StepContext): void {
    const model = ctx.model;
    model.contact = null;
    this.implicitOn = false;
    this.growthsAtStep = this.book.growths;
    if (!this.enabled) return;
    this.x0 = growF(this.x0, ctx.x.length);
    this.x0.set(ctx.x);
    this.v0 = growF(this.v0, ctx.v.length);
    this.v0.set(ctx.v);
    if (this.mode !== 'game') return;
    const t = ctx.topology;
    this.ensureBoundary(ctx);
    this.filter.update(ctx, this.boundary);
    if (this.implicit && ctx.newton !== 'fosssim' && !t.dense &&
      (ctx.integrator === 'implicit-euler' || ctx.integrator === 'linearized-implicit-euler')) {
      this.refinement.count = 0;
      this.search.trustLevel = 0;
      this.book.beginStep();
      this.search.search(ctx, this.boundary, this.x0, this.v0, null);
      this.implicitOn = true;
      model.contact = this.potential;
    }
  }

  /**
   * Solve stage, after each solve with contact: when the result met pairs the candidate search
   * missed (or the solve stopped on its trust region), restore the step and return true to have it
   * solved again (refine.ts).
   */
  refine(ctx: StepContext): boolean {
    if (!this.implicitOn) return false;
    return this.refinement.check(ctx, this.boundary, this.x0, this.v0);
  }

  /**
   * Response stage, after the solve and before the state is written back: FOSSSim's simple
   * response, or game mode's post-solve detection, tunnelling correction and velocity filter.
   */
  respond(ctx: StepContext, searched = false): void {
    if (!this.enabled) return;
    this.ensureBoundary(ctx);
    if (this.mode === 'simple') {
      const sm = this.simple;
      sm.radius = this.boundary.radius;
      sm.n = this.boundary.n;
      sm.cor = this.settings.cor;
      sm.simpleOrder = this.simpleOrder;
      sm.solveSimple(ctx);
      return;
    }
    this.response.detect(ctx, this.boundary, this.x0, this.v0, this.implicitOn, searched);
    const touching = this.pairs.touching();
    this.touching = touching;
    sensorPass(ctx, this.boundary, this.filter, this.colliders, this.broadphase, this.pairs);
    const st = ctx.stats;
    st.contactCandidates = this.implicitOn ? this.potential.count : 0;
    st.contactTouching = touching;
    st.contactRebuilds = this.book.growths - this.growthsAtStep;
    st.contactRebuildsTotal = this.book.growths;
  }

  /** Events stage: this step's begin / end / active lists (empty unless game-mode contact is on). */
  events(ctx: StepContext): void {
    const log = this.log;
    if (!this.enabled || this.mode !== 'game') {
      log.begin.length = 0;
      log.end.length = 0;
      log.active.length = 0;
      return;
    }
    log.collect(ctx, this.pairs, this.boundary, this.colliders);
  }

  /** Events stage of a resting step (every body asleep, no response ran): no contact begins or ends; `active` is kept. */
  restEvents(): void {
    this.log.rest();
  }

  /** The state this contact system carries to the next step (snapshots). */
  exportState(ctx: StepContext): ContactState {
    const t = ctx.topology, bnd = this.boundary;
    const current = bnd.topology === t;
    const book = this.book.exportState(t);
    const edges = new Int32Array(current ? 2 * bnd.nE : 0);
    if (current) for (let k = 0; k < bnd.nE; k++) {
      edges[2 * k] = bnd.ea[k]!;
      edges[2 * k + 1] = bnd.eb[k]!;
    }
    const ev = this.log.exportState();
    return {
      flags: Uint8Array.from([this.enabled ? 1 : 0, this.implicit ? 1 : 0, current ? 1 : 0, book.pairSeen ? 1 : 0]),
      mode: this.mode,
      simpleOrder: this.simpleOrder,
      settings: Float64Array.from(CONTACT_SETTING_FIELDS, (f) => this.settings[f]),
      polyLocal: this.colliders.polyLocal.slice(0, 2 * this.colliders.polyLocalCount),
      counters: Float64Array.from([book.stepNo, book.tokens, this.book.growths, this.book.deferredRebuilds, this.book.droppedPairs, this.refinement.pinnedSolves]),
      contactPairs: t.contactPairs.slice(0, 2 * t.contactPairCount),
      pairSeen: book.pairSeen ?? new Int32Array(0),
      boundaryEdges: edges,
      meanEdge: current ? bnd.meanEdge : 0,
      prevKeys: current ? ev.keys : new Float64Array(0),
      prevEvents: current ? ev.events : new Float64Array(0),
    };
  }

  /**
   * Put a snapshot's contact state back, after the topology was rebuilt from the restored entities:
   * the topology's contact pairs (pattern and linear solver rebuilt), the boundary as it was
   * oriented, the pattern book, the last step's contacts.
   */
  importState(ctx: StepContext, s: ContactState): void {
    // Only what differs is written. V8 tracks a field never written since construction as constant, and
    // code optimized against that deoptimizes at any later store, even of the value it holds: a restore
    // of the world's own recent state (world.warmUp, a rollback) deoptimized the broad phase, the
    // candidate search and the detection (cellSize, stiffness, iterations), which then compiled again
    // during the game's first steps (docs/solver.md, "Stop 29").
    const enabled = s.flags[0] === 1, implicit = s.flags[1] === 1;
    const mode = s.mode === 'simple' ? 'simple' : 'game', order = s.simpleOrder === 'contest' ? 'contest' : 'allpairs';
    if (this.enabled !== enabled) this.enabled = enabled;
    if (this.implicit !== implicit) this.implicit = implicit;
    if (this.mode !== mode) this.mode = mode;
    if (this.simpleOrder !== order) this.simpleOrder = order;
    const settings = this.settings;
    CONTACT_SETTING_FIELDS.forEach((f, k) => {
      const v = fieldValue(s.settings[k]!);
      if (!Object.is(settings[f], v)) settings[f] = v;
    });
    this.colliders.setPolygonVertices(s.polyLocal);
    const t = ctx.topology;
    if (!samePairs(t.contactPairs, t.contactPairCount, s.contactPairs)) {
      setContactPairs(t, s.contactPairs, s.contactPairs.length / 2);
      rebuildSolver(ctx);
    }
    const c = s.counters;
    this.book.growths = fieldValue(c[2]!);
    this.book.deferredRebuilds = fieldValue(c[3]!);
    this.book.droppedPairs = fieldValue(c[4]!);
    this.refinement.pinnedSolves = fieldValue(c[5]!);
    this.book.importState(t, fieldValue(c[0]!), c[1]!, s.flags[3] === 1 ? s.pairSeen : null);
    this.paramsSeen = -1; // the restored components are read at the next step
    if (s.flags[2] === 1) {
      const nE = s.boundaryEdges.length / 2;
      const ea = new Int32Array(nE), eb = new Int32Array(nE);
      for (let k = 0; k < nE; k++) {
        ea[k] = s.boundaryEdges[2 * k]!;
        eb[k] = s.boundaryEdges[2 * k + 1]!;
      }
      const b = this.boundary;
      const same = b.topology === t && b.meanEdge === s.meanEdge && b.nE === nE && sameI32(b.ea, ea) && sameI32(b.eb, eb);
      if (!same) this.boundary = buildBoundary(ctx, { ea, eb, meanEdge: s.meanEdge });
      this.log.importState(s.prevKeys, s.prevEvents);
    } else {
      this.boundary = emptyBoundary();
      this.log.reset();
    }
  }

  /**
   * Which driven collider each particle was left inside of at the last response (its entity id + 1, 0: none;
   * docs/contact.md, "Releases"), or null when none was (snapshots: an optional section).
   */
  yieldMarks(ctx: StepContext): Int32Array | null {
    return this.boundary.topology === ctx.topology ? this.response.yieldMarks(this.boundary) : null;
  }

  /** Put a snapshot's yield marks back (after importState, which restores the boundary they belong to). */
  importYieldMarks(marks: Int32Array | null): void {
    this.response.importYieldMarks(this.boundary, marks);
  }

  /** Add local polygon vertices (a polygon collider's, counter-clockwise); returns their start index. */
  addPolygonVertices(local: ArrayLike<number>): number {
    return this.colliders.addPolygonVertices(local);
  }

  /** Local polygon vertices of all polygon colliders (x, y pairs, from a collider's polyStart). */
  get polyLocal(): Float64Array {
    return this.colliders.polyLocal;
  }

  /** The contact boundary of ctx.topology (rebuilt when the topology changed; the events restart). */
  private ensureBoundary(ctx: StepContext): void {
    if (this.boundary.topology === ctx.topology) {
      // masses, `fixed`, radii or body ids edited in the components (src/systems/ecs.ts)
      if (this.paramsSeen !== ctx.paramsVersion) {
        this.boundary.refreshParticles(ctx);
        this.paramsSeen = ctx.paramsVersion;
      }
      return;
    }
    this.boundary = buildBoundary(ctx);
    this.paramsSeen = ctx.paramsVersion;
    this.log.reset();
  }

  /** ctx.paramsVersion when the boundary's particle data was last read. */
  private paramsSeen = -1;

  // ---- events of the last step ----
  /** Contacts that started this step, ended this step, and all current ones (valid until the next step). */
  get begin(): ContactEvent[] {
    return this.log.begin;
  }
  get end(): ContactEvent[] {
    return this.log.end;
  }
  get active(): ContactEvent[] {
    return this.log.active;
  }

  // ---- counters ----
  /** Contact-pattern growths (pattern + symbolic factorization rebuilt) and their total cost (ms), since creation. */
  get patternGrowths(): number {
    return this.book.growths;
  }
  get msPatternGrowth(): number {
    return this.book.msGrowth;
  }
  /** Rebuilds deferred by the rate limit, and contact pairs dropped as stale, since creation. */
  get deferredRebuilds(): number {
    return this.book.deferredRebuilds;
  }
  get droppedPairs(): number {
    return this.book.droppedPairs;
  }
  /** Candidates of the last solve assembled with the diagonal majorizer (their pattern rebuild deferred). */
  get majorized(): number {
    return this.potential.majorized;
  }
  /** Refinement solves in the last step. */
  get refinements(): number {
    return this.refinement.count;
  }
  /** Solves that ended with a particle on the side of its trust box (refined unless at maxRefinements), since creation. */
  get pinnedSolves(): number {
    return this.refinement.pinnedSolves;
  }

  // ---- settings under their own names (ContactSettings documents each; a setter validates with
  // src/ranges.ts: `contacts.cor = NaN` is an InputError, not a NaN in the next step) ----
  get cor(): number { return this.settings.cor; }
  set cor(v: number) { this.settings.cor = numArg('contacts', 'cor', v, CONTACT_SETTING_RANGES.cor); }
  get friction(): number { return this.settings.friction; }
  set friction(v: number) { this.settings.friction = numArg('contacts', 'friction', v, CONTACT_SETTING_RANGES.friction); }
  get cellSize(): number { return this.settings.cellSize; }
  set cellSize(v: number) { this.settings.cellSize = numArg('contacts', 'cellSize', v, CONTACT_SETTING_RANGES.cellSize); }
  get stiffness(): number { return this.settings.stiffness; }
  set stiffness(v: number) { this.settings.stiffness = numArg('contacts', 'stiffness', v, CONTACT_SETTING_RANGES.stiffness); }
  get frictionEpsV(): number { return this.settings.frictionEpsV; }
  set frictionEpsV(v: number) { this.settings.frictionEpsV = numArg('contacts', 'frictionEpsV', v, CONTACT_SETTING_RANGES.frictionEpsV); }
  get margin(): number { return this.settings.margin; }
  set margin(v: number) { this.settings.margin = numArg('contacts', 'margin', v, CONTACT_SETTING_RANGES.margin); }
  get staleSteps(): number { return this.settings.staleSteps; }
  set staleSteps(v: number) { this.settings.staleSteps = numArg('contacts', 'staleSteps', v, CONTACT_SETTING_RANGES.staleSteps); }
  get rebuildRate(): number { return this.settings.rebuildRate; }
  set rebuildRate(v: number) { this.settings.rebuildRate = numArg('contacts', 'rebuildRate', v, CONTACT_SETTING_RANGES.rebuildRate); }
  get rebuildBurst(): number { return this.settings.rebuildBurst; }
  set rebuildBurst(v: number) { this.settings.rebuildBurst = numArg('contacts', 'rebuildBurst', v, CONTACT_SETTING_RANGES.rebuildBurst); }
  get maxRefinements(): number { return this.settings.maxRefinements; }
  set maxRefinements(v: number) { this.settings.maxRefinements = numArg('contacts', 'maxRefinements', v, CONTACT_SETTING_RANGES.maxRefinements); }
  get iterations(): number { return this.settings.iterations; }
  set iterations(v: number) { this.settings.iterations = numArg('contacts', 'iterations', v, CONTACT_SETTING_RANGES.iterations); }
}

/** Ranges of the tuning settings that src/ranges.ts has no name for. */
const POSITIVE_SPEED = { what: `a number in (0, ${f(MAX_SPEED)}] (m/s)`, ok: (x: number) => x > 0 && x <= MAX_SPEED };
const MARGIN = { what: 'a number in [0, 1000] (particle radii)', ok: (x: number) => x >= 0 && x <= 1000 };
const COUNT = { what: 'an integer in [0, 1e9]', ok: (x: number) => Number.isInteger(x) && x >= 0 && x <= 1e9 };
/**
 * Work per step grows with these: a whole re-solve per refinement, a pass over the touching pairs per
 * iteration (1e9 of either was accepted, and a step then never ended).
 */
const PASSES = (max: number) => ({ what: `an integer in [0, ${max}]`, ok: (x: number) => Number.isInteger(x) && x >= 0 && x <= max });

/** Each setting's valid values: the setters and a snapshot's settings (src/systems/snapshot.ts) check the same. */
export const CONTACT_SETTING_RANGES: Record<(typeof CONTACT_SETTING_FIELDS)[number], { what: string; ok: (x: number) => boolean }> = {
  cor: RANGES.cor,
  friction: RANGES.friction,
  cellSize: RANGES.radius,
  stiffness: RANGES.positiveCoefficient,
  frictionEpsV: POSITIVE_SPEED,
  margin: MARGIN,
  staleSteps: COUNT,
  rebuildRate: RANGES.coefficient,
  rebuildBurst: COUNT,
  maxRefinements: PASSES(100),
  iterations: PASSES(1000),
};

function samePairs(cp: Int32Array, count: number, saved: Int32Array): boolean {
  if (saved.length !== 2 * count) return false;
  for (let k = 0; k < saved.length; k++) if (cp[k] !== saved[k]) return false;
  return true;
}

function sameI32(a: Int32Array, b: Int32Array): boolean {
  if (a.length < b.length) return false;
  for (let k = 0; k < b.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

/**
 * A number read from a snapshot's Float64Array, to be stored in an object field: a whole number
 * becomes V8's small integer. Read from the array, 1 is a heap number, and storing it into a field
 * that held small integers changed that field's representation for every object of the class, in
 * every world (the shape the solver's and the collision code's optimized code was compiled
 * against): after a restore they deoptimized. Values and −0 are kept as they are.
 */
function fieldValue(v: number): number {
  return v === (v | 0) && (v !== 0 || 1 / v > 0) ? v | 0 : v;
}
