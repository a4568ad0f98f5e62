/**
 * An independent, deliberately plain reference for FOSSSim's integrators:
 * dense matrices, forces written directly from the course formulas, dense
 * Gaussian elimination with full pivoting. Shares no code with src/ except the
 * parsed scene description. Used to grade the engine step by step, restarting
 * from the engine's own state at every step, as FOSSSim's grader does.
 */
import type { SceneDescription } from '../../src/scene/types';

export interface OracleScene {
  n: number;
  m: Float64Array; // per DOF
  fixed: boolean[];
  desc: SceneDescription;
  /** Rest data per CST force (in order of CST forces): area, Binv (row-major). */
  cst: { area: number; B: number[] }[];
  /** ē1 + ē2 per bending force, from initial positions. */
  ebSum: number[];
}

export function prepare(desc: SceneDescription): OracleScene {
  const n = desc.particles.length;
  const m = new Float64Array(2 * n);
  desc.particles.forEach((p, i) => {
    m[2 * i] = p.m;
    m[2 * i + 1] = p.m;
  });
  const cst: OracleScene['cst'] = [];
  const ebSum: number[] = [];
  for (const f of desc.forces) {
    if (f.type === 'elasticbodycstforce') {
      const [x1, y1, x2, y2, x3, y3] = f.xb;
      const a = x2 - x1, b = x3 - x1, c = y2 - y1, d = y3 - y1; // Dbar = [[a, b], [c, d]]
      const det = a * d - b * c;
      cst.push({ area: Math.abs(det) / 2, B: [d / det, -b / det, -c / det, a / det] });
    } else if (f.type === 'elasticbodybendingforce') {
      const P = desc.particles;
      const p1 = P[f.i1]!, p2 = P[f.i2]!, p3 = P[f.i3]!;
      ebSum.push(Math.hypot(p2.px - p1.px, p2.py - p1.py) + Math.hypot(p3.px - p2.px, p3.py - p2.py));
    }
  }
  return { n, m, fixed: desc.particles.map((p) => p.fixed), desc, cst, ebSum };
}

