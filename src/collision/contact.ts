/**
 * Contact: particles against static/kinematic colliders (half-planes,
 * circles, segments, closed polygons) and against the boundary edges of soft
 * bodies (other bodies and, for non-incident edges, their own).
 *
 * Runs after the implicit solve, on the dense state (world.x, world.v), as a
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
import type { PhysicsWorld } from '../world';
import { sincos } from '../math';
import { SpatialHash } from './hash';
import { closestAlpha, sweptPointCircle, sweptPointSegment } from './geometry';
import { ContactPotential } from './implicit';
import type { SymPattern } from '../solver/pattern';

export const COLLIDER_CIRCLE = 1;
export const COLLIDER_SEGMENT = 2;
export const COLLIDER_POLYGON = 3;

/** One contact between a particle (of body A) and a collider or another body, aggregated per pair per step. */
export interface ContactEvent {
  /** Body id of the particle's body (0: the particle belongs to no body). */
  bodyA: number;
  /** Entity id of one particle of A in the contact. */
  particle: number;
  /** Body id of the other body, or 0 when the contact is with a collider. */
  bodyB: number;
  /** Entity id of the collider or half-plane, or −1 for body–body contact. */
  collider: number;
  /** Contact point (on the surface of B / the collider). */
  x: number;
  y: number;
  /** Unit normal pointing from B (or the collider) towards A. */
  nx: number;
  ny: number;
  /** Normal impulse magnitude summed over the step (N·s). */
  impulse: number;
}

function newEvent(): ContactEvent {
  return { bodyA: 0, particle: -1, bodyB: 0, collider: -1, x: 0, y: 0, nx: 0, ny: 0, impulse: 0 };
}

function growF(a: Float64Array, n: number): Float64Array {
  if (a.length >= n) return a;
  const g = new Float64Array(Math.max(n, 2 * a.length, 16));
  g.set(a);
  return g;
}
function growI(a: Int32Array, n: number): Int32Array {
  if (a.length >= n) return a;
  const g = new Int32Array(Math.max(n, 2 * a.length, 16));
  g.set(a);
  return g;
}

const KEY_OFF = 1 << 23;

export class ContactSystem {
  /** Contact runs only when enabled (XML scenes: `<collision type="simple"/>`). */
  enabled = false;
  /** 'game': filter + friction + CCD + penetration correction; 'simple': FOSSSim's SimpleCollisionHandler. */
  mode: 'game' | 'simple' = 'game';
  /** Coefficient of restitution (default for colliders without their own). */
  cor = 0;
  /** Coulomb friction coefficient μ (default for colliders without their own). */
  friction = 0.5;
  /** Gauss–Seidel passes over the contacts per step. */
  iterations = 4;
  /**
   * Game mode, inelastic (COR 0) contacts: 'projection' (default) moves positions out of
   * colliders and other bodies after the solve (mass-weighted, Coulomb friction as a
   * positional tangential correction ≤ μ × the normal correction) and sets v += Δx/h for
   * the moved particles, so resting contacts end the step at rest; 'filter' is the round-1
   * velocity filter (still the default: the projection settles single jellies and holds the
   * slope, but a 10-jelly pile diverges with it; docs/contact.md). Bouncy contacts (COR > 0) always use the filter.
   */
  response: 'projection' | 'filter' = 'filter';
  /** Body–body (particle–edge) contacts use the projection too (else the velocity filter). */
  bodyProjection = true;
  /** Broad-phase cell size (m); 0 = automatic (twice the mean boundary-edge length). */
  cellSize = 0;
  /**
   * Game mode with a game-mode implicit integrator: inelastic contacts (COR 0) enter the
   * Newton solve as penalty + friction potentials (src/collision/implicit.ts); the velocity
   * filter then only acts on what penetrates deeper than `(1 − filterFraction)` of the radius.
   * Off by default until body–body contact in the solve works (docs/contact.md, open problems).
   */
  implicit = false;
  /** Penalty stiffness κ = stiffness · m / h² (m: the particle's mass). */
  stiffness = 1000;
  /** Friction smoothing velocity ε_v (m/s): static friction lets a contact creep at most this fast. */
  frictionEpsV = 1e-4;
  /**
   * Body–body (particle–edge) contacts in the solve too. Off by default: a 10-jelly
   * pile with them on ends up interpenetrated (see docs/contact.md, open problem);
   * body–body contact then stays with the velocity filter.
   */
  implicitBodies = false;
  /** Fraction of the radius the safety filter keeps when contact is in the solve. */
  filterFraction = 0.5;
  /** This step's candidate potentials (valid while implicit contact is on). */
  readonly potential = new ContactPotential();
  private implicitOn = false;

  /** Contacts that started this step, ended this step, and all current ones (valid until the next step). */
  begin: ContactEvent[] = [];
  end: ContactEvent[] = [];
  active: ContactEvent[] = [];

  // ---- per topology ----
  private topoRef: unknown = null;
  private n = 0;
  private invMass: Float64Array = new Float64Array(0);
  private radius: Float64Array = new Float64Array(0);
  private bodyOf: Int32Array = new Int32Array(0);
  private eidOf: Int32Array = new Int32Array(0);
  /** Particle takes part in body–body contact (not interior to a triangle mesh). */
  private surface: Uint8Array = new Uint8Array(0);
  /** The other endpoints of the (up to two) boundary edges at each particle, −1 if none. */
  private nbA: Int32Array = new Int32Array(0);
  private nbB: Int32Array = new Int32Array(0);
  private nE = 0;
  private ea: Int32Array = new Int32Array(0);
  private eb: Int32Array = new Int32Array(0);
  private eOneSided: Uint8Array = new Uint8Array(0);
  private eRad: Float64Array = new Float64Array(0);
  private meanEdge = 0;
  private maxRadius = 0;

  // ---- per step ----
  x0: Float64Array = new Float64Array(0);
  /** Local polygon vertices of all polygon colliders (x, y pairs). */
  polyLocal: Float64Array = new Float64Array(0);
  polyLocalCount = 0;
  private nS = 0;
  private seg: Float64Array = new Float64Array(0); // 8 per segment item: a0 b0 a1 b1
  private segRad: Float64Array = new Float64Array(0);
  private segCol: Int32Array = new Int32Array(0);
  private nC = 0;
  private circ: Float64Array = new Float64Array(0); // 5 per circle: c0x c0y c1x c1y R
  private circCol: Int32Array = new Int32Array(0);
  private nP = 0;
  private polyCol: Int32Array = new Int32Array(0);
  private polyStartW: Int32Array = new Int32Array(0); // into polyWorld (end pose)
  private polyCountW: Int32Array = new Int32Array(0);
  private polyBox: Float64Array = new Float64Array(0); // 4 per polygon
  private polyWorld: Float64Array = new Float64Array(0);
  private readonly hash = new SpatialHash();
  private readonly sc = new Float64Array(4);
  /** Start-of-step velocities: (v − v0)/h is the acceleration the solve applied. */
  private v0: Float64Array = new Float64Array(0);
  /** Predicted end-of-step positions x + h v (candidate search). */
  private xp: Float64Array = new Float64Array(0);
  private readonly cand = { buf: new Int32Array(64) };
  private nPairs = 0;
  private pairP: Int32Array = new Int32Array(0);
  private pairItem: Int32Array = new Int32Array(0);
  private pairHit: Uint8Array = new Uint8Array(0);
  private pairImp: Float64Array = new Float64Array(0);
  private pairGeo: Float64Array = new Float64Array(0); // 4 per pair: x y nx ny
  /** Projection pairs: edge parameter α of the last correction, and 1 when the pair was projected (not filtered). */
  private pairAl: Float64Array = new Float64Array(0);
  private pairProj: Uint8Array = new Uint8Array(0);
  /** Position corrections made by the projection this step (2 per particle); v += dproj/h at the end. */
  private dproj: Float64Array = new Float64Array(0);
  private projected = false;
  /** Inside beginCorrection's detection: only projections act (the filter runs once, after the final solve). */
  private passA = false;
  /**
   * Projection response: after the first solve, the projected contact positions become
   * one-sided planes (with lagged friction) for a second implicit solve from the start of
   * the step, so the whole body (not only its contact nodes) feels the contact. Default on.
   */
  correction = true;
  /** Whether the last step ran the correction solve (benchmark / tests). */
  corrected = false;
  /** Normal contact force on each particle at the end of the last correction solve (lags the friction bound λ). */
  private lamPrev: Float64Array = new Float64Array(0);
  /** Number of pairs that touched in the last step (benchmark figure). */
  touching = 0;
  // narrow-phase output
  private nx = 0;
  private ny = 0;
  private pen = 0;
  private alpha = 0;
  // events
  private recKey: Float64Array = new Float64Array(0);
  private order: Int32Array = new Int32Array(0);
  private prevKeys: Float64Array = new Float64Array(0);
  private curKeys: Float64Array = new Float64Array(0);
  private nPrev = 0;
  private pool: ContactEvent[] = [];
  private prevPool: ContactEvent[] = [];
  private readonly cmp = (a: number, b: number): number => this.recKey[a]! - this.recKey[b]! || a - b;

