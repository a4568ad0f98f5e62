/**
 * Scene queries for game code (pixels, y down), on the current step state (the components, not the
 * interpolated render positions), answered on the engine's spatial hash (src/collision/hash.ts):
 *
 *   bodyAt(x, y)              the first body (creation order) with a triangle containing the point, or a
 *                             rope within its half width
 *   bodiesIn(x, y, w, h, out) bodies with a particle inside the rectangle
 *   raycast(x0, y0, x1, y1)   the nearest hit along the segment: body boundary edges (mesh edges used by
 *                             one triangle; rope segments) and colliders (circles, polygons, segments,
 *                             half-planes), with the point, the normal facing the ray and the fraction
 *   particlesNear(x, y, r, out)  particle entity ids within r
 *
 * Results are identical to the brute-force queries of queries-brute.ts (the test oracle, `brute`): the
 * same exact tests with the same arithmetic, on the candidates the hash returns. Item numbers follow the
 * brute force's iteration order (bodies in creation order, their particles / triangles / edges in local
 * order; then colliders in list order, a polygon's edges in vertex order), the hash returns items
 * ascending, and the raycast keeps the smallest item among equal distances, so ties resolve the same way.
 *
 * The index (three hashes: particles, triangles and rope segments, ray items) is built on the first query
 * after the state changed: a new step, a body added or removed, a collider added, moved or removed, a
 * teleport (`invalidate()`; call it yourself after writing positions into the components between steps).
 * Building is O(scene) once per step; a query then costs its neighbourhood (a raycast walks the cells
 * along the ray and stops past the nearest hit). After warm-up no query allocates when an `out` array is
 * passed; `raycast` returns one reused object.
 */
import { SpatialHash } from '../collision/hash';
import { growF, growI } from '../collision/buffers';
import type { Collider } from './colliders';
import {
  BruteForceQueries, boundaryEdges, colliderOutline, inTriangle, put, segDist2, truncate, type QueryBody, type QueryHost, type RaycastHit,
} from './queries-brute';

export { BruteForceQueries } from './queries-brute';
export type { QueryBody, QueryHost, RaycastHit } from './queries-brute';

/** Ray item kinds (collider shapes; body edges are [0, nEdges)). */
const RAY_SEGMENT = 0, RAY_CIRCLE = 1, RAY_HALFPLANE = 2;
/** Ray scratch: origin, direction (m); per item test result t, nx, ny; best t, nx, ny. */
const R = new Float64Array(10);
const R_AX = 0, R_AY = 1, R_DX = 2, R_DY = 3, R_T = 4, R_NX = 5, R_NY = 6, R_BT = 7, R_BNX = 8, R_BNY = 9;

export class SoftQueries<B extends QueryBody> {
  /** The brute-force queries (same answers, O(scene) per call): the test oracle. */
  readonly brute: BruteForceQueries<B>;
  /** The reused result of `raycast` (valid until the next call). */
  // fields start as non-integer doubles so V8 stores them unboxed (an integer start makes each later double write box)
  readonly hit: RaycastHit<B> = { body: null, collider: null, x: 0.5, y: 0.5, normalX: 0.5, normalY: 0.5, fraction: 0.5 };
  private readonly sim: QueryHost<B>;
  private readonly edges = new WeakMap<B, Int32Array>();
  private readonly ph = new SpatialHash(1 << 12);
  private readonly th = new SpatialHash(1 << 12);
  private readonly rh = new SpatialHash(1 << 12);
  private readonly out = { buf: new Int32Array(64) };
  private readonly pt = new Float64Array(2);
  private readonly pt2 = new Float64Array(2);
  private readonly poly = new Float64Array(8);
  // what the index was built for
  private builtStep = -1;
  private builtBodies = -1;
  private builtColliders = -1;
  private builtWorld: unknown = null;
  private stale = true;
  // particles: entity id and body index per ordinal
  private pEid: Int32Array = new Int32Array(0);
  private pBody: Int32Array = new Int32Array(0);
  // triangles and rope segments: 3 entity ids (−1 third for a segment), body index; rope radius per body
  private tNode: Int32Array = new Int32Array(0);
  private tBody: Int32Array = new Int32Array(0);
  private ropeR: Float64Array = new Float64Array(0);
  // ray items: body edges (2 entity ids, body) then collider shapes (kind, collider index, 4 numbers)
  private nEdges = 0;
  private eNode: Int32Array = new Int32Array(0);
  private eBody: Int32Array = new Int32Array(0);
  private nShapes = 0;
  private sKind: Int32Array = new Int32Array(0);
  private sCol: Int32Array = new Int32Array(0);
  private sGeo: Float64Array = new Float64Array(0);
  /** Half-plane shapes (item numbers): tested by every raycast. */
  private hpItems: Int32Array = new Int32Array(0);
  private nHp = 0;

