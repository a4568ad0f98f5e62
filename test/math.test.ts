import { describe, it, expect } from 'vitest';
import { exp, log, pow, sin, cos, sincos, atan, atan2, cbrt, Rng, mulberry32, scalbn, highWord, lowWord } from '../src/math/index';

const EPS = 2.220446049250313e-16;

/** Relative error, with an absolute floor of 1 for |ref| < 1 when `absBelowOne`. */
function err(a: number, ref: number, absBelowOne = false): number {
  if (Object.is(a, ref)) return 0;
  if (Number.isNaN(a) || Number.isNaN(ref)) return Infinity;
  if (a === ref) return 0; // +0 vs -0 checked separately where relevant
  const d = Math.abs(a - ref);
  const s = absBelowOne ? Math.max(1, Math.abs(ref)) : Math.abs(ref);
  if (s === 0) return d;
  return d / s;
}

function maxErr(n: number, gen: (r: Rng) => number, f: (x: number) => number, g: (x: number) => number, abs = false, seed = 12345): number {
  const rng = new Rng(seed);
  let worst = 0;
  for (let i = 0; i < n; i++) {
    const x = gen(rng);
    const e = err(f(x), g(x), abs);
    if (!(e <= worst)) worst = e;
  }
  return worst;
}

function same(a: number, b: number): boolean {
  return Object.is(a, b);
}

describe('Rng / mulberry32', () => {
  it('is deterministic, in [0,1), and roughly uniform', () => {
    const a = new Rng(42);
    const b = new Rng(42);
    const f = mulberry32(42);
    let sum = 0;
    const bins = new Array(10).fill(0);
    for (let i = 0; i < 100000; i++) {
      const x = a.next();
      expect(x).toBe(b.next());
      expect(f()).toBe(x);
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
      sum += x;
      bins[Math.floor(x * 10)]++;
    }
    expect(Math.abs(sum / 100000 - 0.5)).toBeLessThan(0.005);
    for (const c of bins) expect(Math.abs(c - 10000)).toBeLessThan(500);
    expect(new Rng(1).next()).not.toBe(new Rng(2).next());
  });
  it('known first value of mulberry32(0)', () => {
    // Reference implementation of mulberry32 computed independently.
    let s = 0;
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const ref = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    expect(new Rng(0).next()).toBe(ref);
  });
  it('range()', () => {
    const r = new Rng(7);
    for (let i = 0; i < 1000; i++) {
      const x = r.range(-3, 5);
      expect(x).toBeGreaterThanOrEqual(-3);
      expect(x).toBeLessThan(5);
    }
  });
});

describe('exp', () => {
  it('matches Math.exp to < 1e-15 relative over the full range', () => {
    expect(maxErr(100000, (r) => r.range(-708, 709.7), exp, Math.exp)).toBeLessThan(1e-15);
    // Subnormal results: compare in units of the smallest subnormal.
    const r = new Rng(77);
    for (let i = 0; i < 20000; i++) {
      const x = r.range(-745, -708.4);
      expect(Math.abs(exp(x) - Math.exp(x)) / 5e-324).toBeLessThanOrEqual(1);
    }
    expect(maxErr(100000, (r) => r.range(-2, 2), exp, Math.exp)).toBeLessThan(1e-15);
    expect(maxErr(20000, (r) => r.range(-1e-8, 1e-8), exp, Math.exp)).toBeLessThan(1e-15);
  });
  it('special values, overflow and underflow', () => {
    expect(exp(0)).toBe(1);
    expect(exp(-0)).toBe(1);
    expect(exp(1)).toBe(Math.E);
    expect(exp(Infinity)).toBe(Infinity);
    expect(exp(-Infinity)).toBe(0);
    expect(exp(NaN)).toBeNaN();
    expect(exp(710)).toBe(Infinity);
    expect(exp(709.78)).toBe(Math.exp(709.78));
    expect(exp(-746)).toBe(0);
    expect(exp(-745)).toBe(Math.exp(-745)); // subnormal 5e-324
    expect(exp(-740)).toBeGreaterThan(0);
    expect(err(exp(-740), Math.exp(-740))).toBeLessThan(1e-12); // subnormal: fewer bits
    expect(err(exp(-708.5), Math.exp(-708.5))).toBeLessThan(1e-15);
  });
});

