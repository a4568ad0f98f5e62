/**
 * Kinematic colliders (game mode): segments, circles and closed polygons that move by their own
 * velocity and are not moved by contact. Owns the local polygon vertices (addPolygonVertices,
 * setup) and, per step, every collider's world-space shapes at the start and end pose of the step
 * (`update`, the kinematics stage), which the candidate search, the post-solve response and the
 * events read. Also the per-collider material lookups (COR, friction with the system's defaults).
 *
 * Shape layout (per step): segments `seg` (8 per shape: a0 b0 a1 b1, start then end pose; a
 * polygon's edges are segments of radius 0), `segRad`, `segCol`; circles `circ` (5 per shape:
 * c0 c1 R); polygons `polyCol`, their end-pose vertices `polyWorld` from `polyStartW` (count
 * `polyCountW`), boxes `polyBox` (4 each) and first edge `polySeg` (their edges are the segments
 * polySeg … polySeg + polyCountW − 1; `segPoly` is a segment's polygon, −1 for a segment collider's).
 * `*Col` is the collider's index in ctx.lists.colliders.
 * Contact item numbers (broadphase.ts) put the shapes after the nE body edges: segments, circles,
 * polygons.
 */
import type { StepContext } from '../solver/context';
import { sincosMany } from '../math/trig';
import { growF, growI } from './buffers';
import type { ContactSettings } from './settings';

export const COLLIDER_CIRCLE = 1;
export const COLLIDER_SEGMENT = 2;
export const COLLIDER_POLYGON = 3;

export class KinematicColliders {
  /** Local polygon vertices of all polygon colliders (x, y pairs; setup). */
  polyLocal: Float64Array = new Float64Array(0);
  polyLocalCount = 0;

  // ---- this step's shapes (see the header) ----
  nS = 0;
  seg: Float64Array = new Float64Array(0);
  segRad: Float64Array = new Float64Array(0);
  segCol: Int32Array = new Int32Array(0);
  /** Segment j's polygon (its index among this step's polygons), −1 for a segment collider. */
  segPoly: Int32Array = new Int32Array(0);
  nC = 0;
  circ: Float64Array = new Float64Array(0);
  circCol: Int32Array = new Int32Array(0);
  nP = 0;
  polyCol: Int32Array = new Int32Array(0);
  polyStartW: Int32Array = new Int32Array(0);
  polyCountW: Int32Array = new Int32Array(0);
  polyBox: Float64Array = new Float64Array(0);
  /** Polygon q's first edge (a segment index); its edges are counter-clockwise, the polygon on their left. */
  polySeg: Int32Array = new Int32Array(0);
  polyWorld: Float64Array = new Float64Array(0);
  /** moveColliders scratch: [0] h, then per collider its start and end angles → their sin, cos. */
  private ck: Float64Array = new Float64Array(0);
  /** The collider eids of this step (ctx.lists.colliders as an Int32Array, for moveColliders). */
  private colE: Int32Array = new Int32Array(0);

  /**
   * Replace all polygon vertices (snapshots). Vertices equal to the ones held are not written again: a store to
   * a field V8 tracks as constant deoptimizes the code optimized against it (ContactSystem.importState).
   */
  setPolygonVertices(local: Float64Array): void {
    const count = local.length / 2;
    if (!(this.polyLocalCount === count && this.polyLocal.length >= local.length && sameValues(this.polyLocal, local))) {
      this.polyLocal = Float64Array.from(local);
    }
    if (this.polyLocalCount !== count) this.polyLocalCount = count;
  }

  /** Add local polygon vertices; returns their start index. */
  addPolygonVertices(local: ArrayLike<number>): number {
    const start = this.polyLocalCount;
    this.polyLocal = growF(this.polyLocal, 2 * (start + local.length / 2));
    for (let k = 0; k < local.length; k++) this.polyLocal[2 * start + k] = local[k]!;
    this.polyLocalCount += local.length / 2;
    return start;
  }

  /**
   * Move kinematic colliders by one step and build their world-space shapes at the start and
   * end poses. An integer-only driver (counts, growth, the eid list): it runs once per step and
   * stays in V8's baseline tier, where every double would be boxed, so the math is in the primed
   * kernel moveColliders (docs/solver.md, part 5).
   */
  update(ctx: StepContext): void {
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
    this.segPoly = growI(this.segPoly, nS);
    this.circ = growF(this.circ, 5 * nC);
    this.circCol = growI(this.circCol, nC);
    this.polyCol = growI(this.polyCol, nP);
    this.polyStartW = growI(this.polyStartW, nP);
    this.polyCountW = growI(this.polyCountW, nP);
    this.polyBox = growF(this.polyBox, 4 * nP);
    this.polySeg = growI(this.polySeg, nP);
    this.polyWorld = growF(this.polyWorld, 4 * nV);
    const ck = this.ck = growF(this.ck, 1 + 4 * nCols);
    ck[0] = ctx.dt; // a tagged field (declared, then assigned): no heap number here
    moveColliders(
      nCols, colE, K.kind, K.px, K.py, K.angle, K.vx, K.vy, K.omega, K.radius, K.x1, K.y1, K.x2, K.y2,
      K.polyStart, K.polyCount, this.polyLocal, this.seg, this.segRad, this.segCol, this.segPoly, this.circ, this.circCol,
      this.polyCol, this.polyStartW, this.polyCountW, this.polyBox, this.polySeg, this.polyWorld, ck,
    );
    this.nS = nS;
    this.nC = nC;
    this.nP = nP;
  }

