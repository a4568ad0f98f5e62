/**
 * PhysicsWorld: the engine's front door. Bodies are bitECS entities with
 * structure-of-arrays components; `step()` runs the ordered fixed-step systems.
 * SI units throughout (m, kg, s); y points up.
 */
import { createWorld, entityExists, hasComponent, removeEntity, type World } from 'bitecs';
import { createComponents, UNIFORM_CONSTANT, UNIFORM_DRAG, UNIFORM_GRAVITY, type Components } from './components';
import { cstRest, materialId, MATERIAL_NAMES, type MaterialName } from './elements';
import { InputError } from './errors';
import { createEntityLists, newtonSolverOf, type EntityLists, type IntegratorType, type StepContext } from './solver/context';
import type { Topology } from './solver/topology';
import type { StepStats } from './solver/stats';
import type { Workspace } from './solver/workspace';
import { GAME_NEWTON_DEFAULTS, type NewtonSettings, type NewtonSolver } from './solver/newton';
import type { AnchorSet, ForceModel } from './systems/forces';
import { Pipeline, type StageName, type SystemFn, type SystemPlacement } from './systems/pipeline';
import { DEFAULT_EDGE_RADIUS, DEFAULT_PARTICLE_RADIUS, EcsBridge, hingeRest, restLength, STORE_LISTS } from './systems/ecs';
import { COLLIDER_CIRCLE, COLLIDER_POLYGON, COLLIDER_SEGMENT, type ContactSystem } from './collision/contact';
import type { PenaltyTerm } from './collision/penalty';
import { engineWarmedUp, runWarmUp } from './warmup';
import { applySnapshot, readSnapshot, snapshotPayload, stateHash, stateHashes, writeSnapshot, type SnapshotData } from './systems/snapshot';
import { ENGINE_VERSION } from './version';
import { parseFilter, parseOneWay, writeColliderFilter, writeParticleFilter, type CollisionFilter, type FilterOptions, type OneWay } from './systems/filters';

export interface WorldOptions {
  /** Fixed step (s), default 1/60. */
  dt?: number;
  /** Gravity acceleration (m/s²) applied to every particle; default [0, −9.81]; null for none. */
  gravity?: [number, number] | null;
  /** Time integrator; default 'implicit-euler'. */
  integrator?: IntegratorType;
  /**
   * Mass matrix of triangles with a density: 'lumped' (default, ρĀ/3 per vertex, FOSSSim) or
   * 'consistent' (ρĀ/12 (1 + δab) blocks, used by the implicit integrators' inertia; gravity
   * and the explicit integrators use the lumped masses, which have the same row sums).
   */
  massMatrix?: 'lumped' | 'consistent';
  /**
   * How the implicit integrators solve each step. Default: game mode, Newton
   * on the incremental potential with PSD-projected Hessians and a line search
   * (GAME_NEWTON_DEFAULTS: maxIters 5, tolerance 1e-6, lineSearch true,
   * projection 'psd', maxStepIters 0: no per-step budget); give a partial object to change some
   * settings. `maxStepIters` bounds a step's Newton iterations over all its solves (docs/solver.md).
   * 'fosssim': FOSSSim's exact semantics (plain Newton to 1e-9, no projection,
   * no line search), as scenes without game attributes use.
   */
  newton?: Partial<NewtonSettings> | 'fosssim';
  /**
   * Sleeping (game mode only; default off): islands of bodies at rest stop being solved until
   * disturbed (src/systems/sleep.ts, docs/design.md "Sleeping"). Same as `world.sleeping = true`.
   */
  sleeping?: boolean;
}

/** Resolve WorldOptions.newton to full settings (validated). */
export function resolveNewton(opt: Partial<NewtonSettings> | 'fosssim' | undefined): NewtonSettings | 'fosssim' {
  if (opt === 'fosssim') return 'fosssim';
  const s: NewtonSettings = { ...GAME_NEWTON_DEFAULTS, ...(opt ?? {}) };
  if (!Number.isInteger(s.maxIters) || s.maxIters < 1 || s.maxIters > 64) {
    throw new InputError(`newton.maxIters must be a whole number in [1, 64], got ${s.maxIters}`);
  }
  if (!(s.tolerance > 0) || !Number.isFinite(s.tolerance)) throw new InputError(`newton.tolerance must be a finite number > 0, got ${s.tolerance}`);
  if (typeof s.lineSearch !== 'boolean') throw new InputError(`newton.lineSearch must be a boolean, got ${String(s.lineSearch)}`);
  if (s.projection !== 'psd' && s.projection !== 'none') throw new InputError(`newton.projection must be 'psd' or 'none', got ${String(s.projection)}`);
  if (!Number.isInteger(s.maxStepIters) || s.maxStepIters < 0 || s.maxStepIters > 1000) {
    throw new InputError(`newton.maxStepIters must be a whole number in [0, 1000] (0: no budget), got ${String(s.maxStepIters)}`);
  }
  return s;
}

export interface ParticleOptions {
  x: number;
  y: number;
  vx?: number;
  vy?: number;
  /** Mass (kg); must be > 0 for a free particle unless triangles with density give it mass. */
  m: number;
  fixed?: boolean;
  radius?: number;
  /** Body id from createBody(), for body–body and self contact; default 0 (no body). */
  body?: number;
  /** Collision filter and sensor flag (src/systems/filters.ts; default: category 1, mask all, group 0, no sensor). */
  filter?: FilterOptions;
}

