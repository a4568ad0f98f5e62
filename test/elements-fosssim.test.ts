import { describe, it, expect } from 'vitest';
import {
  fsSpringEnergy, fsSpringGradient, fsSpringHessX, fsSpringHessV,
  fsGravitationEnergy, fsGravitationGradient, fsGravitationHessX,
  fsVortexGradient, fsVortexHessX, fsVortexHessV,
  fsDragGradient, fsDragHessV,
  fsSimpleGravityEnergy, fsSimpleGravityGradient,
  fsConstantForceEnergy, fsConstantForceGradient,
} from '../src/elements/index';
import { mulberry32, fdGradient, fdJacobian, relErr, maxAbs } from './elements-helpers';

const TOL = 1e-6;
const TRIALS = 50;

/** Random pair state [xi, yi, xj, yj] and velocities [vxi, vyi, vxj, vyj], |xj - xi| >= 0.3. */
function randomPair(rnd: () => number): { x: Float64Array; v: Float64Array } {
  for (;;) {
    const x = Float64Array.from({ length: 4 }, () => rnd() * 4 - 2);
    if (Math.hypot(x[2] - x[0], x[3] - x[1]) < 0.3) continue;
    const v = Float64Array.from({ length: 4 }, () => rnd() * 6 - 3);
    return { x, v };
  }
}

describe('FOSSSim springforce (with internal damping)', () => {
  it('gradient = d/dx of 1/2 k (l - l0)^2 plus damping b n (n . dv); HessX/HessV match FD in x and v', () => {
    const rnd = mulberry32(11);
    const g = new Float64Array(4);
    const H = new Float64Array(16);
    for (let t = 0; t < TRIALS; t++) {
      const { x, v } = randomPair(rnd);
      const k = 0.1 + rnd() * 10;
      const l0 = rnd() * 2;
      const b = rnd() * 3;
      const grad = (xx: Float64Array, vv: Float64Array, bb: number, out: Float64Array) =>
        fsSpringGradient(xx[0], xx[1], xx[2], xx[3], vv[0], vv[1], vv[2], vv[3], k, l0, bb, out, 0);
      // elastic part is the gradient of the energy
      grad(x, v, 0, g);
      expect(relErr(g, fdGradient((y) => fsSpringEnergy(y[0], y[1], y[2], y[3], k, l0), x))).toBeLessThan(TOL);
      // damping part: FOSSSim formula g_j = b n (n . (vj - vi)), g_i = -g_j
      grad(x, v, b, g);
      const dx = x[2] - x[0], dy = x[3] - x[1], l = Math.hypot(dx, dy);
      const nx = dx / l, ny = dy / l;
      const s = k * (l - l0) + b * (nx * (v[2] - v[0]) + ny * (v[3] - v[1]));
      expect(relErr(g, [-s * nx, -s * ny, s * nx, s * ny])).toBeLessThan(1e-13);
      // HessX including the exact x-derivative of the damping term
      fsSpringHessX(x[0], x[1], x[2], x[3], v[0], v[1], v[2], v[3], k, l0, b, H, 0);
      expect(relErr(H, fdJacobian((y, out) => grad(y, v, b, out), 4, x))).toBeLessThan(TOL);
      // HessV
      fsSpringHessV(x[0], x[1], x[2], x[3], b, H, 0);
      expect(relErr(H, fdJacobian((w, out) => grad(x, w, b, out), 4, v))).toBeLessThan(TOL);
    }
  });

  it('HessX reduces to FOSSSim elastic Hessian when b = 0 (k[nn^T + (l-l0)/l (I - nn^T)])', () => {
    const H = new Float64Array(16);
    fsSpringHessX(0, 0, 2, 0, 0, 0, 0, 0, 3, 1, 0, H, 0);
    expect(Array.from(H.subarray(0, 2))).toEqual([3, 0]);
    expect(H[5]).toBeCloseTo(1.5, 15); // k (l - l0)/l = 3 * 1/2
    expect(H[10]).toBe(3);
    expect(H[2]).toBe(-3);
  });
});