  /**
   * Every collider shape keeps its pose over this step (start pose = end pose, exactly: no velocity, no spin, no
   * teleport) and none is bouncy (COR > 0, its own or the system's): the candidate search, which takes shapes at
   * their end pose and leaves bouncy ones to the response, then saw every collider as the response would.
   */
  stillAndDull(ctx: StepContext, s: ContactSettings): boolean {
    for (let j = 0, shapes = this.nS + this.nC; j < shapes; j++) if (this.shapeMoved(j)) return false;
    const nCols = ctx.lists.colliders.length;
    for (let k = 0; k < nCols; k++) if (bouncyCollider(ctx, k, s)) return false;
    return true;
  }

  /**
   * Shape j (a segment, a polygon's edge included, or a circle: numbered as colliderOf's) moved over this step: its
   * start and end poses differ.
   */
  shapeMoved(j: number): boolean {
    if (j < this.nS) {
      const seg = this.seg, o = 8 * j;
      return seg[o] !== seg[o + 4] || seg[o + 1] !== seg[o + 5] || seg[o + 2] !== seg[o + 6] || seg[o + 3] !== seg[o + 7];
    }
    const circ = this.circ, o = 5 * (j - this.nS);
    return circ[o] !== circ[o + 2] || circ[o + 1] !== circ[o + 3];
  }

  /** The point x[i2], x[i2 + 1] is inside polygon q at its end pose (its vertices in polyWorld). */
  insidePolygon(q: number, x: Float64Array, i2: number): boolean {
    return insideVertices(this.polyWorld, 2 * this.polyStartW[q]!, 2, this.polyCountW[q]!, x, i2);
  }

  /**
   * The point x[i2], x[i2 + 1] is inside polygon q at its start or its end pose: a polygon's edge is one-sided for it
   * (candidates.ts, response.ts). The start pose's vertices are its edges' start points (seg, 8 apart).
   */
  insidePolygonEitherPose(q: number, x: Float64Array, i2: number): boolean {
    return this.insidePolygon(q, x, i2) || insideVertices(this.seg, 8 * this.polySeg[q]!, 8, this.polyCountW[q]!, x, i2);
  }

  /** Collider index (into ctx.lists.colliders) of shape j: segments [0, nS), circles [nS, nS + nC), then polygons. */
  colliderOf(j: number): number {
    const nS = this.nS, nC = this.nC;
    return j < nS ? this.segCol[j]! : j < nS + nC ? this.circCol[j - nS]! : this.polyCol[j - nS - nC]!;
  }
}

/**
 * The point x[i2], x[i2 + 1] is inside the closed polygon of cnt vertices v[base + stride · j], v[base + stride · j + 1]
 * (even–odd rule).
 */
function insideVertices(v: Float64Array, base: number, stride: number, cnt: number, x: Float64Array, i2: number): boolean {
  const px = x[i2]!, py = x[i2 + 1]!;
  let inside = false;
  for (let j = 0, m = cnt - 1; j < cnt; m = j++) {
    const oj = base + stride * j, om = base + stride * m;
    const xj = v[oj]!, yj = v[oj + 1]!, xm = v[om]!, ym = v[om + 1]!;
    if ((yj > py) !== (ym > py) && px < ((xm - xj) * (py - yj)) / (ym - yj) + xj) inside = !inside;
  }
  return inside;
}

/**
 * Collider `col` is bouncy (COR > 0: its own COR, or the system's when it has none). Returns a
 * boolean, not the COR: no double crosses the call.
 */
export function bouncyCollider(ctx: StepContext, col: number, s: ContactSettings): boolean {
  const c = ctx.c.Collider.cor[ctx.lists.colliders[col]!]!;
  return c >= 0 ? c > 0 : s.cor > 0;
}

/** out[i] ← collider `col`'s friction μ (its own, or the system's when it has none). */
export function frictionInto(ctx: StepContext, col: number, s: ContactSettings, out: Float64Array, i: number): void {
  const f = ctx.c.Collider.friction[ctx.lists.colliders[col]!]!;
  out[i] = f >= 0 ? f : s.friction;
}

/**
 * KinematicColliders.update's math over all colliders (cols[0..nCols)): each moves by h = ck[0] times its
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
  seg: Float64Array, segRad: Float64Array, segCol: Int32Array, segPoly: Int32Array, circ: Float64Array, circCol: Int32Array,
  polyCol: Int32Array, polyStartW: Int32Array, polyCountW: Int32Array, polyBox: Float64Array, polySeg: Int32Array, w: Float64Array,
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
      segPoly[nS] = -1;
      segCol[nS++] = k;
    } else {
      const start = polyStart[e]!, cnt = polyCount[e]!;
      polyCol[nP] = k;
      polySeg[nP] = nS;
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
        segPoly[nS] = nP;
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
  const seg = new Float64Array(8 * (NV + 1)), segRad = new Float64Array(NV + 1), segCol = new Int32Array(NV + 1), segPoly = new Int32Array(NV + 1);
  const circ = new Float64Array(5), circCol = new Int32Array(1);
  const polyCol = new Int32Array(1), polyStartW = new Int32Array(1), polyCountW = new Int32Array(1);
  const polyBox = new Float64Array(4), polySeg = new Int32Array(1), w = new Float64Array(2 * NV), ck = new Float64Array(13);
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
      seg, segRad, segCol, segPoly, circ, circCol, polyCol, polyStartW, polyCountW, polyBox, polySeg, w, ck,
    );
  }
}

/** a begins with b's numbers (bit-equal values). */
function sameValues(a: Float64Array, b: Float64Array): boolean {
  for (let k = 0; k < b.length; k++) if (!Object.is(a[k], b[k])) return false;
  return true;
}
