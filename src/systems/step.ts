/**
 * The ordered fixed-step systems: gather state → forces and time integration
 * (implicit solve) → scatter state. Contact and input systems slot in here.
 */
import type { PhysicsWorld } from '../world';
import { explicitEuler, implicitEulerFosssim, symplecticEuler, FOSSSIM_NEWTON_MAX_ITERS } from '../solver/integrators';
import { NewtonSolver } from '../solver/newton';

/** Copy particle components into the dense, creation-ordered solver arrays. */
export function gatherState(world: PhysicsWorld): void {
  const t = world.topology();
  const P = world.c.Particle;
  const x = world.x, v = world.v, eids = t.particleEids;
  for (let i = 0; i < t.n; i++) {
    const e = eids[i]!;
    x[2 * i] = P.x[e]!;
    x[2 * i + 1] = P.y[e]!;
    v[2 * i] = P.vx[e]!;
    v[2 * i + 1] = P.vy[e]!;
  }
}

/** Copy the dense solver arrays back into the particle components. */
export function scatterState(world: PhysicsWorld): void {
  const t = world.topology();
  const P = world.c.Particle;
  const x = world.x, v = world.v, eids = t.particleEids;
  for (let i = 0; i < t.n; i++) {
    const e = eids[i]!;
    P.x[e] = x[2 * i]!;
    P.y[e] = x[2 * i + 1]!;
    P.vx[e] = v[2 * i]!;
    P.vy[e] = v[2 * i + 1]!;
  }
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

export function runStep(world: PhysicsWorld): void {
  gatherState(world);
  world.contacts.snapshot(world);
  integrate(world);
  // Contact in the solve (src/collision): re-solve when the result met pairs the candidate search missed.
  while (world.contacts.refine(world)) integrate(world);
  resolveContacts(world);
  scatterState(world);
}