  /** Snapshot of the start-of-step positions (called before the solve). */
  snapshot(world: PhysicsWorld): void {
    const model = world.forceModel();
    model.contact = null;
    this.implicitOn = false;
    if (!this.enabled) return;
    this.x0 = growF(this.x0, world.x.length);
    this.x0.set(world.x);
    this.v0 = growF(this.v0, world.v.length);
    this.v0.set(world.v);
    if (this.mode !== 'game') return;
    const t = world.topology();
    if (this.topoRef !== t) this.rebuild(world);
    this.updateColliders(world);
    if (this.implicit && this.response === 'filter' && world.newton !== 'fosssim' && !t.dense &&
      (world.integrator === 'implicit-euler' || world.integrator === 'linearized-implicit-euler')) {
      this.buildCandidates(world);
      this.implicitOn = true;
      model.contact = this.potential;
    }
  }

  /** Add local polygon vertices; returns their start index. */
  addPolygonVertices(local: ArrayLike<number>): number {
    const start = this.polyLocalCount;
    this.polyLocal = growF(this.polyLocal, 2 * (start + local.length / 2));
    for (let k = 0; k < local.length; k++) this.polyLocal[2 * start + k] = local[k]!;
    this.polyLocalCount += local.length / 2;
    return start;
  }

  private rebuild(world: PhysicsWorld): void {
    const t = world.topology();
    this.topoRef = t;
    const n = t.n;
    this.n = n;
    const P = world.c.Particle;
    this.invMass = new Float64Array(n);
    this.radius = new Float64Array(n);
    this.bodyOf = new Int32Array(n);
    this.eidOf = Int32Array.from(t.particleEids);
    this.surface = new Uint8Array(n).fill(1);
    this.nbA = new Int32Array(n).fill(-1);
    this.nbB = new Int32Array(n).fill(-1);
    let maxR = 0;
    for (let i = 0; i < n; i++) {
      const e = t.particleEids[i]!;
      const m = t.mass[2 * i]!;
      this.invMass[i] = t.fixed[i] === 1 || !(m > 0) ? 0 : 1 / m;
      this.radius[i] = P.radius[e]!;
      this.bodyOf[i] = P.body[e]!;
      if (this.radius[i]! > maxR) maxR = this.radius[i]!;
    }
    // Boundary edges of triangle meshes: edges used by exactly one triangle, oriented with the body on their left.
    const tr = t.triangles;
    const use = new Map<number, number>(); // setup only, never per step
    const key = (a: number, b: number): number => (a < b ? a * n + b : b * n + a);
    for (let e = 0; e < tr.count; e++) {
      for (let k = 0; k < 3; k++) {
        const a = tr.nodes[3 * e + k]!, b = tr.nodes[3 * e + ((k + 1) % 3)]!;
        const kk = key(a, b);
        use.set(kk, (use.get(kk) ?? 0) + 1);
      }
    }
    const ea: number[] = [], eb: number[] = [], one: number[] = [], rad: number[] = [];
    const inMesh = new Uint8Array(n);
    const x = world.x;
    const Pp = world.c.Particle;
    const px = (i: number): number => Pp.x[t.particleEids[i]!]!;
    const py = (i: number): number => Pp.y[t.particleEids[i]!]!;
    void x;
    for (let e = 0; e < tr.count; e++) {
      const A = tr.nodes[3 * e]!, B = tr.nodes[3 * e + 1]!, C = tr.nodes[3 * e + 2]!;
      inMesh[A] = inMesh[B] = inMesh[C] = 1;
      const ccw = (px(B) - px(A)) * (py(C) - py(A)) - (py(B) - py(A)) * (px(C) - px(A)) > 0;
      for (let k = 0; k < 3; k++) {
        let a = tr.nodes[3 * e + k]!, b = tr.nodes[3 * e + ((k + 1) % 3)]!;
        if (use.get(key(a, b)) !== 1) continue;
        if (!ccw) [a, b] = [b, a];
        ea.push(a);
        eb.push(b);
        one.push(1);
        rad.push(0);
      }
    }
    // Rod edges (world.edges) not on a triangle: two-sided, with their radius.
    const E = world.c.Edge;
    const dense = new Map<number, number>();
    for (let i = 0; i < n; i++) dense.set(t.particleEids[i]!, i);
    for (const e of world.edges) {
      const a = dense.get(E.a[e]!), b = dense.get(E.b[e]!);
      if (a === undefined || b === undefined || use.has(key(a, b))) continue;
      ea.push(a);
      eb.push(b);
      one.push(0);
      rad.push(E.radius[e]!);
    }
    // Interior mesh nodes do not take part in body–body contact.
    const onBoundary = new Uint8Array(n);
    for (let k = 0; k < ea.length; k++) {
      onBoundary[ea[k]!] = onBoundary[eb[k]!] = 1;
      for (const [u, w] of [[ea[k]!, eb[k]!], [eb[k]!, ea[k]!]] as const) {
        if (this.nbA[u] === -1) this.nbA[u] = w;
        else if (this.nbB[u] === -1) this.nbB[u] = w;
      }
    }
    for (let i = 0; i < n; i++) this.surface[i] = inMesh[i] === 1 && onBoundary[i] === 0 ? 0 : 1;
    this.nE = ea.length;
    this.ea = Int32Array.from(ea);
    this.eb = Int32Array.from(eb);
    this.eOneSided = Uint8Array.from(one);
    this.eRad = Float64Array.from(rad);
    let sum = 0;
    for (let k = 0; k < ea.length; k++) {
      sum += Math.sqrt((px(eb[k]!) - px(ea[k]!)) ** 2 + (py(eb[k]!) - py(ea[k]!)) ** 2);
      if (rad[k]! > maxR) maxR = rad[k]!;
    }
    this.meanEdge = ea.length > 0 ? sum / ea.length : 0;
    this.maxRadius = maxR;
    this.nPrev = 0;
  }

  /** Move kinematic colliders by one step and build their world-space primitives at the start and end poses. */
  private updateColliders(world: PhysicsWorld): void {
    const K = world.c.Collider;
    const h = world.dt;
    const cols = world.colliders;
    let nS = 0, nC = 0, nP = 0, nV = 0;
    for (let k = 0; k < cols.length; k++) {
      const e = cols[k]!;
      const kind = K.kind[e]!;
      if (kind === COLLIDER_SEGMENT) nS++;
      else if (kind === COLLIDER_CIRCLE) nC++;
      else {
        nS += K.polyCount[e]!;
        nP++;
        nV += K.polyCount[e]!;
      }
    }
    this.seg = growF(this.seg, 8 * nS);
    this.segRad = growF(this.segRad, nS);
    this.segCol = growI(this.segCol, nS);
    this.circ = growF(this.circ, 5 * nC);
    this.circCol = growI(this.circCol, nC);
    this.polyCol = growI(this.polyCol, nP);
    this.polyStartW = growI(this.polyStartW, nP);
    this.polyCountW = growI(this.polyCountW, nP);
    this.polyBox = growF(this.polyBox, 4 * nP);
    this.polyWorld = growF(this.polyWorld, 4 * nV);
    const sc = this.sc;
    nS = 0;
    nC = 0;
    nP = 0;
    nV = 0;
    const L = this.polyLocal;
    for (let k = 0; k < cols.length; k++) {
      const e = cols[k]!;
      const kind = K.kind[e]!;
      const ox = K.px[e]!, oy = K.py[e]!, oa = K.angle[e]!;
      const nxp = ox + h * K.vx[e]!, nyp = oy + h * K.vy[e]!, na = oa + h * K.omega[e]!;
      sincos(oa, sc, 0);
      sincos(na, sc, 2);
      const s0 = sc[0]!, c0 = sc[1]!, s1 = sc[2]!, c1 = sc[3]!;
      K.px[e] = nxp;
      K.py[e] = nyp;
      K.angle[e] = na;
      if (kind === COLLIDER_CIRCLE) {
        const o = 5 * nC;
        this.circ[o] = ox;
        this.circ[o + 1] = oy;
        this.circ[o + 2] = nxp;
        this.circ[o + 3] = nyp;
        this.circ[o + 4] = K.radius[e]!;
        this.circCol[nC++] = k;
      } else if (kind === COLLIDER_SEGMENT) {
        const o = 8 * nS;
        const lx1 = K.x1[e]!, ly1 = K.y1[e]!, lx2 = K.x2[e]!, ly2 = K.y2[e]!;
        this.seg[o] = ox + c0 * lx1 - s0 * ly1;
        this.seg[o + 1] = oy + s0 * lx1 + c0 * ly1;
        this.seg[o + 2] = ox + c0 * lx2 - s0 * ly2;
        this.seg[o + 3] = oy + s0 * lx2 + c0 * ly2;
        this.seg[o + 4] = nxp + c1 * lx1 - s1 * ly1;
        this.seg[o + 5] = nyp + s1 * lx1 + c1 * ly1;
        this.seg[o + 6] = nxp + c1 * lx2 - s1 * ly2;
        this.seg[o + 7] = nyp + s1 * lx2 + c1 * ly2;
        this.segRad[nS] = K.radius[e]!;
        this.segCol[nS++] = k;
      } else {
        const start = K.polyStart[e]!, cnt = K.polyCount[e]!;
        const w = this.polyWorld;
        this.polyCol[nP] = k;
        this.polyStartW[nP] = nV;
        this.polyCountW[nP] = cnt;
        let minx = Infinity, miny = Infinity, maxx = -Infinity, maxy = -Infinity;
        for (let j = 0; j < cnt; j++) {
          const lx = L[2 * (start + j)]!, ly = L[2 * (start + j) + 1]!;
          const x = nxp + c1 * lx - s1 * ly, y = nyp + s1 * lx + c1 * ly;
          w[2 * (nV + j)] = x;
          w[2 * (nV + j) + 1] = y;
          minx = Math.min(minx, x);
          miny = Math.min(miny, y);
          maxx = Math.max(maxx, x);
          maxy = Math.max(maxy, y);
          const j2 = (j + 1) % cnt;
          const mx = L[2 * (start + j2)]!, my = L[2 * (start + j2) + 1]!;
          const o = 8 * nS;
          this.seg[o] = ox + c0 * lx - s0 * ly;
          this.seg[o + 1] = oy + s0 * lx + c0 * ly;
          this.seg[o + 2] = ox + c0 * mx - s0 * my;
          this.seg[o + 3] = oy + s0 * mx + c0 * my;
          this.seg[o + 4] = x;
          this.seg[o + 5] = y;
          this.seg[o + 6] = nxp + c1 * mx - s1 * my;
          this.seg[o + 7] = nyp + s1 * mx + c1 * my;
          this.segRad[nS] = 0;
          this.segCol[nS++] = k;
        }
        this.polyBox[4 * nP] = minx;
        this.polyBox[4 * nP + 1] = miny;
        this.polyBox[4 * nP + 2] = maxx;
        this.polyBox[4 * nP + 3] = maxy;
        nV += cnt;
        nP++;
      }
    }
    this.nS = nS;
    this.nC = nC;
    this.nP = nP;
  }