/** Per-collider contact material; omitted: the world's `contacts.cor` / `contacts.friction`. */
export interface ColliderOptions {
  friction?: number;
  cor?: number;
  /** Collision filter (Matter's `collisionFilter`: category, mask, group); default: category 1, mask all, group 0. */
  collisionFilter?: CollisionFilter;
  /** Report overlaps as contact events (`sensor: true`), never push. */
  sensor?: boolean;
  /** One-way: bodies pass moving along this direction (true: +y, from below) and land coming against it. */
  oneWay?: OneWay;
}

export interface TriangleOptions {
  youngsModulus: number;
  poissonRatio: number;
  /** Mass per unit area (kg/m², thickness 1), default 0; added to the vertices (see WorldOptions.massMatrix). */
  density?: number;
  /**
   * Material (docs/materials.md): 'fosssim' (default; FOSSSim's CST, exactly), 'stvk',
   * 'neohookean' or 'corotational' (all three share the plane-stress small-strain response
   * of (youngsModulus, poissonRatio); 'corotational' and 'neohookean' resist inversion).
   */
  material?: MaterialName;
  /** Rest positions [x1, y1, x2, y2, x3, y3]; default: the particles' current positions. */
  rest?: readonly number[];
}

const INTEGRATORS: readonly IntegratorType[] = ['explicit-euler', 'symplectic-euler', 'linearized-implicit-euler', 'implicit-euler'];

export class PhysicsWorld {
  /**
   * The bitECS world: the engine's entities live here, and a game's may too. Entities created or
   * removed with bitECS's own addEntity + addComponent(world.ecs, eid, world.c.Particle) /
   * removeEntity are simulated or dropped exactly as those of add* / removeEntity (docs/design.md,
   * "Entities and components").
   */
  readonly ecs: World;
  readonly c: Components;
  /** The fixed step's stages, its context and its user systems (src/systems/pipeline.ts). */
  readonly pipeline: Pipeline;
  private readonly ctx: StepContext;

  /** Fixed step (s). */
  get dt(): number {
    return this.ctx.dt;
  }
  set dt(dt: number) {
    if (!(dt > 0) || !Number.isFinite(dt)) throw new InputError(`PhysicsWorld: dt must be a finite number > 0, got ${dt}`);
    this.ctx.dt = dt;
  }
  /** Time integrator (WorldOptions.integrator). */
  get integrator(): IntegratorType {
    return this.ctx.integrator;
  }
  set integrator(i: IntegratorType) {
    if (!INTEGRATORS.includes(i)) throw new InputError(`PhysicsWorld: integrator must be one of ${INTEGRATORS.join(', ')}, got ${String(i)}`);
    this.ctx.integrator = i;
  }
  /** Game-mode Newton settings, or 'fosssim' (see WorldOptions.newton). */
  get newton(): NewtonSettings | 'fosssim' {
    return this.ctx.newton;
  }
  set newton(n: NewtonSettings | 'fosssim') {
    this.ctx.newton = resolveNewton(n);
  }
  /** Triangle mass matrix (WorldOptions.massMatrix); changing it rebuilds the topology on next use. */
  get massMatrix(): 'lumped' | 'consistent' {
    return this.ctx.massMatrix;
  }
  set massMatrix(m: 'lumped' | 'consistent') {
    if (m !== 'lumped' && m !== 'consistent') throw new InputError(`massMatrix must be 'lumped' or 'consistent', got ${String(m)}`);
    if (m !== this.ctx.massMatrix) this.ctx.topologyDirty = true;
    this.ctx.massMatrix = m;
  }
  /** Steps taken. */
  get stepCount(): number {
    return this.ctx.stepCount;
  }
  /** Simulated time: stepCount × dt (a getter: storing it each step would box a double). */
  get time(): number {
    return this.ctx.stepCount * this.ctx.dt;
  }
  /** Creation-ordered entity ids of each kind (the solver's order, never query order). */
  get lists(): EntityLists {
    return this.ctx.lists;
  }
  /** Drawn / rod edges in creation order. */
  get edges(): number[] {
    return this.ctx.lists.edges;
  }
  /** Half-planes in creation order. */
  get halfplanes(): number[] {
    return this.ctx.lists.halfplanes;
  }
  /** Circle, segment and polygon colliders in creation order (src/collision). */
  get colliders(): number[] {
    return this.ctx.lists.colliders;
  }
  /** Contact settings and this step's contact events (begin / end / active). Off until `contacts.enabled = true`. */
  get contacts(): ContactSystem {
    return this.pipeline.contact;
  }
  /**
   * FOSSSim's penalty force (`<collision type="penalty">`, src/collision/penalty.ts): bound to every
   * (re)built topology before its workspace. null: none.
   */
  get penalty(): PenaltyTerm | null {
    return this.pipeline.penalty;
  }
  set penalty(p: PenaltyTerm | null) {
    this.pipeline.penalty = p;
    this.ctx.topologyDirty = true;
  }
  /** Pointer anchors (zero-rest-length springs to moving targets), part of the implicit solve; see `setAnchor`. */
  get anchors(): AnchorSet {
    return this.pipeline.anchors;
  }
  /** Time each pipeline stage into lastStats.stageMs (and stepMs); off by default. */
  get profile(): boolean {
    return this.pipeline.profile;
  }
  set profile(on: boolean) {
    this.pipeline.profile = on;
  }
  private nextBody = 1;
  /** The bitECS observers through which every entity enters and leaves (src/systems/ecs.ts). */
  private readonly bridge: EcsBridge;
  /** Dense state of the solver (creation order), valid between the sync and write-back stages of a step. */
  get x(): Float64Array {
    return this.ctx.x;
  }
  get v(): Float64Array {
    return this.ctx.v;
  }

