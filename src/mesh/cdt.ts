/**
 * Constrained Delaunay triangulation of a point set with a closed boundary.
 *
 * 1. Bowyer-Watson incremental Delaunay inside a super-triangle. The cavity of
 *    each new point also takes in any neighbour across an edge that does not
 *    strictly face the point, so every new triangle has positive area even with
 *    collinear and cocircular input (lattices, resampled straight edges).
 * 2. Boundary segments missing from the triangulation are recovered by edge
 *    flips (Sloan 1993), then a Lawson flip pass restores the Delaunay property
 *    for every unconstrained edge.
 * 3. Triangles outside the boundary are removed by a flood fill from the
 *    super-triangle that does not cross constrained edges.
 *
 * Deterministic: only + - * / comparisons; plain loops in index order.
 * O(n^2) point location; meant for meshes of up to a few thousand vertices.
 */
import { InputError } from '../errors';

function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/** > 0 when d lies inside the circumcircle of the CCW triangle a, b, c. */
function inCircle(
  ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number,
): number {
  const adx = ax - dx, ady = ay - dy;
  const bdx = bx - dx, bdy = by - dy;
  const cdx = cx - dx, cdy = cy - dy;
  const ad = adx * adx + ady * ady;
  const bd = bdx * bdx + bdy * bdy;
  const cd = cdx * cdx + cdy * cdy;
  return adx * (bdy * cd - bd * cdy) - ady * (bdx * cd - bd * cdx) + ad * (bdx * cdy - bdy * cdx);
}

class Triangulation {
  readonly x: number[];
  readonly y: number[];
  readonly M: number;
  /** 3 vertex indices per triangle slot, CCW. */
  readonly tv: number[] = [];
  readonly alive: boolean[] = [];
  private readonly free: number[] = [];
  /** Directed edge u->v (key u*M+v) -> triangle owning it. */
  readonly edges = new Map<number, number>();
  /** Undirected constrained edges (key min*M+max). */
  readonly constrained = new Set<number>();
  private stamp: number[] = [];
  private stampGen = 0;

  constructor(x: number[], y: number[]) {
    this.x = x;
    this.y = y;
    this.M = x.length;
  }

  orientV(a: number, b: number, c: number): number {
    const { x, y } = this;
    return orient(x[a]!, y[a]!, x[b]!, y[b]!, x[c]!, y[c]!);
  }

  inCircleV(a: number, b: number, c: number, d: number): number {
    const { x, y } = this;
    return inCircle(x[a]!, y[a]!, x[b]!, y[b]!, x[c]!, y[c]!, x[d]!, y[d]!);
  }

  addTri(a: number, b: number, c: number): number {
    const t = this.free.length > 0 ? this.free.pop()! : this.alive.length;
    this.tv[3 * t] = a;
    this.tv[3 * t + 1] = b;
    this.tv[3 * t + 2] = c;
    this.alive[t] = true;
    this.stamp[t] = 0;
    const M = this.M;
    this.edges.set(a * M + b, t);
    this.edges.set(b * M + c, t);
    this.edges.set(c * M + a, t);
    return t;
  }

  removeTri(t: number): void {
    const M = this.M;
    const a = this.tv[3 * t]!, b = this.tv[3 * t + 1]!, c = this.tv[3 * t + 2]!;
    for (const k of [a * M + b, b * M + c, c * M + a]) if (this.edges.get(k) === t) this.edges.delete(k);
    this.alive[t] = false;
    this.free.push(t);
  }

  /** Third vertex of the triangle owning directed edge u->v, or -1. */
  opposite(u: number, v: number): number {
    const t = this.edges.get(u * this.M + v);
    if (t === undefined) return -1;
    const tv = this.tv;
    for (let i = 0; i < 3; i++) if (tv[3 * t + i] === u) return tv[3 * t + ((i + 2) % 3)]!;
    return -1;
  }

