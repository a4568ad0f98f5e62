/**
 * The brute-force scene queries: the reference (test oracle) for the spatial-hash queries of queries.ts,
 * which must give identical results. Pixels, y down, on the current step state (the components, not the
 * interpolated render positions):
 *
 *   bodyAt(x, y)              the first body (creation order) with a triangle containing the point, or a
 *                             rope within its half width
 *   bodiesIn(x, y, w, h, out) bodies with a particle inside the rectangle
 *   raycast(x0, y0, x1, y1)   the nearest hit along the segment: body boundary edges (mesh edges used by
 *                             one triangle; rope segments) and colliders (circles, polygons, segments,
 *                             half-planes), with the point, the normal facing the ray and the fraction
 *   particlesNear(x, y, r, out)  particle entity ids within r
 *
 * Brute force over bodies' triangles / boundary edges / particles and the colliders (O(size of the scene)
 * per call). Ties go to the earlier body or collider (creation order), so results are deterministic. The
 * types and the small kernels here are shared with queries.ts.
 */
import type { Collider, ColliderShape } from './colliders';
import type { PhysicsWorld } from '../world';

/** What queries read of a body (SoftBody satisfies it). */
export interface QueryBody {
  readonly kind: string;
  readonly particles: readonly number[];
  readonly triangles: Uint32Array;
  readonly options: { readonly width?: number };
}

/** What queries read of the simulation (SoftSim satisfies it). */
export interface QueryHost<B extends QueryBody> {
  readonly world: PhysicsWorld;
  readonly pixelsPerMetre: number;
  readonly contactRadius: number;
  readonly bodies: readonly B[];
  /** `version` changes whenever a collider is added, removed or moved (ColliderSet). */
  readonly colliders: { readonly list: readonly Collider[]; readonly version: number };
  toMetreX(px: number): number;
  toMetreY(py: number): number;
  toPixelX(x: number): number;
  toPixelY(y: number): number;
}

export interface RaycastHit<B extends QueryBody = QueryBody> {
  /** The body hit, or null when a collider was hit first. */
  body: B | null;
  collider: Collider | null;
  /** Hit point (px). */
  x: number;
  y: number;
  /** Unit surface normal at the hit, facing the ray's origin (pixel axes, y down). */
  normalX: number;
  normalY: number;
  /** Hit distance as a fraction of the ray (0 at the start, 1 at the end). */
  fraction: number;
}

export class BruteForceQueries<B extends QueryBody> {
  private readonly sim: QueryHost<B>;
  private readonly boundary = new WeakMap<B, Int32Array>();
  /** The reused result of `raycast` (valid until the next call). */
  // fields start as non-integer doubles so V8 stores them unboxed (an integer start makes each later double write box)
  readonly hit: RaycastHit<B> = { body: null, collider: null, x: 0.5, y: 0.5, normalX: 0.5, normalY: 0.5, fraction: 0.5 };
  private readonly pt = new Float64Array(2);
  private readonly pt2 = new Float64Array(2);
  private readonly poly = new Float64Array(8);
  // best ray hit so far (metres)
  private bestT = 0.5;
  private bnx = 0.5;
  private bny = 0.5;

  constructor(sim: QueryHost<B>) {
    this.sim = sim;
  }

  /** Boundary edges (local index pairs) of a body: triangle edges used once; a rope's segments. */
  edgesOf(b: B): Int32Array {
    let e = this.boundary.get(b);
    if (e) return e;
    e = boundaryEdges(b);
    this.boundary.set(b, e);
    return e;
  }

  /** The first body containing pixel (x, y) (creation order), or null. */
  bodyAt(px: number, py: number): B | null {
    const s = this.sim, x = s.toMetreX(px), y = s.toMetreY(py), P = s.world.c.Particle;
    for (const b of s.bodies) {
      const ids = b.particles, t = b.triangles;
      if (t.length > 0) {
        for (let k = 0; k < t.length; k += 3) {
          const a = ids[t[k]!]!, c = ids[t[k + 1]!]!, d = ids[t[k + 2]!]!;
          if (inTriangle(x, y, P.x[a]!, P.y[a]!, P.x[c]!, P.y[c]!, P.x[d]!, P.y[d]!)) return b;
        }
      } else if (b.kind === 'rope') {
        const r = Math.max((b.options.width ?? 10) / 2 / s.pixelsPerMetre, s.contactRadius);
        for (let k = 0; k + 1 < ids.length; k++) {
          if (segDist2(x, y, P.x[ids[k]!]!, P.y[ids[k]!]!, P.x[ids[k + 1]!]!, P.y[ids[k + 1]!]!) <= r * r) return b;
        }
      }
    }
    return null;
  }