  constructor(sim: QueryHost<B>) {
    this.sim = sim;
    this.brute = new BruteForceQueries(sim);
  }

  /** The state changed outside a step (positions written by hand): rebuild the index at the next query. */
  invalidate(): void {
    this.stale = true;
  }

  /** Boundary edges (local index pairs) of a body: triangle edges used once; a rope's segments. */
  edgesOf(b: B): Int32Array {
    let e = this.edges.get(b);
    if (!e) {
      e = boundaryEdges(b);
      this.edges.set(b, e);
    }
    return e;
  }

  /** The first body containing pixel (x, y) (creation order), or null. */
  bodyAt(px: number, py: number): B | null {
    this.ensure();
    const s = this.sim, x = s.toMetreX(px), y = s.toMetreY(py), P = s.world.c.Particle;
    const h = this.th, q = h.q;
    q[0] = x;
    q[1] = y;
    q[2] = x;
    q[3] = y;
    const n = h.queryQ(this.out), buf = this.out.buf, tn = this.tNode;
    for (let c = 0; c < n; c++) {
      const k = buf[c]!, a = tn[3 * k]!, b = tn[3 * k + 1]!, d = tn[3 * k + 2]!, body = this.tBody[k]!;
      if (d >= 0) {
        if (inTriangle(x, y, P.x[a]!, P.y[a]!, P.x[b]!, P.y[b]!, P.x[d]!, P.y[d]!)) return s.bodies[body]!;
      } else {
        const r = this.ropeR[body]!;
        if (segDist2(x, y, P.x[a]!, P.y[a]!, P.x[b]!, P.y[b]!) <= r * r) return s.bodies[body]!;
      }
    }
    return null;
  }

  /** Bodies with at least one particle inside the pixel rectangle (x, y, w, h); fills and returns `out`. */
  bodiesIn(px: number, py: number, w: number, h: number, out: B[] = []): B[] {
    this.ensure();
    const s = this.sim, P = s.world.c.Particle;
    const x0 = s.toMetreX(Math.min(px, px + w)), x1 = s.toMetreX(Math.max(px, px + w));
    const y1 = s.toMetreY(Math.min(py, py + h)), y0 = s.toMetreY(Math.max(py, py + h));
    const hh = this.ph, q = hh.q;
    q[0] = x0;
    q[1] = y0;
    q[2] = x1;
    q[3] = y1;
    const cnt = hh.queryQ(this.out), buf = this.out.buf;
    let n = 0, last = -1;
    for (let c = 0; c < cnt; c++) {
      const k = buf[c]!, body = this.pBody[k]!;
      if (body === last) continue;
      const e = this.pEid[k]!, x = P.x[e]!, y = P.y[e]!;
      if (x >= x0 && x <= x1 && y >= y0 && y <= y1) {
        put(out, n++, s.bodies[body]!);
        last = body;
      }
    }
    truncate(out, n);
    return out;
  }

