/**
 * FOSSSim particle forces (T1M2 / T1M3 semantics). "Gradient" is FOSSSim's gradU, i.e.
 * minus the force, and includes velocity-dependent damping terms. Pair forces use DOF order
 * (xi, yi, xj, yj); gradients write 4 values, HessX / HessV write 4x4 row-major
 * (HessX = d gradU / dx, HessV = d gradU / dv). Outputs are overwritten, not accumulated.
 */
import { writePairBlocks } from './spring';

// ---------------------------------------------------------------- springforce

/** E = 1/2 k (l - l0)^2, l = |xj - xi| (damping has no energy). */
export function fsSpringEnergy(xi: number, yi: number, xj: number, yj: number, k: number, l0: number): number {
  const dx = xj - xi;
  const dy = yj - yi;
  const s = Math.sqrt(dx * dx + dy * dy) - l0;
  return 0.5 * k * s * s;
}

/**
 * g_j = k (l - l0) n + b n (n . (vj - vi)),  g_i = -g_j,  n = (xj - xi)/l.
 */
export function fsSpringGradient(
  xi: number, yi: number, xj: number, yj: number,
  vxi: number, vyi: number, vxj: number, vyj: number,
  k: number, l0: number, b: number,
  out: Float64Array, o: number,
): void {
  const dx = xj - xi;
  const dy = yj - yi;
  const l = Math.sqrt(dx * dx + dy * dy);
  const nx = dx / l;
  const ny = dy / l;
  const s = k * (l - l0) + b * (nx * (vxj - vxi) + ny * (vyj - vyi));
  out[o] = -s * nx;
  out[o + 1] = -s * ny;
  out[o + 2] = s * nx;
  out[o + 3] = s * ny;
}

/**
 * K = k [n n^T + (l - l0)/l (I - n n^T)] + b/l [(n . dv) I + n dv^T] (I - n n^T),
 * dv = vj - vi; HessX = [[K, -K], [-K, K]] (the damping part of K is not symmetric).
 */
export function fsSpringHessX(
  xi: number, yi: number, xj: number, yj: number,
  vxi: number, vyi: number, vxj: number, vyj: number,
  k: number, l0: number, b: number,
  out: Float64Array, o: number,
): void {
  const dx = xj - xi;
  const dy = yj - yi;
  const l = Math.sqrt(dx * dx + dy * dy);
  const nx = dx / l;
  const ny = dy / l;
  const t = (l - l0) / l;
  // projector P = I - n n^T
  const pxx = 1 - nx * nx;
  const pxy = -nx * ny;
  const pyy = 1 - ny * ny;
  const dvx = vxj - vxi;
  const dvy = vyj - vyi;
  const nd = nx * dvx + ny * dvy;
  // P dv
  const qx = pxx * dvx + pxy * dvy;
  const qy = pxy * dvx + pyy * dvy;
  const bl = b / l;
  const kxx = k * (nx * nx + t * pxx) + bl * (nd * pxx + nx * qx);
  const kxy = k * (nx * ny + t * pxy) + bl * (nd * pxy + nx * qy);
  const kyx = k * (nx * ny + t * pxy) + bl * (nd * pxy + ny * qx);
  const kyy = k * (ny * ny + t * pyy) + bl * (nd * pyy + ny * qy);
  writePairBlocks(kxx, kxy, kyx, kyy, out, o);
}

/** HessV = b [[n n^T, -n n^T], [-n n^T, n n^T]]. */
export function fsSpringHessV(
  xi: number, yi: number, xj: number, yj: number, b: number,
  out: Float64Array, o: number,
): void {
  const dx = xj - xi;
  const dy = yj - yi;
  const l2 = dx * dx + dy * dy;
  const s = b / l2;
  writePairBlocks(s * dx * dx, s * dx * dy, s * dx * dy, s * dy * dy, out, o);
}

// ------------------------------------------------------- gravitationalforce

/** E = -G mi mj / r. */
export function fsGravitationEnergy(xi: number, yi: number, xj: number, yj: number, G: number, mi: number, mj: number): number {
  const dx = xj - xi;
  const dy = yj - yi;
  return (-G * mi * mj) / Math.sqrt(dx * dx + dy * dy);
}

/** g_j = G mi mj n / r^2, g_i = -g_j. */
export function fsGravitationGradient(
  xi: number, yi: number, xj: number, yj: number, G: number, mi: number, mj: number,
  out: Float64Array, o: number,
): void {
  const dx = xj - xi;
  const dy = yj - yi;
  const r2 = dx * dx + dy * dy;
  const r = Math.sqrt(r2);
  const s = (G * mi * mj) / (r2 * r);
  out[o] = -s * dx;
  out[o + 1] = -s * dy;
  out[o + 2] = s * dx;
  out[o + 3] = s * dy;
}