  constructor(opts: WorldOptions = {}) {
    this.ecs = createWorld();
    this.c = createComponents();
    const dt = opts.dt ?? 1 / 60;
    if (!(dt > 0) || !Number.isFinite(dt)) throw new InputError(`PhysicsWorld: dt must be a finite number > 0, got ${opts.dt}`);
    const integrator = opts.integrator ?? 'implicit-euler';
    if (!INTEGRATORS.includes(integrator)) throw new InputError(`PhysicsWorld: integrator must be one of ${INTEGRATORS.join(', ')}, got ${String(integrator)}`);
    const massMatrix = opts.massMatrix ?? 'lumped';
    if (massMatrix !== 'lumped' && massMatrix !== 'consistent') throw new InputError(`massMatrix must be 'lumped' or 'consistent', got ${String(massMatrix)}`);
    this.pipeline = new Pipeline({
      dt, integrator, massMatrix, newton: resolveNewton(opts.newton), c: this.c, lists: createEntityLists(),
    });
    this.ctx = this.pipeline.ctx;
    this.bridge = new EcsBridge(this.ecs, this.ctx);
    const g = opts.gravity === undefined ? [0, -9.81] : opts.gravity;
    if (g) this.addGravity(g[0], g[1]);
    if (opts.sleeping !== undefined) this.sleeping = opts.sleeping;
  }

  // ---- creation -------------------------------------------------------------

  /** addEntity + addComponent through the world's observers (src/systems/ecs.ts); the store may have grown. */
  private create(store: object): number {
    return this.bridge.create(store);
  }

  private particle(eid: number, where: string): number {
    if (!this.has(eid, this.c.Particle)) throw new InputError(`${where}: ${eid} is not a particle of this world`);
    return eid;
  }

  private has(eid: number, store: object): boolean {
    return Number.isInteger(eid) && eid > 0 && entityExists(this.ecs, eid) && hasComponent(this.ecs, eid, store);
  }

  addParticle(p: ParticleOptions): number {
    const where = 'addParticle';
    for (const key of ['x', 'y', 'vx', 'vy', 'm', 'radius'] as const) {
      const val = p[key];
      if (val !== undefined && !Number.isFinite(val)) throw new InputError(`${where}: '${key}' must be a finite number, got ${val}`);
    }
    if (!(p.m >= 0)) throw new InputError(`${where}: 'm' must be >= 0, got ${p.m}`);
    if (p.radius !== undefined && p.radius < 0) throw new InputError(`${where}: 'radius' must be >= 0, got ${p.radius}`);
    if (p.body !== undefined && !(Number.isInteger(p.body) && p.body >= 0 && p.body < this.nextBody)) {
      throw new InputError(`${where}: 'body' must be 0 or an id from createBody(), got ${p.body}`);
    }
    const filter = parseFilter(where, p.filter);
    const eid = this.create(this.c.Particle);
    if (p.filter !== undefined) writeParticleFilter(this.c, eid, filter);
    const Q = this.c.Particle; // may have grown
    Q.x[eid] = p.x;
    Q.y[eid] = p.y;
    Q.vx[eid] = p.vx ?? 0;
    Q.vy[eid] = p.vy ?? 0;
    Q.m[eid] = p.m;
    Q.radius[eid] = p.radius ?? DEFAULT_PARTICLE_RADIUS;
    Q.fixed[eid] = p.fixed ? 1 : 0;
    Q.body[eid] = p.body ?? 0;
    return eid;
  }

  /** Elastic-body spring W = α/(2 l0)(l − l0)²; l0 defaults to the current length. */
  addSpring(a: number, b: number, p: { alpha: number; l0?: number }): number {
    const where = 'addSpring';
    this.particle(a, where);
    this.particle(b, where);
    if (a === b) throw new InputError(`${where}: the two particles must differ`);
    const l0 = p.l0 ?? restLength(this.c, a, b);
    if (!(l0 > 0) || !Number.isFinite(l0)) throw new InputError(`${where}: 'l0' must be a finite number > 0, got ${l0}`);
    if (!Number.isFinite(p.alpha)) throw new InputError(`${where}: 'alpha' must be a finite number, got ${p.alpha}`);
    const eid = this.create(this.c.ElasticSpring);
    const S = this.c.ElasticSpring;
    S.a[eid] = a;
    S.b[eid] = b;
    S.alpha[eid] = p.alpha;
    S.l0[eid] = l0;
    return eid;
  }

  /** Bending hinge at b; θ0 defaults to the current angle; rest edge lengths from current positions. */
  addHinge(a: number, b: number, c: number, p: { alpha: number; theta0?: number }): number {
    const where = 'addHinge';
    this.particle(a, where);
    this.particle(b, where);
    this.particle(c, where);
    if (a === b || b === c || a === c) throw new InputError(`${where}: the three particles must differ`);
    if (!Number.isFinite(p.alpha)) throw new InputError(`${where}: 'alpha' must be a finite number, got ${p.alpha}`);
    const rest = new Float64Array(2);
    hingeRest(this.c, a, b, c, rest);
    const ebSum = rest[0]!;
    if (!(ebSum > 0)) throw new InputError(`${where}: the rest edges have zero total length`);
    const theta0 = p.theta0 ?? rest[1]!;
    if (!Number.isFinite(theta0)) throw new InputError(`${where}: 'theta0' must be a finite number, got ${theta0}`);
    const eid = this.create(this.c.Hinge);
    const H = this.c.Hinge;
    H.a[eid] = a;
    H.b[eid] = b;
    H.c[eid] = c;
    H.alpha[eid] = p.alpha;
    H.theta0[eid] = theta0;
    H.ebSum[eid] = ebSum;
    return eid;
  }