describe('log', () => {
  it('matches Math.log to < 1e-15 relative', () => {
    expect(maxErr(100000, (r) => Math.exp(r.range(-744, 709)), log, Math.log)).toBeLessThan(1e-15);
    expect(maxErr(100000, (r) => r.range(0.5, 2), log, Math.log)).toBeLessThan(1e-15);
    expect(maxErr(20000, (r) => 1 + r.range(-1e-10, 1e-10), log, Math.log)).toBeLessThan(1e-15);
    expect(maxErr(20000, (r) => r.range(0, 1) * 2.2250738585072014e-308, log, Math.log)).toBeLessThan(1e-15);
  });
  it('special values', () => {
    expect(log(1)).toBe(0);
    expect(log(0)).toBe(-Infinity);
    expect(log(-0)).toBe(-Infinity);
    expect(log(-1)).toBeNaN();
    expect(log(-Infinity)).toBeNaN();
    expect(log(NaN)).toBeNaN();
    expect(log(Infinity)).toBe(Infinity);
    expect(log(Math.E)).toBe(1);
    expect(log(2)).toBe(Math.LN2);
    expect(log(10)).toBe(Math.LN10);
    expect(log(5e-324)).toBe(Math.log(5e-324));
    expect(log(Number.MAX_VALUE)).toBe(Math.log(Number.MAX_VALUE));
  });
  it('exp(log(x)) round trip', () => {
    const r = new Rng(3);
    for (let i = 0; i < 1000; i++) {
      const x = r.range(0.01, 100);
      expect(err(exp(log(x)), x)).toBeLessThan(1e-14);
    }
  });
});

describe('pow', () => {
  it('matches Math.pow to < 1e-15 relative', () => {
    const r = new Rng(9);
    let worst = 0;
    for (let i = 0; i < 100000; i++) {
      const x = Math.exp(r.range(-20, 20));
      const y = r.range(-30, 30);
      const e = err(pow(x, y), Math.pow(x, y));
      if (e > worst) worst = e;
    }
    expect(worst).toBeLessThan(1e-15);
    expect(maxErr(50000, (q) => q.range(-1300, 1300), (y) => pow(1.7, y), (y) => Math.pow(1.7, y))).toBeLessThan(1e-15);
    expect(maxErr(50000, (q) => q.range(-7e8, 7e8), (y) => pow(0.999999, y), (y) => Math.pow(0.999999, y))).toBeLessThan(1e-15);
  });
  it('negative base with integer exponent, and the integer fast path', () => {
    const r = new Rng(10);
    for (let i = 0; i < 10000; i++) {
      const x = r.range(-10, 10);
      const n = Math.floor(r.range(-12, 13));
      expect(err(pow(x, n), Math.pow(x, n))).toBeLessThan(1e-15);
    }
    expect(pow(3, 2)).toBe(9);
    expect(pow(-2, 3)).toBe(-8);
    expect(pow(2, -1)).toBe(0.5);
    expect(pow(-2, 0.5)).toBeNaN();
    expect(pow(4, 0.5)).toBe(2);
    expect(pow(2, 10)).toBe(1024);
    expect(pow(2, -1074)).toBe(5e-324);
    expect(pow(2, 1023)).toBe(8.98846567431158e307);
    expect(pow(2, 1024)).toBe(Infinity);
  });
  it('ECMAScript special cases', () => {
    const xs = [NaN, -Infinity, -3, -2, -1, -0.5, -0, 0, 0.5, 1, 2, 3, Infinity];
    const ys = [NaN, -Infinity, -3, -2, -1.5, -1, -0.5, -0, 0, 0.5, 1, 1.5, 2, 3, Infinity];
    for (const x of xs) for (const y of ys) {
      const a = pow(x, y);
      const b = Math.pow(x, y);
      if (!same(a, b)) expect(err(a, b)).toBeLessThan(1e-15);
      if (Number.isNaN(b) || b === 0 || !Number.isFinite(b)) expect(same(a, b), `pow(${x}, ${y})`).toBe(true);
    }
  });
});

