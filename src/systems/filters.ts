/**
 * Collision filters, sensors and one-way colliders as API options (docs/contact.md, "Filters, sensors,
 * one-way colliders"): validation with a clear InputError, and the component fields they write
 * (Particle / Collider `filter`, `category`, `mask`, `group`, `oneWayX`, `oneWayY`; the rules are
 * src/collision/filter.ts's). Setup-rate code.
 */
import type { Components } from '../components';
import { FILTER_ONE_WAY, FILTER_SENSOR, FILTER_SET } from '../collision/filter';
import { InputError } from '../errors';

/** Phaser Matter's `collisionFilter`: category bit, mask of categories collided with, group (see filter.ts). */
export interface CollisionFilter {
  /** A bit (1, 2, 4, … 2³¹); default 1. Any 32-bit pattern is accepted. */
  category?: number;
  /** The categories this collides with (default 0xFFFFFFFF: all). */
  mask?: number;
  /** Same non-zero group: positive always collide, negative never (default 0: by category and mask). */
  group?: number;
}

/** A filter edit: the filter fields, and whether the particles (or collider) are sensors. */
export interface FilterOptions extends CollisionFilter {
  /** Report overlaps as contact events with `sensor: true`, never push (default false). */
  sensor?: boolean;
}

/** One-way collider: true passes bodies moving up (+y, from below); a vector is the pass direction. */
export type OneWay = boolean | { x: number; y: number };

function bits(where: string, key: string, v: number | undefined, fallback: number, signed: boolean): number {
  if (v === undefined) return fallback;
  const lo = -(2 ** 31), hi = signed ? 2 ** 31 : 2 ** 32;
  if (!Number.isInteger(v) || v < lo || v >= hi) {
    throw new InputError(`${where}: '${key}' must be an integer ${signed ? 'in [-2^31, 2^31)' : 'bit pattern in [-2^31, 2^32)'}, got ${v}`);
  }
  return v | 0;
}

/** Validated filter: [filter flags (FILTER_SET, FILTER_SENSOR), category, mask, group]. */
export function parseFilter(where: string, f: FilterOptions | undefined): [number, number, number, number] {
  if (f === undefined) return [0, 1, -1, 0];
  if (typeof f !== 'object' || f === null) throw new InputError(`${where}: the collision filter must be an object { category, mask, group, sensor }`);
  const category = bits(where, 'category', f.category, 1, false);
  const mask = bits(where, 'mask', f.mask, -1, false);
  const group = bits(where, 'group', f.group, 0, true);
  if (f.sensor !== undefined && typeof f.sensor !== 'boolean') throw new InputError(`${where}: 'sensor' must be true or false, got ${String(f.sensor)}`);
  const set = f.category !== undefined || f.mask !== undefined || f.group !== undefined ? FILTER_SET : 0;
  return [set | (f.sensor === true ? FILTER_SENSOR : 0), category, mask, group];
}

/** Write a particle's filter. */
export function writeParticleFilter(c: Components, eid: number, f: [number, number, number, number]): void {
  const P = c.Particle;
  P.filter[eid] = f[0];
  P.category[eid] = f[1];
  P.mask[eid] = f[2];
  P.group[eid] = f[3];
}

/** Validated one-way direction (unit vector) or null (not one-way). */
export function parseOneWay(where: string, o: OneWay | undefined): [number, number] | null {
  if (o === undefined || o === false) return null;
  if (o === true) return [0, 1];
  if (typeof o !== 'object' || o === null || !Number.isFinite(o.x) || !Number.isFinite(o.y) || (o.x === 0 && o.y === 0)) {
    throw new InputError(`${where}: 'oneWay' must be true, false or a non-zero direction { x, y }, got ${JSON.stringify(o)}`);
  }
  // scaled by the larger component first: x² + y² under- or overflows for tiny or huge finite
  // directions ({ x: 0, y: 5e-324 } gave 0/0 = NaN, { x: 1e300, y: 1e300 } a zero vector)
  const m = Math.max(Math.abs(o.x), Math.abs(o.y)), x = o.x / m, y = o.y / m;
  const l = Math.sqrt(x * x + y * y);
  return [x / l, y / l];
}

/** Write a collider's filter, sensor flag and one-way direction. */
export function writeColliderFilter(c: Components, eid: number, f: [number, number, number, number], oneWay: [number, number] | null): void {
  const K = c.Collider;
  K.filter[eid] = f[0] | (oneWay ? FILTER_ONE_WAY : 0);
  K.category[eid] = f[1];
  K.mask[eid] = f[2];
  K.group[eid] = f[3];
  K.oneWayX[eid] = oneWay ? oneWay[0] : 0;
  K.oneWayY[eid] = oneWay ? oneWay[1] : 0;
}
