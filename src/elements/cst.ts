/**
 * FOSSSim constant-strain triangle (T4M1).
 *   D = [x2 - x1, x3 - x1] (2x2, columns), F = D * B with B = Dbar^{-1},
 *   eps = F^T F - I  (no 1/2 factor),
 *   W = E A / (2 (1 - nu^2)) [eps_xx^2 + 2 nu eps_xx eps_yy + eps_yy^2 + 2 (1 - nu) eps_xy^2],
 *   A = rest area |det Dbar| / 2. B is passed row-major as (b00, b01, b10, b11).
 * DOF order (x1, y1, x2, y2, x3, y3). Gradient +dW/dx (6), Hessian +d2W/dx2 (6x6 row-major).
 *
 * With u = F[:,0], w = F[:,1]: eps_xx = |u|^2 - 1, eps_yy = |w|^2 - 1, eps_xy = u . w.
 * u = b00 D0 + b10 D1, w = b01 D0 + b11 D1, so du/dx_n = cu[n] I, dw/dx_n = cw[n] I with
 * cu = (-(b00 + b10), b00, b10), cw = (-(b01 + b11), b01, b11).
 *
 * Scalar forms (number in, number out) for tests and tools; At-forms (array offsets, TRI_* layout) for
 * the assembly loops: docs/design.md, "Scratch and calling convention".
 */

// 4x4 Hessian of W in f = (u_x, u_y, w_x, w_y); module scratch, no per-call allocation.
const HF = new Float64Array(16);

/**
 * Rest data: writes [area, b00, b01, b10, b11] at out[o..o+4] (B = Dbar^{-1} row-major)
 * and returns the area (positive), or 0 (and zeros) for a degenerate triangle.
 */
import { TRI_AREA, TRI_B00, TRI_E, TRI_NU } from './layout';

export function cstRest(
  xb1x: number, xb1y: number, xb2x: number, xb2y: number, xb3x: number, xb3y: number,
  out: Float64Array, o = 0,
): number {
  const d00 = xb2x - xb1x;
  const d01 = xb3x - xb1x;
  const d10 = xb2y - xb1y;
  const d11 = xb3y - xb1y;
  const det = d00 * d11 - d01 * d10;
  if (det === 0 || det !== det) {
    out[o] = 0; out[o + 1] = 0; out[o + 2] = 0; out[o + 3] = 0; out[o + 4] = 0;
    return 0;
  }
  const area = Math.abs(det) * 0.5;
  out[o] = area;
  out[o + 1] = d11 / det;
  out[o + 2] = -d01 / det;
  out[o + 3] = -d10 / det;
  out[o + 4] = d00 / det;
  return area;
}

/** Green strain without the 1/2 (eps = F^T F - I): writes eps_xx, eps_xy, eps_yy at out[o..o+2]. */
export function cstStrain(
  x1: number, y1: number, x2: number, y2: number, x3: number, y3: number,
  b00: number, b01: number, b10: number, b11: number,
  out: Float64Array, o: number,
): void {
  const d0x = x2 - x1, d0y = y2 - y1, d1x = x3 - x1, d1y = y3 - y1;
  const ux = d0x * b00 + d1x * b10;
  const uy = d0y * b00 + d1y * b10;
  const wx = d0x * b01 + d1x * b11;
  const wy = d0y * b01 + d1y * b11;
  out[o] = ux * ux + uy * uy - 1;
  out[o + 1] = ux * wx + uy * wy;
  out[o + 2] = wx * wx + wy * wy - 1;
}

/** Scratch for the scalar-argument forms, which delegate to the array forms (one implementation). */
const SX = new Float64Array(6);
const SQ = new Float64Array(7);
const SW = new Float64Array(1);

function packScalars(
  x1: number, y1: number, x2: number, y2: number, x3: number, y3: number,
  E: number, nu: number, area: number, b00: number, b01: number, b10: number, b11: number,
): void {
  SX[0] = x1; SX[1] = y1; SX[2] = x2; SX[3] = y2; SX[4] = x3; SX[5] = y3;
  SQ[0] = E; SQ[1] = nu; SQ[2] = area; SQ[3] = b00; SQ[4] = b01; SQ[5] = b10; SQ[6] = b11;
}

/** W = E A/(2(1-nu^2)) [exx^2 + 2 nu exx eyy + eyy^2 + 2(1-nu) exy^2]. */
export function cstEnergy(
  x1: number, y1: number, x2: number, y2: number, x3: number, y3: number,
  E: number, nu: number, area: number,
  b00: number, b01: number, b10: number, b11: number,
): number {
  packScalars(x1, y1, x2, y2, x3, y3, E, nu, area, b00, b01, b10, b11);
  cstEnergyAt(SX, 0, 2, 4, SQ, 0, SW, 0);
  return SW[0]!;
}