describe('sin / cos / sincos', () => {
  it('match Math.sin/cos to < 1e-15 (relative, absolute below 1)', () => {
    expect(maxErr(100000, (r) => r.range(-10, 10), sin, Math.sin, true)).toBeLessThan(1e-15);
    expect(maxErr(100000, (r) => r.range(-10, 10), cos, Math.cos, true)).toBeLessThan(1e-15);
    expect(maxErr(100000, (r) => r.range(-1e5, 1e5), sin, Math.sin, true)).toBeLessThan(1e-15);
    expect(maxErr(100000, (r) => r.range(-1e5, 1e5), cos, Math.cos, true)).toBeLessThan(1e-15);
    expect(maxErr(20000, (r) => r.range(-1e9, 1e9), sin, Math.sin, true)).toBeLessThan(1e-15);
    expect(maxErr(5000, (r) => r.range(-1e300, 1e300), cos, Math.cos, true)).toBeLessThan(1e-15);
    expect(maxErr(20000, (r) => r.range(-1, 1) * 1e-6, sin, Math.sin)).toBeLessThan(1e-15); // relative near 0
  });
  it('relative accuracy near multiples of pi (hard reduction cases)', () => {
    for (let k = 1; k < 2000; k++) {
      const x = k * Math.PI; // sin(x) ~ 1e-16 * k: tests the extra-precision reduction
      expect(err(sin(x), Math.sin(x))).toBeLessThan(1e-13);
      const y = (k + 0.5) * Math.PI;
      expect(err(cos(y), Math.cos(y))).toBeLessThan(1e-13);
    }
    expect(err(sin(6381956970095103 * 2 ** 797), Math.sin(6381956970095103 * 2 ** 797), true)).toBeLessThan(1e-15);
  });
  it('special values', () => {
    expect(same(sin(0), 0)).toBe(true);
    expect(same(sin(-0), -0)).toBe(true);
    expect(cos(0)).toBe(1);
    expect(cos(-0)).toBe(1);
    expect(sin(Infinity)).toBeNaN();
    expect(sin(-Infinity)).toBeNaN();
    expect(cos(Infinity)).toBeNaN();
    expect(sin(NaN)).toBeNaN();
    expect(cos(NaN)).toBeNaN();
    expect(sin(1e-300)).toBe(1e-300);
    expect(sin(Math.PI / 2)).toBe(1);
    expect(cos(Math.PI)).toBe(-1);
  });
  it('sincos agrees exactly with sin and cos', () => {
    const out = new Float64Array(4);
    const r = new Rng(5);
    for (let i = 0; i < 20000; i++) {
      const x = i < 10000 ? r.range(-20, 20) : r.range(-1e7, 1e7);
      sincos(x, out, 1);
      expect(same(out[1], sin(x))).toBe(true);
      expect(same(out[2], cos(x))).toBe(true);
    }
    sincos(Infinity, out, 0);
    expect(out[0]).toBeNaN();
    expect(out[1]).toBeNaN();
  });
  it('sin^2 + cos^2 = 1', () => {
    const r = new Rng(6);
    for (let i = 0; i < 1000; i++) {
      const x = r.range(-100, 100);
      expect(Math.abs(sin(x) ** 2 + cos(x) ** 2 - 1)).toBeLessThan(4 * EPS);
    }
  });
});

