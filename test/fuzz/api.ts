/**
 * Seeded API-call sequences on PhysicsWorld for the fuzzer (test/fuzz/case.ts): a world with random
 * options, then a random mix of entity creation, removal, contact settings and steps.
 *
 * 'valid' mode makes only well-formed calls (finite numbers of sensible sign and size, live
 * handles): any exception other than InputError / SimulationError, any hang and any NaN is a
 * defect. 'hostile' mode passes any value (NaN, ∞, negative stiffness, removed or invalid ids,
 * undefined) and, between calls, makes one of the known misuses of issue 16 (MISUSES below:
 * negative α/k/b/G, addDrag(-10), addEdge(a, a), NaN radii, COR 5, contacts.cor = NaN, 'rk4',
 * dt NaN, missing options, short output arrays, maxIters 65, …). Every call the API refuses must
 * be an InputError that leaves the world exactly as it was (same state hash and entity lists);
 * the sequence then goes on. A misuse that is accepted, a refusal that changed the world, any other
 * exception, a hang or a NaN is a defect (the CI slice runs hostile sequences: test/fuzz.test.ts).
 */
import type { Rng } from '../../src/math/rng';
import { InputError } from '../../src/errors';
import { PhysicsWorld } from '../../src/world';
import type { IntegratorType } from '../../src/solver/context';

export type ApiMode = 'valid' | 'hostile';

const INTEGRATORS: IntegratorType[] = ['explicit-euler', 'symplectic-euler', 'linearized-implicit-euler', 'implicit-euler'];
const MATERIALS = ['fosssim', 'stvk', 'neohookean', 'corotational'] as const;
const HOSTILE = [Number.NaN, Infinity, -Infinity, -1, 0, -0, 5e-324, 1e-320, 1e308, -1e308, 1e17, 1e154, 0.9999999999999999, -10];

interface Ctx {
  rng: Rng;
  mode: ApiMode;
  world: PhysicsWorld;
  particles: number[];
  removed: number[];
}

const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng.next() * list.length)]!;

/** A number in [lo, hi), or in hostile mode sometimes anything. */
function num(c: Ctx, lo: number, hi: number): number {
  if (c.mode === 'hostile' && c.rng.next() < 0.03) return pick(c.rng, HOSTILE);
  return c.rng.range(lo, hi);
}

/** In hostile mode, sometimes replace a live handle by a removed one, an invalid id or undefined. */
function handle(c: Ctx, live: number): number {
  if (c.mode === 'hostile' && c.rng.next() < 0.03) {
    return pick(c.rng, [...c.removed, -1, 1e9, Number.NaN, undefined as unknown as number, 0.5, live]);
  }
  return live;
}

/** k distinct live particles (each possibly made hostile by `handle`), or null when there are too few. */
function distinct(c: Ctx, k: number): number[] | null {
  if (c.particles.length < k) return null;
  const out: number[] = [];
  while (out.length < k) {
    const p = pick(c.rng, c.particles);
    if (!out.includes(p)) out.push(p);
  }
  return out.map((p) => handle(c, p));
}

type Op = (c: Ctx) => void;

/** A particle of the world (making two first when there are fewer). */
function some(c: Ctx, k: number): number {
  while (c.particles.length < 3) c.particles.push(c.world.addParticle({ x: c.particles.length, y: c.particles.length % 2, m: 1 }));
  return c.particles[k % c.particles.length]!;
}

/**
 * Known misuses (issue 16 items 5–7): each must be refused with an InputError and change nothing.
 * Several were accepted before (and blew up later, or did nothing) or failed with a TypeError.
 */
