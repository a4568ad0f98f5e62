/**
 * Sparse LDL^T factorization without pivoting (P A P^T = L D L^T), for
 * symmetric matrices given by their lower triangle (SymPattern + values).
 *
 * Symbolic analysis (once per topology): permuted upper-triangular copy of the
 * pattern with a gather map into values[], elimination tree, the row pattern
 * of every row of L in topological order (the "up-looking" reach), column
 * counts, the row indices of L and, for every (row k, column j) of L, the slot
 * where L(k, j) is stored. The numeric factorization is then a fixed sequence
 * of typed-array loops (up-looking LDL^T, Davis' algorithm) with no
 * allocation and no tree traversal.
 */
import type { SymPattern } from './pattern.js';
import { invertPermutation } from './amd.js';

/** Pivot tolerance relative to max |A_ii|. */
export const LDLT_PIVOT_TOL = 1e-13;

export class SparseLDLT {
  readonly n: number;
  /** perm (new -> old) and its inverse. */
  readonly perm: Int32Array;
  readonly pinv: Int32Array;
  /** Elimination tree of P A P^T. */
  readonly parent: Int32Array;
  /** Strictly lower L in CSC: column j rows Li[Lp[j] .. Lp[j+1]-1] ascending. */
  readonly Lp: Int32Array;
  readonly Li: Int32Array;
  readonly Lx: Float64Array;
  readonly D: Float64Array;
  readonly nnzL: number;
  /** Index of the row (0-based) at which the last factor() failed, or -1. */
  failedAt = -1;
  /** true after a successful factor(). */
  factored = false;

  // permuted upper triangle of A (column k: rows <= k), gather map into values
  private readonly Cp: Int32Array;
  private readonly Ci: Int32Array;
  private readonly Csrc: Int32Array;
  // row patterns of L: row k uses columns Rj[Rp[k] .. Rp[k+1]-1] in
  // topological order; L(k, Rj[t]) is stored at Lx[Rslot[t]]
  private readonly Rp: Int32Array;
  private readonly Rj: Int32Array;
  private readonly Rslot: Int32Array;
  private readonly diagSrc: Int32Array;
  private readonly invD: Float64Array;
  private readonly y: Float64Array;

  constructor(p: SymPattern, perm?: Int32Array) {
    const n = p.n;
    this.n = n;
    if (perm) {
      if (perm.length !== n) throw new RangeError(`SparseLDLT: perm has length ${perm.length}, expected ${n}`);
      this.perm = Int32Array.from(perm);
    } else {
      this.perm = new Int32Array(n);
      for (let i = 0; i < n; i++) this.perm[i] = i;
    }
    const pinv = invertPermutation(this.perm);
    this.pinv = pinv;
    const colPtr = p.colPtr;
    const rowIdx = p.rowIdx;
    const nnzA = colPtr[n];

    // --- permuted upper triangle C = triu(P A P^T) by columns
    const Cp = new Int32Array(n + 1);
    for (let j = 0; j < n; j++) {
      const pj = pinv[j];
      for (let q = colPtr[j]; q < colPtr[j + 1]; q++) {
        const pi = pinv[rowIdx[q]];
        Cp[(pi > pj ? pi : pj) + 1]++;
      }
    }
    for (let k = 0; k < n; k++) Cp[k + 1] += Cp[k];
    const Ci = new Int32Array(nnzA);
    const Csrc = new Int32Array(nnzA);
    const fillC = Cp.slice(0, n);
    const diagSrc = new Int32Array(n).fill(-1);
    for (let j = 0; j < n; j++) {
      const pj = pinv[j];
      for (let q = colPtr[j]; q < colPtr[j + 1]; q++) {
        const i = rowIdx[q];
        const pi = pinv[i];
        const col = pi > pj ? pi : pj;
        const t = fillC[col]++;
        Ci[t] = pi > pj ? pj : pi;
        Csrc[t] = q;
        if (i === j) diagSrc[j] = q;
      }
    }
    this.Cp = Cp;
    this.Ci = Ci;
    this.Csrc = Csrc;
    this.diagSrc = diagSrc;

    // --- elimination tree (Liu, with path compression)
    const parent = new Int32Array(n);
    const ancestor = new Int32Array(n);
    for (let k = 0; k < n; k++) {
      parent[k] = -1;
      ancestor[k] = -1;
      for (let q = Cp[k]; q < Cp[k + 1]; q++) {
        let i = Ci[q];
        while (i !== -1 && i < k) {
          const inext = ancestor[i];
          ancestor[i] = k;
          if (inext === -1) parent[i] = k;
          i = inext;
        }
      }
    }
    this.parent = parent;

    // --- row patterns: pass 1 counts, pass 2 stores (topological order)
    const flag = new Int32Array(n);
    const stack = new Int32Array(n);
    const colCount = new Int32Array(n);
    const Rp = new Int32Array(n + 1);
    for (let k = 0; k < n; k++) {
      flag[k] = k;
      let cnt = 0;
      for (let q = Cp[k]; q < Cp[k + 1]; q++) {
        let i = Ci[q];
        while (flag[i] !== k) {
          flag[i] = k;
          colCount[i]++;
          cnt++;
          i = parent[i];
        }
      }
      Rp[k + 1] = Rp[k] + cnt;
    }
    const nnzL = Rp[n];
    this.nnzL = nnzL;
    const Lp = new Int32Array(n + 1);
    for (let j = 0; j < n; j++) Lp[j + 1] = Lp[j] + colCount[j];
    const Li = new Int32Array(nnzL);
    const Rj = new Int32Array(nnzL);
    const Rslot = new Int32Array(nnzL);
    const fillL = Lp.slice(0, n);
    flag.fill(-1);
    for (let k = 0; k < n; k++) {
      flag[k] = k;
      let top = Rp[k + 1];
      for (let q = Cp[k]; q < Cp[k + 1]; q++) {
        let i = Ci[q];
        let len = 0;
        while (flag[i] !== k) {
          stack[len++] = i;
          flag[i] = k;
          i = parent[i];
        }
        // the path was found leaf -> root; it goes to the end of the
        // pattern so that every column comes after its descendants
        while (len > 0) Rj[--top] = stack[--len];
      }
      for (let t = Rp[k]; t < Rp[k + 1]; t++) {
        const j = Rj[t];
        const s = fillL[j]++;
        Li[s] = k;
        Rslot[t] = s;
      }
    }
    this.Lp = Lp;
    this.Li = Li;
    this.Rp = Rp;
    this.Rj = Rj;
    this.Rslot = Rslot;
    this.Lx = new Float64Array(nnzL);
    this.D = new Float64Array(n);
    this.invD = new Float64Array(n);
    this.y = new Float64Array(n);
  }

