/**
 * FOSSSim's four time integrators, with FOSSSim's exact semantics.
 *
 * State layout x = (x0, y0, x1, y1, …), per-DOF masses. Fixed particles have
 * their force and right-hand side zeroed, and their rows and columns of the
 * system matrix replaced by the identity.
 */
import type { ForceModel } from '../systems/forces';
import type { Topology } from '../systems/topology';
import { SymmetricSolver } from './linear';
import { DenseLU } from './dense';
import { addMassMatrix, massMatVec } from '../systems/mass';
import type { NewtonSolver } from './newton';

export const FOSSSIM_NEWTON_TOLERANCE = 1e-9;
/** A safety cap FOSSSim does not have; reaching it is reported in StepStats. */
export const FOSSSIM_NEWTON_MAX_ITERS = 200;

export interface StepStats {
  newtonIters: number;
  converged: boolean;
  /**
   * Which linear-solver path ran last: 'ldlt' (sparse LDLᵀ, factored this
   * iteration), 'pcg-ldlt' (PCG preconditioned by a reused LDLᵀ factor),
   * 'dense-lu', or 'none'.
   */
  linearPath: string;
  /**
   * Game mode: '' when the step was solved; otherwise why it failed safe ('solver-error': the
   * linear solve threw, e.g. a singular matrix; 'non-finite': a NaN/∞ reached x or v) — the step
   * then kept the start-of-step positions and halved the velocities (src/systems/step.ts).
   */
  failSafe: string;
  /** Steps that failed safe since the world was created. */
  failSafeSteps: number;
  /** Contact (src/collision): candidate pairs and touching pairs of the last step. */
  contactCandidates: number;
  contactTouching: number;
  /** Contact-pattern rebuilds (pattern + symbolic factorization) in the last step / since creation. */
  contactRebuilds: number;
  contactRebuildsTotal: number;
}

/** Preallocated buffers for one topology; reused every step. */
export class Workspace {
  readonly g: Float64Array;
  readonly dx: Float64Array;
  readonly dv: Float64Array;
  readonly xe: Float64Array;
  readonly ve: Float64Array;
  readonly rhs: Float64Array;
  readonly delta: Float64Array;
  readonly values: Float64Array;
  /** Sparse symmetric solver, or null when the topology is dense (non-symmetric). */
  readonly solver: SymmetricSolver | null;
  readonly lu: DenseLU | null;
  readonly stats: StepStats = {
    newtonIters: 0, converged: true, linearPath: 'none', failSafe: '', failSafeSteps: 0,
    contactCandidates: 0, contactTouching: 0, contactRebuilds: 0, contactRebuildsTotal: 0,
  };
  /** Game-mode Newton state (src/solver/newton.ts), created on first use. */
  newton: NewtonSolver | null = null;

  constructor(readonly t: Topology) {
    const n = t.ndof;
    this.g = new Float64Array(n);
    this.dx = new Float64Array(n);
    this.dv = new Float64Array(n);
    this.xe = new Float64Array(n);
    this.ve = new Float64Array(n);
    this.rhs = new Float64Array(n);
    this.delta = new Float64Array(n);
    this.values = new Float64Array(t.dense ? n * n : t.pattern.nnz);
    this.solver = t.dense ? null : new SymmetricSolver(t.pattern);
    this.lu = t.dense ? new DenseLU(n) : null;
  }

  /** Solve ws.values · out = rhs with the topology's solver. */
  solve(rhs: Float64Array, out: Float64Array): void {
    if (this.lu) {
      if (!this.lu.factor(this.values)) throw new Error('the system matrix is singular');
      this.lu.solve(rhs, out);
      this.stats.linearPath = 'dense-lu';
    } else {
      this.solver!.solve(this.values, rhs, out);
      this.stats.linearPath = this.solver!.lastPath;
    }
  }
}

/** x += h v; v += h F(x_old, v_old)/m. */
export function explicitEuler(model: ForceModel, x: Float64Array, v: Float64Array, h: number, ws: Workspace): void {
  const t = model.t;
  const g = ws.g;
  model.gradient(x, v, g);
  for (let i = 0; i < t.ndof; i++) x[i] = x[i]! + h * v[i]!;
  for (let i = 0; i < t.ndof; i++) {
    if (t.fixed[i >> 1] === 1) continue;
    v[i] = v[i]! - (h * g[i]!) / t.mass[i]!;
  }
  ws.stats.newtonIters = 0;
  ws.stats.converged = true;
  ws.stats.linearPath = 'none';
}

