/**
 * Contact events (game mode, events stage): this step's touching pairs (pairs.ts, written by the
 * response) aggregated per (body, collider) and (body, body) pair, diffed against the last step
 * into begin / end / active (pooled, allocation-free after warm-up, deterministic order).
 */
import type { StepContext } from '../solver/context';
import type { ContactBoundary } from './boundary';
import { growF, growI } from './buffers';
import type { KinematicColliders } from './colliders';
import type { ContactPairs } from './pairs';

/** One contact between a particle (of body A) and a collider or another body, aggregated per pair per step. */
export interface ContactEvent {
  /** Body id of the particle's body (0: the particle belongs to no body). */
  bodyA: number;
  /** Entity id of one particle of A in the contact. */
  particle: number;
  /** Body id of the other body, or 0 when the contact is with a collider. */
  bodyB: number;
  /** Entity id of the collider or half-plane, or −1 for body–body contact. */
  collider: number;
  /** Contact point (on the surface of B / the collider). */
  x: number;
  y: number;
  /** Unit normal pointing from B (or the collider) towards A. */
  nx: number;
  ny: number;
  /** Normal impulse magnitude summed over the step (N·s); 0 for a sensor overlap. */
  impulse: number;
  /** A sensor overlap (a sensor collider or body, src/collision/filter.ts): reported, never pushed. */
  sensor: boolean;
}

/**
 * Event lists are refilled in place and shortened by pop(): `list.length = 0` gives a JS array a
 * fresh empty backing store, which the following pushes reallocate (≈0.5 KB per step for 30 events).
 */
function put(list: ContactEvent[], i: number, ev: ContactEvent): void {
  if (i < list.length) list[i] = ev;
  else list.push(ev);
}
function truncate(list: ContactEvent[], n: number): void {
  while (list.length > n) list.pop();
}

function newEvent(): ContactEvent {
  return { bodyA: 0, particle: -1, bodyB: 0, collider: -1, x: 0, y: 0, nx: 0, ny: 0, impulse: 0, sensor: false };
}

/**
 * An empty event list whose elements are objects from the start. A `[]` literal starts as an array of small
 * integers, and its first push of an event changes its kind: in a process that had run a world before, the
 * compiled `collect` met the new world's fresh pools in that state and was deoptimized in its first contact step
 * ("not a Smi" at the pool's push), then compiled again 30–50 ms later on one core (docs/solver.md, "Stop 35").
 */
function eventList(): ContactEvent[] {
  const list = [newEvent()];
  list.pop();
  return list;
}

const KEY_OFF = 1 << 23;
/** Numbers per event in a snapshot (exportState). */
export const EVENT_NUMBERS = 10;

/**
 * Sorts ord[0..m) ascending by (hi[k], lo[k], k), a stable bottom-up merge sort through tmp;
 * returns the array holding the result (ord or tmp). Not Array.prototype.sort with a comparator,
 * which allocates, and integer keys only: even interpreted, this kernel makes no heap number
 * (docs/solver.md, "Allocation work").
 */
function sortPairKeys(ord: Int32Array, tmp: Int32Array, m: number, hi: Int32Array, lo: Int32Array): Int32Array {
  let src = ord, dst = tmp;
  for (let w = 1; w < m; w *= 2) {
    for (let a = 0; a < m; a += 2 * w) {
      const mid = a + w < m ? a + w : m, end = a + 2 * w < m ? a + 2 * w : m;
      let i = a, j = mid;
      for (let o = a; o < end; o++) {
        let takeI = j >= end;
        if (!takeI && i < mid) {
          const x = src[i]!, y = src[j]!;
          const hx = hi[x]!, hy = hi[y]!, lx = lo[x]!, ly = lo[y]!;
          takeI = hx < hy || (hx === hy && (lx < ly || (lx === ly && x < y)));
        }
        if (takeI) dst[o] = src[i++]!;
        else dst[o] = src[j++]!;
      }
    }
    const t = src;
    src = dst;
    dst = t;
  }
  return src;
}

