import { InputError } from '../errors';
import { triangulate } from './cdt';
import type { MeshData } from './types';

/** Signed area of a closed polygon (x0, y0, x1, y1, ...): positive when CCW. */
export function polygonArea(outline: ArrayLike<number>): number {
  const n = outline.length / 2;
  let a = 0;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    a += outline[2 * i]! * outline[2 * j + 1]! - outline[2 * j]! * outline[2 * i + 1]!;
  }
  return a / 2;
}

/** Even-odd point-in-polygon test (points on the boundary may go either way). */
export function pointInPolygon(px: number, py: number, outline: ArrayLike<number>): boolean {
  const n = outline.length / 2;
  let inside = false;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = outline[2 * i]!, yi = outline[2 * i + 1]!;
    const xj = outline[2 * j]!, yj = outline[2 * j + 1]!;
    if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function segDist2(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax, dy = by - ay;
  const l2 = dx * dx + dy * dy;
  let t = l2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / l2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const ex = ax + t * dx - px, ey = ay + t * dy - py;
  return ex * ex + ey * ey;
}

function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/** Whether closed segments ab and cd intersect (including touching and collinear overlap). */
function segmentsIntersect(
  ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number,
): boolean {
  const o1 = orient(ax, ay, bx, by, cx, cy), o2 = orient(ax, ay, bx, by, dx, dy);
  const o3 = orient(cx, cy, dx, dy, ax, ay), o4 = orient(cx, cy, dx, dy, bx, by);
  if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return true;
  const on = (px: number, py: number, qx: number, qy: number, rx: number, ry: number): boolean =>
    Math.min(px, qx) <= rx && rx <= Math.max(px, qx) && Math.min(py, qy) <= ry && ry <= Math.max(py, qy);
  if (o1 === 0 && on(ax, ay, bx, by, cx, cy)) return true;
  if (o2 === 0 && on(ax, ay, bx, by, dx, dy)) return true;
  if (o3 === 0 && on(cx, cy, dx, dy, ax, ay)) return true;
  if (o4 === 0 && on(cx, cy, dx, dy, bx, by)) return true;
  return false;
}

/**
 * Validates and normalizes an outline: finite, drops repeated consecutive
 * points (and a closing repeat of the first), at least 3 vertices, non-zero
 * area, simple (no self-intersection). Returns it CCW.
 */
export function normalizeOutline(outline: ArrayLike<number>): Float64Array {
  if (outline.length % 2 !== 0) throw new InputError('meshPolygon outline: expected x, y pairs (even length)');
  const pts: number[] = [];
  for (let i = 0; i < outline.length; i += 2) {
    const x = outline[i]!, y = outline[i + 1]!;
    if (!Number.isFinite(x) || !Number.isFinite(y)) throw new InputError(`meshPolygon outline: point ${i / 2} is not finite`);
    const k = pts.length;
    if (k >= 2 && pts[k - 2] === x && pts[k - 1] === y) continue;
    pts.push(x, y);
  }
  while (pts.length >= 4 && pts[0] === pts[pts.length - 2] && pts[1] === pts[pts.length - 1]) pts.length -= 2;
  const n = pts.length / 2;
  if (n < 3) throw new InputError(`meshPolygon outline: expected at least 3 distinct points, got ${n}`);
  let out = Float64Array.from(pts);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (j === i + 1 || (i === 0 && j === n - 1)) continue; // adjacent edges share a vertex
      const i2 = (i + 1) % n, j2 = (j + 1) % n;
      if (segmentsIntersect(out[2 * i]!, out[2 * i + 1]!, out[2 * i2]!, out[2 * i2 + 1]!,
        out[2 * j]!, out[2 * j + 1]!, out[2 * j2]!, out[2 * j2 + 1]!)) {
        throw new InputError(`meshPolygon outline: not simple, edge ${i} intersects edge ${j}`);
      }
    }
  }
  // Adjacent edges folding back onto each other (a spike of zero width).
  for (let i = 0; i < n; i++) {
    const a = (i + n - 1) % n, c = (i + 1) % n;
    const ax = out[2 * a]! - out[2 * i]!, ay = out[2 * a + 1]! - out[2 * i + 1]!;
    const cx = out[2 * c]! - out[2 * i]!, cy = out[2 * c + 1]! - out[2 * i + 1]!;
    if (ax * cy - ay * cx === 0 && ax * cx + ay * cy > 0) throw new InputError(`meshPolygon outline: edges fold back at point ${i}`);
  }
  const area = polygonArea(out);
  if (!(Math.abs(area) > 0)) throw new InputError('meshPolygon outline: polygon has zero area');
  if (area < 0) {
    const r = new Float64Array(out.length);
    for (let i = 0; i < n; i++) {
      r[2 * i] = out[2 * (n - 1 - i)]!;
      r[2 * i + 1] = out[2 * (n - 1 - i) + 1]!;
    }
    out = r;
  }
  return out;
}

export interface PolygonMeshOptions {
  /** Interior points closer than this fraction of the edge length to the boundary are dropped (default 0.5). */
  boundaryClearance?: number;
  /** Refuse to make more vertices than this (default 20000). */
  maxVertices?: number;
  /** Laplacian smoothing sweeps over interior vertices (default 4; 0 keeps the lattice). */
  smoothIterations?: number;
}

/**
 * Gauss-Seidel Laplacian smoothing of the vertices from `firstFree` on: each
 * moves to the mean of its neighbours unless that would shrink an incident
 * triangle below a quarter of its current area (or invert it).
 */