  /** Constant-strain triangle (FOSSSim CST material). */
  addTriangle(a: number, b: number, c: number, p: TriangleOptions): number {
    const where = 'addTriangle';
    this.particle(a, where);
    this.particle(b, where);
    this.particle(c, where);
    if (a === b || b === c || a === c) throw new InputError(`${where}: the three particles must differ`);
    if (!(p.youngsModulus > 0) || !Number.isFinite(p.youngsModulus)) {
      throw new InputError(`${where}: 'youngsModulus' must be a finite number > 0, got ${p.youngsModulus}`);
    }
    if (!(p.poissonRatio > -1 && p.poissonRatio < 1)) {
      throw new InputError(`${where}: 'poissonRatio' must lie in (-1, 1), got ${p.poissonRatio}`);
    }
    const material = materialId(p.material ?? 'fosssim');
    if (material < 0) throw new InputError(`${where}: 'material' must be one of ${MATERIAL_NAMES.join(', ')}, got ${String(p.material)}`);
    const density = p.density ?? 0;
    if (!(density >= 0) || !Number.isFinite(density)) throw new InputError(`${where}: 'density' must be a finite number >= 0, got ${p.density}`);
    const P = this.c.Particle;
    const rest = p.rest ?? [P.x[a]!, P.y[a]!, P.x[b]!, P.y[b]!, P.x[c]!, P.y[c]!];
    if (rest.length !== 6 || rest.some((r) => !Number.isFinite(r))) {
      throw new InputError(`${where}: 'rest' must be six finite numbers [x1, y1, x2, y2, x3, y3]`);
    }
    const out = new Float64Array(5);
    const area = cstRest(rest[0]!, rest[1]!, rest[2]!, rest[3]!, rest[4]!, rest[5]!, out);
    if (!(area > 0)) throw new InputError(`${where}: the rest triangle has zero area`);
    const eid = this.create(this.c.Triangle);
    const T = this.c.Triangle;
    T.a[eid] = a;
    T.b[eid] = b;
    T.c[eid] = c;
    T.youngsModulus[eid] = p.youngsModulus;
    T.poissonRatio[eid] = p.poissonRatio;
    T.density[eid] = density;
    T.area[eid] = out[0]!;
    T.b00[eid] = out[1]!;
    T.b01[eid] = out[2]!;
    T.b10[eid] = out[3]!;
    T.b11[eid] = out[4]!;
    T.material[eid] = material;
    return eid;
  }

  /** FOSSSim `springforce`: stiffness k, rest length l0, damping b along the spring. */
  addDampedSpring(a: number, b: number, p: { k: number; l0: number; b?: number }): number {
    const where = 'addDampedSpring';
    this.particle(a, where);
    this.particle(b, where);
    if (a === b) throw new InputError(`${where}: the two particles must differ`);
    for (const [key, val] of [['k', p.k], ['l0', p.l0], ['b', p.b ?? 0]] as const) {
      if (!Number.isFinite(val)) throw new InputError(`${where}: '${key}' must be a finite number, got ${val}`);
    }
    if (p.l0 < 0) throw new InputError(`${where}: 'l0' must be >= 0, got ${p.l0}`);
    const eid = this.create(this.c.DampedSpring);
    const D = this.c.DampedSpring;
    D.a[eid] = a;
    D.b[eid] = b;
    D.k[eid] = p.k;
    D.l0[eid] = p.l0;
    D.damping[eid] = p.b ?? 0;
    return eid;
  }

  /** FOSSSim `gravitationalforce` between two particles. */
  addGravitation(a: number, b: number, G: number): number {
    this.particle(a, 'addGravitation');
    this.particle(b, 'addGravitation');
    if (a === b) throw new InputError('addGravitation: the two particles must differ');
    if (!Number.isFinite(G)) throw new InputError(`addGravitation: 'G' must be a finite number, got ${G}`);
    const eid = this.create(this.c.Gravitation);
    const R = this.c.Gravitation;
    R.a[eid] = a;
    R.b[eid] = b;
    R.G[eid] = G;
    return eid;
  }

  /** FOSSSim `vortexforce`: particle a swirls particle b. */
  addVortex(a: number, b: number, kbs: number, kvc: number): number {
    this.particle(a, 'addVortex');
    this.particle(b, 'addVortex');
    if (a === b) throw new InputError('addVortex: the two particles must differ');
    if (!Number.isFinite(kbs) || !Number.isFinite(kvc)) throw new InputError('addVortex: kbs and kvc must be finite numbers');
    const eid = this.create(this.c.Vortex);
    const V = this.c.Vortex;
    V.a[eid] = a;
    V.b[eid] = b;
    V.kbs[eid] = kbs;
    V.kvc[eid] = kvc;
    return eid;
  }

  private uniform(kind: number, fx: number, fy: number, b: number, where: string): number {
    if (![fx, fy, b].every(Number.isFinite)) throw new InputError(`${where}: arguments must be finite numbers`);
    const eid = this.create(this.c.UniformForce);
    const U = this.c.UniformForce;
    U.kind[eid] = kind;
    U.fx[eid] = fx;
    U.fy[eid] = fy;
    U.b[eid] = b;
    return eid;
  }

  /** Gravity: acceleration (gx, gy) on every particle (FOSSSim `simplegravity`). */
  addGravity(gx: number, gy: number): number {
    return this.uniform(UNIFORM_GRAVITY, gx, gy, 0, 'addGravity');
  }

