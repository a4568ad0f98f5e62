/**
 * SymmetricSolver: what the integrators use to solve A x = b with a symmetric
 * A of fixed sparsity (one per body topology).
 *
 * Path 1: sparse LDL^T without pivoting on a minimum-degree ordering (symbolic analysis
 * done once in the constructor). The normwise backward error
 *   ||b - A x||_inf / (||A||_inf ||x||_inf + ||b||_inf)
 * is computed from one residual; one step of iterative refinement is done
 * only if it exceeds refineTol, and the result is checked against verifyTol.
 * Path 2: if a pivot is zero/tiny/non-finite, or the backward error check
 * fails (tiny pivots with large growth), fall back to dense LU with full
 * pivoting when n <= denseLimit (default 3000); otherwise throw.
 * A singular matrix (full-pivot LU also fails) throws.
 */
import type { SymPattern } from './pattern.js';
import { symMultiply, symNormInf } from './pattern.js';
import { fillReducingOrder } from './ordering.js';
import { SparseLDLT } from './ldlt.js';
import { DenseLU } from './dense.js';

export interface SymmetricSolverOptions {
  /** Fill-reducing permutation (new -> old). Default: minimum degree on the node graph. */
  perm?: Int32Array;
  /** Dofs per node for the node-level ordering; detected from the pattern when omitted. */
  dofsPerNode?: number;
  /** 'minimum-degree' (default) or 'natural' (identity). Ignored when perm is given. */
  ordering?: 'minimum-degree' | 'natural';
  /** Max steps of iterative refinement after the direct solve (default 1). */
  refineSteps?: number;
  /** Refinement is skipped while the backward error is <= refineTol (default 4e-16: only when it can help). */
  refineTol?: number;
  /** Check the backward error of the LDL^T solution and fall back to dense LU if it is poor (default true). */
  verify?: boolean;
  /** Backward error above which the LDL^T solution is rejected (default 1e-10). */
  verifyTol?: number;
  /** Largest n for the dense LU fallback (default 3000). */
  denseLimit?: number;
}

export type SolverPath = 'ldlt' | 'dense-lu';

export class SymmetricSolver {
  readonly n: number;
  readonly pattern: SymPattern;
  readonly ldlt: SparseLDLT;
  refineSteps: number;
  refineTol: number;
  verify: boolean;
  verifyTol: number;
  readonly denseLimit: number;
  /** Path used by the last factor()/solve(). */
  lastPath: SolverPath = 'ldlt';
  /** Normwise backward error of the last solution (computed when verify or refineSteps > 0). */
  lastBackwardError = 0;
  private dense: DenseLU | null = null;
  private values: Float64Array | null = null;
  private readonly b: Float64Array;
  private readonly r: Float64Array;
  private readonly dx: Float64Array;
  private readonly work: Float64Array;

  constructor(p: SymPattern, opts: SymmetricSolverOptions = {}) {
    this.n = p.n;
    this.pattern = p;
    const perm = opts.perm ?? (opts.ordering === 'natural' ? undefined : fillReducingOrder(p, opts.dofsPerNode));
    this.ldlt = new SparseLDLT(p, perm);
    this.refineSteps = opts.refineSteps ?? 1;
    this.refineTol = opts.refineTol ?? 4e-16;
    this.verify = opts.verify ?? true;
    this.verifyTol = opts.verifyTol ?? 1e-10;
    this.denseLimit = opts.denseLimit ?? 3000;
    this.b = new Float64Array(p.n);
    this.r = new Float64Array(p.n);
    this.dx = new Float64Array(p.n);
    this.work = new Float64Array(p.n);
  }

  /** Factor `values` (kept by reference until the next factor: do not modify in between). Throws if singular. */
  factor(values: Float64Array): SolverPath {
    this.values = values;
    if (this.ldlt.factor(values)) {
      this.lastPath = 'ldlt';
      return 'ldlt';
    }
    this.factorDense(`LDL^T without pivoting broke down at pivot ${this.ldlt.failedAt}`);
    return 'dense-lu';
  }

