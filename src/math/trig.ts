/**
 * Deterministic sin / cos (fdlibm kernels). Argument reduction modulo pi/2:
 * Cody-Waite with a 3-part pi/2 (up to 118+ bits) for |x| <= 2^20 pi/2, and an exact
 * BigInt Payne-Hanek style reduction beyond that (rare, slow path that allocates).
 *
 * Number-returning functions; sincosMany writes through its array for the step path: docs/design.md,
 * "Scratch and calling convention".
 */
import { highWord, scalbn } from './bits';

const S1 = -1.66666666666666324348e-01;
const S2 = 8.33333333332248946124e-03;
const S3 = -1.98412698298579493134e-04;
const S4 = 2.75573137070700676789e-06;
const S5 = -2.50507602534068634195e-08;
const S6 = 1.58969099521155010221e-10;
const C1 = 4.16666666666666019037e-02;
const C2 = -1.38888888888741095749e-03;
const C3 = 2.48015872894767294178e-05;
const C4 = -2.75573143513906633035e-07;
const C5 = 2.08757232129817482790e-09;
const C6 = -1.13596475577881948265e-11;

const INV_PIO2 = 6.36619772367581382433e-01;
const PIO2_1 = 1.57079632673412561417e+00;
const PIO2_1T = 6.07710050650619224932e-11;
const PIO2_2 = 6.07710050630396597660e-11;
const PIO2_2T = 2.02226624879595063154e-21;
const PIO2_3 = 2.02226624871116645580e-21;
const PIO2_3T = 8.47842766036889956997e-32;
const PIO2_HI = 1.5707963267948966; // double nearest pi/2
const PIO2_LO = 6.123233995736766e-17; // pi/2 - PIO2_HI
const SPLIT = 134217729;

// Reduction result [y0, y1]. A Float64Array, not module-level `let`s: a double stored in a module
// variable (a context slot) is boxed on every store.
const RED = new Float64Array(2);

let twoOverPi = 0n;
const TOP_BITS = 1300n;

function initTwoOverPi(): void {
  const P = 1400n;
  const one = 1n << P;
  const arctanInv = (k: bigint): bigint => {
    let sum = 0n;
    let term = one / k;
    const k2 = k * k;
    let n = 1n;
    let positive = true;
    while (term !== 0n) {
      sum += positive ? term / n : -(term / n);
      term /= k2;
      n += 2n;
      positive = !positive;
    }
    return sum;
  };
  const pi = 16n * arctanInv(5n) - 4n * arctanInv(239n); // pi * 2^P
  twoOverPi = (2n << (P + TOP_BITS)) / pi; // (2/pi) * 2^TOP_BITS
}

/** Exact reduction of a finite |x| >= 2^20 pi/2 (x > 0). Returns n mod 4; sets RED[0]/RED[1]. */
function reduceHuge(x: number): number {
  if (twoOverPi === 0n) initTwoOverPi();
  const hx = highWord(x);
  const e = ((hx >>> 20) & 0x7ff) - 1075; // x = M * 2^e, M integer < 2^53
  const M = BigInt(scalbn(x, -e)); // exact: scaling by a power of two
  const S = TOP_BITS - BigInt(e); // x*2/pi = M*T / 2^S
  const Q = M * twoOverPi;
  let n = Number((Q >> S) & 3n);
  let F = Q & ((1n << S) - 1n); // fraction * 2^S
  const half = 1n << (S - 1n);
  if (F >= half) { F -= 1n << S; n = (n + 1) & 3; }
  const neg = F < 0n;
  if (neg) F = -F;
  const top = F >> (S - 120n); // fraction * 2^120
  const scale = 7.52316384526264e-37; // 2^-120
  const fh = Number(top);
  const fl = Number(top - BigInt(fh)); // fh is an integer-valued double: BigInt exact
  const a = fh * scale;
  const b = fl * scale;
  // (a + b) * (PIO2_HI + PIO2_LO) in double-double
  const p = a * PIO2_HI;
  let t = SPLIT * a;
  const aH = t - (t - a);
  const aL = a - aH;
  t = SPLIT * PIO2_HI;
  const pH = t - (t - PIO2_HI);
  const pL = PIO2_HI - pH;
  const pe = ((aH * pH - p) + aH * pL + aL * pH) + aL * pL;
  const c = pe + a * PIO2_LO + b * PIO2_HI;
  let y0 = p + c;
  let y1 = c - (y0 - p);
  if (neg) { y0 = -y0; y1 = -y1; }
  RED[0] = y0;
  RED[1] = y1;
  return n;
}

