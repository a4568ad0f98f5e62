/**
 * Elastic-body hinge bending (FOSSSim T4M1), node 2 is the hinge:
 *   e1 = x2 - x1, e2 = x3 - x2, theta = atan2(e1 x e2, e1 . e2) in (-pi, pi],
 *   W = alpha (theta - theta0)^2 / (2 ebSum),  ebSum = |ebar1| + |ebar2| (rest lengths).
 * DOF order (x1, y1, x2, y2, x3, y3). Gradient +dW/dx (6), Hessian +d2W/dx2 (6x6 row-major).
 *
 * theta = phi(e2) - phi(e1) with phi(e) = atan2(ey, ex):
 *   d phi/de = e_perp / |e|^2, e_perp = (-ey, ex);
 *   d2 phi/de2 = G(e) = 1/|e|^4 [[2 ex ey, ey^2 - ex^2], [ey^2 - ex^2, -2 ex ey]].
 * Hence d theta/dx1 = e1_perp/|e1|^2, d theta/dx3 = e2_perp/|e2|^2, d theta/dx2 = -(both);
 * Hessian blocks of theta: 11 = -G1, 12 = 21 = G1, 22 = G2 - G1, 23 = 32 = -G2, 33 = G2, 13 = 0.
 */
import { atan2 } from '../math/index';

/** Signed turning angle at node 2: atan2(e1 x e2, e1 . e2). Use on rest positions for theta0. */
export function restTheta(x1: number, y1: number, x2: number, y2: number, x3: number, y3: number): number {
  const ax = x2 - x1;
  const ay = y2 - y1;
  const bx = x3 - x2;
  const by = y3 - y2;
  return atan2(ax * by - ay * bx, ax * bx + ay * by);
}

/** W = alpha (theta - theta0)^2 / (2 ebSum). */
export function bendingEnergy(
  x1: number, y1: number, x2: number, y2: number, x3: number, y3: number,
  alpha: number, theta0: number, ebSum: number,
): number {
  const d = restTheta(x1, y1, x2, y2, x3, y3) - theta0;
  return (alpha * d * d) / (2 * ebSum);
}

/** dW/dx = (alpha/ebSum)(theta - theta0) d theta/dx. Writes 6 values. */
export function bendingGradient(
  x1: number, y1: number, x2: number, y2: number, x3: number, y3: number,
  alpha: number, theta0: number, ebSum: number,
  out: Float64Array, o: number,
): void {
  const ax = x2 - x1;
  const ay = y2 - y1;
  const bx = x3 - x2;
  const by = y3 - y2;
  const theta = atan2(ax * by - ay * bx, ax * bx + ay * by);
  const c = (alpha / ebSum) * (theta - theta0);
  const ia = c / (ax * ax + ay * ay);
  const ib = c / (bx * bx + by * by);
  const g1x = -ay * ia; // c * e1_perp / |e1|^2
  const g1y = ax * ia;
  const g3x = -by * ib;
  const g3y = bx * ib;
  out[o] = g1x;
  out[o + 1] = g1y;
  out[o + 2] = -g1x - g3x;
  out[o + 3] = -g1y - g3y;
  out[o + 4] = g3x;
  out[o + 5] = g3y;
}

/**
 * Exact Hessian: (alpha/ebSum) [ grad(theta) grad(theta)^T + (theta - theta0) Hess(theta) ]
 * (6x6 row-major).
 */
export function bendingHessian(
  x1: number, y1: number, x2: number, y2: number, x3: number, y3: number,
  alpha: number, theta0: number, ebSum: number,
  out: Float64Array, o: number,
): void {
  const ax = x2 - x1;
  const ay = y2 - y1;
  const bx = x3 - x2;
  const by = y3 - y2;
  const theta = atan2(ax * by - ay * bx, ax * bx + ay * by);
  const k = alpha / ebSum;
  const kd = k * (theta - theta0);
  const la = ax * ax + ay * ay;
  const lb = bx * bx + by * by;
  // grad theta
  const t0 = -ay / la;
  const t1 = ax / la;
  const t4 = -by / lb;
  const t5 = bx / lb;
  const t2 = -t0 - t4;
  const t3 = -t1 - t5;
  // G1, G2 scaled by kd
  const ia2 = kd / (la * la);
  const ib2 = kd / (lb * lb);
  const a11 = 2 * ax * ay * ia2;
  const a12 = (ay * ay - ax * ax) * ia2;
  const a22 = -a11;
  const b11 = 2 * bx * by * ib2;
  const b12 = (by * by - bx * bx) * ib2;
  const b22 = -b11;
  // Gauss-Newton part k * t t^T
  outerRow(out, o, k * t0, t0, t1, t2, t3, t4, t5);
  outerRow(out, o + 6, k * t1, t0, t1, t2, t3, t4, t5);
  outerRow(out, o + 12, k * t2, t0, t1, t2, t3, t4, t5);
  outerRow(out, o + 18, k * t3, t0, t1, t2, t3, t4, t5);
  outerRow(out, o + 24, k * t4, t0, t1, t2, t3, t4, t5);
  outerRow(out, o + 30, k * t5, t0, t1, t2, t3, t4, t5);
  // + kd * Hess(theta)
  addBlock(out, o, 0, 0, -a11, -a12, -a12, -a22);
  addBlock(out, o, 0, 1, a11, a12, a12, a22);
  addBlock(out, o, 1, 0, a11, a12, a12, a22);
  addBlock(out, o, 1, 1, b11 - a11, b12 - a12, b12 - a12, b22 - a22);
  addBlock(out, o, 1, 2, -b11, -b12, -b12, -b22);
  addBlock(out, o, 2, 1, -b11, -b12, -b12, -b22);
  addBlock(out, o, 2, 2, b11, b12, b12, b22);
}

function outerRow(out: Float64Array, p: number, s: number, a: number, b: number, c: number, d: number, e: number, f: number): void {
  out[p] = s * a;
  out[p + 1] = s * b;
  out[p + 2] = s * c;
  out[p + 3] = s * d;
  out[p + 4] = s * e;
  out[p + 5] = s * f;
}

function addBlock(out: Float64Array, o: number, bi: number, bj: number, a: number, b: number, c: number, d: number): void {
  const p = o + 12 * bi + 2 * bj;
  out[p] += a;
  out[p + 1] += b;
  out[p + 6] += c;
  out[p + 7] += d;
}