/** FOSSSim's gradU: dE/dx minus velocity-dependent forces. */
export function gradU(s: OracleScene, x: Float64Array, v: Float64Array): Float64Array {
  const g = new Float64Array(2 * s.n);
  const add = (i: number, fx: number, fy: number) => {
    g[2 * i] += fx;
    g[2 * i + 1] += fy;
  };
  let cstIndex = 0;
  let bendIndex = 0;
  for (const f of s.desc.forces) {
    switch (f.type) {
      case 'springforce':
      case 'elasticbodyspringforce': {
        const [i, j] = f.type === 'springforce' ? [s.desc.edges[f.edge]!.i, s.desc.edges[f.edge]!.j] : [f.i1, f.i2];
        const k = f.type === 'springforce' ? f.k : f.alpha / f.l0;
        const b = f.type === 'springforce' ? f.b : 0;
        const dx = x[2 * j]! - x[2 * i]!, dy = x[2 * j + 1]! - x[2 * i + 1]!;
        const l = Math.hypot(dx, dy);
        const nx = dx / l, ny = dy / l;
        const fe = k * (l - f.l0);
        const dvn = nx * (v[2 * j]! - v[2 * i]!) + ny * (v[2 * j + 1]! - v[2 * i + 1]!);
        const t = fe + b * dvn;
        add(i, -t * nx, -t * ny);
        add(j, t * nx, t * ny);
        break;
      }
      case 'simplegravity':
        for (let i = 0; i < s.n; i++) add(i, -s.m[2 * i]! * f.fx, -s.m[2 * i]! * f.fy);
        break;
      case 'constantforce':
        for (let i = 0; i < s.n; i++) add(i, -f.fx, -f.fy);
        break;
      case 'dragdamping':
        for (let i = 0; i < s.n; i++) add(i, f.b * v[2 * i]!, f.b * v[2 * i + 1]!);
        break;
      case 'gravitationalforce': {
        const { i, j } = f;
        const dx = x[2 * j]! - x[2 * i]!, dy = x[2 * j + 1]! - x[2 * i + 1]!;
        const r = Math.hypot(dx, dy);
        const c = (f.G * s.m[2 * i]! * s.m[2 * j]!) / (r * r * r);
        add(j, c * dx, c * dy);
        add(i, -c * dx, -c * dy);
        break;
      }
      case 'elasticbodybendingforce': {
        const { i1, i2, i3 } = f;
        const e1x = x[2 * i2]! - x[2 * i1]!, e1y = x[2 * i2 + 1]! - x[2 * i1 + 1]!;
        const e2x = x[2 * i3]! - x[2 * i2]!, e2y = x[2 * i3 + 1]! - x[2 * i2 + 1]!;
        const theta = Math.atan2(e1x * e2y - e1y * e2x, e1x * e2x + e1y * e2y);
        const c = (f.alpha * (theta - f.theta0)) / s.ebSum[bendIndex++]!;
        const l1 = e1x * e1x + e1y * e1y, l2 = e2x * e2x + e2y * e2y;
        // θ = φ(e2) − φ(e1); dφ/de = (−ey, ex)/|e|².
        const d1x = -e1y / l1, d1y = e1x / l1; // dφ1/de1
        const d2x = -e2y / l2, d2y = e2x / l2; // dφ2/de2
        add(i1, c * d1x, c * d1y);
        add(i2, c * (-d1x - d2x), c * (-d1y - d2y));
        add(i3, c * d2x, c * d2y);
        break;
      }
      case 'elasticbodycstforce': {
        const { area, B } = s.cst[cstIndex++]!;
        const { i1, i2, i3 } = f;
        const D = [x[2 * i2]! - x[2 * i1]!, x[2 * i3]! - x[2 * i1]!, x[2 * i2 + 1]! - x[2 * i1 + 1]!, x[2 * i3 + 1]! - x[2 * i1 + 1]!];
        const F = mul2(D, B);
        const C = mul2(transpose2(F), F);
        const exx = C[0]! - 1, exy = C[1]!, eyy = C[3]! - 1;
        const E = f.youngsmodulus, nu = f.poissonratio;
        const c = (E * area) / (2 * (1 - nu * nu));
        // W = c [exx² + 2ν exx eyy + eyy² + 2(1−ν) exy²]; S = ∂W/∂ε with the off-diagonal halved.
        const S = [c * (2 * exx + 2 * nu * eyy), c * 2 * (1 - nu) * exy, c * 2 * (1 - nu) * exy, c * (2 * eyy + 2 * nu * exx)];
        const P = mul2(F, S).map((q) => 2 * q); // ∂W/∂F = 2 F S
        const G = mul2(P, transpose2(B)); // ∂W/∂D
        add(i2, G[0]!, G[2]!);
        add(i3, G[1]!, G[3]!);
        add(i1, -G[0]! - G[1]!, -G[2]! - G[3]!);
        break;
      }
      case 'vortexforce': {
        // FOSSSim VortexForce.cpp: w = kvc/r² (kbs n⊥ − (vj − vi)), n⊥ = (−dy, dx)/r; gradE_i += w, gradE_j −= w.
        const { i, j } = f;
        const dx = x[2 * j]! - x[2 * i]!, dy = x[2 * j + 1]! - x[2 * i + 1]!;
        const r2 = dx * dx + dy * dy;
        const r = Math.sqrt(r2);
        const wx = (f.kvc / r2) * ((f.kbs * -dy) / r - (v[2 * j]! - v[2 * i]!));
        const wy = (f.kvc / r2) * ((f.kbs * dx) / r - (v[2 * j + 1]! - v[2 * i + 1]!));
        add(i, wx, wy);
        add(j, -wx, -wy);
        break;
      }
    }
  }
  if (s.desc.collision?.type === 'penalty') {
    const pg = penaltyGradient(s, x);
    for (let a = 0; a < g.length; a++) g[a] += pg[a]!;
  }
  return g;
}

/**
 * FOSSSim's PenaltyForce gradient, written from the formula (issue 14): for each particle i,
 * particles j > i, edges not containing i, half-planes; a pair with |n| < R + thickness adds
 * ½ k (|n| − R − thickness)², n from the particle towards the other object.
 */