/**
 * dW/dx: with Sxx = dW/deps_xx = 2c(exx + nu eyy), Syy = 2c(eyy + nu exx), Sxy = 4c(1-nu) exy,
 * dW/du = 2 Sxx u + Sxy w, dW/dw = 2 Syy w + Sxy u; node n gets cu[n] dW/du + cw[n] dW/dw.
 */
export function cstGradient(
  x1: number, y1: number, x2: number, y2: number, x3: number, y3: number,
  E: number, nu: number, area: number,
  b00: number, b01: number, b10: number, b11: number,
  out: Float64Array, o: number,
): void {
  packScalars(x1, y1, x2, y2, x3, y3, E, nu, area, b00, b01, b10, b11);
  cstGradientAt(SX, 0, 2, 4, SQ, 0, out, o);
}

/**
 * Exact Hessian. In f = (u, w):
 *   H_F = c[2 ga ga^T + 2 nu (ga gb^T + gb ga^T) + 2 gb gb^T + 4(1-nu) gs gs^T]
 *         + Sxx diag(2,2,0,0) + Syy diag(0,0,2,2) + Sxy Swap,
 * ga = (2u, 0), gb = (0, 2w), gs = (w, u), Swap exchanges u and w. Then
 * H[(n,i),(m,j)] = sum_{p,q in {u,w}} c_p[n] c_q[m] H_F[(p,i),(q,j)].
 */
export function cstHessian(
  x1: number, y1: number, x2: number, y2: number, x3: number, y3: number,
  E: number, nu: number, area: number,
  b00: number, b01: number, b10: number, b11: number,
  out: Float64Array, o: number,
): void {
  const d0x = x2 - x1, d0y = y2 - y1, d1x = x3 - x1, d1y = y3 - y1;
  const ux = d0x * b00 + d1x * b10;
  const uy = d0y * b00 + d1y * b10;
  const wx = d0x * b01 + d1x * b11;
  const wy = d0y * b01 + d1y * b11;
  const exx = ux * ux + uy * uy - 1;
  const eyy = wx * wx + wy * wy - 1;
  const exy = ux * wx + uy * wy;
  const c = (E * area) / (2 * (1 - nu * nu));
  const sxx = 2 * c * (exx + nu * eyy);
  const syy = 2 * c * (eyy + nu * exx);
  const sxy = 4 * c * (1 - nu) * exy;
  const f0 = ux, f1 = uy, f2 = wx, f3 = wy;
  // ga = (2f0, 2f1, 0, 0), gb = (0, 0, 2f2, 2f3), gs = (f2, f3, f0, f1)
  const gs0 = f2, gs1 = f3, gs2 = f0, gs3 = f1;
  const cs = 4 * c * (1 - nu);
  const c8 = 8 * c; // 2c * (2)(2) for ga ga^T and gb gb^T
  const cn = 8 * c * nu; // 2c nu * (2)(2) for ga gb^T
  // uu block (indices 0,1)
  HF[0] = c8 * f0 * f0 + cs * gs0 * gs0 + 2 * sxx;
  HF[1] = c8 * f0 * f1 + cs * gs0 * gs1;
  HF[5] = c8 * f1 * f1 + cs * gs1 * gs1 + 2 * sxx;
  // ww block (indices 2,3)
  HF[10] = c8 * f2 * f2 + cs * gs2 * gs2 + 2 * syy;
  HF[11] = c8 * f2 * f3 + cs * gs2 * gs3;
  HF[15] = c8 * f3 * f3 + cs * gs3 * gs3 + 2 * syy;
  // uw block (rows 0,1; cols 2,3)
  HF[2] = cn * f0 * f2 + cs * gs0 * gs2 + sxy;
  HF[3] = cn * f0 * f3 + cs * gs0 * gs3;
  HF[6] = cn * f1 * f2 + cs * gs1 * gs2;
  HF[7] = cn * f1 * f3 + cs * gs1 * gs3 + sxy;
  // symmetric fill
  HF[4] = HF[1];
  HF[14] = HF[11];
  HF[8] = HF[2]; HF[9] = HF[6];
  HF[12] = HF[3]; HF[13] = HF[7];
  const cu0 = -(b00 + b10), cu1 = b00, cu2 = b10;
  const cw0 = -(b01 + b11), cw1 = b01, cw2 = b11;
  for (let n = 0; n < 3; n++) {
    const cun = n === 0 ? cu0 : n === 1 ? cu1 : cu2;
    const cwn = n === 0 ? cw0 : n === 1 ? cw1 : cw2;
    for (let m = 0; m < 3; m++) {
      const cum = m === 0 ? cu0 : m === 1 ? cu1 : cu2;
      const cwm = m === 0 ? cw0 : m === 1 ? cw1 : cw2;
      const uu = cun * cum, uw = cun * cwm, wu = cwn * cum, ww = cwn * cwm;
      for (let i = 0; i < 2; i++) {
        for (let j = 0; j < 2; j++) {
          out[o + (2 * n + i) * 6 + 2 * m + j] =
            uu * HF[i * 4 + j] + uw * HF[i * 4 + 2 + j] + wu * HF[(2 + i) * 4 + j] + ww * HF[(2 + i) * 4 + 2 + j];
        }
      }
    }
  }
}