  private addPair(p: number, item: number): void {
    const k = this.nPairs++;
    if (k >= this.pairP.length) {
      const m = Math.max(64, 2 * this.pairP.length);
      this.pairP = growI(this.pairP, m);
      this.pairItem = growI(this.pairItem, m);
      const hit = new Uint8Array(m);
      hit.set(this.pairHit);
      this.pairHit = hit;
      this.pairImp = growF(this.pairImp, m);
      this.pairGeo = growF(this.pairGeo, 4 * m);
      this.pairAl = growF(this.pairAl, m);
      const pr = new Uint8Array(m);
      pr.set(this.pairProj);
      this.pairProj = pr;
    }
    this.pairP[k] = p;
    this.pairItem[k] = item;
    this.pairHit[k] = 0;
    this.pairImp[k] = 0;
    this.pairProj[k] = 0;
  }

  /** Broad phase over swept boxes x0 → x, then Gauss–Seidel passes (narrow phase + response) over the pairs. */
  private detectAndProject(world: PhysicsWorld): void {
    const x = world.x, x0 = this.x0, n = this.n;
    const nE = this.nE, nS = this.nS, nC = this.nC, nP = this.nP;
    const nItems = nE + nS + nC + nP;
    // Broad phase.
    let cell = this.cellSize;
    if (!(cell > 0)) cell = this.meanEdge > 0 ? 2 * this.meanEdge : Math.max(8 * this.maxRadius, 0.1);
    const hash = this.hash;
    hash.begin(nItems, cell);
    const mr = this.maxRadius;
    for (let k = 0; k < nE; k++) {
      const a = 2 * this.ea[k]!, b = 2 * this.eb[k]!;
      const r = this.eRad[k]! + mr;
      hash.setBox(k,
        Math.min(x0[a]!, x0[b]!, x[a]!, x[b]!) - r, Math.min(x0[a + 1]!, x0[b + 1]!, x[a + 1]!, x[b + 1]!) - r,
        Math.max(x0[a]!, x0[b]!, x[a]!, x[b]!) + r, Math.max(x0[a + 1]!, x0[b + 1]!, x[a + 1]!, x[b + 1]!) + r);
    }
    const sg = this.seg;
    for (let k = 0; k < nS; k++) {
      const o = 8 * k, r = this.segRad[k]! + mr;
      hash.setBox(nE + k,
        Math.min(sg[o]!, sg[o + 2]!, sg[o + 4]!, sg[o + 6]!) - r, Math.min(sg[o + 1]!, sg[o + 3]!, sg[o + 5]!, sg[o + 7]!) - r,
        Math.max(sg[o]!, sg[o + 2]!, sg[o + 4]!, sg[o + 6]!) + r, Math.max(sg[o + 1]!, sg[o + 3]!, sg[o + 5]!, sg[o + 7]!) + r);
    }
    const ci = this.circ;
    for (let k = 0; k < nC; k++) {
      const o = 5 * k, r = ci[o + 4]! + mr;
      hash.setBox(nE + nS + k,
        Math.min(ci[o]!, ci[o + 2]!) - r, Math.min(ci[o + 1]!, ci[o + 3]!) - r,
        Math.max(ci[o]!, ci[o + 2]!) + r, Math.max(ci[o + 1]!, ci[o + 3]!) + r);
    }
    for (let k = 0; k < nP; k++) {
      const o = 4 * k;
      hash.setBox(nE + nS + nC + k, this.polyBox[o]! - mr, this.polyBox[o + 1]! - mr, this.polyBox[o + 2]! + mr, this.polyBox[o + 3]! + mr);
    }
    hash.build();
    // Candidate pairs, by particle in creation order.
    this.nPairs = 0;
    const H = world.c.Halfplane, hps = world.halfplanes;
    for (let i = 0; i < n; i++) {
      if (this.invMass[i] === 0 && nE === 0) continue;
      const r = this.radius[i]!;
      const X0 = x0[2 * i]!, Y0 = x0[2 * i + 1]!, X1 = x[2 * i]!, Y1 = x[2 * i + 1]!;
      const move = Math.abs(X1 - X0) + Math.abs(Y1 - Y0);
      for (let q = 0; q < hps.length; q++) {
        const e = hps[q]!;
        if (this.invMass[i] === 0) break;
        const d = (X1 - H.px[e]!) * H.nx[e]! + (Y1 - H.py[e]!) * H.ny[e]!;
        if (d < 2 * r + move) this.addPair(i, -(q + 1));
      }
      if (nItems === 0) continue;
      const cnt = hash.query(Math.min(X0, X1) - r, Math.min(Y0, Y1) - r, Math.max(X0, X1) + r, Math.max(Y0, Y1) + r, this.cand);
      const buf = this.cand.buf;
      // Deterministic and cache-friendly: ascending item order (insertion sort, the lists are short).
      for (let a = 1; a < cnt; a++) {
        const v = buf[a]!;
        let b = a - 1;
        while (b >= 0 && buf[b]! > v) {
          buf[b + 1] = buf[b]!;
          b--;
        }
        buf[b + 1] = v;
      }
      for (let c = 0; c < cnt; c++) {
        const item = buf[c]!;
        if (item < nE) {
          if (this.surface[i] === 0) continue;
          const a = this.ea[item]!, b = this.eb[item]!;
          if (this.adjacent(i, a, b)) continue;
          if (this.invMass[i] === 0 && this.invMass[a] === 0 && this.invMass[b] === 0) continue;
          this.addPair(i, item);
        } else if (this.invMass[i] !== 0) {
          this.addPair(i, item);
        }
      }
    }
    // Gauss–Seidel passes: narrow phase on the current state, then response.
    // Later passes only revisit the pairs that touched in the first.
    this.dproj = growF(this.dproj, 2 * n);
    this.dproj.fill(0, 0, 2 * n);
    this.projected = false;
    for (let k = 0; k < this.nPairs; k++) this.resolvePair(world, k);
    for (let pass = 1; pass < this.iterations; pass++) {
      for (let k = 0; k < this.nPairs; k++) if (this.pairHit[k] === 1) this.resolvePair(world, k);
    }
  }

  /**
   * Projection response, between the first and the second implicit solve: detect and project
   * the first solve's result, then turn every particle the projection moved along a normal
   * into a one-sided plane through its projected position (normal: its accumulated normal
   * correction; stiffness κ = stiffness · m/h²; friction μλ with λ = m |normal correction|/h²,
   * the force that held it, pulling towards its projected tangential position), restore the
   * start-of-step state and hand the planes to the solve. Returns false (nothing to redo)
   * when nothing was projected or the integrator is not a game-mode implicit one.
   */
  beginCorrection(world: PhysicsWorld): boolean {
    this.corrected = false;
    if (!this.enabled || this.mode !== 'game' || this.response !== 'projection' || !this.correction) return false;
    if (world.newton === 'fosssim' || (world.integrator !== 'implicit-euler' && world.integrator !== 'linearized-implicit-euler')) return false;
    const t = world.topology();
    if (t.dense) return false;
    if (this.topoRef !== t) this.rebuild(world);
    this.passA = true;
    this.detectAndProject(world);
    this.passA = false;
    if (!this.projected) return false;
    const pot = this.potential;
    pot.clear();
    const x = world.x, x0 = this.x0, h = world.dt, nE = this.nE;
    const mass = t.mass, pattern = t.pattern;
    const ks = this.stiffness / (h * h), eps = this.frictionEpsV * h;
    for (let k = 0; k < this.nPairs; k++) {
      if (this.pairProj[k] === 0) continue;
      const i = this.pairP[k]!, item = this.pairItem[k]!;
      const nx = this.pairGeo[4 * k + 2]!, ny = this.pairGeo[4 * k + 3]!, tx = -ny, ty = nx;
      // λ: the normal force that held the contact in the projection (impulse / h)
      const lam = Math.max(this.pairImp[k]! / h, this.lamPrev.length > i ? this.lamPrev[i]! : 0);
      const i2 = 2 * i;
      // slip of the projected state over the step; the friction potential's u(x) = t·(x − xᵗ) + s (implicit.ts) vanishes there with s = −slip
      let st = tx * (x[i2]! - x0[i2]!) + ty * (x[i2 + 1]! - x0[i2 + 1]!);
      let ok: boolean;
      if (item >= 0 && item < nE) {
        const a = this.ea[item]!, b = this.eb[item]!, al = this.pairAl[k]!, be = 1 - al;
        const a2 = 2 * a, b2 = 2 * b;
        st -= be * (tx * (x[a2]! - x0[a2]!) + ty * (x[a2 + 1]! - x0[a2 + 1]!)) + al * (tx * (x[b2]! - x0[b2]!) + ty * (x[b2 + 1]! - x0[b2 + 1]!));
        const mi = this.invMass[i]! > 0 ? mass[i2]! : 0;
        const m = mi > 0 ? mi : 0.5 * ((this.invMass[a]! > 0 ? mass[a2]! : 0) + (this.invMass[b]! > 0 ? mass[b2]! : 0));
        // d = n·(p − (1 − α)a − αb) ≥ r at the projected state
        const d = nx * (x[i2]! - be * x[a2]! - al * x[b2]!) + ny * (x[i2 + 1]! - be * x[a2 + 1]! - al * x[b2 + 1]!);
        ok = pot.add(pattern, x0, i, a, b, al, nx, ny, 0, Math.min(d, this.radius[i]! + this.eRad[item]!), ks * m, 0, -st, eps);
      } else {
        if (this.invMass[i] === 0) continue;
        ok = pot.add(pattern, x0, i, -1, -1, 0, nx, ny, nx * x[i2]! + ny * x[i2 + 1]!, 0, ks * mass[i2]!, 0, -st, eps);
      }
      if (ok) pot.geo[8 * (pot.count - 1) + 5] = this.frictionOfItem(world, item) * lam;
    }
    world.x.set(x0.subarray(0, world.x.length));
    world.v.set(this.v0.subarray(0, world.v.length));
    world.forceModel().contact = pot;
    this.corrected = true;
    return true;
  }

