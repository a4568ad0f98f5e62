/**
 * Inversion guard for the game-mode Newton line search (ForceModel.maxStep).
 *
 * For every Neo-Hookean triangle that is not inverted at x (J > 0), J(α) = det F(x + α dx)
 * is the quadratic J + α (cof F : dF) + α² det dF; the step is limited to
 * INVERSION_SAFETY × its smallest positive root, so a Newton step never makes such a
 * triangle reach J ≤ 0. Triangles already inverted at x (a scene that starts inverted)
 * impose no limit: their guarded energy (the bounded continuation of 1/J below NH_J_MIN) is finite
 * and pushes them back. Fixed order over triangles; sqrt only.
 *
 * A guard that binds below GUARD_MIN_ALPHA is dropped for that line search (the step is then bounded
 * by contact alone). Below NH_J_MIN the energy is finite through J = 0, so a Newton direction may keep
 * pushing a nearly flat upright triangle through it — typically one beside an inverted neighbour that
 * is recovering. The guard then cut every step to 0.9 × its root, each iterate counted as converged
 * (a tiny step), and the whole world hung in mid-air with velocities of 1e-15 m/s (issue 16: mirrored
 * Neo-Hookean jellies at dt = 1/240, and scrambled ones). Letting such a triangle invert is safe since the
 * inverted energy grows only like |F|² (src/elements/materials.ts, nhG) and pushes it back; upright
 * triangles in ordinary motion are limited at α ≥ GUARD_MIN_ALPHA and stay upright.
 *
 * V8 (docs/solver.md, "Allocation work"): both loops are module kernels of typed arrays whose
 * every operation runs on every iteration (branches only select already computed values) and
 * whose result stays in a scratch Float64Array, with nothing after the loop. A Neo-Hookean
 * branch first reached after other materials had run the loop (bench --material all) had no
 * type feedback: its deopt left the function on OSR code re-entered from the interpreter, which
 * boxed every double (0.3–0.7 MB per step at 4k/10k).
 *
 * Integer-only driver, select-based kernels, the bound written to out[0]: docs/design.md, "Scratch and
 * calling convention".
 */
import { MAT_NEOHOOKEAN } from '../elements/materials';
import { TRI_B00, TRI_MATERIAL, TRI_STRIDE } from '../elements/layout';
import type { Topology } from '../solver/topology';

export const INVERSION_SAFETY = 0.9;
/** A guard binding below this fraction of the Newton step is dropped (see the header). */
export const GUARD_MIN_ALPHA = 0.01;

/** The guard's own bound, before it is combined with the caller's. */
const GUARD = new Float64Array(1);

/** Number of Neo-Hookean triangles (countNeoHookean): an integer array, read without boxing. */
const COUNT = new Int32Array(1);

/**
 * out[0] ← largest α ∈ (0, 1] keeping every currently positive Neo-Hookean triangle positive
 * (1 when that is below GUARD_MIN_ALPHA).
 * The result goes through `out`, not a return value, and this driver reads no double: a double
 * returned from a call V8 does not inline, or read outside optimized code, is boxed.
 */
export function triangleMaxStep(t: Topology, x: Float64Array, dx: Float64Array, out: Float64Array): void {
  out[0] = 1;
  triangleMaxStepMin(t, x, dx, out);
}

/** out[0] ← min(out[0], triangleMaxStep's bound): the caller's bound combined here (no double in a driver). */
export function triangleMaxStepMin(t: Topology, x: Float64Array, dx: Float64Array, out: Float64Array): void {
  const tr = t.triangles;
  COUNT[0] = 0;
  countNeoHookean(tr.count, tr.params, COUNT);
  if (COUNT[0]! > 0) {
    GUARD[0] = 1;
    neoHookeanMaxStep(tr.count, tr.nodes, tr.params, x, dx, GUARD);
    combineGuard(GUARD, out);
  }
}

/** out[0] ← min(out[0], guard[0]) unless the guard binds below GUARD_MIN_ALPHA (then out[0] stays). */
function combineGuard(guard: Float64Array, out: Float64Array): void {
  const g = guard[0]!, cur = out[0]!;
  out[0] = g < cur && g >= GUARD_MIN_ALPHA ? g : cur;
}