  /** Bodies with at least one particle inside the pixel rectangle (x, y, w, h); fills and returns `out`. */
  bodiesIn(px: number, py: number, w: number, h: number, out: B[] = []): B[] {
    const s = this.sim, P = s.world.c.Particle;
    const x0 = s.toMetreX(Math.min(px, px + w)), x1 = s.toMetreX(Math.max(px, px + w));
    const y1 = s.toMetreY(Math.min(py, py + h)), y0 = s.toMetreY(Math.max(py, py + h));
    let n = 0;
    for (const b of s.bodies) {
      const ids = b.particles;
      for (let k = 0; k < ids.length; k++) {
        const x = P.x[ids[k]!]!, y = P.y[ids[k]!]!;
        if (x >= x0 && x <= x1 && y >= y0 && y <= y1) {
          put(out, n++, b);
          break;
        }
      }
    }
    truncate(out, n);
    return out;
  }

  /** Particle entity ids within r px of (x, y), in body then local order; fills `out`, returns the count. */
  particlesNear(px: number, py: number, r: number, out: number[] = []): number {
    const s = this.sim, P = s.world.c.Particle, x = s.toMetreX(px), y = s.toMetreY(py), rm = r / s.pixelsPerMetre;
    let n = 0;
    for (const b of s.bodies) {
      const ids = b.particles;
      for (let k = 0; k < ids.length; k++) {
        const dx = P.x[ids[k]!]! - x, dy = P.y[ids[k]!]! - y;
        if (dx * dx + dy * dy <= rm * rm) put(out, n++, ids[k]!);
      }
    }
    truncate(out, n);
    return n;
  }

  /** The nearest hit along the pixel segment (x0, y0) → (x1, y1), or null. The result object is reused. */
  raycast(px0: number, py0: number, px1: number, py1: number): RaycastHit<B> | null {
    const s = this.sim, P = s.world.c.Particle;
    const ax = s.toMetreX(px0), ay = s.toMetreY(py0), dx = s.toMetreX(px1) - ax, dy = s.toMetreY(py1) - ay;
    this.bestT = Infinity;
    let body: B | null = null, col: Collider | null = null;
    for (const b of s.bodies) {
      const e = this.edgesOf(b), ids = b.particles;
      for (let k = 0; k < e.length; k += 2) {
        const i = ids[e[k]!]!, j = ids[e[k + 1]!]!;
        if (this.raySeg(ax, ay, dx, dy, P.x[i]!, P.y[i]!, P.x[j]!, P.y[j]!)) {
          body = b;
          col = null;
        }
      }
    }
    const cols = s.colliders.list;
    for (let k = 0; k < cols.length; k++) {
      if (this.rayCollider(cols[k]!, ax, ay, dx, dy)) {
        col = cols[k]!;
        body = null;
      }
    }
    if (!(this.bestT <= 1)) return null;
    const h = this.hit, t = this.bestT;
    h.body = body;
    h.collider = col;
    h.fraction = t;
    h.x = s.toPixelX(ax + t * dx);
    h.y = s.toPixelY(ay + t * dy);
    h.normalX = this.bnx + 0;
    h.normalY = -this.bny + 0;
    return h;
  }

  /** Ray a + t d against one collider at its current pose; records a nearer hit. */
  private rayCollider(c: Collider, ax: number, ay: number, dx: number, dy: number): boolean {
    const sh = c.shape, pt = this.pt, q = this.pt2;
    if (sh.kind === 'halfplane') return this.rayHalfplane(ax, ay, dx, dy, sh.px, sh.py, sh.nx, sh.ny);
    if (sh.kind === 'circle') {
      c.posePoint(sh.cx, sh.cy, pt);
      return this.rayCircle(ax, ay, dx, dy, pt[0]!, pt[1]!, sh.r);
    }
    if (sh.kind === 'segment' && !(sh.r > 0)) {
      c.posePoint(sh.ax, sh.ay, pt);
      c.posePoint(sh.bx, sh.by, q);
      return this.raySeg(ax, ay, dx, dy, pt[0]!, pt[1]!, q[0]!, q[1]!);
    }
    const pts = colliderOutline(sh, this.poly), nv = sh.kind === 'segment' ? 4 : pts.length / 2;
    let hit = false;
    for (let k = 0; k < nv; k++) {
      const l = k + 1 < nv ? k + 1 : 0;
      c.posePoint(pts[2 * k]!, pts[2 * k + 1]!, pt);
      c.posePoint(pts[2 * l]!, pts[2 * l + 1]!, q);
      if (this.raySeg(ax, ay, dx, dy, pt[0]!, pt[1]!, q[0]!, q[1]!)) hit = true;
    }
    return hit;
  }

  /** Ray a + t d against segment p–q; records a nearer hit (t in [0, 1]) with the normal facing the ray. */
  private raySeg(ax: number, ay: number, dx: number, dy: number, px: number, py: number, qx: number, qy: number): boolean {
    const ex = qx - px, ey = qy - py;
    const den = dx * ey - dy * ex;
    if (den === 0) return false;
    const wx = px - ax, wy = py - ay;
    const t = (wx * ey - wy * ex) / den, u = (wx * dy - wy * dx) / den;
    if (t < 0 || t > 1 || u < 0 || u > 1 || !(t < this.bestT)) return false;
    const l = Math.sqrt(ex * ex + ey * ey);
    let nx = -ey / l, ny = ex / l;
    if (nx * dx + ny * dy > 0) {
      nx = -nx;
      ny = -ny;
    }
    this.record(t, nx, ny);
    return true;
  }

