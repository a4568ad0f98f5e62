/**
 * PhysicsWorld: the engine's front door. Bodies are bitECS entities with
 * structure-of-arrays components; `step()` runs the ordered fixed-step systems.
 * SI units throughout (m, kg, s); y points up.
 */
import { createWorld, entityExists, hasComponent, removeEntity, type World } from 'bitecs';
import { createComponents, UNIFORM_CONSTANT, UNIFORM_DRAG, UNIFORM_GRAVITY, type Components } from './components';
import { cstRest, materialId, MATERIAL_NAMES, type MaterialName } from './elements';
import { InputError } from './errors';
import { boolArg, numArg, numArrayArg, objArg, oneOfArg, optNumArg, outArg, RANGES, shown } from './ranges';
import { polygonProblem } from './mesh/simple-polygon';
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
import { engineWarmedUp, runWarmUp, warmUpSteps } from './warmup';
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

/**
 * Resolve WorldOptions.newton to full settings, validated with the loader's ranges (src/ranges.ts:
 * `maxiters` and `tolerance` of `<integrator>` are the same values).
 */
export function resolveNewton(opt: Partial<NewtonSettings> | 'fosssim' | undefined): NewtonSettings | 'fosssim' {
  if (opt === 'fosssim') return 'fosssim';
  const o = objArg('PhysicsWorld', 'newton', opt, true);
  const s: NewtonSettings = { ...GAME_NEWTON_DEFAULTS, ...o };
  numArg('newton', 'maxIters', s.maxIters, RANGES.newtonIters);
  numArg('newton', 'tolerance', s.tolerance, RANGES.tolerance);
  boolArg('newton', 'lineSearch', s.lineSearch, true);
  oneOfArg('newton', 'projection', s.projection, ['psd', 'none']);
  if (!Number.isInteger(s.maxStepIters) || s.maxStepIters < 0 || s.maxStepIters > 1000) {
    throw new InputError(`newton: 'maxStepIters': expected a whole number in [0, 1000] (0: no budget), got ${String(s.maxStepIters)}`);
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

/** A collider's checked options, as written into its components. */
interface ColliderMaterial {
  friction: number;
  cor: number;
  filter: ReturnType<typeof parseFilter>;
  oneWay: ReturnType<typeof parseOneWay>;
}

const INTEGRATORS: readonly IntegratorType[] = ['explicit-euler', 'symplectic-euler', 'linearized-implicit-euler', 'implicit-euler'];
const MASS_MATRICES = ['lumped', 'consistent'] as const;

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
    this.ctx.dt = numArg('PhysicsWorld', 'dt', dt, RANGES.dt);
  }
  /** Time integrator (WorldOptions.integrator). */
  get integrator(): IntegratorType {
    return this.ctx.integrator;
  }
  set integrator(i: IntegratorType) {
    oneOfArg('PhysicsWorld', 'integrator', i, INTEGRATORS);
    this.vortexMode('PhysicsWorld: \'integrator\'', i, this.ctx.newton, this.ctx.lists.vortices.length);
    this.ctx.integrator = i;
  }
  /** Game-mode Newton settings, or 'fosssim' (see WorldOptions.newton). */
  get newton(): NewtonSettings | 'fosssim' {
    return this.ctx.newton;
  }
  set newton(n: NewtonSettings | 'fosssim') {
    const s = resolveNewton(n);
    this.vortexMode('PhysicsWorld: \'newton\'', this.ctx.integrator, s, this.ctx.lists.vortices.length);
    this.ctx.newton = s;
  }

  /**
   * Game-mode (implicit) Newton minimizes an energy: a vortex force has none, so that combination
   * is refused when it is made (adding a vortex, or switching integrator or Newton settings) rather
   * than by the next step.
   */
  private vortexMode(call: string, integrator: IntegratorType, newton: NewtonSettings | 'fosssim', vortices: number): void {
    if (vortices > 0 && newton !== 'fosssim' && (integrator === 'implicit-euler' || integrator === 'linearized-implicit-euler')) {
      throw new InputError(
        `${call}: vortex forces need FOSSSim semantics with the implicit integrators (newton: 'fosssim') or an explicit ` +
          'integrator: game-mode Newton minimizes an energy, and a vortex force has no potential or dissipation function',
      );
    }
  }
  /** Triangle mass matrix (WorldOptions.massMatrix); changing it rebuilds the topology on next use. */
  get massMatrix(): 'lumped' | 'consistent' {
    return this.ctx.massMatrix;
  }
  set massMatrix(m: 'lumped' | 'consistent') {
    oneOfArg('PhysicsWorld', 'massMatrix', m, MASS_MATRICES);
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
    this.pipeline.profile = boolArg('PhysicsWorld', 'profile', on, false);
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
    opts = objArg('PhysicsWorld', 'options', opts, true);
    const dt = optNumArg('PhysicsWorld', 'dt', opts.dt, RANGES.dt, 1 / 60);
    const integrator = opts.integrator === undefined ? 'implicit-euler' : oneOfArg('PhysicsWorld', 'integrator', opts.integrator, INTEGRATORS);
    const massMatrix = opts.massMatrix === undefined ? 'lumped' : oneOfArg('PhysicsWorld', 'massMatrix', opts.massMatrix, MASS_MATRICES);
    const g = opts.gravity === undefined ? [0, -9.81] : opts.gravity;
    if (g !== null) numArrayArg('PhysicsWorld', 'gravity', g, RANGES.force, { length: 2 });
    this.ecs = createWorld();
    this.c = createComponents();
    this.pipeline = new Pipeline({
      dt, integrator, massMatrix, newton: resolveNewton(opts.newton), c: this.c, lists: createEntityLists(),
    });
    this.ctx = this.pipeline.ctx;
    this.bridge = new EcsBridge(this.ecs, this.ctx);
    if (g) this.addGravity(g[0]!, g[1]!);
    if (opts.sleeping !== undefined) this.sleeping = boolArg('PhysicsWorld', 'sleeping', opts.sleeping, false);
  }

  // ---- creation -------------------------------------------------------------

  /** addEntity + addComponent through the world's observers (src/systems/ecs.ts); the store may have grown. */
  private create(store: object): number {
    return this.bridge.create(store);
  }

  /**
   * Argument checks (src/ranges.ts, shared with the XML loader): every add… and set… call validates all
   * its arguments before it creates or changes anything, so a refused call leaves the world as it was.
   */
  private particle(eid: number, call: string, arg: string): number {
    if (!this.has(eid, this.c.Particle)) throw new InputError(`${call}: '${arg}': expected a particle of this world, got ${this.describe(eid)}`);
    return eid;
  }

  /** What `eid` is, for a message: a number that is no live entity says so. */
  private describe(eid: unknown): string {
    if (typeof eid !== 'number' || !Number.isInteger(eid) || eid <= 0) return shown(eid);
    if (!entityExists(this.ecs, eid)) return `${eid} (no live entity: never created, or removed)`;
    const kind = STORE_LISTS.find(([name]) => hasComponent(this.ecs, eid, this.c[name]));
    return kind ? `${eid} (a ${kind[0]} entity)` : `${eid} (an entity with no engine component)`;
  }

  /** Distinct particles: `args` names them as the call's parameters (a, b, c). */
  private particles(call: string, ids: readonly number[]): void {
    const names = ['a', 'b', 'c'];
    ids.forEach((id, k) => this.particle(id, call, names[k]!));
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++) {
        if (ids[i] === ids[j]) throw new InputError(`${call}: '${names[i]}' and '${names[j]}': expected two different particles, got ${ids[i]} twice`);
      }
    }
  }

  private has(eid: number, store: object): boolean {
    return Number.isInteger(eid) && eid > 0 && entityExists(this.ecs, eid) && hasComponent(this.ecs, eid, store);
  }

  addParticle(p: ParticleOptions): number {
    const call = 'addParticle';
    p = objArg(call, 'options', p);
    const x = numArg(call, 'x', p.x, RANGES.coordinate);
    const y = numArg(call, 'y', p.y, RANGES.coordinate);
    const vx = optNumArg(call, 'vx', p.vx, RANGES.velocity, 0);
    const vy = optNumArg(call, 'vy', p.vy, RANGES.velocity, 0);
    const m = numArg(call, 'm', p.m, RANGES.mass);
    const radius = optNumArg(call, 'radius', p.radius, RANGES.radius, DEFAULT_PARTICLE_RADIUS);
    const fixed = boolArg(call, 'fixed', p.fixed, false);
    const body = p.body ?? 0;
    if (!(Number.isInteger(body) && body >= 0 && body < this.nextBody)) {
      throw new InputError(`${call}: 'body': expected 0 or an id from createBody() (< ${this.nextBody}), got ${shown(p.body)}`);
    }
    const filter = parseFilter(call, p.filter);
    const eid = this.create(this.c.Particle);
    if (p.filter !== undefined) writeParticleFilter(this.c, eid, filter);
    const Q = this.c.Particle; // may have grown
    Q.x[eid] = x;
    Q.y[eid] = y;
    Q.vx[eid] = vx;
    Q.vy[eid] = vy;
    Q.m[eid] = m;
    Q.radius[eid] = radius;
    Q.fixed[eid] = fixed ? 1 : 0;
    Q.body[eid] = body;
    return eid;
  }

  /** Elastic-body spring W = α/(2 l0)(l − l0)²; l0 defaults to the current length. */
  addSpring(a: number, b: number, p: { alpha: number; l0?: number }): number {
    const call = 'addSpring';
    this.particles(call, [a, b]);
    p = objArg(call, 'options', p);
    const alpha = numArg(call, 'alpha', p.alpha, RANGES.coefficient);
    const l0 = p.l0 !== undefined ? numArg(call, 'l0', p.l0, RANGES.length) : restLength(this.c, a, b);
    if (p.l0 === undefined) numArg(call, 'l0 (default: the current distance of a and b)', l0, RANGES.length);
    const eid = this.create(this.c.ElasticSpring);
    const S = this.c.ElasticSpring;
    S.a[eid] = a;
    S.b[eid] = b;
    S.alpha[eid] = alpha;
    S.l0[eid] = l0;
    return eid;
  }

  /** Bending hinge at b; θ0 defaults to the current angle; rest edge lengths from current positions. */
  addHinge(a: number, b: number, c: number, p: { alpha: number; theta0?: number }): number {
    const call = 'addHinge';
    this.particles(call, [a, b, c]);
    p = objArg(call, 'options', p);
    const alpha = numArg(call, 'alpha', p.alpha, RANGES.coefficient);
    const theta0Arg = optNumArg(call, 'theta0', p.theta0, RANGES.angle, 0);
    const rest = new Float64Array(2);
    hingeRest(this.c, a, b, c, rest);
    const ebSum = rest[0]!;
    if (!(ebSum > 0) || !Number.isFinite(ebSum)) throw new InputError(`${call}: the rest edges a–b and b–c have zero total length (the three particles coincide)`);
    const theta0 = p.theta0 !== undefined ? theta0Arg : rest[1]!;
    const eid = this.create(this.c.Hinge);
    const H = this.c.Hinge;
    H.a[eid] = a;
    H.b[eid] = b;
    H.c[eid] = c;
    H.alpha[eid] = alpha;
    H.theta0[eid] = theta0;
    H.ebSum[eid] = ebSum;
    return eid;
  }

  /** Constant-strain triangle (FOSSSim CST material). */
  addTriangle(a: number, b: number, c: number, p: TriangleOptions): number {
    const call = 'addTriangle';
    this.particles(call, [a, b, c]);
    p = objArg(call, 'options', p);
    const E = numArg(call, 'youngsModulus', p.youngsModulus, RANGES.positiveCoefficient);
    const nu = numArg(call, 'poissonRatio', p.poissonRatio, RANGES.poisson);
    const material = materialId(p.material === undefined ? 'fosssim' : oneOfArg(call, 'material', p.material, MATERIAL_NAMES));
    const density = optNumArg(call, 'density', p.density, RANGES.coefficient, 0);
    const P = this.c.Particle;
    const rest = p.rest === undefined
      ? [P.x[a]!, P.y[a]!, P.x[b]!, P.y[b]!, P.x[c]!, P.y[c]!]
      : numArrayArg(call, 'rest', p.rest, RANGES.coordinate, { length: 6 });
    const out = new Float64Array(5);
    const area = cstRest(rest[0]!, rest[1]!, rest[2]!, rest[3]!, rest[4]!, rest[5]!, out);
    if (!(area > 0) || !Number.isFinite(area)) throw new InputError(`${call}: 'rest': expected a triangle of non-zero area, got ${Array.from(rest).join(', ')}`);
    const eid = this.create(this.c.Triangle);
    const T = this.c.Triangle;
    T.a[eid] = a;
    T.b[eid] = b;
    T.c[eid] = c;
    T.youngsModulus[eid] = E;
    T.poissonRatio[eid] = nu;
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
    const call = 'addDampedSpring';
    this.particles(call, [a, b]);
    p = objArg(call, 'options', p);
    const k = numArg(call, 'k', p.k, RANGES.coefficient);
    const l0 = numArg(call, 'l0', p.l0, RANGES.restLength);
    const damping = optNumArg(call, 'b', p.b, RANGES.coefficient, 0);
    const eid = this.create(this.c.DampedSpring);
    const D = this.c.DampedSpring;
    D.a[eid] = a;
    D.b[eid] = b;
    D.k[eid] = k;
    D.l0[eid] = l0;
    D.damping[eid] = damping;
    return eid;
  }

  /** FOSSSim `gravitationalforce` between two particles. */
  addGravitation(a: number, b: number, G: number): number {
    this.particles('addGravitation', [a, b]);
    numArg('addGravitation', 'G', G, RANGES.coefficient);
    const eid = this.create(this.c.Gravitation);
    const R = this.c.Gravitation;
    R.a[eid] = a;
    R.b[eid] = b;
    R.G[eid] = G;
    return eid;
  }

  /** FOSSSim `vortexforce`: particle a swirls particle b. */
  addVortex(a: number, b: number, kbs: number, kvc: number): number {
    this.particles('addVortex', [a, b]);
    numArg('addVortex', 'kbs', kbs, RANGES.signedCoefficient);
    numArg('addVortex', 'kvc', kvc, RANGES.signedCoefficient);
    this.vortexMode('addVortex', this.ctx.integrator, this.ctx.newton, 1);
    const eid = this.create(this.c.Vortex);
    const V = this.c.Vortex;
    V.a[eid] = a;
    V.b[eid] = b;
    V.kbs[eid] = kbs;
    V.kvc[eid] = kvc;
    return eid;
  }

  private uniform(kind: number, fx: number, fy: number, b: number): number {
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
    numArg('addGravity', 'gx', gx, RANGES.force);
    numArg('addGravity', 'gy', gy, RANGES.force);
    return this.uniform(UNIFORM_GRAVITY, gx, gy, 0);
  }

  /** The same force (fx, fy) on every particle (FOSSSim `constantforce`). */
  addConstantForce(fx: number, fy: number): number {
    numArg('addConstantForce', 'fx', fx, RANGES.force);
    numArg('addConstantForce', 'fy', fy, RANGES.force);
    return this.uniform(UNIFORM_CONSTANT, fx, fy, 0);
  }

  /** Linear drag −b v on every particle (FOSSSim `dragdamping`); b >= 0 (a negative b pumps energy in). */
  addDrag(b: number): number {
    numArg('addDrag', 'b', b, RANGES.coefficient);
    return this.uniform(UNIFORM_DRAG, 0, 0, b);
  }

  /** A drawn edge between two different particles (contact uses it later). */
  addEdge(a: number, b: number, radius = DEFAULT_EDGE_RADIUS): number {
    this.particles('addEdge', [a, b]);
    numArg('addEdge', 'radius', radius, RANGES.radius);
    const eid = this.create(this.c.Edge);
    const E = this.c.Edge;
    E.a[eid] = a;
    E.b[eid] = b;
    E.radius[eid] = radius;
    return eid;
  }

  /** A static half-plane through (px, py) with normal (nx, ny) pointing into free space. */
  addHalfplane(px: number, py: number, nx: number, ny: number): number {
    const call = 'addHalfplane';
    numArg(call, 'px', px, RANGES.coordinate);
    numArg(call, 'py', py, RANGES.coordinate);
    numArg(call, 'nx', nx, RANGES.coordinate);
    numArg(call, 'ny', ny, RANGES.coordinate);
    const len = Math.sqrt(nx * nx + ny * ny);
    if (!(len > 0)) throw new InputError(`${call}: 'nx', 'ny': expected a non-zero normal, got (${nx}, ${ny})`);
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

  /** A collider's options (material, filter, one-way), checked before anything is created. */
  private colliderOptions(opts: ColliderOptions | undefined, call: string): ColliderMaterial {
    const o = objArg(call, 'options', opts, true);
    return {
      friction: optNumArg(call, 'friction', o.friction, RANGES.friction, -1),
      cor: optNumArg(call, 'cor', o.cor, RANGES.cor, -1),
      filter: parseFilter(call, { ...o.collisionFilter, sensor: o.sensor }),
      oneWay: parseOneWay(call, o.oneWay),
    };
  }

  private collider(kind: number, px: number, py: number, radius: number, mat: ColliderMaterial): number {
    const eid = this.create(this.c.Collider);
    writeColliderFilter(this.c, eid, mat.filter, mat.oneWay);
    const K = this.c.Collider;
    K.kind[eid] = kind;
    K.px[eid] = px;
    K.py[eid] = py;
    K.angle[eid] = K.vx[eid] = K.vy[eid] = K.omega[eid] = 0;
    K.radius[eid] = radius;
    K.friction[eid] = mat.friction;
    K.cor[eid] = mat.cor;
    return eid;
  }

  /** A solid circle collider (pivot: its centre). */
  addCircleCollider(cx: number, cy: number, radius: number, opts: ColliderOptions = {}): number {
    const call = 'addCircleCollider';
    numArg(call, 'cx', cx, RANGES.coordinate);
    numArg(call, 'cy', cy, RANGES.coordinate);
    numArg(call, 'radius', radius, RANGES.length);
    return this.collider(COLLIDER_CIRCLE, cx, cy, radius, this.colliderOptions(opts, call));
  }

  /** A two-sided segment collider of zero thickness (pivot: its midpoint). */
  addSegmentCollider(x1: number, y1: number, x2: number, y2: number, opts: ColliderOptions = {}): number {
    const call = 'addSegmentCollider';
    numArg(call, 'x1', x1, RANGES.coordinate);
    numArg(call, 'y1', y1, RANGES.coordinate);
    numArg(call, 'x2', x2, RANGES.coordinate);
    numArg(call, 'y2', y2, RANGES.coordinate);
    if (x1 === x2 && y1 === y2) throw new InputError(`${call}: expected two different ends, got (${x1}, ${y1}) twice`);
    const mat = this.colliderOptions(opts, call);
    const mx = (x1 + x2) / 2, my = (y1 + y2) / 2;
    const eid = this.collider(COLLIDER_SEGMENT, mx, my, 0, mat);
    const K = this.c.Collider;
    K.x1[eid] = x1 - mx;
    K.y1[eid] = y1 - my;
    K.x2[eid] = x2 - mx;
    K.y2[eid] = y2 - my;
    return eid;
  }

  /**
   * A solid closed polygon collider from world points x0 y0 x1 y1 … (either winding; pivot: the
   * vertex mean). It must be simple (no two edges touch or cross: an O(N log N) sweep, any size).
   */
  addPolygonCollider(points: ArrayLike<number>, opts: ColliderOptions = {}): number {
    const call = 'addPolygonCollider';
    numArrayArg(call, 'points', points, RANGES.coordinate, { min: 6, multiple: 2 });
    const problem = polygonProblem(points);
    if (problem) throw new InputError(`${call}: 'points': expected a simple polygon; ${problem}`);
    const mat = this.colliderOptions(opts, call);
    const nv = points.length / 2;
    let mx = 0, my = 0, area2 = 0;
    for (let i = 0; i < nv; i++) {
      const x = points[2 * i]!, y = points[2 * i + 1]!;
      mx += x / nv;
      my += y / nv;
      const j = (i + 1) % nv;
      area2 += x * points[2 * j + 1]! - points[2 * j]! * y;
    }
    if (area2 === 0) throw new InputError(`${call}: 'points': expected a polygon of non-zero area`);
    const local = new Float64Array(2 * nv);
    for (let i = 0; i < nv; i++) {
      const src = area2 > 0 ? i : nv - 1 - i; // stored counter-clockwise
      local[2 * i] = points[2 * src]! - mx;
      local[2 * i + 1] = points[2 * src + 1]! - my;
    }
    const eid = this.collider(COLLIDER_POLYGON, mx, my, 0, mat);
    this.c.Collider.polyStart[eid] = this.contacts.addPolygonVertices(local);
    this.c.Collider.polyCount[eid] = nv;
    return eid;
  }

  private colliderId(eid: number, call: string): number {
    if (!this.has(eid, this.c.Collider)) throw new InputError(`${call}: 'eid': expected a collider of this world, got ${this.describe(eid)}`);
    return eid;
  }

  /** Change a collider's collision filter, sensor flag and one-way direction (from the next step; omitted: the default). */
  setColliderFilter(eid: number, f: FilterOptions & { oneWay?: OneWay } = {}): void {
    this.colliderId(eid, 'setColliderFilter');
    writeColliderFilter(this.c, eid, parseFilter('setColliderFilter', f), parseOneWay('setColliderFilter', f.oneWay));
    this.pipeline.sleep.wakeEverything(this.ctx); // what the collider touches may change: sleeping islands wake
  }

  /** Change a particle's collision filter and sensor flag (from the next step; omitted: the default). */
  setParticleFilter(eid: number, f: FilterOptions = {}): void {
    this.particle(eid, 'setParticleFilter', 'eid');
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

  /** Teleport a collider's pivot to (x, y) and its rotation to angle (rad); its velocity is kept. */
  setColliderPose(eid: number, x: number, y: number, angle?: number): void {
    const call = 'setColliderPose';
    this.colliderId(eid, call);
    const K = this.c.Collider;
    numArg(call, 'x', x, RANGES.coordinate);
    numArg(call, 'y', y, RANGES.coordinate);
    const a = optNumArg(call, 'angle', angle, RANGES.rotation, K.angle[eid]!);
    K.px[eid] = x;
    K.py[eid] = y;
    K.angle[eid] = a;
  }

  /** Kinematic velocity (m/s, rad/s): the collider moves by it every step and pushes what it touches. */
  setColliderVelocity(eid: number, vx: number, vy: number, omega = 0): void {
    const call = 'setColliderVelocity';
    this.colliderId(eid, call);
    numArg(call, 'vx', vx, RANGES.velocity);
    numArg(call, 'vy', vy, RANGES.velocity);
    numArg(call, 'omega', omega, RANGES.angularVelocity);
    const K = this.c.Collider;
    K.vx[eid] = vx;
    K.vy[eid] = vy;
    K.omega[eid] = omega;
  }

  /** Kinematic target: set the velocity so that the next step ends with the collider at (x, y, angle). */
  moveColliderTo(eid: number, x: number, y: number, angle?: number): void {
    const call = 'moveColliderTo';
    this.colliderId(eid, call);
    const K = this.c.Collider;
    numArg(call, 'x', x, RANGES.coordinate);
    numArg(call, 'y', y, RANGES.coordinate);
    const a = optNumArg(call, 'angle', angle, RANGES.rotation, K.angle[eid]!);
    this.setColliderVelocity(eid, (x - K.px[eid]!) / this.dt, (y - K.py[eid]!) / this.dt, (a - K.angle[eid]!) / this.dt);
  }

  /**
   * Remove an engine entity; removing a particle removes the elements, forces and edges that use it.
   * The same as bitECS's removeEntity(world.ecs, eid) (src/systems/ecs.ts), which a game may call
   * directly; this one checks that `eid` is an engine entity of this world.
   */
  removeEntity(eid: number): void {
    if (!STORE_LISTS.some(([name]) => this.has(eid, this.c[name]))) {
      throw new InputError(`removeEntity: 'eid': expected an engine entity of this world, got ${this.describe(eid)}`);
    }
    removeEntity(this.ecs, eid);
  }

  /**
   * Pin (`fixed`) or free a particle after creation, from the next step on (body control,
   * src/systems/bodies.ts). A pinned particle's velocity is zeroed. Today this marks the topology dirty
   * (its `fixed` flags are built with it); the component stays the truth.
   */
  setParticleFixed(eid: number, fixed: boolean): void {
    this.particle(eid, 'setParticleFixed', 'eid');
    if (typeof fixed !== 'boolean') throw new InputError(`setParticleFixed: 'fixed': expected true or false, got ${shown(fixed)}`);
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
    this.particle(eid, 'setAnchor', 'eid');
    numArg('setAnchor', 'px', px, RANGES.coordinate);
    numArg('setAnchor', 'py', py, RANGES.coordinate);
    numArg('setAnchor', 'k', k, RANGES.coefficient);
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

  /** Speed (m/s) below which every free particle of an island must stay for `sleepTime` seconds before it sleeps (default 0.05, Box2D v3's). */
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
    this.particle(eid, 'isParticleSleeping', 'eid');
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
    const { steps, onProgress } = warmUpOptions('warmUp', options);
    const t0 = performance.now();
    const engine = this.engineColdForWarmUp();
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
        if (onProgress) onProgress(sceneProgress(engine, s + 1, steps));
      }
    } finally {
      pipeline.userSystemsMuted = false;
      this.restore(bytes);
      restoreStats(stats, counters);
    }
    if (onProgress && steps === 0) onProgress(1);
    return { ms: performance.now() - t0, engineMs, steps };
  }

  /**
   * warmUp that does not block: the same work, run in slices of about `sliceMs` (default 10 ms) with the event loop
   * free between them (a timer task each), so a loading screen keeps drawing and `onProgress` can move its bar.
   * The scene's steps run on a private copy of this world made from its snapshot at the call, so this world is never
   * touched: it may be drawn, edited or stepped meanwhile (changes made meanwhile are not warmed). Resolves with the
   * report once done; bad options reject with an InputError and nothing runs.
   */
  async warmUpAsync(options: WarmUpAsyncOptions = {}): Promise<WarmUpReport> {
    const { steps, onProgress } = warmUpOptions('warmUpAsync', options);
    const sliceMs = options.sliceMs ?? 10;
    if (typeof sliceMs !== 'number' || !(sliceMs > 0 && sliceMs <= 1000)) {
      throw new InputError(`warmUpAsync: 'sliceMs' must be a number of milliseconds in (0, 1000], got ${String(sliceMs)}`);
    }
    const t0 = performance.now();
    let sliceStart = t0;
    const slice = async (): Promise<void> => {
      if (performance.now() - sliceStart < sliceMs) return;
      await new Promise<void>((resolve) => setTimeout(resolve, 0));
      sliceStart = performance.now();
    };
    const engine = this.engineColdForWarmUp();
    if (engine) {
      // the engine's warm-up is about half the work: it reports the first half of the progress
      for (const f of warmUpSteps(newWarmUpWorld)) {
        if (onProgress) onProgress(0.5 * f);
        await slice();
      }
    }
    const engineMs = performance.now() - t0;
    if (steps > 0) {
      const copy = PhysicsWorld.fromSnapshot(this.snapshot());
      for (let s = 0; s < steps; s++) {
        copy.step();
        if (onProgress) onProgress(sceneProgress(engine, s + 1, steps));
        await slice();
      }
    } else if (onProgress) {
      onProgress(1);
    }
    return { ms: performance.now() - t0, engineMs, steps };
  }

  /** Whether the engine's JIT warm-up is still to run for this world (game mode, not run or running in this process). */
  private engineColdForWarmUp(): boolean {
    return this.ctx.newton !== 'fosssim' && !engineWarmedUp();
  }

  /** Advance one fixed step of dt. */
  step(): void {
    if (this.engineColdForWarmUp()) warmUpEngine(); // once per process (src/warmup.ts)
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
  readPositions(out?: Float64Array): Float64Array {
    out = out === undefined ? new Float64Array(2 * this.particleCount()) : outArg('readPositions', out, 2 * this.particleCount());
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
  readVelocities(out?: Float64Array): Float64Array {
    out = out === undefined ? new Float64Array(2 * this.particleCount()) : outArg('readVelocities', out, 2 * this.particleCount());
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
 * JIT warm-up (src/warmup.ts): steps two tiny private worlds (a jelly; two jellies in contact) so V8
 * compiles the solver's and the contact code before a game's own bodies run; once per process,
 * about 0.4 s on one core of the development machine. The first game-mode step() calls it; a game
 * may call it earlier, during loading.
 */
export function warmUpEngine(onProgress?: (fraction: number) => void): void {
  runWarmUp(newWarmUpWorld, onProgress);
}

/** A world of the engine's warm-up (src/warmup.ts): game mode, dt 1/60, implicit Euler. */
function newWarmUpWorld(): PhysicsWorld {
  return new PhysicsWorld({ dt: 1 / 60, integrator: 'implicit-euler' });
}

/** warmUp's progress after `done` of the scene's `steps` steps: the second half when the engine's warm-up ran first. */
function sceneProgress(engine: boolean, done: number, steps: number): number {
  return (engine ? 0.5 : 0) + ((engine ? 0.5 : 1) * done) / steps;
}

/** Most steps PhysicsWorld.warmUp runs (10 s at 60 Hz). */
export const MAX_WARMUP_STEPS = 600;

/** warmUp's and warmUpAsync's checked options. */
function warmUpOptions(name: string, options: WarmUpOptions): { steps: number; onProgress: ((fraction: number) => void) | undefined } {
  const steps = options.steps ?? 60;
  if (!Number.isInteger(steps) || steps < 0 || steps > MAX_WARMUP_STEPS) {
    throw new InputError(`${name}: 'steps' must be a whole number in [0, ${MAX_WARMUP_STEPS}], got ${String(steps)}`);
  }
  const onProgress = options.onProgress;
  if (onProgress !== undefined && typeof onProgress !== 'function') throw new InputError(`${name}: 'onProgress' must be a function`);
  return { steps, onProgress };
}

/** Options of PhysicsWorld.warmUp. */
export interface WarmUpOptions {
  /** Steps of the world itself to run and undo (default 60: one second, long enough for first contacts in most scenes). */
  steps?: number;
  /** Called with the fraction done (0..1] as the warm-up proceeds (a loading bar). */
  onProgress?: (fraction: number) => void;
}

/** Options of PhysicsWorld.warmUpAsync. */
export interface WarmUpAsyncOptions extends WarmUpOptions {
  /** Milliseconds of work between two yields to the event loop (default 10; (0, 1000]). */
  sliceMs?: number;
}

/** What PhysicsWorld.warmUp did: its total and engine-part milliseconds and the world steps run. */
export interface WarmUpReport {
  ms: number;
  engineMs: number;
  steps: number;
}

/**
 * Put StepStats back as they were (world.warmUp): only the fields that changed are written, and stageMs is
 * refilled, not replaced. Writing every field (Object.assign) stored into fields V8 tracks as constant, which
 * deoptimized the code optimized against them (the Newton step, in the stirred scene): docs/solver.md, "Stop 29".
 */
function restoreStats(stats: StepStats, saved: StepStats): void {
  const to = stats as unknown as Record<string, unknown>, from = saved as unknown as Record<string, unknown>;
  for (const k of Object.keys(from)) {
    if (k === 'stageMs') stats.stageMs.set(saved.stageMs);
    else if (!Object.is(to[k], from[k])) to[k] = from[k];
  }
}