  /** The contact step, after the solve and before the state is scattered back. */
  solve(world: PhysicsWorld): void {
    if (!this.enabled) {
      this.begin.length = 0;
      this.end.length = 0;
      this.active.length = 0;
      return;
    }
    if (this.topoRef !== world.topology()) this.rebuild(world);
    if (this.mode === 'simple') {
      this.solveSimple(world);
      return;
    }
    const n = this.n;
    // the correction solve's contact forces: next step's friction bound (lagged, IPC-style)
    this.lamPrev = growF(this.lamPrev, n);
    this.lamPrev.fill(0, 0, n);
    if (this.corrected) {
      const pot = this.potential;
      for (let k = 0; k < pot.count; k++) {
        const p = pot.node[3 * k]!;
        this.lamPrev[p] = this.lamPrev[p]! + pot.normalForce(k, world.x);
      }
    }
    this.detectAndProject(world);
    if (this.projected) {
      // Projection: the moved particles get the velocity of their corrected displacement.
      const v = world.v, dp = this.dproj, ih = 1 / world.dt;
      for (let q = 0; q < 2 * n; q++) v[q] = v[q]! + dp[q]! * ih;
    }
    let touching = 0;
    for (let k = 0; k < this.nPairs; k++) touching += this.pairHit[k]!;
    this.touching = touching;
    this.collectEvents(world);
  }

  private resolvePair(world: PhysicsWorld, k: number): void {
    const i = this.pairP[k]!, item = this.pairItem[k]!;
    const x = world.x, x0 = this.x0;
    const r = this.radius[i]!;
    const i2 = 2 * i;
    const X0 = x0[i2]!, Y0 = x0[i2 + 1]!;
    const nE = this.nE, nS = this.nS, nC = this.nC;
    if (item < 0) {
      const e = world.halfplanes[-item - 1]!;
      const H = world.c.Halfplane;
      const nx = H.nx[e]!, ny = H.ny[e]!;
      const d = (x[i2]! - H.px[e]!) * nx + (x[i2 + 1]! - H.py[e]!) * ny;
      if (d >= r) return;
      this.nx = nx;
      this.ny = ny;
      this.pen = r - d;
      if (!this.gate(world, k, i, item, r, x[i2]! - d * nx, x[i2 + 1]! - d * ny)) return;
      // Contact point: the foot of the particle on the plane after the correction.
      this.applyStatic(world, k, i, 0, 0, x[i2]! - d * nx, x[i2 + 1]! - d * ny, this.cor, this.friction);
      return;
    }
    if (item < nE) {
      const a = this.ea[item]!, b = this.eb[item]!;
      const a2 = 2 * a, b2 = 2 * b;
      if (!this.narrowSegment(X0, Y0, x[i2]!, x[i2 + 1]!, x0[a2]!, x0[a2 + 1]!, x0[b2]!, x0[b2 + 1]!,
        x[a2]!, x[a2 + 1]!, x[b2]!, x[b2 + 1]!, r + this.eRad[item]!, this.eOneSided[item] === 1)) return;
      const al = this.alpha;
      if (!this.gate(world, k, i, item, r + this.eRad[item]!, (1 - al) * x[a2]! + al * x[b2]!, (1 - al) * x[a2 + 1]! + al * x[b2 + 1]!)) return;
      this.respondEdge(world, k, i, a, b);
      return;
    }
    if (item < nE + nS) {
      const s = item - nE, o = 8 * s, sg = this.seg;
      if (!this.narrowSegment(X0, Y0, x[i2]!, x[i2 + 1]!, sg[o]!, sg[o + 1]!, sg[o + 2]!, sg[o + 3]!,
        sg[o + 4]!, sg[o + 5]!, sg[o + 6]!, sg[o + 7]!, r + this.segRad[s]!, false)) return;
      const col = this.segCol[s]!;
      const cx = sg[o + 4]! + this.alpha * (sg[o + 6]! - sg[o + 4]!);
      const cy = sg[o + 5]! + this.alpha * (sg[o + 7]! - sg[o + 5]!);
      if (!this.gate(world, k, i, item, r + this.segRad[s]!, cx, cy)) return;
      this.respondCollider(world, k, i, col, cx, cy);
      return;
    }
    if (item < nE + nS + nC) {
      const c = item - nE - nS, o = 5 * c, ci = this.circ;
      const rho = ci[o + 4]! + r;
      const q1x = x[i2]! - ci[o + 2]!, q1y = x[i2 + 1]! - ci[o + 3]!;
      const d1 = Math.sqrt(q1x * q1x + q1y * q1y);
      if (d1 < rho) {
        if (d1 > 1e-12) {
          this.nx = q1x / d1;
          this.ny = q1y / d1;
        } else {
          this.nx = 0;
          this.ny = 1;
        }
        this.pen = rho - d1;
      } else {
        const q0x = X0 - ci[o]!, q0y = Y0 - ci[o + 1]!;
        const t = sweptPointCircle(q0x, q0y, q1x, q1y, rho);
        if (t < 0) return;
        const qx = q0x + t * (q1x - q0x), qy = q0y + t * (q1y - q0y);
        const dq = Math.sqrt(qx * qx + qy * qy);
        this.nx = qx / dq;
        this.ny = qy / dq;
        this.pen = rho - (q1x * this.nx + q1y * this.ny);
        if (!(this.pen > 0)) return;
      }
      const col = this.circCol[c]!;
      if (!this.gate(world, k, i, item, r, ci[o + 2]! + this.nx * ci[o + 4]!, ci[o + 3]! + this.ny * ci[o + 4]!)) return;
      this.respondCollider(world, k, i, col, ci[o + 2]! + this.nx * ci[o + 4]!, ci[o + 3]! + this.ny * ci[o + 4]!);
      return;
    }
    // Polygon interior: a particle that ended inside is pushed out through the nearest edge.
    const p = item - nE - nS - nC;
    const start = this.polyStartW[p]!, cnt = this.polyCountW[p]!, w = this.polyWorld;
    const px = x[i2]!, py = x[i2 + 1]!;
    let inside = false;
    for (let j = 0, m = cnt - 1; j < cnt; m = j++) {
      const xj = w[2 * (start + j)]!, yj = w[2 * (start + j) + 1]!, xm = w[2 * (start + m)]!, ym = w[2 * (start + m) + 1]!;
      if ((yj > py) !== (ym > py) && px < ((xm - xj) * (py - yj)) / (ym - yj) + xj) inside = !inside;
    }
    if (!inside) return;
    let best = Infinity, bx = 0, by = 0, bnx = 0, bny = 0;
    for (let j = 0; j < cnt; j++) {
      const j2 = j + 1 === cnt ? 0 : j + 1;
      const ax = w[2 * (start + j)]!, ay = w[2 * (start + j) + 1]!, qx = w[2 * (start + j2)]!, qy = w[2 * (start + j2) + 1]!;
      const al = closestAlpha(px, py, ax, ay, qx, qy);
      const cx = ax + al * (qx - ax), cy = ay + al * (qy - ay);
      const d2 = (px - cx) ** 2 + (py - cy) ** 2;
      if (d2 < best) {
        best = d2;
        bx = cx;
        by = cy;
        const ex = qx - ax, ey = qy - ay, l = Math.sqrt(ex * ex + ey * ey);
        bnx = ey / l; // local vertices are stored counter-clockwise: outward is to the right
        bny = -ex / l;
      }
    }
    this.nx = bnx;
    this.ny = bny;
    this.pen = r + Math.sqrt(best);
    this.respondCollider(world, k, i, this.polyCol[p]!, bx, by);
  }

