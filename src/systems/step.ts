/**
 * The ordered fixed-step systems: gather state → forces and time integration
 * (implicit solve) → scatter state. Contact and input systems slot in here.
 */
import type { PhysicsWorld } from '../world';
import { explicitEuler, implicitEulerFosssim, symplecticEuler, FOSSSIM_NEWTON_MAX_ITERS } from '../solver/integrators';
import { NewtonSolver } from '../solver/newton';
import { InputError } from '../errors';

/** Copy particle components into the dense, creation-ordered solver arrays. */
export function gatherState(world: PhysicsWorld): void {
  const t = world.topology();
  const P = world.c.Particle;
  gatherKernel(t.n, t.particleEids, P.x, P.y, P.vx, P.vy, world.x, world.v);
}

/** Copy the dense solver arrays back into the particle components. */
export function scatterState(world: PhysicsWorld): void {
  const t = world.topology();
  const P = world.c.Particle;
  scatterKernel(t.n, t.particleEids, P.x, P.y, P.vx, P.vy, world.x, world.v);
}

// Loop kernels with nothing but the loop: the driver's named accesses (world.topology(), …) ran
// before V8 allocated the feedback vector in the first (long) call, so the old one-function
// gatherState deoptimized at its first statement and lived on OSR code entered from the
// interpreter on every call (docs/solver.md, "Allocation work, part 4").

function gatherKernel(
  n: number, eids: Int32Array, px: Float64Array, py: Float64Array, pvx: Float64Array, pvy: Float64Array,
  x: Float64Array, v: Float64Array,
): void {
  for (let i = 0; i < n; i++) {
    const e = eids[i]!;
    x[2 * i] = px[e]!;
    x[2 * i + 1] = py[e]!;
    v[2 * i] = pvx[e]!;
    v[2 * i + 1] = pvy[e]!;
  }
}

function scatterKernel(
  n: number, eids: Int32Array, px: Float64Array, py: Float64Array, pvx: Float64Array, pvy: Float64Array,
  x: Float64Array, v: Float64Array,
): void {
  for (let i = 0; i < n; i++) {
    const e = eids[i]!;
    px[e] = x[2 * i]!;
    py[e] = x[2 * i + 1]!;
    pvx[e] = v[2 * i]!;
    pvy[e] = v[2 * i + 1]!;
  }
}

/** dst[i] = src[i] for i < n (no subarray view per step). */
function copyPrefix(n: number, src: Float64Array, dst: Float64Array): void {
  for (let i = 0; i < n; i++) dst[i] = src[i]!;
}

/** Forces and time integration over the dense state. */
export function integrate(world: PhysicsWorld): void {
  const model = world.forceModel();
  const ws = world.workspace();
  const x = world.x, v = world.v, h = world.dt;
  switch (world.integrator) {
    case 'explicit-euler':
      explicitEuler(model, x, v, h, ws);
      break;
    case 'symplectic-euler':
      symplecticEuler(model, x, v, h, ws);
      break;
    case 'linearized-implicit-euler':
      if (world.newton === 'fosssim') implicitEulerFosssim(model, x, v, h, ws, 1);
      else (ws.newton ??= new NewtonSolver(model.t)).step(model, x, v, h, world.newton, 1, ws);
      break;
    case 'implicit-euler':
      if (world.newton === 'fosssim') implicitEulerFosssim(model, x, v, h, ws, FOSSSIM_NEWTON_MAX_ITERS);
      else (ws.newton ??= new NewtonSolver(model.t)).step(model, x, v, h, world.newton, world.newton.maxIters, ws);
      break;
  }
}

/** Contact (src/collision): colliders, body–body and self contact, velocity filter; no-op unless enabled. */
export function resolveContacts(world: PhysicsWorld): void {
  world.contacts.solve(world);
}

/** Start-of-step state per world (fail-safe restore), allocated once per topology size. */
class StepGuard {
  x = new Float64Array(0);
  v = new Float64Array(0);
}
const guards = new WeakMap<PhysicsWorld, StepGuard>();

function allFinite(a: Float64Array, n: number): boolean {
  for (let i = 0; i < n; i++) if (!Number.isFinite(a[i]!)) return false;
  return true;
}

/**
 * One step. Game mode (world.newton ≠ 'fosssim') fails safe: when the solve throws (a singular or
 * non-finite system) or leaves a non-finite value in x or v, the step keeps the start-of-step
 * positions, halves the velocities (a damped fallback, so the next step does not repeat the same
 * failure) and reports it in lastStats.failSafe. FOSSSim-exact scenes keep FOSSSim's behaviour.
 * InputErrors (a scene the integrator cannot run) are rethrown.
 */
export function runStep(world: PhysicsWorld): void {
  gatherState(world);
  if (world.newton === 'fosssim') {
    world.contacts.snapshot(world);
    integrate(world);
    while (world.contacts.refine(world)) integrate(world);
    resolveContacts(world);
    scatterState(world);
    return;
  }
  const n = world.topology().ndof;
  let g = guards.get(world);
  if (!g) {
    g = new StepGuard();
    guards.set(world, g);
  }
  if (g.x.length < n) {
    g.x = new Float64Array(n);
    g.v = new Float64Array(n);
  }
  const x = world.x, v = world.v;
  copyPrefix(n, x, g.x);
  copyPrefix(n, v, g.v);
  let reason = '';
  try {
    world.contacts.snapshot(world);
    integrate(world);
    // Contact in the solve (src/collision): re-solve when the result met pairs the candidate search missed.
    while (world.contacts.refine(world)) integrate(world);
    resolveContacts(world);
  } catch (e) {
    // only the numerical failures of a solve (plain Errors: singular or indefinite systems);
    // scene errors and programming errors (TypeError, ReferenceError, …) propagate
    if (e instanceof InputError || !(e instanceof Error) || e.constructor !== Error) throw e;
    reason = 'solver-error';
  }
  if (reason === '' && !(allFinite(world.x, n) && allFinite(world.v, n))) reason = 'non-finite';
  const stats = world.lastStats;
  stats.failSafe = reason;
  if (reason !== '') {
    const xs = world.x, vs = world.v; // the solve may have replaced the workspace, never x/v
    for (let i = 0; i < n; i++) {
      xs[i] = g.x[i]!;
      const vi = 0.5 * g.v[i]!;
      vs[i] = Number.isFinite(vi) ? vi : 0;
    }
    stats.converged = false;
    stats.failSafeSteps++;
  }
  scatterState(world);
}