export const MISUSES: [name: string, op: Op][] = [
  ['negative spring alpha', (c) => void c.world.addSpring(some(c, 0), some(c, 1), { alpha: -1 - c.rng.next() * 100 })],
  ['negative hinge alpha', (c) => void c.world.addHinge(some(c, 0), some(c, 1), some(c, 2), { alpha: -1 })],
  ['negative damped-spring k', (c) => void c.world.addDampedSpring(some(c, 0), some(c, 1), { k: -10, l0: 1 })],
  ['negative damped-spring b', (c) => void c.world.addDampedSpring(some(c, 0), some(c, 1), { k: 10, l0: 1, b: -3 })],
  ['negative G', (c) => void c.world.addGravitation(some(c, 0), some(c, 1), -1)],
  ['addDrag(-10)', (c) => void c.world.addDrag(-10)],
  ['addEdge(a, a)', (c) => void c.world.addEdge(some(c, 0), some(c, 0))],
  ['edge radius NaN', (c) => void c.world.addEdge(some(c, 0), some(c, 1), Number.NaN)],
  ['collider COR 5', (c) => void c.world.addCircleCollider(0, -5, 1, { cor: 5 })],
  ['contacts.cor = NaN', (c) => { c.world.contacts.cor = Number.NaN; }],
  ['contacts.friction = -1', (c) => { c.world.contacts.friction = -1; }],
  ["integrator 'rk4'", (c) => { c.world.integrator = 'rk4' as IntegratorType; }],
  ['dt = NaN', (c) => { c.world.dt = Number.NaN; }],
  ['dt negative', (c) => { c.world.dt = -1 / 60; }],
  ['addTriangle(a, b, c, undefined)', (c) => void c.world.addTriangle(some(c, 0), some(c, 1), some(c, 2), undefined as never)],
  ['readPositions into a short array', (c) => void c.world.readPositions(new Float64Array(Math.max(0, 2 * c.world.particleCount() - 1)))],
  ['newton.maxIters 65', (c) => { c.world.newton = { maxIters: 65 } as never; }],
  ['Poisson ratio 1', (c) => void c.world.addTriangle(some(c, 0), some(c, 1), some(c, 2), { youngsModulus: 100, poissonRatio: 1 })],
  ['self-intersecting polygon collider', (c) => void c.world.addPolygonCollider([0, 0, 1, 1, 1, 0, 0, 1])],
  ['mass 5e-324', (c) => void c.world.addParticle({ x: 0, y: 0, m: 5e-324 })],
  ['a removed particle id (stale handle, not recycled yet)', (c) => {
    const p = c.world.addParticle({ x: 0, y: 0, m: 1 });
    c.world.removeEntity(p);
    c.world.addSpring(p, some(c, 0), { alpha: 1 });
  }],
];

const OPS: [weight: number, op: Op][] = [
  [8, (c) => {
    const fixed = c.rng.next() < 0.15;
    c.particles.push(c.world.addParticle({ x: num(c, -3, 3), y: num(c, -1, 4), vx: num(c, -2, 2), vy: num(c, -2, 2), m: num(c, 0.1, 5), fixed, radius: num(c, 0.01, 0.2) }));
  }],
  [3, (c) => {
    const p = distinct(c, 2);
    if (p) c.world.addSpring(p[0]!, p[1]!, { alpha: num(c, 1, 1000), l0: num(c, 0.1, 2) });
  }],
  [3, (c) => {
    const p = distinct(c, 3);
    if (p) c.world.addTriangle(p[0]!, p[1]!, p[2]!, { youngsModulus: num(c, 10, 1e5), poissonRatio: num(c, 0, 0.45), material: pick(c.rng, MATERIALS), density: num(c, 0, 10) });
  }],
  [1, (c) => {
    const p = distinct(c, 3);
    if (p) c.world.addHinge(p[0]!, p[1]!, p[2]!, { alpha: num(c, 0.1, 100), theta0: num(c, -3, 3) });
  }],
  [1, (c) => {
    const p = distinct(c, 2);
    if (p) c.world.addDampedSpring(p[0]!, p[1]!, { k: num(c, 1, 1000), l0: num(c, 0.1, 2), b: c.rng.next() < 0.5 ? 0 : num(c, 0, 2) });
  }],
  [1, (c) => {
    const p = distinct(c, 2);
    if (p) c.world.addGravitation(p[0]!, p[1]!, num(c, 0, 10));
  }],
  [1, (c) => {
    const p = distinct(c, 2);
    if (p) c.world.addVortex(p[0]!, p[1]!, num(c, -2, 2), num(c, -2, 2));
  }],
  [1, (c) => void c.world.addGravity(num(c, -1, 1), num(c, -10, 0))],
  [1, (c) => void c.world.addDrag(num(c, 0, 2))],
  [1, (c) => {
    const p = distinct(c, 2);
    if (p) c.world.addEdge(p[0]!, p[1]!, num(c, 0.005, 0.1));
  }],
  [1, (c) => void c.world.addHalfplane(num(c, -1, 1), num(c, -2, 0), num(c, -0.3, 0.3), num(c, 0.5, 1))],
  [1, (c) => {
    c.world.addCircleCollider(num(c, -3, 3), num(c, -3, 0), num(c, 0.1, 2), c.rng.next() < 0.3 ? { cor: num(c, 0, 1), friction: num(c, 0, 1) } : {});
    c.world.contacts.enabled = true;
  }],
  [1, (c) => {
    c.world.addSegmentCollider(num(c, -4, 0), num(c, -2, -1), num(c, 0.1, 4), num(c, -2, -1));
    c.world.contacts.enabled = true;
  }],
  [1, (c) => {
    const x = num(c, -2, 2), y = num(c, -3, -1);
    c.world.addPolygonCollider([x, y, x + 1, y, x + 1, y + 0.5, x, y + 0.5]);
    c.world.contacts.enabled = true;
  }],
  [1, (c) => {
    if (c.particles.length === 0) return;
    const k = Math.floor(c.rng.next() * c.particles.length);
    const eid = c.particles[k]!;
    c.world.removeEntity(eid);
    c.particles.splice(k, 1);
    c.removed.push(eid);
  }],
  [2, (c) => {
    if (c.mode !== 'hostile') return;
    const [name, op] = pick(c.rng, MISUSES);
    some(c, 0); // the particles a misuse needs exist before the state is taken
    const before = c.world.stateHash();
    const lists = JSON.stringify(c.world.lists);
    let refused: unknown = null;
    try {
      op(c);
    } catch (e) {
      refused = e;
    }
    if (!(refused instanceof InputError)) throw new Error(`misuse '${name}' was ${refused ? `refused with ${String(refused)}` : 'accepted'}`);
    if (name.startsWith('a removed particle id')) return; // it made and removed a particle itself
    if (c.world.stateHash() !== before || JSON.stringify(c.world.lists) !== lists) throw new Error(`misuse '${name}' was refused but changed the world`);
  }],
  [6, (c) => c.world.step()],
];
const TOTAL = OPS.reduce((s, [w]) => s + w, 0);

