/**
 * Game-mode backward Euler as optimization (the "incremental potential"):
 *
 *   x_{t+1} = argmin Φ(x),  Φ(x) = ½ (x − x̃)ᵀ M (x − x̃) + h² V(x) + h³ R((x − xᵗ)/h),
 *   x̃ = xᵗ + h vᵗ,  v_{t+1} = (x_{t+1} − xᵗ)/h,
 *
 * V the potential energy of the force model (gravity included), R the Rayleigh
 * dissipation of the velocity-dependent forces that have one: drag ½ b ‖v‖²
 * (exact) and spring damping ½ b (n̂·(vⱼ − vᵢ))² with n̂ frozen at the start of
 * the step. The vortex force has neither potential nor dissipation and is
 * rejected (InputError). Fixed particles move as FOSSSim moves them
 * (x += h v, v unchanged) and are not unknowns.
 *
 * Newton's method with per-element PSD-projected Hessians (every direction a
 * descent direction) and a backtracking line search (α₀ = min(1, maxStep),
 * halving, Armijo constant 1e-8 on Φ, states rejected by ForceModel.isFeasible
 * shrink α). Stops when the Newton step is below `tolerance` times the size of
 * the body (the bounding-box diagonal at the start of the step), or after
 * `maxIters` iterations. All assembly goes through the ForceModel, so other
 * potentials (contact, hyperelastic materials) enter Φ there.
 *
 * Linear solves: sparse LDLᵀ (symbolic analysis shared with the FOSSSim path)
 * for small systems; above `pcgMinDofs`, PCG preconditioned by an LDLᵀ factor
 * reused over steps and refactored when PCG needs more than `refactorIters`
 * iterations. No allocation per step.
 */
import { InputError } from '../errors';
import type { ForceModel } from '../systems/forces';
import { scatter } from '../systems/forces';
import type { Topology } from '../systems/topology';
import { UNIFORM_DRAG } from '../components';
import { writePairBlocks } from '../elements';
import { applyFixedToMatrix, zeroFixed, type Workspace } from './integrators';
import { PcgWorkspace, pcg } from './cg';
import { addMassMatrix, massMatVec } from '../systems/mass';

export interface NewtonSettings {
  /** Newton iteration cap per step (game default 5). */
  maxIters: number;
  /** Relative tolerance: stop when ‖Δx‖∞ ≤ tolerance · (body size). Default 1e-6. */
  tolerance: number;
  /** Backtracking line search on the incremental potential (default true). */
  lineSearch: boolean;
  /** 'psd': element Hessians projected to PSD (default); 'none': exact Hessians. */
  projection: 'psd' | 'none';
}

export const GAME_NEWTON_DEFAULTS: Readonly<NewtonSettings> = Object.freeze({
  maxIters: 5, tolerance: 1e-6, lineSearch: true, projection: 'psd',
});

export const ARMIJO_C = 1e-8;
/** Line-search halvings before the step is given up (α = 2⁻³⁰). */
export const MAX_HALVINGS = 30;

/** Per-step timings (ms) when `profile` is on; accumulated over the step. */
export interface NewtonProfile {
  msAssembly: number;
  msFactor: number;
  msSolve: number;
}

export class NewtonSolver {
  readonly t: Topology;
  /** Systems with at least this many dofs use PCG with a reused factor (sparse only). */
  pcgMinDofs = 8000;
  /** Refactor the preconditioner when PCG took more iterations than this. */
  refactorIters = 12;
  /** Relative residual of the inner PCG solves. */
  cgTolerance = 1e-4;
  cgMaxIters = 200;
  profile = false;
  readonly timing: NewtonProfile = { msAssembly: 0, msFactor: 0, msSolve: 0 };
  /** Incremental potential at each accepted iterate of the last step (for tests); length = iters + 1. */
  readonly phiHistory: Float64Array;
  phiCount = 0;
  /** Steps since the preconditioner was refactored; total refactorizations. */
  refactors = 0;
  lastCgIters = 0;

