/**
 * Contact detection (game mode): per-topology contact geometry (boundary edges of triangle
 * meshes, rod edges, radii, masses), kinematic colliders moved to their end-of-step pose
 * (segments, circles, polygons), and the once-per-step candidate search for the implicit solve
 * (spatial hash over body edges and collider primitives, half-planes tested directly) with the
 * contact-pattern bookkeeping (stale pairs, rate-limited rebuilds). See docs/contact.md.
 * The post-solve filter (response.ts), events (events.ts) and the orchestration (contact.ts,
 * ContactSystem) build on this class.
 */
import { rebuildSolver, type StepContext } from '../solver/context';
import { sincosMany } from '../math/trig';
import { SpatialHash } from './hash';
import { closestAlpha, GS, pointSegAt, SW, SW_T, sweptPS } from './geometry';
import { ContactPotential, KIND_CIRCLE, KIND_EDGE, KIND_PLANE, KIND_SEGMENT } from './implicit';
import { setContactPairs } from '../solver/topology';
import { findSlot } from '../solver/pattern';
import type { SymPattern } from '../solver/pattern';
import type { Topology } from '../solver/topology';

export const COLLIDER_CIRCLE = 1;
export const COLLIDER_SEGMENT = 2;
export const COLLIDER_POLYGON = 3;

/** Distance from p to the segment (a, b). */
export function pointSegDist(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const al = closestAlpha(px, py, ax, ay, bx, by);
  const dx = px - ax - al * (bx - ax), dy = py - ay - al * (by - ay);
  return Math.sqrt(dx * dx + dy * dy);
}

/** Load the SW scratch with node p and body edge (a, b), each moving P → Q (the swept point–segment layout). */
export function loadSweptNodes(P: Float64Array, Q: Float64Array, p: number, a: number, b: number): void {
  const w = SW;
  w[0] = P[p]!;
  w[1] = P[p + 1]!;
  w[2] = Q[p]!;
  w[3] = Q[p + 1]!;
  w[4] = P[a]!;
  w[5] = P[a + 1]!;
  w[6] = P[b]!;
  w[7] = P[b + 1]!;
  w[8] = Q[a]!;
  w[9] = Q[a + 1]!;
  w[10] = Q[b]!;
  w[11] = Q[b + 1]!;
}

/** Load the SW scratch with node p moving P → Q and collider segment sg[o..o+7] (start pose a0 b0, end pose a1 b1). */
export function loadSweptSegment(P: Float64Array, Q: Float64Array, p: number, sg: Float64Array, o: number): void {
  const w = SW;
  w[0] = P[p]!;
  w[1] = P[p + 1]!;
  w[2] = Q[p]!;
  w[3] = Q[p + 1]!;
  for (let j = 0; j < 8; j++) w[4 + j] = sg[o + j]!;
}

/** Does node p (at P[p], Q[p]) cross body edge (a, b) moving P → Q (swept point–segment, via the SW scratch)? */
export function sweptNodes(P: Float64Array, Q: Float64Array, p: number, a: number, b: number): boolean {
  loadSweptNodes(P, Q, p, a, b);
  sweptPS();
  return !(SW[SW_T]! < 0);
}

/** Does node p moving P → Q cross collider segment sg[o..o+7] (start pose a0 b0, end pose a1 b1)? */
export function sweptSegment(P: Float64Array, Q: Float64Array, p: number, sg: Float64Array, o: number): boolean {
  loadSweptSegment(P, Q, p, sg, o);
  sweptPS();
  return !(SW[SW_T]! < 0);
}

export function growF(a: Float64Array, n: number): Float64Array {
  if (a.length >= n) return a;
  const g = new Float64Array(Math.max(n, 2 * a.length, 16));
  g.set(a);
  return g;
}
export function growI(a: Int32Array, n: number): Int32Array {
  if (a.length >= n) return a;
  const g = new Int32Array(Math.max(n, 2 * a.length, 16));
  g.set(a);
  return g;
}

/**
 * updateColliders' math over all colliders (cols[0..nCols)): each moves by h = ck[0] times its
 * velocity; circles, segments and polygon edges get their start and end poses, polygons their
 * end-pose vertices and box. ck[1 + 4k ..] holds collider k's start and end angles, then their
 * sin, cos (sincosMany). Typed arrays and integers only, primed once per process
 * (primeColliderKernel) so that V8 runs it optimized from the first step (docs/solver.md, part 5).
 */
