/**
 * Hyperelastic triangle materials: FD checks of gradients and Hessians, analytic PSD projection,
 * rest/rotation/translation invariance, small-strain agreement, inversion safety.
 */
import { describe, expect, it } from 'vitest';
import {
  cstRest, MAT_FOSSSIM, MAT_STVK, MAT_NEOHOOKEAN, MAT_COROTATIONAL, NH_J_MIN, EIG,
  triangleEnergy, triangleGradient, triangleHessian, triangleProjectedHessian, triangleJ,
} from '../src/elements';
import { NH_SIZE_K, STVK_SIGMA_MIN, lameMu, lameLambda, triangleSingularValues } from '../src/elements/materials';
import { fdGradient, fdJacobian, mulberry32, relErr } from './elements-helpers';

const PHYS = [MAT_STVK, MAT_NEOHOOKEAN, MAT_COROTATIONAL] as const;
const ALL = [MAT_FOSSSIM, ...PHYS] as const;
const NAME = ['fosssim', 'stvk', 'neohookean', 'corotational'];
const E = 1000, NU = 0.3;

interface Tri { rest: Float64Array; area: number; b: [number, number, number, number] }

function randomTri(rnd: () => number): Tri {
  for (;;) {
    const rest = Float64Array.from({ length: 6 }, () => 2 * rnd() - 1);
    const out = new Float64Array(5);
    const area = cstRest(rest[0]!, rest[1]!, rest[2]!, rest[3]!, rest[4]!, rest[5]!, out);
    // CCW, reasonably shaped
    const det = (rest[2]! - rest[0]!) * (rest[5]! - rest[1]!) - (rest[4]! - rest[0]!) * (rest[3]! - rest[1]!);
    if (det > 0.3) return { rest, area, b: [out[1]!, out[2]!, out[3]!, out[4]!] };
  }
}

function deform(t: Tri, rnd: () => number, amount: number): Float64Array {
  // x = A · X + c + noise, with A near a random rotation-scale
  const th = 2 * Math.PI * rnd();
  const c = Math.cos(th), s = Math.sin(th);
  const x = new Float64Array(6);
  for (let n = 0; n < 3; n++) {
    const X = t.rest[2 * n]!, Y = t.rest[2 * n + 1]!;
    x[2 * n] = c * X - s * Y + 0.3 + amount * (2 * rnd() - 1);
    x[2 * n + 1] = s * X + c * Y - 0.2 + amount * (2 * rnd() - 1);
  }
  return x;
}

const W = (m: number, t: Tri) => (x: Float64Array) =>
  triangleEnergy(m, x[0]!, x[1]!, x[2]!, x[3]!, x[4]!, x[5]!, E, NU, t.area, ...t.b);
const G = (m: number, t: Tri) => (x: Float64Array, out: Float64Array) =>
  triangleGradient(m, x[0]!, x[1]!, x[2]!, x[3]!, x[4]!, x[5]!, E, NU, t.area, ...t.b, out, 0);
const H = (m: number, t: Tri, x: Float64Array) => {
  const out = new Float64Array(36);
  triangleHessian(m, x[0]!, x[1]!, x[2]!, x[3]!, x[4]!, x[5]!, E, NU, t.area, ...t.b, out, 0);
  return out;
};
const HP = (m: number, t: Tri, x: Float64Array) => {
  const out = new Float64Array(36);
  triangleProjectedHessian(m, x[0]!, x[1]!, x[2]!, x[3]!, x[4]!, x[5]!, E, NU, t.area, ...t.b, out, 0);
  return out;
};
const J = (t: Tri, x: Float64Array) => triangleJ(x[0]!, x[1]!, x[2]!, x[3]!, x[4]!, x[5]!, ...t.b);
const SIGV = new Float64Array(2);
/** Signed singular values (s0 ≥ |s1|, s1 < 0 iff inverted). */
const SIG = (t: Tri, x: Float64Array): [number, number] => {
  triangleSingularValues(x[0]!, x[1]!, x[2]!, x[3]!, x[4]!, x[5]!, ...t.b, SIGV, 0);
  return [SIGV[0]!, SIGV[1]!];
};
/**
 * StVK is C¹ (not C²) where a signed singular value crosses σ*, and not differentiable at
 * s0 + s1 = 0 (the reflection convention switches); FD checks keep off both.
 */
