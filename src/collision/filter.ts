/**
 * Collision filtering, sensors and one-way colliders (game mode): which contact pairs push, which only
 * report an overlap, and which are skipped. Phaser Matter's `collisionFilter` semantics:
 *
 *   same non-zero group → collide when the group is positive, never when negative;
 *   otherwise collide when (A.mask & B.category) ≠ 0 and (B.mask & A.category) ≠ 0.
 *
 * Data lives in the components (the source of truth, snapshotted with them): `Particle.filter` /
 * `Collider.filter` (FILTER_* bits; 0 = the default filter: category 1, mask all bits, group 0, not
 * a sensor), `category`, `mask`, `group`; `Collider.oneWayX`, `oneWayY`. The body-level API
 * (PhysicsWorld.setBodyFilter) writes the same filter on every particle of a body.
 *
 * Once per step (`update`, integers only) the filter copies them into dense per-particle and
 * per-collider arrays (the one-way directions are read from the store through the collider's entity), so an edit takes effect at the next step with no rebuild of anything; the
 * decision per pair is then a few integer operations on those arrays (`bodies`, `collider`) in the
 * candidate search (candidates.ts), the post-solve detection (response.ts) and the sensor pass
 * (sensors.ts). Per-actor data rather than a table per body pair: O(particles + colliders) memory
 * and the same answer. Self contact (a particle against its own body's edges) is never filtered.
 * Half-planes (bounds) are not filtered; a sensor particle ignores them.
 *
 * One-way colliders: a particle gets contact with a one-way collider's shape only when it started
 * the step strictly on the solid side, (x⁰ − c)·n > 0 with c the closest point of the shape at its
 * start pose and n the pass direction (bodies move through along +n, land coming along −n). Start-
 * of-step positions only: deterministic, the same in the search, its refinements and the response.
 */
import type { StepContext } from '../solver/context';
import type { ContactBoundary } from './boundary';
import { growI, growU8 } from './buffers';
import type { KinematicColliders } from './colliders';

/** Filter flag bits (Particle.filter, Collider.filter). */
export const FILTER_SET = 1;
export const FILTER_SENSOR = 2;
export const FILTER_ONE_WAY = 4;
/** Matter's defaults: category 0x0001, mask 0xFFFFFFFF (as an i32: −1), group 0. */
export const DEFAULT_CATEGORY = 1;
export const DEFAULT_MASK = -1;

/** The pair outcomes of `bodies` / `collider`. */
export const PAIR_NONE = 0;
export const PAIR_CONTACT = 1;
export const PAIR_SENSOR = 2;

/** Matter's rule: may two filters (category, mask, group) collide? */
export function canCollide(catA: number, maskA: number, groupA: number, catB: number, maskB: number, groupB: number): boolean {
  if (groupA === groupB && groupA !== 0) return groupA > 0;
  return (maskA & catB) !== 0 && (maskB & catA) !== 0;
}

/** The filter columns of the Particle and Collider stores. */
interface FilterStore {
  filter: Uint8Array;
  category: Int32Array;
  mask: Int32Array;
  group: Int32Array;
}

/**
 * flag/cat/mask/group[k] ← the filter of entity ids[k] (the default category, mask and group when its
 * filter is not set), k < count. Returns the OR of the flags (any filter, sensor, one-way bit set).
 */
function readFilters(
  S: FilterStore, ids: ArrayLike<number>, count: number, flag: Uint8Array, cat: Int32Array, mask: Int32Array, group: Int32Array,
): number {
  let any = 0;
  for (let k = 0; k < count; k++) {
    const e = ids[k]!, f = S.filter[e]!;
    flag[k] = f;
    const set = (f & FILTER_SET) !== 0;
    cat[k] = set ? S.category[e]! : DEFAULT_CATEGORY;
    mask[k] = set ? S.mask[e]! : DEFAULT_MASK;
    group[k] = set ? S.group[e]! : 0;
    any |= f;
  }
  return any;
}

export class ContactFilter {
  /** Some particle or collider has a filter, sensor or one-way flag (else every pair is a contact). */
  on = false;
  /** Some particle or collider is a sensor (the sensor pass runs). */
  anySensor = false;
  // per particle (dense, creation order)
  private pFlag: Uint8Array = new Uint8Array(0);
  private pCat: Int32Array = new Int32Array(0);
  private pMask: Int32Array = new Int32Array(0);
  private pGroup: Int32Array = new Int32Array(0);
  // per collider (index into ctx.lists.colliders)
  private cFlag: Uint8Array = new Uint8Array(0);
  private cCat: Int32Array = new Int32Array(0);
  private cMask: Int32Array = new Int32Array(0);
  private cGroup: Int32Array = new Int32Array(0);
  /** Per collider: its entity (the pass direction is read from the Collider store, `oneWayX`, `oneWayY`). */
  private cEid: Int32Array = new Int32Array(0);
  private oneWayX: Float64Array = new Float64Array(0);
  private oneWayY: Float64Array = new Float64Array(0);