function moveColliders(
  nCols: number, cols: Int32Array, kindA: Uint8Array, px: Float64Array, py: Float64Array, angle: Float64Array,
  vx: Float64Array, vy: Float64Array, omega: Float64Array, radius: Float64Array,
  x1: Float64Array, y1: Float64Array, x2: Float64Array, y2: Float64Array,
  polyStart: Int32Array, polyCount: Int32Array, L: Float64Array,
  seg: Float64Array, segRad: Float64Array, segCol: Int32Array, circ: Float64Array, circCol: Int32Array,
  polyCol: Int32Array, polyStartW: Int32Array, polyCountW: Int32Array, polyBox: Float64Array, w: Float64Array,
  ck: Float64Array,
): void {
  const h = ck[0]!;
  for (let k = 0; k < nCols; k++) {
    const e = cols[k]!;
    const oa = angle[e]!;
    ck[1 + 4 * k] = oa;
    ck[3 + 4 * k] = oa + h * omega[e]!;
  }
  sincosMany(ck, 1, 2 * nCols);
  let nS = 0, nC = 0, nP = 0, nV = 0;
  for (let k = 0; k < nCols; k++) {
    const e = cols[k]!;
    const kind = kindA[e]!;
    const ox = px[e]!, oy = py[e]!, oa = angle[e]!;
    const nxp = ox + h * vx[e]!, nyp = oy + h * vy[e]!, na = oa + h * omega[e]!;
    const s0 = ck[1 + 4 * k]!, c0 = ck[2 + 4 * k]!, s1 = ck[3 + 4 * k]!, c1 = ck[4 + 4 * k]!;
    px[e] = nxp;
    py[e] = nyp;
    angle[e] = na;
    if (kind === COLLIDER_CIRCLE) {
      const o = 5 * nC;
      circ[o] = ox;
      circ[o + 1] = oy;
      circ[o + 2] = nxp;
      circ[o + 3] = nyp;
      circ[o + 4] = radius[e]!;
      circCol[nC++] = k;
    } else if (kind === COLLIDER_SEGMENT) {
      const o = 8 * nS;
      const lx1 = x1[e]!, ly1 = y1[e]!, lx2 = x2[e]!, ly2 = y2[e]!;
      seg[o] = ox + c0 * lx1 - s0 * ly1;
      seg[o + 1] = oy + s0 * lx1 + c0 * ly1;
      seg[o + 2] = ox + c0 * lx2 - s0 * ly2;
      seg[o + 3] = oy + s0 * lx2 + c0 * ly2;
      seg[o + 4] = nxp + c1 * lx1 - s1 * ly1;
      seg[o + 5] = nyp + s1 * lx1 + c1 * ly1;
      seg[o + 6] = nxp + c1 * lx2 - s1 * ly2;
      seg[o + 7] = nyp + s1 * lx2 + c1 * ly2;
      segRad[nS] = radius[e]!;
      segCol[nS++] = k;
    } else {
      const start = polyStart[e]!, cnt = polyCount[e]!;
      polyCol[nP] = k;
      polyStartW[nP] = nV;
      polyCountW[nP] = cnt;
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
        seg[o] = ox + c0 * lx - s0 * ly;
        seg[o + 1] = oy + s0 * lx + c0 * ly;
        seg[o + 2] = ox + c0 * mx - s0 * my;
        seg[o + 3] = oy + s0 * mx + c0 * my;
        seg[o + 4] = x;
        seg[o + 5] = y;
        seg[o + 6] = nxp + c1 * mx - s1 * my;
        seg[o + 7] = nyp + s1 * mx + c1 * my;
        segRad[nS] = 0;
        segCol[nS++] = k;
      }
      polyBox[4 * nP] = minx;
      polyBox[4 * nP + 1] = miny;
      polyBox[4 * nP + 2] = maxx;
      polyBox[4 * nP + 3] = maxy;
      nV += cnt;
      nP++;
    }
  }
}

let colliderKernelPrimed = false;
/**
 * Get moveColliders and sincosMany optimized before the first step (a few ms): once-per-step
 * code over 1–4 colliders never gets hot by itself, and for thousands of steps every double in
 * it was boxed (docs/solver.md, part 5). A private circle, segment and 48-gon with non-integer
 * doubles (Number feedback, not SignedSmall) and start angles in every sincos branch (tiny,
 * |x| <= pi/4, each quadrant, negative, the 2nd and 3rd reduction stages); long enough loops
 * that V8 marks both at a call boundary (regular code, not OSR), each call under one tick.
 */
