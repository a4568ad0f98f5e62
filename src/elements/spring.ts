/**
 * Elastic-body spring (FOSSSim T4M1):
 *   W = alpha / (2 l0) * (l - l0)^2,  l = |x2 - x1|.
 * DOF order: (x1, y1, x2, y2). Gradient is +dW/dx; Hessian is +d2W/dx2 (4x4 row-major).
 */

/** W = alpha/(2 l0) (|x2-x1| - l0)^2. */
export function springEnergy(x1: number, y1: number, x2: number, y2: number, alpha: number, l0: number): number {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const s = Math.sqrt(dx * dx + dy * dy) - l0;
  return (alpha / (2 * l0)) * s * s;
}

/** dW/dx2 = (alpha/l0)(l - l0) n,  dW/dx1 = -dW/dx2,  n = (x2-x1)/l. Writes 4 values. */
export function springGradient(
  x1: number, y1: number, x2: number, y2: number, alpha: number, l0: number,
  out: Float64Array, o: number,
): void {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const l = Math.sqrt(dx * dx + dy * dy);
  const c = ((alpha / l0) * (l - l0)) / l;
  const gx = c * dx;
  const gy = c * dy;
  out[o] = -gx;
  out[o + 1] = -gy;
  out[o + 2] = gx;
  out[o + 3] = gy;
}

/**
 * K = (alpha/l0) [ n n^T + (l - l0)/l (I - n n^T) ];  H = [[K, -K], [-K, K]] (4x4 row-major).
 */
export function springHessian(
  x1: number, y1: number, x2: number, y2: number, alpha: number, l0: number,
  out: Float64Array, o: number,
): void {
  const dx = x2 - x1;
  const dy = y2 - y1;
  const l = Math.sqrt(dx * dx + dy * dy);
  const nx = dx / l;
  const ny = dy / l;
  const k = alpha / l0;
  const t = (l - l0) / l;
  const kxx = k * (nx * nx + t * (1 - nx * nx));
  const kxy = k * (nx * ny - t * nx * ny);
  const kyy = k * (ny * ny + t * (1 - ny * ny));
  writePairBlocks(kxx, kxy, kxy, kyy, out, o);
}

/** Writes [[K, -K], [-K, K]] for a 2x2 block K = [[a, b], [c, d]] as a 4x4 row-major matrix. */
export function writePairBlocks(a: number, b: number, c: number, d: number, out: Float64Array, o: number): void {
  out[o] = a; out[o + 1] = b; out[o + 2] = -a; out[o + 3] = -b;
  out[o + 4] = c; out[o + 5] = d; out[o + 6] = -c; out[o + 7] = -d;
  out[o + 8] = -a; out[o + 9] = -b; out[o + 10] = a; out[o + 11] = b;
  out[o + 12] = -c; out[o + 13] = -d; out[o + 14] = c; out[o + 15] = d;
}