export function penaltyGradient(s: OracleScene, x: Float64Array): Float64Array {
  const c = s.desc.collision as { type: 'penalty'; k: number; thickness: number };
  const P = s.desc.particles, E = s.desc.edges, H = s.desc.halfplanes;
  const g = new Float64Array(2 * s.n);
  const X = (i: number): [number, number] => [x[2 * i]!, x[2 * i + 1]!];
  // dE/dx_particle = −k(|n| − L) n/|n|; the other object gets the opposite, shared by weights.
  const pair = (n: [number, number], L: number, targets: [number, number][]) => {
    const d = Math.hypot(n[0], n[1]);
    if (!(d < L) || d === 0) return;
    const f = (c.k * (d - L)) / d;
    for (const [idx, w] of targets) {
      g[2 * idx] += w * f * n[0];
      g[2 * idx + 1] += w * f * n[1];
    }
  };
  for (let i = 0; i < P.length; i++) {
    const x1 = X(i);
    for (let j = i + 1; j < P.length; j++) {
      const x2 = X(j);
      pair([x2[0] - x1[0], x2[1] - x1[1]], P[i]!.radius + P[j]!.radius + c.thickness, [[i, -1], [j, 1]]);
    }
    for (let e = 0; e < E.length; e++) {
      const { i: a, j: b } = E[e]!;
      if (a === i || b === i) continue;
      const x2 = X(a), x3 = X(b);
      const ed = [x3[0] - x2[0], x3[1] - x2[1]];
      let alpha = ((x1[0] - x2[0]) * ed[0]! + (x1[1] - x2[1]) * ed[1]!) / (ed[0]! * ed[0]! + ed[1]! * ed[1]!);
      alpha = Math.min(1, Math.max(0, alpha));
      const n: [number, number] = [x2[0] + alpha * ed[0]! - x1[0], x2[1] + alpha * ed[1]! - x1[1]];
      pair(n, P[i]!.radius + E[e]!.radius + c.thickness, [[i, -1], [a, 1 - alpha], [b, alpha]]);
    }
    for (let h = 0; h < H.length; h++) {
      const len = Math.hypot(H[h]!.nx, H[h]!.ny);
      const nh = [H[h]!.nx / len, H[h]!.ny / len];
      const dist = (H[h]!.px - x1[0]) * nh[0]! + (H[h]!.py - x1[1]) * nh[1]!;
      pair([dist * nh[0]!, dist * nh[1]!], P[i]!.radius + c.thickness, [[i, -1]]);
    }
  }
  return g;
}

/**
 * Hx += the penalty force's Hessian: particle–particle and particle–half-plane pairs in closed form
 * (K = k[n̂n̂ᵀ + (|n| − L)/|n| (I − n̂n̂ᵀ)] on ±n, k n̂_h n̂_hᵀ), particle–edge pairs by central
 * differences of their gradient (no linearized-implicit scene has edges near contact).
 */
function penaltyHessian(s: OracleScene, x: Float64Array, Hx: Float64Array[]): void {
  const c = s.desc.collision as { type: 'penalty'; k: number; thickness: number };
  const P = s.desc.particles, H = s.desc.halfplanes;
  for (let i = 0; i < P.length; i++) {
    for (let j = i + 1; j < P.length; j++) {
      const n = [x[2 * j]! - x[2 * i]!, x[2 * j + 1]! - x[2 * i + 1]!];
      const d = Math.hypot(n[0]!, n[1]!), L = P[i]!.radius + P[j]!.radius + c.thickness;
      if (!(d < L) || d === 0) continue;
      const u = [n[0]! / d, n[1]! / d];
      for (let r = 0; r < 2; r++) {
        for (let q = 0; q < 2; q++) {
          const K = c.k * (u[r]! * u[q]! + ((d - L) / d) * ((r === q ? 1 : 0) - u[r]! * u[q]!));
          Hx[2 * i + r]![2 * i + q] += K;
          Hx[2 * j + r]![2 * j + q] += K;
          Hx[2 * i + r]![2 * j + q] -= K;
          Hx[2 * j + r]![2 * i + q] -= K;
        }
      }
    }
    for (let h = 0; h < H.length; h++) {
      const len = Math.hypot(H[h]!.nx, H[h]!.ny);
      const nh = [H[h]!.nx / len, H[h]!.ny / len];
      const dist = Math.abs((H[h]!.px - x[2 * i]!) * nh[0]! + (H[h]!.py - x[2 * i + 1]!) * nh[1]!);
      if (!(dist < P[i]!.radius + c.thickness) || dist === 0) continue;
      for (let r = 0; r < 2; r++) for (let q = 0; q < 2; q++) Hx[2 * i + r]![2 * i + q] += c.k * nh[r]! * nh[q]!;
    }
  }
  if (s.desc.edges.length === 0) return;
  const edgesOnly: OracleScene = { ...s, desc: { ...s.desc, particles: P, halfplanes: [] } };
  const N = 2 * s.n;
  const ppFree = (xx: Float64Array) => {
    // the edge pairs' gradient alone: total minus the particle–particle and half-plane parts
    const g = penaltyGradient(edgesOnly, xx);
    const noEdges = penaltyGradient({ ...edgesOnly, desc: { ...edgesOnly.desc, edges: [] } }, xx);
    for (let a = 0; a < N; a++) g[a] -= noEdges[a]!;
    return g;
  };
  for (let q = 0; q < N; q++) {
    const hx = 1e-6 * Math.max(1, Math.abs(x[q]!));
    const xp = x.slice(), xm = x.slice();
    xp[q] += hx;
    xm[q] -= hx;
    const gp = ppFree(xp), gm = ppFree(xm);
    for (let r = 0; r < N; r++) Hx[r]![q] += (gp[r]! - gm[r]!) / (2 * hx);
  }
}

