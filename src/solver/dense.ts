/**
 * Dense LU with full (complete) pivoting: Pr A Pc = L U.
 * The robust fallback for symmetric indefinite systems that LDL^T without
 * pivoting cannot handle. O(n^3); intended for n up to a few thousand.
 * All storage is allocated once per size.
 */
import type { SymPattern } from './pattern.js';

/** A pivot is treated as zero when |pivot| <= DENSE_SINGULAR_TOL * max |A_ij|. */
export const DENSE_SINGULAR_TOL = 1e-14;

export class DenseLU {
  readonly n: number;
  /** Row-major n x n working storage: load the matrix here, factor in place. */
  readonly a: Float64Array;
  /** rowPerm[k] = original row at position k; colPerm[k] = original column at position k. */
  readonly rowPerm: Int32Array;
  readonly colPerm: Int32Array;
  /** Number of successful pivots of the last factorization (n when nonsingular). */
  rank = 0;
  factored = false;
  private readonly w: Float64Array;

  constructor(n: number) {
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`DenseLU: n must be a non-negative integer, got ${n}`);
    this.n = n;
    this.a = new Float64Array(n * n);
    this.rowPerm = new Int32Array(n);
    this.colPerm = new Int32Array(n);
    this.w = new Float64Array(n);
  }

  /** Load the full symmetric matrix whose lower triangle is (p, values). */
  loadSymmetric(p: SymPattern, values: Float64Array): void {
    const n = this.n;
    if (p.n !== n) throw new RangeError(`DenseLU.loadSymmetric: pattern has n = ${p.n}, expected ${n}`);
    const a = this.a;
    a.fill(0);
    const colPtr = p.colPtr;
    const rowIdx = p.rowIdx;
    for (let j = 0; j < n; j++) {
      for (let q = colPtr[j]; q < colPtr[j + 1]; q++) {
        const i = rowIdx[q];
        const v = values[q];
        a[i * n + j] += v;
        if (i !== j) a[j * n + i] += v;
      }
    }
  }

  /** Copy a row-major n x n matrix in and factor it. */
  factor(m: Float64Array): boolean {
    this.a.set(m.subarray(0, this.n * this.n));
    return this.factorInPlace();
  }

  /** Factor the matrix currently in `a`. Returns false if it is (numerically) singular. */
  factorInPlace(): boolean {
    const n = this.n;
    const a = this.a;
    const rp = this.rowPerm;
    const cp = this.colPerm;
    this.factored = false;
    for (let i = 0; i < n; i++) {
      rp[i] = i;
      cp[i] = i;
    }
    // initial pivot search; later searches are fused into the update
    let best = -1;
    let pr = 0;
    let pc = 0;
    const nn = n * n;
    for (let t = 0; t < nn; t++) {
      const v = Math.abs(a[t]);
      if (v !== v) {
        this.rank = 0;
        return false; // NaN entry
      }
      if (v > best) {
        best = v;
        pr = (t / n) | 0;
        pc = t - pr * n;
      }
    }
    if (!(best < Infinity)) {
      this.rank = 0;
      return false; // NaN or infinite entries
    }
    const tol = DENSE_SINGULAR_TOL * best;
    for (let k = 0; k < n; k++) {
      if (!(best > tol)) {
        this.rank = k;
        return false;
      }
      if (pr !== k) {
        const r0 = k * n;
        const r1 = pr * n;
        for (let j = 0; j < n; j++) {
          const t = a[r0 + j];
          a[r0 + j] = a[r1 + j];
          a[r1 + j] = t;
        }
        const t = rp[k];
        rp[k] = rp[pr];
        rp[pr] = t;
      }
      if (pc !== k) {
        for (let i = 0; i < n; i++) {
          const r = i * n;
          const t = a[r + k];
          a[r + k] = a[r + pc];
          a[r + pc] = t;
        }
        const t = cp[k];
        cp[k] = cp[pc];
        cp[pc] = t;
      }
      const rk = k * n;
      const inv = 1 / a[rk + k];
      best = -1;
      pr = k + 1;
      pc = k + 1;
      for (let i = k + 1; i < n; i++) {
        const ri = i * n;
        const l = a[ri + k] * inv;
        a[ri + k] = l;
        for (let j = k + 1; j < n; j++) {
          const v = a[ri + j] - l * a[rk + j];
          a[ri + j] = v;
          const av = v < 0 ? -v : v;
          if (av > best) {
            best = av;
            pr = i;
            pc = j;
          }
        }
      }
    }
    this.rank = n;
    this.factored = true;
    return true;
  }

  /** x = A^{-1} b. b and x may alias. */
  solve(b: Float64Array, x: Float64Array): void {
    if (!this.factored) throw new Error('DenseLU.solve: no valid factorization');
    const n = this.n;
    const a = this.a;
    const w = this.w;
    const rp = this.rowPerm;
    const cp = this.colPerm;
    for (let k = 0; k < n; k++) w[k] = b[rp[k]];
    for (let i = 1; i < n; i++) {
      const ri = i * n;
      let s = w[i];
      for (let j = 0; j < i; j++) s -= a[ri + j] * w[j];
      w[i] = s;
    }
    for (let i = n - 1; i >= 0; i--) {
      const ri = i * n;
      let s = w[i];
      for (let j = i + 1; j < n; j++) s -= a[ri + j] * w[j];
      w[i] = s / a[ri + i];
    }
    for (let k = 0; k < n; k++) x[cp[k]] = w[k];
  }
}