const stvkKink = (t: Tri, x: Float64Array) => {
  const [s0, s1] = SIG(t, x);
  return Math.abs(s0 - STVK_SIGMA_MIN) < 0.01 || Math.abs(s1 - STVK_SIGMA_MIN) < 0.01 || s0 + s1 < 0.05;
};
/** Independent reference: ψ = μ/4 Σ g(sᵢ)² + λ/8 (Σ g(sᵢ))², g(σ) = σ² − 1 above σ*, linear below. */
const stvkRef = (s0: number, s1: number, mu: number, lam: number) => {
  const e = STVK_SIGMA_MIN;
  const g = (s: number) => (s >= e ? s * s - 1 : e * e - 1 + 2 * e * (s - e));
  const g0 = g(s0), g1 = g(s1);
  return (mu / 4) * (g0 * g0 + g1 * g1) + (lam / 8) * (g0 + g1) ** 2;
};

/** Smallest eigenvalue of a symmetric 6×6 by Jacobi rotations (test-only). */
function minEig(A: Float64Array): number {
  const n = 6;
  const a = Float64Array.from(A);
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p * n + q]! ** 2;
    if (off < 1e-30) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q]!;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = (a[q * n + q]! - a[p * n + p]!) / (2 * apq);
        const tt = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(tt * tt + 1), s = tt * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p]!, akq = a[k * n + q]!;
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k]!, aqk = a[q * n + k]!;
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
      }
    }
  }
  let m = Infinity;
  for (let i = 0; i < n; i++) m = Math.min(m, a[i * n + i]!);
  return m;
}
const norm = (a: Float64Array) => Math.sqrt(a.reduce((s, v) => s + v * v, 0));