function smooth(pos: Float64Array, tris: Uint32Array, firstFree: number, iterations: number): void {
  const nv = pos.length / 2;
  // Vertex -> incident triangles and neighbours (CSR).
  const count = new Uint32Array(nv + 1);
  for (let i = 0; i < tris.length; i++) count[tris[i]! + 1]!++;
  for (let i = 0; i < nv; i++) count[i + 1]! += count[i]!;
  const inc = new Uint32Array(tris.length);
  const fill = count.slice(0, nv);
  for (let t = 0; t < tris.length / 3; t++) for (let k = 0; k < 3; k++) inc[fill[tris[3 * t + k]!]!++] = t;
  const area2 = (t: number): number => {
    const a = tris[3 * t]!, b = tris[3 * t + 1]!, c = tris[3 * t + 2]!;
    return (pos[2 * b]! - pos[2 * a]!) * (pos[2 * c + 1]! - pos[2 * a + 1]!) - (pos[2 * b + 1]! - pos[2 * a + 1]!) * (pos[2 * c]! - pos[2 * a]!);
  };
  const before: number[] = [];
  for (let it = 0; it < iterations; it++) {
    for (let v = firstFree; v < nv; v++) {
      let sx = 0, sy = 0, w = 0;
      for (let k = count[v]!; k < count[v + 1]!; k++) {
        const t = inc[k]!;
        for (let j = 0; j < 3; j++) {
          const u = tris[3 * t + j]!;
          if (u === v) continue;
          // Each neighbour is seen from two incident triangles (once on the boundary): weight evens out.
          sx += pos[2 * u]!;
          sy += pos[2 * u + 1]!;
          w++;
        }
      }
      if (w === 0) continue;
      const ox = pos[2 * v]!, oy = pos[2 * v + 1]!;
      before.length = 0;
      for (let k = count[v]!; k < count[v + 1]!; k++) before.push(area2(inc[k]!));
      pos[2 * v] = sx / w;
      pos[2 * v + 1] = sy / w;
      let ok = true;
      for (let k = count[v]!, m = 0; k < count[v + 1]! && ok; k++, m++) if (!(area2(inc[k]!) > 0.25 * before[m]!)) ok = false;
      if (!ok) {
        pos[2 * v] = ox;
        pos[2 * v + 1] = oy;
      }
    }
  }
}

/**
 * Meshes any simple polygon (x0, y0, x1, y1, ..., either orientation, not
 * closed) with triangles of about `targetEdgeLength`: the boundary is
 * resampled so no boundary segment is longer than the target (all original
 * corners are kept), interior points are taken from a triangular lattice of
 * that spacing, and the lot is triangulated by a constrained Delaunay
 * triangulation. Vertices: the boundary samples first (CCW, starting at the
 * first outline point), then the interior. Triangles are CCW, none degenerate,
 * and exactly cover the polygon.
 */
export function meshPolygon(outline: ArrayLike<number>, targetEdgeLength: number, opts: PolygonMeshOptions = {}): MeshData {
  if (!(targetEdgeLength > 0) || !Number.isFinite(targetEdgeLength)) {
    throw new InputError(`meshPolygon targetEdgeLength: expected a positive finite length, got ${targetEdgeLength}`);
  }
  const h = targetEdgeLength;
  const clearance = (opts.boundaryClearance ?? 0.5) * h;
  const maxVertices = opts.maxVertices ?? 20000;
  const poly = normalizeOutline(outline);
  const n = poly.length / 2;
  const area = polygonArea(poly);
  const estimate = (2 * area) / (h * h * 0.8660254037844386) + n;
  if (estimate > maxVertices) {
    throw new InputError(`meshPolygon: about ${Math.ceil(estimate)} vertices for targetEdgeLength ${h}, more than maxVertices ${maxVertices}`);
  }

  const pts: number[] = [];
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const ax = poly[2 * i]!, ay = poly[2 * i + 1]!, bx = poly[2 * j]!, by = poly[2 * j + 1]!;
    const len = Math.sqrt((bx - ax) * (bx - ax) + (by - ay) * (by - ay));
    const m = Math.max(1, Math.ceil(len / h - 1e-9));
    for (let k = 0; k < m; k++) {
      const t = k / m;
      pts.push(ax + (bx - ax) * t, ay + (by - ay) * t);
    }
  }
  const nb = pts.length / 2;

  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    minX = Math.min(minX, poly[2 * i]!);
    maxX = Math.max(maxX, poly[2 * i]!);
    minY = Math.min(minY, poly[2 * i + 1]!);
    maxY = Math.max(maxY, poly[2 * i + 1]!);
  }
  const cx = (minX + maxX) / 2, cy = (minY + maxY) / 2;
  const hy = h * 0.8660254037844386; // sqrt(3)/2
  const ni = Math.ceil((maxX - minX) / 2 / h) + 1;
  const nj = Math.ceil((maxY - minY) / 2 / hy) + 1;
  const c2 = clearance * clearance;
  for (let j = -nj; j <= nj; j++) {
    const y = cy + j * hy;
    if (y <= minY || y >= maxY) continue;
    const off = (j & 1) === 0 ? 0 : 0.5;
    for (let i = -ni; i <= ni; i++) {
      const x = cx + (i + off) * h;
      if (x <= minX || x >= maxX) continue;
      if (!pointInPolygon(x, y, poly)) continue;
      let ok = true;
      for (let e = 0; e < n && ok; e++) {
        const f = (e + 1) % n;
        if (segDist2(x, y, poly[2 * e]!, poly[2 * e + 1]!, poly[2 * f]!, poly[2 * f + 1]!) < c2) ok = false;
      }
      if (ok) pts.push(x, y);
    }
  }

  const boundary = new Uint32Array(nb);
  for (let i = 0; i < nb; i++) boundary[i] = i;
  const triangles = triangulate(pts, boundary);
  const positions = Float64Array.from(pts);
  smooth(positions, triangles, nb, opts.smoothIterations ?? 4);
  return { positions, triangles };
}