  private readonly xt: Float64Array;
  private readonly xtil: Float64Array;
  private readonly g: Float64Array;
  private readonly dir: Float64Array;
  private readonly trial: Float64Array;
  private readonly zero: Float64Array;
  private readonly nhat: Float64Array;
  private readonly cg: PcgWorkspace | null;
  private precondValid = false;
  private precondStale = true;
  private readonly h16 = new Float64Array(16);
  /** Doubles passed to and from the loop kernels below (not as arguments: V8 would box them). */
  private readonly sc = new Float64Array(2);
  private dragB = 0;
  private readonly md: Float64Array;
  private readonly mdOut: Float64Array;

  constructor(t: Topology) {
    this.t = t;
    const n = t.ndof;
    this.xt = new Float64Array(n);
    this.xtil = new Float64Array(n);
    this.g = new Float64Array(n);
    this.dir = new Float64Array(n);
    this.trial = new Float64Array(n);
    this.zero = new Float64Array(n);
    this.md = new Float64Array(t.massMatrix === 'consistent' ? n : 0);
    this.mdOut = new Float64Array(t.massMatrix === 'consistent' ? n : 0);
    this.nhat = new Float64Array(2 * t.dampedSprings.count);
    this.cg = t.dense ? null : new PcgWorkspace(n);
    this.phiHistory = new Float64Array(65);
    let b = 0;
    for (let u = 0; u < t.uniformCount; u++) if (t.uniformKind[u] === UNIFORM_DRAG) b += t.uniform[3 * u + 2]!;
    this.dragB = b;
  }

  /** Φ(x) for the current step (after begin()). */
  phi(model: ForceModel, x: Float64Array, h: number): number {
    const t = this.t;
    const n = t.ndof;
    const xt = this.xt, xtil = this.xtil;
    const sc = this.sc;
    inertiaSums(n, t.fixed, t.mass, x, xt, xtil, sc);
    let inertia = sc[0]!;
    const drag = sc[1]!;
    let damp = 0;
    const ds = t.dampedSprings, nh = this.nhat;
    for (let e = 0; e < ds.count; e++) {
      const b = ds.params[3 * e + 2]!;
      if (b === 0) continue;
      const a = 2 * ds.nodes[2 * e]!, c = 2 * ds.nodes[2 * e + 1]!;
      const rel = nh[2 * e]! * (x[c]! - xt[c]! - x[a]! + xt[a]!) + nh[2 * e + 1]! * (x[c + 1]! - xt[c + 1]! - x[a + 1]! + xt[a + 1]!);
      damp += b * rel * rel;
    }
    if (t.massMatrix === 'consistent') inertia = this.consistentInertia(x, null); // issue 4: consistent triangle mass
    return 0.5 * inertia + h * h * model.energy(x) + 0.5 * h * (this.dragB * drag + damp);
  }

  /** ∇Φ(x) into g, zero on fixed dofs. */
  private gradient(model: ForceModel, x: Float64Array, h: number, g: Float64Array): void {
    const t = this.t;
    const n = t.ndof;
    const xt = this.xt, xtil = this.xtil;
    model.gradient(x, this.zero, g);
    const sc = this.sc;
    sc[0] = h * h;
    sc[1] = h * this.dragB;
    inertiaGradient(n, t.mass, x, xt, xtil, sc, g);
    if (t.massMatrix === 'consistent') this.consistentInertia(x, g); // replaces the lumped M (x − x̃) above
    const ds = t.dampedSprings, nh = this.nhat;
    for (let e = 0; e < ds.count; e++) {
      const b = ds.params[3 * e + 2]!;
      if (b === 0) continue;
      const a = 2 * ds.nodes[2 * e]!, c = 2 * ds.nodes[2 * e + 1]!;
      const nx = nh[2 * e]!, ny = nh[2 * e + 1]!;
      const rel = nx * (x[c]! - xt[c]! - x[a]! + xt[a]!) + ny * (x[c + 1]! - xt[c + 1]! - x[a + 1]! + xt[a + 1]!);
      const f = h * b * rel;
      g[a] = g[a]! - f * nx;
      g[a + 1] = g[a + 1]! - f * ny;
      g[c] = g[c]! + f * nx;
      g[c + 1] = g[c + 1]! + f * ny;
    }
    zeroFixed(t, g);
  }

