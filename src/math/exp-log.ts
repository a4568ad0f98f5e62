/**
 * Deterministic exp, log and pow built from + - * / only (fdlibm-style algorithms).
 * exp: reduction x = k ln2 + r, rational Remez approximation of exp(r) (fdlibm e_exp).
 * log: x = 2^k m, m in [sqrt(1/2), sqrt(2)), log m = 2 atanh(s), s = (m-1)/(m+1),
 *      evaluated in double-double so the result is nearly correctly rounded;
 *      pow reuses that double-double log.
 *
 * Number-returning functions; logInPlace (LOG_IO) for the step path: docs/design.md, "Scratch and
 * calling convention".
 */
import { highWord, withHighWord, scalbn, SPLITTER } from './bits';

const LN2_HI = 6.93147180369123816490e-01; // low 32 bits zero: k*LN2_HI exact for |k| < 2^20
const LN2_LO = 1.90821492927058770002e-10;
const INV_LN2 = 1.44269504088896338700e+00;
const P1 = 1.66666666666666019037e-01;
const P2 = -2.77777777770155933842e-03;
const P3 = 6.61375632143793436117e-05;
const P4 = -1.65339022054652515390e-06;
const P5 = 4.13813679705723846039e-08;
const O_THRESHOLD = 7.09782712893383973096e+02;
const U_THRESHOLD = -7.45133219101941108420e+02;
const SQRT2 = 1.4142135623730951;
const TWO54 = 18014398509481984;

/** exp(x + xl) for a small correction xl (|xl| << ulp-scale of x); handles all specials of x. */
function expCore(x: number, xl: number): number {
  if (x !== x) return x;
  if (x > O_THRESHOLD) return Infinity;
  if (x < U_THRESHOLD) return 0;
  const ax = Math.abs(x);
  let k = 0;
  let hi: number;
  let lo: number;
  if (ax > 0.34657359027997264) { // 0.5 ln2
    if (ax < 1.0397207708399179) { // 1.5 ln2
      k = x < 0 ? -1 : 1;
    } else {
      k = Math.trunc(INV_LN2 * x + (x < 0 ? -0.5 : 0.5));
    }
    hi = x - k * LN2_HI;
    lo = k * LN2_LO - xl;
  } else if (ax < 3.725290298461914e-9 && xl === 0) { // 2^-28
    return 1 + x;
  } else {
    hi = x;
    lo = -xl;
  }
  const r = hi - lo;
  const t = r * r;
  const c = r - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
  const y = 1 - ((lo - (r * c) / (2 - c)) - hi);
  return k === 0 ? y : scalbn(y, k);
}

/** e^x. Overflows to Infinity above ~709.78, underflows to 0 below ~-745.13; exp(NaN) = NaN. */
export function exp(x: number): number {
  // The reduction below rounds exp(1) up by 1 ulp; return the correctly rounded e (as V8 does).
  if (x === 1) return 2.718281828459045;
  return expCore(x, 0);
}

// Scratch for the double-double log: [hi, lo], and [0] also carries logDD's argument in. A
// Float64Array, not module-level `let`s or a double argument: a double stored in a module variable
// (a context slot) or passed to a call V8 does not inline is boxed (docs/solver.md, "Allocation work").
const LOG_DD = new Float64Array(2);

// 2/(2n+1) for n = 1..13: atanh series tail coefficients.
const T1 = 2 / 3, T2 = 2 / 5, T3 = 2 / 7, T4 = 2 / 9, T5 = 2 / 11, T6 = 2 / 13, T7 = 2 / 15;
const T8 = 2 / 17, T9 = 2 / 19, T10 = 2 / 21, T11 = 2 / 23, T12 = 2 / 25, T13 = 2 / 27;