/**
 * cstEnergy / cstGradient reading their inputs from arrays (node coordinates at
 * x[a], x[a+1], likewise b, c; E, ν, area, b00, b01, b10, b11 at q[p + TRI_*], layout.ts), for
 * the assembly loops: passing 13 doubles to a call V8 does not inline boxes each
 * one (≈200 B of garbage per triangle per call); integers and arrays are not
 * boxed, nor is a double returned (cstEnergyAt writes W to out[o]). The scalar forms
 * cstEnergy / cstGradient delegate here (tested bit-for-bit in test/psd.test.ts).
 */
export function cstEnergyAt(
  x: Float64Array, a: number, b: number, nc: number, q: Float64Array, p: number, out: Float64Array, o: number,
): void {
  const x1 = x[a]!, y1 = x[a + 1]!;
  const d0x = x[b]! - x1, d0y = x[b + 1]! - y1, d1x = x[nc]! - x1, d1y = x[nc + 1]! - y1;
  const E = q[p + TRI_E]!, nu = q[p + TRI_NU]!, area = q[p + TRI_AREA]!;
  const b00 = q[p + TRI_B00]!, b01 = q[p + TRI_B00 + 1]!, b10 = q[p + TRI_B00 + 2]!, b11 = q[p + TRI_B00 + 3]!;
  const ux = d0x * b00 + d1x * b10;
  const uy = d0y * b00 + d1y * b10;
  const wx = d0x * b01 + d1x * b11;
  const wy = d0y * b01 + d1y * b11;
  const exx = ux * ux + uy * uy - 1;
  const eyy = wx * wx + wy * wy - 1;
  const exy = ux * wx + uy * wy;
  const c = (E * area) / (2 * (1 - nu * nu));
  out[o] = c * (exx * exx + 2 * nu * exx * eyy + eyy * eyy + 2 * (1 - nu) * exy * exy);
}

export function cstGradientAt(
  x: Float64Array, a: number, b: number, nc: number, q: Float64Array, p: number, out: Float64Array, o: number,
): void {
  const x1 = x[a]!, y1 = x[a + 1]!;
  const d0x = x[b]! - x1, d0y = x[b + 1]! - y1, d1x = x[nc]! - x1, d1y = x[nc + 1]! - y1;
  const E = q[p + TRI_E]!, nu = q[p + TRI_NU]!, area = q[p + TRI_AREA]!;
  const b00 = q[p + TRI_B00]!, b01 = q[p + TRI_B00 + 1]!, b10 = q[p + TRI_B00 + 2]!, b11 = q[p + TRI_B00 + 3]!;
  const ux = d0x * b00 + d1x * b10;
  const uy = d0y * b00 + d1y * b10;
  const wx = d0x * b01 + d1x * b11;
  const wy = d0y * b01 + d1y * b11;
  const exx = ux * ux + uy * uy - 1;
  const eyy = wx * wx + wy * wy - 1;
  const exy = ux * wx + uy * wy;
  const c = (E * area) / (2 * (1 - nu * nu));
  const sxx = 2 * c * (exx + nu * eyy);
  const syy = 2 * c * (eyy + nu * exx);
  const sxy = 4 * c * (1 - nu) * exy;
  const pux = 2 * sxx * ux + sxy * wx;
  const puy = 2 * sxx * uy + sxy * wy;
  const pwx = 2 * syy * wx + sxy * ux;
  const pwy = 2 * syy * wy + sxy * uy;
  const cu1 = -(b00 + b10), cw1 = -(b01 + b11);
  out[o] = cu1 * pux + cw1 * pwx;
  out[o + 1] = cu1 * puy + cw1 * pwy;
  out[o + 2] = b00 * pux + b01 * pwx;
  out[o + 3] = b00 * puy + b01 * pwy;
  out[o + 4] = b10 * pux + b11 * pwx;
  out[o + 5] = b10 * puy + b11 * pwy;
}
