/**
 * Validity ranges of the physical values Elastica accepts (issue 16), and the argument checks built
 * on them: one validation layer shared by the XML loader (src/scene/xml.ts), PhysicsWorld's public
 * calls (src/world.ts), the components' data check (src/systems/ecs.ts) and the game core
 * (src/game/). docs/scene-format.md, "Validity ranges", lists them with their reasons.
 *
 * Why finite is not enough: a value can be finite and still make the step unsolvable or overflow —
 * a particle of mass 5e-324 (a denormal: 1/m is ∞), G = 1e308 or dt = 1e300 (h²K overflows), a
 * coordinate of 1e300 (its square overflows). The bounds below are wide (many orders of magnitude
 * beyond any scene we know: the bundled FOSSSim scenes use masses 0.5–50, stiffnesses up to 1e5,
 * coordinates below 10) and keep every product the step forms (h²·k·x², G·m·m/r², k/m) finite.
 * A value inside them can still describe a system that fails (a huge vortex, an extreme stiffness
 * ratio): that is reported as a failed simulation, not as bad input.
 *
 * Each range is a `{ what, ok }` check: `what` completes "expected …" in a message.
 */
import { InputError } from './errors';

export interface Range {
  /** Completes "expected …". */
  what: string;
  ok: (x: number) => boolean;
}

/** Largest |coordinate| (m): positions, rest positions, collider and half-plane geometry. */
export const MAX_COORD = 1e9;
/** Largest |velocity| (m/s). */
export const MAX_SPEED = 1e9;
/** Particle mass (kg): 0 where allowed, else within [MIN_MASS, MAX_MASS]. */
export const MIN_MASS = 1e-12;
export const MAX_MASS = 1e12;
/** Lengths (m): rest lengths, radii, viewport size. */
export const MIN_LENGTH = 1e-9;
export const MAX_LENGTH = 1e9;
/** Coefficients: stiffness k, α, Young's modulus, damping b, G, vortex kbs/kvc, density: |v| ≤ this. */
export const MAX_COEFF = 1e13;
/** Smallest non-zero |coefficient|: no denormals, nothing whose reciprocal overflows. */
export const MIN_COEFF = 1e-30;
/** Uniform forces and accelerations (simplegravity, constantforce): |f| ≤ this. */
export const MAX_FORCE = 1e9;
/** Time step (s). */
export const MIN_DT = 1e-9;
export const MAX_DT = 10;
/** Scene duration (s). The CLI also limits the number of steps (src/cli/limits.ts). */
export const MAX_DURATION = 1e9;
/** Poisson's ratio: |ν| ≤ this (ν → ±1 makes the plane-stress constants blow up). */
export const MAX_POISSON = 0.999;
/** Rest angle (rad): |θ0| ≤ this. */
export const MAX_ANGLE = 1e3;
/** Newton iterations per step. */
export const MAX_NEWTON_ITERS = 64;

const inside = (x: number, lo: number, hi: number) => x >= lo && x <= hi;
/** A bound as messages print it: 1e9 rather than 1000000000. */
export const f = (x: number): string => (x !== 0 && (Math.abs(x) >= 1e6 || Math.abs(x) < 1e-3) ? x.toExponential().replace('e+', 'e') : String(x));
const mag = (x: number) => (x < 0 ? -x : x);

