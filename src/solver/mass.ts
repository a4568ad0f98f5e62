/**
 * Mass matrix products for the implicit integrators, lumped or consistent (Topology.massMatrix).
 *
 * Consistent triangle mass (linear triangle, thickness 1, density ρ, rest area Ā):
 *   M_ab = ρĀ/12 (1 + δab) I₂  (a, b the triangle's vertices; row sums ρĀ/3, as lumped).
 * M = diag(pointMass) + Σ_triangles of these blocks. Lumped: M = diag(Topology.mass).
 * Both have the same row sums, so gravity (M g) is identical; only inertia differs.
 * Fixed fixed order: point masses first, then triangles in creation order.
 *
 * Scale through MSC, loop kernels with nothing before or after the loop: docs/design.md, "Scratch and
 * calling convention".
 */
import type { Topology } from './topology';

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

/**
 * values += scale · M on the topology's matrix slots (before fixed rows are made identity).
 * A driver over loop kernels of typed arrays (scale passed through a scratch array, not as a
 * double argument V8 would box; every operation of a kernel runs on every iteration, nothing after
 * the loop: docs/solver.md, "Allocation work").
 */
export function addMassMatrix(t: Topology, values: Float64Array, scale = 1): void {
  MSC[0] = scale;
  if (t.massMatrix === 'lumped') {
    addScaledDiagonal(t.ndof, t.diag, t.mass, MSC, values);
    return;
  }
  addScaledDiagonal(t.ndof, t.diag, t.pointMass, MSC, values);
  addConsistentBlocks(t.triangles.count, t.triMass, t.triangles.scatter, MSC, values);
}

/** Scale passed to the kernels below. */
const MSC = new Float64Array(1);

/**
 * Consistent triangle block M_e = m (1 + δab) I₂ (m = ρĀ/12) as coefficients of m: 2 on the
 * diagonal of each vertex's 2×2 block, 1 on the same-axis entries of the off-diagonal blocks,
 * 0 elsewhere (row-major 6×6, dofs ax ay bx by cx cy).
 */
const BLOCK_COEF = (() => {
  const k = new Float64Array(36);
  for (let r = 0; r < 6; r++) for (let c = 0; c < 6; c++) k[r * 6 + c] = (r & 1) === (c & 1) ? ((r >> 1) === (c >> 1) ? 2 : 1) : 0;
  return k;
})();

/** values[diag[i]] += sc[0] · m[i] for every dof. */
function addScaledDiagonal(n: number, diag: Int32Array, m: Float64Array, sc: Float64Array, values: Float64Array): void {
  const scale = sc[0]!;
  for (let i = 0; i < n; i++) values[diag[i]!] = values[diag[i]!]! + scale * m[i]!;
}

/**
 * values += sc[0] · M_e on each triangle's 36 scatter slots (triangles of zero mass and
 * slots < 0 unchanged). Entries 2m, m, 0 as BLOCK_COEF · m (exact: ×2, ×1, ×0 of m ≥ 0);
 * unchanged entries are rewritten with their own value so every operation runs every time.
 */
function addConsistentBlocks(count: number, tm: Float64Array, map: Int32Array, sc: Float64Array, values: Float64Array): void {
  const scale = sc[0]!;
  for (let e = 0; e < count; e++) {
    const mass = tm[e]!;
    const skip = mass === 0;
    const m = mass / 12;
    const base = e * 36;
    for (let r = 0; r < 36; r++) {
      const slot = map[base + r]!;
      const valid = slot >= 0;
      const at = valid ? slot : 0;
      const old = values[at]!;
      const next = old + scale * (BLOCK_COEF[r]! * m);
      values[at] = valid && !skip ? next : old;
    }
  }
}