  /**
   * Particle p0→p1 against a segment (a0,b0)→(a1,b1) with combined radius r.
   * Sets nx, ny (towards the particle), pen (> 0) and alpha; false when apart.
   * One-sided edges are body boundaries with the body on their left.
   */
  private narrowSegment(
    p0x: number, p0y: number, p1x: number, p1y: number,
    a0x: number, a0y: number, b0x: number, b0y: number,
    a1x: number, a1y: number, b1x: number, b1y: number, r: number, oneSided: boolean,
  ): boolean {
    const ex = b1x - a1x, ey = b1y - a1y;
    const len = Math.sqrt(ex * ex + ey * ey);
    if (!(len > 0)) return false;
    const ux = -ey / len, uy = ex / len; // left normal
    const t = sweptPointSegment(p0x, p0y, p1x, p1y, a0x, a0y, b0x, b0y, a1x, a1y, b1x, b1y);
    if (t >= 0) {
      let side = (b0x - a0x) * (p0y - a0y) - (b0y - a0y) * (p0x - a0x);
      if (side === 0) side = -((p1x - p0x) * ux + (p1y - p0y) * uy);
      // One-sided: only crossings from outside (the right) count.
      if (!(oneSided && side > 0)) {
        const sg = side > 0 ? 1 : -1;
        this.nx = sg * ux;
        this.ny = sg * uy;
        const s1 = (p1x - a1x) * this.nx + (p1y - a1y) * this.ny;
        this.pen = r - s1;
        this.alpha = closestAlpha(p1x, p1y, a1x, a1y, b1x, b1y);
        return this.pen > 0;
      }
    }
    const al = closestAlpha(p1x, p1y, a1x, a1y, b1x, b1y);
    const cx = a1x + al * ex, cy = a1y + al * ey;
    const dx = p1x - cx, dy = p1y - cy;
    const d2 = dx * dx + dy * dy;
    if (d2 >= r * r) return false;
    const d = Math.sqrt(d2);
    this.alpha = al;
    if (oneSided) {
      const s = dx * -ux + dy * -uy; // signed distance along the outward (right) normal
      if (s < 0 && al > 0 && al < 1) {
        this.nx = -ux;
        this.ny = -uy;
        this.pen = r - s;
        return true;
      }
      if (s < 0) return false;
    }
    if (d > 1e-12) {
      this.nx = dx / d;
      this.ny = dy / d;
    } else {
      let side = (p0x - a1x) * ux + (p0y - a1y) * uy;
      if (oneSided) side = -1;
      this.nx = side >= 0 ? ux : -ux;
      this.ny = side >= 0 ? uy : -uy;
    }
    this.pen = r - d;
    return true;
  }

  /**
   * With contact in the solve, a covered (inelastic) contact within the outer
   * (1 − filterFraction) of the radius is only recorded (impulse: the penalty's
   * κ·pen·h); deeper penetration goes to the filter, for the part beyond that band.
   */
  private gate(world: PhysicsWorld, k: number, i: number, item: number, rtot: number, cx: number, cy: number): boolean {
    if (!this.implicitOn || this.corOf(world, item) > 0 || (item >= 0 && item < this.nE && !this.implicitBodies)) return true;
    const keep = (1 - this.filterFraction) * rtot;
    if (this.pen > keep) {
      this.pen -= keep;
      return true;
    }
    const w = this.invMass[i]!;
    this.record(k, 0, cx, cy);
    this.pairImp[k] = w > 0 ? (this.stiffness * this.pen) / (w * world.dt) : 0;
    return false;
  }

  /** Coefficient of restitution of a pair's surface. */
  private corOf(world: PhysicsWorld, item: number): number {
    const nE = this.nE, nS = this.nS, nC = this.nC;
    if (item < nE) return this.cor;
    const col = item < nE + nS ? this.segCol[item - nE]! : item < nE + nS + nC ? this.circCol[item - nE - nS]! : this.polyCol[item - nE - nS - nC]!;
    const c = world.c.Collider.cor[world.colliders[col]!]!;
    return c >= 0 ? c : this.cor;
  }

  /** Friction coefficient of a pair's surface (half-planes and body edges: the world's). */
  private frictionOfItem(world: PhysicsWorld, item: number): number {
    const nE = this.nE, nS = this.nS, nC = this.nC;
    if (item < nE) return this.friction;
    return this.frictionOf(world, item < nE + nS ? this.segCol[item - nE]! : item < nE + nS + nC ? this.circCol[item - nE - nS]! : this.polyCol[item - nE - nS - nC]!);
  }

  private frictionOf(world: PhysicsWorld, col: number): number {
    const f = world.c.Collider.friction[world.colliders[col]!]!;
    return f >= 0 ? f : this.friction;
  }

  /** Edge (a, b) is the particle's own boundary edge or one next to it (no self contact there). */
  private adjacent(i: number, a: number, b: number): boolean {
    if (a === i || b === i) return true;
    const p = this.nbA[i]!, q = this.nbB[i]!;
    return a === p || b === p || a === q || b === q;
  }

  /**
   * Contact candidates for the implicit solve: every particle against the half-planes,
   * colliders and body edges its swept box (start → predicted x + h v, grown by its radius
   * plus a margin) meets, linearized at the start of the step (src/collision/implicit.ts).
   */
  private buildCandidates(world: PhysicsWorld): void {
    const pot = this.potential;
    pot.clear();
    const t = world.topology();
    const x0 = this.x0, v0 = this.v0, h = world.dt, n = this.n;
    const nE = this.nE, nS = this.nS, nC = this.nC;
    const nItems = nE + nS + nC;
    const ks = this.stiffness / (h * h);
    const eps = this.frictionEpsV * h;
    // predicted end positions into xp (reusing the polygon-free scratch)
    this.xp = growF(this.xp, 2 * n);
    const xp = this.xp;
    for (let q = 0; q < 2 * n; q++) xp[q] = x0[q]! + h * v0[q]!;
    let cell = this.cellSize;
    if (!(cell > 0)) cell = this.meanEdge > 0 ? 2 * this.meanEdge : Math.max(8 * this.maxRadius, 0.1);
    const hash = this.hash;
    hash.begin(nItems, cell);
    const mr = 2 * this.maxRadius;
    for (let k = 0; k < nE; k++) {
      const a = 2 * this.ea[k]!, b = 2 * this.eb[k]!;
      const r = this.eRad[k]! + mr;
      hash.setBox(k,
        Math.min(x0[a]!, x0[b]!, xp[a]!, xp[b]!) - r, Math.min(x0[a + 1]!, x0[b + 1]!, xp[a + 1]!, xp[b + 1]!) - r,
        Math.max(x0[a]!, x0[b]!, xp[a]!, xp[b]!) + r, Math.max(x0[a + 1]!, x0[b + 1]!, xp[a + 1]!, xp[b + 1]!) + r);
    }
    const sg = this.seg;
    for (let k = 0; k < nS; k++) {
      const o = 8 * k, r = this.segRad[k]! + mr;
      hash.setBox(nE + k,
        Math.min(sg[o]!, sg[o + 2]!, sg[o + 4]!, sg[o + 6]!) - r, Math.min(sg[o + 1]!, sg[o + 3]!, sg[o + 5]!, sg[o + 7]!) - r,
        Math.max(sg[o]!, sg[o + 2]!, sg[o + 4]!, sg[o + 6]!) + r, Math.max(sg[o + 1]!, sg[o + 3]!, sg[o + 5]!, sg[o + 7]!) + r);
    }
    const ci = this.circ;
    for (let k = 0; k < nC; k++) {
      const o = 5 * k, r = ci[o + 4]! + mr;
      hash.setBox(nE + nS + k,
        Math.min(ci[o]!, ci[o + 2]!) - r, Math.min(ci[o + 1]!, ci[o + 3]!) - r,
        Math.max(ci[o]!, ci[o + 2]!) + r, Math.max(ci[o + 1]!, ci[o + 3]!) + r);
    }
    hash.build();
    const H = world.c.Halfplane, hps = world.halfplanes, K = world.c.Collider;
    const pattern = t.pattern;
    const mass = t.mass;
    for (let i = 0; i < n; i++) {
      const r = this.radius[i]!;
      const slack = r;
      const X0 = x0[2 * i]!, Y0 = x0[2 * i + 1]!, X1 = xp[2 * i]!, Y1 = xp[2 * i + 1]!;
      const mi = this.invMass[i]! > 0 ? mass[2 * i]! : 0;
      if (mi > 0 && this.cor <= 0) {
        for (let q = 0; q < hps.length; q++) {
          const e = hps[q]!;
          const nx = H.nx[e]!, ny = H.ny[e]!;
          const c0 = H.px[e]! * nx + H.py[e]! * ny;
          const d = Math.min(X0 * nx + Y0 * ny, X1 * nx + Y1 * ny) - c0;
          if (d < r + slack) pot.add(pattern, x0, i, -1, -1, 0, nx, ny, c0, r, ks * mi, this.friction, 0, eps);
        }
      }
      if (nItems === 0) continue;
      const g = r + slack;
      const cnt = hash.query(Math.min(X0, X1) - g, Math.min(Y0, Y1) - g, Math.max(X0, X1) + g, Math.max(Y0, Y1) + g, this.cand);
      const buf = this.cand.buf;
      for (let a = 1; a < cnt; a++) {
        const v = buf[a]!;
        let b = a - 1;
        while (b >= 0 && buf[b]! > v) {
          buf[b + 1] = buf[b]!;
          b--;
        }
        buf[b + 1] = v;
      }
      for (let c = 0; c < cnt; c++) {
        const item = buf[c]!;
        if (item < nE) {
          if (!this.implicitBodies || this.surface[i] === 0 || this.cor > 0) continue;
          const a = this.ea[item]!, b = this.eb[item]!;
          if (this.adjacent(i, a, b)) continue;
          const m = mi > 0 ? mi : 0.5 * ((this.invMass[a]! > 0 ? mass[2 * a]! : 0) + (this.invMass[b]! > 0 ? mass[2 * b]! : 0));
          if (!(m > 0)) continue;
          this.edgeCandidate(pattern, i, a, b, item, r + this.eRad[item]!, slack, ks * m, eps);
          continue;
        }
        if (!(mi > 0)) continue;
        if (item < nE + nS) {
          const s = item - nE, o = 8 * s, col = this.segCol[s]!;
          if (this.corOf(world, item) > 0) continue;
          const rr = r + this.segRad[s]!;
          // side and normal from the start pose, closest point on the end pose
          const ax = sg[o + 4]!, ay = sg[o + 5]!, bx = sg[o + 6]!, by = sg[o + 7]!;
          const al = closestAlpha(X1, Y1, ax, ay, bx, by);
          let nx: number, ny: number;
          if (al > 0 && al < 1) {
            const ex = bx - ax, ey = by - ay, l = Math.sqrt(ex * ex + ey * ey);
            const side = (sg[o + 2]! - sg[o]!) * (Y0 - sg[o + 1]!) - (sg[o + 3]! - sg[o + 1]!) * (X0 - sg[o]!);
            nx = (side >= 0 ? -ey : ey) / l;
            ny = (side >= 0 ? ex : -ex) / l;
          } else {
            const vx = al === 0 ? sg[o]! : sg[o + 2]!, vy = al === 0 ? sg[o + 1]! : sg[o + 3]!;
            const dx = X0 - vx, dy = Y0 - vy, l = Math.sqrt(dx * dx + dy * dy);
            if (!(l > 1e-12)) continue;
            nx = dx / l;
            ny = dy / l;
          }
          const cx = ax + al * (bx - ax), cy = ay + al * (by - ay);
          const sx = (1 - al) * sg[o]! + al * sg[o + 2]!, sy = (1 - al) * sg[o + 1]! + al * sg[o + 3]!;
          const c0 = nx * cx + ny * cy;
          const d0 = nx * (X0 - sx) + ny * (Y0 - sy), d1 = nx * X1 + ny * Y1 - c0;
          if (Math.min(d0, d1) >= rr + slack) continue;
          const st = -ny * (cx - sx) + nx * (cy - sy);
          pot.add(pattern, x0, i, -1, -1, 0, nx, ny, c0, rr, ks * mi, this.frictionOf(world, col), st, eps);
        } else if (item < nE + nS + nC) {
          const cc = item - nE - nS, o = 5 * cc, col = this.circCol[cc]!;
          if (this.corOf(world, item) > 0) continue;
          const R = ci[o + 4]!, rr = r + R;
          let nx = X0 - ci[o]!, ny = Y0 - ci[o + 1]!;
          const l = Math.sqrt(nx * nx + ny * ny);
          if (l > 1e-12) {
            nx /= l;
            ny /= l;
          } else {
            nx = 0;
            ny = 1;
          }
          const c0 = nx * ci[o + 2]! + ny * ci[o + 3]!;
          const d0 = l, d1 = nx * X1 + ny * Y1 - c0;
          if (Math.min(d0, d1) >= rr + slack) continue;
          const e = world.colliders[col]!;
          const st = -ny * (ci[o + 2]! - ci[o]!) + nx * (ci[o + 3]! - ci[o + 1]!) + h * K.omega[e]! * R;
          pot.add(pattern, x0, i, -1, -1, 0, nx, ny, c0, rr, ks * mi, this.frictionOf(world, col), st, eps);
        }
      }
    }
  }