export const RANGES = {
  coordinate: { what: `a number with |x| <= ${f(MAX_COORD)} (m)`, ok: (x: number) => mag(x) <= MAX_COORD },
  velocity: { what: `a number with |v| <= ${f(MAX_SPEED)} (m/s)`, ok: (x: number) => mag(x) <= MAX_SPEED },
  /** A free or fixed particle's mass; 0 is allowed (the loader checks where it is not). */
  mass: {
    what: `0 or a number in [${f(MIN_MASS)}, ${f(MAX_MASS)}] (kg)`,
    ok: (x: number) => x === 0 || inside(x, MIN_MASS, MAX_MASS),
  },
  positiveMass: { what: `a number in [${f(MIN_MASS)}, ${f(MAX_MASS)}] (kg)`, ok: (x: number) => inside(x, MIN_MASS, MAX_MASS) },
  length: { what: `a number in [${f(MIN_LENGTH)}, ${f(MAX_LENGTH)}] (m)`, ok: (x: number) => inside(x, MIN_LENGTH, MAX_LENGTH) },
  /** A length that may be 0 (a radius). */
  radius: {
    what: `0 or a number in [${f(MIN_LENGTH)}, ${f(MAX_LENGTH)}] (m)`,
    ok: (x: number) => x === 0 || inside(x, MIN_LENGTH, MAX_LENGTH),
  },
  /** A coefficient >= 0 (stiffness, damping, G, density). */
  coefficient: {
    what: `0 or a number in [${f(MIN_COEFF)}, ${f(MAX_COEFF)}]`,
    ok: (x: number) => x === 0 || inside(x, MIN_COEFF, MAX_COEFF),
  },
  positiveCoefficient: { what: `a number in [${f(MIN_COEFF)}, ${f(MAX_COEFF)}]`, ok: (x: number) => inside(x, MIN_COEFF, MAX_COEFF) },
  /** A coefficient of either sign (vortex kbs, kvc). */
  signedCoefficient: {
    what: `0 or a number with ${f(MIN_COEFF)} <= |x| <= ${f(MAX_COEFF)}`,
    ok: (x: number) => x === 0 || inside(mag(x), MIN_COEFF, MAX_COEFF),
  },
  force: { what: `a number with |f| <= ${f(MAX_FORCE)}`, ok: (x: number) => mag(x) <= MAX_FORCE },
  dt: { what: `a number in [${f(MIN_DT)}, ${f(MAX_DT)}] (s)`, ok: (x: number) => inside(x, MIN_DT, MAX_DT) },
  duration: { what: `a number in [0, ${f(MAX_DURATION)}] (s)`, ok: (x: number) => inside(x, 0, MAX_DURATION) },
  poisson: { what: `a number in [-${f(MAX_POISSON)}, ${f(MAX_POISSON)}]`, ok: (x: number) => mag(x) <= MAX_POISSON },
  angle: { what: `a number with |θ| <= ${f(MAX_ANGLE)} (rad)`, ok: (x: number) => mag(x) <= MAX_ANGLE },
  unit: { what: 'a number in [0, 1]', ok: (x: number) => inside(x, 0, 1) },
  /** Friction coefficient μ. */
  friction: { what: 'a number in [0, 1000]', ok: (x: number) => inside(x, 0, 1000) },
  tolerance: { what: 'a number in (0, 1]', ok: (x: number) => x > 0 && x <= 1 },
  newtonIters: {
    what: `an integer in [1, ${f(MAX_NEWTON_ITERS)}]`,
    ok: (x: number) => Number.isInteger(x) && inside(x, 1, MAX_NEWTON_ITERS),
  },
  /** A rest length that may be 0 (a zero-length damped spring, FOSSSim `springforce`). */
  restLength: {
    what: `0 or a number in [${f(MIN_LENGTH)}, ${f(MAX_LENGTH)}] (m)`,
    ok: (x: number) => x === 0 || inside(x, MIN_LENGTH, MAX_LENGTH),
  },
  /** A kinematic collider's rotation (rad): it accumulates while the collider spins, so wider than `angle`. */
  rotation: { what: `a number with |θ| <= ${f(MAX_COORD)} (rad)`, ok: (x: number) => mag(x) <= MAX_COORD },
  /** A kinematic collider's angular velocity (rad/s). */
  angularVelocity: { what: `a number with |ω| <= ${f(MAX_SPEED)} (rad/s)`, ok: (x: number) => mag(x) <= MAX_SPEED },
  /** Coefficient of restitution. */
  cor: { what: 'a number in [0, 1] (coefficient of restitution)', ok: (x: number) => inside(x, 0, 1) },
} as const satisfies Record<string, Range>;

/** Throw an InputError naming `where` unless `value` is a finite number within `range`. */
export function requireInRange(value: number, range: Range, where: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || !range.ok(value)) {
    throw new InputError(`${where}: expected ${range.what}, got ${shown(value)}`);
  }
  return value;
}