  /** Particle entity ids within r px of (x, y), in body then local order; fills `out`, returns the count. */
  particlesNear(px: number, py: number, r: number, out: number[] = []): number {
    this.ensure();
    const s = this.sim, P = s.world.c.Particle, x = s.toMetreX(px), y = s.toMetreY(py), rm = r / s.pixelsPerMetre;
    const ra = Math.abs(rm), hh = this.ph, q = hh.q;
    q[0] = x - ra;
    q[1] = y - ra;
    q[2] = x + ra;
    q[3] = y + ra;
    const cnt = hh.queryQ(this.out), buf = this.out.buf;
    let n = 0;
    for (let c = 0; c < cnt; c++) {
      const e = this.pEid[buf[c]!]!;
      const dx = P.x[e]! - x, dy = P.y[e]! - y;
      if (dx * dx + dy * dy <= rm * rm) put(out, n++, e);
    }
    truncate(out, n);
    return n;
  }

  /** The nearest hit along the pixel segment (x0, y0) → (x1, y1), or null. The result object is reused. */
  raycast(px0: number, py0: number, px1: number, py1: number): RaycastHit<B> | null {
    this.ensure();
    const s = this.sim;
    const ax = s.toMetreX(px0), ay = s.toMetreY(py0), dx = s.toMetreX(px1) - ax, dy = s.toMetreY(py1) - ay;
    R[R_AX] = ax;
    R[R_AY] = ay;
    R[R_DX] = dx;
    R[R_DY] = dy;
    R[R_BT] = Infinity;
    let best = -1;
    // half-planes: every ray
    for (let k = 0; k < this.nHp; k++) best = this.tryItem(this.hpItems[k]!, best);
    // the cells along the ray (and the items too large for the grid)
    const hh = this.rh, q = hh.q, out = this.out;
    q[0] = Math.min(ax, ax + dx);
    q[1] = Math.min(ay, ay + dy);
    q[2] = Math.max(ax, ax + dx);
    q[3] = Math.max(ay, ay + dy);
    const k = hh.beginPassQ(out);
    for (let c = 0; c < k; c++) best = this.tryItem(out.buf[c]!, best);
    best = this.walk(best, k);
    if (!(R[R_BT]! <= 1)) return null;
    const h = this.hit, t = R[R_BT]!;
    if (best < this.nEdges) {
      h.body = s.bodies[this.eBody[best]!]!;
      h.collider = null;
    } else {
      h.body = null;
      h.collider = s.colliders.list[this.sCol[best - this.nEdges]!]!;
    }
    h.fraction = t;
    h.x = s.toPixelX(ax + t * dx);
    h.y = s.toPixelY(ay + t * dy);
    h.normalX = R[R_BNX]! + 0;
    h.normalY = -R[R_BNY]! + 0;
    return h;
  }

  /**
   * Walk the grid cells the ray R crosses (Amanatides–Woo), testing each cell's new items; stops past the
   * cell entry beyond the best hit. k: items already collected in this pass. Returns the best item.
   */
  private walk(best: number, k: number): number {
    const hh = this.rh, out = this.out, inv = hh.grid[1]!;
    const fx = R[R_AX]! * inv, fy = R[R_AY]! * inv, ddx = R[R_DX]! * inv, ddy = R[R_DY]! * inv;
    if (!Number.isFinite(fx + fy + ddx + ddy)) {
      // a non-finite ray: test every item once (nothing is skipped, nothing loops)
      for (let i = 0; i < this.nEdges + this.nShapes; i++) best = this.tryItem(i, best);
      return best;
    }
    let ix = Math.floor(fx), iy = Math.floor(fy);
    const ex = Math.floor(fx + ddx), ey = Math.floor(fy + ddy);
    const sx = ddx > 0 ? 1 : ddx < 0 ? -1 : 0, sy = ddy > 0 ? 1 : ddy < 0 ? -1 : 0;
    let tx = ddx > 0 ? (ix + 1 - fx) / ddx : ddx < 0 ? (fx - ix) / -ddx : Infinity;
    let ty = ddy > 0 ? (iy + 1 - fy) / ddy : ddy < 0 ? (fy - iy) / -ddy : Infinity;
    const dtx = ddx !== 0 ? 1 / Math.abs(ddx) : Infinity, dty = ddy !== 0 ? 1 / Math.abs(ddy) : Infinity;
    let cells = Math.abs(ex - ix) + Math.abs(ey - iy) + 1;
    if (cells > 1 << 22) {
      for (let i = 0; i < this.nEdges + this.nShapes; i++) best = this.tryItem(i, best);
      return best;
    }
    for (; cells > 0; cells--) {
      const k0 = k;
      k = hh.cellQ(ix, iy, out, k);
      for (let c = k0; c < k; c++) best = this.tryItem(out.buf[c]!, best);
      const next = tx < ty ? tx : ty;
      // the next cell starts beyond the ray or past the nearest hit (a small margin: boxes are grown to match)
      if (next > 1 || next > R[R_BT]! + 1e-9) break;
      if (tx < ty) {
        ix += sx;
        tx += dtx;
      } else {
        iy += sy;
        ty += dty;
      }
    }
    return best;
  }