  insert(p: number): void {
    const { tv, alive, M } = this;
    // Locate: a triangle containing p (closed).
    let t0 = -1;
    for (let t = 0; t < alive.length; t++) {
      if (!alive[t]) continue;
      const a = tv[3 * t]!, b = tv[3 * t + 1]!, c = tv[3 * t + 2]!;
      if (this.orientV(a, b, p) >= 0 && this.orientV(b, c, p) >= 0 && this.orientV(c, a, p) >= 0) {
        t0 = t;
        break;
      }
    }
    if (t0 < 0) throw new InputError('triangulate: point outside the super-triangle (non-finite coordinates?)');
    // Grow the cavity.
    const gen = ++this.stampGen;
    const bad: number[] = [t0];
    this.stamp[t0] = gen;
    for (let k = 0; k < bad.length; k++) {
      const t = bad[k]!;
      for (let e = 0; e < 3; e++) {
        const u = tv[3 * t + e]!, v = tv[3 * t + ((e + 1) % 3)]!;
        const n = this.edges.get(v * M + u);
        if (n === undefined || this.stamp[n] === gen) continue;
        const w = this.opposite(v, u);
        if (this.inCircleV(v, u, w, p) > 0 || this.orientV(u, v, p) <= 0) {
          this.stamp[n] = gen;
          bad.push(n);
        }
      }
    }
    // Boundary of the cavity: directed edges of bad triangles whose twin is not bad.
    const boundary: number[] = [];
    for (const t of bad) {
      for (let e = 0; e < 3; e++) {
        const u = tv[3 * t + e]!, v = tv[3 * t + ((e + 1) % 3)]!;
        const n = this.edges.get(v * M + u);
        if (n === undefined || this.stamp[n] !== gen) boundary.push(u, v);
      }
    }
    for (const t of bad) this.removeTri(t);
    for (let i = 0; i < boundary.length; i += 2) {
      const u = boundary[i]!, v = boundary[i + 1]!;
      if (this.orientV(u, v, p) <= 0) throw new Error('triangulate: internal error, cavity not star-shaped');
      this.addTri(u, v, p);
    }
  }

  hasEdge(a: number, b: number): boolean {
    const M = this.M;
    return this.edges.has(a * M + b) || this.edges.has(b * M + a);
  }

  /** Whether segments (u,v) and (a,b) cross at a point interior to both. */
  crosses(u: number, v: number, a: number, b: number): boolean {
    const o1 = this.orientV(a, b, u), o2 = this.orientV(a, b, v);
    if (!((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0))) return false;
    const o3 = this.orientV(u, v, a), o4 = this.orientV(u, v, b);
    return (o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0);
  }

  /** Flip the edge shared by the triangles owning u->v and v->u. Returns the new diagonal [p, s] or null if not convex. */
  flip(u: number, v: number): [number, number] | null {
    const M = this.M;
    const t1 = this.edges.get(u * M + v), t2 = this.edges.get(v * M + u);
    if (t1 === undefined || t2 === undefined) return null;
    const p = this.opposite(u, v), s = this.opposite(v, u);
    if (!(this.orientV(p, u, s) > 0 && this.orientV(s, v, p) > 0)) return null;
    this.removeTri(t1);
    this.removeTri(t2);
    this.addTri(p, u, s);
    this.addTri(s, v, p);
    return [p, s];
  }

  /** Make segment a-b an edge of the triangulation (Sloan's flip algorithm). */
  recover(a: number, b: number): void {
    const { x, y } = this;
    // A vertex lying on the open segment splits it into two constraints.
    for (let w = 0; w < this.M; w++) {
      if (w === a || w === b) continue;
      if (this.orientV(a, b, w) !== 0) continue;
      const dx = x[b]! - x[a]!, dy = y[b]! - y[a]!;
      const t = (x[w]! - x[a]!) * dx + (y[w]! - y[a]!) * dy;
      if (t > 0 && t < dx * dx + dy * dy) {
        this.recover(a, w);
        this.recover(w, b);
        return;
      }
    }
    const M = this.M;
    this.constrained.add(a < b ? a * M + b : b * M + a);
    if (this.hasEdge(a, b)) return;
    const queue: number[] = [];
    const seen = new Set<number>();
    const { tv, alive } = this;
    for (let t = 0; t < alive.length; t++) {
      if (!alive[t]) continue;
      for (let e = 0; e < 3; e++) {
        const u = tv[3 * t + e]!, v = tv[3 * t + ((e + 1) % 3)]!;
        const key = u < v ? u * M + v : v * M + u;
        if (seen.has(key)) continue;
        seen.add(key);
        if (u !== a && u !== b && v !== a && v !== b && this.crosses(u, v, a, b)) queue.push(u, v);
      }
    }
    let guard = 0;
    const limit = 1000 + 50 * queue.length * queue.length;
    while (queue.length > 0) {
      if (++guard > limit) throw new Error('triangulate: could not recover a boundary edge (degenerate input?)');
      const u = queue.shift()!, v = queue.shift()!;
      const d = this.flip(u, v);
      if (d === null) {
        queue.push(u, v);
        continue;
      }
      const [p, s] = d;
      if (p !== a && p !== b && s !== a && s !== b && this.crosses(p, s, a, b)) queue.push(p, s);
    }
    if (!this.hasEdge(a, b)) throw new Error('triangulate: internal error, boundary edge not recovered');
  }

