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
 *
 * Paired kernels primed once per process (primeKernels; the gate shows it is needed): docs/design.md,
 * "Scratch and calling convention".
 */
import type { SymPattern } from './pattern.js';
import { buildPattern } from './pattern.js';
import { invertPermutation } from './ordering.js';

/**
 * Pivot tolerance relative to the pivot's own diagonal entry: pivot k fails when
 * |d_k| ≤ LDLT_PIVOT_TOL · |A_kk| (cancellation to round-off: numerically singular there).
 * Relative to its own row, not to max |A_ii|: a well-posed system whose rows differ in scale by
 * more than 1/LDLT_PIVOT_TOL (contact barrier curvatures of 1e14 beside masses of 10) is not
 * singular, and was rejected (then solved by the dense LU fallback, seconds per solve).
 */
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
  private readonly invD: Float64Array;
  private readonly y: Float64Array;
  /**
   * true when dofs come in pairs (2K, 2K+1) whose rows of L share one pattern
   * (2D FEM on a node ordering): the numeric factorization then computes the
   * two rows together, halving index traffic in the inner loop.
   */
  readonly paired: boolean;
  private readonly y2: Float64Array;
  /** Per row pair (2K, 2K+1) of the permuted matrix: 1 when factorPaired sets it to identity (held), KEEP_ROWS when it leaves them. */
  private readonly skip: Uint8Array;
  private readonly Np: Int32Array;
  private readonly Nj: Int32Array;
  private readonly Nend: Int32Array;
  /**
   * Per entry t of a row pattern (Np, Nj): 1 when column pair Nj[t] + 2 follows it (t + 1) as its parent in one
   * supernode (column Nj[t] + 1 is row Nj[t] + 2 followed by the rows of column Nj[t] + 2): the kernel then applies
   * the two node columns in one pass over their shared rows (factorPairedKernel).
   */
  private readonly Nfuse: Uint8Array;

  /**
   * analysis 'dofs' runs the symbolic analysis on single rows even where the node-level one applies (the tests
   * compare the two: they give the same factor structure, so the same factor bit for bit).
   */
  constructor(p: SymPattern, perm?: Int32Array, analysis: 'auto' | 'dofs' = 'auto') {
    primeKernels();
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
    const nnzA = p.colPtr[n];
    const work = new Int32Array(n);
    const nodes = analysis === 'auto' ? nodeUpper(n, this.perm, pinv, p.colPtr, p.rowIdx) : null;

    if (nodes !== null) {
      // node blocks on a node ordering (every matrix the engine builds): the permuted upper triangle C (the numeric
      // factorization's input) from the node-level one, and the analysis on the n/2 nodes, expanded
      this.Cp = nodes.dofCp;
      this.Ci = nodes.dofCi;
      this.Csrc = nodes.dofCsrc;
      const s = nodeSymbolic(n, nodes.Cp, nodes.Ci, work);
      this.parent = s.parent;
      this.Lp = s.Lp;
      this.Li = s.Li;
      this.nnzL = s.Lp[n]!;
      // the row patterns of single rows serve the scalar factorization only, which a paired factor never runs
      this.Rp = new Int32Array(n + 1);
      this.Rj = new Int32Array(0);
      this.Rslot = new Int32Array(0);
      this.paired = true;
      this.Np = s.Np;
      this.Nj = s.Nj;
      this.Nend = s.Nend;
      this.Nfuse = s.Nfuse;
    } else {
      // --- permuted upper triangle C = triu(P A P^T) by columns (the numeric factorization's input)
      const Cp = new Int32Array(n + 1);
      const Ci = new Int32Array(nnzA);
      const Csrc = new Int32Array(nnzA);
      permutedUpper(n, pinv, p.colPtr, p.rowIdx, Cp, Ci, Csrc);
      this.Cp = Cp;
      this.Ci = Ci;
      this.Csrc = Csrc;

      // --- elimination tree (Liu, with path compression)
      const parent = new Int32Array(n);
      eliminationTree(n, Cp, Ci, parent, work);
      this.parent = parent;

      // --- row patterns: pass 1 counts, pass 2 stores (topological order)
      const colCount = new Int32Array(n);
      const Rp = new Int32Array(n + 1);
      rowCounts(n, Cp, Ci, parent, work, colCount, Rp);
      const nnzL = Rp[n];
      this.nnzL = nnzL;
      const Lp = new Int32Array(n + 1);
      for (let j = 0; j < n; j++) Lp[j + 1] = Lp[j] + colCount[j];
      const Li = new Int32Array(nnzL);
      const Rj = new Int32Array(nnzL);
      const Rslot = new Int32Array(nnzL);
      rowPatterns(n, Cp, Ci, parent, work, Rp, Lp, Li, Rj, Rslot);
      this.Lp = Lp;
      this.Li = Li;
      this.Rp = Rp;
      this.Rj = Rj;
      this.Rslot = Rslot;
      const blocks = SparseLDLT.pairBlocks(n, Rp, Rj, Rslot, Lp, Li);
      this.paired = blocks !== null;
      this.Np = blocks ? blocks.Np : new Int32Array(0);
      this.Nj = blocks ? blocks.Nj : new Int32Array(0);
      this.Nend = blocks ? blocks.Nend : new Int32Array(0);
      this.Nfuse = blocks ? SparseLDLT.fusedPairs(n, this.Np, this.Nj, Lp, Li) : new Uint8Array(0);
    }
    this.Lx = new Float64Array(this.nnzL);
    this.D = new Float64Array(n);
    this.invD = new Float64Array(n);
    this.y = new Float64Array(n);
    this.y2 = new Float64Array(this.paired ? 2 * n : 0);
    this.skip = new Uint8Array(this.paired ? n / 2 : 0);
  }

  /**
   * 2x2 block structure check: for every pair (a, b) = (2K, 2K+1), row b of L
   * is row a plus column a, stored right below row a in every column; and
   * column 2J is row 2J+1 followed by the rows of column 2J+1. Then the row
   * pattern of row a is a union of column pairs (2J, 2J+1); returns them in
   * topological order (Nj holds 2J, Nend the slot of L(a, 2J)), or null.
   */
  private static pairBlocks(
    n: number,
    Rp: Int32Array,
    Rj: Int32Array,
    Rslot: Int32Array,
    Lp: Int32Array,
    Li: Int32Array,
  ): { Np: Int32Array; Nj: Int32Array; Nend: Int32Array } | null {
    if (n % 2 !== 0 || n === 0) return null;
    for (let a = 0; a < n; a += 2) {
      const b = a + 1;
      if (Rp[b + 1] - Rp[b] !== Rp[a + 1] - Rp[a] + 1) return null;
      if (Lp[a + 1] === Lp[a] || Li[Lp[a]] !== b) return null;
      for (let t = Rp[a]; t < Rp[a + 1]; t++) {
        const s = Rslot[t] + 1;
        if (s >= Li.length || Li[s] !== b) return null;
      }
      // column a = [b] + column b
      const ca = Lp[a + 1] - Lp[a];
      const cb = Lp[b + 1] - Lp[b];
      if (ca !== cb + 1) return null;
      for (let q = 0; q < cb; q++) if (Li[Lp[a] + 1 + q] !== Li[Lp[b] + q]) return null;
    }
    const Np = new Int32Array(n / 2 + 1);
    for (let a = 0; a < n; a += 2) {
      let c = 0;
      for (let t = Rp[a]; t < Rp[a + 1]; t++) if ((Rj[t] & 1) === 0) c++;
      if (2 * c !== Rp[a + 1] - Rp[a]) return null;
      Np[(a >> 1) + 1] = Np[a >> 1] + c;
    }
    const Nj = new Int32Array(Np[n / 2]);
    const Nend = new Int32Array(Np[n / 2]);
    let u = 0;
    for (let a = 0; a < n; a += 2) {
      for (let t = Rp[a]; t < Rp[a + 1]; t++) {
        const j = Rj[t];
        if ((j & 1) !== 0) continue;
        Nj[u] = j;
        Nend[u] = Rslot[t];
        u++;
      }
    }
    return { Np, Nj, Nend };
  }

  /**
   * Nfuse (see the field): t and t + 1 in the same row's pattern, Nj[t + 1] = Nj[t] + 2 = k, and column k − 1 is
   * row k followed by exactly the rows of column k (then so is column k − 2 after its rows k − 1, k, k + 1).
   */
  private static fusedPairs(n: number, Np: Int32Array, Nj: Int32Array, Lp: Int32Array, Li: Int32Array): Uint8Array {
    const fuse = new Uint8Array(Np[n / 2]!);
    for (let a = 0; a < n; a += 2) {
      const r1 = Np[(a >> 1) + 1]!;
      for (let t = Np[a >> 1]!; t + 1 < r1; t++) {
        const k = Nj[t]! + 2;
        if (Nj[t + 1] !== k) continue;
        const j1 = k - 1, c1 = Lp[j1 + 1]! - Lp[j1]!, ck = Lp[k + 1]! - Lp[k]!;
        if (c1 !== ck + 1 || Li[Lp[j1]!] !== k) continue;
        let same = true;
        for (let q = 0; q < ck && same; q++) same = Li[Lp[j1]! + 1 + q] === Li[Lp[k]! + q];
        if (!same) continue;
        fuse[t] = 1;
        t++; // pairs do not chain: t + 1 is applied with t
      }
    }
    return fuse;
  }

  /**
   * Numeric factorization of the matrix with this pattern and `values`.
   * Returns false (and leaves the factor unusable) if a pivot is non-finite or
   * |d_k| <= 1e-13 * max_i |A_ii|.
   *
   * held (per particle, dofs 2i, 2i+1; paired factors only): the rows of held particles (the Newton
   * solver's held islands, src/solver/islands.ts) are not computed but set to those of an identity
   * block (zero off the diagonal, D = 1), whatever the matrix holds there. The solver relies on it
   * with a matrix that couples no held island to the rest and a right-hand side that is zero on its
   * rows: the solution is then zero there and, on every other row, bit-identical to that of the full
   * factorization (the entries of L between islands are exact zeros either way).
   * held = KEEP_ROWS (2): the rows are left as the last factorization made them (an island that
   * has converged within a Newton solve, src/solver/newton.ts `islandConvergence`); the caller has
   * made them couple to no other island first (isolateKeptRows).
   */
  factor(values: Float64Array, held: Uint8Array | null = null): boolean {
    if (this.paired) return this.factorPaired(values, held);
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
    this.factored = false;
    this.failedAt = -1;
    y.fill(0);
    for (let k = 0; k < n; k++) {
      // y = A(0:k, k) of the permuted matrix
      const c1 = Cp[k + 1];
      for (let q = Cp[k]; q < c1; q++) y[Ci[q]] += values[Csrc[q]];
      let dk = y[k];
      const tol = LDLT_PIVOT_TOL * Math.abs(dk);
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

  /**
   * Numeric factorization on 2x2 node blocks (see `paired`): rows 2K, 2K+1 of
   * L are computed together, and columns 2J, 2J+1 are applied together, so
   * every row index loaded in the inner loop carries 4 multiply-adds.
   */
  private factorPaired(values: Float64Array, held: Uint8Array | null): boolean {
    this.factored = false;
    this.failedAt = -1;
    const skip = this.skip;
    if (held !== null) skipRows(this.n, this.perm, held, skip);
    else skip.fill(0);
    const failed = factorPairedKernel(
      this.n, this.Cp, this.Ci, this.Csrc, this.Np, this.Nj, this.Nend, this.Nfuse, this.Lp, this.Li, this.Lx, this.D, this.invD, this.y2, values, skip,
    );
    if (failed >= 0) {
      this.failedAt = failed;
      return false;
    }
    this.factored = true;
    return true;
  }

  /**
   * Zero the entries of L in the rows of particles with held[p] = KEEP_ROWS that lie in a column of
   * another island (label[p] per particle): kept rows then couple to nothing outside their island,
   * and a factorization with them kept is the exact one on every other island. Rows factored in an
   * earlier step may have been part of a larger island then; their within-island part stays a
   * positive definite factor (of that island's Schur complement then). Paired factors only.
   */
  isolateKeptRows(held: Uint8Array, label: Int32Array): void {
    const perm = this.perm, Np = this.Np, Nj = this.Nj, Nend = this.Nend, Lp = this.Lp, Lx = this.Lx;
    for (let a = 0; a < this.n; a += 2) {
      const p = perm[a]! >> 1;
      if (held[p] !== KEEP_ROWS) continue;
      const own = label[p]!;
      for (let t = Np[a >> 1]!, r1 = Np[(a >> 1) + 1]!; t < r1; t++) {
        const j0 = Nj[t]!;
        if (label[perm[j0]! >> 1] === own) continue;
        const end0 = Nend[t]!; // L(a, j0), then L(a+1, j0)
        const end1 = end0 + Lp[j0 + 1]! - Lp[j0]! - 1; // L(a, j0+1), then L(a+1, j0+1)
        Lx[end0] = 0;
        Lx[end0 + 1] = 0;
        Lx[end1] = 0;
        Lx[end1 + 1] = 0;
      }
    }
  }

  /** Load a factorization taken from this symbolic structure (snapshots): L's values and D. False when the sizes differ. */
  loadFactor(Lx: Float64Array, D: Float64Array): boolean {
    if (Lx.length !== this.nnzL || D.length !== this.n) return false;
    this.Lx.set(Lx);
    this.D.set(D);
    this.skip.fill(0); // a whole factor: no rows held
    for (let k = 0; k < this.n; k++) this.invD[k] = 1 / D[k]!;
    this.factored = true;
    this.failedAt = -1;
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
    if (this.paired) {
      // each loop in its own function: V8 then optimizes them as whole functions instead of
      // through on-stack replacement of solve(), whose OSR code deoptimized after the first loop
      permuteIn(n, perm, b, w);
      forwardPaired(n, Lp, Li, Lx, w);
      backwardPaired(n, Lp, Li, Lx, invD, this.skip, w);
      permuteOut(n, perm, w, x);
      return;
    }
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

/**
 * Rows a, a + 1 of L become those of an identity block: zero off the diagonal, D = 1. A row's entries
 * are only written when the row itself is factored, so this is the whole of a skipped row.
 */
/** C = triu(P A P^T) by columns (Cp, Ci) with Csrc, the slot of each entry in A's values. */
function permutedUpper(
  n: number, pinv: Int32Array, colPtr: Int32Array, rowIdx: Int32Array, Cp: Int32Array, Ci: Int32Array, Csrc: Int32Array,
): void {
  for (let j = 0; j < n; j++) {
    const pj = pinv[j]!;
    for (let q = colPtr[j]!; q < colPtr[j + 1]!; q++) {
      const pi = pinv[rowIdx[q]!]!;
      Cp[(pi > pj ? pi : pj) + 1]++;
    }
  }
  for (let k = 0; k < n; k++) Cp[k + 1] = Cp[k + 1]! + Cp[k]!;
  const fillC = Cp.slice(0, n);
  for (let j = 0; j < n; j++) {
    const pj = pinv[j]!;
    for (let q = colPtr[j]!; q < colPtr[j + 1]!; q++) {
      const pi = pinv[rowIdx[q]!]!;
      const col = pi > pj ? pi : pj;
      const t = fillC[col]!;
      fillC[col] = t + 1;
      Ci[t] = pi > pj ? pj : pi;
      Csrc[t] = q;
    }
  }
}

/** parent ← the elimination tree of C (Liu's algorithm with path compression; ancestor is scratch). */
function eliminationTree(n: number, Cp: Int32Array, Ci: Int32Array, parent: Int32Array, ancestor: Int32Array): void {
  for (let k = 0; k < n; k++) {
    parent[k] = -1;
    ancestor[k] = -1;
    for (let q = Cp[k]!; q < Cp[k + 1]!; q++) {
      let i = Ci[q]!;
      while (i !== -1 && i < k) {
        const inext = ancestor[i]!;
        ancestor[i] = k;
        if (inext === -1) parent[i] = k;
        i = inext;
      }
    }
  }
}

/** colCount ← the entries of each column of L, Rp ← the row pointers of L's rows (flag is scratch). */
function rowCounts(n: number, Cp: Int32Array, Ci: Int32Array, parent: Int32Array, flag: Int32Array, colCount: Int32Array, Rp: Int32Array): void {
  for (let k = 0; k < n; k++) {
    flag[k] = k;
    let cnt = 0;
    for (let q = Cp[k]!; q < Cp[k + 1]!; q++) {
      let i = Ci[q]!;
      while (flag[i] !== k) {
        flag[i] = k;
        colCount[i]++;
        cnt++;
        i = parent[i]!;
      }
    }
    Rp[k + 1] = Rp[k]! + cnt;
  }
}

/**
 * Row patterns of L: row k's columns Rj[Rp[k] .. Rp[k+1]−1] in topological order, each column's rows Li in
 * ascending order, and Rslot, where L(k, Rj[t]) is stored in Lx. flag is scratch.
 */
function rowPatterns(
  n: number, Cp: Int32Array, Ci: Int32Array, parent: Int32Array, flag: Int32Array,
  Rp: Int32Array, Lp: Int32Array, Li: Int32Array, Rj: Int32Array, Rslot: Int32Array,
): void {
  const fillL = Lp.slice(0, n);
  const stack = new Int32Array(n);
  flag.fill(-1);
  for (let k = 0; k < n; k++) {
    flag[k] = k;
    let top = Rp[k + 1]!;
    for (let q = Cp[k]!; q < Cp[k + 1]!; q++) {
      let i = Ci[q]!;
      let len = 0;
      while (flag[i] !== k) {
        stack[len++] = i;
        flag[i] = k;
        i = parent[i]!;
      }
      // the path was found leaf -> root; it goes to the end of the
      // pattern so that every column comes after its descendants
      while (len > 0) Rj[--top] = stack[--len]!;
    }
    for (let t = Rp[k]!; t < Rp[k + 1]!; t++) {
      const j = Rj[t]!;
      const slot = fillL[j]!;
      fillL[j] = slot + 1;
      Li[slot] = k;
      Rslot[t] = slot;
    }
  }
}

/**
 * The node-level upper triangle of P A P^T, when A is made of whole 2×2 node blocks (dofs 2i, 2i + 1; the diagonal
 * blocks present) and P moves nodes, keeping each node's two dofs together and in order; null otherwise. Node
 * column M (node row I ≤ M of the permuted matrix) lists its rows in ascending order of the original node, the
 * order in which the dof-level C (permutedUpper) first meets each node in column 2M: so the node-level row patterns
 * (rowPatterns) come out in the order of the dof-level ones' even columns, and the factor's sums in the same order.
 */
function nodeUpper(
  n: number, perm: Int32Array, pinv: Int32Array, colPtr: Int32Array, rowIdx: Int32Array,
): { Cp: Int32Array; Ci: Int32Array; dofCp: Int32Array; dofCi: Int32Array; dofCsrc: Int32Array } | null {
  if (n === 0 || (n & 1) !== 0) return null;
  const m = n >> 1;
  for (let K = 0; K < m; K++) if ((perm[2 * K]! & 1) !== 0 || perm[2 * K + 1] !== perm[2 * K]! + 1) return null;
  // column 2c holds rows 2c, 2c + 1, then pairs 2r, 2r + 1 (r > c, ascending); column 2c + 1 holds 2c + 1 and the same pairs
  let nnz = 0;
  for (let c = 0; c < m; c++) {
    const a0 = colPtr[2 * c]!, a1 = colPtr[2 * c + 1]!, len = a1 - a0;
    if (len < 2 || (len & 1) !== 0 || colPtr[2 * c + 2]! - a1 !== len - 1) return null;
    if (rowIdx[a0] !== 2 * c || rowIdx[a0 + 1] !== 2 * c + 1 || rowIdx[a1] !== 2 * c + 1) return null;
    for (let q = 2; q < len; q += 2) {
      const r = rowIdx[a0 + q]!;
      if ((r & 1) !== 0 || rowIdx[a0 + q + 1] !== r + 1 || rowIdx[a1 + q - 1] !== r || rowIdx[a1 + q] !== r + 1) return null;
    }
    nnz += len >> 1;
  }
  const pn = new Int32Array(m);
  for (let c = 0; c < m; c++) pn[c] = pinv[2 * c]! >> 1;
  const Cp = new Int32Array(m + 1);
  const Ci = new Int32Array(nnz);
  for (let c = 0; c < m; c++) {
    const pc = pn[c]!;
    for (let q = colPtr[2 * c]!, q1 = colPtr[2 * c + 1]!; q < q1; q += 2) {
      const pr = pn[rowIdx[q]! >> 1]!;
      Cp[(pr > pc ? pr : pc) + 1]++;
    }
  }
  for (let k = 0; k < m; k++) Cp[k + 1] = Cp[k + 1]! + Cp[k]!;
  const fill = Cp.slice(0, m);
  // the dof-level C as well: column 2M holds rows 2I, 2I + 1 of each node I < M in node column M and its diagonal,
  // column 2M + 1 the same rows and 2M, 2M + 1. Within a column the entries come in another order than
  // permutedUpper's, which does not change the factor: the numeric factorization adds each into its own zero.
  const dofCp = new Int32Array(n + 1);
  for (let M = 0; M < m; M++) {
    const cnt = Cp[M + 1]! - Cp[M]!;
    dofCp[2 * M + 1] = dofCp[2 * M]! + 2 * cnt - 1;
    dofCp[2 * M + 2] = dofCp[2 * M + 1]! + 2 * cnt;
  }
  const dofCi = new Int32Array(dofCp[n]!);
  const dofCsrc = new Int32Array(dofCp[n]!);
  const fill0 = new Int32Array(m), fill1 = new Int32Array(m);
  for (let M = 0; M < m; M++) {
    fill0[M] = dofCp[2 * M]!;
    fill1[M] = dofCp[2 * M + 1]!;
  }
  for (let c = 0; c < m; c++) {
    const pc = pn[c]!;
    const q0 = colPtr[2 * c]!, len = colPtr[2 * c + 1]! - q0;
    for (let q = q0; q < q0 + len; q += 2) {
      const pr = pn[rowIdx[q]! >> 1]!;
      const col = pr > pc ? pr : pc, row = pr > pc ? pc : pr;
      Ci[fill[col]!++] = row;
      if (q === q0) {
        // the node's diagonal block: (2c, 2c) at q, (2c + 1, 2c) at q + 1, (2c + 1, 2c + 1) leads column 2c + 1
        dofCi[fill0[col]!] = 2 * col;
        dofCsrc[fill0[col]!++] = q;
        dofCi[fill1[col]!] = 2 * col;
        dofCsrc[fill1[col]!++] = q + 1;
        dofCi[fill1[col]!] = 2 * col + 1;
        dofCsrc[fill1[col]!++] = q0 + len;
        continue;
      }
      // original rows 2r + x and columns 2c + y (r > c) sit at slot (y = 0 ? q : q + len − 1) + x
      for (let i = 0; i < 2; i++) {
        for (let j = 0; j < 2; j++) {
          // permuted row 2·row + i, column 2·col + j; pr > pc: the column is node r (x = j, y = i), else node c
          const slot = pr > pc ? (i === 0 ? q : q + len - 1) + j : (j === 0 ? q : q + len - 1) + i;
          const at = j === 0 ? fill0[col]!++ : fill1[col]!++;
          dofCi[at] = 2 * row + i;
          dofCsrc[at] = slot;
        }
      }
    }
  }
  return { Cp, Ci, dofCp, dofCi, dofCsrc };
}

/**
 * The symbolic analysis of a node-blocked matrix on a node ordering (nodeUpper), run on its m = n/2 nodes and expanded
 * to the dof-level structure SparseLDLT.pairBlocks and fusedPairs would find on single rows: the node etree K → P
 * is the dof etree 2K → 2K + 1 → 2P; dof column 2J holds row 2J + 1 and then the rows of column 2J + 1, which are
 * rows 2M, 2M + 1 for each node M in node column J, ascending. work is scratch of n entries at least.
 */
function nodeSymbolic(n: number, Cp: Int32Array, Ci: Int32Array, work: Int32Array): {
  parent: Int32Array; Lp: Int32Array; Li: Int32Array; Np: Int32Array; Nj: Int32Array; Nend: Int32Array; Nfuse: Uint8Array;
} {
  const m = n >> 1;
  const up = new Int32Array(m);
  eliminationTree(m, Cp, Ci, up, work);
  const count = new Int32Array(m);
  const Np = new Int32Array(m + 1);
  rowCounts(m, Cp, Ci, up, work, count, Np);
  const nnz = Np[m]!;
  const nLp = new Int32Array(m + 1);
  for (let J = 0; J < m; J++) nLp[J + 1] = nLp[J]! + count[J]!;
  const nLi = new Int32Array(nnz);
  const nRj = new Int32Array(nnz);
  const nRslot = new Int32Array(nnz);
  rowPatterns(m, Cp, Ci, up, work, Np, nLp, nLi, nRj, nRslot);

  const parent = new Int32Array(n);
  const Lp = new Int32Array(n + 1);
  for (let J = 0; J < m; J++) {
    const c = count[J]!;
    parent[2 * J] = 2 * J + 1;
    parent[2 * J + 1] = up[J]! < 0 ? -1 : 2 * up[J]!;
    Lp[2 * J + 1] = Lp[2 * J]! + 1 + 2 * c;
    Lp[2 * J + 2] = Lp[2 * J + 1]! + 2 * c;
  }
  const Li = new Int32Array(Lp[n]!);
  for (let J = 0; J < m; J++) {
    const p0 = Lp[2 * J]!, p1 = Lp[2 * J + 1]!;
    Li[p0] = 2 * J + 1;
    for (let s = 0, q = nLp[J]!, q1 = nLp[J + 1]!; q < q1; q++, s += 2) {
      const M = nLi[q]!;
      Li[p0 + 1 + s] = 2 * M;
      Li[p0 + 2 + s] = 2 * M + 1;
      Li[p1 + s] = 2 * M;
      Li[p1 + s + 1] = 2 * M + 1;
    }
  }
  // row pair (2M, 2M + 1) applies node columns J = nRj[t] in node M's order; L(2M, 2J) sits after row 2J + 1 in column 2J
  const Nj = new Int32Array(nnz);
  const Nend = new Int32Array(nnz);
  for (let t = 0; t < nnz; t++) {
    const J = nRj[t]!;
    Nj[t] = 2 * J;
    Nend[t] = Lp[2 * J]! + 1 + 2 * (nRslot[t]! - nLp[J]!);
  }
  // node J + 1 nests in node J (one supernode: node column J is row J + 1, then exactly node column J + 1's rows)
  const nests = new Uint8Array(m);
  for (let J = 0; J + 1 < m; J++) {
    const q = nLp[J]!, c = count[J]!;
    if (c !== count[J + 1]! + 1 || nLi[q] !== J + 1) continue;
    let same = true;
    for (let r = 1, q2 = nLp[J + 1]!; r < c && same; r++) same = nLi[q + r] === nLi[q2 + r - 1];
    nests[J] = same ? 1 : 0;
  }
  const Nfuse = new Uint8Array(nnz);
  for (let M = 0; M < m; M++) {
    const r1 = Np[M + 1]!;
    for (let t = Np[M]!; t + 1 < r1; t++) {
      const J = nRj[t]!;
      if (nRj[t + 1] !== J + 1 || nests[J] !== 1) continue;
      Nfuse[t] = 1;
      t++; // pairs do not chain: t + 1 is applied with t
    }
  }
  return { parent, Lp, Li, Np, Nj, Nend, Nfuse };
}

function identityRows(
  a: number, Np: Int32Array, Nj: Int32Array, Nend: Int32Array, Lp: Int32Array, Lx: Float64Array, D: Float64Array, invD: Float64Array,
): void {
  for (let t = Np[a >> 1]!, r1 = Np[(a >> 1) + 1]!; t < r1; t++) {
    const j0 = Nj[t]!, end0 = Nend[t]!, off = Lp[j0 + 1]! - Lp[j0]! - 1;
    Lx[end0] = 0;
    Lx[end0 + 1] = 0;
    Lx[end0 + off] = 0;
    Lx[end0 + off + 1] = 0;
  }
  Lx[Lp[a]!] = 0;
  D[a] = 1;
  D[a + 1] = 1;
  invD[a] = 1;
  invD[a + 1] = 1;
}

/** held / skip code of rows a factorization leaves as they are (SparseLDLT.factor). */
export const KEEP_ROWS = 2;

/** skip[K] ← 1 when the particles of permuted dofs 2K and 2K+1 (one particle on a node ordering) are held. */
function skipRows(n: number, perm: Int32Array, held: Uint8Array, skip: Uint8Array): void {
  for (let a = 0; a < n; a += 2) skip[a >> 1] = held[perm[a]! >> 1]! & held[perm[a + 1]! >> 1]!;
}

function permuteIn(n: number, perm: Int32Array, b: Float64Array, w: Float64Array): void {
  for (let k = 0; k < n; k++) w[k] = b[perm[k]];
}

function permuteOut(n: number, perm: Int32Array, w: Float64Array, x: Float64Array): void {
  for (let k = 0; k < n; k++) x[perm[k]] = w[k];
}

/**
 * The triangular solves on 2x2 node blocks (see SparseLDLT.paired): rows of every column come in
 * pairs (2K, 2K+1), so one row index serves two (L w) or four (Lᵀ w) multiply-adds. Same
 * operations in the same order per entry as the scalar loops, so the result is bit-for-bit
 * identical.
 */
function forwardPaired(n: number, Lp: Int32Array, Li: Int32Array, Lx: Float64Array, w: Float64Array): void {
  // L w = b: columns j0 = 2J, j1 = 2J+1 together; column j0 = [j1] + rows of column j1
  for (let j0 = 0; j0 < n; j0 += 2) {
    const j1 = j0 + 1;
    const p0 = Lp[j0];
    const p1 = Lp[j1];
    const q1 = Lp[j1 + 1];
    const w0 = w[j0];
    let w1 = w[j1];
    if (w0 !== 0) w1 -= Lx[p0] * w0;
    w[j1] = w1;
    const off = p1 - p0 - 1;
    if (w0 !== 0 && w1 !== 0) {
      for (let q = p1; q < q1; q += 2) {
        const i = Li[q];
        const r = q - off; // same rows in column j0
        w[i] = w[i] - Lx[r] * w0 - Lx[q] * w1;
        w[i + 1] = w[i + 1] - Lx[r + 1] * w0 - Lx[q + 1] * w1;
      }
    } else if (w0 !== 0) {
      for (let q = p1; q < q1; q += 2) {
        const i = Li[q];
        const r = q - off;
        w[i] -= Lx[r] * w0;
        w[i + 1] -= Lx[r + 1] * w0;
      }
    } else if (w1 !== 0) {
      for (let q = p1; q < q1; q += 2) {
        const i = Li[q];
        w[i] -= Lx[q] * w1;
        w[i + 1] -= Lx[q + 1] * w1;
      }
    }
  }
}

function backwardPaired(
  n: number, Lp: Int32Array, Li: Int32Array, Lx: Float64Array, invD: Float64Array, skip: Uint8Array, w: Float64Array,
): void {
  // D, then Lᵀ: column j1 first, then j0 (which starts with row j1)
  for (let j0 = n - 2; j0 >= 0; j0 -= 2) {
    // rows set to identity by the factorization (held): D = 1 and only zeros below, so w stays
    if (skip[j0 >> 1] === 1) continue;
    const j1 = j0 + 1;
    const p0 = Lp[j0];
    const p1 = Lp[j1];
    const q1 = Lp[j1 + 1];
    const off = p1 - p0 - 1;
    let s1 = w[j1] * invD[j1];
    for (let q = p1; q < q1; q += 2) {
      const i = Li[q];
      s1 -= Lx[q] * w[i];
      s1 -= Lx[q + 1] * w[i + 1];
    }
    w[j1] = s1;
    let s0 = w[j0] * invD[j0];
    s0 -= Lx[p0] * s1;
    for (let q = p1; q < q1; q += 2) {
      const i = Li[q];
      const r = q - off;
      s0 -= Lx[r] * w[i];
      s0 -= Lx[r + 1] * w[i + 1];
    }
    w[j0] = s0;
  }
}

/**
 * Numeric factorization on 2x2 node blocks (SparseLDLT.factorPaired): a module function of typed
 * arrays only, with nothing after its loop but `return -1`, so V8's optimized code needs no
 * feedback that the first (on-stack-replaced) call could not collect. Returns the row whose pivot
 * failed, or -1.
 */
function factorPairedKernel(
  n: number, Cp: Int32Array, Ci: Int32Array, Csrc: Int32Array, Np: Int32Array, Nj: Int32Array, Nend: Int32Array, Nfuse: Uint8Array,
  Lp: Int32Array, Li: Int32Array, Lx: Float64Array, D: Float64Array, invD: Float64Array, y: Float64Array,
  values: Float64Array, skip: Uint8Array,
): number {
  y.fill(0);
  for (let a = 0; a < n; a += 2) {
    const b = a + 1;
    const sk = skip[a >> 1];
    if (sk === 1) {
      identityRows(a, Np, Nj, Nend, Lp, Lx, D, invD); // a held particle's rows (SparseLDLT.factor)
      continue;
    }
    if (sk === KEEP_ROWS) continue; // a converged island's rows, as the last factorization left them
    for (let q = Cp[a], c1 = Cp[a + 1]; q < c1; q++) y[Ci[q] << 1] += values[Csrc[q]];
    for (let q = Cp[b], c1 = Cp[b + 1]; q < c1; q++) y[(Ci[q] << 1) + 1] += values[Csrc[q]];
    let da = y[a << 1];
    let db = y[(b << 1) + 1];
    const tola = LDLT_PIVOT_TOL * Math.abs(da), tolb = LDLT_PIVOT_TOL * Math.abs(db);
    let yba = y[(a << 1) + 1]; // row b, column a
    y[a << 1] = 0;
    y[(b << 1) + 1] = 0;
    y[(a << 1) + 1] = 0;
    const r1 = Np[(a >> 1) + 1];
    for (let t = Np[a >> 1]; t < r1; t++) {
      const j0 = Nj[t]; // columns j0 = 2J and j1 = 2J+1
      const j1 = j0 + 1;
      const i0 = j0 << 1;
      let ya0 = y[i0];
      let ya1 = y[i0 + 1];
      let yb0 = y[i0 + 2];
      let yb1 = y[i0 + 3];
      y[i0] = 0;
      y[i0 + 1] = 0;
      y[i0 + 2] = 0;
      y[i0 + 3] = 0;
      const p0 = Lp[j0];
      const l10 = Lx[p0]; // L(j1, j0)
      yb0 -= l10 * ya0;
      yb1 -= l10 * ya1;
      const end0 = Nend[t]; // slot of L(a, j0)
      const off = Lp[j1] - p0 - 1; // same row in column j1
      // node J + 1's values (a supernode pair, below)
      const fused = Nfuse[t] === 1;
      let za0 = 0;
      let za1 = 0;
      let zb0 = 0;
      let zb1 = 0;
      let offk = 0;
      if (fused) {
        // Node J + 1 (columns k0 = j0 + 2, k0 + 1) is the pattern's next entry and node J's parent in one
        // supernode: node J's rows k0, k0 + 1 come first in its columns, then both nodes' columns hold the same
        // rows. One pass over those rows applies node J's term and then node J + 1's to every y entry: the
        // operations of the two passes node by node, in their order, so the factor is bit for bit theirs.
        const k0 = j0 + 2;
        const ik = k0 << 1;
        const u0 = Lx[p0 + 1]; // L(k0, j0), L(k0, j1)
        const v0 = Lx[p0 + 1 + off];
        const u1 = Lx[p0 + 2]; // L(k0 + 1, j0), L(k0 + 1, j1)
        const v1 = Lx[p0 + 2 + off];
        za0 = y[ik] - (u0 * ya0 + v0 * yb0);
        za1 = y[ik + 1] - (u0 * ya1 + v0 * yb1);
        zb0 = y[ik + 2] - (u1 * ya0 + v1 * yb0);
        zb1 = y[ik + 3] - (u1 * ya1 + v1 * yb1);
        y[ik] = 0;
        y[ik + 1] = 0;
        y[ik + 2] = 0;
        y[ik + 3] = 0;
        const pk = Lp[k0];
        const lk = Lx[pk]; // L(k0 + 1, k0)
        zb0 -= lk * za0;
        zb1 -= lk * za1;
        offk = Lp[k0 + 1] - pk - 1;
        for (let q = p0 + 3, r = pk + 1; q < end0; q++, r++) {
          const i2 = Li[q] << 1;
          const u = Lx[q];
          const v = Lx[q + off];
          const w = Lx[r];
          const z = Lx[r + offk];
          y[i2] = y[i2] - (u * ya0 + v * yb0) - (w * za0 + z * zb0);
          y[i2 + 1] = y[i2 + 1] - (u * ya1 + v * yb1) - (w * za1 + z * zb1);
        }
      } else {
        for (let q = p0 + 1; q < end0; q++) {
          const i2 = Li[q] << 1;
          const u = Lx[q];
          const v = Lx[q + off];
          y[i2] -= u * ya0 + v * yb0;
          y[i2 + 1] -= u * ya1 + v * yb1;
        }
      }
      // rows a and b of L in node J's columns and their terms of da, yba, db; then, for a pair, node J + 1's
      let j = j0;
      let end = end0;
      let o = off;
      for (;;) {
        const id0 = invD[j];
        const la0 = ya0 * id0;
        const lb0 = ya1 * id0;
        Lx[end] = la0;
        Lx[end + 1] = lb0;
        const id1 = invD[j + 1];
        const la1 = yb0 * id1;
        const lb1 = yb1 * id1;
        const end1 = end + o;
        Lx[end1] = la1;
        Lx[end1 + 1] = lb1;
        da -= la0 * ya0 + la1 * yb0;
        yba -= la0 * ya1 + la1 * yb1;
        db -= lb0 * ya1 + lb1 * yb1;
        if (!fused || j !== j0) break;
        t++;
        j = j0 + 2;
        end = Nend[t]; // slot of L(a, j0 + 2)
        o = offk;
        ya0 = za0;
        ya1 = za1;
        yb0 = zb0;
        yb1 = zb1;
      }
    }
    let ad = Math.abs(da);
    if (!(ad > tola) || ad === Infinity) {
      D[a] = da;
      return a;
    }
    D[a] = da;
    const ida = 1 / da;
    invD[a] = ida;
    const lba = yba * ida;
    Lx[Lp[a]] = lba;
    db -= lba * yba;
    ad = Math.abs(db);
    if (!(ad > tolb) || ad === Infinity) {
      D[b] = db;
      return b;
    }
    D[b] = db;
    invD[b] = 1 / db;
  }
  return -1;
}

/**
 * V8 (Node 20) allocates a function's feedback vector lazily, after its first ~1 KB of bytecode
 * has run: a kernel whose first call is a long loop has no type feedback for the code before the
 * loop, is compiled on stack replacement mid-call, and its regular optimized code then deopts on
 * the next call at that first statement ("insufficient type feedback"). From then on every call
 * enters the cached OSR code from the interpreter, the function never tiers up on its own, and a
 * full GC (which drops OSR code) left it interpreted for a step: 0.5-2 MB of heap numbers in that
 * step at 1k. So before the first real factorization, the paired kernels run a few dozen times on a
 * 3-node system (microseconds, once per process): every operation then has feedback first.
 */
let primed = false;
function primeKernels(): void {
  if (primed) return;
  primed = true;
  // a chain of two springs, then one triangle: its dense 3-node factor applies two node columns as one supernode
  // pair (Nfuse), the chain's does not, so both branches of factorPairedKernel have feedback
  for (const p of [
    buildPattern(3, 2, [{ k: 2, nodes: Int32Array.from([0, 1, 1, 2]) }]),
    buildPattern(3, 2, [{ k: 3, nodes: Int32Array.from([0, 1, 2]) }]),
  ]) primeOn(p);
}

function primeOn(p: SymPattern): void {
  const f = new SparseLDLT(p);
  // two matrices: coupled x/y within each node, and diagonal node blocks (then a zero right-hand
  // side entry stays zero through the forward solve); right-hand sides with zeros in every
  // pattern the paired solves skip on (both, only the x, only the y dof of a node zero), so
  // the sparse-RHS branches of forwardPaired have type feedback too: a branch first taken in a
  // game (a corotational jelly at 1k) deoptimized it into OSR code re-entered every call
  const coupled = new Float64Array(p.rowIdx.length), blocks = new Float64Array(p.rowIdx.length);
  for (let j = 0; j < p.n; j++) {
    for (let q = p.colPtr[j]; q < p.colPtr[j + 1]; q++) {
      const i = p.rowIdx[q];
      coupled[q] = i === j ? 10 : -1;
      blocks[q] = i === j ? 10 : i >> 1 === j >> 1 ? 0 : -1;
    }
  }
  const rhs = [[1, 1, 1, 1, 1, 1], [1, 0, 1, 0, 1, 0], [0, 1, 0, 1, 0, 1], [0, 0, 1, 1, 0, 0]].map((r) => Float64Array.from(r));
  const x = new Float64Array(p.n);
  // node 2's rows kept (a converged island, KEEP_ROWS) in island 1 with node 0, node 1 in another: isolateKeptRows
  // skips its entries in node 0's columns and zeroes those in node 1's. Its loop body runs first in a game only
  // when an island converges beside one it touched (the jelly page, step ~90 after world.warmUp), and deoptimized there.
  const held = Uint8Array.from([0, 0, KEEP_ROWS]), label = Int32Array.from([1, 0, 1]);
  // and node 1 held (a sleeping or pinned island: identity rows, skipped by the backward solve), first met in a game
  // when one island sleeps beside awake ones (the jelly page with sleeping on, step ~116), where it deoptimized the kernel
  const asleep = Uint8Array.from([0, 1, 0]);
  for (let k = 0; k < 40; k++) {
    f.factor(k % 2 === 0 ? coupled : blocks, k % 4 === 3 ? asleep : null);
    f.isolateKeptRows(held, label);
    f.solve(rhs[(k >> 1) % 4]!, x);
  }
}