/** Scratch for sin() and cos(): they are sincosMany on one angle. */
const SC1 = new Float64Array(2);

/** sin(x). sin(±0) = ±0, sin(±Infinity) = NaN. */
export function sin(x: number): number {
  SC1[0] = x;
  sincosMany(SC1, 0, 1);
  return SC1[0]!;
}

/** cos(x). cos(±Infinity) = NaN. */
export function cos(x: number): number {
  SC1[0] = x;
  sincosMany(SC1, 0, 1);
  return SC1[1]!;
}

/** Writes sin(x) to out[o] and cos(x) to out[o+1] with a single argument reduction. */
export function sincos(x: number, out: Float64Array, o: number): void {
  out[o] = x;
  sincosMany(out, o, 1);
}

/**
 * sincos in place for n angles: x = out[o + 2q] becomes sin(x) there and cos(x) at o + 2q + 1.
 * fdlibm's Cody-Waite reduction and its sin / cos kernels written out in one function (sin, cos
 * and sincos all come here): no calls but reduceHuge's rare path, so no double crosses a call,
 * and a loop, so priming a few calls gets it optimized; too large to be inlined, it stays one
 * optimized function for all its callers (docs/solver.md, part 5).
 */
export function sincosMany(out: Float64Array, o: number, n: number): void {
  const end = o + 2 * n;
  for (let q = o; q < end; q += 2) {
    const x = out[q]!;
    const ax = Math.abs(x);
    let y0 = x, y1 = 0, iy = 0, k = 0;
    if (ax <= 0.7853981633974483) {
      if (ax < 7.450580596923828e-9) { out[q + 1] = 1; continue; }
    } else if (ax === Infinity || x !== x) {
      out[q] = NaN;
      out[q + 1] = NaN;
      continue;
    } else {
      iy = 1;
      if (ax <= 1647099.3291652855) { // reduce(x), Cody-Waite
        k = Math.trunc(ax * INV_PIO2 + 0.5);
        const fn = k;
        let r = ax - fn * PIO2_1;
        let w = fn * PIO2_1T;
        y0 = r - w;
        const j = (highWord(ax) >>> 20) & 0x7ff;
        let i = j - ((highWord(y0) >>> 20) & 0x7ff);
        if (i > 16) {
          let t = r;
          w = fn * PIO2_2;
          r = t - w;
          w = fn * PIO2_2T - ((t - r) - w);
          y0 = r - w;
          i = j - ((highWord(y0) >>> 20) & 0x7ff);
          if (i > 49) {
            t = r;
            w = fn * PIO2_3;
            r = t - w;
            w = fn * PIO2_3T - ((t - r) - w);
            y0 = r - w;
          }
        }
        y1 = (r - y0) - w;
        k &= 3;
      } else {
        k = reduceHuge(ax);
        y0 = RED[0]!;
        y1 = RED[1]!;
      }
      if (x < 0) {
        y0 = -y0;
        y1 = -y1;
        k = (4 - k) & 3;
      }
    }
    // the kernels: sin(y0 + y1) (y1 = 0 when iy = 0) and cos(y0 + y1) on |y0 + y1| <= pi/4
    const z = y0 * y0;
    const v = z * y0;
    const r = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
    const s = iy === 0 ? y0 + v * (S1 + z * r) : y0 - ((z * (0.5 * y1 - v * r) - y1) - v * S1);
    const w = z * z;
    const rc = z * (C1 + z * (C2 + z * C3)) + w * w * (C4 + z * (C5 + z * C6));
    const hz = 0.5 * z;
    const ww = 1 - hz;
    const c = ww + (((1 - ww) - hz) + (z * rc - y0 * y1));
    switch (k) {
      case 0: out[q] = s; out[q + 1] = c; break;
      case 1: out[q] = c; out[q + 1] = -s; break;
      case 2: out[q] = -s; out[q + 1] = -c; break;
      default: out[q] = -c; out[q + 1] = s; break;
    }
  }
}