  /** ∇²Φ (projected when settings.projection = 'psd') into ws.values, fixed rows identity. */
  private assemble(model: ForceModel, x: Float64Array, h: number, projection: 'psd' | 'none', ws: Workspace): void {
    const t = this.t;
    const values = ws.values;
    values.fill(0);
    if (projection === 'psd') model.hessianPSD(x, h * h, values);
    else model.hessian(x, this.zero, h * h, 0, values);
    const diag = t.diag;
    const hb = h * this.dragB;
    for (let i = 0; i < t.ndof; i++) values[diag[i]!] = values[diag[i]!]! + hb;
    addMassMatrix(t, values); // lumped diag(mass), or the consistent triangle mass (src/systems/mass.ts)
    const ds = t.dampedSprings, nh = this.nhat, H = this.h16;
    for (let e = 0; e < ds.count; e++) {
      const b = ds.params[3 * e + 2]!;
      if (b === 0) continue;
      const nx = nh[2 * e]!, ny = nh[2 * e + 1]!;
      writePairBlocks(nx * nx, nx * ny, nx * ny, ny * ny, H, 0);
      scatter(values, ds, e, H, h * b);
    }
    applyFixedToMatrix(t, values);
  }

  /**
   * Consistent mass (src/systems/mass.ts): with d = x − x̃ (0 on fixed dofs), returns dᵀ M d;
   * with g given, also swaps the lumped inertia gradient in g for M d: g += M d − diag(mass) d.
   */
  private consistentInertia(x: Float64Array, g: Float64Array | null): number {
    const t = this.t, d = this.md, md = this.mdOut, xtil = this.xtil;
    for (let i = 0; i < t.ndof; i++) d[i] = t.fixed[i >> 1] === 1 ? 0 : x[i]! - xtil[i]!;
    massMatVec(t, d, md);
    let q = 0;
    for (let i = 0; i < t.ndof; i++) {
      q += d[i]! * md[i]!;
      if (g) g[i] = g[i]! + md[i]! - t.mass[i]! * d[i]!;
    }
    return q;
  }

  /** Solve ws.values · out = rhs; returns false if the system could not be solved. */
  private solve(ws: Workspace, rhs: Float64Array, out: Float64Array): void {
    const stats = ws.stats;
    const prof = this.profile;
    if (ws.lu || !ws.solver || this.t.ndof < this.pcgMinDofs) {
      let t0 = prof ? performance.now() : 0;
      if (ws.solver && !ws.lu) {
        const ok = ws.solver.ldlt.factor(ws.values);
        if (prof) {
          const t1 = performance.now();
          this.timing.msFactor += t1 - t0;
          t0 = t1;
        }
        if (ok) {
          ws.solver.ldlt.solve(rhs, out);
          stats.linearPath = 'ldlt';
        } else {
          ws.solve(rhs, out);
        }
      } else {
        ws.solve(rhs, out);
      }
      if (prof) this.timing.msSolve += performance.now() - t0;
      this.lastCgIters = 0;
      return;
    }
    // large sparse system: PCG with a reused LDLᵀ preconditioner
    const ldlt = ws.solver.ldlt;
    const cg = this.cg!;
    if (this.precondStale || !this.precondValid) {
      const t0 = prof ? performance.now() : 0;
      this.precondValid = ldlt.factor(ws.values);
      this.precondStale = false;
      this.refactors++;
      if (prof) this.timing.msFactor += performance.now() - t0;
      if (this.precondValid) {
        const t1 = prof ? performance.now() : 0;
        ldlt.solve(rhs, out);
        if (prof) this.timing.msSolve += performance.now() - t1;
        stats.linearPath = 'ldlt';
        this.lastCgIters = 0;
        return;
      }
      ws.solve(rhs, out);
      return;
    }
    const t0 = prof ? performance.now() : 0;
    out.fill(0);
    pcg(ws.solver.pattern, ws.values, rhs, out, ldlt, cg, this.cgTolerance, this.cgMaxIters);
    if (prof) this.timing.msSolve += performance.now() - t0;
    this.lastCgIters = cg.iterations;
    stats.linearPath = 'pcg-ldlt';
    if (cg.iterations > this.refactorIters) this.precondStale = true;
    if (!cg.converged || cg.breakdown) {
      // the old factor is too far off: refactor now and solve directly
      this.precondStale = true;
      this.solve(ws, rhs, out);
    }
  }