function chooseOp(rng: Rng): Op {
  let r = rng.next() * TOTAL;
  for (const [w, op] of OPS) {
    if ((r -= w) < 0) return op;
  }
  return OPS[OPS.length - 1]![1];
}

/**
 * Build and drive one world; returns whether its state stayed finite. InputError and
 * SimulationError propagate (clean outcomes), as does anything else (a defect).
 */
export function apiSequence(rng: Rng, maxSteps: number, mode: ApiMode, log?: (line: string) => void): boolean {
  const c: Ctx = { rng, mode, particles: [], removed: [], world: null as unknown as PhysicsWorld };
  const dt = mode === 'hostile' && rng.next() < 0.05 ? pick(rng, HOSTILE) : pick(rng, [1 / 60, 1 / 120, 0.01, 1 / 30]);
  const options = {
    dt,
    integrator: pick(rng, INTEGRATORS),
    gravity: rng.next() < 0.7 ? ([0, -9.81] as [number, number]) : null,
    newton: rng.next() < 0.4 ? ('fosssim' as const) : undefined,
  };
  c.world = log ? traced(new PhysicsWorld(options), log) : new PhysicsWorld(options);
  log?.(`new PhysicsWorld(${JSON.stringify(options)})`);
  const ops = 10 + Math.floor(rng.next() * 60);
  let steps = 0;
  for (let k = 0; k < ops && steps < maxSteps; k++) {
    const op = chooseOp(rng);
    if (mode === 'hostile' && op !== OPS[OPS.length - 2]![1]) refusedCleanly(c, op);
    else op(c);
    if (op === OPS[OPS.length - 1]![1]) {
      steps++;
      if (!finite(c.world)) return false;
    }
  }
  return finite(c.world);
}

/**
 * Run one (possibly hostile) call: an InputError must leave the world exactly as it was, and the
 * sequence goes on; anything else propagates.
 */
function refusedCleanly(c: Ctx, op: Op): void {
  some(c, 0); // the particles a misuse needs exist before the state is taken
  const before = c.world.stateHash();
  const lists = JSON.stringify(c.world.lists);
  const n = c.particles.length;
  try {
    op(c);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    c.particles.length = n;
    if (c.world.stateHash() !== before || JSON.stringify(c.world.lists) !== lists) {
      throw new Error(`a refused call changed the world (${e.message})`);
    }
  }
}

/** The world with every method call written to `log` (to replay a case: test/fuzz/main.ts --trace). */
function traced(w: PhysicsWorld, log: (line: string) => void): PhysicsWorld {
  return new Proxy(w, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function' || typeof prop !== 'string' || !/^(add|remove|step)/.test(prop)) return v;
      return (...args: unknown[]) => {
        const r = (v as (...a: unknown[]) => unknown).apply(target, args);
        log(`${prop}(${args.map((a) => JSON.stringify(a)).join(', ')}) -> ${JSON.stringify(r)}`);
        return r;
      };
    },
  });
}

function finite(w: PhysicsWorld): boolean {
  const x = w.readPositions(), v = w.readVelocities();
  for (let i = 0; i < x.length; i++) if (!Number.isFinite(x[i]!) || !Number.isFinite(v[i]!)) return false;
  return true;
}