export class ContactEvents {

  /** Contacts that started this step, ended this step, and all current ones (valid until the next step). */
  readonly begin: ContactEvent[] = eventList();
  readonly end: ContactEvent[] = eventList();
  readonly active: ContactEvent[] = eventList();
  // events
  private recKey: Float64Array = new Float64Array(0);
  /** recKey's two parts, (A + KEY_OFF)·4 + kind and B + KEY_OFF (integers: the sort's keys; kind: 0 collider, 1 body, + 2 sensor). */
  private keyHi: Int32Array = new Int32Array(0);
  private keyLo: Int32Array = new Int32Array(0);
  private order: Int32Array = new Int32Array(0);
  private orderTmp: Int32Array = new Int32Array(0);
  private prevKeys: Float64Array = new Float64Array(0);
  private curKeys: Float64Array = new Float64Array(0);
  private pool: ContactEvent[] = eventList();
  private prevPool: ContactEvent[] = eventList();
  /** Events in prevKeys / prevPool (last step's active list). */
  private nPrev = 0;

  /** The last step's active contacts (keys and events, EVENT_NUMBERS numbers each) for a snapshot. */
  exportState(): { keys: Float64Array; events: Float64Array } {
    const n = this.nPrev, events = new Float64Array(EVENT_NUMBERS * n);
    for (let k = 0; k < n; k++) {
      const e = this.active[k]!; // this step's events: the next collect's prevPool
      events.set([e.bodyA, e.particle, e.bodyB, e.collider, e.x, e.y, e.nx, e.ny, e.impulse, e.sensor ? 1 : 0], EVENT_NUMBERS * k);
    }
    return { keys: this.prevKeys.slice(0, n), events };
  }

  importState(keys: Float64Array, events: Float64Array): void {
    const n = keys.length;
    this.prevKeys = growF(this.prevKeys, n);
    this.prevKeys.set(keys);
    while (this.pool.length < n) this.pool.push(newEvent());
    for (let k = 0; k < n; k++) {
      const e = this.pool[k]!, o = EVENT_NUMBERS * k;
      // ids are whole numbers: stored as such (| 0), not as the doubles a Float64Array reads, which changed the
      // fields' representation and deoptimized the code reading events (the sleep stage's wake test)
      e.bodyA = events[o]! | 0;
      e.particle = events[o + 1]! | 0;
      e.bodyB = events[o + 2]! | 0;
      e.collider = events[o + 3]! | 0;
      e.x = events[o + 4]!;
      e.y = events[o + 5]!;
      e.nx = events[o + 6]!;
      e.ny = events[o + 7]!;
      e.impulse = events[o + 8]!;
      e.sensor = events[o + 9] === 1;
    }
    this.nPrev = n;
    this.begin.length = 0;
    this.end.length = 0;
    for (let k = 0; k < n; k++) put(this.active, k, this.pool[k]!);
    truncate(this.active, n);
  }

  /**
   * A resting step (everything asleep, src/systems/sleep.ts: no response ran): the contacts stay as
   * they were, so nothing begins or ends and `active` keeps the last solved step's list.
   */
  rest(): void {
    truncate(this.begin, 0);
    truncate(this.end, 0);
  }

  /**
   * Forget the last step's contacts (the topology changed): every current contact begins. `active`
   * empties too: a resting or failed step before the next collect keeps it, and it must be what a
   * snapshot holds (nothing), not the forgotten list (sleeping's islands read it).
   */
  reset(): void {
    this.nPrev = 0;
    truncate(this.active, 0);
  }