function primeColliderKernel(): void {
  colliderKernelPrimed = true;
  const f = (a: number[]): Float64Array => Float64Array.from(a);
  const NV = 48;
  const cols = Int32Array.from([0, 1, 2]), kind = Uint8Array.from([COLLIDER_CIRCLE, COLLIDER_SEGMENT, COLLIDER_POLYGON]);
  const px = new Float64Array(3), py = new Float64Array(3), angle = new Float64Array(3);
  const vx = f([0.25, -0.5, 0.125]), vy = f([0.1, 0.3, -0.7]), omega = f([1.5, -2.25, 0.75]);
  const radius = f([0.3, 0.05, 0]), x1 = f([0, -0.4, 0]), y1 = f([0, 0.1, 0]), x2 = f([0, 0.6, 0]), y2 = f([0, -0.2, 0]);
  const polyStart = Int32Array.from([0, 0, 0]), polyCount = Int32Array.from([0, 0, NV]);
  const L = new Float64Array(2 * NV);
  for (let j = 0; j < NV; j++) {
    L[2 * j] = (0.3 * j) / NV - 0.1375;
    L[2 * j + 1] = (0.2 * ((j * j) % 17)) / 17 - 0.0875;
  }
  const seg = new Float64Array(8 * (NV + 1)), segRad = new Float64Array(NV + 1), segCol = new Int32Array(NV + 1);
  const circ = new Float64Array(5), circCol = new Int32Array(1);
  const polyCol = new Int32Array(1), polyStartW = new Int32Array(1), polyCountW = new Int32Array(1);
  const polyBox = new Float64Array(4), w = new Float64Array(2 * NV), ck = new Float64Array(13);
  const angles = [0, 1e-10, 0.3, -0.6, 2.1, 3.3, 4.8, -2.2, 6.4, 1.5707963267948966, 1.5707973, -1.5707963267948966];
  const many = new Float64Array(2 * 40);
  for (let it = 0; it < 40; it++) {
    for (let q = 0; q < 40; q++) many[2 * q] = angles[(it + q) % angles.length]!;
    sincosMany(many, 0, 40);
  }
  for (let it = 0; it < 60; it++) {
    for (let k = 0; k < 3; k++) {
      px[k] = 0.1 * k - 0.35;
      py[k] = 0.2 - 0.15 * k;
      angle[k] = angles[(it + 5 * k) % angles.length]!;
    }
    ck[0] = 0.0125 + 0.001 * (it & 7);
    moveColliders(
      3, cols, kind, px, py, angle, vx, vy, omega, radius, x1, y1, x2, y2, polyStart, polyCount, L,
      seg, segRad, segCol, circ, circCol, polyCol, polyStartW, polyCountW, polyBox, w, ck,
    );
  }
}

export class ContactDetection {
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
  /** [0]: tokens left (−1 before the first step); a Float64Array: no heap number per refill. */
  protected readonly tokens = new Float64Array([-1]);
  protected stepNo = 0;
  /** Per contact pair of the topology: the last step it was a candidate. */
  protected pairSeen: Int32Array = new Int32Array(0);
  /** Per pattern slot: the contact pair whose (hi, lo) xx entry it is, −1 otherwise. */
  protected slotPair: Int32Array = new Int32Array(0);
  protected slotPatternRef: SymPattern | null = null;
  protected seenTopoRef: unknown = null;
  /** Candidates of the last solve assembled with the diagonal majorizer (their pattern rebuild deferred). */
  majorized = 0;
  /** Rebuilds deferred by the rate limit, and contact pairs dropped as stale, since creation. */
  deferredRebuilds = 0;
  droppedPairs = 0;
  /** Contact-pattern growths (pattern + symbolic factorization rebuilt) and their total cost (ms). */
  patternGrowths = 0;
  protected growthsAtStep = 0;
  msPatternGrowth = 0;
  /** This step's candidate potentials (valid while implicit contact is on). */
  readonly potential = new ContactPotential();
  protected implicitOn = false;

  // ---- per topology ----
  protected topoRef: unknown = null;
  protected n = 0;
  protected invMass: Float64Array = new Float64Array(0);
  protected radius: Float64Array = new Float64Array(0);
  protected bodyOf: Int32Array = new Int32Array(0);
  protected eidOf: Int32Array = new Int32Array(0);
  /** Particle takes part in body–body contact (not interior to a triangle mesh). */
  protected surface: Uint8Array = new Uint8Array(0);
  /** The other endpoints of the (up to two) boundary edges at each particle, −1 if none. */
  protected nbA: Int32Array = new Int32Array(0);
  protected nbB: Int32Array = new Int32Array(0);
  protected nE = 0;
  protected ea: Int32Array = new Int32Array(0);
  protected eb: Int32Array = new Int32Array(0);
  protected eOneSided: Uint8Array = new Uint8Array(0);
  /** Per mesh boundary edge: the third node of its triangle (−1: a rod edge). */
  protected eOpp: Int32Array = new Int32Array(0);
  protected eRad: Float64Array = new Float64Array(0);
  protected meanEdge = 0;
  protected maxRadius = 0;
  protected minRadius = 0;
  /** Trust-region level of the candidate search: δ = δ₀ · 4^level (0 at the step's snapshot; +1 per refinement after a solve stopped on its box). */
  protected trustLevel = 0;
  /** Per boundary / rod edge: the box of its end points over the configurations the search covered (4 per edge). */
  protected eCore: Float64Array = new Float64Array(0);