  /** Test ray item `i`; keep it when nearer than the best, or as near with a smaller item number. */
  private tryItem(i: number, best: number): number {
    const P = this.sim.world.c.Particle;
    let hit: boolean;
    if (i < this.nEdges) {
      hit = raySegNodes(P.x, P.y, this.eNode[2 * i]!, this.eNode[2 * i + 1]!);
    } else {
      const j = i - this.nEdges, g = this.sGeo, o = 4 * j, kind = this.sKind[j]!;
      hit = kind === RAY_SEGMENT ? raySegAt(g, o, g, o + 2) : kind === RAY_CIRCLE ? rayCircleAt(g, o) : rayHalfplaneAt(g, o);
    }
    if (!hit) return best;
    const t = R[R_T]!, bt = R[R_BT]!;
    if (t < bt || (t === bt && i < best)) {
      R[R_BT] = t;
      R[R_BNX] = R[R_NX]!;
      R[R_BNY] = R[R_NY]!;
      return i;
    }
    return best;
  }

  /** Rebuild the index when the state changed since it was built. */
  private ensure(): void {
    const s = this.sim, w = s.world;
    if (!this.stale && this.builtStep === w.stepCount && this.builtBodies === s.bodies.length &&
      this.builtColliders === s.colliders.version && this.builtWorld === w) return;
    this.build();
    this.stale = false;
    this.builtStep = w.stepCount;
    this.builtBodies = s.bodies.length;
    this.builtColliders = s.colliders.version;
    this.builtWorld = w;
  }

