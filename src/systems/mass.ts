/**
 * Mass matrix products for the implicit integrators, lumped or consistent (Topology.massMatrix).
 *
 * Consistent triangle mass (linear triangle, thickness 1, density ρ, rest area Ā):
 *   M_ab = ρĀ/12 (1 + δab) I₂  (a, b the triangle's vertices; row sums ρĀ/3, as lumped).
 * M = diag(pointMass) + Σ_triangles of these blocks. Lumped: M = diag(Topology.mass).
 * Both have the same row sums, so gravity (M g) is identical; only inertia differs.
 * Fixed fixed order: point masses first, then triangles in creation order.
 */
import type { Topology } from './topology';

const BLOCK = new Float64Array(36);

/** out = M d (out zeroed first). */
export function massMatVec(t: Topology, d: Float64Array, out: Float64Array): void {
  const n = t.ndof;
  if (t.massMatrix === 'lumped') {
    for (let i = 0; i < n; i++) out[i] = t.mass[i]! * d[i]!;
    return;
  }
  const pm = t.pointMass;
  for (let i = 0; i < n; i++) out[i] = pm[i]! * d[i]!;
  const tr = t.triangles, tm = t.triMass;
  for (let e = 0; e < tr.count; e++) {
    const m = tm[e]! / 12;
    if (m === 0) continue;
    const a = 2 * tr.nodes[3 * e]!, b = 2 * tr.nodes[3 * e + 1]!, c = 2 * tr.nodes[3 * e + 2]!;
    const sx = d[a]! + d[b]! + d[c]!, sy = d[a + 1]! + d[b + 1]! + d[c + 1]!;
    // row a: m (2 d_a + d_b + d_c) = m (sum + d_a)
    out[a] = out[a]! + m * (sx + d[a]!);
    out[a + 1] = out[a + 1]! + m * (sy + d[a + 1]!);
    out[b] = out[b]! + m * (sx + d[b]!);
    out[b + 1] = out[b + 1]! + m * (sy + d[b + 1]!);
    out[c] = out[c]! + m * (sx + d[c]!);
    out[c + 1] = out[c + 1]! + m * (sy + d[c + 1]!);
  }
}

/** dᵀ M d, using `scratch` (length ndof). */
export function massQuadratic(t: Topology, d: Float64Array, scratch: Float64Array): number {
  massMatVec(t, d, scratch);
  let s = 0;
  for (let i = 0; i < t.ndof; i++) s += d[i]! * scratch[i]!;
  return s;
}

/** values += scale · M on the topology's matrix slots (before fixed rows are made identity). */
export function addMassMatrix(t: Topology, values: Float64Array, scale = 1): void {
  const diag = t.diag;
  if (t.massMatrix === 'lumped') {
    for (let i = 0; i < t.ndof; i++) values[diag[i]!] = values[diag[i]!]! + scale * t.mass[i]!;
    return;
  }
  for (let i = 0; i < t.ndof; i++) values[diag[i]!] = values[diag[i]!]! + scale * t.pointMass[i]!;
  const tr = t.triangles, tm = t.triMass;
  for (let e = 0; e < tr.count; e++) {
    if (tm[e] === 0) continue;
    const m = tm[e]! / 12;
    for (let r = 0; r < 6; r++) {
      for (let c = 0; c < 6; c++) BLOCK[r * 6 + c] = (r & 1) === (c & 1) ? ((r >> 1) === (c >> 1) ? 2 * m : m) : 0;
    }
    const map = tr.scatter, base = e * 36;
    for (let r = 0; r < 36; r++) {
      const slot = map[base + r]!;
      if (slot >= 0) values[slot] = values[slot]! + scale * BLOCK[r]!;
    }
  }
}
