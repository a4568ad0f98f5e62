/**
 * FOSSSim's penalty contact force (`<collision type="penalty" k thickness>`), as pure kernels:
 * for a detection vector n (from the particle towards the other object) with ‖n‖ < L = R + T,
 * E = ½ k (‖n‖ − L)². Three pair kinds:
 *   particle–particle  (x1, x2):     n = x2 − x1
 *   particle–edge      (x1, x2, x3): n = x2 + α (x3 − x2) − x1, α the closest-point parameter clamped to [0, 1]
 *   particle–half-plane (x1; p, n̂): n = ((p − x1)·n̂) n̂
 * The gradient splits the edge's share (1 − α) : α onto its ends (exact: α minimizes ‖n‖).
 * Hessians are exact (with α's own derivatives inside the edge); the *GN variants are the
 * Gauss–Newton part k wwᵀ (positive semidefinite) for game-mode Newton. Local DOF order: node 1
 * (x, y), node 2, node 3. Outputs are written (not added) at `o`. A pair with ‖n‖ = 0 has no
 * direction and gives zeros. docs/scene-format.md (Contact, penalty).
 */

/** Active when 0 < ‖n‖ < L (strict, as FOSSSim's test). */
export function penaltyActive(d: number, L: number): boolean {
  return d < L && d > 0;
}

export function penaltyEnergyOfDistance(d: number, L: number, k: number): number {
  if (!penaltyActive(d, L)) return 0;
  const s = d - L;
  return 0.5 * k * s * s;
}

// ---- particle–particle ------------------------------------------------------------------------

export function ppEnergy(x1: number, y1: number, x2: number, y2: number, L: number, k: number): number {
  const nx = x2 - x1, ny = y2 - y1;
  return penaltyEnergyOfDistance(Math.sqrt(nx * nx + ny * ny), L, k);
}

/** g[o..o+4) ← dE/d(x1, y1, x2, y2). */
export function ppGradient(x1: number, y1: number, x2: number, y2: number, L: number, k: number, g: Float64Array, o: number): void {
  const nx = x2 - x1, ny = y2 - y1;
  const d = Math.sqrt(nx * nx + ny * ny);
  if (!penaltyActive(d, L)) {
    g.fill(0, o, o + 4);
    return;
  }
  const c = (k * (d - L)) / d;
  g[o] = -c * nx;
  g[o + 1] = -c * ny;
  g[o + 2] = c * nx;
  g[o + 3] = c * ny;
}

/** 2×2 block k[n̂n̂ᵀ + ((d − L)/d)(I − n̂n̂ᵀ)] (gn: k n̂n̂ᵀ) into b[0..4) row-major. */
function distanceBlock(nx: number, ny: number, d: number, L: number, k: number, gn: boolean, b: Float64Array): void {
  const ux = nx / d, uy = ny / d;
  const t = gn ? 0 : (d - L) / d;
  b[0] = k * (ux * ux + t * (1 - ux * ux));
  b[1] = k * (ux * uy - t * ux * uy);
  b[2] = b[1]!;
  b[3] = k * (uy * uy + t * (1 - uy * uy));
}

const blk = new Float64Array(4);

/** h[o..o+16) ← the 4×4 Hessian (row-major); gn: its Gauss–Newton part. */
export function ppHessian(x1: number, y1: number, x2: number, y2: number, L: number, k: number, gn: boolean, h: Float64Array, o: number): void {
  h.fill(0, o, o + 16);
  const nx = x2 - x1, ny = y2 - y1;
  const d = Math.sqrt(nx * nx + ny * ny);
  if (!penaltyActive(d, L)) return;
  distanceBlock(nx, ny, d, L, k, gn, blk);
  for (let r = 0; r < 2; r++) {
    for (let c = 0; c < 2; c++) {
      const v = blk[2 * r + c]!;
      h[o + r * 4 + c] = v;
      h[o + (r + 2) * 4 + c + 2] = v;
      h[o + r * 4 + c + 2] = -v;
      h[o + (r + 2) * 4 + c] = -v;
    }
  }
}

// ---- particle–edge ----------------------------------------------------------------------------

/** α = (x1 − x2)·e/‖e‖² clamped to [0, 1] (NaN for a zero-length edge → 0). */
export function edgeAlpha(x1: number, y1: number, x2: number, y2: number, x3: number, y3: number): number {
  const ex = x3 - x2, ey = y3 - y2;
  const a = ((x1 - x2) * ex + (y1 - y2) * ey) / (ex * ex + ey * ey);
  return a > 1 ? 1 : a > 0 ? a : 0;
}

export function peEnergy(x1: number, y1: number, x2: number, y2: number, x3: number, y3: number, L: number, k: number): number {
  const al = edgeAlpha(x1, y1, x2, y2, x3, y3);
  const nx = x2 + al * (x3 - x2) - x1, ny = y2 + al * (y3 - y2) - y1;
  return penaltyEnergyOfDistance(Math.sqrt(nx * nx + ny * ny), L, k);
}