/**
 * n[0] += number of triangles with material MAT_NEOHOOKEAN (the caller zeroes it: nothing runs
 * before the loop, whose first, long call would run it before V8 allocates the feedback vector).
 */
function countNeoHookean(count: number, q: Float64Array, n: Int32Array): void {
  for (let e = 0; e < count; e++) {
    const m = n[0]!;
    n[0] = q[TRI_STRIDE * e + TRI_MATERIAL] === MAT_NEOHOOKEAN ? m + 1 : m;
  }
}

/**
 * sc[0] = min(sc[0], INVERSION_SAFETY × smallest positive root of J(α)) over the positive
 * Neo-Hookean triangles. Same operations and comparisons as the scalar form (smallest positive
 * root of c α² + b α + J0: linear when |c| ≤ 1e-14 (|b| + |c| + J0), none when the discriminant
 * is negative, else the roots qq/c and J0/qq with qq = −½ (b + sign(b) √disc)), all evaluated
 * for every triangle; values for triangles that impose no limit are discarded by selection.
 */
function neoHookeanMaxStep(count: number, nodes: Int32Array, q: Float64Array, x: Float64Array, dx: Float64Array, sc: Float64Array): void {
  for (let e = 0; e < count; e++) {
    const p = TRI_STRIDE * e;
    const isNH = q[p + TRI_MATERIAL] === MAT_NEOHOOKEAN;
    const a = 2 * nodes[3 * e]!, b = 2 * nodes[3 * e + 1]!, c = 2 * nodes[3 * e + 2]!;
    const b00 = q[p + TRI_B00]!, b01 = q[p + TRI_B00 + 1]!, b10 = q[p + TRI_B00 + 2]!, b11 = q[p + TRI_B00 + 3]!;
    const d0x = x[b]! - x[a]!, d0y = x[b + 1]! - x[a + 1]!, d1x = x[c]! - x[a]!, d1y = x[c + 1]! - x[a + 1]!;
    const e0x = dx[b]! - dx[a]!, e0y = dx[b + 1]! - dx[a + 1]!, e1x = dx[c]! - dx[a]!, e1y = dx[c + 1]! - dx[a + 1]!;
    const f00 = d0x * b00 + d1x * b10, f10 = d0y * b00 + d1y * b10, f01 = d0x * b01 + d1x * b11, f11 = d0y * b01 + d1y * b11;
    const g00 = e0x * b00 + e1x * b10, g10 = e0y * b00 + e1y * b10, g01 = e0x * b01 + e1x * b11, g11 = e0y * b01 + e1y * b11;
    const J0 = f00 * f11 - f01 * f10;
    const positive = J0 > 0;
    const lb = f00 * g11 + g00 * f11 - f01 * g10 - g01 * f10; // b: linear coefficient
    const lc = g00 * g11 - g01 * g10; // c: quadratic coefficient
    // smallest positive root of lc α² + lb α + J0 (Infinity if none)
    const absB = Math.abs(lb), absC = Math.abs(lc);
    const scale = absB + absC + J0;
    const linear = absC <= 1e-14 * scale;
    const bNeg = lb < 0;
    const linRoot = -J0 / lb;
    const linBest = bNeg ? linRoot : Infinity;
    const disc = lb * lb - 4 * lc * J0;
    const noReal = disc < 0;
    const s = Math.sqrt(disc);
    const bNonNeg = lb >= 0;
    const negS = -s;
    const qq = -0.5 * (lb + (bNonNeg ? s : negS));
    const qqNonZero = qq !== 0;
    const r1 = qq / lc, r2 = J0 / qq;
    const r1Pos = r1 > 0, r1Fin = r1 < Infinity;
    const best1 = r1Pos && r1Fin ? r1 : Infinity;
    const r2Pos = r2 > 0, r2Less = r2 < best1;
    const best2 = r2Pos && r2Less ? r2 : best1;
    const quadBest = noReal ? Infinity : qqNonZero ? best2 : Infinity;
    const root = linear ? linBest : quadBest;
    const finite = root < Infinity;
    const lim = INVERSION_SAFETY * root;
    const cur = sc[0]!;
    const lower = lim < cur;
    sc[0] = isNH && positive && finite && lower ? lim : cur;
  }
}