describe('hyperelastic triangle kernels', () => {
  for (const m of ALL) {
    it(`${NAME[m]}: gradient and Hessian match central differences at random deformed configs`, () => {
      const rnd = mulberry32(100 + m);
      let worstG = 0, worstH = 0, checked = 0;
      for (let trial = 0; trial < 40; trial++) {
        const t = randomTri(rnd);
        const x = deform(t, rnd, 0.35);
        const j = J(t, x);
        // away from singular configs (NH guard kink at J = NH_J_MIN is C² but not C³; keep off it)
        if (Math.abs(j) < 0.05 || Math.abs(j - NH_J_MIN) < 0.02) continue;
        if (m === MAT_STVK && stvkKink(t, x)) continue;
        checked++;
        const g = new Float64Array(6);
        G(m, t)(x, g);
        const gfd = fdGradient(W(m, t), x, 1e-6);
        worstG = Math.max(worstG, relErr(g, gfd));
        const hfd = fdJacobian(G(m, t), 6, x, 1e-6);
        worstH = Math.max(worstH, relErr(H(m, t, x), hfd));
      }
      expect(checked).toBeGreaterThan(25);
      expect(worstG).toBeLessThan(1e-6);
      expect(worstH).toBeLessThan(1e-6);
    });
  }

  for (const m of PHYS) {
    it(`${NAME[m]}: FD checks hold for inverted triangles (J < 0) too`, () => {
      const rnd = mulberry32(200 + m);
      let checked = 0;
      for (let trial = 0; trial < 60 && checked < 15; trial++) {
        const t = randomTri(rnd);
        const x = deform(t, rnd, 0.1);
        // reflect vertex 3 through the line of vertices 1,2 to invert
        const ex = x[2]! - x[0]!, ey = x[3]! - x[1]!, px = x[4]! - x[0]!, py = x[5]! - x[1]!;
        const l2 = ex * ex + ey * ey, d = (px * ex + py * ey) / l2;
        x[4] = x[0]! + 2 * d * ex - px;
        x[5] = x[1]! + 2 * d * ey - py;
        const j = J(t, x);
        if (!(j < -0.05)) continue;
        // corotational and stvk are singular where f00 + f11 = f10 − f01 = 0 (r = s0 + s1 = 0); skip near it
        if (m === MAT_STVK && stvkKink(t, x)) continue;
        checked++;
        const g = new Float64Array(6);
        G(m, t)(x, g);
        expect(relErr(g, fdGradient(W(m, t), x, 1e-6))).toBeLessThan(1e-6);
        expect(relErr(H(m, t, x), fdJacobian(G(m, t), 6, x, 1e-6))).toBeLessThan(1e-6);
      }
      expect(checked).toBeGreaterThan(5);
    });
  }

  for (const m of ALL) {
    it(`${NAME[m]}: zero energy and force at rest, invariant under rotation and translation`, () => {
      const rnd = mulberry32(300 + m);
      for (let trial = 0; trial < 10; trial++) {
        const t = randomTri(rnd);
        const g = new Float64Array(6);
        G(m, t)(t.rest, g);
        expect(Math.abs(W(m, t)(t.rest))).toBeLessThan(1e-9);
        expect(norm(g)).toBeLessThan(1e-9 * E);
        // rigid motion of the rest shape: still zero force
        const th = 2 * Math.PI * rnd(), c = Math.cos(th), s = Math.sin(th);
        const moved = new Float64Array(6);
        for (let n = 0; n < 3; n++) {
          moved[2 * n] = c * t.rest[2 * n]! - s * t.rest[2 * n + 1]! + 5;
          moved[2 * n + 1] = s * t.rest[2 * n]! + c * t.rest[2 * n + 1]! - 3;
        }
        G(m, t)(moved, g);
        expect(norm(g)).toBeLessThan(1e-9 * E);
        // a deformed config: energy invariant, forces rotate with it
        const x = deform(t, rnd, 0.2);
        const y = new Float64Array(6);
        for (let n = 0; n < 3; n++) {
          y[2 * n] = c * x[2 * n]! - s * x[2 * n + 1]! + 1.5;
          y[2 * n + 1] = s * x[2 * n]! + c * x[2 * n + 1]! + 0.7;
        }
        const gx = new Float64Array(6), gy = new Float64Array(6), gxr = new Float64Array(6);
        G(m, t)(x, gx);
        G(m, t)(y, gy);
        for (let n = 0; n < 3; n++) {
          gxr[2 * n] = c * gx[2 * n]! - s * gx[2 * n + 1]!;
          gxr[2 * n + 1] = s * gx[2 * n]! + c * gx[2 * n + 1]!;
        }
        const wx = W(m, t)(x);
        expect(Math.abs(W(m, t)(y) - wx)).toBeLessThan(1e-10 * Math.max(1, Math.abs(wx)));
        expect(relErr(gy, gxr)).toBeLessThan(1e-10);
        // net force and net torque vanish
        let fx = 0, fy = 0, tq = 0;
        for (let n = 0; n < 3; n++) {
          fx += gx[2 * n]!;
          fy += gx[2 * n + 1]!;
          tq += x[2 * n]! * gx[2 * n + 1]! - x[2 * n + 1]! * gx[2 * n]!;
        }
        expect(Math.abs(fx) + Math.abs(fy) + Math.abs(tq)).toBeLessThan(1e-9 * Math.max(1, norm(gx)));
      }
    });
  }

  it('the three physical materials give the same forces within 1% at a strain of 1e-4 (fosssim: 4x)', () => {
    const rnd = mulberry32(400);
    for (let trial = 0; trial < 20; trial++) {
      const t = randomTri(rnd);
      // small strain: x = (I + e) X with |e| = 1e-4, then a rotation
      const e00 = 1e-4 * (2 * rnd() - 1), e11 = 1e-4 * (2 * rnd() - 1), e01 = 1e-4 * (2 * rnd() - 1);
      const th = 2 * Math.PI * rnd(), c = Math.cos(th), s = Math.sin(th);
      const x = new Float64Array(6);
      for (let n = 0; n < 3; n++) {
        const X = t.rest[2 * n]!, Y = t.rest[2 * n + 1]!;
        const ux = X + e00 * X + e01 * Y, uy = Y + e01 * X + e11 * Y;
        x[2 * n] = c * ux - s * uy;
        x[2 * n + 1] = s * ux + c * uy;
      }
      const ref = new Float64Array(6);
      G(MAT_STVK, t)(x, ref);
      for (const m of [MAT_NEOHOOKEAN, MAT_COROTATIONAL]) {
        const g = new Float64Array(6);
        G(m, t)(x, g);
        expect(relErr(g, ref)).toBeLessThan(0.01);
      }
      const gf = new Float64Array(6);
      G(MAT_FOSSSIM, t)(x, gf);
      expect(relErr(gf.map((v) => v / 4), ref)).toBeLessThan(0.01);
    }
  });

  it('FOSSSim CST energy equals StVK with Young modulus 4E wherever both signed singular values are >= sigma*', () => {
    const rnd = mulberry32(450);
    let same = 0, differ = 0;
    for (let trial = 0; trial < 200; trial++) {
      const t = randomTri(rnd);
      const x = deform(t, rnd, trial % 2 === 0 ? 0.3 : 0.8);
      const a = triangleEnergy(MAT_FOSSSIM, x[0]!, x[1]!, x[2]!, x[3]!, x[4]!, x[5]!, E, NU, t.area, ...t.b);
      const b = triangleEnergy(MAT_STVK, x[0]!, x[1]!, x[2]!, x[3]!, x[4]!, x[5]!, 4 * E, NU, t.area, ...t.b);
      const [s0, s1] = SIG(t, x);
      // the inversion-safe StVK energy is the σ-formula everywhere (independent reference)
      const ref = t.area * stvkRef(s0, s1, lameMu(4 * E, NU), lameLambda(4 * E, NU));
      expect(Math.abs(b - ref)).toBeLessThan(1e-9 * Math.max(1, Math.abs(ref)));
      if (s1 >= STVK_SIGMA_MIN) {
        same++;
        expect(Math.abs(a - b)).toBeLessThan(1e-9 * Math.max(1, Math.abs(b)));
      } else if (s1 < STVK_SIGMA_MIN - 0.05) {
        differ++;
        expect(Math.abs(a - b)).toBeGreaterThan(1e-6 * Math.max(1, Math.abs(b)));
      }
    }
    expect(same).toBeGreaterThan(20);
    expect(differ).toBeGreaterThan(20);
  });

  it('stvk: FD checks in every regime of the signed singular values (both >= sigma*, mixed, both below, inverted)', () => {
    const rnd = mulberry32(460);
    const seen = { above: 0, mixed: 0, below: 0, inverted: 0 };
    for (let trial = 0; trial < 400; trial++) {
      const t = randomTri(rnd);
      // random F = R(θ) diag(a, b) R(φ) applied to the rest shape
      const a = 0.05 + 1.5 * rnd(), b = (2 * rnd() - 1) * a;
      const th = 2 * Math.PI * rnd(), ph = 2 * Math.PI * rnd();
      const c1 = Math.cos(th), s1_ = Math.sin(th), c2 = Math.cos(ph), s2 = Math.sin(ph);
      // F = R1 diag(a, b) R2
      const f00 = c1 * a * c2 - s1_ * b * s2, f01 = -c1 * a * s2 - s1_ * b * c2;
      const f10 = s1_ * a * c2 + c1 * b * s2, f11 = -s1_ * a * s2 + c1 * b * c2;
      const x = new Float64Array(6);
      for (let n = 0; n < 3; n++) {
        const X = t.rest[2 * n]!, Y = t.rest[2 * n + 1]!;
        x[2 * n] = f00 * X + f01 * Y + 0.4;
        x[2 * n + 1] = f10 * X + f11 * Y - 0.1;
      }
      if (stvkKink(t, x)) continue;
      const [s0, s1] = SIG(t, x);
      expect(Math.abs(s0 - a)).toBeLessThan(1e-9);
      expect(Math.abs(s1 - b)).toBeLessThan(1e-9);
      if (s1 < 0) seen.inverted++;
      else if (s1 >= STVK_SIGMA_MIN) seen.above++;
      else if (s0 >= STVK_SIGMA_MIN) seen.mixed++;
      else seen.below++;
      const g = new Float64Array(6);
      G(MAT_STVK, t)(x, g);
      expect(relErr(g, fdGradient(W(MAT_STVK, t), x, 1e-6))).toBeLessThan(1e-6);
      expect(relErr(H(MAT_STVK, t, x), fdJacobian(G(MAT_STVK, t), 6, x, 1e-6))).toBeLessThan(1e-6);
      // the projection is PSD in every regime
      const hp = HP(MAT_STVK, t, x);
      expect(minEig(hp)).toBeGreaterThan(-1e-10 * norm(hp));
    }
    for (const v of Object.values(seen)) expect(v).toBeGreaterThan(10);
  });

  it('stvk: C1 at sigma*, and the uniaxial force is strictly monotone from -0.95 to 1.5 (no collapse, inverted pushes back)', () => {
    const out = new Float64Array(5);
    const area = cstRest(0, 0, 1, 0, 0, 1, out);
    const t: Tri = { rest: new Float64Array([0, 0, 1, 0, 0, 1]), area, b: [out[1]!, out[2]!, out[3]!, out[4]!] };
    // F = diag(1, y): the y-force on vertex 3 is dW/dy
    const fy = (m: number, y: number) => {
      const g = new Float64Array(6);
      G(m, t)(new Float64Array([0, 0, 1, 0, 0, y]), g);
      return g[5]!;
    };
    const e = STVK_SIGMA_MIN;
    // across σ* the energy changes by 2δ·force (no jump) and the force is continuous (C¹)
    const d = 1e-7, dW = W(MAT_STVK, t)(new Float64Array([0, 0, 1, 0, 0, e + d])) - W(MAT_STVK, t)(new Float64Array([0, 0, 1, 0, 0, e - d]));
    expect(Math.abs(dW - 2 * d * fy(MAT_STVK, e))).toBeLessThan(1e-4 * Math.abs(2 * d * fy(MAT_STVK, e)));
    expect(Math.abs(fy(MAT_STVK, e + 1e-9) - fy(MAT_STVK, e - 1e-9))).toBeLessThan(1e-6 * Math.abs(fy(MAT_STVK, e)));
    let prev = -Infinity;
    for (let k = 0; k <= 245; k++) {
      const y = -0.95 + 0.01 * k;
      const f = fy(MAT_STVK, y);
      expect(f).toBeGreaterThan(prev);
      if (y < 1 - 1e-9) expect(f).toBeLessThan(0); // pushes towards y = 1
      prev = f;
      // exactly StVK (FOSSSim with E/4) above σ*
      if (y >= e) expect(Math.abs(f - fy(MAT_FOSSSIM, y) / 4)).toBeLessThan(1e-9 * E);
    }
    // plain StVK (FOSSSim's CST) has no restoring force at y = 0 and pushes an inverted triangle further
    expect(Math.abs(fy(MAT_FOSSSIM, 0))).toBeLessThan(1e-12);
    expect(fy(MAT_FOSSSIM, -0.5)).toBeGreaterThan(0);
    expect(fy(MAT_STVK, -0.5)).toBeLessThan(-0.5 * lameMu(E, NU));
    // the mirrored rest shape is a rest state of plain StVK but not of the inversion-safe one
    const mirrored = new Float64Array([0, 0, 1, 0, 0, -1]);
    const gf = new Float64Array(6), gs = new Float64Array(6);
    G(MAT_FOSSSIM, t)(mirrored, gf);
    G(MAT_STVK, t)(mirrored, gs);
    expect(norm(gf)).toBeLessThan(1e-9 * E);
    expect(norm(gs)).toBeGreaterThan(0.1 * E * area);
  });

  for (const m of ALL) {
    it(`${NAME[m]}: projected Hessian is PSD, and equals the exact Hessian where that is PSD`, () => {
      const rnd = mulberry32(500 + m);
      let psdCases = 0, indefCases = 0;
      for (let trial = 0; trial < 200; trial++) {
        const t = randomTri(rnd);
        const x = deform(t, rnd, trial % 2 === 0 ? 0.15 : 0.6);
        const j = J(t, x);
        if (m === MAT_COROTATIONAL && Math.abs(j) < 1e-3) continue;
        const hp = HP(m, t, x);
        const h = H(m, t, x);
        const scale = norm(h) + norm(hp);
        for (let r = 0; r < 6; r++) for (let c = 0; c < r; c++) expect(Math.abs(hp[r * 6 + c]! - hp[c * 6 + r]!)).toBeLessThan(1e-12 * scale);
        expect(minEig(hp)).toBeGreaterThan(-1e-10 * scale);
        const exactMin = minEig(h);
        if (exactMin > 1e-8 * scale || (EIG[0]! >= 0 && EIG[1]! >= 0 && EIG[2]! >= 0 && EIG[3]! >= 0)) {
          psdCases++;
          expect(relErr(hp, h)).toBeLessThan(1e-9);
        } else {
          indefCases++;
          expect(relErr(hp, h)).toBeGreaterThan(1e-9);
        }
      }
      expect(psdCases).toBeGreaterThan(10);
      expect(indefCases).toBeGreaterThan(5);
    });
  }

  for (const m of PHYS) {
    it(`${NAME[m]}: inverted and degenerate triangles give finite energy, forces and Hessians that push back`, () => {
      const rest = new Float64Array([0, 0, 1, 0, 0, 1]);
      const out = new Float64Array(5);
      const area = cstRest(0, 0, 1, 0, 0, 1, out);
      const t: Tri = { rest, area, b: [out[1]!, out[2]!, out[3]!, out[4]!] };
      // vertex 3 moved through the opposite edge: y = 1 → 0 (flat) → −0.5 (inverted) → −3
      for (const y3 of [0.2, 0.05, 0, -0.05, -0.5, -3]) {
        const x = new Float64Array([0, 0, 1, 0, 0, y3]);
        const w = W(m, t)(x);
        const g = new Float64Array(6);
        G(m, t)(x, g);
        const h = H(m, t, x), hp = HP(m, t, x);
        expect(Number.isFinite(w)).toBe(true);
        for (const v of [...g, ...h, ...hp]) expect(Number.isFinite(v)).toBe(true);
        // force on vertex 3 is −g: it must point up (+y), restoring positive area
        expect(-g[5]!).toBeGreaterThan(0);
      }
      // fully collapsed to a point: still finite
      const x0 = new Float64Array(6);
      const g0 = new Float64Array(6);
      G(m, t)(x0, g0);
      expect(Number.isFinite(W(m, t)(x0))).toBe(true);
      for (const v of [...g0, ...H(m, t, x0), ...HP(m, t, x0)]) expect(Number.isFinite(v)).toBe(true);
    });
  }
});