describe('atan / atan2', () => {
  it('atan matches Math.atan to < 1e-15 relative', () => {
    expect(maxErr(100000, (r) => r.range(-3, 3), atan, Math.atan)).toBeLessThan(1e-15);
    expect(maxErr(100000, (r) => Math.exp(r.range(-40, 40)) * (r.next() < 0.5 ? -1 : 1), atan, Math.atan)).toBeLessThan(1e-15);
    expect(atan(Infinity)).toBe(Math.PI / 2);
    expect(atan(-Infinity)).toBe(-Math.PI / 2);
    expect(same(atan(-0), -0)).toBe(true);
    expect(atan(NaN)).toBeNaN();
    expect(atan(1)).toBe(Math.PI / 4);
    expect(atan(1e-300)).toBe(1e-300);
  });
  it('atan2 matches Math.atan2 in all quadrants', () => {
    const r = new Rng(11);
    let worst = 0;
    for (let i = 0; i < 100000; i++) {
      const s = Math.exp(r.range(-30, 30));
      const y = r.range(-1, 1) * s;
      const x = r.range(-1, 1) * (i % 3 === 0 ? s * Math.exp(r.range(-50, 50)) : s);
      const e = err(atan2(y, x), Math.atan2(y, x));
      if (e > worst) worst = e;
    }
    expect(worst).toBeLessThan(1e-15);
    // All 4 quadrants and axis directions.
    for (let k = -16; k <= 16; k++) {
      const t = (k * Math.PI) / 8;
      const y = Math.sin(t);
      const x = Math.cos(t);
      expect(err(atan2(y, x), Math.atan2(y, x))).toBeLessThan(1e-15);
    }
  });
  it('atan2 special cases (signed zeros, infinities, x = 0)', () => {
    const vals = [NaN, -Infinity, -2, -1, -1e-310, -0, 0, 1e-310, 1, 2, Infinity];
    for (const y of vals) for (const x of vals) {
      const a = atan2(y, x);
      const b = Math.atan2(y, x);
      expect(same(a, b) || err(a, b) < 1e-15, `atan2(${y}, ${x}) = ${a} vs ${b}`).toBe(true);
      if (b === 0 || Number.isNaN(b)) expect(same(a, b), `atan2(${y}, ${x})`).toBe(true);
    }
    expect(atan2(0, -1)).toBe(Math.PI);
    expect(atan2(-0, -1)).toBe(-Math.PI);
    expect(same(atan2(-0, 1), -0)).toBe(true);
    expect(atan2(1, 0)).toBe(Math.PI / 2);
    expect(atan2(-1, -0)).toBe(-Math.PI / 2);
    expect(atan2(Infinity, -Infinity)).toBe((3 * Math.PI) / 4);
    expect(atan2(1e300, 1e-300)).toBe(Math.PI / 2);
    expect(same(atan2(1e-300, -1e300), Math.PI)).toBe(true);
  });
});

describe('cbrt', () => {
  it('matches Math.cbrt to < 1e-15 relative', () => {
    expect(maxErr(100000, (r) => r.range(-1000, 1000) * Math.exp(r.range(-700, 700)), cbrt, Math.cbrt)).toBeLessThan(1e-15);
    expect(maxErr(20000, (r) => r.range(-1, 1) * 1e-310, cbrt, Math.cbrt)).toBeLessThan(1e-15);
  });
  it('exact cubes and specials', () => {
    for (let i = -50; i <= 50; i++) expect(cbrt(i * i * i)).toBe(i);
    expect(same(cbrt(-0), -0)).toBe(true);
    expect(cbrt(Infinity)).toBe(Infinity);
    expect(cbrt(-Infinity)).toBe(-Infinity);
    expect(cbrt(NaN)).toBeNaN();
    expect(cbrt(5e-324)).toBe(Math.cbrt(5e-324));
  });
});

describe('scalbn', () => {
  it('scales by powers of two exactly, including subnormal results', () => {
    expect(scalbn(1, 1023)).toBe(2 ** 1023);
    expect(scalbn(1, -1074)).toBe(5e-324);
    expect(scalbn(3, -1075)).toBe(1e-323); // 1.5 * 2^-1074 rounds to even
    expect(scalbn(1.5, 1024)).toBe(Infinity);
    expect(scalbn(2 ** 1000, -2000)).toBe(2 ** -1000);
  });
});

describe('bit-exact regression', () => {
  it('golden hash of 16000 outputs is unchanged (guards determinism across refactors/engines)', () => {
    const r = new Rng(2024);
    let h = 0;
    const mix = (v: number) => {
      h = (Math.imul(h ^ highWord(v), 0x01000193) ^ lowWord(v)) >>> 0;
      h = Math.imul(h, 0x01000193) >>> 0;
    };
    for (let i = 0; i < 2000; i++) {
      const a = r.range(-50, 50), b = r.range(-1e5, 1e5), c = r.range(0, 30);
      mix(exp(a)); mix(log(c)); mix(pow(c, a / 10)); mix(sin(b)); mix(cos(b)); mix(atan(a)); mix(atan2(a, b)); mix(cbrt(b));
    }
    expect(h).toBe(1164667067);
  });
});