function mul2(a: number[], b: number[]): number[] {
  return [a[0]! * b[0]! + a[1]! * b[2]!, a[0]! * b[1]! + a[1]! * b[3]!, a[2]! * b[0]! + a[3]! * b[2]!, a[2]! * b[1]! + a[3]! * b[3]!];
}
function transpose2(a: number[]): number[] {
  return [a[0]!, a[2]!, a[1]!, a[3]!];
}

/** Exact Jacobians of gradU for the spring forces; the rest by central differences of gradU. */
function jacobians(s: OracleScene, x: Float64Array, v: Float64Array, exactOnly: boolean): { Hx: Float64Array[]; Hv: Float64Array[] } {
  const N = 2 * s.n;
  const Hx = Array.from({ length: N }, () => new Float64Array(N));
  const Hv = Array.from({ length: N }, () => new Float64Array(N));
  const springOnly = s.desc.forces.every((f) => ['springforce', 'elasticbodyspringforce', 'simplegravity', 'constantforce', 'dragdamping'].includes(f.type));
  if (springOnly) {
    for (const f of s.desc.forces) {
      if (f.type === 'dragdamping') for (let a = 0; a < N; a++) Hv[a]![a] += f.b;
      if (f.type !== 'springforce' && f.type !== 'elasticbodyspringforce') continue;
      const [i, j] = f.type === 'springforce' ? [s.desc.edges[f.edge]!.i, s.desc.edges[f.edge]!.j] : [f.i1, f.i2];
      const k = f.type === 'springforce' ? f.k : f.alpha / f.l0;
      const b = f.type === 'springforce' ? f.b : 0;
      const dx = x[2 * j]! - x[2 * i]!, dy = x[2 * j + 1]! - x[2 * i + 1]!;
      const l = Math.hypot(dx, dy);
      const n = [dx / l, dy / l];
      const dv = [v[2 * j]! - v[2 * i]!, v[2 * j + 1]! - v[2 * i + 1]!];
      const ndv = n[0]! * dv[0]! + n[1]! * dv[1]!;
      // d(g_j)/d(x_j) = k n nᵀ + k (l − l0)/l (I − n nᵀ) + b/l [ (n·dv) I + n dvᵀ ] (I − n nᵀ)
      const K: number[][] = [[0, 0], [0, 0]];
      const Kv: number[][] = [[0, 0], [0, 0]];
      for (let r = 0; r < 2; r++) {
        for (let c = 0; c < 2; c++) {
          const P = (r === c ? 1 : 0) - n[r]! * n[c]!;
          K[r]![c] = k * n[r]! * n[c]! + ((k * (l - f.l0)) / l) * P;
          let d = 0;
          for (let q = 0; q < 2; q++) {
            const Pqc = (q === c ? 1 : 0) - n[q]! * n[c]!;
            d += (ndv * (r === q ? 1 : 0) + n[r]! * dv[q]!) * Pqc;
          }
          K[r]![c] += (b / l) * d;
          Kv[r]![c] = b * n[r]! * n[c]!;
        }
      }
      for (let r = 0; r < 2; r++) {
        for (let c = 0; c < 2; c++) {
          Hx[2 * i + r]![2 * i + c] += K[r]![c]!;
          Hx[2 * j + r]![2 * j + c] += K[r]![c]!;
          Hx[2 * i + r]![2 * j + c] -= K[r]![c]!;
          Hx[2 * j + r]![2 * i + c] -= K[r]![c]!;
          Hv[2 * i + r]![2 * i + c] += Kv[r]![c]!;
          Hv[2 * j + r]![2 * j + c] += Kv[r]![c]!;
          Hv[2 * i + r]![2 * j + c] -= Kv[r]![c]!;
          Hv[2 * j + r]![2 * i + c] -= Kv[r]![c]!;
        }
      }
    }
    if (s.desc.collision?.type === 'penalty') penaltyHessian(s, x, Hx);
    return { Hx, Hv };
  }
  if (exactOnly) throw new Error('oracle: exact Jacobians only for spring systems');
  for (let c = 0; c < N; c++) {
    const hx = 1e-6 * Math.max(1, Math.abs(x[c]!));
    const xp = x.slice(), xm = x.slice();
    xp[c] += hx;
    xm[c] -= hx;
    const gp = gradU(s, xp, v), gm = gradU(s, xm, v);
    const hv = 1e-6 * Math.max(1, Math.abs(v[c]!));
    const vp = v.slice(), vm = v.slice();
    vp[c] += hv;
    vm[c] -= hv;
    const gvp = gradU(s, x, vp), gvm = gradU(s, x, vm);
    for (let r = 0; r < N; r++) {
      Hx[r]![c] = (gp[r]! - gm[r]!) / (2 * hx);
      Hv[r]![c] = (gvp[r]! - gvm[r]!) / (2 * hv);
    }
  }
  return { Hx, Hv };
}

