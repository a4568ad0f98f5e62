/**
 * FOSSSim's four time integrators, with FOSSSim's exact semantics.
 *
 * State layout x = (x0, y0, x1, y1, …), per-DOF masses (the game-mode integrator is newton.ts).
 * Buffers and the linear solve come from workspace.ts. Fixed particles have
 * their force and right-hand side zeroed, and their rows and columns of the
 * system matrix replaced by the identity.
 */
import type { SystemModel as ForceModel } from './model';
import { addMassMatrix, massMatVec } from './mass';
import { applyFixedToMatrix, zeroFixed, type Workspace } from './workspace';

export const FOSSSIM_NEWTON_TOLERANCE = 1e-9;
/** A safety cap FOSSSim does not have; reaching it is reported in StepStats. */
export const FOSSSIM_NEWTON_MAX_ITERS = 200;

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