  /**
   * One backward-Euler step of size h: x, v updated in place.
   * maxIters overrides settings.maxIters (1 for linearized implicit Euler).
   */
  step(model: ForceModel, x: Float64Array, v: Float64Array, h: number, settings: NewtonSettings, maxIters: number, ws: Workspace): void {
    const t = this.t;
    if (t.vortices.count > 0) {
      throw new InputError(
        'game-mode implicit Euler: vortex forces have no potential or dissipation function; ' +
          "use FOSSSim semantics (WorldOptions.newton = 'fosssim', or no maxiters/tolerance/linesearch/projection attributes in the scene)",
      );
    }
    const n = t.ndof;
    const { xt, xtil, g, dir, trial } = this;
    const stats = ws.stats;
    const prof = this.profile;
    if (prof) {
      this.timing.msAssembly = 0;
      this.timing.msFactor = 0;
      this.timing.msSolve = 0;
    }
    let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
    for (let i = 0; i < n; i += 2) {
      xt[i] = x[i]!;
      xt[i + 1] = x[i + 1]!;
      xtil[i] = x[i]! + h * v[i]!;
      xtil[i + 1] = x[i + 1]! + h * v[i + 1]!;
      if (t.fixed[i >> 1] === 0) {
        if (x[i]! < minX) minX = x[i]!;
        if (x[i]! > maxX) maxX = x[i]!;
        if (x[i + 1]! < minY) minY = x[i + 1]!;
        if (x[i + 1]! > maxY) maxY = x[i + 1]!;
      }
    }
    const size = maxX >= minX ? Math.sqrt((maxX - minX) ** 2 + (maxY - minY) ** 2) : 0;
    const stepTol = settings.tolerance * (size > 0 ? size : 1);
    const ds = t.dampedSprings, nh = this.nhat;
    for (let e = 0; e < ds.count; e++) {
      const a = 2 * ds.nodes[2 * e]!, c = 2 * ds.nodes[2 * e + 1]!;
      const dx = x[c]! - x[a]!, dy = x[c + 1]! - x[a + 1]!;
      const l = Math.sqrt(dx * dx + dy * dy);
      nh[2 * e] = l > 0 ? dx / l : 0;
      nh[2 * e + 1] = l > 0 ? dy / l : 0;
    }
    // initial guess x̃ (fixed particles stay there)
    for (let i = 0; i < n; i++) x[i] = xtil[i]!;
    const contact = model.contact;
    if (contact && contact.count > 0) {
      // contact (src/collision): start no further along xᵗ → x̃ than continuous collision detection allows
      for (let i = 0; i < n; i++) dir[i] = xtil[i]! - xt[i]!;
      const a0 = contact.maxStep(xt, dir);
      if (a0 < 1) for (let i = 0; i < n; i++) x[i] = xt[i]! + a0 * dir[i]!;
      if (maxIters > 1 && contact.maxIters > maxIters) maxIters = contact.maxIters;
    }
    let phi = this.phi(model, x, h);
    this.phiHistory[0] = phi;
    this.phiCount = 1;
    let iters = 0;
    let converged = false;
    while (iters < maxIters) {
      let t0 = prof ? performance.now() : 0;
      this.gradient(model, x, h, g);
      let gg = 0;
      for (let i = 0; i < n; i++) gg += g[i]! * g[i]!;
      if (gg === 0) {
        converged = true;
        break;
      }
      this.assemble(model, x, h, settings.projection, ws);
      if (prof) this.timing.msAssembly += performance.now() - t0;
      for (let i = 0; i < n; i++) trial[i] = -g[i]!;
      this.solve(ws, trial, dir);
      iters++;
      let slope = 0, dmax = 0;
      for (let i = 0; i < n; i++) {
        slope += g[i]! * dir[i]!;
        const a = Math.abs(dir[i]!);
        if (a > dmax) dmax = a;
      }
      if (settings.lineSearch && (!(slope < 0) || !Number.isFinite(slope))) break; // not a descent direction (projection 'none' on an indefinite system)
      // line search
      t0 = prof ? performance.now() : 0;
      let alpha = settings.lineSearch ? Math.min(1, model.maxStep(x, dir)) : 1;
      let accepted = false;
      let phiTrial = phi;
      for (let k = 0; k <= MAX_HALVINGS; k++) {
        for (let i = 0; i < n; i++) trial[i] = x[i]! + alpha * dir[i]!;
        if (!settings.lineSearch) {
          phiTrial = this.phi(model, trial, h);
          accepted = true;
          break;
        }
        if (model.isFeasible(trial)) {
          phiTrial = this.phi(model, trial, h);
          if (phiTrial <= phi + ARMIJO_C * alpha * slope) {
            accepted = true;
            break;
          }
        }
        alpha *= 0.5;
      }
      if (prof) this.timing.msAssembly += performance.now() - t0;
      if (!accepted) {
        // no decrease representable: the iterate is as good as rounding allows
        converged = dmax <= stepTol;
        break;
      }
      x.set(trial);
      phi = phiTrial;
      if (this.phiCount < this.phiHistory.length) this.phiHistory[this.phiCount++] = phi;
      if (alpha * dmax <= stepTol) {
        converged = true;
        break;
      }
    }
    for (let i = 0; i < n; i++) {
      if (t.fixed[i >> 1] === 1) continue;
      v[i] = (x[i]! - xt[i]!) / h;
    }
    stats.newtonIters = iters;
    stats.converged = converged;
  }
}