/** Dense Gaussian elimination with full pivoting. */
export function solveDense(A: Float64Array[], b: Float64Array): Float64Array {
  const n = b.length;
  const M = A.map((r) => r.slice());
  const rhs = b.slice();
  const col = Array.from({ length: n }, (_, i) => i);
  for (let k = 0; k < n; k++) {
    let pr = k, pc = k, best = -1;
    for (let r = k; r < n; r++) for (let c = k; c < n; c++) if (Math.abs(M[r]![c]!) > best) [best, pr, pc] = [Math.abs(M[r]![c]!), r, c];
    [M[k], M[pr]] = [M[pr]!, M[k]!];
    [rhs[k], rhs[pr]] = [rhs[pr]!, rhs[k]!];
    for (const row of M) [row[k], row[pc]] = [row[pc]!, row[k]!];
    [col[k], col[pc]] = [col[pc]!, col[k]!];
    for (let r = k + 1; r < n; r++) {
      const f = M[r]![k]! / M[k]![k]!;
      if (f === 0) continue;
      for (let c = k; c < n; c++) M[r]![c] -= f * M[k]![c]!;
      rhs[r] -= f * rhs[k]!;
    }
  }
  const y = new Float64Array(n);
  for (let k = n - 1; k >= 0; k--) {
    let s = rhs[k]!;
    for (let c = k + 1; c < n; c++) s -= M[k]![c]! * y[c]!;
    y[k] = s / M[k]![k]!;
  }
  const out = new Float64Array(n);
  for (let k = 0; k < n; k++) out[col[k]!] = y[k]!;
  return out;
}

