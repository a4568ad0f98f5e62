/**
 * Deterministic atan and atan2 (fdlibm s_atan.c / e_atan2.c algorithms):
 * argument reduction into 4 intervals around atan(0.5), atan(1), atan(1.5), pi/2,
 * then an odd minimax polynomial of degree 22.
 */
import { highWord } from './bits';

const ATAN_HI = [4.63647609000806093515e-01, 7.85398163397448278999e-01, 9.82793723247329054082e-01, 1.57079632679489655800e+00];
const ATAN_LO = [2.26987774529616870924e-17, 3.06161699786838301793e-17, 1.39033110312309984516e-17, 6.12323399573676603587e-17];
const A0 = 3.33333333333329318027e-01;
const A1 = -1.99999999998764832476e-01;
const A2 = 1.42857142725034663711e-01;
const A3 = -1.11111104054623557880e-01;
const A4 = 9.09088713343650656196e-02;
const A5 = -7.69187620504482999495e-02;
const A6 = 6.66107313738753120669e-02;
const A7 = -5.83357013379057348645e-02;
const A8 = 4.97687799461593236017e-02;
const A9 = -3.65315727442169155270e-02;
const A10 = 1.62858201153657823623e-02;

const PI = 3.141592653589793;
const PI_LO = 1.2246467991473532e-16;
const PI_O_2 = 1.5707963267948966;
const PI_O_4 = 0.7853981633974483;

/** Arctangent, result in [-pi/2, pi/2]; atan(±0) = ±0, atan(±Infinity) = ±pi/2. */
export function atan(x: number): number {
  const hx = highWord(x);
  const ix = hx & 0x7fffffff;
  const neg = (hx >>> 31) === 1;
  if (ix >= 0x44100000) { // |x| >= 2^66 or NaN
    if (x !== x) return x;
    return neg ? -ATAN_HI[3] - ATAN_LO[3] : ATAN_HI[3] + ATAN_LO[3];
  }
  let id: number;
  if (ix < 0x3fdc0000) { // |x| < 0.4375
    if (ix < 0x3e400000) return x; // |x| < 2^-27
    id = -1;
  } else {
    x = Math.abs(x);
    if (ix < 0x3ff30000) { // |x| < 1.1875
      if (ix < 0x3fe60000) { id = 0; x = (2 * x - 1) / (2 + x); } // 7/16 <= |x| < 11/16
      else { id = 1; x = (x - 1) / (x + 1); }
    } else if (ix < 0x40038000) { id = 2; x = (x - 1.5) / (1 + 1.5 * x); } // |x| < 2.4375
    else { id = 3; x = -1 / x; }
  }
  const z = x * x;
  const w = z * z;
  const s1 = z * (A0 + w * (A2 + w * (A4 + w * (A6 + w * (A8 + w * A10)))));
  const s2 = w * (A1 + w * (A3 + w * (A5 + w * (A7 + w * A9))));
  if (id < 0) return x - x * (s1 + s2);
  const r = ATAN_HI[id] - ((x * (s1 + s2) - ATAN_LO[id]) - x);
  return neg ? -r : r;
}

/**
 * atan2(y, x): angle of the vector (x, y) in [-pi, pi], with the ECMAScript / C99
 * special cases (signed zeros, infinities) of Math.atan2.
 */
export function atan2(y: number, x: number): number {
  if (x !== x || y !== y) return NaN;
  if (x === 1) return atan(y);
  const hx = highWord(x);
  const hy = highWord(y);
  const m = ((hy >>> 31) & 1) | ((hx >>> 30) & 2); // bit0: sign y, bit1: sign x
  if (y === 0) {
    if (m < 2) return y; // atan(±0, +anything) = ±0
    return m === 2 ? PI : -PI;
  }
  if (x === 0) return (m & 1) === 0 ? PI_O_2 : -PI_O_2;
  if (x === Infinity || x === -Infinity) {
    if (y === Infinity || y === -Infinity) {
      switch (m) {
        case 0: return PI_O_4;
        case 1: return -PI_O_4;
        case 2: return 3 * PI_O_4;
        default: return -3 * PI_O_4;
      }
    }
    switch (m) {
      case 0: return 0;
      case 1: return -0;
      case 2: return PI;
      default: return -PI;
    }
  }
  if (y === Infinity || y === -Infinity) return (m & 1) === 0 ? PI_O_2 : -PI_O_2;
  const k = (((hy & 0x7fffffff) >>> 20) - ((hx & 0x7fffffff) >>> 20));
  let z: number;
  if (k > 60) z = PI_O_2 + 0.5 * PI_LO; // |y/x| > 2^60
  else if ((m & 2) !== 0 && k < -60) z = 0; // |y|/x < -2^-60
  else z = atan(Math.abs(y / x));
  switch (m) {
    case 0: return z;
    case 1: return -z;
    case 2: return PI - (z - PI_LO);
    default: return (z - PI_LO) - PI;
  }
}