  /** The same force (fx, fy) on every particle (FOSSSim `constantforce`). */
  addConstantForce(fx: number, fy: number): number {
    return this.uniform(UNIFORM_CONSTANT, fx, fy, 0, 'addConstantForce');
  }

  /** Linear drag −b v on every particle (FOSSSim `dragdamping`). */
  addDrag(b: number): number {
    return this.uniform(UNIFORM_DRAG, 0, 0, b, 'addDrag');
  }

  /** A drawn edge between two particles (contact uses it later). */
  addEdge(a: number, b: number, radius = DEFAULT_EDGE_RADIUS): number {
    this.particle(a, 'addEdge');
    this.particle(b, 'addEdge');
    const eid = this.create(this.c.Edge);
    const E = this.c.Edge;
    E.a[eid] = a;
    E.b[eid] = b;
    E.radius[eid] = radius;
    return eid;
  }

  /** A static half-plane through (px, py) with normal (nx, ny) pointing into free space. */
  addHalfplane(px: number, py: number, nx: number, ny: number): number {
    if (![px, py, nx, ny].every(Number.isFinite)) throw new InputError('addHalfplane: arguments must be finite numbers');
    const len = Math.sqrt(nx * nx + ny * ny);
    if (!(len > 0)) throw new InputError('addHalfplane: the normal must not be zero');
    const eid = this.create(this.c.Halfplane);
    const H = this.c.Halfplane;
    H.px[eid] = px;
    H.py[eid] = py;
    H.nx[eid] = nx / len;
    H.ny[eid] = ny / len;
    return eid;
  }

  // ---- contact bodies and colliders (src/collision) ------------------------------

  /** A new body id: give it to the particles of one soft body (addParticle's `body`) so they collide with other bodies. */
  createBody(): number {
    return this.nextBody++;
  }

  private collider(kind: number, px: number, py: number, radius: number, opts: ColliderOptions, where: string): number {
    for (const [k, val] of [['friction', opts.friction], ['cor', opts.cor]] as const) {
      if (val !== undefined && !(val >= 0 && Number.isFinite(val))) throw new InputError(`${where}: '${k}' must be a finite number >= 0, got ${val}`);
    }
    const filter = parseFilter(where, { ...opts.collisionFilter, sensor: opts.sensor });
    const oneWay = parseOneWay(where, opts.oneWay);
    const eid = this.create(this.c.Collider);
    writeColliderFilter(this.c, eid, filter, oneWay);
    const K = this.c.Collider;
    K.kind[eid] = kind;
    K.px[eid] = px;
    K.py[eid] = py;
    K.angle[eid] = K.vx[eid] = K.vy[eid] = K.omega[eid] = 0;
    K.radius[eid] = radius;
    K.friction[eid] = opts.friction ?? -1;
    K.cor[eid] = opts.cor ?? -1;
    return eid;
  }

  /** A solid circle collider (pivot: its centre). */
  addCircleCollider(cx: number, cy: number, radius: number, opts: ColliderOptions = {}): number {
    if (![cx, cy, radius].every(Number.isFinite) || !(radius > 0)) throw new InputError('addCircleCollider: centre must be finite and radius > 0');
    return this.collider(COLLIDER_CIRCLE, cx, cy, radius, opts, 'addCircleCollider');
  }

  /** A two-sided segment collider of zero thickness (pivot: its midpoint). */
  addSegmentCollider(x1: number, y1: number, x2: number, y2: number, opts: ColliderOptions = {}): number {
    if (![x1, y1, x2, y2].every(Number.isFinite)) throw new InputError('addSegmentCollider: arguments must be finite numbers');
    if (x1 === x2 && y1 === y2) throw new InputError('addSegmentCollider: the two ends must differ');
    const mx = (x1 + x2) / 2, my = (y1 + y2) / 2;
    const eid = this.collider(COLLIDER_SEGMENT, mx, my, 0, opts, 'addSegmentCollider');
    const K = this.c.Collider;
    K.x1[eid] = x1 - mx;
    K.y1[eid] = y1 - my;
    K.x2[eid] = x2 - mx;
    K.y2[eid] = y2 - my;
    return eid;
  }

  /** A solid closed polygon collider from world points x0 y0 x1 y1 … (either winding; pivot: the vertex mean). */
  addPolygonCollider(points: ArrayLike<number>, opts: ColliderOptions = {}): number {
    const nv = points.length / 2;
    if (points.length % 2 !== 0 || nv < 3) throw new InputError('addPolygonCollider: need at least three x y pairs');
    let mx = 0, my = 0, area2 = 0;
    for (let i = 0; i < nv; i++) {
      const x = points[2 * i]!, y = points[2 * i + 1]!;
      if (!Number.isFinite(x) || !Number.isFinite(y)) throw new InputError('addPolygonCollider: points must be finite numbers');
      mx += x / nv;
      my += y / nv;
      const j = (i + 1) % nv;
      area2 += x * points[2 * j + 1]! - points[2 * j]! * y;
    }
    if (area2 === 0) throw new InputError('addPolygonCollider: the polygon has zero area');
    const local = new Float64Array(2 * nv);
    for (let i = 0; i < nv; i++) {
      const src = area2 > 0 ? i : nv - 1 - i; // stored counter-clockwise
      local[2 * i] = points[2 * src]! - mx;
      local[2 * i + 1] = points[2 * src + 1]! - my;
    }
    const eid = this.collider(COLLIDER_POLYGON, mx, my, 0, opts, 'addPolygonCollider');
    this.c.Collider.polyStart[eid] = this.contacts.addPolygonVertices(local);
    this.c.Collider.polyCount[eid] = nv;
    return eid;
  }