/** One step of the scene's integrator from (x, v); returns the new state. */
export function oracleStep(s: OracleScene, x0: Float64Array, v0: Float64Array): { x: Float64Array; v: Float64Array } {
  const h = s.desc.integrator.dt;
  const N = 2 * s.n;
  const x = x0.slice(), v = v0.slice();
  const isFixed = (a: number) => s.fixed[a >> 1]!;
  const type = s.desc.integrator.type;
  if (type === 'explicit-euler' || type === 'symplectic-euler') {
    const g = gradU(s, x, v);
    if (type === 'explicit-euler') for (let a = 0; a < N; a++) x[a] += h * v[a]!;
    for (let a = 0; a < N; a++) if (!isFixed(a)) v[a] -= (h * g[a]!) / s.m[a]!;
    if (type === 'symplectic-euler') for (let a = 0; a < N; a++) x[a] += h * v[a]!;
    return { x, v };
  }
  const linearized = type === 'linearized-implicit-euler';
  const dv = new Float64Array(N);
  const dx = new Float64Array(N);
  for (let a = 0; a < N; a++) dx[a] = h * v[a]!;
  for (let iter = 0; iter < 100; iter++) {
    const xe = x.map((q, a) => q + dx[a]!), ve = v.map((q, a) => q + dv[a]!);
    const g = gradU(s, xe, ve);
    const { Hx, Hv } = jacobians(s, xe, ve, linearized);
    const A = Array.from({ length: N }, (_, r) => Float64Array.from({ length: N }, (_, c) => h * h * Hx[r]![c]! + h * Hv[r]![c]! + (r === c ? s.m[r]! : 0)));
    const rhs = Float64Array.from({ length: N }, (_, a) => -h * g[a]! - s.m[a]! * dv[a]!);
    for (let a = 0; a < N; a++) {
      if (!isFixed(a)) continue;
      rhs[a] = 0;
      for (let c = 0; c < N; c++) A[a]![c] = A[c]![a] = 0;
      A[a]![a] = 1;
    }
    const d = solveDense(A, rhs);
    let norm = 0;
    for (let a = 0; a < N; a++) {
      dv[a] += d[a]!;
      dx[a] = h * (v[a]! + dv[a]!);
      norm += d[a]! * d[a]!;
    }
    // The FOSSSim tolerance is 1e-9; the oracle iterates further so its answer is the converged root.
    if (linearized || Math.sqrt(norm) < 1e-13) break;
  }
  for (let a = 0; a < N; a++) {
    x[a] += dx[a]!;
    v[a] += dv[a]!;
  }
  return { x, v };
}

/**
 * One FOSSSim step: the integrator, then (with `<collision type="simple">`) FOSSSim's
 * SimpleCollisionHandler on the new positions and velocities, as TwoDSceneExecutableSimulation::stepSystem.
 */
export function oracleStepWithCollisions(
  s: OracleScene, x0: Float64Array, v0: Float64Array,
): { x: Float64Array; v: Float64Array; collisions: OracleCollision[] } {
  const out = oracleStep(s, x0, v0);
  const c = s.desc.collision;
  const collisions: OracleCollision[] = [];
  if (c?.type === 'simple') simpleCollisions(s, out.x, out.v, c.cor, s.desc.collisiondetection?.type === 'contest', collisions);
  return { ...out, collisions };
}

/** One entry of FOSSSim's collision list: type (0 pp, 1 pe, 2 ph), particle, other object, raw n. */
export interface OracleCollision {
  type: number;
  i: number;
  j: number;
  n: [number, number];
}

/**
 * FOSSSim's SimpleCollisionHandler, written from the course code's formulas (docs/scene-format.md,
 * Contact): masses as in FOSSSim (fixed = Infinity), impulses in FOSSSim's m-ratio form.
 * `contest`: ContestDetector order (all particle–particle, then particle–edge, then
 * particle–halfplane); otherwise AllPairsDetector order (per particle: particles j > i, edges, halfplanes).
 */