  /** Lawson flips of unconstrained non-Delaunay edges until none remain. */
  delaunayFlips(): void {
    const M = this.M;
    const { tv, alive } = this;
    for (let pass = 0; pass < 100; pass++) {
      let flips = 0;
      for (let t = 0; t < alive.length; t++) {
        if (!alive[t]) continue;
        for (let e = 0; e < 3; e++) {
          const u = tv[3 * t + e]!, v = tv[3 * t + ((e + 1) % 3)]!;
          if (this.constrained.has(u < v ? u * M + v : v * M + u)) continue;
          const s = this.opposite(v, u);
          if (s < 0) continue;
          const p = tv[3 * t + ((e + 2) % 3)]!;
          // Relative tolerance avoids endless flipping of cocircular quads.
          const scale = this.localScale(u, v, p, s);
          if (this.inCircleV(u, v, p, s) > 1e-12 * scale) {
            if (this.flip(u, v)) {
              flips++;
              break; // triangle t is gone
            }
          }
        }
      }
      if (flips === 0) return;
    }
  }

  private localScale(a: number, b: number, c: number, d: number): number {
    const { x, y } = this;
    let m = 0;
    for (const i of [b, c, d]) {
      const dx = x[i]! - x[a]!, dy = y[i]! - y[a]!;
      const l = dx * dx + dy * dy;
      if (l > m) m = l;
    }
    return m * m;
  }
}

/**
 * Triangulates the region bounded by the closed loop `boundary` (indices into
 * the points, CCW, the loop closes back to its first entry) including all
 * other points that lie inside it. Returns CCW triangles over the input
 * indices. Points outside the boundary end up unused.
 */
export function triangulate(points: ArrayLike<number>, boundary: ArrayLike<number>): Uint32Array {
  const n = points.length / 2;
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  const x: number[] = [];
  const y: number[] = [];
  for (let i = 0; i < n; i++) {
    const px = points[2 * i]!, py = points[2 * i + 1]!;
    if (!Number.isFinite(px) || !Number.isFinite(py)) throw new InputError(`triangulate: point ${i} is not finite`);
    x.push(px);
    y.push(py);
    if (px < minX) minX = px;
    if (px > maxX) maxX = px;
    if (py < minY) minY = py;
    if (py > maxY) maxY = py;
  }
  const span = Math.max(maxX - minX, maxY - minY, 1e-9);
  const cx = (minX + maxX) / 2, cy = (minY + maxY) / 2;
  const big = span * 64;
  x.push(cx - big, cx + big, cx);
  y.push(cy - big, cy - big, cy + big);
  const tr = new Triangulation(x, y);
  tr.addTri(n, n + 1, n + 2);
  // Insert boundary vertices first (they define the shape), then the rest.
  const inserted = new Uint8Array(n);
  for (let k = 0; k < boundary.length; k++) {
    const i = boundary[k]!;
    if (!inserted[i]) {
      inserted[i] = 1;
      tr.insert(i);
    }
  }
  for (let i = 0; i < n; i++) if (!inserted[i]) tr.insert(i);
  for (let k = 0; k < boundary.length; k++) tr.recover(boundary[k]!, boundary[(k + 1) % boundary.length]!);
  tr.delaunayFlips();

  // Flood fill the outside from triangles touching the super-triangle.
  const M = tr.M;
  const outside = new Uint8Array(tr.alive.length);
  const stack: number[] = [];
  for (let t = 0; t < tr.alive.length; t++) {
    if (!tr.alive[t]) continue;
    if (tr.tv[3 * t]! >= n || tr.tv[3 * t + 1]! >= n || tr.tv[3 * t + 2]! >= n) {
      outside[t] = 1;
      stack.push(t);
    }
  }
  while (stack.length > 0) {
    const t = stack.pop()!;
    for (let e = 0; e < 3; e++) {
      const u = tr.tv[3 * t + e]!, v = tr.tv[3 * t + ((e + 1) % 3)]!;
      if (tr.constrained.has(u < v ? u * M + v : v * M + u)) continue;
      const nb = tr.edges.get(v * M + u);
      if (nb !== undefined && !outside[nb]) {
        outside[nb] = 1;
        stack.push(nb);
      }
    }
  }
  const out: number[] = [];
  for (let t = 0; t < tr.alive.length; t++) {
    if (!tr.alive[t] || outside[t]) continue;
    out.push(tr.tv[3 * t]!, tr.tv[3 * t + 1]!, tr.tv[3 * t + 2]!);
  }
  return Uint32Array.from(out);
}
