/**
 * Deterministic cube root (FreeBSD s_cbrt.c algorithm): exponent/3 bit estimate,
 * polynomial refinement to ~23 bits, rounding, then one Newton-like step (< 0.667 ulp).
 */
import { highWord, lowWord, fromWords, withHighWord } from './bits';

const B1 = 715094163;
const B2 = 696219795;
const P0 = 1.87595182427177009643;
const P1 = -1.88497979543377169875;
const P2 = 1.6214297201053545;
const P3 = -0.758397934778766047437;
const P4 = 0.145996192886612446982;
const TWO54 = 18014398509481984;

/** Real cube root; cbrt(-8) = -2, cbrt(±0) = ±0, cbrt(±Infinity) = ±Infinity. */
export function cbrt(x: number): number {
  const hxs = highWord(x);
  const sign = hxs & 0x80000000;
  const hx = hxs & 0x7fffffff;
  if (hx >= 0x7ff00000) return x + x;
  let t: number;
  if (hx < 0x00100000) { // zero or subnormal
    if (x === 0) return x;
    t = x * TWO54;
    t = withHighWord(t, sign | (Math.floor((highWord(t) & 0x7fffffff) / 3) + B2));
  } else {
    t = fromWords(sign | (Math.floor(hx / 3) + B1), 0);
  }
  let r = (t * t) * (t / x);
  t = t * ((P0 + r * (P1 + r * P2)) + ((r * r) * r) * (P3 + r * P4));
  // Round t away from zero to 23 bits.
  let lo = lowWord(t) + 0x80000000;
  let hi = highWord(t);
  if (lo >= 4294967296) { lo -= 4294967296; hi += 1; }
  t = fromWords(hi, lo & 0xc0000000);
  const s = t * t;
  r = x / s;
  const w = t + t;
  r = (r - t) / (w + r);
  return t + t * r;
}