  private colliderId(eid: number, where: string): number {
    if (!this.has(eid, this.c.Collider)) throw new InputError(`${where}: ${eid} is not a collider of this world`);
    return eid;
  }

  /** Teleport a collider's pivot to (x, y) and its rotation to angle (rad); its velocity is kept. */
  /** Change a collider's collision filter, sensor flag and one-way direction (from the next step; omitted: the default). */
  setColliderFilter(eid: number, f: FilterOptions & { oneWay?: OneWay } = {}): void {
    this.colliderId(eid, 'setColliderFilter');
    writeColliderFilter(this.c, eid, parseFilter('setColliderFilter', f), parseOneWay('setColliderFilter', f.oneWay));
    this.pipeline.sleep.wakeEverything(this.ctx); // what the collider touches may change: sleeping islands wake
  }

  /** Change a particle's collision filter and sensor flag (from the next step; omitted: the default). */
  setParticleFilter(eid: number, f: FilterOptions = {}): void {
    this.particle(eid, 'setParticleFilter');
    writeParticleFilter(this.c, eid, parseFilter('setParticleFilter', f));
    this.pipeline.sleep.wakeParticle(this.ctx, eid); // its island wakes (src/systems/sleep.ts)
  }

  /**
   * Give every particle of body `body` (an id from createBody()) this collision filter and sensor flag
   * (from the next step). Particles added to the body later keep their own (addParticle's `filter`).
   */
  setBodyFilter(body: number, f: FilterOptions = {}): void {
    if (!(Number.isInteger(body) && body > 0 && body < this.nextBody)) throw new InputError(`setBodyFilter: 'body' must be an id from createBody(), got ${body}`);
    const v = parseFilter('setBodyFilter', f), P = this.c.Particle;
    for (const e of this.ctx.lists.particles) if (P.body[e] === body) writeParticleFilter(this.c, e, v);
    this.pipeline.ensureTopology();
    this.pipeline.sleep.wakeBody(this.ctx, body); // its island wakes (src/systems/sleep.ts)
  }

  setColliderPose(eid: number, x: number, y: number, angle = this.c.Collider.angle[eid]!): void {
    this.colliderId(eid, 'setColliderPose');
    if (![x, y, angle].every(Number.isFinite)) throw new InputError('setColliderPose: arguments must be finite numbers');
    const K = this.c.Collider;
    K.px[eid] = x;
    K.py[eid] = y;
    K.angle[eid] = angle;
  }

  /** Kinematic velocity (m/s, rad/s): the collider moves by it every step and pushes what it touches. */
  setColliderVelocity(eid: number, vx: number, vy: number, omega = 0): void {
    this.colliderId(eid, 'setColliderVelocity');
    if (![vx, vy, omega].every(Number.isFinite)) throw new InputError('setColliderVelocity: arguments must be finite numbers');
    const K = this.c.Collider;
    K.vx[eid] = vx;
    K.vy[eid] = vy;
    K.omega[eid] = omega;
  }

  /** Kinematic target: set the velocity so that the next step ends with the collider at (x, y, angle). */
  moveColliderTo(eid: number, x: number, y: number, angle = this.c.Collider.angle[eid]!): void {
    this.colliderId(eid, 'moveColliderTo');
    const K = this.c.Collider;
    this.setColliderVelocity(eid, (x - K.px[eid]!) / this.dt, (y - K.py[eid]!) / this.dt, (angle - K.angle[eid]!) / this.dt);
  }

  /**
   * Remove an engine entity; removing a particle removes the elements, forces and edges that use it.
   * The same as bitECS's removeEntity(world.ecs, eid) (src/systems/ecs.ts), which a game may call
   * directly; this one checks that `eid` is an engine entity of this world.
   */
  removeEntity(eid: number): void {
    if (!STORE_LISTS.some(([name]) => this.has(eid, this.c[name]))) throw new InputError(`removeEntity: ${eid} is not an entity of this world`);
    removeEntity(this.ecs, eid);
  }

  /**
   * Pin (`fixed`) or free a particle after creation, from the next step on (body control,
   * src/systems/bodies.ts). A pinned particle's velocity is zeroed. Today this marks the topology dirty
   * (its `fixed` flags are built with it); the component stays the truth.
   */
  setParticleFixed(eid: number, fixed: boolean): void {
    this.particle(eid, 'setParticleFixed');
    const P = this.c.Particle;
    if (fixed) P.vx[eid] = P.vy[eid] = 0;
    if ((P.fixed[eid] === 1) === fixed) return;
    P.fixed[eid] = fixed ? 1 : 0;
    this.ctx.topologyDirty = true;
  }

  /**
   * Anchor particle `eid` to target (px, py) with stiffness k (N/m): E = ½ k ‖x − p‖².
   * Returns the anchor slot (move it with `anchors.setTarget(slot, px, py)`), or −1
   * when the preallocated capacity is full. Never rebuilds the topology.
   */
  setAnchor(eid: number, px: number, py: number, k: number): number {
    this.particle(eid, 'setAnchor');
    const t = this.topology();
    let node = -1;
    for (let i = 0; i < t.n; i++) if (t.particleEids[i] === eid) { node = i; break; }
    return this.anchors.add(eid, node, px, py, k);
  }

  /** Release all anchors. */
  clearAnchors(): void {
    this.anchors.clear();
  }

  // ---- sleeping (src/systems/sleep.ts) ----------------------------------------------------------