  // ---- per step ----
  x0: Float64Array = new Float64Array(0);
  /** Local polygon vertices of all polygon colliders (x, y pairs). */
  polyLocal: Float64Array = new Float64Array(0);
  polyLocalCount = 0;
  protected nS = 0;
  protected seg: Float64Array = new Float64Array(0); // 8 per segment item: a0 b0 a1 b1
  protected segRad: Float64Array = new Float64Array(0);
  protected segCol: Int32Array = new Int32Array(0);
  protected nC = 0;
  protected circ: Float64Array = new Float64Array(0); // 5 per circle: c0x c0y c1x c1y R
  protected circCol: Int32Array = new Int32Array(0);
  protected nP = 0;
  protected polyCol: Int32Array = new Int32Array(0);
  protected polyStartW: Int32Array = new Int32Array(0); // into polyWorld (end pose)
  protected polyCountW: Int32Array = new Int32Array(0);
  protected polyBox: Float64Array = new Float64Array(0); // 4 per polygon
  protected polyWorld: Float64Array = new Float64Array(0);
  protected readonly hash = new SpatialHash();
  protected readonly sc = new Float64Array(4);
  /** moveColliders scratch: [0] h, then per collider its start and end angles → their sin, cos. */
  protected ck: Float64Array = new Float64Array(0);
  /** The collider eids of this step (ctx.lists.colliders as an Int32Array, for moveColliders). */
  protected colE: Int32Array = new Int32Array(0);
  /** Start-of-step velocities: (v − v0)/h is the acceleration the solve applied. */
  protected v0: Float64Array = new Float64Array(0);
  /** Predicted end-of-step positions x + h v (candidate search). */
  protected xp: Float64Array = new Float64Array(0);
  protected readonly cand = { buf: new Int32Array(64) };
  protected nPrev = 0;

  /** Add local polygon vertices; returns their start index. */
  addPolygonVertices(local: ArrayLike<number>): number {
    const start = this.polyLocalCount;
    this.polyLocal = growF(this.polyLocal, 2 * (start + local.length / 2));
    for (let k = 0; k < local.length; k++) this.polyLocal[2 * start + k] = local[k]!;
    this.polyLocalCount += local.length / 2;
    return start;
  }