// Loops of phi() and gradient() as module functions of typed arrays: optimized as whole
// functions, not through on-stack replacement of their callers (which deoptimized after the loop).

/** sc[0] = Σ m (x − x̃)², sc[1] = Σ (x − xᵗ)² over the free dofs. */
function inertiaSums(
  n: number, fixed: Uint8Array, mass: Float64Array, x: Float64Array, xt: Float64Array, xtil: Float64Array, sc: Float64Array,
): void {
  let inertia = 0;
  let drag = 0;
  for (let i = 0; i < n; i++) {
    if (fixed[i >> 1] === 1) continue;
    const d = x[i]! - xtil[i]!;
    inertia += mass[i]! * d * d;
    const s = x[i]! - xt[i]!;
    drag += s * s;
  }
  sc[0] = inertia;
  sc[1] = drag;
}

/** g = h² g + M (x − x̃) + h b (x − xᵗ), with sc = (h², h b). */
function inertiaGradient(
  n: number, mass: Float64Array, x: Float64Array, xt: Float64Array, xtil: Float64Array, sc: Float64Array, g: Float64Array,
): void {
  const h2 = sc[0]!, hb = sc[1]!;
  for (let i = 0; i < n; i++) g[i] = h2 * g[i]! + mass[i]! * (x[i]! - xtil[i]!) + hb * (x[i]! - xt[i]!);
}