  /** Aggregate this step's contacts per (body, collider) and (body, body) pair; diff against the last step. */
  collect(ctx: StepContext, pairs: ContactPairs, bnd: ContactBoundary, cols: KinematicColliders): void {
    let m = 0;
    const nPairs = pairs.count;
    this.recKey = growF(this.recKey, nPairs);
    this.order = growI(this.order, nPairs);
    this.orderTmp = growI(this.orderTmp, nPairs);
    this.keyHi = growI(this.keyHi, nPairs);
    this.keyLo = growI(this.keyLo, nPairs);
    const nE = bnd.nE;
    for (let k = 0; k < nPairs; k++) {
      if (pairs.hit[k] === 0) continue;
      const i = pairs.p[k]!, item = pairs.item[k]!;
      const actorA = bnd.actor(i);
      let kind = 0, other: number;
      if (item < 0) other = ctx.lists.halfplanes[-item - 1]!;
      else if (item < nE) {
        kind = 1;
        other = bnd.actor(bnd.ea[item]!);
      } else other = ctx.lists.colliders[cols.colliderOf(item - nE)]!;
      let A = actorA, B = other;
      if (kind === 1 && B < A) {
        A = other;
        B = actorA;
      }
      const hi = (A + KEY_OFF) * 4 + kind + 2 * pairs.sensor[k]!, lo = B + KEY_OFF;
      this.keyHi[k] = hi;
      this.keyLo[k] = lo;
      this.recKey[k] = hi * 16777216 + lo;
      this.order[m++] = k;
    }
    // by recKey, then k (lo < 2²⁴: the (hi, lo) order is recKey's)
    const ord = sortPairKeys(this.order, this.orderTmp, m, this.keyHi, this.keyLo);
    // Swap pools: last step's active events stay readable for `end`.
    const prevPool = this.pool;
    this.pool = this.prevPool;
    this.prevPool = prevPool;
    this.curKeys = growF(this.curKeys, m);
    const active = this.active;
    let nCur = 0;
    for (let s = 0; s < m; s++) {
      const k = ord[s]!;
      const key = this.recKey[k]!;
      let ev: ContactEvent;
      if (nCur > 0 && this.curKeys[nCur - 1] === key) {
        ev = active[nCur - 1]!;
        ev.impulse += pairs.imp[k]!;
        continue;
      }
      if (this.pool.length <= nCur) this.pool.push(newEvent());
      ev = this.pool[nCur]!;
      const i = pairs.p[k]!, item = pairs.item[k]!;
      const o = 4 * k;
      ev.bodyA = bnd.bodyOf[i]!;
      ev.particle = bnd.eidOf[i]!;
      ev.x = pairs.geo[o]!;
      ev.y = pairs.geo[o + 1]!;
      ev.nx = pairs.geo[o + 2]!;
      ev.ny = pairs.geo[o + 3]!;
      ev.impulse = pairs.imp[k]!;
      ev.sensor = pairs.sensor[k] === 1;
      if (item >= 0 && item < nE) {
        ev.bodyB = bnd.bodyOf[bnd.ea[item]!]!;
        ev.collider = -1;
      } else {
        ev.bodyB = 0;
        ev.collider = item < 0 ? ctx.lists.halfplanes[-item - 1]! : ctx.lists.colliders[cols.colliderOf(item - nE)]!;
      }
      this.curKeys[nCur] = key;
      put(active, nCur, ev);
      nCur++;
    }
    truncate(active, nCur);
    // Diff sorted key lists.
    let a = 0, b = 0, nBegin = 0, nEnd = 0;
    const prev = this.prevKeys;
    while (a < nCur || b < this.nPrev) {
      if (b >= this.nPrev || (a < nCur && this.curKeys[a]! < prev[b]!)) {
        put(this.begin, nBegin++, active[a]!);
        a++;
      } else if (a >= nCur || prev[b]! < this.curKeys[a]!) {
        put(this.end, nEnd++, this.prevPool[b]!);
        b++;
      } else {
        a++;
        b++;
      }
    }
    truncate(this.begin, nBegin);
    truncate(this.end, nEnd);
    const tmp = this.prevKeys;
    this.prevKeys = this.curKeys;
    this.curKeys = tmp;
    this.nPrev = nCur;
  }
}