// ---- API argument checks: each message names the call, the argument and what was expected ----------
// `call` is the public name (`addSpring`, `contacts.cor`), `arg` the argument or option (`alpha`).

/** A value as a message shows it (strings quoted, so '' and 'NaN' are visible). */
export function shown(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null || v === undefined) return String(v);
  if (Array.isArray(v) || ArrayBuffer.isView(v)) return `an array of length ${(v as ArrayLike<unknown>).length}`;
  return typeof v;
}

/** Where a message points: `call: 'arg'`. */
export function argWhere(call: string, arg: string): string {
  return `${call}: '${arg}'`;
}

/** The number argument `arg` of `call`, within `range` (finite always). */
export function numArg(call: string, arg: string, value: unknown, range: Range): number {
  return requireInRange(value as number, range, argWhere(call, arg));
}

/** An optional number argument: `def` when undefined, else checked like numArg. */
export function optNumArg(call: string, arg: string, value: unknown, range: Range, def: number): number {
  return value === undefined ? def : numArg(call, arg, value, range);
}

/** An options object (a plain object; `undefined` is refused unless `optional`). */
export function objArg<T extends object>(call: string, arg: string, value: T | undefined, optional = false): T {
  if (value === undefined && optional) return {} as T;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InputError(`${argWhere(call, arg)}: expected an options object, got ${shown(value)}`);
  }
  return value;
}

/** An optional boolean argument. */
export function boolArg(call: string, arg: string, value: unknown, def: boolean): boolean {
  if (value === undefined) return def;
  if (typeof value !== 'boolean') throw new InputError(`${argWhere(call, arg)}: expected true or false, got ${shown(value)}`);
  return value;
}

/** One of a fixed set of strings. */
export function oneOfArg<T extends string>(call: string, arg: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new InputError(`${argWhere(call, arg)}: expected one of ${allowed.map((a) => `'${a}'`).join(', ')}, got ${shown(value)}`);
  }
  return value as T;
}

/** An array of numbers of `length` (a multiple of `multiple` when given, at least `min`), each within `range`. */
export function numArrayArg(
  call: string, arg: string, value: unknown, range: Range, shape: { length?: number; min?: number; multiple?: number },
): ArrayLike<number> {
  const what = shape.length !== undefined
    ? `${shape.length} numbers`
    : `an array of numbers${shape.multiple ? ` (a multiple of ${shape.multiple})` : ''}${shape.min ? `, at least ${shape.min}` : ''}`;
  if (!isArrayLike(value)) throw new InputError(`${argWhere(call, arg)}: expected ${what}, got ${shown(value)}`);
  const n = value.length;
  if ((shape.length !== undefined && n !== shape.length) || (shape.min !== undefined && n < shape.min) || (shape.multiple && n % shape.multiple !== 0)) {
    throw new InputError(`${argWhere(call, arg)}: expected ${what}, got ${n} number(s)`);
  }
  for (let i = 0; i < n; i++) {
    const x = value[i];
    if (typeof x !== 'number' || !Number.isFinite(x) || !range.ok(x)) {
      throw new InputError(`${argWhere(call, arg)}[${i}]: expected ${range.what}, got ${shown(x)}`);
    }
  }
  return value as ArrayLike<number>;
}

function isArrayLike(v: unknown): v is ArrayLike<unknown> {
  return Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof DataView)) ||
    (typeof v === 'object' && v !== null && typeof (v as { length?: unknown }).length === 'number');
}

/** An output array: a Float64Array of at least `length` elements (filled in place). */
export function outArg(call: string, value: unknown, length: number): Float64Array {
  if (!(value instanceof Float64Array)) throw new InputError(`${argWhere(call, 'out')}: expected a Float64Array, got ${shown(value)}`);
  if (value.length < length) {
    throw new InputError(`${argWhere(call, 'out')}: expected a Float64Array of at least ${length} elements (2 per particle), got length ${value.length}`);
  }
  return value;
}