describe('array-offset triangle kernels (assembly loops)', () => {
  it('triangleEnergyAt / GradientAt / ProjectedHessianAt equal the scalar kernels bit for bit (every material, deformed, inverted, degenerate)', async () => {
    const M = await import('../src/elements/materials');
    const rnd = mulberry32(20240611);
    let checked = 0;
    for (let trial = 0; trial < 400; trial++) {
      const mat = trial % 4;
      // rest triangle, then a deformation: mild, large, inverted (mirror) or degenerate (collinear)
      const X = [0, 0, 1 + rnd(), 0.2 * rnd(), 0.3 * rnd(), 1 + rnd()];
      const regime = (trial >> 2) % 4;
      const x = X.map((v) => v * (regime === 1 ? 0.4 + 1.5 * rnd() : 1) + (regime === 0 ? 0.05 : 0.3) * (rnd() - 0.5));
      if (regime === 2) { x[0] = -x[0]!; x[2] = -x[2]!; x[4] = -x[4]!; }
      if (regime === 3) { x[4] = 0.5 * (x[0]! + x[2]!); x[5] = 0.5 * (x[1]! + x[3]!); }
      // B = Dbar⁻¹ (row-major), area = |det Dbar| / 2
      const d00 = X[2]! - X[0]!, d10 = X[3]! - X[1]!, d01 = X[4]! - X[0]!, d11 = X[5]! - X[1]!;
      const det = d00 * d11 - d01 * d10;
      const b00 = d11 / det, b01 = -d01 / det, b10 = -d10 / det, b11 = d00 / det;
      const E = 1e3 + 1e5 * rnd(), nu = 0.45 * rnd(), area = 0.5 * Math.abs(det);
      // positions at nodes 3, 0, 5 of a larger array (offsets 6, 0, 10); params at p = 8
      const xa = new Float64Array(14);
      xa.set([x[2]!, x[3]!], 0);
      xa.set([x[0]!, x[1]!], 6);
      xa.set([x[4]!, x[5]!], 10);
      const q = new Float64Array(24);
      q.set([E, nu, area, b00, b01, b10, b11, mat], 8);
      const args = [mat, x[0]!, x[1]!, x[2]!, x[3]!, x[4]!, x[5]!, E, nu, area, b00, b01, b10, b11] as const;
      const e1 = M.triangleEnergy(...args);
      const out = new Float64Array(40);
      M.triangleEnergyAt(xa, 6, 0, 10, q, 8, out, 3);
      expect(Object.is(out[3], e1), `energy mat ${mat} regime ${regime}`).toBe(true);
      const g1 = new Float64Array(8), g2 = new Float64Array(8);
      M.triangleGradient(...args, g1, 1);
      M.triangleGradientAt(xa, 6, 0, 10, q, 8, g2, 1);
      for (let i = 0; i < 8; i++) expect(Object.is(g1[i], g2[i]), `gradient ${i} mat ${mat} regime ${regime}`).toBe(true);
      const h1 = new Float64Array(40), h2 = new Float64Array(40);
      M.triangleProjectedHessian(...args, h1, 2);
      M.triangleProjectedHessianAt(xa, 6, 0, 10, q, 8, h2, 2);
      for (let i = 0; i < 40; i++) expect(Object.is(h1[i], h2[i]), `hessian ${i} mat ${mat} regime ${regime}`).toBe(true);
      expect(Number.isFinite(e1)).toBe(true);
      checked++;
    }
    expect(checked).toBe(400);
  });
});