  /** Candidate particle i against body edge (a, b), linearized at the predicted state. */
  private edgeCandidate(pattern: SymPattern, i: number, a: number, b: number, item: number, rr: number, slack: number, kappa: number, eps: number): void {
    const x0 = this.x0, xp = this.xp;
    const i2 = 2 * i, a2 = 2 * a, b2 = 2 * b;
    const oneSided = this.eOneSided[item] === 1;
    const al = closestAlpha(xp[i2]!, xp[i2 + 1]!, xp[a2]!, xp[a2 + 1]!, xp[b2]!, xp[b2 + 1]!);
    const ex = x0[b2]! - x0[a2]!, ey = x0[b2 + 1]! - x0[a2 + 1]!, l = Math.sqrt(ex * ex + ey * ey);
    if (!(l > 0)) return;
    const ox = ey / l, oy = -ex / l; // outward (right) normal at the start
    const s0 = (x0[i2]! - x0[a2]!) * ox + (x0[i2 + 1]! - x0[a2 + 1]!) * oy;
    let nx: number, ny: number;
    if (al > 0 && al < 1) {
      if (oneSided) {
        if (s0 < -rr) return; // already deep inside: not this edge's business
        nx = ox;
        ny = oy;
      } else {
        nx = s0 >= 0 ? ox : -ox;
        ny = s0 >= 0 ? oy : -oy;
      }
    } else {
      if (oneSided && al === 1) return; // the vertex is the next boundary edge's a
      const v2 = al === 0 ? a2 : b2;
      const dx = x0[i2]! - x0[v2]!, dy = x0[i2 + 1]! - x0[v2 + 1]!, d = Math.sqrt(dx * dx + dy * dy);
      if (!(d > 1e-12)) return;
      nx = dx / d;
      ny = dy / d;
      if (oneSided && nx * ox + ny * oy < 0 && s0 < 0) return;
    }
    const be = 1 - al;
    const d0 = nx * (x0[i2]! - be * x0[a2]! - al * x0[b2]!) + ny * (x0[i2 + 1]! - be * x0[a2 + 1]! - al * x0[b2 + 1]!);
    const d1 = nx * (xp[i2]! - be * xp[a2]! - al * xp[b2]!) + ny * (xp[i2 + 1]! - be * xp[a2 + 1]! - al * xp[b2 + 1]!);
    if (Math.min(d0, d1) >= rr + slack) return;
    this.potential.add(pattern, x0, i, a, b, al, nx, ny, 0, rr, kappa, this.friction, 0, eps);
  }

  private respondCollider(world: PhysicsWorld, k: number, i: number, col: number, cx: number, cy: number): void {
    const K = world.c.Collider;
    const e = world.colliders[col]!;
    const om = K.omega[e]!;
    const svx = K.vx[e]! - om * (cy - K.py[e]!);
    const svy = K.vy[e]! + om * (cx - K.px[e]!);
    const cor = K.cor[e]! >= 0 ? K.cor[e]! : this.cor;
    const mu = K.friction[e]! >= 0 ? K.friction[e]! : this.friction;
    this.applyStatic(world, k, i, svx, svy, cx, cy, cor, mu);
  }

  /** Velocity filter + penetration correction against an infinitely heavy surface moving at (svx, svy). */
  private applyStatic(world: PhysicsWorld, k: number, i: number, svx: number, svy: number, cx: number, cy: number, cor: number, mu: number): void {
    if (cor <= 0 && this.response === 'projection') {
      this.projectStatic(world, k, i, svx, svy, cx, cy, mu);
      return;
    }
    if (this.passA) return;
    const x = world.x, v = world.v;
    const i2 = 2 * i;
    const nx = this.nx, ny = this.ny, pen = this.pen, h = world.dt;
    x[i2] = x[i2]! + pen * nx;
    x[i2 + 1] = x[i2 + 1]! + pen * ny;
    let rvx = v[i2]! - svx, rvy = v[i2 + 1]! - svy;
    const vn = rvx * nx + rvy * ny;
    let jn = 0;
    if (vn < 0 || pen > 0) {
      // The solve's acceleration into the normal (only its pull towards the surface counts).
      const v0 = this.v0;
      let an = ((v[i2]! - v0[i2]!) * nx + (v[i2 + 1]! - v0[i2 + 1]!) * ny) / h;
      if (an > 0) an = 0;
      // u: end-of-step normal velocity (the stored one is a mid-step velocity for
      // Euler-type integrators). Reflect it by the COR, then pay the lift `pen`
      // against the pull from it, so the response never adds energy.
      const half = 0.5 * h * cor * an;
      const u = vn + half;
      const mag2 = (u < 0 ? cor * cor * u * u : u * u) + 2 * an * pen;
      const vnNew = Math.sqrt(mag2 > 0 ? mag2 : 0) - half;
      const dvn = vnNew - vn;
      rvx += dvn * nx;
      rvy += dvn * ny;
      if (dvn > 0) {
        jn = dvn;
        const tx = rvx - vnNew * nx, ty = rvy - vnNew * ny;
        const vt = Math.sqrt(tx * tx + ty * ty);
        const dvt = Math.min(vt, mu * dvn);
        if (vt > 0) {
          rvx -= (dvt * tx) / vt;
          rvy -= (dvt * ty) / vt;
          // The solve already moved the particle by h·v: friction takes back its share of that slide.
          x[i2] = x[i2]! - (h * dvt * tx) / vt;
          x[i2 + 1] = x[i2 + 1]! - (h * dvt * ty) / vt;
        }
      }
    }
    v[i2] = rvx + svx;
    v[i2 + 1] = rvy + svy;
    this.record(k, jn / this.invMass[i]!, cx, cy);
  }