  private build(): void {
    const s = this.sim, P = s.world.c.Particle, bodies = s.bodies;
    // counts and the cell size (twice the mean boundary edge; 0.5 m without edges)
    let nP = 0, nT = 0, nE = 0, len = 0;
    for (let bi = 0; bi < bodies.length; bi++) {
      const b = bodies[bi]!, ids = b.particles, e = this.edgesOf(b);
      nP += ids.length;
      nT += b.triangles.length > 0 ? b.triangles.length / 3 : b.kind === 'rope' ? Math.max(0, ids.length - 1) : 0;
      nE += e.length / 2;
      for (let k = 0; k < e.length; k += 2) {
        const i = ids[e[k]!]!, j = ids[e[k + 1]!]!;
        len += Math.sqrt((P.x[j]! - P.x[i]!) ** 2 + (P.y[j]! - P.y[i]!) ** 2);
      }
    }
    let cell = nE > 0 ? (2 * len) / nE : 0.5;
    if (!(cell > 1e-6) || !Number.isFinite(cell)) cell = 0.5;
    const eps = 1e-6 * cell;
    this.pEid = growI(this.pEid, nP);
    this.pBody = growI(this.pBody, nP);
    this.tNode = growI(this.tNode, 3 * nT);
    this.tBody = growI(this.tBody, nT);
    this.ropeR = growF(this.ropeR, bodies.length);
    this.eNode = growI(this.eNode, 2 * nE);
    this.eBody = growI(this.eBody, nE);
    // particles
    const ph = this.ph, pq = ph.q;
    begin(ph, nP, cell);
    let p = 0;
    for (let bi = 0; bi < bodies.length; bi++) {
      const ids = bodies[bi]!.particles;
      for (let k = 0; k < ids.length; k++, p++) {
        const e = ids[k]!;
        this.pEid[p] = e;
        this.pBody[p] = bi;
        pq[0] = P.x[e]! - eps;
        pq[1] = P.y[e]! - eps;
        pq[2] = P.x[e]! + eps;
        pq[3] = P.y[e]! + eps;
        ph.setBoxQ(p);
      }
    }
    ph.build();
    // triangles and rope segments
    const th = this.th, tq = th.q;
    begin(th, nT, cell);
    let t = 0;
    for (let bi = 0; bi < bodies.length; bi++) {
      const b = bodies[bi]!, ids = b.particles, tr = b.triangles;
      if (tr.length > 0) {
        for (let k = 0; k < tr.length; k += 3, t++) {
          const a = ids[tr[k]!]!, c = ids[tr[k + 1]!]!, d = ids[tr[k + 2]!]!;
          this.tNode[3 * t] = a;
          this.tNode[3 * t + 1] = c;
          this.tNode[3 * t + 2] = d;
          this.tBody[t] = bi;
          tq[0] = Math.min(P.x[a]!, P.x[c]!, P.x[d]!) - eps;
          tq[1] = Math.min(P.y[a]!, P.y[c]!, P.y[d]!) - eps;
          tq[2] = Math.max(P.x[a]!, P.x[c]!, P.x[d]!) + eps;
          tq[3] = Math.max(P.y[a]!, P.y[c]!, P.y[d]!) + eps;
          th.setBoxQ(t);
        }
      } else if (b.kind === 'rope') {
        const r = Math.max((b.options.width ?? 10) / 2 / s.pixelsPerMetre, s.contactRadius);
        this.ropeR[bi] = r;
        for (let k = 0; k + 1 < ids.length; k++, t++) {
          const a = ids[k]!, c = ids[k + 1]!;
          this.tNode[3 * t] = a;
          this.tNode[3 * t + 1] = c;
          this.tNode[3 * t + 2] = -1;
          this.tBody[t] = bi;
          tq[0] = Math.min(P.x[a]!, P.x[c]!) - r - eps;
          tq[1] = Math.min(P.y[a]!, P.y[c]!) - r - eps;
          tq[2] = Math.max(P.x[a]!, P.x[c]!) + r + eps;
          tq[3] = Math.max(P.y[a]!, P.y[c]!) + r + eps;
          th.setBoxQ(t);
        }
      }
    }
    th.build();
    // ray items: body edges, then collider shapes in list order (a polygon's edges in vertex order)
    let ne = 0;
    for (let bi = 0; bi < bodies.length; bi++) {
      const b = bodies[bi]!, ids = b.particles, e = this.edgesOf(b);
      for (let k = 0; k < e.length; k += 2, ne++) {
        this.eNode[2 * ne] = ids[e[k]!]!;
        this.eNode[2 * ne + 1] = ids[e[k + 1]!]!;
        this.eBody[ne] = bi;
      }
    }
    this.nEdges = ne;
    this.nShapes = 0;
    this.nHp = 0;
    const cols = s.colliders.list;
    for (let k = 0; k < cols.length; k++) this.addShapes(cols[k]!, k);
    const rh = this.rh, rq = rh.q;
    begin(rh, ne + this.nShapes, cell);
    for (let i = 0; i < ne; i++) {
      const a = this.eNode[2 * i]!, b = this.eNode[2 * i + 1]!;
      rq[0] = Math.min(P.x[a]!, P.x[b]!) - eps;
      rq[1] = Math.min(P.y[a]!, P.y[b]!) - eps;
      rq[2] = Math.max(P.x[a]!, P.x[b]!) + eps;
      rq[3] = Math.max(P.y[a]!, P.y[b]!) + eps;
      rh.setBoxQ(i);
    }
    const g = this.sGeo;
    for (let j = 0; j < this.nShapes; j++) {
      const o = 4 * j, kind = this.sKind[j]!;
      if (kind === RAY_SEGMENT) {
        rq[0] = Math.min(g[o]!, g[o + 2]!) - eps;
        rq[1] = Math.min(g[o + 1]!, g[o + 3]!) - eps;
        rq[2] = Math.max(g[o]!, g[o + 2]!) + eps;
        rq[3] = Math.max(g[o + 1]!, g[o + 3]!) + eps;
      } else if (kind === RAY_CIRCLE) {
        rq[0] = g[o]! - g[o + 2]! - eps;
        rq[1] = g[o + 1]! - g[o + 2]! - eps;
        rq[2] = g[o]! + g[o + 2]! + eps;
        rq[3] = g[o + 1]! + g[o + 2]! + eps;
      } else {
        // half-planes are tested by every ray: an empty box far away keeps them out of the cells
        rq[0] = rq[1] = rq[2] = rq[3] = NaN;
      }
      rh.setBoxQ(ne + j);
    }
    rh.build();
  }