describe('FOSSSim gravitationalforce', () => {
  it('E = -G mi mj / r, gradient and HessX match FD', () => {
    const rnd = mulberry32(22);
    const g = new Float64Array(4);
    const H = new Float64Array(16);
    for (let t = 0; t < TRIALS; t++) {
      const { x } = randomPair(rnd);
      const G = 0.1 + rnd() * 10, mi = 0.1 + rnd() * 5, mj = 0.1 + rnd() * 5;
      const gr = (y: Float64Array, out: Float64Array) => fsGravitationGradient(y[0], y[1], y[2], y[3], G, mi, mj, out, 0);
      gr(x, g);
      expect(relErr(g, fdGradient((y) => fsGravitationEnergy(y[0], y[1], y[2], y[3], G, mi, mj), x))).toBeLessThan(TOL);
      fsGravitationHessX(x[0], x[1], x[2], x[3], G, mi, mj, H, 0);
      expect(relErr(H, fdJacobian(gr, 4, x))).toBeLessThan(TOL);
    }
    expect(fsGravitationEnergy(0, 0, 0, 2, 3, 2, 5)).toBe(-15);
    fsGravitationGradient(0, 0, 0, 2, 3, 2, 5, g, 0);
    // attraction: force on j points toward i (-y), so gradU_j = +G mi mj / r^2 in +y
    expect(Array.from(g)).toEqual([-0, -7.5, 0, 7.5]);
  });
});

describe('FOSSSim vortexforce', () => {
  it('gradient matches FOSSSim formula (kvc/r^2 (kbs rot90(n) - dv) on i, negated on j)', () => {
    const g = new Float64Array(4);
    // i at origin, j at (2, 0), both at rest: n = (1, 0), rot90(n) = (0, 1)
    fsVortexGradient(0, 0, 2, 0, 0, 0, 0, 0, 3, 5, g, 0);
    expect(Array.from(g)).toEqual([-0, 3.75, 0, -3.75]); // force on j = (0, +3.75): counter-clockwise swirl
    // velocity term: dv = vj - vi = (1, 2)
    fsVortexGradient(0, 0, 2, 0, 0, 0, 1, 2, 3, 5, g, 0);
    expect(g[0]).toBeCloseTo((5 / 4) * (0 - 1), 15);
    expect(g[1]).toBeCloseTo((5 / 4) * (3 - 2), 15);
    expect(g[2]).toBeCloseTo(-g[0], 15);
    expect(g[3]).toBeCloseTo(-g[1], 15);
  });

  it('HessX and HessV match FD of the gradient in x and in v', () => {
    const rnd = mulberry32(33);
    const H = new Float64Array(16);
    for (let t = 0; t < TRIALS; t++) {
      const { x, v } = randomPair(rnd);
      const kbs = rnd() * 10 - 5, kvc = 0.1 + rnd() * 5;
      const grad = (xx: Float64Array, vv: Float64Array, out: Float64Array) =>
        fsVortexGradient(xx[0], xx[1], xx[2], xx[3], vv[0], vv[1], vv[2], vv[3], kbs, kvc, out, 0);
      fsVortexHessX(x[0], x[1], x[2], x[3], v[0], v[1], v[2], v[3], kbs, kvc, H, 0);
      expect(relErr(H, fdJacobian((y, out) => grad(y, v, out), 4, x))).toBeLessThan(TOL);
      fsVortexHessV(x[0], x[1], x[2], x[3], kvc, H, 0);
      expect(relErr(H, fdJacobian((w, out) => grad(x, w, out), 4, v))).toBeLessThan(TOL);
    }
  });
});

describe('FOSSSim per-particle forces', () => {
  it('dragdamping: gradient b v, HessV = b I (FD in v)', () => {
    const g = new Float64Array(2);
    const H = new Float64Array(4);
    fsDragGradient(2, -3, 0.5, g, 0);
    expect(Array.from(g)).toEqual([1, -1.5]);
    fsDragHessV(0.5, H, 0);
    const v = Float64Array.from([0.3, -0.7]);
    expect(relErr(H, fdJacobian((w, out) => fsDragGradient(w[0], w[1], 0.5, out, 0), 2, v))).toBeLessThan(TOL);
  });

  it('simplegravity: E = -m g . x, gradient -m g = dE/dx', () => {
    const g = new Float64Array(2);
    fsSimpleGravityGradient(2, 0, -9.81, g, 0);
    expect(Array.from(g)).toEqual([-0, 19.62]);
    const x = Float64Array.from([1.5, 2.5]);
    expect(relErr(g, fdGradient((y) => fsSimpleGravityEnergy(y[0], y[1], 2, 0, -9.81), x))).toBeLessThan(TOL);
    expect(fsSimpleGravityEnergy(0, 10, 2, 0, -9.81)).toBeCloseTo(196.2, 12);
  });

  it('constantforce: E = -f . x, gradient -f (mass independent)', () => {
    const g = new Float64Array(2);
    fsConstantForceGradient(3, -4, g, 0);
    expect(Array.from(g)).toEqual([-3, 4]);
    const x = Float64Array.from([0.2, -0.9]);
    expect(relErr(g, fdGradient((y) => fsConstantForceEnergy(y[0], y[1], 3, -4), x))).toBeLessThan(TOL);
    expect(maxAbs(g)).toBe(4);
  });
});