  private factorDense(reason: string): void {
    const n = this.n;
    const values = this.values as Float64Array;
    if (n > this.denseLimit) {
      throw new Error(
        `SymmetricSolver: ${reason} (matrix indefinite or singular) and n = ${n} exceeds the dense LU fallback limit ${this.denseLimit}`,
      );
    }
    if (!this.dense) this.dense = new DenseLU(n);
    this.dense.loadSymmetric(this.pattern, values);
    if (!this.dense.factorInPlace()) {
      throw new Error(`SymmetricSolver: matrix is singular (full-pivot LU rank ${this.dense.rank} < n = ${n}); ${reason}`);
    }
    this.lastPath = 'dense-lu';
  }

  private direct(b: Float64Array, x: Float64Array): void {
    if (this.lastPath === 'ldlt') this.ldlt.solve(b, x);
    else (this.dense as DenseLU).solve(b, x);
  }

  /** r = b - A x; returns ||r||_inf. */
  private residual(b: Float64Array, x: Float64Array): number {
    const r = this.r;
    symMultiply(this.pattern, this.values as Float64Array, x, r);
    let m = 0;
    for (let i = 0; i < this.n; i++) {
      const v = b[i] - r[i];
      r[i] = v;
      const a = v < 0 ? -v : v;
      if (a > m) m = a;
    }
    return m;
  }

  /** Normwise backward error of out, from the residual currently in r (rn = ||r||_inf). */
  private backwardError(b: Float64Array, out: Float64Array, rn: number, an: number): number {
    let xn = 0;
    let bn = 0;
    for (let i = 0; i < this.n; i++) {
      const ax = out[i] < 0 ? -out[i] : out[i];
      if (ax > xn) xn = ax;
      const ab = b[i] < 0 ? -b[i] : b[i];
      if (ab > bn) bn = ab;
    }
    const denom = an * xn + bn;
    return denom > 0 ? rn / denom : rn === 0 ? 0 : Infinity;
  }

  private solveWithCurrent(b: Float64Array, out: Float64Array): void {
    const n = this.n;
    this.direct(b, out);
    const steps = this.refineSteps;
    const check = this.verify;
    if (steps <= 0 && !check) return;
    const an = symNormInf(this.pattern, this.values as Float64Array, this.work);
    let rn = this.residual(b, out);
    let eta = this.backwardError(b, out, rn, an);
    // refine only when it can help: the backward error is above refineTol
    for (let s = 0; s < steps && eta > this.refineTol; s++) {
      this.direct(this.r, this.dx);
      const dx = this.dx;
      for (let i = 0; i < n; i++) out[i] += dx[i];
      rn = this.residual(b, out);
      eta = this.backwardError(b, out, rn, an);
    }
    this.lastBackwardError = eta;
    if (!(eta <= this.verifyTol) && check && this.lastPath === 'ldlt') {
      // LDL^T "succeeded" with tiny pivots and large growth: redo robustly.
      this.factorDense(`LDL^T solution rejected (backward error ${eta.toExponential(2)})`);
      this.solveWithCurrent(b, out);
    }
  }

  /** Solve with the matrix of the last factor(). rhs and out may alias. */
  solveFactored(rhs: Float64Array, out: Float64Array): void {
    if (!this.values) throw new Error('SymmetricSolver.solveFactored: call factor() first');
    this.b.set(rhs.subarray(0, this.n));
    this.solveWithCurrent(this.b, out);
  }

  /** Factor `values` and solve A out = rhs. rhs and out may alias. */
  solve(values: Float64Array, rhs: Float64Array, out: Float64Array): void {
    this.factor(values);
    this.b.set(rhs.subarray(0, this.n));
    this.solveWithCurrent(this.b, out);
  }
}