  protected rebuild(ctx: StepContext): void {
    const t = ctx.topology;
    this.topoRef = t;
    const n = t.n;
    this.n = n;
    const P = ctx.c.Particle;
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
    const ea: number[] = [], eb: number[] = [], one: number[] = [], rad: number[] = [], opp: number[] = [];
    const inMesh = new Uint8Array(n);
    const x = ctx.x;
    const Pp = ctx.c.Particle;
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
        opp.push(tr.nodes[3 * e + ((k + 2) % 3)]!);
      }
    }
    // Rod edges (ctx.lists.edges) not on a triangle: two-sided, with their radius.
    const E = ctx.c.Edge;
    const dense = new Map<number, number>();
    for (let i = 0; i < n; i++) dense.set(t.particleEids[i]!, i);
    for (const e of ctx.lists.edges) {
      const a = dense.get(E.a[e]!), b = dense.get(E.b[e]!);
      if (a === undefined || b === undefined || use.has(key(a, b))) continue;
      ea.push(a);
      eb.push(b);
      one.push(0);
      rad.push(E.radius[e]!);
      opp.push(-1);
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
    this.eOpp = Int32Array.from(opp);
    this.eRad = Float64Array.from(rad);
    let sum = 0;
    for (let k = 0; k < ea.length; k++) {
      sum += Math.sqrt((px(eb[k]!) - px(ea[k]!)) ** 2 + (py(eb[k]!) - py(ea[k]!)) ** 2);
      if (rad[k]! > maxR) maxR = rad[k]!;
    }
    this.meanEdge = ea.length > 0 ? sum / ea.length : 0;
    this.maxRadius = maxR;
    let minR = Infinity;
    for (let i = 0; i < n; i++) if (this.radius[i]! < minR) minR = this.radius[i]!;
    this.minRadius = n > 0 ? minR : 0;
    this.eCore = new Float64Array(4 * ea.length);
    this.nPrev = 0;
  }

  /**
   * Move kinematic colliders by one step and build their world-space primitives at the start and
   * end poses. An integer-only driver (counts, growth, the eid list): it runs once per step and
   * stays in V8's baseline tier, where every double would be boxed, so the math is in the primed
   * kernel moveColliders (docs/solver.md, part 5).
   */
  protected updateColliders(ctx: StepContext): void {
    if (!colliderKernelPrimed) primeColliderKernel();
    const K = ctx.c.Collider;
    const cols = ctx.lists.colliders;
    const nCols = cols.length;
    const colE = this.colE = growI(this.colE, nCols);
    let nS = 0, nC = 0, nP = 0, nV = 0;
    for (let k = 0; k < nCols; k++) {
      const e = cols[k]!;
      colE[k] = e;
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
    const ck = this.ck = growF(this.ck, 1 + 4 * nCols);
    ck[0] = ctx.dt; // a tagged field (declared, then assigned): no heap number here
    moveColliders(
      nCols, colE, K.kind, K.px, K.py, K.angle, K.vx, K.vy, K.omega, K.radius, K.x1, K.y1, K.x2, K.y2,
      K.polyStart, K.polyCount, this.polyLocal, this.seg, this.segRad, this.segCol, this.circ, this.circCol,
      this.polyCol, this.polyStartW, this.polyCountW, this.polyBox, this.polyWorld, ck,
    );
    this.nS = nS;
    this.nC = nC;
    this.nP = nP;
  }

  /**
   * The pair's surface is bouncy (COR > 0; a collider's own COR, or the system's when it has
   * none). Returns a boolean, not the COR: no double crosses the call.
   */
  protected bouncy(ctx: StepContext, item: number): boolean {
    const nE = this.nE, nS = this.nS, nC = this.nC;
    if (item < nE) return this.cor > 0;
    const col = item < nE + nS ? this.segCol[item - nE]! : item < nE + nS + nC ? this.circCol[item - nE - nS]! : this.polyCol[item - nE - nS - nC]!;
    const c = ctx.c.Collider.cor[ctx.lists.colliders[col]!]!;
    return c >= 0 ? c > 0 : this.cor > 0;
  }

  protected frictionOf(ctx: StepContext, col: number): number {
    this.frictionInto(ctx, col, this.sc, 0);
    return this.sc[0]!;
  }

  /** out[i] ← frictionOf(ctx, col) (no double crosses the call). */
  protected frictionInto(ctx: StepContext, col: number, out: Float64Array, i: number): void {
    const f = ctx.c.Collider.friction[ctx.lists.colliders[col]!]!;
    out[i] = f >= 0 ? f : this.friction;
  }

  /** Edge (a, b) is the particle's own boundary edge or one next to it (no self contact there). */
  protected adjacent(i: number, a: number, b: number): boolean {
    if (a === i || b === i) return true;
    const p = this.nbA[i]!, q = this.nbB[i]!;
    return a === p || b === p || a === q || b === q;
  }

  /** Candidate order within a particle: half-planes first (−1, −2, …), then items ascending. */
  protected before(a: number, b: number): boolean {
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
  protected buildCandidates(ctx: StepContext, xs: Float64Array | null = null): void {
    const pot = this.potential;
    pot.clear();
    if (!xs) {
      // snapshot's call: refill the rebuild tokens here, in optimized code (the once-per-step
      // snapshot driver runs interpreted: each double operation there is a heap number)
      const tk = this.tokens, cap = this.rebuildBurst;
      tk[0] = tk[0]! < 0 ? cap : Math.min(cap, tk[0]! + this.rebuildRate * ctx.dt);
    }
    let t = ctx.topology;
    const x0 = this.x0, v0 = this.v0, h = ctx.dt, n = this.n;
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
    hash.grid[0] = cell; // begin's doubles, here in optimized code (SpatialHash.grid)
    hash.grid[1] = 1 / cell;
    hash.beginQ(nItems);
    const mr = this.maxRadius;
    // trust region's δ (see below): mr + ½ margin·rmin, ×4 per level (a refinement after a solve
    // that stopped on its box raises the level); the hash boxes of edges and particles grow by the
    // extra δ − δ₀ so the guard argument below holds for any level
    const dl0 = mr + 0.5 * this.margin * this.minRadius;
    const dl = dl0 * (1 << (2 * this.trustLevel));
    const ex = dl - dl0;
    const hq = hash.q;
    const st = pot.stageIn;
    st[7] = 0;
    const ec = this.eCore;
    for (let k = 0; k < nE; k++) {
      const a = 2 * this.ea[k]!, b = 2 * this.eb[k]!;
      const r = this.eRad[k]! + mr + ex, o = 4 * k;
      ec[o] = Math.min(x0[a]!, x0[b]!, xp[a]!, xp[b]!, xe[a]!, xe[b]!);
      ec[o + 1] = Math.min(x0[a + 1]!, x0[b + 1]!, xp[a + 1]!, xp[b + 1]!, xe[a + 1]!, xe[b + 1]!);
      ec[o + 2] = Math.max(x0[a]!, x0[b]!, xp[a]!, xp[b]!, xe[a]!, xe[b]!);
      ec[o + 3] = Math.max(x0[a + 1]!, x0[b + 1]!, xp[a + 1]!, xp[b + 1]!, xe[a + 1]!, xe[b + 1]!);
      hq[0] = ec[o]! - r;
      hq[1] = ec[o + 1]! - r;
      hq[2] = ec[o + 2]! + r;
      hq[3] = ec[o + 3]! + r;
      hash.setBoxQ(k);
    }
    const sg = this.seg;
    for (let k = 0; k < nS; k++) {
      const o = 8 * k, r = this.segRad[k]! + mr;
      hq[0] = Math.min(sg[o + 4]!, sg[o + 6]!) - r;
      hq[1] = Math.min(sg[o + 5]!, sg[o + 7]!) - r;
      hq[2] = Math.max(sg[o + 4]!, sg[o + 6]!) + r;
      hq[3] = Math.max(sg[o + 5]!, sg[o + 7]!) + r;
      hash.setBoxQ(nE + k);
    }
    const ci = this.circ;
    for (let k = 0; k < nC; k++) {
      const o = 5 * k, r = ci[o + 4]! + mr;
      hq[0] = ci[o + 2]! - r;
      hq[1] = ci[o + 3]! - r;
      hq[2] = ci[o + 2]! + r;
      hq[3] = ci[o + 3]! + r;
      hash.setBoxQ(nE + nS + k);
    }
    hash.build();
    const H = ctx.c.Halfplane, hps = ctx.lists.halfplanes, K = ctx.c.Collider;
    const mass = t.mass;
    // Trust region (docs/contact.md): each particle's box over xᵗ, x̃ (and xs), grown by δ. A query
    // box is grown by r + mr + slack + (δ − δ₀) (slack ≥ margin·rmin), an edge's by its radius + mr +
    // (δ − δ₀), so while both a particle and an edge's end points stay within δ of their boxes, a
    // pair the hash never met stays more than r̂ apart (2δ ≤ 2 mr + slack + 2 (δ − δ₀) with
    // δ₀ = mr + ½ margin·rmin); the pairs it met but rejected become guards.
    const trust = dl > 0;
    if (trust) {
      pot.beginTrust(n);
      pot.trTol[0] = 1e-6 * dl;
    }
    const tb = pot.trBox;
    let nNew = 0, nG = 0;
    for (let i = 0; i < n; i++) {
      const r = this.radius[i]!;
      const X0 = x0[2 * i]!, Y0 = x0[2 * i + 1]!, X1 = xp[2 * i]!, Y1 = xp[2 * i + 1]!, X2 = xe[2 * i]!, Y2 = xe[2 * i + 1]!;
      const slack = this.margin * r + 0.1 * (Math.abs(X1 - X0) + Math.abs(Y1 - Y0));
      const mi = this.invMass[i]! > 0 ? mass[2 * i]! : 0;
      const tlx = Math.min(X0, X1, X2) - dl, tly = Math.min(Y0, Y1, Y2) - dl;
      const thx = Math.max(X0, X1, X2) + dl, thy = Math.max(Y0, Y1, Y2) + dl;
      if (trust) {
        tb[4 * i] = tlx;
        tb[4 * i + 1] = tly;
        tb[4 * i + 2] = thx;
        tb[4 * i + 3] = thy;
      }
      if (mi > 0 && this.cor <= 0) {
        for (let q = 0; q < hps.length; q++) {
          const e = hps[q]!;
          const nx = H.nx[e]!, ny = H.ny[e]!;
          const c0 = H.px[e]! * nx + H.py[e]! * ny;
          const d = Math.min(X0 * nx + Y0 * ny, X1 * nx + Y1 * ny, X2 * nx + Y2 * ny) - c0;
          if (!(d < r + slack)) {
            // guard: the trust box reaches the plane
            if (trust && nx * (nx > 0 ? tlx : thx) + ny * (ny > 0 ? tly : thy) <= c0) {
              st[0] = nx;
              st[1] = ny;
              st[2] = c0;
              st[3] = 0;
              st[4] = r;
              st[5] = ks * mi;
              st[6] = 0;
              st[8] = eps;
              nG = this.stageGuard(nG, KIND_PLANE, i, -1, -1, -(q + 1), 1);
            }
          } else {
            st[0] = nx;
            st[1] = ny;
            st[2] = c0;
            st[3] = 0;
            st[4] = r;
            st[5] = ks * mi;
            st[6] = this.friction;
            st[8] = eps;
            pot.addStaged(KIND_PLANE, i, -1, -1, x0, -(q + 1), 1);
          }
        }
      }
      if (nItems === 0) continue;
      const g = r + mr + slack + ex;
      hq[0] = Math.min(X0, X1, X2) - g;
      hq[1] = Math.min(Y0, Y1, Y2) - g;
      hq[2] = Math.max(X0, X1, X2) + g;
      hq[3] = Math.max(Y0, Y1, Y2) + g;
      const cnt = hash.queryQ(this.cand);
      const buf = this.cand.buf;
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
          pointSegAt(x0, 2 * i, x0, a2, b2);
          const d0 = GS[0]!;
          // beyond an end (α clamped) the side of the edge's line says nothing about inside / outside
          const mid = GS[1]! > 0 && GS[1]! < 1;
          pointSegAt(xp, 2 * i, xp, a2, b2);
          const d1 = GS[0]!;
          let d2 = d1;
          if (xs) {
            pointSegAt(xs, 2 * i, xs, a2, b2);
            d2 = GS[0]!;
          }
          // side: a mesh boundary's outside (right of a→b), else the particle's side at the start
          const sl = (x0[b2]! - x0[a2]!) * (Y0 - x0[a2 + 1]!) - (x0[b2 + 1]! - x0[a2 + 1]!) * (X0 - x0[a2]!);
          // a mesh boundary edge whose triangle is inverted at the start (a folded corner) has no
          // reliable outside: it is two-sided for this step (the particle kept on its start side)
          let one = this.eOneSided[item]!;
          if (one === 1) {
            const c2 = 2 * this.eOpp[item]!;
            if ((x0[b2]! - x0[a2]!) * (x0[c2 + 1]! - x0[a2 + 1]!) - (x0[b2 + 1]! - x0[a2 + 1]!) * (x0[c2]! - x0[a2]!) <= 0) one = 0;
          }
          if (Math.min(d0, d1, d2) >= rr + slack && !sweptNodes(x0, xp, 2 * i, a2, b2) && (!xs || !sweptNodes(x0, xs, 2 * i, a2, b2))) {
            // guard: the trust boxes of the particle and the edge overlap, and the particle starts
            // outside or beyond an end (a one-sided edge is not limited from its inside: the particle may leave)
            const o = 4 * item;
            if (trust && tlx <= ec[o + 2]! + dl && thx >= ec[o]! - dl && tly <= ec[o + 3]! + dl && thy >= ec[o + 1]! - dl &&
              (one === 0 || sl < 0 || !mid)) {
              st[0] = 0;
              st[1] = 0;
              st[2] = 0;
              st[3] = 0;
              st[4] = rr;
              st[5] = ks * m;
              st[6] = 0;
              st[8] = eps;
              nG = this.stageGuard(nG, KIND_EDGE, i, a, b, item, sl < 0 ? -1 : 1);
            }
            continue;
          }
          if (one === 1 && mid && sl > rr * Math.sqrt((x0[b2]! - x0[a2]!) ** 2 + (x0[b2 + 1]! - x0[a2 + 1]!) ** 2)) continue; // deep inside
          const side = one === 1 ? -1 : sl < 0 ? -1 : 1;
          st[0] = 0;
          st[1] = 0;
          st[2] = 0;
          st[3] = 0;
          st[4] = rr;
          st[5] = ks * m;
          st[6] = this.friction;
          st[8] = eps;
          pot.addStaged(KIND_EDGE, i, a, b, x0, item, side);
          if (!this.inPattern(t.pattern, i, a)) nNew = this.newPair(nNew, i, a);
          if (!this.inPattern(t.pattern, i, b)) nNew = this.newPair(nNew, i, b);
          continue;
        }
        if (!(mi > 0) || this.bouncy(ctx, item)) continue;
        if (item < nE + nS) {
          const s = item - nE, o = 8 * s, col = this.segCol[s]!;
          const rr = r + this.segRad[s]!;
          const ax = sg[o + 4]!, ay = sg[o + 5]!, bx = sg[o + 6]!, by = sg[o + 7]!;
          pointSegAt(x0, 2 * i, sg, o + 4, o + 6);
          const d0 = GS[0]!, al = GS[1]!; // al: closestAlpha(X0, Y0, a, b), same operations
          pointSegAt(xp, 2 * i, sg, o + 4, o + 6);
          const d1 = GS[0]!;
          pointSegAt(xe, 2 * i, sg, o + 4, o + 6);
          const d2 = GS[0]!;
          if (Math.min(d0, d1, d2) >= rr + slack && !sweptSegment(x0, xp, 2 * i, sg, o) && !sweptSegment(x0, xe, 2 * i, sg, o)) {
            // guard: the trust box reaches the segment's box (end pose)
            if (trust && tlx <= Math.max(ax, bx) && thx >= Math.min(ax, bx) && tly <= Math.max(ay, by) && thy >= Math.min(ay, by)) {
              const sl = (sg[o + 2]! - sg[o]!) * (Y0 - sg[o + 1]!) - (sg[o + 3]! - sg[o + 1]!) * (X0 - sg[o]!);
              st[0] = ax;
              st[1] = ay;
              st[2] = bx;
              st[3] = by;
              st[4] = rr;
              st[5] = ks * mi;
              st[6] = 0;
              st[8] = eps;
              nG = this.stageGuard(nG, KIND_SEGMENT, i, -1, -1, item, sl < 0 ? -1 : 1);
            }
            continue;
          }
          // surface displacement over the step at the particle's closest point (tangential part: friction)
          const sx = ax + al * (bx - ax) - ((1 - al) * sg[o]! + al * sg[o + 2]!);
          const sy = ay + al * (by - ay) - ((1 - al) * sg[o + 1]! + al * sg[o + 3]!);
          const sl = (sg[o + 2]! - sg[o]!) * (Y0 - sg[o + 1]!) - (sg[o + 3]! - sg[o + 1]!) * (X0 - sg[o]!);
          st[0] = ax;
          st[1] = ay;
          st[2] = bx;
          st[3] = by;
          st[4] = rr;
          st[5] = ks * mi;
          this.frictionInto(ctx, col, st, 6);
          st[8] = eps;
          const k = pot.addStaged(KIND_SEGMENT, i, -1, -1, x0, item, sl < 0 ? -1 : 1);
          const ss = pot.slipIn;
          ss[0] = sx;
          ss[1] = sy;
          pot.addSurfaceSlipStaged(k);
        } else {
          const cc = item - nE - nS, o = 5 * cc, col = this.circCol[cc]!;
          const R = ci[o + 4]!;
          const d0 = Math.sqrt((X0 - ci[o + 2]!) ** 2 + (Y0 - ci[o + 3]!) ** 2) - R;
          const d1 = Math.sqrt((X1 - ci[o + 2]!) ** 2 + (Y1 - ci[o + 3]!) ** 2) - R;
          const d2 = Math.sqrt((X2 - ci[o + 2]!) ** 2 + (Y2 - ci[o + 3]!) ** 2) - R;
          if (Math.min(d0, d1, d2) >= r + slack) {
            // guard: the trust box reaches the circle's box (end pose)
            if (trust && tlx <= ci[o + 2]! + R && thx >= ci[o + 2]! - R && tly <= ci[o + 3]! + R && thy >= ci[o + 3]! - R) {
              st[0] = ci[o + 2]!;
              st[1] = ci[o + 3]!;
              st[2] = R;
              st[3] = 0;
              st[4] = r;
              st[5] = ks * mi;
              st[6] = 0;
              st[8] = eps;
              nG = this.stageGuard(nG, KIND_CIRCLE, i, -1, -1, item, 1);
            }
            continue;
          }
          const e = ctx.lists.colliders[col]!;
          st[0] = ci[o + 2]!;
          st[1] = ci[o + 3]!;
          st[2] = R;
          st[3] = 0;
          st[4] = r;
          st[5] = ks * mi;
          this.frictionInto(ctx, col, st, 6);
          st[8] = eps;
          const k = pot.addStaged(KIND_CIRCLE, i, -1, -1, x0, item, 1);
          // centre displacement plus the spin of the surface (ω R along the tangent)
          const tg = this.sc;
          pot.tangent(k, tg);
          const ss = pot.slipIn;
          ss[0] = ci[o + 2]! - ci[o]! + h * K.omega[e]! * R * tg[0]!;
          ss[1] = ci[o + 3]! - ci[o + 1]! + h * K.omega[e]! * R * tg[1]!;
          pot.addSurfaceSlipStaged(k);
        }
      }
    }
    // the guards after the candidates (same order: particles, then half-planes, then items)
    pot.beginGuards();
    const gb = this.gBuf, gs = this.gSt;
    for (let g = 0; g < nG; g++) {
      for (let j = 0; j < 9; j++) st[j] = gs[9 * g + j]!;
      const o = 6 * g;
      pot.addStaged(gb[o]!, gb[o + 1]!, gb[o + 2]!, gb[o + 3]!, x0, gb[o + 4]!, gb[o + 5]!);
    }
    if (nNew > 0) {
      if (this.tokens[0]! >= 1) {
        this.tokens[0] = this.tokens[0]! - 1;
        const t0 = performance.now();
        this.rebuildPattern(ctx, nNew);
        t = ctx.topology;
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
  protected mapPairs(t: Topology, seen: Int32Array | null): void {
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
  protected markSeen(t: Topology): void {
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
  protected rebuildPattern(ctx: StepContext, nNew: number): void {
    const t = ctx.topology;
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
    rebuildSolver(ctx);
    this.mapPairs(t, Int32Array.from(seen));
  }

  protected newPairs: Int32Array = new Int32Array(0);
  /** Guard pairs staged during the candidate search: kind, p, a, b, item, side (6 each) and addStaged's 9 doubles. */
  protected gBuf: Int32Array = new Int32Array(0);
  protected gSt: Float64Array = new Float64Array(0);

  /** Stage guard nG (its doubles are in the potential's stageIn); returns nG + 1. */
  protected stageGuard(nG: number, kind: number, p: number, a: number, b: number, item: number, side: number): number {
    this.gBuf = growI(this.gBuf, 6 * (nG + 1));
    this.gSt = growF(this.gSt, 9 * (nG + 1));
    const o = 6 * nG, gb = this.gBuf, gs = this.gSt, st = this.potential.stageIn;
    gb[o] = kind;
    gb[o + 1] = p;
    gb[o + 2] = a;
    gb[o + 3] = b;
    gb[o + 4] = item;
    gb[o + 5] = side;
    for (let j = 0; j < 9; j++) gs[9 * nG + j] = st[j]!;
    return nG + 1;
  }

  protected inPattern(pattern: SymPattern, i: number, j: number): boolean {
    const hi = i > j ? i : j, lo = i > j ? j : i;
    return findSlot(pattern, 2 * hi, 2 * lo) >= 0;
  }

  /** Queue pair (i, j) for the pattern (duplicates are merged when the pattern is built). */
  protected newPair(nNew: number, i: number, j: number): number {
    this.newPairs = growI(this.newPairs, 2 * (nNew + 1));
    this.newPairs[2 * nNew] = i;
    this.newPairs[2 * nNew + 1] = j;
    return nNew + 1;
  }
}
