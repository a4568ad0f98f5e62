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
import { PhysicsWorld, type ColliderOptions } from '../../src/world';
import type { IntegratorType } from '../../src/solver/context';
import type { FilterOptions, OneWay } from '../../src/systems/filters';
import { wrapPayload } from '../../src/systems/snapshot';
import { ENGINE_VERSION } from '../../src/version';

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
  /** createBody() ids. */
  bodies: number[];
  colliders: number[];
  /** An earlier snapshot and its state hash (restored later). */
  saved?: { bytes: Uint8Array; hash: string; bodies: number[] };
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

/** A live body id (createBody), in hostile mode sometimes an invalid one. */
function bodyHandle(c: Ctx): number {
  const live = pick(c.rng, c.bodies);
  if (c.mode === 'hostile' && c.rng.next() < 0.05) return pick(c.rng, [0, -1, 1e9, Number.NaN, 1.5, live]);
  return live;
}

/** A live collider, in hostile mode sometimes a particle, a removed id or an invalid one. */
function colliderHandle(c: Ctx): number {
  const live = pick(c.rng, c.colliders);
  if (c.mode === 'hostile' && c.rng.next() < 0.05) return pick(c.rng, [...c.particles.slice(0, 1), -1, 1e9, Number.NaN, live]);
  return live;
}

/** A collision filter: small category / mask bit sets and groups, sometimes a sensor; hostile mode: sometimes a bad field. */
function filter(c: Ctx): FilterOptions {
  const f: FilterOptions = {};
  if (c.rng.next() < 0.5) f.category = 1 << Math.floor(c.rng.next() * 4);
  if (c.rng.next() < 0.5) f.mask = c.rng.next() < 0.3 ? -1 : Math.floor(c.rng.next() * 16);
  if (c.rng.next() < 0.3) f.group = Math.floor(c.rng.next() * 5) - 2;
  if (c.rng.next() < 0.15) f.sensor = true;
  if (c.mode === 'hostile' && c.rng.next() < 0.05) {
    (f as Record<string, unknown>)[pick(c.rng, ['category', 'mask', 'group', 'sensor'])] = pick(c.rng, [Number.NaN, 1.5, 2 ** 33, 'x', -(2 ** 31) - 1, null]);
  }
  return f;
}

function oneWay(c: Ctx): OneWay | undefined {
  const r = c.rng.next();
  if (r < 0.7) return undefined;
  if (r < 0.85) return true;
  return { x: num(c, -1, 1), y: num(c, 0.2, 1) };
}

/** Collider options: often none, else material, filter, sensor and one-way. */
function colliderOptions(c: Ctx): ColliderOptions {
  if (c.rng.next() < 0.5) return {};
  const o: ColliderOptions = {};
  if (c.rng.next() < 0.4) o.cor = num(c, 0, 1);
  if (c.rng.next() < 0.4) o.friction = num(c, 0, 1);
  if (c.rng.next() < 0.4) o.collisionFilter = filter(c);
  if (c.rng.next() < 0.15) o.sensor = true;
  const w = oneWay(c);
  if (w !== undefined) o.oneWay = w;
  return o;
}

/** Bytes that are not this world's snapshot: truncated, padded, one byte flipped, or forged (a changed payload with a valid checksum). */
function badSnapshot(c: Ctx): { bytes: Uint8Array; forged: boolean } {
  const good = c.world.snapshot();
  const r = c.rng.next();
  if (r < 0.2) return { bytes: good.subarray(0, Math.floor(c.rng.next() * good.length)), forged: false };
  if (r < 0.3) return { bytes: Uint8Array.from([...good, 0]), forged: false };
  if (r < 0.5) {
    // one byte of the payload flipped (the checksum must catch it; the header's engine version is informational)
    const b = good.slice(), payload = c.world.snapshotPayload().length;
    b[b.length - payload + Math.floor(c.rng.next() * payload)]! ^= 1 + Math.floor(c.rng.next() * 255);
    return { bytes: b, forged: false };
  }
  const p = c.world.snapshotPayload().slice();
  for (let k = 0; k < 1 + Math.floor(c.rng.next() * 3); k++) {
    const at = Math.floor(c.rng.next() * p.length);
    if (c.rng.next() < 0.5) p[at]! ^= 1 << Math.floor(c.rng.next() * 8);
    else p.set([0xff, 0xff, 0xff, 0x7f].slice(0, p.length - at), at); // a large count or a NaN's high bytes
  }
  return { bytes: wrapPayload(p, ENGINE_VERSION), forged: true };
}