/** Sets LOG_DD[0] + LOG_DD[1] = log(x), x = LOG_DD[0] finite > 0 (relative error ~2^-60). */
function logDD(): void {
  let x = LOG_DD[0]!;
  let k = 0;
  if (x < 2.2250738585072014e-308) { x *= TWO54; k = -54; }
  const hx = highWord(x);
  k += (hx >>> 20) - 1023;
  let m = withHighWord(x, (hx & 0x000fffff) | 0x3ff00000); // m in [1, 2)
  if (m > SQRT2) { m *= 0.5; k += 1; }
  const f = m - 1; // exact (Sterbenz)
  const dh = 2 + f;
  const dl = f - (dh - 2); // exact: dh + dl = 2 + f
  const sh = f / dh;
  // exact sh*dh via Dekker
  let t = SPLITTER * sh;
  const sA = t - (t - sh);
  const sB = sh - sA;
  t = SPLITTER * dh;
  const dA = t - (t - dh);
  const dB = dh - dA;
  const p = sh * dh;
  const pe = ((sA * dA - p) + sA * dB + sB * dA) + sB * dB;
  const sl = (((f - p) - pe) - sh * dl) / dh;
  const z = sh * sh;
  const tail = sh * z * (T1 + z * (T2 + z * (T3 + z * (T4 + z * (T5 + z * (T6 + z * (T7 + z * (T8 + z * (T9 + z * (T10 + z * (T11 + z * (T12 + z * T13))))))))))));
  const a = k * LN2_HI; // exact
  const b = 2 * sh; // exact
  const s = a + b;
  const bb = s - a;
  const err = (a - (s - bb)) + (b - bb); // TwoSum
  const c = k * LN2_LO + 2 * sl + tail + err;
  const h = s + c;
  LOG_DD[0] = h;
  LOG_DD[1] = c - (h - s);
}

/** Natural logarithm. log(0) = -Infinity, log(x<0) = NaN, log(Infinity) = Infinity, subnormals handled. */
export function log(x: number): number {
  LOG_IO[0] = x;
  logInPlace();
  return LOG_IO[0]!;
}

/** Argument and result of logInPlace. */
export const LOG_IO = new Float64Array(1);

/**
 * LOG_IO[0] ← log(LOG_IO[0]): `log` without a double crossing a call (its argument and result
 * would be heap numbers wherever V8 does not inline it; docs/solver.md, "Allocation work").
 */
export function logInPlace(): void {
  const x = LOG_IO[0]!;
  if (x !== x || x < 0) {
    LOG_IO[0] = NaN;
    return;
  }
  if (x === 0) {
    LOG_IO[0] = -Infinity;
    return;
  }
  if (x === Infinity) return;
  if (x === 1) {
    LOG_IO[0] = 0;
    return;
  }
  LOG_DD[0] = x;
  logDD();
  LOG_IO[0] = LOG_DD[0]!;
}

function isOddInteger(y: number): boolean {
  // |y| < 2^53 required for oddness; larger doubles are all even.
  return Math.abs(y) < 9007199254740992 && Math.floor(y) === y && Math.abs(y % 2) === 1;
}

/**
 * x^y with ECMAScript Math.pow special-case semantics. Small integer exponents
 * (|y| <= 4) use exact-order multiplication; otherwise exp(y log x) in double-double.
 */
export function pow(x: number, y: number): number {
  if (y !== y) return NaN;
  if (y === 0) return 1;
  if (x !== x) return NaN;
  const ay = Math.abs(y);
  const ax = Math.abs(x);
  if (ay === Infinity) {
    if (ax === 1) return NaN;
    return (ax > 1) === (y > 0) ? Infinity : 0;
  }
  if (y === 1) return x;
  if (ax === Infinity || x === 0) {
    const negZeroOrInf = x < 0 || (x === 0 && 1 / x < 0);
    const odd = negZeroOrInf && isOddInteger(y);
    const big = (ax === Infinity) === (y > 0);
    if (big) return odd ? -Infinity : Infinity;
    return odd ? -0 : 0;
  }
  let sign = 1;
  if (x < 0) {
    if (Math.floor(y) !== y) return NaN;
    if (isOddInteger(y)) sign = -1;
  }
  if (ay <= 4 && Math.floor(y) === y) {
    let r: number;
    if (ay === 2) r = x * x;
    else if (ay === 3) r = x * x * x;
    else if (ay === 4) { const x2 = x * x; r = x2 * x2; }
    else r = x; // ay === 1 (y === -1)
    return y > 0 ? r : 1 / r;
  }
  if (ax === 1) return sign;
  LOG_DD[0] = ax;
  logDD();
  const logHi = LOG_DD[0]!, logLo = LOG_DD[1]!;
  const zh = y * logHi;
  if (zh > 710) return sign * Infinity;
  if (zh < -746) return sign * 0;
  // exact y * logHi via Dekker TwoProduct
  let t = SPLITTER * y;
  const yA = t - (t - y);
  const yB = y - yA;
  t = SPLITTER * logHi;
  const lA = t - (t - logHi);
  const lB = logHi - lA;
  const pe = ((yA * lA - zh) + yA * lB + yB * lA) + yB * lB;
  const zl = pe + y * logLo;
  const h = zh + zl;
  const l = zl - (h - zh);
  return sign * expCore(h, l);
}
