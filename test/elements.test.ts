import { describe, it, expect } from 'vitest';
import {
  springEnergy, springGradient, springHessian,
  restTheta, bendingEnergy, bendingGradient, bendingHessian,
  cstRest, cstStrain, cstEnergy, cstGradient, cstHessian,
} from '../src/elements/index';
import { mulberry32, fdGradient, fdJacobian, relErr, maxAbs } from './elements-helpers';

const TOL = 1e-6;
const TRIALS = 50;

function symmetric(H: Float64Array, n: number, o = 0): number {
  let worst = 0;
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
    worst = Math.max(worst, Math.abs(H[o + r * n + c] - H[o + c * n + r]));
  }
  return worst / Math.max(maxAbs(H), 1e-300);
}

describe('spring (elastic body, W = alpha/(2 l0)(l - l0)^2)', () => {
  const E = (x: Float64Array, a: number, l0: number) => springEnergy(x[0], x[1], x[2], x[3], a, l0);
  const G = (x: Float64Array, a: number, l0: number, out: Float64Array) => springGradient(x[0], x[1], x[2], x[3], a, l0, out, 0);

  it('energy matches the formula by hand', () => {
    expect(springEnergy(0, 0, 3, 4, 2, 4)).toBeCloseTo((2 / 8) * 1, 15);
    expect(springEnergy(1, 1, 1, 3, 5, 2)).toBe(0);
  });

  it('gradient and Hessian match central finite differences', () => {
    const rnd = mulberry32(101);
    const g = new Float64Array(4);
    const H = new Float64Array(20);
    for (let t = 0; t < TRIALS; t++) {
      const x = Float64Array.from({ length: 4 }, () => rnd() * 4 - 2);
      const alpha = 0.5 + rnd() * 10;
      const l0 = 0.2 + rnd() * 2;
      G(x, alpha, l0, g);
      expect(relErr(g, fdGradient((y) => E(y, alpha, l0), x))).toBeLessThan(TOL);
      springHessian(x[0], x[1], x[2], x[3], alpha, l0, H, 4);
      const fd = fdJacobian((y, out) => G(y, alpha, l0, out), 4, x);
      expect(relErr(H.subarray(4), fd)).toBeLessThan(TOL);
      expect(symmetric(H, 4, 4)).toBeLessThan(1e-14);
    }
  });

  it('zero force at rest length, restoring force when stretched', () => {
    const g = new Float64Array(4);
    springGradient(0, 0, 0.6, 0.8, 3, 1, g, 0);
    expect(maxAbs(g)).toBeLessThan(1e-15);
    springGradient(0, 0, 2, 0, 3, 1, g, 0);
    expect(Array.from(g)).toEqual([-3, -0, 3, 0]);
  });
});

describe('bending hinge', () => {
  const args = (x: Float64Array) => [x[0], x[1], x[2], x[3], x[4], x[5]] as const;

  it('restTheta is the signed turning angle at node 2', () => {
    expect(restTheta(0, 0, 1, 0, 2, 0)).toBe(0);
    expect(restTheta(0, 0, 1, 0, 1, 1)).toBeCloseTo(Math.PI / 2, 15); // left turn
    expect(restTheta(0, 0, 1, 0, 1, -1)).toBeCloseTo(-Math.PI / 2, 15); // right turn
    expect(restTheta(0, 0, 1, 0, 2, 1)).toBeCloseTo(Math.PI / 4, 15);
    expect(restTheta(0, 0, 1, 0, 0, 1e-9)).toBeCloseTo(Math.PI, 8);
  });

  it('energy by hand: alpha (theta - theta0)^2 / (2 ebSum)', () => {
    expect(bendingEnergy(0, 0, 1, 0, 1, 1, 3, 0, 2)).toBeCloseTo((3 * (Math.PI / 2) ** 2) / 4, 14);
    expect(bendingEnergy(0, 0, 1, 0, 1, 1, 3, Math.PI / 2, 2)).toBeCloseTo(0, 15);
  });

  it('gradient and exact Hessian match central finite differences at random configurations', () => {
    const rnd = mulberry32(202);
    const g = new Float64Array(6);
    const H = new Float64Array(36);
    let done = 0;
    while (done < TRIALS) {
      const x = Float64Array.from({ length: 6 }, () => rnd() * 4 - 2);
      const th = restTheta(...args(x));
      const l1 = Math.hypot(x[2] - x[0], x[3] - x[1]);
      const l2 = Math.hypot(x[4] - x[2], x[5] - x[3]);
      if (Math.abs(th) > 2.8 || l1 < 0.3 || l2 < 0.3) continue; // stay away from the branch cut
      done++;
      const alpha = 0.1 + rnd() * 5;
      const theta0 = rnd() * 2 - 1;
      const eb = 0.5 + rnd() * 3;
      bendingGradient(...args(x), alpha, theta0, eb, g, 0);
      expect(relErr(g, fdGradient((y) => bendingEnergy(...args(y), alpha, theta0, eb), x))).toBeLessThan(TOL);
      bendingHessian(...args(x), alpha, theta0, eb, H, 0);
      const fd = fdJacobian((y, out) => bendingGradient(...args(y), alpha, theta0, eb, out, 0), 6, x);
      expect(relErr(H, fd)).toBeLessThan(TOL);
      expect(symmetric(H, 6)).toBeLessThan(1e-13);
    }
  });

  it('gradient is translation and rotation invariant (sums to zero, no torque)', () => {
    const g = new Float64Array(6);
    const x = [0.1, 0.2, 1.1, 0.4, 1.5, 1.6];
    bendingGradient(x[0], x[1], x[2], x[3], x[4], x[5], 2, 0.3, 2, g, 0);
    expect(Math.abs(g[0] + g[2] + g[4])).toBeLessThan(1e-14);
    expect(Math.abs(g[1] + g[3] + g[5])).toBeLessThan(1e-14);
    let torque = 0;
    for (let n = 0; n < 3; n++) torque += x[2 * n] * g[2 * n + 1] - x[2 * n + 1] * g[2 * n];
    expect(Math.abs(torque)).toBeLessThan(1e-14);
    expect(maxAbs(g)).toBeGreaterThan(0.1);
  });
});

