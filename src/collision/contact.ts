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
import { ContactPotential, KIND_CIRCLE, KIND_EDGE, KIND_PLANE, KIND_SEGMENT } from './implicit';
import { setContactPairs } from '../systems/topology';
import { findSlot } from '../solver/pattern';
import type { SymPattern } from '../solver/pattern';
import type { Topology } from '../systems/topology';

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

/** Distance from p to the segment (a, b). */
function pointSegDist(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const al = closestAlpha(px, py, ax, ay, bx, by);
  const dx = px - ax - al * (bx - ax), dy = py - ay - al * (by - ay);
  return Math.sqrt(dx * dx + dy * dy);
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
  /** Broad-phase cell size (m); 0 = automatic (twice the mean boundary-edge length). */
  cellSize = 0;
  /**
   * Game mode with a game-mode implicit integrator (default on): body–body, self and inelastic
   * (COR 0) collider contacts enter the Newton solve as exact-distance penalty + lagged friction
   * potentials (src/collision/implicit.ts). After the solve only tunnelling is corrected and
   * bouncy (COR > 0) collider contacts are filtered. Other integrators use the velocity filter.
   */
  implicit = true;
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
  private tokens = -1;
  private stepNo = 0;
  /** Per contact pair of the topology: the last step it was a candidate. */
  private pairSeen: Int32Array = new Int32Array(0);
  /** Per pattern slot: the contact pair whose (hi, lo) xx entry it is, −1 otherwise. */
  private slotPair: Int32Array = new Int32Array(0);
  private slotPatternRef: SymPattern | null = null;
  private seenTopoRef: unknown = null;
  /** Candidates of the last solve assembled with the diagonal majorizer (their pattern rebuild deferred). */
  majorized = 0;
  /** Rebuilds deferred by the rate limit, and contact pairs dropped as stale, since creation. */
  deferredRebuilds = 0;
  droppedPairs = 0;
  /** Contact-pattern growths (pattern + symbolic factorization rebuilt) and their total cost (ms). */
  patternGrowths = 0;
  private growthsAtStep = 0;
  msPatternGrowth = 0;
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
  /** Pair is a barrier candidate of this step's solve: its iterates never crossed it (no correction). */
  private pairCovered: Uint8Array = new Uint8Array(0);
  private pairImp: Float64Array = new Float64Array(0);
  private pairGeo: Float64Array = new Float64Array(0); // 4 per pair: x y nx ny
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
    this.growthsAtStep = this.patternGrowths;
    if (!this.enabled) return;
    this.x0 = growF(this.x0, world.x.length);
    this.x0.set(world.x);
    this.v0 = growF(this.v0, world.v.length);
    this.v0.set(world.v);
    if (this.mode !== 'game') return;
    const t = world.topology();
    if (this.topoRef !== t) this.rebuild(world);
    this.updateColliders(world);
    if (this.implicit && world.newton !== 'fosssim' && !t.dense &&
      (world.integrator === 'implicit-euler' || world.integrator === 'linearized-implicit-euler')) {
      this.refinements = 0;
      this.stepNo++;
      const cap = this.rebuildBurst;
      this.tokens = this.tokens < 0 ? cap : Math.min(cap, this.tokens + this.rebuildRate * world.dt);
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
      const cov = new Uint8Array(m);
      cov.set(this.pairCovered);
      this.pairCovered = cov;
      this.pairImp = growF(this.pairImp, m);
      this.pairGeo = growF(this.pairGeo, 4 * m);
    }
    this.pairP[k] = p;
    this.pairItem[k] = item;
    this.pairHit[k] = 0;
    this.pairCovered[k] = 0;
    this.pairImp[k] = 0;
  }

  /** Broad phase over swept boxes x0 → x, then Gauss–Seidel passes (narrow phase + response) over the pairs. */
  private detect(world: PhysicsWorld): void {
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
    if (this.implicitOn) this.markCovered();
    // Gauss–Seidel passes: narrow phase on the current state, then response.
    // Later passes only revisit the pairs that touched in the first.
    for (let k = 0; k < this.nPairs; k++) this.resolvePair(world, k);
    for (let pass = 1; pass < this.iterations; pass++) {
      for (let k = 0; k < this.nPairs; k++) if (this.pairHit[k] === 1) this.resolvePair(world, k);
    }
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
    this.detect(world);
    let touching = 0;
    for (let k = 0; k < this.nPairs; k++) touching += this.pairHit[k]!;
    this.touching = touching;
    const st = world.lastStats;
    st.contactCandidates = this.implicitOn ? this.potential.count : 0;
    st.contactTouching = touching;
    st.contactRebuilds = this.patternGrowths - this.growthsAtStep;
    st.contactRebuildsTotal = this.patternGrowths;
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
   * With contact in the solve, a pair the solve covers (body edges; colliders with COR 0) is only
   * recorded (impulse: the penalty force × h, κ·pen·h) unless the particle tunnelled or ended
   * past the surface (pen > r̂): that is the CCD safety net's case, handled by the response
   * (back to the correct side, normal velocity removed). Bouncy contacts always go to the filter.
   */
  private gate(world: PhysicsWorld, k: number, i: number, item: number, rtot: number, cx: number, cy: number): boolean {
    if (!this.implicitOn) return true;
    if (!(item >= 0 && item < this.nE) && this.corOf(world, item) > 0) return true;
    if (this.pen > rtot && this.pairCovered[k] === 0) return true;
    const h = world.dt;
    let m = this.invMass[i]! > 0 ? 1 / this.invMass[i]! : 0;
    if (!(m > 0) && item >= 0 && item < this.nE) {
      const a = this.ea[item]!, b = this.eb[item]!;
      m = 0.5 * ((this.invMass[a]! > 0 ? 1 / this.invMass[a]! : 0) + (this.invMass[b]! > 0 ? 1 / this.invMass[b]! : 0));
    }
    this.record(k, (this.stiffness * m * this.pen) / h, cx, cy);
    return false;
  }

  /**
   * Mark the detected pairs that were barrier candidates of the solve (merge of two lists both
   * ordered by particle, then half-planes, then items ascending). Their iterates stayed
   * intersection-free (continuous collision detection in the line search), so a straight-line
   * swept test x0 → x that "crosses" them is an artefact of the iterates' bent path, not tunnelling.
   */
  private markCovered(): void {
    const pot = this.potential;
    let j = 0;
    for (let k = 0; k < this.nPairs; k++) {
      const p = this.pairP[k]!, it = this.pairItem[k]!;
      while (j < pot.count && (pot.node[3 * j]! < p || (pot.node[3 * j] === p && this.before(pot.item[j]!, it)))) j++;
      if (j < pot.count && pot.node[3 * j] === p && pot.item[j] === it && pot.barrierKappa(j) > 0) this.pairCovered[k] = 1;
    }
  }

  /** Coefficient of restitution of a pair's surface. */
  private corOf(world: PhysicsWorld, item: number): number {
    const nE = this.nE, nS = this.nS, nC = this.nC;
    if (item < nE) return this.cor;
    const col = item < nE + nS ? this.segCol[item - nE]! : item < nE + nS + nC ? this.circCol[item - nE - nS]! : this.polyCol[item - nE - nS - nC]!;
    const c = world.c.Collider.cor[world.colliders[col]!]!;
    return c >= 0 ? c : this.cor;
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

  /** Refinement solves allowed per step (see refine). */
  maxRefinements = 3;
  /** Refinement solves in the last step. */
  refinements = 0;
  private oldP: Int32Array = new Int32Array(0);
  private oldItem: Int32Array = new Int32Array(0);
  private xs: Float64Array = new Float64Array(0);
  private dxs: Float64Array = new Float64Array(0);
  private readonly gq = new Float64Array(4);

  /**
   * After a solve with contact: redo the candidate search with the solve's result xs added to
   * the swept boxes and distance tests. When a pair that was not a candidate is in contact at xs
   * (d < r̂: the solve moved a particle where the prediction x + h v never went, e.g. squeezed
   * sideways by an impact), the step is restored and solved again with the larger candidate
   * set (returns true; step.ts calls integrate again). At most `maxRefinements` per step.
   */
  refine(world: PhysicsWorld): boolean {
    if (!this.implicitOn) return false;
    if (this.refinements >= this.maxRefinements) return false;
    const pot = this.potential, m = pot.count;
    this.oldP = growI(this.oldP, m);
    this.oldItem = growI(this.oldItem, m);
    for (let k = 0; k < m; k++) {
      this.oldP[k] = pot.node[3 * k]!;
      this.oldItem[k] = pot.item[k]!;
    }
    this.xs = growF(this.xs, world.x.length);
    this.xs.set(world.x);
    this.buildCandidates(world, this.xs);
    // candidates are ordered by particle, then half-planes (item < 0, in order), then items ascending
    let j = 0, missing = false;
    const q = this.gq;
    const nx = world.x.length, x0 = this.x0;
    this.dxs = growF(this.dxs, nx);
    for (let i = 0; i < nx; i++) this.dxs[i] = this.xs[i]! - x0[i]!;
    for (let k = 0; k < pot.count && !missing; k++) {
      const p = pot.node[3 * k]!, it = pot.item[k]!;
      while (j < m && (this.oldP[j]! < p || (this.oldP[j] === p && this.before(this.oldItem[j]!, it)))) j++;
      if (j < m && this.oldP[j] === p && this.oldItem[j] === it) continue;
      // missed: in contact at the result, or the path xᵗ → result went through the surface
      pot.geom(k, this.xs, q);
      if (q[0]! < pot.radius(k) || (pot.barrierKappa(k) > 0 && pot.impactTime(k, x0, this.dxs) >= 0)) missing = true;
    }
    if (!missing) return false;
    this.refinements++;
    world.x.set(this.x0.subarray(0, world.x.length));
    world.v.set(this.v0.subarray(0, world.v.length));
    return true;
  }

  /** Candidate order within a particle: half-planes first (−1, −2, …), then items ascending. */
  private before(a: number, b: number): boolean {
    if (a < 0 && b < 0) return a > b;
    if (a < 0) return true;
    if (b < 0) return false;
    return a < b;
  }

  /**
   * Contact candidates for the implicit solve, once per step: every particle's box from xᵗ to
   * the prediction xᵗ + h v, grown by r̂ plus the margin, is queried in the spatial hash of body
   * boundary edges (other bodies' and the particle's own non-adjacent ones), collider segments,
   * polygon edges and circles (end poses); half-planes are tested directly. A pair is kept when its
   * exact distance at xᵗ or at the prediction is below r̂ + margin. Creation order of particles,
   * ascending item order within a particle: deterministic. Particle–edge pairs missing from the
   * sparsity pattern grow it (monotone union) and the linear solver is rebuilt.
   */
  private buildCandidates(world: PhysicsWorld, xs: Float64Array | null = null): void {
    const pot = this.potential;
    pot.clear();
    let t = world.topology();
    const x0 = this.x0, v0 = this.v0, h = world.dt, n = this.n;
    const nE = this.nE, nS = this.nS, nC = this.nC;
    const nItems = nE + nS + nC;
    const ks = this.stiffness / (h * h);
    const eps = this.frictionEpsV * h;
    this.xp = growF(this.xp, 2 * n);
    const xp = this.xp;
    for (let q = 0; q < 2 * n; q++) xp[q] = x0[q]! + h * v0[q]!;
    // refinement (see refine): boxes and tests also cover the last solve's result xs
    const xe = xs ?? xp;
    let cell = this.cellSize;
    if (!(cell > 0)) cell = this.meanEdge > 0 ? 2 * this.meanEdge : Math.max(8 * this.maxRadius, 0.1);
    const hash = this.hash;
    hash.begin(nItems, cell);
    const mr = this.maxRadius;
    for (let k = 0; k < nE; k++) {
      const a = 2 * this.ea[k]!, b = 2 * this.eb[k]!;
      const r = this.eRad[k]! + mr;
      hash.setBox(k,
        Math.min(x0[a]!, x0[b]!, xp[a]!, xp[b]!, xe[a]!, xe[b]!) - r, Math.min(x0[a + 1]!, x0[b + 1]!, xp[a + 1]!, xp[b + 1]!, xe[a + 1]!, xe[b + 1]!) - r,
        Math.max(x0[a]!, x0[b]!, xp[a]!, xp[b]!, xe[a]!, xe[b]!) + r, Math.max(x0[a + 1]!, x0[b + 1]!, xp[a + 1]!, xp[b + 1]!, xe[a + 1]!, xe[b + 1]!) + r);
    }
    const sg = this.seg;
    for (let k = 0; k < nS; k++) {
      const o = 8 * k, r = this.segRad[k]! + mr;
      hash.setBox(nE + k, Math.min(sg[o + 4]!, sg[o + 6]!) - r, Math.min(sg[o + 5]!, sg[o + 7]!) - r,
        Math.max(sg[o + 4]!, sg[o + 6]!) + r, Math.max(sg[o + 5]!, sg[o + 7]!) + r);
    }
    const ci = this.circ;
    for (let k = 0; k < nC; k++) {
      const o = 5 * k, r = ci[o + 4]! + mr;
      hash.setBox(nE + nS + k, ci[o + 2]! - r, ci[o + 3]! - r, ci[o + 2]! + r, ci[o + 3]! + r);
    }
    hash.build();
    const H = world.c.Halfplane, hps = world.halfplanes, K = world.c.Collider;
    const mass = t.mass;
    let nNew = 0;
    for (let i = 0; i < n; i++) {
      const r = this.radius[i]!;
      const X0 = x0[2 * i]!, Y0 = x0[2 * i + 1]!, X1 = xp[2 * i]!, Y1 = xp[2 * i + 1]!, X2 = xe[2 * i]!, Y2 = xe[2 * i + 1]!;
      const slack = this.margin * r + 0.1 * (Math.abs(X1 - X0) + Math.abs(Y1 - Y0));
      const mi = this.invMass[i]! > 0 ? mass[2 * i]! : 0;
      if (mi > 0 && this.cor <= 0) {
        for (let q = 0; q < hps.length; q++) {
          const e = hps[q]!;
          const nx = H.nx[e]!, ny = H.ny[e]!;
          const c0 = H.px[e]! * nx + H.py[e]! * ny;
          const d = Math.min(X0 * nx + Y0 * ny, X1 * nx + Y1 * ny, X2 * nx + Y2 * ny) - c0;
          if (d < r + slack) pot.add(KIND_PLANE, i, -1, -1, nx, ny, c0, 0, r, ks * mi, this.friction, 0, eps, x0, -(q + 1));
        }
      }
      if (nItems === 0) continue;
      const g = r + mr + slack;
      const cnt = hash.query(Math.min(X0, X1, X2) - g, Math.min(Y0, Y1, Y2) - g, Math.max(X0, X1, X2) + g, Math.max(Y0, Y1, Y2) + g, this.cand);
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
          if (this.surface[i] === 0) continue;
          const a = this.ea[item]!, b = this.eb[item]!;
          if (this.adjacent(i, a, b)) continue;
          const m = mi > 0 ? mi : 0.5 * ((this.invMass[a]! > 0 ? mass[2 * a]! : 0) + (this.invMass[b]! > 0 ? mass[2 * b]! : 0));
          if (!(m > 0)) continue;
          const rr = r + this.eRad[item]!;
          const a2 = 2 * a, b2 = 2 * b;
          const d0 = pointSegDist(X0, Y0, x0[a2]!, x0[a2 + 1]!, x0[b2]!, x0[b2 + 1]!);
          const d1 = pointSegDist(X1, Y1, xp[a2]!, xp[a2 + 1]!, xp[b2]!, xp[b2 + 1]!);
          const d2 = xs ? pointSegDist(X2, Y2, xs[a2]!, xs[a2 + 1]!, xs[b2]!, xs[b2 + 1]!) : d1;
          if (Math.min(d0, d1, d2) >= rr + slack &&
            sweptPointSegment(X0, Y0, X1, Y1, x0[a2]!, x0[a2 + 1]!, x0[b2]!, x0[b2 + 1]!, xp[a2]!, xp[a2 + 1]!, xp[b2]!, xp[b2 + 1]!) < 0 &&
            (!xs || sweptPointSegment(X0, Y0, X2, Y2, x0[a2]!, x0[a2 + 1]!, x0[b2]!, x0[b2 + 1]!, xs[a2]!, xs[a2 + 1]!, xs[b2]!, xs[b2 + 1]!) < 0)) continue;
          // side: a mesh boundary's outside (right of a→b), else the particle's side at the start
          const sl = (x0[b2]! - x0[a2]!) * (Y0 - x0[a2 + 1]!) - (x0[b2 + 1]! - x0[a2 + 1]!) * (X0 - x0[a2]!);
          if (this.eOneSided[item] === 1 && sl > rr * Math.sqrt((x0[b2]! - x0[a2]!) ** 2 + (x0[b2 + 1]! - x0[a2 + 1]!) ** 2)) continue; // deep inside
          const side = this.eOneSided[item] === 1 ? -1 : sl < 0 ? -1 : 1;
          pot.add(KIND_EDGE, i, a, b, 0, 0, 0, 0, rr, ks * m, this.friction, 0, eps, x0, item, side);
          if (!this.inPattern(t.pattern, i, a)) nNew = this.newPair(nNew, i, a);
          if (!this.inPattern(t.pattern, i, b)) nNew = this.newPair(nNew, i, b);
          continue;
        }
        if (!(mi > 0) || this.corOf(world, item) > 0) continue;
        if (item < nE + nS) {
          const s = item - nE, o = 8 * s, col = this.segCol[s]!;
          const rr = r + this.segRad[s]!;
          const ax = sg[o + 4]!, ay = sg[o + 5]!, bx = sg[o + 6]!, by = sg[o + 7]!;
          const d0 = pointSegDist(X0, Y0, ax, ay, bx, by), d1 = pointSegDist(X1, Y1, ax, ay, bx, by), d2 = pointSegDist(X2, Y2, ax, ay, bx, by);
          if (Math.min(d0, d1, d2) >= rr + slack && sweptPointSegment(X0, Y0, X1, Y1, sg[o]!, sg[o + 1]!, sg[o + 2]!, sg[o + 3]!, ax, ay, bx, by) < 0 &&
            sweptPointSegment(X0, Y0, X2, Y2, sg[o]!, sg[o + 1]!, sg[o + 2]!, sg[o + 3]!, ax, ay, bx, by) < 0) continue;
          // surface displacement over the step at the particle's closest point (tangential part: friction)
          const al = closestAlpha(X0, Y0, ax, ay, bx, by);
          const sx = ax + al * (bx - ax) - ((1 - al) * sg[o]! + al * sg[o + 2]!);
          const sy = ay + al * (by - ay) - ((1 - al) * sg[o + 1]! + al * sg[o + 3]!);
          const sl = (sg[o + 2]! - sg[o]!) * (Y0 - sg[o + 1]!) - (sg[o + 3]! - sg[o + 1]!) * (X0 - sg[o]!);
          const k = pot.add(KIND_SEGMENT, i, -1, -1, ax, ay, bx, by, rr, ks * mi, this.frictionOf(world, col), 0, eps, x0, item, sl < 0 ? -1 : 1);
          pot.addSurfaceSlip(k, sx, sy);
        } else {
          const cc = item - nE - nS, o = 5 * cc, col = this.circCol[cc]!;
          const R = ci[o + 4]!;
          const d0 = Math.sqrt((X0 - ci[o + 2]!) ** 2 + (Y0 - ci[o + 3]!) ** 2) - R;
          const d1 = Math.sqrt((X1 - ci[o + 2]!) ** 2 + (Y1 - ci[o + 3]!) ** 2) - R;
          const d2 = Math.sqrt((X2 - ci[o + 2]!) ** 2 + (Y2 - ci[o + 3]!) ** 2) - R;
          if (Math.min(d0, d1, d2) >= r + slack) continue;
          const e = world.colliders[col]!;
          const k = pot.add(KIND_CIRCLE, i, -1, -1, ci[o + 2]!, ci[o + 3]!, R, 0, r, ks * mi, this.frictionOf(world, col), 0, eps, x0, item);
          // centre displacement plus the spin of the surface (ω R along the tangent)
          const tg = this.sc;
          pot.tangent(k, tg);
          pot.addSurfaceSlip(k, ci[o + 2]! - ci[o]! + h * K.omega[e]! * R * tg[0]!, ci[o + 3]! - ci[o + 1]! + h * K.omega[e]! * R * tg[1]!);
        }
      }
    }
    if (nNew > 0) {
      if (this.tokens >= 1) {
        this.tokens -= 1;
        const t0 = performance.now();
        this.rebuildPattern(world, nNew);
        t = world.topology();
        this.patternGrowths++;
        this.msPatternGrowth += performance.now() - t0;
      } else {
        this.deferredRebuilds++;
      }
    }
    pot.computeSlots(t.pattern);
    this.majorized = pot.majorized;
    this.markSeen(t);
  }

  /** Per-slot contact-pair map and last-seen steps, after a pattern change (setup rate: allocates). */
  private mapPairs(t: Topology, seen: Int32Array | null): void {
    const pat = t.pattern, m = t.contactPairCount, cp = t.contactPairs;
    this.slotPair = new Int32Array(pat.nnz).fill(-1);
    for (let k = 0; k < m; k++) {
      const u = cp[2 * k]!, v = cp[2 * k + 1]!;
      const s = findSlot(pat, 2 * (u > v ? u : v), 2 * (u > v ? v : u));
      if (s >= 0 && this.slotPair[s] === -1) this.slotPair[s] = k;
    }
    this.pairSeen = seen ?? new Int32Array(m).fill(this.stepNo);
    this.slotPatternRef = pat;
    this.seenTopoRef = t;
  }

  /** Mark this step's edge candidates' contact pairs as seen (no allocation unless the pattern changed). */
  private markSeen(t: Topology): void {
    if (this.slotPatternRef !== t.pattern || this.seenTopoRef !== t) this.mapPairs(t, null);
    const pot = this.potential, sp = this.slotPair, seen = this.pairSeen, step = this.stepNo;
    for (let k = 0; k < pot.count; k++) {
      if (pot.kind[k] !== KIND_EDGE) continue;
      for (let q = 0; q < 2; q++) {
        const s = pot.offDiagonalSlot(k, q);
        if (s < 0) continue;
        const c = sp[s]!;
        if (c >= 0) seen[c] = step;
      }
    }
  }

  /**
   * Rebuild the contact pattern: keep the topology's contact pairs seen as candidates within the
   * last `staleSteps` steps, add the `nNew` queued pairs (duplicates merged), rebuild the pattern
   * and the linear solver. Setup rate (limited by the token bucket): allocates.
   */
  private rebuildPattern(world: PhysicsWorld, nNew: number): void {
    const t = world.topology();
    if (this.slotPatternRef !== t.pattern || this.seenTopoRef !== t) this.mapPairs(t, null);
    const old = t.contactPairCount, cp = t.contactPairs, n = t.n, step = this.stepNo;
    const out: number[] = [];
    const seen: number[] = [];
    const keys = new Set<number>();
    const push = (u: number, v: number, s: number): void => {
      const lo = u < v ? u : v, hi = u < v ? v : u;
      const key = lo * n + hi;
      if (keys.has(key)) return;
      keys.add(key);
      out.push(u, v);
      seen.push(s);
    };
    for (let k = 0; k < old; k++) {
      if (step - this.pairSeen[k]! > this.staleSteps) {
        this.droppedPairs++;
        continue;
      }
      push(cp[2 * k]!, cp[2 * k + 1]!, this.pairSeen[k]!);
    }
    for (let k = 0; k < nNew; k++) push(this.newPairs[2 * k]!, this.newPairs[2 * k + 1]!, step);
    setContactPairs(t, Int32Array.from(out), out.length / 2);
    world.rebuildSolver();
    this.mapPairs(t, Int32Array.from(seen));
  }

  private newPairs: Int32Array = new Int32Array(0);

  private inPattern(pattern: SymPattern, i: number, j: number): boolean {
    const hi = i > j ? i : j, lo = i > j ? j : i;
    return findSlot(pattern, 2 * hi, 2 * lo) >= 0;
  }

  /** Queue pair (i, j) for the pattern (duplicates are merged when the pattern is built). */
  private newPair(nNew: number, i: number, j: number): number {
    this.newPairs = growI(this.newPairs, 2 * (nNew + 1));
    this.newPairs[2 * nNew] = i;
    this.newPairs[2 * nNew + 1] = j;
    return nNew + 1;
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

  /** Particle i against body edge (a, b) at the narrow phase's alpha: mass-weighted impulses and correction. */
  private respondEdge(world: PhysicsWorld, k: number, i: number, a: number, b: number): void {
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