  /**
   * Projection against an infinitely heavy surface moving at (svx, svy): move the particle
   * out by the penetration, then take back its tangential slip relative to the surface over
   * the step, at most μ × the normal correction (static friction when the slip is within it).
   */
  private projectStatic(world: PhysicsWorld, k: number, i: number, svx: number, svy: number, cx: number, cy: number, mu: number): void {
    const x = world.x, x0 = this.x0, dp = this.dproj, h = world.dt;
    const i2 = 2 * i;
    const nx = this.nx, ny = this.ny, pen = this.pen;
    let mx = pen * nx, my = pen * ny;
    // slip over the step (after the normal correction), tangential part
    const sx = x[i2]! + mx - x0[i2]! - h * svx, sy = x[i2 + 1]! + my - x0[i2 + 1]! - h * svy;
    const sn = sx * nx + sy * ny;
    const tx = sx - sn * nx, ty = sy - sn * ny;
    const st = Math.sqrt(tx * tx + ty * ty);
    if (st > 0) {
      const lim = mu * pen;
      const f = st <= lim ? 1 : lim / st;
      mx -= f * tx;
      my -= f * ty;
    }
    x[i2] = x[i2]! + mx;
    x[i2 + 1] = x[i2 + 1]! + my;
    dp[i2] = dp[i2]! + mx;
    dp[i2 + 1] = dp[i2 + 1]! + my;
    this.pairProj[k] = 1;
    this.projected = true;
    this.record(k, (pen / h) / this.invMass[i]!, cx, cy);
  }

  /** Projection of particle i out of body edge (a, b) at the narrow phase's alpha: mass-weighted, with positional Coulomb friction. */
  private projectEdge(world: PhysicsWorld, k: number, i: number, a: number, b: number): void {
    const x = world.x, x0 = this.x0, dp = this.dproj;
    const al = this.alpha, be = 1 - al;
    const wi = this.invMass[i]!, wa = this.invMass[a]!, wb = this.invMass[b]!;
    const w = wi + be * be * wa + al * al * wb;
    if (!(w > 0)) return;
    const nx = this.nx, ny = this.ny, pen = this.pen;
    const i2 = 2 * i, a2 = 2 * a, b2 = 2 * b;
    // generalized correction c (applied as +wi c to i, −be wa c to a, −al wb c to b): normal part pen / w
    let cx = (pen / w) * nx, cy = (pen / w) * ny;
    // relative slip over the step after the normal correction
    const rx = x[i2]! - x0[i2]! - be * (x[a2]! - x0[a2]!) - al * (x[b2]! - x0[b2]!) + pen * nx;
    const ry = x[i2 + 1]! - x0[i2 + 1]! - be * (x[a2 + 1]! - x0[a2 + 1]!) - al * (x[b2 + 1]! - x0[b2 + 1]!) + pen * ny;
    const rn = rx * nx + ry * ny;
    const tx = rx - rn * nx, ty = ry - rn * ny;
    const st = Math.sqrt(tx * tx + ty * ty);
    if (st > 0) {
      const lim = this.friction * pen;
      const f = st <= lim ? 1 : lim / st;
      cx -= (f * tx) / w;
      cy -= (f * ty) / w;
    }
    x[i2] = x[i2]! + wi * cx;
    x[i2 + 1] = x[i2 + 1]! + wi * cy;
    x[a2] = x[a2]! - be * wa * cx;
    x[a2 + 1] = x[a2 + 1]! - be * wa * cy;
    x[b2] = x[b2]! - al * wb * cx;
    x[b2 + 1] = x[b2 + 1]! - al * wb * cy;
    dp[i2] = dp[i2]! + wi * cx;
    dp[i2 + 1] = dp[i2 + 1]! + wi * cy;
    dp[a2] = dp[a2]! - be * wa * cx;
    dp[a2 + 1] = dp[a2 + 1]! - be * wa * cy;
    dp[b2] = dp[b2]! - al * wb * cx;
    dp[b2 + 1] = dp[b2 + 1]! - al * wb * cy;
    this.pairProj[k] = 1;
    this.pairAl[k] = al;
    this.projected = true;
    this.record(k, pen / (w * world.dt), be * x[a2]! + al * x[b2]!, be * x[a2 + 1]! + al * x[b2 + 1]!);
  }

  /** Particle i against body edge (a, b) at the narrow phase's alpha: mass-weighted impulses and correction. */
  private respondEdge(world: PhysicsWorld, k: number, i: number, a: number, b: number): void {
    if (this.cor <= 0 && this.response === 'projection' && this.bodyProjection) {
      this.projectEdge(world, k, i, a, b);
      return;
    }
    if (this.passA) return;
    const x = world.x, v = world.v;
    const al = this.alpha, be = 1 - al;
    const wi = this.invMass[i]!, wa = this.invMass[a]!, wb = this.invMass[b]!;
    const w = wi + be * be * wa + al * al * wb;
    if (!(w > 0)) return;
    const nx = this.nx, ny = this.ny;
    const i2 = 2 * i, a2 = 2 * a, b2 = 2 * b;
    const corr = this.pen / w;
    x[i2] = x[i2]! + wi * corr * nx;
    x[i2 + 1] = x[i2 + 1]! + wi * corr * ny;
    x[a2] = x[a2]! - be * wa * corr * nx;
    x[a2 + 1] = x[a2 + 1]! - be * wa * corr * ny;
    x[b2] = x[b2]! - al * wb * corr * nx;
    x[b2 + 1] = x[b2 + 1]! - al * wb * corr * ny;
    const rvx = v[i2]! - be * v[a2]! - al * v[b2]!, rvy = v[i2 + 1]! - be * v[a2 + 1]! - al * v[b2 + 1]!;
    const vn = rvx * nx + rvy * ny;
    let Jn = 0;
    if (vn < 0) {
      Jn = (-(1 + this.cor) * vn) / w;
      const tx = rvx - vn * nx, ty = rvy - vn * ny;
      const vt = Math.sqrt(tx * tx + ty * ty);
      const Jt = Math.min(vt / w, this.friction * Jn);
      const jx = Jn * nx - (vt > 0 ? (Jt * tx) / vt : 0);
      const jy = Jn * ny - (vt > 0 ? (Jt * ty) / vt : 0);
      if (vt > 0) {
        // Friction also takes back its share of the slide the solve already made.
        const fx = (-world.dt * Jt * tx) / vt, fy = (-world.dt * Jt * ty) / vt;
        x[i2] = x[i2]! + wi * fx;
        x[i2 + 1] = x[i2 + 1]! + wi * fy;
        x[a2] = x[a2]! - be * wa * fx;
        x[a2 + 1] = x[a2 + 1]! - be * wa * fy;
        x[b2] = x[b2]! - al * wb * fx;
        x[b2 + 1] = x[b2 + 1]! - al * wb * fy;
      }
      v[i2] = v[i2]! + wi * jx;
      v[i2 + 1] = v[i2 + 1]! + wi * jy;
      v[a2] = v[a2]! - be * wa * jx;
      v[a2 + 1] = v[a2 + 1]! - be * wa * jy;
      v[b2] = v[b2]! - al * wb * jx;
      v[b2 + 1] = v[b2 + 1]! - al * wb * jy;
    }
    this.record(k, Jn, be * x[a2]! + al * x[b2]!, be * x[a2 + 1]! + al * x[b2 + 1]!);
  }

  private record(k: number, impulse: number, cx: number, cy: number): void {
    this.pairHit[k] = 1;
    this.pairImp[k] = this.pairImp[k]! + (Number.isFinite(impulse) ? impulse : 0);
    const o = 4 * k;
    this.pairGeo[o] = cx;
    this.pairGeo[o + 1] = cy;
    this.pairGeo[o + 2] = this.nx;
    this.pairGeo[o + 3] = this.ny;
  }

  /** Aggregate this step's contacts per (body, collider) and (body, body) pair; diff against the last step. */
  private collectEvents(world: PhysicsWorld): void {
    let m = 0;
    this.recKey = growF(this.recKey, this.nPairs);
    this.order = growI(this.order, this.nPairs);
    const nE = this.nE, nS = this.nS, nC = this.nC;
    for (let k = 0; k < this.nPairs; k++) {
      if (this.pairHit[k] === 0) continue;
      const i = this.pairP[k]!, item = this.pairItem[k]!;
      const actorA = this.actor(i);
      let kind = 0, other: number;
      if (item < 0) other = world.halfplanes[-item - 1]!;
      else if (item < nE) {
        kind = 1;
        other = this.actor(this.ea[item]!);
      } else if (item < nE + nS) other = world.colliders[this.segCol[item - nE]!]!;
      else if (item < nE + nS + nC) other = world.colliders[this.circCol[item - nE - nS]!]!;
      else other = world.colliders[this.polyCol[item - nE - nS - nC]!]!;
      let A = actorA, B = other;
      if (kind === 1 && B < A) {
        A = other;
        B = actorA;
      }
      this.recKey[k] = ((A + KEY_OFF) * 2 + kind) * 16777216 + (B + KEY_OFF);
      this.order[m++] = k;
    }
    const ord = this.order.subarray(0, m);
    ord.sort(this.cmp);
    // Swap pools: last step's active events stay readable for `end`.
    const prevPool = this.pool;
    this.pool = this.prevPool;
    this.prevPool = prevPool;
    this.curKeys = growF(this.curKeys, m);
    const active = this.active;
    active.length = 0;
    let nCur = 0;
    for (let s = 0; s < m; s++) {
      const k = ord[s]!;
      const key = this.recKey[k]!;
      let ev: ContactEvent;
      if (nCur > 0 && this.curKeys[nCur - 1] === key) {
        ev = active[nCur - 1]!;
        ev.impulse += this.pairImp[k]!;
        continue;
      }
      if (this.pool.length <= nCur) this.pool.push(newEvent());
      ev = this.pool[nCur]!;
      const i = this.pairP[k]!, item = this.pairItem[k]!;
      const o = 4 * k;
      ev.bodyA = this.bodyOf[i]!;
      ev.particle = this.eidOf[i]!;
      ev.x = this.pairGeo[o]!;
      ev.y = this.pairGeo[o + 1]!;
      ev.nx = this.pairGeo[o + 2]!;
      ev.ny = this.pairGeo[o + 3]!;
      ev.impulse = this.pairImp[k]!;
      if (item >= 0 && item < nE) {
        ev.bodyB = this.bodyOf[this.ea[item]!]!;
        ev.collider = -1;
      } else {
        ev.bodyB = 0;
        ev.collider = item < 0 ? world.halfplanes[-item - 1]! : world.colliders[
          item < nE + nS ? this.segCol[item - nE]! : item < nE + nS + nC ? this.circCol[item - nE - nS]! : this.polyCol[item - nE - nS - nC]!
        ]!;
      }
      this.curKeys[nCur] = key;
      active.push(ev);
      nCur++;
    }
    // Diff sorted key lists.
    this.begin.length = 0;
    this.end.length = 0;
    let a = 0, b = 0;
    const prev = this.prevKeys;
    while (a < nCur || b < this.nPrev) {
      if (b >= this.nPrev || (a < nCur && this.curKeys[a]! < prev[b]!)) {
        this.begin.push(active[a]!);
        a++;
      } else if (a >= nCur || prev[b]! < this.curKeys[a]!) {
        this.end.push(this.prevPool[b]!);
        b++;
      } else {
        a++;
        b++;
      }
    }
    const tmp = this.prevKeys;
    this.prevKeys = this.curKeys;
    this.curKeys = tmp;
    this.nPrev = nCur;
  }

