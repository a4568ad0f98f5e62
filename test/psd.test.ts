/** PSD-projected element Hessians: PSD always, exact where the exact Hessian is PSD. */
import { describe, expect, it } from 'vitest';
import { cstHessian, cstRest, springHessian, bendingHessian, cstEnergy, cstGradient } from '../src/elements';
import { cstEnergyAt, cstGradientAt } from '../src/elements/cst';
import { cstHessianPSD, cstHessianPSDAt, springHessianPSD, bendingHessianPSD, fsGravitationHessXPSD, projectSymPSD } from '../src/elements/psd';
import { mulberry32 } from './elements-helpers';

/** Smallest eigenvalue of a symmetric n×n matrix (Jacobi on a copy). */
function minEig(m: Float64Array, n: number): number {
  const a = Float64Array.from(m);
  for (let sweep = 0; sweep < 60; sweep++) {
    for (let p = 0; p < n - 1; p++) for (let q = p + 1; q < n; q++) {
      const apq = a[p * n + q]!;
      if (Math.abs(apq) < 1e-300) continue;
      const th = (a[q * n + q]! - a[p * n + p]!) / (2 * apq);
      const t = Math.sign(th || 1) / (Math.abs(th) + Math.sqrt(th * th + 1));
      const c = 1 / Math.sqrt(t * t + 1), s = t * c;
      for (let k = 0; k < n; k++) { const x = a[k * n + p]!, y = a[k * n + q]!; a[k * n + p] = c * x - s * y; a[k * n + q] = s * x + c * y; }
      for (let k = 0; k < n; k++) { const x = a[p * n + k]!, y = a[q * n + k]!; a[p * n + k] = c * x - s * y; a[q * n + k] = s * x + c * y; }
    }
  }
  let m0 = Infinity;
  for (let i = 0; i < n; i++) m0 = Math.min(m0, a[i * n + i]!);
  return m0;
}
const fro = (m: Float64Array) => Math.sqrt(m.reduce((s, v) => s + v * v, 0));
const diff = (a: Float64Array, b: Float64Array) => fro(a.map((v, i) => v - b[i]!));

