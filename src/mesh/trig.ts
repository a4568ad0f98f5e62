/**
 * Sine and cosine of a fraction of a full turn with exact quadrant and mirror
 * symmetries (the reduction is done in integers), on top of src/math's
 * deterministic sincos, so meshes are bit-identical on every JavaScript engine.
 */

import { sincos } from '../math';

const HALF_PI = 1.5707963267948966;
const sc = new Float64Array(2);

/** sin and cos of x for |x| <= pi/4, from the project's deterministic math. */
function sinCosSmall(x: number, out: [number, number]): void {
  sincos(x, sc, 0);
  out[0] = sc[0]!;
  out[1] = sc[1]!;
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