describe('CST triangle (FOSSSim, eps = F^T F - I)', () => {
  const rest = new Float64Array(5);

  it('cstRest: area and Dbar^{-1}', () => {
    expect(cstRest(0, 0, 0, 1, 1, 0, rest)).toBe(0.5);
    // Dbar = [[0,1],[1,0]] is its own inverse
    expect(Array.from(rest)).toEqual([0.5, -0, 1, 1, -0]);
    expect(cstRest(1, 1, 3, 1, 1, 5, rest, 0)).toBe(4);
    expect(rest[1]).toBe(0.5);
    expect(rest[4]).toBe(0.25);
    expect(cstRest(0, 0, 1, 1, 2, 2, rest)).toBe(0);
    expect(maxAbs(rest)).toBe(0);
  });

  it("worked example: grad Phi = [[1.68, 0.36],[0.36, 0.72]] gives strain eigenvalues 2.24 and -0.64", () => {
    // Rest triangle (0,0),(1,0),(0,1): B = I, so F = D = [x2 - x1, x3 - x1].
    cstRest(0, 0, 1, 0, 0, 1, rest);
    const eps = new Float64Array(3);
    cstStrain(0, 0, 1.68, 0.36, 0.36, 0.72, rest[1], rest[2], rest[3], rest[4], eps, 0);
    const [exx, exy, eyy] = eps;
    expect(exx).toBeCloseTo(1.952, 12);
    expect(exy).toBeCloseTo(0.864, 12);
    expect(eyy).toBeCloseTo(-0.352, 12);
    const tr = exx + eyy;
    const det = exx * eyy - exy * exy;
    const disc = Math.sqrt((tr * tr) / 4 - det);
    expect(tr / 2 + disc).toBeCloseTo(2.24, 12);
    expect(tr / 2 - disc).toBeCloseTo(-0.64, 12);
  });

  it('zero energy and force at rest: triangle (0,0),(0,1),(1,0) and the unit square', () => {
    const g = new Float64Array(6);
    const tris = [
      [0, 0, 0, 1, 1, 0],
      [0, 0, 1, 0, 1, 1], // unit square, lower-right
      [0, 0, 1, 1, 0, 1], // unit square, upper-left
    ];
    for (const p of tris) {
      const A = cstRest(p[0], p[1], p[2], p[3], p[4], p[5], rest);
      expect(A).toBe(0.5);
      const [, b00, b01, b10, b11] = rest;
      expect(cstEnergy(p[0], p[1], p[2], p[3], p[4], p[5], 100, 0.3, A, b00, b01, b10, b11)).toBe(0);
      cstGradient(p[0], p[1], p[2], p[3], p[4], p[5], 100, 0.3, A, b00, b01, b10, b11, g, 0);
      expect(maxAbs(g)).toBe(0);
      // Rigid rotation + translation: still zero energy.
      const c = Math.cos(0.7), s = Math.sin(0.7);
      const q = [0, 1, 2].flatMap((n) => [c * p[2 * n] - s * p[2 * n + 1] + 3, s * p[2 * n] + c * p[2 * n + 1] - 1]);
      expect(Math.abs(cstEnergy(q[0], q[1], q[2], q[3], q[4], q[5], 100, 0.3, A, b00, b01, b10, b11))).toBeLessThan(1e-26);
      cstGradient(q[0], q[1], q[2], q[3], q[4], q[5], 100, 0.3, A, b00, b01, b10, b11, g, 0);
      expect(maxAbs(g)).toBeLessThan(1e-12);
    }
  });

  it('uniaxial stretch: energy and forces match the formula by hand', () => {
    const E = 1000, nu = 0.25, s = 1.1;
    const A = cstRest(0, 0, 1, 0, 0, 1, rest);
    const [, b00, b01, b10, b11] = rest;
    // F = diag(s, 1): exx = s^2 - 1, eyy = exy = 0  =>  W = E A/(2(1-nu^2)) (s^2-1)^2
    const hand = ((E * 0.5) / (2 * (1 - nu * nu))) * (s * s - 1) ** 2;
    const W = cstEnergy(0, 0, s, 0, 0, 1, E, nu, A, b00, b01, b10, b11);
    expect(W).toBeCloseTo(hand, 10);
    // Unit square stretched: sum over both triangles = 2 * (single triangle energy)
    const sq1 = cstRest(0, 0, 1, 0, 1, 1, rest);
    const r1 = Float64Array.from(rest);
    const sq2 = cstRest(0, 0, 1, 1, 0, 1, rest);
    const r2 = Float64Array.from(rest);
    const W2 = cstEnergy(0, 0, s, 0, s, 1, E, nu, sq1, r1[1], r1[2], r1[3], r1[4])
      + cstEnergy(0, 0, s, 1, 0, 1, E, nu, sq2, r2[1], r2[2], r2[3], r2[4]);
    expect(W2).toBeCloseTo(2 * hand, 10);
    // Force on node 2 of the (0,0),(s,0),(0,1) triangle: dW/dx2 = c * 2 exx * 2 s
    const g = new Float64Array(6);
    cstGradient(0, 0, s, 0, 0, 1, E, nu, A, b00, b01, b10, b11, g, 0);
    const c = (E * 0.5) / (2 * (1 - nu * nu));
    expect(g[2]).toBeCloseTo(c * 4 * s * (s * s - 1), 10);
    expect(g[2]).toBeGreaterThan(0); // dW/dx > 0: force pulls node 2 back (-x)
    expect(Math.abs(g[0] + g[2] + g[4])).toBeLessThan(1e-12);
    expect(Math.abs(g[1] + g[3] + g[5])).toBeLessThan(1e-12);
  });

  it('gradient and Hessian match central finite differences at random deformed configurations', () => {
    const rnd = mulberry32(303);
    const g = new Float64Array(6);
    const H = new Float64Array(40);
    let done = 0;
    while (done < TRIALS) {
      const xb = Float64Array.from({ length: 6 }, () => rnd() * 2 - 1);
      const A = cstRest(xb[0], xb[1], xb[2], xb[3], xb[4], xb[5], rest);
      if (A < 0.1) continue;
      done++;
      const [, b00, b01, b10, b11] = rest;
      const x = xb.map((v) => v + (rnd() - 0.5) * 0.6);
      const E = 1 + rnd() * 100;
      const nu = rnd() * 0.45;
      const en = (y: Float64Array) => cstEnergy(y[0], y[1], y[2], y[3], y[4], y[5], E, nu, A, b00, b01, b10, b11);
      const gr = (y: Float64Array, out: Float64Array) => cstGradient(y[0], y[1], y[2], y[3], y[4], y[5], E, nu, A, b00, b01, b10, b11, out, 0);
      gr(x, g);
      expect(relErr(g, fdGradient(en, x))).toBeLessThan(TOL);
      cstHessian(x[0], x[1], x[2], x[3], x[4], x[5], E, nu, A, b00, b01, b10, b11, H, 3);
      expect(relErr(H.subarray(3, 39), fdJacobian(gr, 6, x))).toBeLessThan(TOL);
      expect(symmetric(H, 6, 3)).toBeLessThan(1e-13);
      expect(H[2]).toBe(0); // nothing written before the offset
      expect(H[39]).toBe(0); // nor after
    }
  });

  it('Hessian at rest is positive semidefinite with 3 rigid zero modes', () => {
    const A = cstRest(0, 0, 1, 0, 0, 1, rest);
    const H = new Float64Array(36);
    cstHessian(0, 0, 1, 0, 0, 1, 10, 0.3, A, rest[1], rest[2], rest[3], rest[4], H, 0);
    // translations and infinitesimal rotation are null vectors
    const modes = [[1, 0, 1, 0, 1, 0], [0, 1, 0, 1, 0, 1], [0, 0, 0, 1, -1, 0]];
    for (const v of modes) {
      for (let r = 0; r < 6; r++) {
        let s = 0;
        for (let c = 0; c < 6; c++) s += H[r * 6 + c] * v[c];
        expect(Math.abs(s)).toBeLessThan(1e-12);
      }
    }
    const rnd = mulberry32(7);
    for (let t = 0; t < 100; t++) {
      const v = Array.from({ length: 6 }, () => rnd() - 0.5);
      let q = 0;
      for (let r = 0; r < 6; r++) for (let c = 0; c < 6; c++) q += v[r] * H[r * 6 + c] * v[c];
      expect(q).toBeGreaterThanOrEqual(-1e-12);
    }
  });
});