/** g[o..o+6) ← dE/d(x1, y1, x2, y2, x3, y3): −c n̂ on the particle, (1 − α) c n̂ and α c n̂ on the edge's ends. */
export function peGradient(
  x1: number, y1: number, x2: number, y2: number, x3: number, y3: number, L: number, k: number, g: Float64Array, o: number,
): void {
  const al = edgeAlpha(x1, y1, x2, y2, x3, y3);
  const nx = x2 + al * (x3 - x2) - x1, ny = y2 + al * (y3 - y2) - y1;
  const d = Math.sqrt(nx * nx + ny * ny);
  if (!penaltyActive(d, L)) {
    g.fill(0, o, o + 6);
    return;
  }
  const c = (k * (d - L)) / d;
  g[o] = -c * nx;
  g[o + 1] = -c * ny;
  g[o + 2] = (1 - al) * c * nx;
  g[o + 3] = (1 - al) * c * ny;
  g[o + 4] = al * c * nx;
  g[o + 5] = al * c * ny;
}

const J = new Float64Array(12); // 2×6 Jacobian of n
const A6 = new Float64Array(6); // ∂α/∂X
const B6 = new Float64Array(6); // n̂·∂e/∂X

/** h[o..o+36) ← the 6×6 Hessian (row-major), exact including ∂α/∂X inside the edge; gn: k wwᵀ. */
export function peHessian(
  x1: number, y1: number, x2: number, y2: number, x3: number, y3: number, L: number, k: number, gn: boolean, h: Float64Array, o: number,
): void {
  h.fill(0, o, o + 36);
  const ex = x3 - x2, ey = y3 - y2, ee = ex * ex + ey * ey;
  const ux = x1 - x2, uy = y1 - y2;
  const raw = (ux * ex + uy * ey) / ee;
  const al = raw > 1 ? 1 : raw > 0 ? raw : 0;
  const nx = x2 + al * ex - x1, ny = y2 + al * ey - y1;
  const d = Math.sqrt(nx * nx + ny * ny);
  if (!penaltyActive(d, L)) return;
  // J0 = [−I, (1 − α) I, α I]
  J.fill(0);
  J[0] = -1; J[6 + 1] = -1;
  J[2] = 1 - al; J[6 + 3] = 1 - al;
  J[4] = al; J[6 + 5] = al;
  const interior = !gn && raw > 0 && raw < 1;
  if (interior) {
    A6[0] = ex / ee; A6[1] = ey / ee;
    A6[2] = ((2 * al - 1) * ex - ux) / ee; A6[3] = ((2 * al - 1) * ey - uy) / ee;
    A6[4] = (ux - 2 * al * ex) / ee; A6[5] = (uy - 2 * al * ey) / ee;
    for (let c = 0; c < 6; c++) {
      J[c] = J[c]! + ex * A6[c]!;
      J[6 + c] = J[6 + c]! + ey * A6[c]!;
    }
  }
  distanceBlock(nx, ny, d, L, k, gn, blk);
  // JᵀBJ
  for (let r = 0; r < 6; r++) {
    const br0 = blk[0]! * J[r]! + blk[2]! * J[6 + r]!; // (Bᵀ J)_(0,r) = row 0 of B·J column r (B symmetric)
    const br1 = blk[1]! * J[r]! + blk[3]! * J[6 + r]!;
    for (let c = 0; c < 6; c++) h[o + r * 6 + c] = br0 * J[c]! + br1 * J[6 + c]!;
  }
  if (interior) {
    const cc = (k * (d - L)) / d; // c · n̂ = cc · n
    B6[0] = 0; B6[1] = 0; B6[2] = -nx; B6[3] = -ny; B6[4] = nx; B6[5] = ny;
    for (let r = 0; r < 6; r++) {
      for (let c = 0; c < 6; c++) h[o + r * 6 + c] = h[o + r * 6 + c]! + cc * (A6[r]! * B6[c]! + B6[r]! * A6[c]!);
    }
  }
}

// ---- particle–half-plane ----------------------------------------------------------------------

/** (nhx, nhy) must be unit length. */
export function phEnergy(x1: number, y1: number, px: number, py: number, nhx: number, nhy: number, L: number, k: number): number {
  const s = (px - x1) * nhx + (py - y1) * nhy;
  return penaltyEnergyOfDistance(Math.abs(s), L, k);
}

/** g[o..o+2) ← dE/d(x1, y1) = −k(‖n‖ − L) n/‖n‖. */
export function phGradient(x1: number, y1: number, px: number, py: number, nhx: number, nhy: number, L: number, k: number, g: Float64Array, o: number): void {
  const s = (px - x1) * nhx + (py - y1) * nhy;
  const nx = s * nhx, ny = s * nhy;
  const d = Math.sqrt(nx * nx + ny * ny);
  if (!penaltyActive(d, L)) {
    g[o] = 0;
    g[o + 1] = 0;
    return;
  }
  const c = (k * (d - L)) / d;
  g[o] = -c * nx;
  g[o + 1] = -c * ny;
}

/** h[o..o+4) ← k n̂ n̂ᵀ when active (exact: ‖n‖ is linear in x on each side). */
export function phHessian(x1: number, y1: number, px: number, py: number, nhx: number, nhy: number, L: number, k: number, h: Float64Array, o: number): void {
  const s = (px - x1) * nhx + (py - y1) * nhy;
  const d = Math.abs(s);
  if (!penaltyActive(d, L)) {
    h.fill(0, o, o + 4);
    return;
  }
  h[o] = k * nhx * nhx;
  h[o + 1] = k * nhx * nhy;
  h[o + 2] = k * nhx * nhy;
  h[o + 3] = k * nhy * nhy;
}