/** K = G mi mj / r^3 (I - 3 n n^T); HessX = [[K, -K], [-K, K]]. */
export function fsGravitationHessX(
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
  writePairBlocks(s * (1 - 3 * nx * nx), -3 * s * nx * ny, -3 * s * nx * ny, s * (1 - 3 * ny * ny), out, o);
}

// --------------------------------------------------------------- vortexforce

/**
 * FOSSSim VortexForce (no energy). With d = xj - xi, r = |d|, n_perp = (-d_y, d_x)/r:
 *   w = kvc / r^2 (kbs n_perp - (vj - vi)),  g_i = w,  g_j = -w
 * (the force on j is +w: swirl of j around i, drag toward i's velocity).
 */
export function fsVortexGradient(
  xi: number, yi: number, xj: number, yj: number,
  vxi: number, vyi: number, vxj: number, vyj: number,
  kbs: number, kvc: number,
  out: Float64Array, o: number,
): void {
  const dx = xj - xi;
  const dy = yj - yi;
  const r2 = dx * dx + dy * dy;
  const r = Math.sqrt(r2);
  const wx = (kvc * (kbs * (-dy / r) - (vxj - vxi))) / r2;
  const wy = (kvc * (kbs * (dx / r) - (vyj - vyi))) / r2;
  out[o] = wx;
  out[o + 1] = wy;
  out[o + 2] = -wx;
  out[o + 3] = -wy;
}

/**
 * M = dw/dd = kvc kbs (R / r^3 - 3 R d d^T / r^5) + 2 kvc dv d^T / r^4, R = [[0,-1],[1,0]],
 * dv = vj - vi; HessX = [[-M, M], [M, -M]] (not symmetric).
 */
export function fsVortexHessX(
  xi: number, yi: number, xj: number, yj: number,
  vxi: number, vyi: number, vxj: number, vyj: number,
  kbs: number, kvc: number,
  out: Float64Array, o: number,
): void {
  const dx = xj - xi;
  const dy = yj - yi;
  const r2 = dx * dx + dy * dy;
  const r = Math.sqrt(r2);
  const a = (kvc * kbs) / (r2 * r);
  const a3 = (3 * a) / r2;
  const c = (2 * kvc) / (r2 * r2);
  const dvx = vxj - vxi;
  const dvy = vyj - vyi;
  // R d = (-dy, dx)
  const mxx = a3 * dy * dx + c * dvx * dx;
  const mxy = -a + a3 * dy * dy + c * dvx * dy;
  const myx = a - a3 * dx * dx + c * dvy * dx;
  const myy = -a3 * dx * dy + c * dvy * dy;
  writePairBlocks(-mxx, -mxy, -myx, -myy, out, o);
}

/** HessV = kvc / r^2 [[I, -I], [-I, I]]. */
export function fsVortexHessV(
  xi: number, yi: number, xj: number, yj: number, kvc: number,
  out: Float64Array, o: number,
): void {
  const dx = xj - xi;
  const dy = yj - yi;
  const s = kvc / (dx * dx + dy * dy);
  writePairBlocks(s, 0, 0, s, out, o);
}

// ------------------------------------------------------ per-particle forces

/** dragdamping: gradU = b v (2 values). No energy. */
export function fsDragGradient(vx: number, vy: number, b: number, out: Float64Array, o: number): void {
  out[o] = b * vx;
  out[o + 1] = b * vy;
}

/** dragdamping: HessV = b I (2x2 row-major). HessX = 0. */
export function fsDragHessV(b: number, out: Float64Array, o: number): void {
  out[o] = b;
  out[o + 1] = 0;
  out[o + 2] = 0;
  out[o + 3] = b;
}

/** simplegravity: E = -m g . x (FOSSSim uses the x-DOF mass m(2i)). */
export function fsSimpleGravityEnergy(x: number, y: number, m: number, gx: number, gy: number): number {
  return -m * (gx * x + gy * y);
}

/** simplegravity: gradU = -m g (2 values). No Hessian. */
export function fsSimpleGravityGradient(m: number, gx: number, gy: number, out: Float64Array, o: number): void {
  out[o] = -m * gx;
  out[o + 1] = -m * gy;
}

/** constantforce: E = -f . x for every particle (mass independent). */
export function fsConstantForceEnergy(x: number, y: number, fx: number, fy: number): number {
  return -(fx * x + fy * y);
}

/** constantforce: gradU = -f (2 values). No Hessian. */
export function fsConstantForceGradient(fx: number, fy: number, out: Float64Array, o: number): void {
  out[o] = -fx;
  out[o + 1] = -fy;
}