/** v += h F(x, v)/m; x += h v (the new v). Also known as forward-backward Euler. */
export function symplecticEuler(model: ForceModel, x: Float64Array, v: Float64Array, h: number, ws: Workspace): void {
  const t = model.t;
  const g = ws.g;
  model.gradient(x, v, g);
  for (let i = 0; i < t.ndof; i++) {
    if (t.fixed[i >> 1] === 1) continue;
    v[i] = v[i]! - (h * g[i]!) / t.mass[i]!;
  }
  for (let i = 0; i < t.ndof; i++) x[i] = x[i]! + h * v[i]!;
  ws.stats.newtonIters = 0;
  ws.stats.converged = true;
  ws.stats.linearPath = 'none';
}

/**
 * A = M + h Hv + h² Hx at (xe, ve), with fixed rows and columns made identity.
 * Leaves the matrix in ws.values.
 */
export function assembleSystem(model: ForceModel, xe: Float64Array, ve: Float64Array, h: number, ws: Workspace): void {
  const t = model.t;
  const values = ws.values;
  values.fill(0);
  model.hessian(xe, ve, h * h, h, values);
  addMassMatrix(t, values); // diag(mass), or the consistent triangle mass
  applyFixedToMatrix(t, values);
}

export function applyFixedToMatrix(t: Topology, values: Float64Array): void {
  const off = t.fixedOffDiagSlots;
  for (let s = 0; s < off.length; s++) values[off[s]!] = 0;
  const d = t.fixedDiagSlots;
  for (let s = 0; s < d.length; s++) values[d[s]!] = 1;
}

export function zeroFixed(t: Topology, r: Float64Array): void {
  for (let i = 0; i < t.n; i++) {
    if (t.fixed[i] === 1) {
      r[2 * i] = 0;
      r[2 * i + 1] = 0;
    }
  }
}

/**
 * FOSSSim's implicit Euler: Newton on Δv from dv = 0, dx = h v;
 * A = M + h Hv + h² Hx and rhs = −h ∇E(x+dx, v+dv) − M dv, both at (x+dx, v+dv);
 * dv += Δv; dx = h (v + dv); until ‖Δv‖₂ < 1e-9; then x += dx, v += dv.
 * With `maxIters` = 1 this is FOSSSim's linearized implicit Euler.
 */
export function implicitEulerFosssim(
  model: ForceModel, x: Float64Array, v: Float64Array, h: number, ws: Workspace, maxIters: number,
): void {
  const t = model.t;
  const n = t.ndof;
  const { dx, dv, xe, ve, rhs, delta, g } = ws;
  for (let i = 0; i < n; i++) {
    dx[i] = h * v[i]!;
    dv[i] = 0;
  }
  let iters = 0;
  let converged = maxIters === 1;
  while (iters < maxIters) {
    for (let i = 0; i < n; i++) {
      xe[i] = x[i]! + dx[i]!;
      ve[i] = v[i]! + dv[i]!;
    }
    model.gradient(xe, ve, g);
    if (t.massMatrix === 'consistent') {
      massMatVec(t, dv, rhs);
      for (let i = 0; i < n; i++) rhs[i] = -h * g[i]! - rhs[i]!;
    } else {
      for (let i = 0; i < n; i++) rhs[i] = -h * g[i]! - t.mass[i]! * dv[i]!;
    }
    zeroFixed(t, rhs);
    assembleSystem(model, xe, ve, h, ws);
    ws.solve(rhs, delta);
    iters++;
    let norm2 = 0;
    for (let i = 0; i < n; i++) {
      dv[i] = dv[i]! + delta[i]!;
      dx[i] = h * (v[i]! + dv[i]!);
      norm2 += delta[i]! * delta[i]!;
    }
    if (!Number.isFinite(norm2)) break;
    if (Math.sqrt(norm2) < FOSSSIM_NEWTON_TOLERANCE) {
      converged = true;
      break;
    }
  }
  for (let i = 0; i < n; i++) {
    x[i] = x[i]! + dx[i]!;
    v[i] = v[i]! + dv[i]!;
  }
  ws.stats.newtonIters = iters;
  ws.stats.converged = converged;
}