  /** The ray shapes of collider `c` (list index k) at its current pose, as the brute force computes them. */
  private addShapes(c: Collider, k: number): void {
    const sh = c.shape, pt = this.pt, q = this.pt2;
    if (sh.kind === 'halfplane') {
      this.hpItems = growI(this.hpItems, this.nHp + 1);
      this.hpItems[this.nHp++] = this.nEdges + this.nShapes;
      this.shape(RAY_HALFPLANE, k, sh.px, sh.py, sh.nx, sh.ny);
      return;
    }
    if (sh.kind === 'circle') {
      c.posePoint(sh.cx, sh.cy, pt);
      this.shape(RAY_CIRCLE, k, pt[0]!, pt[1]!, sh.r, 0);
      return;
    }
    if (sh.kind === 'segment' && !(sh.r > 0)) {
      c.posePoint(sh.ax, sh.ay, pt);
      c.posePoint(sh.bx, sh.by, q);
      this.shape(RAY_SEGMENT, k, pt[0]!, pt[1]!, q[0]!, q[1]!);
      return;
    }
    const pts = colliderOutline(sh, this.poly), nv = sh.kind === 'segment' ? 4 : pts.length / 2;
    for (let v = 0; v < nv; v++) {
      const l = v + 1 < nv ? v + 1 : 0;
      c.posePoint(pts[2 * v]!, pts[2 * v + 1]!, pt);
      c.posePoint(pts[2 * l]!, pts[2 * l + 1]!, q);
      this.shape(RAY_SEGMENT, k, pt[0]!, pt[1]!, q[0]!, q[1]!);
    }
  }

  private shape(kind: number, col: number, a: number, b: number, c: number, d: number): void {
    const j = this.nShapes++;
    this.sKind = growI(this.sKind, j + 1);
    this.sCol = growI(this.sCol, j + 1);
    this.sGeo = growF(this.sGeo, 4 * (j + 1));
    this.sKind[j] = kind;
    this.sCol[j] = col;
    this.sGeo[4 * j] = a;
    this.sGeo[4 * j + 1] = b;
    this.sGeo[4 * j + 2] = c;
    this.sGeo[4 * j + 3] = d;
  }
}

/** Start a hash rebuild with the cell size in its grid scratch (no double crosses the call). */
function begin(h: SpatialHash, n: number, cell: number): void {
  h.grid[0] = cell;
  h.grid[1] = 1 / cell;
  h.beginQ(n);
}