  /** Contact actor of a particle: its body id, or a unique negative id when it has none. */
  private actor(i: number): number {
    const b = this.bodyOf[i]!;
    return b > 0 ? b : -(i + 1);
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
  private simpleEA: Int32Array = new Int32Array(0);
  private simpleEB: Int32Array = new Int32Array(0);

  /**
   * FOSSSim's SimpleCollisionHandler (T2M1), on the state after the integrator step:
   * every pair that overlaps and approaches gets its normal relative velocity reflected with
   * (1 + COR)/2 of a full elastic impulse, mass-weighted (fixed particles: infinite mass);
   * positions are not changed. Sources in docs/scene-format.md (Contact).
   */
  private solveSimple(world: PhysicsWorld): void {
    this.begin.length = 0;
    this.end.length = 0;
    this.active.length = 0;
    const n = this.n;
    const t = world.topology();
    const E = world.c.Edge;
    const edges = world.edges;
    const nE = edges.length;
    this.simpleEA = growI(this.simpleEA, nE);
    this.simpleEB = growI(this.simpleEB, nE);
    for (let q = 0; q < nE; q++) {
      this.simpleEA[q] = this.denseOf(t.particleEids, E.a[edges[q]!]!);
      this.simpleEB[q] = this.denseOf(t.particleEids, E.b[edges[q]!]!);
    }
    const nH = world.halfplanes.length;
    if (this.simpleOrder === 'contest') {
      for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) this.simplePP(world, i, j);
      for (let i = 0; i < n; i++) for (let q = 0; q < nE; q++) this.simplePE(world, i, q);
      for (let i = 0; i < n; i++) for (let h = 0; h < nH; h++) this.simplePH(world, i, h);
      return;
    }
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) this.simplePP(world, i, j);
      for (let q = 0; q < nE; q++) this.simplePE(world, i, q);
      for (let h = 0; h < nH; h++) this.simplePH(world, i, h);
    }
  }

  /** Inverse mass for simple mode: 0 for a fixed particle (FOSSSim: m = ∞). */
  private simpleW(world: PhysicsWorld, i: number): number {
    const t = world.topology();
    return t.fixed[i] === 1 ? 0 : 1 / t.mass[2 * i]!;
  }

  /** Particle i against particle j (i < j): n = x_j − x_i; overlap |n| < r_i + r_j, approach (v_i − v_j)·n > 0. */
  private simplePP(world: PhysicsWorld, i: number, j: number): void {
    const x = world.x, v = world.v;
    const fixed = world.topology().fixed;
    let nx = x[2 * j]! - x[2 * i]!, ny = x[2 * j + 1]! - x[2 * i + 1]!;
    const d = Math.sqrt(nx * nx + ny * ny);
    if (!(d < this.radius[i]! + this.radius[j]!)) return;
    if (!((v[2 * i]! - v[2 * j]!) * nx + (v[2 * i + 1]! - v[2 * j + 1]!) * ny > 0)) return;
    nx /= d;
    ny /= d;
    const num = (1 + this.cor) * ((v[2 * j]! - v[2 * i]!) * nx + (v[2 * j + 1]! - v[2 * i + 1]!) * ny);
    const w1 = this.simpleW(world, i), w2 = this.simpleW(world, j);
    // FOSSSim: v1 += num/(1 + m1/m2) n̂, v2 −= num/(m2/m1 + 1) n̂, i.e. num·w/(w1 + w2).
    if (fixed[i] !== 1) {
      const s = num * (w1 / (w1 + w2));
      v[2 * i] = v[2 * i]! + s * nx;
      v[2 * i + 1] = v[2 * i + 1]! + s * ny;
    }
    if (fixed[j] !== 1) {
      const s = num * (w2 / (w1 + w2));
      v[2 * j] = v[2 * j]! - s * nx;
      v[2 * j + 1] = v[2 * j + 1]! - s * ny;
    }
  }

  /** Particle i against edge q (a, b), unless i is an endpoint; closest point at clamped α. */
  private simplePE(world: PhysicsWorld, i: number, q: number): void {
    const a = this.simpleEA[q]!, b = this.simpleEB[q]!;
    if (a === i || b === i) return;
    const x = world.x, v = world.v;
    const x1x = x[2 * i]!, x1y = x[2 * i + 1]!;
    const x2x = x[2 * a]!, x2y = x[2 * a + 1]!;
    const ex = x[2 * b]! - x2x, ey = x[2 * b + 1]! - x2y;
    let al = ((x1x - x2x) * ex + (x1y - x2y) * ey) / (ex * ex + ey * ey);
    al = al > 1 ? 1 : al > 0 ? al : 0; // std::min(1, std::max(0, α)): NaN (zero-length edge) → 0
    let nx = x2x + al * ex - x1x, ny = x2y + al * ey - x1y;
    const d = Math.sqrt(nx * nx + ny * ny);
    if (!(d < this.radius[i]! + world.c.Edge.radius[world.edges[q]!]!)) return;
    const vex = v[2 * a]! + al * (v[2 * b]! - v[2 * a]!), vey = v[2 * a + 1]! + al * (v[2 * b + 1]! - v[2 * a + 1]!);
    if (!((v[2 * i]! - vex) * nx + (v[2 * i + 1]! - vey) * ny > 0)) return;
    nx /= d;
    ny /= d;
    const num = (1 + this.cor) * ((vex - v[2 * i]!) * nx + (vey - v[2 * i + 1]!) * ny);
    const w1 = this.simpleW(world, i), w2 = this.simpleW(world, a), w3 = this.simpleW(world, b), be = 1 - al;
    const W = w1 + be * be * w2 + al * al * w3;
    if (!(W > 0)) return;
    // FOSSSim: v1 += num/denom1 n̂, v2 −= (1−α) num/denom2 n̂, v3 −= α num/denom3 n̂ with
    // denom_k = m_k (1/m1 + (1−α)²/m2 + α²/m3), i.e. num·w_k/W.
    const s = num / W;
    v[2 * i] = v[2 * i]! + w1 * s * nx;
    v[2 * i + 1] = v[2 * i + 1]! + w1 * s * ny;
    v[2 * a] = v[2 * a]! - be * w2 * s * nx;
    v[2 * a + 1] = v[2 * a + 1]! - be * w2 * s * ny;
    v[2 * b] = v[2 * b]! - al * w3 * s * nx;
    v[2 * b + 1] = v[2 * b + 1]! - al * w3 * s * ny;
  }

  /**
   * Particle i against half-plane h (unit normal n̂): n = ((p − x)·n̂) n̂; overlap |n| < r_i,
   * approach v·n > 0 (either side, as FOSSSim); v −= (1 + COR)(v·n̂) n̂. FOSSSim applies it to
   * fixed particles too (their velocity still moves them).
   */
  private simplePH(world: PhysicsWorld, i: number, h: number): void {
    const x = world.x, v = world.v;
    const H = world.c.Halfplane;
    const e = world.halfplanes[h]!;
    const nx = H.nx[e]!, ny = H.ny[e]!;
    const s = (H.px[e]! - x[2 * i]!) * nx + (H.py[e]! - x[2 * i + 1]!) * ny;
    if (!(Math.abs(s) < this.radius[i]!)) return;
    const vn = v[2 * i]! * nx + v[2 * i + 1]! * ny;
    if (!(vn * s > 0)) return;
    v[2 * i] = v[2 * i]! - (1 + this.cor) * vn * nx;
    v[2 * i + 1] = v[2 * i + 1]! - (1 + this.cor) * vn * ny;
  }

  private denseOf(eids: Int32Array, eid: number): number {
    for (let i = 0; i < eids.length; i++) if (eids[i] === eid) return i;
    return -1;
  }
}
