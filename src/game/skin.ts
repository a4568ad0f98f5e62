/**
 * Skinning: drives a display mesh (e.g. a finer textured grid) from a coarser
 * simulation mesh. Each display vertex is bound once, at rest, to one
 * simulation triangle by barycentric coordinates: the triangle that contains
 * it, or for a vertex outside the simulation mesh the nearest triangle (its
 * barycentric coordinates are then extrapolated, i.e. it follows that
 * triangle's affine motion). `update` recomputes display positions with no
 * allocation, optionally writing straight into an interleaved vertex buffer
 * (Phaser's Mesh2D uses x, y, u, v: stride 4) in pixels with a y flip.
 */
import { InputError } from '../errors';

export interface SkinOutput {
  /** Numbers per vertex in the output array (2 for x, y; 4 for Phaser Mesh2D x, y, u, v). Default 2. */
  stride?: number;
  /** Offset of x within each vertex record. Default 0. */
  offset?: number;
  /** out.x = scaleX * x + translateX; default 1 (use pixelsPerMetre). */
  scaleX?: number;
  /** out.y = scaleY * y + translateY; default 1 (use -pixelsPerMetre to flip y-up metres to y-down pixels). */
  scaleY?: number;
  translateX?: number;
  translateY?: number;
}

type Out = { [i: number]: number; readonly length: number };

export class Skin {
  /** Number of display vertices bound. */
  readonly count: number;
  /** Simulation triangle each display vertex is bound to. */
  readonly triangle: Uint32Array;
  /** Simulation vertex indices (3 per display vertex) and their barycentric weights. */
  readonly simIndex: Uint32Array;
  readonly weight: Float64Array;
  /** Display vertices that lie outside every simulation triangle (bound to the nearest one). */
  readonly outsideCount: number;
  private stride = 2;
  private offset = 0;
  private sx = 1;
  private sy = 1;
  private tx = 0;
  private ty = 0;

  /**
   * @param simRest simulation vertex positions at rest (x0, y0, ...)
   * @param simTriangles simulation triangles (a, b, c, ...), CCW or not
   * @param display display vertex positions at rest, in the same frame as simRest
   * @param tolerance barycentric slack for "inside" (relative, default 1e-9)
   */
  constructor(simRest: ArrayLike<number>, simTriangles: ArrayLike<number>, display: ArrayLike<number>, tolerance = 1e-9) {
    const nt = simTriangles.length / 3;
    if (nt < 1) throw new InputError('Skin: the simulation mesh has no triangles');
    const n = display.length / 2;
    this.count = n;
    this.triangle = new Uint32Array(n);
    this.simIndex = new Uint32Array(3 * n);
    this.weight = new Float64Array(3 * n);
    let outside = 0;
    for (let v = 0; v < n; v++) {
      const px = display[2 * v]!, py = display[2 * v + 1]!;
      let best = -1;
      let bestScore = -Infinity; // inside: max of the smallest barycentric coordinate
      let nearest = -1;
      let nearestD2 = Infinity;
      for (let t = 0; t < nt; t++) {
        const a = simTriangles[3 * t]!, b = simTriangles[3 * t + 1]!, c = simTriangles[3 * t + 2]!;
        const ax = simRest[2 * a]!, ay = simRest[2 * a + 1]!;
        const bx = simRest[2 * b]!, by = simRest[2 * b + 1]!;
        const cx = simRest[2 * c]!, cy = simRest[2 * c + 1]!;
        const det = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
        if (det === 0) continue;
        const l1 = ((bx - px) * (cy - py) - (by - py) * (cx - px)) / det;
        const l2 = ((cx - px) * (ay - py) - (cy - py) * (ax - px)) / det;
        const l0 = 1 - l1 - l2;
        const m = Math.min(l0, l1, l2);
        if (m >= -tolerance) {
          if (m > bestScore) {
            bestScore = m;
            best = t;
          }
        } else if (best < 0) {
          const d2 = pointTriangleDist2(px, py, ax, ay, bx, by, cx, cy);
          if (d2 < nearestD2) {
            nearestD2 = d2;
            nearest = t;
          }
        }
      }
      if (best < 0) {
        outside++;
        best = nearest;
      }
      if (best < 0) throw new InputError('Skin: every simulation triangle is degenerate');
      this.bind(v, best, px, py, simRest, simTriangles);
    }
    this.outsideCount = outside;
  }

