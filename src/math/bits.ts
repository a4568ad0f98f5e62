/**
 * IEEE-754 word access for the deterministic math library. One shared module-level
 * buffer; endianness is detected once at load. Not re-entrant across threads (JS is
 * single-threaded per realm), never allocates per call.
 */
const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
f64[0] = 1;
/** Index of the high (sign/exponent) word in u32. */
const HI = u32[1] === 0x3ff00000 ? 1 : 0;
const LO = 1 - HI;

/** High 32 bits of x as an unsigned integer. */
export function highWord(x: number): number {
  f64[0] = x;
  return u32[HI];
}

/** Low 32 bits of x as an unsigned integer. */
export function lowWord(x: number): number {
  f64[0] = x;
  return u32[LO];
}

/** Double built from (hi, lo) words. */
export function fromWords(hi: number, lo: number): number {
  u32[HI] = hi >>> 0;
  u32[LO] = lo >>> 0;
  return f64[0];
}

/** Replace the high word of x. */
export function withHighWord(x: number, hi: number): number {
  f64[0] = x;
  u32[HI] = hi >>> 0;
  return f64[0];
}

/** 2^k for integer k in [-1022, 1023] (exact, built from bits). */
export function twoPow(k: number): number {
  return fromWords((k + 1023) << 20, 0);
}

/** x * 2^k for any integer k, exact unless the result over/underflows (then IEEE-rounded). */
export function scalbn(x: number, k: number): number {
  while (k > 1023) { x *= 8.98846567431158e307; k -= 1023; } // 2^1023
  while (k < -1022) {
    // Two steps keep a single final rounding into the subnormal range for k >= -2044.
    if (k < -2044) { x *= 2.2250738585072014e-308; k += 1022; continue; }
    x *= 2.2250738585072014e-308; // 2^-1022
    k += 1022;
    return x * twoPow(k);
  }
  return x * twoPow(k);
}

/** Dekker split constant 2^27 + 1. */
export const SPLITTER = 134217729;
