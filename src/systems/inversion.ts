/**
 * Inversion guard for the game-mode Newton line search (ForceModel.maxStep).
 *
 * For every Neo-Hookean triangle that is not inverted at x (J > 0), J(α) = det F(x + α dx)
 * is the quadratic J + α (cof F : dF) + α² det dF; the step is limited to
 * INVERSION_SAFETY × its smallest positive root, so a Newton step never makes such a
 * triangle reach J ≤ 0. Triangles already inverted at x (a scene that starts inverted)
 * impose no limit: their guarded energy (C² extension of 1/J below NH_J_MIN) is finite and
 * pushes them back. Fixed order over triangles; sqrt only.
 */
import { MAT_NEOHOOKEAN } from '../elements/materials';
import type { Topology } from './topology';

export const INVERSION_SAFETY = 0.9;

/** Largest α ∈ (0, 1] keeping every currently positive Neo-Hookean triangle positive. */
export function triangleMaxStep(t: Topology, x: Float64Array, dx: Float64Array): number {
  const tr = t.triangles, q = tr.params;
  let alpha = 1;
  for (let e = 0; e < tr.count; e++) {
    const p = 8 * e;
    if (q[p + 7] !== MAT_NEOHOOKEAN) continue;
    const a = 2 * tr.nodes[3 * e]!, b = 2 * tr.nodes[3 * e + 1]!, c = 2 * tr.nodes[3 * e + 2]!;
    const b00 = q[p + 3]!, b01 = q[p + 4]!, b10 = q[p + 5]!, b11 = q[p + 6]!;
    const d0x = x[b]! - x[a]!, d0y = x[b + 1]! - x[a + 1]!, d1x = x[c]! - x[a]!, d1y = x[c + 1]! - x[a + 1]!;
    const e0x = dx[b]! - dx[a]!, e0y = dx[b + 1]! - dx[a + 1]!, e1x = dx[c]! - dx[a]!, e1y = dx[c + 1]! - dx[a + 1]!;
    const f00 = d0x * b00 + d1x * b10, f10 = d0y * b00 + d1y * b10, f01 = d0x * b01 + d1x * b11, f11 = d0y * b01 + d1y * b11;
    const g00 = e0x * b00 + e1x * b10, g10 = e0y * b00 + e1y * b10, g01 = e0x * b01 + e1x * b11, g11 = e0y * b01 + e1y * b11;
    const J0 = f00 * f11 - f01 * f10;
    if (!(J0 > 0)) continue;
    const lin = f00 * g11 + g00 * f11 - f01 * g10 - g01 * f10;
    const quad = g00 * g11 - g01 * g10;
    const root = smallestPositiveRoot(quad, lin, J0);
    if (root < Infinity) {
      const lim = INVERSION_SAFETY * root;
      if (lim < alpha) alpha = lim;
    }
  }
  return alpha;
}

/** Smallest α > 0 with c α² + b α + J0 = 0 (J0 > 0), or Infinity. */
function smallestPositiveRoot(c: number, b: number, J0: number): number {
  const scale = Math.abs(b) + Math.abs(c) + J0;
  if (Math.abs(c) <= 1e-14 * scale) return b < 0 ? -J0 / b : Infinity;
  const disc = b * b - 4 * c * J0;
  if (disc < 0) return Infinity;
  const s = Math.sqrt(disc);
  const qq = -0.5 * (b + (b >= 0 ? s : -s));
  let best = Infinity;
  if (qq !== 0) {
    const r1 = qq / c, r2 = J0 / qq;
    if (r1 > 0 && r1 < best) best = r1;
    if (r2 > 0 && r2 < best) best = r2;
  }
  return best;
}