/** Restoring a world's own snapshot never fails: an InputError there is a defect, not a clean refusal. */
function own<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw new Error(`a world's own snapshot was refused: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Step `a` and `b` once each; both must fail the same way or end with the same state hash. */
function stepAlike(a: PhysicsWorld, b: PhysicsWorld, what: string): void {
  const one = (w: PhysicsWorld) => {
    try {
      w.step();
      return w.stateHash();
    } catch (e) {
      return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    }
  };
  const ha = one(a), hb = one(b);
  if (ha !== hb) throw new Error(`${what}: the next step differs (${ha} vs ${hb})`);
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
  ['sleepSpeed = NaN', (c) => { c.world.sleepSpeed = Number.NaN; }],
  ['sleepTime = -1', (c) => { c.world.sleepTime = -1; }],
  ['sleeping = 1', (c) => { c.world.sleeping = 1 as never; }],
  ['wake(0)', (c) => void c.world.wake(0)],
  ['setAllowSleep(1e9, true)', (c) => c.world.setAllowSleep(1e9, true)],
  ['setBodyFilter(0)', (c) => c.world.setBodyFilter(0, {})],
  ['filter category 2^32', (c) => c.world.setParticleFilter(some(c, 0), { category: 2 ** 32 })],
  ['filter mask 1.5', (c) => void c.world.addParticle({ x: 0, y: 0, m: 1, filter: { mask: 1.5 } })],
  ["collider sensor 'yes'", (c) => void c.world.addCircleCollider(0, -5, 1, { sensor: 'yes' as never })],
  ['oneWay (0, 0)', (c) => void c.world.addSegmentCollider(-1, 0, 1, 0, { oneWay: { x: 0, y: 0 } })],
  ['oneWay (NaN, 1)', (c) => void c.world.addSegmentCollider(-1, 0, 1, 0, { oneWay: { x: Number.NaN, y: 1 } })],
  ['setColliderVelocity on a particle', (c) => c.world.setColliderVelocity(some(c, 0), 1, 0)],
  ['setAnchor k = -1', (c) => void c.world.setAnchor(some(c, 0), 0, 0, -1)],
  ["setParticleFixed(p, 'yes')", (c) => c.world.setParticleFixed(some(c, 0), 'yes' as never)],
  ['contacts.iterations = 1.5', (c) => { c.world.contacts.iterations = 1.5; }],
  ['contacts.iterations = 1e9', (c) => { c.world.contacts.iterations = 1e9; }],
  ['contacts.maxRefinements = 1e9', (c) => { c.world.contacts.maxRefinements = 1e9; }],
  ["massMatrix 'diagonal'", (c) => { c.world.massMatrix = 'diagonal' as never; }],
  ['newton.maxStepIters 1.5', (c) => { c.world.newton = { maxStepIters: 1.5 } as never; }],
  ['warmUp({ steps: -1 })', (c) => void c.world.warmUp({ steps: -1 })],
  ['warmUp({ steps: 601 })', (c) => void c.world.warmUp({ steps: 601 })],
  ['restore(a truncated snapshot)', (c) => c.world.restore(c.world.snapshot().subarray(0, 20))],
  ['restore(a snapshot with its last byte flipped)', (c) => {
    const b = c.world.snapshot();
    b[b.length - 1]! ^= 0x55;
    c.world.restore(b);
  }],
  ['restore([1, 2, 3])', (c) => c.world.restore([1, 2, 3] as never)],
  ['fromSnapshot(empty bytes)', () => void PhysicsWorld.fromSnapshot(new Uint8Array(0))],
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
    c.colliders.push(c.world.addCircleCollider(num(c, -3, 3), num(c, -3, 0), num(c, 0.1, 2), colliderOptions(c)));
    c.world.contacts.enabled = true;
  }],
  [1, (c) => {
    c.colliders.push(c.world.addSegmentCollider(num(c, -4, 0), num(c, -2, -1), num(c, 0.1, 4), num(c, -2, -1), colliderOptions(c)));
    c.world.contacts.enabled = true;
  }],
  [1, (c) => {
    const x = num(c, -2, 2), y = num(c, -3, -1);
    c.colliders.push(c.world.addPolygonCollider([x, y, x + 1, y, x + 1, y + 0.5, x, y + 0.5], colliderOptions(c)));
    c.world.contacts.enabled = true;
  }],
  [3, (c) => {
    // a soft triangle of a contact body (valid values: several calls, so none may be refused halfway)
    const body = c.bodies.length === 0 || c.rng.next() < 0.4 ? c.world.createBody() : pick(c.rng, c.bodies);
    if (!c.bodies.includes(body)) c.bodies.push(body);
    const x = c.rng.range(-2, 2), y = c.rng.range(0, 3), s = c.rng.range(0.2, 1);
    const f = c.rng.next() < 0.3 ? { category: 1 << Math.floor(c.rng.next() * 3), group: Math.floor(c.rng.next() * 3) - 1 } : undefined;
    const ids = [[0, 0], [s, 0], [0, s]].map(([dx, dy]) => c.world.addParticle({
      x: x + dx!, y: y + dy!, vx: c.rng.range(-2, 2), vy: c.rng.range(-2, 2), m: c.rng.range(0.1, 2), radius: c.rng.range(0.02, 0.1), body, filter: f,
    }));
    c.particles.push(...ids);
    c.world.addTriangle(ids[0]!, ids[1]!, ids[2]!, { youngsModulus: c.rng.range(100, 1e4), poissonRatio: c.rng.range(0, 0.45), material: pick(c.rng, MATERIALS) });
    c.world.contacts.enabled = true;
  }],
  [1, (c) => {
    const r = c.rng.next();
    if (r < 0.4 && c.particles.length > 0) c.world.setParticleFilter(handle(c, pick(c.rng, c.particles)), filter(c));
    else if (r < 0.7 && c.bodies.length > 0) c.world.setBodyFilter(bodyHandle(c), filter(c));
    else if (c.colliders.length > 0) c.world.setColliderFilter(colliderHandle(c), { ...filter(c), oneWay: oneWay(c) });
  }],
  [2, (c) => {
    const r = c.rng.next();
    if (r < 0.3) c.world.sleeping = c.rng.next() < 0.8;
    else if (r < 0.45) c.world.sleepSpeed = num(c, 0, 0.5);
    else if (r < 0.6) c.world.sleepTime = num(c, 0, 1);
    else if (c.bodies.length > 0) {
      const b = bodyHandle(c), k = c.rng.next();
      if (k < 0.4) c.world.wake(b);
      else if (k < 0.7) c.world.setAllowSleep(b, c.rng.next() < 0.6);
      else void (c.world.isSleeping(b) && c.world.allowsSleep(b));
    }
  }],
  [1, (c) => {
    if (c.colliders.length === 0) return;
    const e = colliderHandle(c), r = c.rng.next();
    if (r < 0.4) c.world.setColliderVelocity(e, num(c, -2, 2), num(c, -2, 2), num(c, -1, 1));
    else if (r < 0.7) c.world.moveColliderTo(e, num(c, -3, 3), num(c, -3, 0), num(c, -1, 1));
    else c.world.setColliderPose(e, num(c, -3, 3), num(c, -3, 0), num(c, -3, 3));
  }],
  [1, (c) => {
    if (c.particles.length === 0) return;
    const p = handle(c, pick(c.rng, c.particles)), r = c.rng.next();
    if (r < 0.4) c.world.setParticleFixed(p, c.rng.next() < 0.5);
    else if (r < 0.8) c.world.setAnchor(p, num(c, -3, 3), num(c, -1, 4), num(c, 1, 1000));
    else c.world.clearAnchors();
  }],
  [1, (c) => {
    const r = c.rng.next(), w = c.world;
    if (r < 0.35) {
      const n: Record<string, unknown> = {};
      if (c.rng.next() < 0.6) n.maxIters = Math.floor(num(c, 1, 30));
      if (c.rng.next() < 0.6) n.maxStepIters = c.rng.next() < 0.3 ? 0 : Math.floor(num(c, 1, 40));
      if (c.rng.next() < 0.3) n.lineSearch = c.rng.next() < 0.7;
      if (c.rng.next() < 0.3) n.projection = c.rng.next() < 0.7 ? 'psd' : 'none';
      if (c.rng.next() < 0.3) n.tolerance = num(c, 1e-9, 1e-3);
      w.newton = n as never;
    } else if (r < 0.42) w.newton = 'fosssim';
    else if (r < 0.55) w.integrator = pick(c.rng, INTEGRATORS);
    else if (r < 0.62) w.massMatrix = c.rng.next() < 0.5 ? 'lumped' : 'consistent';
    else if (r < 0.72) w.dt = c.mode === 'hostile' && c.rng.next() < 0.1 ? pick(c.rng, HOSTILE) : pick(c.rng, [1 / 60, 1 / 120, 0.01, 1 / 30]);
    else {
      const k = c.rng.next();
      if (k < 0.3) w.contacts.friction = num(c, 0, 1);
      else if (k < 0.6) w.contacts.cor = num(c, 0, 1);
      else if (k < 0.8) w.contacts.iterations = Math.floor(num(c, 0, 20));
      else w.contacts.maxRefinements = Math.floor(num(c, 0, 5));
    }
  }],
  [1, (c) => {
    // snapshots: restore and fromSnapshot give the state hash they were taken with and the same next
    // step; restoring an earlier snapshot equals a fresh world made from it; hostile: bad bytes are refused
    const w = c.world, h = w.stateHash(), r = c.rng.next();
    if (r < 0.25) {
      own(() => w.restore(w.snapshot()));
      if (w.stateHash() !== h) throw new Error('restore(snapshot()) changed the state hash');
    } else if (r < 0.5) {
      const copy = own(() => PhysicsWorld.fromSnapshot(w.snapshot()));
      if (copy.stateHash() !== h) throw new Error('fromSnapshot(snapshot()) has another state hash');
      stepAlike(w, copy, 'a world and its fromSnapshot copy');
    } else if (r < 0.7 || c.mode === 'valid') {
      if (c.saved === undefined || c.rng.next() < 0.4) {
        c.saved = { bytes: w.snapshot(), hash: h, bodies: [...c.bodies] };
        return;
      }
      own(() => w.restore(c.saved!.bytes));
      if (w.stateHash() !== c.saved.hash) throw new Error('restoring an earlier snapshot gave another state hash');
      stepAlike(w, PhysicsWorld.fromSnapshot(c.saved.bytes), 'a world that restored an earlier snapshot and a world made from it');
      c.particles = [...w.lists.particles];
      c.colliders = [...w.lists.colliders];
      c.bodies = [...c.saved.bodies];
    } else {
      const { bytes, forged } = badSnapshot(c);
      const lists = JSON.stringify(w.lists);
      try {
        w.restore(bytes);
      } catch (e) {
        if (!(e instanceof InputError)) throw e;
        if (w.stateHash() !== h || JSON.stringify(w.lists) !== lists) throw new Error(`a refused snapshot changed the world (${e.message})`);
        return;
      }
      if (!forged) throw new Error('damaged snapshot bytes were accepted');
      // a forged payload was accepted: the world now holds it; re-sync the fuzzer's handles
      c.particles = [...w.lists.particles];
      c.colliders = [...w.lists.colliders];
    }
  }],
  [1, (c) => {
    const w = c.world, h = w.stateHash(), lists = JSON.stringify(w.lists);
    w.warmUp({ steps: Math.floor(num(c, 0, 6)) });
    if (w.stateHash() !== h || JSON.stringify(w.lists) !== lists) throw new Error('warmUp changed the world');
  }],
  [1, (c) => {
    const all = [...c.world.colliders, ...c.world.edges, ...c.world.halfplanes, ...c.world.lists.springs, ...c.world.lists.triangles];
    if (all.length === 0) return;
    const eid = pick(c.rng, all);
    c.world.removeEntity(handle(c, eid));
    const k = c.colliders.indexOf(eid);
    if (k >= 0) c.colliders.splice(k, 1);
  }],
  [1, (c) => {
    if (c.particles.length === 0) return;
    const k = Math.floor(c.rng.next() * c.particles.length);
    const eid = c.particles[k]!;
    c.world.removeEntity(eid);
    c.particles.splice(k, 1);
    c.removed.push(eid);
  }],
  [2, function misuse(c) {
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
  [6, function step(c) {
    c.world.step();
  }],
];
const MISUSE_OP = OPS.find(([, op]) => op.name === 'misuse')![1];
const STEP_OP = OPS.find(([, op]) => op.name === 'step')![1];
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
export function apiSequence(
  rng: Rng, maxSteps: number, mode: ApiMode, log?: (line: string) => void,
  /** Minimizing: call `fn` with the world before op `before` (0-based) and stop there. */
  probe?: { before: number; fn: (w: PhysicsWorld) => void },
): boolean {
  const c: Ctx = { rng, mode, particles: [], removed: [], bodies: [], colliders: [], world: null as unknown as PhysicsWorld };
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
    if (probe && k === probe.before) {
      probe.fn(c.world);
      return true;
    }
    const op = chooseOp(rng);
    log?.(`# op ${k}: ${op.name || 'anonymous'}`);
    if (mode === 'hostile' && op !== MISUSE_OP) refusedCleanly(c, op);
    else op(c);
    if (log && !finite(c.world)) log('  ^ the state is not finite now');
    if (op === STEP_OP) {
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

/** The world with every method call and property set written to `log` (to replay a case: test/fuzz/main.ts --trace). */
function traced(w: PhysicsWorld, log: (line: string) => void): PhysicsWorld {
  const quiet = /^(stateHash|stateHashes|snapshot|snapshotPayload|readPositions|readVelocities|particleCount)$/;
  const show = (a: unknown) => (a instanceof Uint8Array ? `<${a.length} bytes>` : typeof a === 'number' && !Number.isFinite(a) ? String(a) : JSON.stringify(a));
  return new Proxy(w, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target) as unknown;
      if (typeof v !== 'function' || typeof prop !== 'string' || quiet.test(prop)) return v;
      return (...args: unknown[]) => {
        const r = (v as (...a: unknown[]) => unknown).apply(target, args);
        log(`${prop}(${args.map(show).join(', ')}) -> ${show(r)}`);
        return r;
      };
    },
    set(target, prop, value) {
      log(`${String(prop)} = ${show(value)}`);
      return Reflect.set(target, prop, value, target);
    },
  });
}

function finite(w: PhysicsWorld): boolean {
  const x = w.readPositions(), v = w.readVelocities();
  for (let i = 0; i < x.length; i++) if (!Number.isFinite(x[i]!) || !Number.isFinite(v[i]!)) return false;
  return true;
}