  /**
   * Numeric factorization of the matrix with this pattern and `values`.
   * Returns false (and leaves the factor unusable) if a pivot is non-finite or
   * |d_k| <= 1e-13 * max_i |A_ii|.
   */
  factor(values: Float64Array): boolean {
    const n = this.n;
    const Cp = this.Cp;
    const Ci = this.Ci;
    const Csrc = this.Csrc;
    const Rp = this.Rp;
    const Rj = this.Rj;
    const Rslot = this.Rslot;
    const Lp = this.Lp;
    const Li = this.Li;
    const Lx = this.Lx;
    const D = this.D;
    const invD = this.invD;
    const y = this.y;
    const diagSrc = this.diagSrc;
    this.factored = false;
    this.failedAt = -1;
    let dmax = 0;
    for (let i = 0; i < n; i++) {
      const a = Math.abs(values[diagSrc[i]]);
      if (a > dmax) dmax = a;
    }
    const tol = LDLT_PIVOT_TOL * dmax;
    y.fill(0);
    for (let k = 0; k < n; k++) {
      // y = A(0:k, k) of the permuted matrix
      const c1 = Cp[k + 1];
      for (let q = Cp[k]; q < c1; q++) y[Ci[q]] += values[Csrc[q]];
      let dk = y[k];
      y[k] = 0;
      const r1 = Rp[k + 1];
      for (let t = Rp[k]; t < r1; t++) {
        const j = Rj[t];
        const yj = y[j];
        y[j] = 0;
        const end = Rslot[t];
        for (let q = Lp[j]; q < end; q++) y[Li[q]] -= Lx[q] * yj;
        const lkj = yj * invD[j];
        dk -= lkj * yj;
        Lx[end] = lkj;
      }
      const ad = Math.abs(dk);
      if (!(ad > tol) || ad === Infinity) {
        this.failedAt = k;
        D[k] = dk;
        return false;
      }
      D[k] = dk;
      invD[k] = 1 / dk;
    }
    this.factored = true;
    return true;
  }

  /** x = A^{-1} b using the last successful factorization. b and x may alias. */
  solve(b: Float64Array, x: Float64Array): void {
    if (!this.factored) throw new Error('SparseLDLT.solve: no valid factorization (factor() was not called or failed)');
    const n = this.n;
    const perm = this.perm;
    const Lp = this.Lp;
    const Li = this.Li;
    const Lx = this.Lx;
    const invD = this.invD;
    const w = this.y;
    for (let k = 0; k < n; k++) w[k] = b[perm[k]];
    // L w = b
    for (let j = 0; j < n; j++) {
      const wj = w[j];
      if (wj !== 0) {
        const q1 = Lp[j + 1];
        for (let q = Lp[j]; q < q1; q++) w[Li[q]] -= Lx[q] * wj;
      }
    }
    // D, then L^T
    for (let j = n - 1; j >= 0; j--) {
      let s = w[j] * invD[j];
      const q1 = Lp[j + 1];
      for (let q = Lp[j]; q < q1; q++) s -= Lx[q] * w[Li[q]];
      w[j] = s;
    }
    for (let k = 0; k < n; k++) x[perm[k]] = w[k];
  }

  /** Sylvester inertia of A read off D (valid after a successful factor()). */
  inertia(): { positive: number; negative: number; zero: number } {
    let positive = 0;
    let negative = 0;
    let zero = 0;
    const D = this.D;
    const m = this.factored ? this.n : this.failedAt + 1;
    for (let i = 0; i < m; i++) {
      const d = D[i];
      if (d > 0) positive++;
      else if (d < 0) negative++;
      else zero++;
    }
    if (!this.factored) zero += this.n - m;
    return { positive, negative, zero };
  }
}