describe('PSD projections', () => {
  const rng = mulberry32(7);
  it('projectSymPSD: PSD result, identity on PSD input, nearest PSD (eigenvalues clamped)', () => {
    for (let t = 0; t < 50; t++) {
      const n = 2 + (t % 5);
      const a = new Float64Array(n * n);
      for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) a[i * n + j] = a[j * n + i] = rng() * 2 - 1;
      const b = Float64Array.from(a);
      projectSymPSD(b, 0, n);
      expect(minEig(b, n)).toBeGreaterThan(-1e-12);
      const c = Float64Array.from(b);
      projectSymPSD(c, 0, n);
      expect(diff(c, b)).toBeLessThan(1e-12 * (1 + fro(b)));
    }
  });

  it('spring: PSD; equals the exact Hessian when stretched', () => {
    const h = new Float64Array(16), p = new Float64Array(16);
    for (let t = 0; t < 100; t++) {
      const x2 = rng() * 2, y2 = rng() * 2, l0 = 0.2 + rng() * 2;
      springHessian(0, 0, x2, y2, 3, l0, h, 0);
      springHessianPSD(0, 0, x2, y2, 3, l0, p, 0);
      expect(minEig(p, 4)).toBeGreaterThan(-1e-10);
      if (minEig(h, 4) >= 0) expect(diff(p, h)).toBeLessThan(1e-12 * fro(h));
      if (Math.hypot(x2, y2) >= l0) expect(diff(p, h)).toBeLessThan(1e-12 * fro(h));
    }
  });

  it('gravitation: PSD', () => {
    const p = new Float64Array(16);
    for (let t = 0; t < 50; t++) {
      fsGravitationHessXPSD(0, 0, rng() + 0.1, rng() - 0.5, 1, 1, 1, p, 0);
      expect(minEig(p, 4)).toBeGreaterThan(-1e-10);
    }
  });

  it('CST array-form kernels (assembly loops, no boxed arguments) equal the scalar kernels bit for bit', () => {
    const rest = new Float64Array(5);
    const e6 = new Float64Array(6), a6 = new Float64Array(6), w = new Float64Array(1);
    const h = new Float64Array(36), ha = new Float64Array(36);
    for (let t = 0; t < 200; t++) {
      const X = [0, 0, 1, 0.1, 0.3, 0.9];
      cstRest(X[0]!, X[1]!, X[2]!, X[3]!, X[4]!, X[5]!, rest);
      const x = X.map((v) => v * (0.6 + 0.5 * rng()) + 0.8 * (rng() - 0.5));
      // topology-like layout: nodes scattered in a position array, params at an offset of 8·e
      const pos = new Float64Array(20), a = 6, b = 14, c = 2;
      pos[a] = x[0]!; pos[a + 1] = x[1]!; pos[b] = x[2]!; pos[b + 1] = x[3]!; pos[c] = x[4]!; pos[c + 1] = x[5]!;
      const q = new Float64Array(24), p = 8;
      q.set([1000, 0.3, rest[0]!, rest[1]!, rest[2]!, rest[3]!, rest[4]!, 0], p);
      const args = [x[0]!, x[1]!, x[2]!, x[3]!, x[4]!, x[5]!, 1000, 0.3, rest[0]!, rest[1]!, rest[2]!, rest[3]!, rest[4]!] as const;
      cstEnergyAt(pos, a, b, c, q, p, w, 0);
      expect(Object.is(w[0], cstEnergy(...args))).toBe(true);
      cstGradient(...args, e6, 0);
      cstGradientAt(pos, a, b, c, q, p, a6, 0);
      expect(Array.from(a6)).toEqual(Array.from(e6));
      cstHessianPSD(...args, h, 0);
      cstHessianPSDAt(pos, a, b, c, q, p, ha, 0);
      expect(Array.from(ha)).toEqual(Array.from(h));
    }
  });

  it('CST: PSD under random deformations (compression, shear, inversion); exact wherever the exact one is PSD', () => {
    const rest = new Float64Array(5);
    const h = new Float64Array(36), p = new Float64Array(36), q = new Float64Array(36);
    let exactPsd = 0, projected = 0;
    for (let t = 0; t < 400; t++) {
      const X = [0, 0, 1, 0.1, 0.3, 0.9];
      cstRest(X[0]!, X[1]!, X[2]!, X[3]!, X[4]!, X[5]!, rest);
      const s = t < 200 ? 0.15 : 0.8;
      const x = X.map((v) => v * (0.6 + 0.5 * rng()) + s * (rng() - 0.5));
      const args = [x[0]!, x[1]!, x[2]!, x[3]!, x[4]!, x[5]!, 1000, 0.3, rest[0]!, rest[1]!, rest[2]!, rest[3]!, rest[4]!] as const;
      cstHessian(...args, h, 0);
      cstHessianPSD(...args, p, 0);
      cstHessianPSD(...args, q, 0, true);
      const scale = fro(h);
      expect(minEig(p, 6)).toBeGreaterThan(-1e-9 * scale);
      expect(minEig(q, 6)).toBeGreaterThan(-1e-9 * scale);
      if (minEig(h, 6) > 1e-9 * scale || diff(p, h) < 1e-12 * scale) exactPsd++;
      else projected++;
      if (minEig(h, 6) >= -1e-12 * scale) {
        expect(diff(p, h)).toBeLessThan(1e-9 * scale);
        expect(diff(q, h)).toBeLessThan(1e-9 * scale);
      }
    }
    expect(exactPsd).toBeGreaterThan(20);
    expect(projected).toBeGreaterThan(20);
  });

  it('bending: PSD; exact where the exact one is PSD', () => {
    const h = new Float64Array(36), p = new Float64Array(36);
    for (let t = 0; t < 100; t++) {
      const x = [0, 0, 1, 0, 2 + rng() - 0.5, rng() * 2 - 1].map((v) => v + 0.1 * (rng() - 0.5));
      bendingHessian(x[0]!, x[1]!, x[2]!, x[3]!, x[4]!, x[5]!, 1, 0.2, 2, h, 0);
      bendingHessianPSD(x[0]!, x[1]!, x[2]!, x[3]!, x[4]!, x[5]!, 1, 0.2, 2, p, 0);
      expect(minEig(p, 6)).toBeGreaterThan(-1e-9 * fro(h));
      if (minEig(h, 6) >= -1e-12 * fro(h)) expect(diff(p, h)).toBeLessThan(1e-9 * fro(h));
    }
  });
});