// ---- ray kernels: the brute force's arithmetic, ray in R, result t, nx, ny in R; arrays and offsets only (a double
// passed to a call V8 does not inline is boxed: docs/design.md, "Scratch and calling convention") ----

/** Ray R against the segment between body particles a and b (positions X, Y). */
function raySegNodes(X: Float64Array, Y: Float64Array, a: number, b: number): boolean {
  NODES[0] = X[a]!;
  NODES[1] = Y[a]!;
  NODES[2] = X[b]!;
  NODES[3] = Y[b]!;
  return raySegAt(NODES, 0, NODES, 2);
}

/** raySegNodes' end points, interleaved for raySegAt. */
const NODES = new Float64Array(4);

/** Ray R against segment G[p], G[p + 1] – G[q], G[q + 1] (R_T, R_NX, R_NY: t in [0, 1] and the normal facing the ray). */
function raySegAt(G: Float64Array, p: number, H: Float64Array, q: number): boolean {
  const px = G[p]!, py = G[p + 1]!, qx = H[q]!, qy = H[q + 1]!;
  const ax = R[R_AX]!, ay = R[R_AY]!, dx = R[R_DX]!, dy = R[R_DY]!;
  const ex = qx - px, ey = qy - py;
  const den = dx * ey - dy * ex;
  if (den === 0) return false;
  const wx = px - ax, wy = py - ay;
  const t = (wx * ey - wy * ex) / den, u = (wx * dy - wy * dx) / den;
  if (t < 0 || t > 1 || u < 0 || u > 1) return false;
  R[R_T] = t;
  R[R_NX] = ex;
  R[R_NY] = ey;
  segNormal();
  return true;
}

/** R_NX, R_NY: the segment's direction e in, its unit normal facing the ray out. */
function segNormal(): void {
  const dx = R[R_DX]!, dy = R[R_DY]!, ex = R[R_NX]!, ey = R[R_NY]!;
  const l = Math.sqrt(ex * ex + ey * ey);
  let nx = -ey / l, ny = ex / l;
  if (nx * dx + ny * dy > 0) {
    nx = -nx;
    ny = -ny;
  }
  R[R_NX] = nx;
  R[R_NY] = ny;
}

/** Ray R against the circle of centre G[o], G[o + 1] and radius G[o + 2]. */
function rayCircleAt(G: Float64Array, o: number): boolean {
  const cx = G[o]!, cy = G[o + 1]!, r = G[o + 2]!;
  const ax = R[R_AX]!, ay = R[R_AY]!, dx = R[R_DX]!, dy = R[R_DY]!;
  const fx = ax - cx, fy = ay - cy;
  const A = dx * dx + dy * dy, B = fx * dx + fy * dy, C = fx * fx + fy * fy - r * r;
  const disc = B * B - A * C;
  if (A === 0 || disc < 0) return false;
  const t = C <= 0 ? 0 : (-B - Math.sqrt(disc)) / A;
  if (t < 0 || t > 1) return false;
  const hx = ax + t * dx - cx, hy = ay + t * dy - cy, l = Math.sqrt(hx * hx + hy * hy) || 1;
  R[R_T] = t;
  R[R_NX] = hx / l;
  R[R_NY] = hy / l;
  return true;
}

/** Ray R against the half-plane through G[o], G[o + 1] with normal G[o + 2], G[o + 3]. */
function rayHalfplaneAt(G: Float64Array, o: number): boolean {
  const px = G[o]!, py = G[o + 1]!, nx = G[o + 2]!, ny = G[o + 3]!;
  const ax = R[R_AX]!, ay = R[R_AY]!, dx = R[R_DX]!, dy = R[R_DY]!;
  const d0 = (ax - px) * nx + (ay - py) * ny;
  const dn = dx * nx + dy * ny;
  let t: number;
  if (d0 <= 0) t = 0;
  else if (dn < 0) t = -d0 / dn;
  else return false;
  if (t > 1) return false;
  R[R_T] = t;
  R[R_NX] = nx;
  R[R_NY] = ny;
  return true;
}
