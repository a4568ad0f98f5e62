/**
 * Positive-semidefinite projections of element Hessians, for Newton's method
 * on the incremental potential (every Newton direction a descent direction).
 *
 * - Two-node pair forms H = [[K, −K], [−K, K]] (springs, FOSSSim springs,
 *   gravitation) have eigenvalues 2·eig(K) on the vectors (e, −e)/√2 plus a
 *   zero pair, so projecting the 2×2 K in closed form projects H exactly.
 *   For the elastic spring K = k (n nᵀ + t (I − n nᵀ)), t = (l − l0)/l, the
 *   projection is the clamp t → max(t, 0).
 * - The CST Hessian is Jᵀ H_F J with the constant 4×6 map J = ∂F/∂x of full row
 *   rank 4 (only translations in its null space), so H is PSD exactly when the
 *   4×4 H_F is. We project H_F (skipped when a Cholesky test shows it is
 *   already PSD, the common case) and map it back: PSD, and equal to the exact
 *   Hessian wherever that is PSD.
 * - Bending hinges: the 6×6 Hessian is projected by a symmetric Jacobi eigensolve.
 *
 * Only sqrt and + − × ÷: deterministic. Module scratch, no allocation per call.
 *
 * Scalar forms and the At-form cstHessianPSDAt (TRI_* layout): docs/design.md, "Scratch and calling
 * convention".
 */
import { bendingHessian } from './bending';
import { writePairBlocks } from './spring';
import { TRI_AREA, TRI_B00, TRI_E, TRI_NU } from './layout';

const JA = new Float64Array(36);
const JV = new Float64Array(36);
const JL = new Float64Array(6);
const HF = new Float64Array(16);

/**
 * Project the symmetric n×n matrix a[o..o+n²) (row-major, n ≤ 6) onto the PSD
 * cone in place (negative eigenvalues set to zero) by cyclic Jacobi rotations.
 * Returns the number of sweeps used.
 */
