/**
 * Seeded API-call sequences on PhysicsWorld for the fuzzer (test/fuzz/case.ts): a world with random
 * options, then a random mix of entity creation, removal, contact settings and steps.
 *
 * 'valid' mode makes only well-formed calls (finite numbers of sensible sign and size, live
 * handles): any exception other than InputError / SimulationError, any hang and any NaN is a
 * defect today. 'hostile' mode passes any value (NaN, ∞, negative stiffness, stale handles,
 * undefined): the API's own validation is issue 16's item 6, so its findings are reported, not
 * gated (npm run fuzz -- --api hostile).
 */
import type { Rng } from '../../src/math/rng';
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
    c.world.contacts.enabled = true;
    c.world.addCircleCollider(num(c, -3, 3), num(c, -3, 0), num(c, 0.1, 2), c.rng.next() < 0.3 ? { cor: num(c, 0, 1), friction: num(c, 0, 1) } : {});
  }],
  [1, (c) => {
    c.world.contacts.enabled = true;
    c.world.addSegmentCollider(num(c, -4, 0), num(c, -2, -1), num(c, 0.1, 4), num(c, -2, -1));
  }],
  [1, (c) => {
    c.world.contacts.enabled = true;
    const x = num(c, -2, 2), y = num(c, -3, -1);
    c.world.addPolygonCollider([x, y, x + 1, y, x + 1, y + 0.5, x, y + 0.5]);
  }],
  [1, (c) => {
    if (c.particles.length === 0) return;
    const k = Math.floor(c.rng.next() * c.particles.length);
    const eid = c.particles[k]!;
    c.world.removeEntity(eid);
    c.particles.splice(k, 1);
    c.removed.push(eid);
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
    op(c);
    if (op === OPS[OPS.length - 1]![1]) {
      steps++;
      if (!finite(c.world)) return false;
    }
  }
  return finite(c.world);
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