  private rayCircle(ax: number, ay: number, dx: number, dy: number, cx: number, cy: number, r: number): boolean {
    const fx = ax - cx, fy = ay - cy;
    const A = dx * dx + dy * dy, B = fx * dx + fy * dy, C = fx * fx + fy * fy - r * r;
    const disc = B * B - A * C;
    if (A === 0 || disc < 0) return false;
    const t = C <= 0 ? 0 : (-B - Math.sqrt(disc)) / A;
    if (t < 0 || t > 1 || !(t < this.bestT)) return false;
    const hx = ax + t * dx - cx, hy = ay + t * dy - cy, l = Math.sqrt(hx * hx + hy * hy) || 1;
    this.record(t, hx / l, hy / l);
    return true;
  }

  private rayHalfplane(ax: number, ay: number, dx: number, dy: number, px: number, py: number, nx: number, ny: number): boolean {
    const d0 = (ax - px) * nx + (ay - py) * ny;
    const dn = dx * nx + dy * ny;
    let t: number;
    if (d0 <= 0) t = 0; // starts inside the solid side
    else if (dn < 0) t = -d0 / dn;
    else return false;
    if (t > 1 || !(t < this.bestT)) return false;
    this.record(t, nx, ny);
    return true;
  }

  private record(t: number, nx: number, ny: number): void {
    this.bestT = t;
    this.bnx = nx;
    this.bny = ny;
  }
}

/**
 * Output arrays are refilled in place and shortened by pop(): `out.length = 0` gives a JS array a fresh empty
 * backing store, which the following pushes reallocate (as in src/collision/events.ts).
 */
/**
 * The outline (local coordinates, x0, y0, x1, y1, …) of a polygon collider, or of a thick segment: the
 * rectangle of half-width r around it, written into `box` (8 numbers). Shared by both raycasts.
 */
export function colliderOutline(sh: Extract<ColliderShape, { kind: 'segment' | 'polygon' }>, box: Float64Array): Float64Array {
  if (sh.kind !== 'segment') return sh.points;
  const ex = sh.bx - sh.ax, ey = sh.by - sh.ay, l = Math.sqrt(ex * ex + ey * ey) || 1, nx = (-ey / l) * sh.r, ny = (ex / l) * sh.r;
  box[0] = sh.ax - nx; box[1] = sh.ay - ny; box[2] = sh.bx - nx; box[3] = sh.by - ny;
  box[4] = sh.bx + nx; box[5] = sh.by + ny; box[6] = sh.ax + nx; box[7] = sh.ay + ny;
  return box;
}

export function put<T>(out: T[], i: number, v: T): void {
  if (i < out.length) out[i] = v;
  else out.push(v);
}
export function truncate<T>(out: T[], n: number): void {
  while (out.length > n) out.pop();
}

export function inTriangle(x: number, y: number, ax: number, ay: number, bx: number, by: number, cx: number, cy: number): boolean {
  const d1 = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
  const d2 = (cx - bx) * (y - by) - (cy - by) * (x - bx);
  const d3 = (ax - cx) * (y - cy) - (ay - cy) * (x - cx);
  const neg = d1 < 0 || d2 < 0 || d3 < 0, pos = d1 > 0 || d2 > 0 || d3 > 0;
  return !(neg && pos);
}

export function segDist2(x: number, y: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
  const t = l2 > 0 ? Math.min(1, Math.max(0, ((x - ax) * dx + (y - ay) * dy) / l2)) : 0;
  const ex = ax + t * dx - x, ey = ay + t * dy - y;
  return ex * ex + ey * ey;
}

/** Boundary edges (local index pairs) of a body: triangle edges used once; a rope's segments (setup rate). */
export function boundaryEdges(b: QueryBody): Int32Array {
  let e: Int32Array;
  const t = b.triangles;

  if (t.length === 0) {
    e = new Int32Array(2 * Math.max(0, b.particles.length - 1));
    for (let k = 0; k + 1 < b.particles.length; k++) {
      e[2 * k] = k;
      e[2 * k + 1] = k + 1;
    }
  } else {
    const count = new Map<string, number>();
    const key = (i: number, j: number): string => (i < j ? `${i},${j}` : `${j},${i}`);
    for (let k = 0; k < t.length; k += 3) {
      for (let s = 0; s < 3; s++) {
        const kk = key(t[k + s]!, t[k + ((s + 1) % 3)]!);
        count.set(kk, (count.get(kk) ?? 0) + 1);
      }
    }
    const out: number[] = [];
    for (let k = 0; k < t.length; k += 3) {
      for (let s = 0; s < 3; s++) {
        const i = t[k + s]!, j = t[k + ((s + 1) % 3)]!;
        if (count.get(key(i, j)) === 1) out.push(i, j);
      }
    }
    e = Int32Array.from(out);
  }
  return e;
}