export function projectSymPSD(a: Float64Array, o: number, n: number): number {
  const A = JA, V = JV;
  let fro = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const v = 0.5 * (a[o + i * n + j]! + a[o + j * n + i]!);
      A[i * n + j] = v;
      V[i * n + j] = i === j ? 1 : 0;
      fro += v * v;
    }
  }
  const stop = fro * 1e-30;
  let sweep = 0;
  for (; sweep < 30; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += A[p * n + q]! * A[p * n + q]!;
    if (!(off > stop)) break;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = A[p * n + q]!;
        if (apq === 0) continue;
        const app = A[p * n + p]!, aqq = A[q * n + q]!;
        const theta = (aqq - app) / (2 * apq);
        const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        // A <- Jᵀ A J with J the rotation in the (p, q) plane
        for (let k = 0; k < n; k++) {
          const akp = A[k * n + p]!, akq = A[k * n + q]!;
          A[k * n + p] = c * akp - s * akq;
          A[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = A[p * n + k]!, aqk = A[q * n + k]!;
          A[p * n + k] = c * apk - s * aqk;
          A[q * n + k] = s * apk + c * aqk;
        }
        A[p * n + q] = 0;
        A[q * n + p] = 0;
        for (let k = 0; k < n; k++) {
          const vkp = V[k * n + p]!, vkq = V[k * n + q]!;
          V[k * n + p] = c * vkp - s * vkq;
          V[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  let anyNeg = false;
  for (let i = 0; i < n; i++) {
    const l = A[i * n + i]!;
    JL[i] = l > 0 ? l : 0;
    if (l < 0) anyNeg = true;
  }
  if (!anyNeg) return sweep; // already PSD: leave the input bit-identical
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += V[i * n + k]! * JL[k]! * V[j * n + k]!;
      a[o + i * n + j] = s;
      a[o + j * n + i] = s;
    }
  }
  return sweep;
}

/**
 * True when the symmetric 4×4 matrix m (row-major) is positive semidefinite,
 * by an LDLᵀ without pivoting in which pivots within a relative 1e-12 of zero
 * count as zero (their column is then dropped).
 */
export function isPSD4(m: Float64Array): boolean {
  const L = JA;
  let dmax = 0;
  for (let i = 0; i < 4; i++) dmax = Math.max(dmax, Math.abs(m[5 * i]!));
  const tol = 1e-12 * dmax;
  for (let i = 0; i < 16; i++) L[i] = m[i]!;
  for (let k = 0; k < 4; k++) {
    const d = L[5 * k]!;
    if (d < -tol || d !== d) return false;
    if (d <= tol) {
      for (let i = k + 1; i < 4; i++) if (Math.abs(L[4 * i + k]!) > 1e-6 * Math.sqrt(dmax * Math.abs(L[5 * i]!)) + tol) return false;
      continue;
    }
    for (let i = k + 1; i < 4; i++) {
      const lik = L[4 * i + k]! / d;
      for (let j = k + 1; j <= i; j++) L[4 * i + j] = L[4 * i + j]! - lik * L[4 * j + k]!;
    }
  }
  return true;
}

/**
 * Closed-form PSD projection of the symmetric 2×2 [[a, b], [b, d]]; writes the
 * pair form [[K, −K], [−K, K]] of the projected K as a 4×4 row-major matrix.
 */
export function writePairBlocksPSD(a: number, b: number, d: number, out: Float64Array, o: number): void {
  const tr = a + d;
  const det = a * d - b * b;
  if (a >= 0 && d >= 0 && det >= 0) {
    writePairBlocks(a, b, b, d, out, o);
    return;
  }
  const half = 0.5 * (a - d);
  const r = Math.sqrt(half * half + b * b);
  const l1 = 0.5 * tr + r; // largest eigenvalue
  if (!(l1 > 0)) {
    writePairBlocks(0, 0, 0, 0, out, o);
    return;
  }
  // eigenvector of l1: (b, l1 - a) or (l1 - d, b), whichever is better conditioned
  let ex: number, ey: number;
  if (Math.abs(l1 - a) > Math.abs(l1 - d)) {
    ex = b; ey = l1 - a;
  } else {
    ex = l1 - d; ey = b;
  }
  const nn = ex * ex + ey * ey;
  if (!(nn > 0)) {
    // b = 0 and a = d = l1 > 0 cannot reach here (det >= 0); a diagonal with one negative entry does
    writePairBlocks(a > 0 ? a : 0, 0, 0, d > 0 ? d : 0, out, o);
    return;
  }
  const s = l1 / nn;
  writePairBlocks(s * ex * ex, s * ex * ey, s * ex * ey, s * ey * ey, out, o);
}

/** Elastic spring Hessian with the transverse term clamped: K = (α/l0)(n nᵀ + max(t, 0)(I − n nᵀ)). */
export function springHessianPSD(
  x1: number, y1: number, x2: number, y2: number, alpha: number, l0: number,
  out: Float64Array, o: number,
): void {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const l = Math.sqrt(dx * dx + dy * dy);
  const nx = dx / l;
  const ny = dy / l;
  const k = alpha / l0;
  let t = (l - l0) / l;
  if (t < 0) t = 0;
  if (k < 0) {
    writePairBlocksPSD(k * (nx * nx + t * (1 - nx * nx)), k * (nx * ny - t * nx * ny), k * (ny * ny + t * (1 - ny * ny)), out, o);
    return;
  }
  const kxy = k * (nx * ny - t * nx * ny);
  writePairBlocks(k * (nx * nx + t * (1 - nx * nx)), kxy, kxy, k * (ny * ny + t * (1 - ny * ny)), out, o);
}

/** FOSSSim spring, potential part only (damping excluded): K = k (n nᵀ + t (I − n nᵀ)), projected. */
export function fsSpringHessXPSD(
  xi: number, yi: number, xj: number, yj: number, k: number, l0: number,
  out: Float64Array, o: number,
): void {
  const dx = xj - xi;
  const dy = yj - yi;
  const l = Math.sqrt(dx * dx + dy * dy);
  const nx = dx / l;
  const ny = dy / l;
  const t = (l - l0) / l;
  writePairBlocksPSD(k * (nx * nx + t * (1 - nx * nx)), k * (nx * ny - t * nx * ny), k * (ny * ny + t * (1 - ny * ny)), out, o);
}

/** FOSSSim gravitation: K = G mi mj / r³ (I − 3 n nᵀ), projected. */
export function fsGravitationHessXPSD(
  xi: number, yi: number, xj: number, yj: number, G: number, mi: number, mj: number,
  out: Float64Array, o: number,
): void {
  const dx = xj - xi;
  const dy = yj - yi;
  const r2 = dx * dx + dy * dy;
  const r = Math.sqrt(r2);
  const s = (G * mi * mj) / (r2 * r);
  const nx = dx / r;
  const ny = dy / r;
  writePairBlocksPSD(s * (1 - 3 * nx * nx), -3 * s * nx * ny, s * (1 - 3 * ny * ny), out, o);
}

/** Bending hinge Hessian projected to PSD (6×6 Jacobi eigensolve). */
export function bendingHessianPSD(
  x1: number, y1: number, x2: number, y2: number, x3: number, y3: number,
  alpha: number, theta0: number, ebSum: number,
  out: Float64Array, o: number,
): void {
  bendingHessian(x1, y1, x2, y2, x3, y3, alpha, theta0, ebSum, out, o);
  projectSymPSD(out, o, 6);
}

/**
 * FOSSSim CST Hessian (see cst.ts) with its 4×4 deformation-gradient Hessian
 * H_F made PSD before mapping to the 6×6 nodal Hessian. H_F is used as is when
 * an LDLᵀ test shows it PSD (then the result is the exact Hessian). Otherwise,
 * by default, its stress part is clamped in closed form (cheap, PSD, the exact
 * Hessian wherever the stress is PSD); with `exact` = true the nearest PSD
 * matrix (eigenvalues clamped, Jacobi eigensolve) replaces H_F instead.
 */
export function cstHessianPSD(
  x1: number, y1: number, x2: number, y2: number, x3: number, y3: number,
  E: number, nu: number, area: number,
  b00: number, b01: number, b10: number, b11: number,
  out: Float64Array, o: number, exact = false,
): void {
  const X = XS, P = PS;
  X[0] = x1; X[1] = y1; X[2] = x2; X[3] = y2; X[4] = x3; X[5] = y3;
  P[0] = E; P[1] = nu; P[2] = area; P[3] = b00; P[4] = b01; P[5] = b10; P[6] = b11;
  cstHessianPSDAt(X, 0, 2, 4, P, 0, out, o, exact);
}

const XS = new Float64Array(6);
const PS = new Float64Array(7);

/**
 * cstHessianPSD reading its inputs from arrays: node coordinates at x[a], x[a+1]
 * (likewise b, c) and (E, ν, area, b00, b01, b10, b11) at q[p + TRI_*] (layout.ts). Hot loops
 * call this form: integer and array arguments are passed without boxing,
 * whereas 13 double arguments to a call V8 does not inline are boxed into heap
 * numbers (≈200 B of garbage per triangle). Same arithmetic, same results.
 */
export function cstHessianPSDAt(
  x: Float64Array, a: number, b: number, nc: number, q: Float64Array, p: number,
  out: Float64Array, o: number, exact = false,
): void {
  const x1 = x[a]!, y1 = x[a + 1]!, x2 = x[b]!, y2 = x[b + 1]!, x3 = x[nc]!, y3 = x[nc + 1]!;
  const E = q[p + TRI_E]!, nu = q[p + TRI_NU]!, area = q[p + TRI_AREA]!;
  const b00 = q[p + TRI_B00]!, b01 = q[p + TRI_B00 + 1]!, b10 = q[p + TRI_B00 + 2]!, b11 = q[p + TRI_B00 + 3]!;
  const d0x = x2 - x1, d0y = y2 - y1, d1x = x3 - x1, d1y = y3 - y1;
  const f0 = d0x * b00 + d1x * b10;
  const f1 = d0y * b00 + d1y * b10;
  const f2 = d0x * b01 + d1x * b11;
  const f3 = d0y * b01 + d1y * b11;
  const exx = f0 * f0 + f1 * f1 - 1;
  const eyy = f2 * f2 + f3 * f3 - 1;
  const exy = f0 * f2 + f1 * f3;
  const c = (E * area) / (2 * (1 - nu * nu));
  const sxx = 2 * c * (exx + nu * eyy);
  const syy = 2 * c * (eyy + nu * exx);
  const sxy = 4 * c * (1 - nu) * exy;
  const cs = 4 * c * (1 - nu);
  const c8 = 8 * c;
  const cn = 8 * c * nu;
  const H = HF;
  H[0] = c8 * f0 * f0 + cs * f2 * f2 + 2 * sxx;
  H[1] = c8 * f0 * f1 + cs * f2 * f3;
  H[5] = c8 * f1 * f1 + cs * f3 * f3 + 2 * sxx;
  H[10] = c8 * f2 * f2 + cs * f0 * f0 + 2 * syy;
  H[11] = c8 * f2 * f3 + cs * f0 * f1;
  H[15] = c8 * f3 * f3 + cs * f1 * f1 + 2 * syy;
  H[2] = cn * f0 * f2 + cs * f2 * f0 + sxy;
  H[3] = cn * f0 * f3 + cs * f2 * f1;
  H[6] = cn * f1 * f2 + cs * f3 * f0;
  H[7] = cn * f1 * f3 + cs * f3 * f1 + sxy;
  H[4] = H[1];
  H[14] = H[11];
  H[8] = H[2]; H[9] = H[6];
  H[12] = H[3]; H[13] = H[7];
  if (!isPSD4(H)) {
    if (exact) {
      projectSymPSD(H, 0, 4);
    } else {
      // H_F = G + S ⊗ I₂ with the Gauss–Newton part G PSD (|ν| < 1) and the
      // stress part S = [[2 Sxx, Sxy], [Sxy, 2 Syy]]: replace S by its PSD projection.
      projectSym2(2 * sxx, sxy, 2 * syy);
      const pp = P2[0]!, pq = P2[1]!, pr = P2[2]!;
      H[0] = H[0]! - 2 * sxx + pp;
      H[5] = H[5]! - 2 * sxx + pp;
      H[10] = H[10]! - 2 * syy + pr;
      H[15] = H[15]! - 2 * syy + pr;
      H[2] = H[2]! - sxy + pq;
      H[7] = H[7]! - sxy + pq;
      H[8] = H[2]!;
      H[13] = H[7]!;
    }
  }
  mapF(q, p + 3, H, out, o);
}

const P2 = new Float64Array(3);

/** PSD projection of [[a, b], [b, d]] into P2 = (a', b', d'). */
function projectSym2(a: number, b: number, d: number): void {
  if (a >= 0 && d >= 0 && a * d - b * b >= 0) {
    P2[0] = a; P2[1] = b; P2[2] = d;
    return;
  }
  const half = 0.5 * (a - d);
  const r = Math.sqrt(half * half + b * b);
  const l1 = 0.5 * (a + d) + r;
  let ex: number, ey: number;
  if (Math.abs(l1 - a) > Math.abs(l1 - d)) {
    ex = b; ey = l1 - a;
  } else {
    ex = l1 - d; ey = b;
  }
  const nn = ex * ex + ey * ey;
  if (!(l1 > 0) || !(nn > 0)) {
    P2[0] = a > 0 ? a : 0; P2[1] = 0; P2[2] = d > 0 ? d : 0;
    if (!(l1 > 0)) P2[0] = P2[2] = 0;
    return;
  }
  const s = l1 / nn;
  P2[0] = s * ex * ex; P2[1] = s * ex * ey; P2[2] = s * ey * ey;
}

/** out = Jᵀ H J for the CST map J (u = Σ cu[n] x_n, w = Σ cw[n] x_n); (b00, b01, b10, b11) at bq[bo..bo+3]. */
function mapF(bq: Float64Array, bo: number, H: Float64Array, out: Float64Array, o: number): void {
  const b00 = bq[bo]!, b01 = bq[bo + 1]!, b10 = bq[bo + 2]!, b11 = bq[bo + 3]!;
  const h00 = H[0]!, h01 = H[1]!, h02 = H[2]!, h03 = H[3]!;
  const h11 = H[5]!, h12 = H[6]!, h13 = H[7]!;
  const h22 = H[10]!, h23 = H[11]!, h33 = H[15]!;
  for (let n = 0; n < 3; n++) {
    const cun = n === 0 ? -(b00 + b10) : n === 1 ? b00 : b10;
    const cwn = n === 0 ? -(b01 + b11) : n === 1 ? b01 : b11;
    for (let m = n; m < 3; m++) {
      const cum = m === 0 ? -(b00 + b10) : m === 1 ? b00 : b10;
      const cwm = m === 0 ? -(b01 + b11) : m === 1 ? b01 : b11;
      const uu = cun * cum, uw = cun * cwm, wu = cwn * cum, ww = cwn * cwm;
      // block (n, m): rows i of node n, columns j of node m
      const xx = uu * h00 + uw * h02 + wu * h02 + ww * h22;
      const xy = uu * h01 + uw * h03 + wu * h12 + ww * h23;
      const yx = uu * h01 + uw * h12 + wu * h03 + ww * h23;
      const yy = uu * h11 + uw * h13 + wu * h13 + ww * h33;
      const r0 = o + 2 * n * 6 + 2 * m, r1 = r0 + 6;
      out[r0] = xx; out[r0 + 1] = xy; out[r1] = yx; out[r1 + 1] = yy;
      if (m !== n) {
        const s0 = o + 2 * m * 6 + 2 * n, s1 = s0 + 6;
        out[s0] = xx; out[s0 + 1] = yx; out[s1] = xy; out[s1 + 1] = yy;
      }
    }
  }
}
