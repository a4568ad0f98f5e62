/** Finite-difference helpers and a seeded PRNG for element tests. */
export function mulberry32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Central-difference gradient of a scalar function. */
export function fdGradient(f: (x: Float64Array) => number, x: Float64Array, h = 1e-6): Float64Array {
  const g = new Float64Array(x.length);
  const y = Float64Array.from(x);
  for (let i = 0; i < x.length; i++) {
    y[i] = x[i] + h;
    const fp = f(y);
    y[i] = x[i] - h;
    const fm = f(y);
    y[i] = x[i];
    g[i] = (fp - fm) / (2 * h);
  }
  return g;
}

/**
 * Central-difference Jacobian of a vector function g (m outputs) w.r.t. x:
 * J[r * n + c] = d g_r / d x_c (row-major, m x n).
 */
export function fdJacobian(g: (x: Float64Array, out: Float64Array) => void, m: number, x: Float64Array, h = 1e-6): Float64Array {
  const n = x.length;
  const J = new Float64Array(m * n);
  const y = Float64Array.from(x);
  const gp = new Float64Array(m);
  const gm = new Float64Array(m);
  for (let c = 0; c < n; c++) {
    y[c] = x[c] + h;
    g(y, gp);
    y[c] = x[c] - h;
    g(y, gm);
    y[c] = x[c];
    for (let r = 0; r < m; r++) J[r * n + c] = (gp[r] - gm[r]) / (2 * h);
  }
  return J;
}

/** Norm-wise relative error ||a - b|| / max(||b||, floor). */
export function relErr(a: ArrayLike<number>, b: ArrayLike<number>, floor = 1e-8): number {
  let d = 0;
  let n = 0;
  for (let i = 0; i < a.length; i++) {
    d += (a[i] - b[i]) ** 2;
    n += b[i] ** 2;
  }
  return Math.sqrt(d) / Math.max(Math.sqrt(n), floor);
}

export function maxAbs(a: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]));
  return m;
}