/** x with vertex 3 moved to its foot on the line of vertices 1, 2 plus f times its offset (f < 0: through it). */
function throughEdge(x: Float64Array, f: number): Float64Array {
  const y = x.slice();
  const ex = y[2]! - y[0]!, ey = y[3]! - y[1]!, px = y[4]! - y[0]!, py = y[5]! - y[1]!;
  const d = (px * ex + py * ey) / (ex * ex + ey * ey);
  y[4] = y[0]! + d * ex + f * (px - d * ex);
  y[5] = y[1]! + d * ey + f * (py - d * ey);
  return y;
}

/** The Neo-Hookean gradient and Hessian at y match central differences. */
function expectNeoHookeanFd(t: Tri, y: Float64Array): void {
  const g = new Float64Array(6);
  G(MAT_NEOHOOKEAN, t)(y, g);
  expect(relErr(g, fdGradient(W(MAT_NEOHOOKEAN, t), y, 1e-7))).toBeLessThan(1e-6);
  expect(relErr(H(MAT_NEOHOOKEAN, t, y), fdJacobian(G(MAT_NEOHOOKEAN, t), 6, y, 1e-7))).toBeLessThan(1e-6);
}

describe('neohookean below NH_J_MIN (issue 16: soft jellies collapsed and exploded)', () => {
  it('the energy is never below the rest energy: shrunk to a point, flattened, inverted (the old extension went to −2C + D < 0)', () => {
    const rnd = mulberry32(900);
    for (const nu of [0, 0.3, 0.45]) {
      for (let trial = 0; trial < 20; trial++) {
        const t = randomTri(rnd);
        const x = deform(t, rnd, 0.3);
        for (const s of [0, 1e-3, 0.05, 0.2, 0.3]) {
          const shrunk = x.map((v) => s * v);
          const w = triangleEnergy(MAT_NEOHOOKEAN, shrunk[0]!, shrunk[1]!, shrunk[2]!, shrunk[3]!, shrunk[4]!, shrunk[5]!, E, nu, t.area, ...t.b);
          expect(w).toBeGreaterThanOrEqual(0);
        }
        // flattened onto the line of vertices 1, 2 and pushed through it
        for (const f of [0, -0.5, -1]) {
          const y = throughEdge(x, f);
          const w = triangleEnergy(MAT_NEOHOOKEAN, y[0]!, y[1]!, y[2]!, y[3]!, y[4]!, y[5]!, E, nu, t.area, ...t.b);
          expect(w).toBeGreaterThan(0);
        }
      }
    }
  });

  it('gradient and Hessian match central differences for 0 < J < NH_J_MIN, off the kink at NH_J_MIN', () => {
    const rnd = mulberry32(901);
    let checked = 0;
    for (let trial = 0; trial < 60 && checked < 20; trial++) {
      const t = randomTri(rnd);
      const x = deform(t, rnd, 0.2);
      const j0 = J(t, x);
      if (!(j0 > 0.2)) continue;
      const target = 0.01 + 0.07 * rnd(); // J scales with s²
      const s = Math.sqrt(target / j0);
      checked++;
      expectNeoHookeanFd(t, x.map((v) => s * v));
    }
    expect(checked).toBe(20);
  });

  it('gradient and Hessian match central differences for inverted triangles (J < 0)', () => {
    const rnd = mulberry32(902);
    let checked = 0;
    for (let trial = 0; trial < 200 && checked < 30; trial++) {
      const t = randomTri(rnd);
      const x = deform(t, rnd, 0.2);
      const y = throughEdge(x, -0.2 - 1.5 * rnd()); // vertex 3 through the line of 1, 2: J < 0
      if (!(J(t, y) < -0.02)) continue;
      checked++;
      expectNeoHookeanFd(t, y);
    }
    expect(checked).toBe(30);
  });

  it('a triangle squeezed flat keeps its length: its energy is least near s0 = 1, not at a point (crushed jellies contracted)', () => {
    // F = diag(s0, s1) on the unit right triangle, s1 fixed small or negative (squeezed flat, or through flat), s0 scanned
    const t = { rest: Float64Array.of(0, 0, 1, 0, 0, 1), area: 0.5, b: [1, 0, 0, 1] as [number, number, number, number] };
    for (const nu of [0, 0.3, 0.45]) {
      for (const s1 of [0.05, 0.01, 0, -0.01, -0.05]) {
        let best = Infinity, at = NaN;
        for (let i = 1; i <= 300; i++) {
          const s0 = Math.max(Math.abs(s1), 1e-4) + (i / 300) * 2;
          const w = triangleEnergy(MAT_NEOHOOKEAN, 0, 0, s0, 0, 0, s1, E, nu, t.area, ...t.b);
          if (w < best) { best = w; at = s0; }
        }
        // before the size term: the least energy at the smallest s0 scanned (a squeezed triangle contracted)
        expect(at, `nu ${nu}, s1 ${s1}`).toBeGreaterThan(0.8);
        expect(at, `nu ${nu}, s1 ${s1}`).toBeLessThan(1.5);
      }
    }
    // the size term is zero with its slope at NH_J_MIN (C¹), and zero at a reflection of the rest shape (|F| = √2)
    const at = (s1: number) => triangleEnergy(MAT_NEOHOOKEAN, 0, 0, 1, 0, 0, s1, E, NU, t.area, ...t.b);
    const h = 1e-6, e = NH_J_MIN;
    const left = (at(e) - at(e - h)) / h, right = (at(e + h) - at(e)) / h;
    expect(Math.abs(left - right)).toBeLessThan(1e-4 * Math.abs(right));
    const mirrored = triangleEnergy(MAT_NEOHOOKEAN, 0, 0, -1, 0, 0, 1, E, NU, t.area, ...t.b);
    const C = lameMu(E, NU) / 2, D = (lameMu(E, NU) + lameLambda(E, NU)) / 2;
    // ψ(reflection) = C g(−1)(s0 − s1)² + D(J − 1)² = C g(−1) 4 + 4D, g(−1) = 1/e + A u/(1 + B u), u = e + 1
    const u = e + 1, g = 1 / e + (u / (e * e)) / (1 + u / e);
    expect(mirrored / t.area).toBeCloseTo(4 * C * g + 4 * D, 6);
  });

  it('an inverted triangle stores energy of the order of μ|F|², not |F|⁶ (scrambled jellies exploded, issue 16)', () => {
    // the unit right triangle mirrored (J = −1) and mirrored and stretched k times (J = −k²)
    const t = { rest: Float64Array.of(0, 0, 1, 0, 0, 1), area: 0.5, b: [1, 0, 0, 1] as [number, number, number, number] };
    const mu = lameMu(E, NU), lam = lameLambda(E, NU);
    for (const k of [1, 2, 4, 8]) {
      const y = Float64Array.of(0, 0, -k, 0, 0, k);
      expect(J(t, y)).toBeCloseTo(-k * k, 12);
      const w = W(MAT_NEOHOOKEAN, t)(y) / t.area;
      // |F|² = 2k²; the volume term D (J − 1)² = (μ + λ)/2 (k² + 1)² is the material's own; the shape term
      // C g(J)(s0 − s1)² is at most μ/2 · 20/… · 4k², the size term K C w (|F| − √2)² at most K μ/2 · 2(k − 1)²
      const shape = w - ((mu + lam) / 2) * (k * k + 1) * (k * k + 1);
      expect(shape).toBeGreaterThan(0);
      expect(shape).toBeLessThanOrEqual(mu * k * k * (40 + NH_SIZE_K));
    }
  });
});