  /** Sleeping on or off (game mode only; FOSSSim-exact worlds never sleep). Off wakes every island at the next step. */
  get sleeping(): boolean {
    return this.pipeline.sleep.enabled;
  }
  set sleeping(on: boolean) {
    if (typeof on !== 'boolean') throw new InputError(`sleeping must be a boolean, got ${String(on)}`);
    this.pipeline.sleep.enabled = on;
  }

  /** Speed (m/s) below which every free particle of an island must stay for `sleepTime` seconds before it sleeps (default 0.01). */
  get sleepSpeed(): number {
    return this.pipeline.sleep.speed;
  }
  set sleepSpeed(v: number) {
    if (!(v >= 0) || !Number.isFinite(v)) throw new InputError(`sleepSpeed must be a finite number >= 0 (m/s), got ${v}`);
    this.pipeline.sleep.speed = v;
  }

  /** Seconds an island must stay still before it sleeps (default 0.5). */
  get sleepTime(): number {
    return this.pipeline.sleep.time;
  }
  set sleepTime(v: number) {
    if (!(v >= 0) || !Number.isFinite(v)) throw new InputError(`sleepTime must be a finite number >= 0 (s), got ${v}`);
    this.pipeline.sleep.time = v;
  }

  private bodyId(body: number, where: string): number {
    if (!(Number.isInteger(body) && body > 0 && body < this.nextBody)) throw new InputError(`${where}: expected a body id from createBody(), got ${body}`);
    return body;
  }

  /** Whether every particle of `body` (a createBody() id) sleeps; false for a body without particles. */
  isSleeping(body: number): boolean {
    this.bodyId(body, 'isSleeping');
    this.pipeline.ensureTopology();
    return this.pipeline.sleep.isSleeping(this.ctx, body);
  }

  /** Whether a particle entity sleeps. */
  isParticleSleeping(eid: number): boolean {
    this.particle(eid, 'isParticleSleeping');
    this.pipeline.ensureTopology();
    return this.pipeline.sleep.isParticleSleeping(this.ctx, eid);
  }

  /** Wake `body` and its island (the bodies it rests on or under), and restart its still time; returns whether it slept. */
  wake(body: number): boolean {
    this.bodyId(body, 'wake');
    this.pipeline.ensureTopology();
    return this.pipeline.sleep.wakeBody(this.ctx, body);
  }

  /** Let `body` sleep (default) or keep it awake (false wakes it now). */
  setAllowSleep(body: number, allow: boolean): void {
    this.bodyId(body, 'setAllowSleep');
    if (typeof allow !== 'boolean') throw new InputError(`setAllowSleep: allow must be a boolean, got ${String(allow)}`);
    this.pipeline.ensureTopology();
    this.pipeline.sleep.setAllowSleep(this.ctx, body, allow);
  }

  /** Whether `body` may sleep. */
  allowsSleep(body: number): boolean {
    return this.pipeline.sleep.allowsSleep(this.bodyId(body, 'allowsSleep'));
  }

  // ---- stepping -------------------------------------------------------------

  /** The dense solver view; rebuilt after entities are added or removed. */
  topology(): Topology {
    this.pipeline.ensureTopology();
    return this.ctx.topology;
  }

  forceModel(): ForceModel {
    this.pipeline.ensureTopology();
    return this.pipeline.forceModel;
  }

  workspace(): Workspace {
    this.pipeline.ensureTopology();
    return this.ctx.workspace;
  }

  /** The game-mode Newton solver of the current topology (its tuning fields: pcgMinDofs, profile, …). */
  newtonSolver(): NewtonSolver {
    this.pipeline.ensureTopology();
    return newtonSolverOf(this.ctx);
  }

  /** Statistics of the last step (Newton iterations, linear-solver path, per-stage times). */
  get lastStats(): StepStats {
    return this.ctx.stats;
  }

  /**
   * Run `fn(ctx)` at a named point of every fixed step, after (default) or before the stage's own
   * work (src/systems/pipeline.ts: STAGES). Systems at one point run in the order they were added.
   */
  addSystem(stage: StageName, fn: SystemFn, where: SystemPlacement = {}): void {
    if (typeof fn !== 'function') throw new InputError('addSystem: the system must be a function');
    this.pipeline.addSystem(stage, fn, where);
  }

  /** Remove a system added with addSystem; returns whether it was there. */
  removeSystem(fn: SystemFn): boolean {
    return this.pipeline.removeSystem(fn);
  }

  // ---- snapshots and the state hash (src/systems/snapshot.ts, docs/replay.md) -------------------

  /**
   * The complete state of the world as bytes: restore() (here or in another world, another process,
   * another JavaScript engine) continues bit for bit as this world would.
   */
  snapshot(): Uint8Array {
    return writeSnapshot(this.pipeline, this.ecs, { nextBody: this.nextBody, engineVersion: ENGINE_VERSION });
  }

  /**
   * Make this world hold a snapshot's state (its engine entities are replaced; user systems stay).
   * Bad bytes (truncated, another format version, a corrupted checksum) throw an InputError and
   * leave the world as it was.
   */
  restore(bytes: Uint8Array): void {
    this.applySnapshotData(readSnapshot(bytes, this.c));
  }

  private applySnapshotData(data: SnapshotData): void {
    applySnapshot(this.pipeline, this.ecs, data, (on) => {
      this.bridge.suspended = on;
    });
    this.nextBody = data.nextBody;
  }

  /** The snapshot's payload without its header (replays diff it from step to step). */
  snapshotPayload(): Uint8Array {
    return snapshotPayload(this.pipeline, this.ecs, { nextBody: this.nextBody, engineVersion: ENGINE_VERSION });
  }