  /** Read this step's filters from the components (integers and a copy of the directions; no allocation after growth). */
  update(ctx: StepContext, bnd: ContactBoundary): void {
    const P = ctx.c.Particle, K = ctx.c.Collider;
    const n = bnd.n, eid = bnd.eidOf;
    this.pFlag = growU8(this.pFlag, n);
    this.pCat = growI(this.pCat, n);
    this.pMask = growI(this.pMask, n);
    this.pGroup = growI(this.pGroup, n);
    const any = readFilters(P, eid, n, this.pFlag, this.pCat, this.pMask, this.pGroup);
    const cols = ctx.lists.colliders, nc = cols.length;
    this.cFlag = growU8(this.cFlag, nc);
    this.cCat = growI(this.cCat, nc);
    this.cMask = growI(this.cMask, nc);
    this.cGroup = growI(this.cGroup, nc);
    this.cEid = growI(this.cEid, nc);
    this.oneWayX = K.oneWayX;
    this.oneWayY = K.oneWayY;
    for (let k = 0; k < nc; k++) this.cEid[k] = cols[k]!;
    const all = any | readFilters(K, cols, nc, this.cFlag, this.cCat, this.cMask, this.cGroup);
    this.on = all !== 0;
    this.anySensor = (all & FILTER_SENSOR) !== 0;
  }

  /** Particle i is a sensor (it ignores half-planes and pushes nothing). */
  sensorParticle(i: number): boolean {
    return this.on && (this.pFlag[i]! & FILTER_SENSOR) !== 0;
  }

  /**
   * Particle i against a body surface whose particle is j (an edge's first node): PAIR_CONTACT,
   * PAIR_SENSOR (either is a sensor) or PAIR_NONE (filtered out). The same body is always a contact.
   */
  bodies(i: number, j: number, bnd: ContactBoundary): number {
    if (!this.on) return PAIR_CONTACT;
    const sensor = ((this.pFlag[i]! | this.pFlag[j]!) & FILTER_SENSOR) !== 0 ? PAIR_SENSOR : PAIR_CONTACT;
    if (bnd.actor(i) === bnd.actor(j)) return sensor;
    return canCollide(this.pCat[i]!, this.pMask[i]!, this.pGroup[i]!, this.pCat[j]!, this.pMask[j]!, this.pGroup[j]!)
      ? sensor : PAIR_NONE;
  }

  /** Particle i against collider `col` (index into ctx.lists.colliders): PAIR_CONTACT, PAIR_SENSOR or PAIR_NONE. */
  collider(i: number, col: number): number {
    if (!this.on) return PAIR_CONTACT;
    if (!canCollide(this.pCat[i]!, this.pMask[i]!, this.pGroup[i]!, this.cCat[col]!, this.cMask[col]!, this.cGroup[col]!)) return PAIR_NONE;
    return ((this.pFlag[i]! | this.cFlag[col]!) & FILTER_SENSOR) !== 0 ? PAIR_SENSOR : PAIR_CONTACT;
  }

  /** Collider `col` is one-way. */
  oneWay(col: number): boolean {
    return this.on && (this.cFlag[col]! & FILTER_ONE_WAY) !== 0;
  }

  /**
   * Particle i against collider shape `item` (item number ≥ nE: a segment, circle or polygon interior of
   * this step's shapes): does the pair push? The filter says contact and, for a one-way collider, the
   * particle started on its solid side (a one-way polygon's interior never pushes a particle out).
   */
  contactWithShape(i: number, item: number, nE: number, cols: KinematicColliders, x0: Float64Array): boolean {
    if (!this.on) return true;
    const j = item - nE, col = cols.colliderOf(j);
    if (this.collider(i, col) !== PAIR_CONTACT) return false;
    if ((this.cFlag[col]! & FILTER_ONE_WAY) === 0) return true;
    if (j < cols.nS) return this.solidSideSegment(col, x0, i, cols.seg, 8 * j);
    if (j < cols.nS + cols.nC) return this.solidSideCircle(col, x0, i, cols.circ, 5 * (j - cols.nS));
    return false;
  }

  /** Particle i against boundary edge `item`: does the pair push (filter says contact)? */
  contactWithEdge(i: number, item: number, bnd: ContactBoundary): boolean {
    return !this.on || this.bodies(i, bnd.ea[item]!, bnd) === PAIR_CONTACT;
  }

  /**
   * One-way collider `col`, particle i at x0: does it start strictly on the solid side of the segment
   * sg[o .. o + 3] (start pose a, b)? (x⁰ − c)·n > 0, c the closest point of the segment.
   */
  solidSideSegment(col: number, x0: Float64Array, i: number, sg: Float64Array, o: number): boolean {
    const px = x0[2 * i]!, py = x0[2 * i + 1]!;
    const ax = sg[o]!, ay = sg[o + 1]!, ex = sg[o + 2]! - ax, ey = sg[o + 3]! - ay;
    const l2 = ex * ex + ey * ey;
    let al = 0;
    if (l2 > 0) {
      const t = ((px - ax) * ex + (py - ay) * ey) / l2;
      al = t < 0 ? 0 : t > 1 ? 1 : t;
    }
    const dx = px - (ax + al * ex), dy = py - (ay + al * ey);
    const e = this.cEid[col]!;
    return dx * this.oneWayX[e]! + dy * this.oneWayY[e]! > 0;
  }

  /** As solidSideSegment for a circle of centre ci[o], ci[o + 1] (start pose) and radius R = ci[o + 4]. */
  solidSideCircle(col: number, x0: Float64Array, i: number, ci: Float64Array, o: number): boolean {
    const dx = x0[2 * i]! - ci[o]!, dy = x0[2 * i + 1]! - ci[o + 1]!;
    const l = Math.sqrt(dx * dx + dy * dy);
    // (x⁰ − c)·n with c = centre + R u: (l − R)(u·n); inside the circle there is no solid side
    const e = this.cEid[col]!;
    const s = dx * this.oneWayX[e]! + dy * this.oneWayY[e]!;
    return l > ci[o + 4]! && s > 0;
  }
}