export function simpleCollisions(
  s: OracleScene, x: Float64Array, v: Float64Array, cor: number, contest: boolean, list: OracleCollision[] = [],
): void {
  const P = s.desc.particles, E = s.desc.edges, H = s.desc.halfplanes;
  const mass = (i: number) => (s.fixed[i] ? Infinity : s.m[2 * i]!);
  const X = (i: number): [number, number] => [x[2 * i]!, x[2 * i + 1]!];
  const V = (i: number): [number, number] => [v[2 * i]!, v[2 * i + 1]!];
  const dot = (a: [number, number], b: [number, number]) => a[0] * b[0] + a[1] * b[1];
  const sub = (a: [number, number], b: [number, number]): [number, number] => [a[0] - b[0], a[1] - b[1]];
  const unit = (a: [number, number]): [number, number] => [a[0] / Math.hypot(a[0], a[1]), a[1] / Math.hypot(a[0], a[1])];
  const addV = (i: number, k: number, n: [number, number]) => {
    v[2 * i] += k * n[0];
    v[2 * i + 1] += k * n[1];
  };
  const cfactor = (1 + cor) / 2;

  const particleParticle = (i: number, j: number) => {
    const n = sub(X(j), X(i));
    if (!(Math.hypot(n[0], n[1]) < P[i]!.radius + P[j]!.radius)) return;
    if (!(dot(sub(V(i), V(j)), n) > 0)) return;
    list.push({ type: 0, i, j, n });
    const nhat = unit(n);
    const m1 = mass(i), m2 = mass(j);
    const numerator = 2 * cfactor * dot(sub(V(j), V(i)), nhat);
    if (!s.fixed[i]) addV(i, numerator / (1 + m1 / m2), nhat);
    if (!s.fixed[j]) addV(j, -numerator / (m2 / m1 + 1), nhat);
  };

  const particleEdge = (i: number, e: number) => {
    const { i: a, j: b } = E[e]!;
    if (a === i || b === i) return;
    const x1 = X(i), x2 = X(a), x3 = X(b);
    const edge = sub(x3, x2);
    let alpha = dot(sub(x1, x2), edge) / dot(edge, edge);
    alpha = Math.min(1, Math.max(0, alpha));
    const n = sub([x2[0] + alpha * edge[0], x2[1] + alpha * edge[1]], x1);
    if (!(Math.hypot(n[0], n[1]) < P[i]!.radius + E[e]!.radius)) return;
    const v1 = V(i), v2 = V(a), v3 = V(b);
    const vedge: [number, number] = [v2[0] + alpha * (v3[0] - v2[0]), v2[1] + alpha * (v3[1] - v2[1])];
    if (!(dot(sub(v1, vedge), n) > 0)) return;
    list.push({ type: 1, i, j: e, n });
    const nhat = unit(n);
    const m1 = mass(i), m2 = mass(a), m3 = mass(b);
    const numerator = 2 * cfactor * dot(sub(vedge, v1), nhat);
    const denom1 = 1 + ((1 - alpha) * (1 - alpha) * m1) / m2 + (alpha * alpha * m1) / m3;
    const denom2 = m2 / m1 + (1 - alpha) * (1 - alpha) + (alpha * alpha * m2) / m3;
    const denom3 = m3 / m1 + ((1 - alpha) * (1 - alpha) * m3) / m2 + alpha * alpha;
    if (!s.fixed[i]) addV(i, numerator / denom1, nhat);
    if (!s.fixed[a]) addV(a, (-(1 - alpha) * numerator) / denom2, nhat);
    if (!s.fixed[b]) addV(b, (-alpha * numerator) / denom3, nhat);
  };

  const particleHalfplane = (i: number, h: number) => {
    const pn: [number, number] = [H[h]!.nx, H[h]!.ny];
    const k = dot(sub([H[h]!.px, H[h]!.py], X(i)), pn) / dot(pn, pn);
    const n: [number, number] = [k * pn[0], k * pn[1]];
    if (!(Math.hypot(n[0], n[1]) < P[i]!.radius)) return;
    if (!(dot(V(i), n) > 0)) return;
    list.push({ type: 2, i, j: h, n });
    const nhat = unit(n);
    addV(i, -2 * cfactor * dot(V(i), nhat), nhat);
  };

  const np = P.length;
  if (contest) {
    for (let i = 0; i < np; i++) for (let j = i + 1; j < np; j++) particleParticle(i, j);
    for (let i = 0; i < np; i++) for (let e = 0; e < E.length; e++) particleEdge(i, e);
    for (let i = 0; i < np; i++) for (let h = 0; h < H.length; h++) particleHalfplane(i, h);
    return;
  }
  for (let i = 0; i < np; i++) {
    for (let j = i + 1; j < np; j++) particleParticle(i, j);
    for (let e = 0; e < E.length; e++) particleEdge(i, e);
    for (let h = 0; h < H.length; h++) particleHalfplane(i, h);
  }
}