  /** A new world holding a snapshot's state. */
  static fromSnapshot(bytes: Uint8Array): PhysicsWorld {
    const data = readSnapshot(bytes, createComponents()); // parsed and checked once: no world is made from bad bytes
    const w = new PhysicsWorld({ gravity: null });
    w.applySnapshotData(data);
    return w;
  }

  /** 64-bit hash (16 hex digits) of the exact bits of everything that determines the future. */
  stateHash(): string {
    return stateHash(this.pipeline, this.ecs, { nextBody: this.nextBody, engineVersion: ENGINE_VERSION });
  }

  /** Hashes of the state's parts (positions, velocities, other components, contact): which differs first. */
  stateHashes(): Record<string, string> {
    return stateHashes(this.pipeline);
  }

  /**
   * Warm this world's code paths up before the game's first step (issue 15, "cold start"): the
   * engine's process-wide JIT warm-up (src/warmup.ts) if it has not run, then `steps` steps of this
   * very world — its contact, materials, colliders and anchors — with user systems muted, after
   * which the world is put back exactly as it was (snapshot and restore: entity ids, state, step
   * counter and StepStats counters; the continuation is bit-identical to a world never warmed).
   * Call it at scene load, after building the scene; `onProgress(fraction)` feeds a loading bar.
   */
  warmUp(options: WarmUpOptions = {}): WarmUpReport {
    const steps = options.steps ?? 60;
    if (!Number.isInteger(steps) || steps < 0 || steps > MAX_WARMUP_STEPS) {
      throw new InputError(`warmUp: 'steps' must be a whole number in [0, ${MAX_WARMUP_STEPS}], got ${String(steps)}`);
    }
    const onProgress = options.onProgress;
    if (onProgress !== undefined && typeof onProgress !== 'function') throw new InputError('warmUp: \'onProgress\' must be a function');
    const t0 = performance.now();
    const engine = this.ctx.newton !== 'fosssim' && !engineWarmedUp();
    // the engine's warm-up is about half the work: it reports the first half of the progress
    if (engine) warmUpEngine(onProgress ? (f) => onProgress(0.5 * f) : undefined);
    const engineMs = performance.now() - t0;
    const bytes = this.snapshot();
    const stats = this.ctx.stats, counters = { ...stats, stageMs: stats.stageMs.slice() };
    const pipeline = this.pipeline;
    pipeline.userSystemsMuted = true;
    try {
      for (let s = 0; s < steps; s++) {
        pipeline.step();
        if (onProgress) onProgress((engine ? 0.5 : 0) + ((engine ? 0.5 : 1) * (s + 1)) / steps);
      }
    } finally {
      pipeline.userSystemsMuted = false;
      this.restore(bytes);
      Object.assign(stats, counters);
    }
    if (onProgress && steps === 0) onProgress(1);
    return { ms: performance.now() - t0, engineMs, steps };
  }

  /** Advance one fixed step of dt. */
  step(): void {
    if (this.ctx.newton !== 'fosssim' && !engineWarmedUp()) warmUpEngine(); // once per process (src/warmup.ts)
    this.pipeline.step();
  }

  // ---- reading state ----------------------------------------------------------

  particleCount(): number {
    return this.lists.particles.length;
  }

  /** Dense index (creation order) of a particle entity. */
  particleIndex(eid: number): number {
    return this.lists.particles.indexOf(eid);
  }

  /** Positions in creation order: x0, y0, x1, y1, … (allocation-free when `out` is given: renderers call it every frame). */
  readPositions(out: Float64Array = new Float64Array(2 * this.particleCount())): Float64Array {
    const P = this.c.Particle;
    const ids = this.lists.particles;
    for (let i = 0; i < ids.length; i++) {
      const e = ids[i]!;
      out[2 * i] = P.x[e]!;
      out[2 * i + 1] = P.y[e]!;
    }
    return out;
  }

  /** Velocities in creation order: vx0, vy0, vx1, vy1, … */
  readVelocities(out: Float64Array = new Float64Array(2 * this.particleCount())): Float64Array {
    const P = this.c.Particle;
    const ids = this.lists.particles;
    for (let i = 0; i < ids.length; i++) {
      const e = ids[i]!;
      out[2 * i] = P.vx[e]!;
      out[2 * i + 1] = P.vy[e]!;
    }
    return out;
  }
}

/**
 * JIT warm-up (src/warmup.ts): steps two tiny private worlds so V8 compiles the solver's kernels
 * before a game's own bodies run; once per process, a few tens of ms. The first game-mode step()
 * calls it; a game may call it earlier, during loading.
 */
export function warmUpEngine(onProgress?: (fraction: number) => void): void {
  runWarmUp(() => new PhysicsWorld({ dt: 1 / 60, integrator: 'implicit-euler' }), onProgress);
}

/** Most steps PhysicsWorld.warmUp runs (10 s at 60 Hz). */
export const MAX_WARMUP_STEPS = 600;

/** Options of PhysicsWorld.warmUp. */
export interface WarmUpOptions {
  /** Steps of the world itself to run and undo (default 60: one second, long enough for first contacts in most scenes). */
  steps?: number;
  /** Called with the fraction done (0..1] as the warm-up proceeds (a loading bar). */
  onProgress?: (fraction: number) => void;
}

/** What PhysicsWorld.warmUp did: its total and engine-part milliseconds and the world steps run. */
export interface WarmUpReport {
  ms: number;
  engineMs: number;
  steps: number;
}
