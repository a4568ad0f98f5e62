/**
 * Deterministic sine and cosine of a fraction of a full turn, using only
 * IEEE-754 basic operations (+ - * /), so meshes are bit-identical on every
 * JavaScript engine (Math.sin/cos are not specified exactly).
 * Accurate to about 1 ulp for the angles meshing needs.
 */

const HALF_PI = 1.5707963267948966;

/** sin and cos of x for |x| <= pi/4 by Taylor series (terms to x^17). */
function sinCosSmall(x: number, out: [number, number]): void {
  const x2 = x * x;
  let s = 0;
  let c = 0;
  // Horner form, coefficients 1/n!
  s = 1 / 355687428096000; // 1/17!
  s = s * x2 * -1 + 1 / 1307674368000; // 1/15!
  s = s * x2 * -1 + 1 / 6227020800; // 1/13!
  s = s * x2 * -1 + 1 / 39916800; // 1/11!
  s = s * x2 * -1 + 1 / 362880; // 1/9!
  s = s * x2 * -1 + 1 / 5040; // 1/7!
  s = s * x2 * -1 + 1 / 120;
  s = s * x2 * -1 + 1 / 6;
  s = s * x2 * -1 + 1;
  c = 1 / 6402373705728000; // 1/18!
  c = c * x2 * -1 + 1 / 20922789888000; // 1/16!
  c = c * x2 * -1 + 1 / 87178291200; // 1/14!
  c = c * x2 * -1 + 1 / 479001600; // 1/12!
  c = c * x2 * -1 + 1 / 3628800; // 1/10!
  c = c * x2 * -1 + 1 / 40320; // 1/8!
  c = c * x2 * -1 + 1 / 720;
  c = c * x2 * -1 + 1 / 24;
  c = c * x2 * -1 + 1 / 2;
  c = c * x2 * -1 + 1;
  out[0] = s * x;
  out[1] = c;
}

/**
 * Writes [sin, cos] of the angle 2*pi*k/n into out. Exact quadrant reduction in
 * integers, so the 4-fold (and for even n, mirror) symmetries are exact.
 */
export function sinCosTurn(k: number, n: number, out: [number, number]): [number, number] {
  // Reduce to 8*k mod 8n to find the octant exactly.
  let m = ((k % n) + n) % n; // 0 <= m < n
  // quadrant q in 0..3, remainder r: angle = q*pi/2 + 2*pi*r/n, with 0 <= r < n/4
  let q = 0;
  while (4 * m >= n) {
    m -= n / 4;
    q++;
  }
  // m may be fractional when n is not divisible by 4: fine, angle = 2*pi*m/n in [0, pi/2).
  let s: number;
  let c: number;
  if (8 * m <= n) {
    sinCosSmall((m / n) * 4 * HALF_PI, out);
    s = out[0];
    c = out[1];
  } else {
    // angle = pi/2 - a, a = 2*pi*(n/4 - m)/n
    sinCosSmall(((n / 4 - m) / n) * 4 * HALF_PI, out);
    s = out[1];
    c = out[0];
  }
  switch (q) {
    case 0: out[0] = s; out[1] = c; break;
    // 0 - v rather than -v: exact zeros come out as +0, never -0.
    case 1: out[0] = c; out[1] = 0 - s; break;
    case 2: out[0] = 0 - s; out[1] = 0 - c; break;
    default: out[0] = 0 - c; out[1] = s; break;
  }
  return out;
}
