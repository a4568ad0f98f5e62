/**
 * Preconditioned conjugate gradients for symmetric positive definite systems
 * stored as SymPattern + values. No callbacks: the preconditioner is a
 * SparseLDLT factor (possibly of an older matrix — it must be SPD for PCG to
 * be meaningful), an inverse diagonal (Jacobi, see jacobiInverse), or null.
 * All vectors live in a PcgWorkspace allocated once per size.
 *
 * Dot products through the workspace's scratch (dotTo): docs/design.md, "Scratch and calling convention".
 */
import type { SymPattern } from './pattern.js';
import { symMultiply } from './pattern.js';
import { SparseLDLT } from './ldlt.js';

export class PcgWorkspace {
  readonly n: number;
  readonly r: Float64Array;
  readonly z: Float64Array;
  readonly p: Float64Array;
  readonly q: Float64Array;
  /**
   * Scalars passed to and from the loop kernels: sc[0] = α or β into stepXR / nextDirection,
   * sc[1] = the last dot product (dotTo). Not double arguments or return values: V8 boxes those
   * for every call it does not inline.
   */
  readonly sc = new Float64Array(2);
  /** Iterations of the last pcg() call. */
  iterations = 0;
  /** Whether the last pcg() call met the tolerance. */
  converged = false;
  /** ||b - A x||_2 / ||b||_2 at the end of the last call. */
  relResidual = 0;
  /** true if the last call stopped on non-positive curvature (A or M not SPD). */
  breakdown = false;

  constructor(n: number) {
    this.n = n;
    this.r = new Float64Array(n);
    this.z = new Float64Array(n);
    this.p = new Float64Array(n);
    this.q = new Float64Array(n);
  }
}

export type Preconditioner = SparseLDLT | Float64Array | null;

/** out[i] = 1 / A_ii (0 where A_ii is 0): the Jacobi preconditioner for pcg(). */
export function jacobiInverse(p: SymPattern, values: Float64Array, out: Float64Array): void {
  const colPtr = p.colPtr;
  for (let i = 0; i < p.n; i++) {
    const d = values[colPtr[i]];
    out[i] = d !== 0 ? 1 / d : 0;
  }
}

function applyPrecond(m: Preconditioner, r: Float64Array, z: Float64Array, n: number): void {
  if (m === null) {
    z.set(r);
  } else if (m instanceof SparseLDLT) {
    m.solve(r, z);
  } else {
    for (let i = 0; i < n; i++) z[i] = m[i] * r[i];
  }
}

/** out[1] = aᵀb (summed in index order). */
export function dotTo(a: Float64Array, b: Float64Array, n: number, out: Float64Array): void {
  let s = 0;
  for (let i = 0; i < n; i++) s += a[i] * b[i];
  out[1] = s;
}

// The loops of pcg() live in these kernels (no code after a loop but a return): pcg() itself is a
// loop-free driver per iteration, so V8 never compiles it on stack replacement at an inner loop
// during its first call (that OSR code lacked type feedback for the rest of the iteration and was
// re-entered and deoptimized on later calls, running the remaining loops in the interpreter).

/** r = b − q. */
function residual(b: Float64Array, q: Float64Array, r: Float64Array, n: number): void {
  for (let i = 0; i < n; i++) r[i] = b[i] - q[i];
}

/** x += α p, r −= α q, with α = s[0]. */
export function stepXR(s: Float64Array, p: Float64Array, q: Float64Array, x: Float64Array, r: Float64Array, n: number): void {
  const alpha = s[0];
  for (let i = 0; i < n; i++) {
    x[i] += alpha * p[i];
    r[i] -= alpha * q[i];
  }
}

/** p = z + β p, with β = s[0]. */
function nextDirection(s: Float64Array, z: Float64Array, p: Float64Array, n: number): void {
  const beta = s[0];
  for (let i = 0; i < n; i++) p[i] = z[i] + beta * p[i];
}

/**
 * Solve A x = b by PCG starting from the given x (warm start).
 * Stops when ||r||_2 <= tol * ||b||_2 or after maxIter iterations
 * (default: n). Returns the number of iterations; see ws for status.
 */
export function pcg(
  pat: SymPattern,
  values: Float64Array,
  b: Float64Array,
  x: Float64Array,
  precond: Preconditioner,
  ws: PcgWorkspace,
  tol = 1e-10,
  maxIter = -1,
): number {
  const n = pat.n;
  if (ws.n !== n) throw new RangeError(`pcg: workspace has n = ${ws.n}, expected ${n}`);
  const { r, z, p, q } = ws;
  const sc = ws.sc;
  const itMax = maxIter < 0 ? Math.max(n, 1) : maxIter;
  ws.breakdown = false;
  ws.converged = false;
  symMultiply(pat, values, x, q);
  residual(b, q, r, n);
  dotTo(b, b, n, sc);
  const bnorm = Math.sqrt(sc[1]);
  const target = tol * (bnorm > 0 ? bnorm : 1);
  dotTo(r, r, n, sc);
  let rnorm = Math.sqrt(sc[1]);
  let it = 0;
  if (rnorm <= target) {
    ws.iterations = 0;
    ws.converged = true;
    ws.relResidual = bnorm > 0 ? rnorm / bnorm : rnorm;
    return 0;
  }
  applyPrecond(precond, r, z, n);
  p.set(z);
  dotTo(r, z, n, sc);
  let rz = sc[1];
  while (it < itMax) {
    symMultiply(pat, values, p, q);
    dotTo(p, q, n, sc);
    const pq = sc[1];
    if (!(pq > 0) || !(rz > 0)) {
      ws.breakdown = true;
      break;
    }
    sc[0] = rz / pq;
    stepXR(sc, p, q, x, r, n);
    it++;
    dotTo(r, r, n, sc);
    rnorm = Math.sqrt(sc[1]);
    if (rnorm <= target) {
      ws.converged = true;
      break;
    }
    applyPrecond(precond, r, z, n);
    dotTo(r, z, n, sc);
    const rzNew = sc[1];
    sc[0] = rzNew / rz;
    rz = rzNew;
    nextDirection(sc, z, p, n);
  }
  ws.iterations = it;
  ws.relResidual = bnorm > 0 ? rnorm / bnorm : rnorm;
  return it;
}