  private bind(v: number, t: number, px: number, py: number, simRest: ArrayLike<number>, tris: ArrayLike<number>): void {
    const a = tris[3 * t]!, b = tris[3 * t + 1]!, c = tris[3 * t + 2]!;
    const ax = simRest[2 * a]!, ay = simRest[2 * a + 1]!;
    const bx = simRest[2 * b]!, by = simRest[2 * b + 1]!;
    const cx = simRest[2 * c]!, cy = simRest[2 * c + 1]!;
    const det = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
    const l1 = ((bx - px) * (cy - py) - (by - py) * (cx - px)) / det;
    const l2 = ((cx - px) * (ay - py) - (cy - py) * (ax - px)) / det;
    this.triangle[v] = t;
    this.simIndex[3 * v] = a;
    this.simIndex[3 * v + 1] = b;
    this.simIndex[3 * v + 2] = c;
    // l1 is the weight of a (area of p-b-c over a-b-c), l2 of b, the rest of c.
    this.weight[3 * v] = l1;
    this.weight[3 * v + 1] = l2;
    this.weight[3 * v + 2] = 1 - l1 - l2;
  }

  /** Sets how `update` writes: interleaving and an axis-aligned scale + translation (e.g. metres -> pixels). */
  setOutput(o: SkinOutput): this {
    this.stride = o.stride ?? 2;
    this.offset = o.offset ?? 0;
    this.sx = o.scaleX ?? 1;
    this.sy = o.scaleY ?? 1;
    this.tx = o.translateX ?? 0;
    this.ty = o.translateY ?? 0;
    if (!Number.isInteger(this.stride) || this.stride < 2 || this.offset < 0 || this.offset + 2 > this.stride) {
      throw new InputError(`Skin.setOutput: bad stride ${this.stride} / offset ${this.offset}`);
    }
    return this;
  }

  /** Number of array entries `update` writes to, given the current output layout. */
  outputLength(): number {
    return this.count * this.stride;
  }

  /**
   * Writes the skinned display positions into `out` (in place, no allocation).
   * `sim` holds the current simulation vertex positions (x0, y0, ...).
   */
  update(sim: ArrayLike<number>, out: Out): void {
    const { count, simIndex: idx, weight: w, stride, offset, sx, sy, tx, ty } = this;
    if (out.length < count * stride) throw new InputError(`Skin.update: output has ${out.length} entries, needs ${count * stride}`);
    for (let v = 0, k = 0, o = offset; v < count; v++, k += 3, o += stride) {
      const a = idx[k]!, b = idx[k + 1]!, c = idx[k + 2]!;
      const wa = w[k]!, wb = w[k + 1]!, wc = w[k + 2]!;
      const x = wa * sim[2 * a]! + wb * sim[2 * b]! + wc * sim[2 * c]!;
      const y = wa * sim[2 * a + 1]! + wb * sim[2 * b + 1]! + wc * sim[2 * c + 1]!;
      out[o] = sx * x + tx;
      out[o + 1] = sy * y + ty;
    }
  }
}

function segDist2(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax, dy = by - ay;
  const l2 = dx * dx + dy * dy;
  let t = l2 > 0 ? ((px - ax) * dx + (py - ay) * dy) / l2 : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  const ex = ax + t * dx - px, ey = ay + t * dy - py;
  return ex * ex + ey * ey;
}

/** Squared distance from a point to a triangle assumed not to contain it (closest edge). */
function pointTriangleDist2(px: number, py: number, ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return Math.min(segDist2(px, py, ax, ay, bx, by), segDist2(px, py, bx, by, cx, cy), segDist2(px, py, cx, cy, ax, ay));
}
