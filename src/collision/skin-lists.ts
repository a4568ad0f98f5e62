/**
 * Skin lists of the candidate search (issue 15): per particle, the items of the broad phase its query box can meet
 * while every box stays inside the box it had when the lists were built, grown by a skin σ (Verlet's neighbour
 * lists). A search whose boxes are all inside their grown boxes takes each particle's items from its list
 * instead of building the hash and querying it; otherwise the lists are built again, through the hash, with
 * every box grown by σ. Up to SKIN_ESCAPED_MAX item boxes may have left theirs (a moving platform, a paddle): the
 * lists still serve, and each of those items is tested against every query box instead, in its place in the
 * ascending order.
 *
 * The items a list gives are exactly the hash query's (SpatialHash.queryQ: the items whose world boxes overlap
 * the query box, closed intervals, ascending): a current item box and query box that overlap lie inside their
 * grown boxes, which then overlap too, so the grown query found the item; `filter` keeps the list's items whose
 * current boxes overlap the current query box, with the query's own comparisons, in the list's ascending order.
 * Results are bit-identical with or without the lists (test/skin-lists.test.ts). The argument needs proper boxes
 * (min ≤ max, as the search's are) with finite bounds at the build: a search that meets another kind builds the
 * hash over its exact boxes and queries it, as before the lists (a NaN comparison is false: never inside).
 *
 * Which items and particles the numbers mean does not matter: the check is on the boxes alone, so the lists need no
 * place in snapshots. Besides the boxes they keep the counts, and (in `sk`, for the caller) the skin and the trust
 * region's growth they were built with: the search builds them again for another skin or a smaller growth, so that
 * a refinement's large boxes do not stay in the lists of the steps after it. Lists built and left before they served
 * a search make `ensure` back off to the hash for a while (scenes in constant motion).
 */
import { growF, growI, growU8 } from './buffers';
import type { ItemBroadphase } from './broadphase';

/**
 * Offsets of `sk`: the skin σ and the trust region's growth (δ − δ₀) of the lists held, and the σ of the next build
 * (written by the caller before `ensure`). The caller compares and writes these doubles in its own (optimized) code:
 * in a method called once a search, V8's baseline tier boxed each one read (the allocation gate: 64 B a step).
 */
export const SK_SKIN = 0, SK_EX = 1, SK_WANT = 2;

/** Most items whose boxes left their grown boxes that held lists still serve (each then tested by every query). */
export const SKIN_ESCAPED_MAX = 32;

/** Most searches skipped between builds that were wasted (SkinLists.ensure). */
export const SKIN_SKIP_MAX = 15;

/** What `ensure` did: no lists (a box not finite or not proper, or backing off), the lists held, or built now. */
export const SKIN_NONE = 0, SKIN_HELD = 1, SKIN_BUILT = 2;

export class SkinLists {
  /** On by default; off, the search builds the hash and queries it every time (tests compare: the same results). */
  on = true;
  /** Doubles, offsets SK_*. */
  readonly sk = new Float64Array(3);
  /** Whether lists are held (0 before the first build, after a build that met a box not finite or not proper, and while backing off). */
  private valid = 0;
  private nItems = -1;
  private n = -1;
  /** Grown boxes: items (4 each), particles' queries (4 each). */
  private gItem: Float64Array = new Float64Array(0);
  private gQuery: Float64Array = new Float64Array(0);
  /** 1 for a particle that had a list at the build (it queried then). */
  private has: Uint8Array = new Uint8Array(0);
  /** CSR lists: particle i's items are items[start[i] .. start[i + 1]), ascending. */
  private start: Int32Array = new Int32Array(1);
  private items: Int32Array = new Int32Array(0);
  /**
   * Items whose box left its grown box while the lists still serve (a moving platform or paddle): at most
   * SKIN_ESCAPED_MAX, ascending, and marked in `escMark`; each search tests them against every query box itself.
   */
  private esc: Int32Array = new Int32Array(SKIN_ESCAPED_MAX);
  private nEsc = 0;
  private escMark: Uint8Array = new Uint8Array(0);
  /** 1 from a build until the lists serve a search: a build that never does was wasted. */
  private unused = 0;
  /** Searches the lists skip (the hash queried as before) after the last wasted build, and how many are left. */
  private skip = 0;
  private wait = 0;
  /** Builds, searches served from held lists, and searches that skipped the lists (tests and profiling). */
  builds = 0;
  reuses = 0;
  skipped = 0;

  /**
   * Make the lists cover this search: `bp.itemBox` (bp.nItems items), the query boxes `qb` (4 per particle) of
   * the particles with `qf[i]` = 1. `same` is 1 when the lists held were built with sk[SK_WANT] as their skin and a
   * trust growth no larger than this search's. Returns SKIN_HELD (the lists held cover it), SKIN_BUILT (built now,
   * with the skin sk[SK_WANT]: the caller records it and the trust growth in `sk`), or SKIN_NONE (a box not
   * finite or not proper, or backing off after wasted builds: the caller then builds the hash over the exact boxes
   * and queries it).
   */
  ensure(bp: ItemBroadphase, n: number, qb: Float64Array, qf: Uint8Array, same: number): number {
    clearMarks(this.nEsc, this.esc, this.escMark);
    this.nEsc = 0;
    if (this.valid === 1 && same === 1 && bp.nItems === this.nItems && n === this.n &&
      inside(n, qb, this.gQuery, qf) && hadList(n, qf, this.has)) {
      this.escMark = growU8(this.escMark, bp.nItems);
      const k = escapees(bp.nItems, bp.itemBox, this.gItem, this.esc, this.escMark);
      if (k >= 0) {
        this.nEsc = k;
        this.reuses++;
        this.unused = 0;
        this.skip = 0;
        return SKIN_HELD;
      }
    }
    // Lists built and left before they served a search (every body or a collider moving by more than σ a step: a
    // stirred pile) cost more than the hash alone: back off, skipping 1, 3, 7 and then 15 searches between builds.
    if (this.valid === 1 && this.unused === 1) {
      this.skip = Math.min(2 * this.skip + 1, SKIN_SKIP_MAX);
      this.wait = this.skip;
    }
    this.valid = 0;
    if (this.wait > 0) {
      this.wait--;
      this.skipped++;
      return SKIN_NONE;
    }
    return this.build(bp, n, qb, qf) ? SKIN_BUILT : SKIN_NONE;
  }

  /** Build the lists through the hash with every box grown by sk[SK_WANT]; false (no lists) when a box is not finite or not proper. */
  private build(bp: ItemBroadphase, n: number, qb: Float64Array, qf: Uint8Array): boolean {
    this.valid = 0;
    const nI = bp.nItems, sk = this.sk;
    this.gItem = growF(this.gItem, 4 * nI);
    this.gQuery = growF(this.gQuery, 4 * n);
    this.has = growU8(this.has, n);
    if (!grownBoxes(nI, bp.itemBox, sk, this.gItem, null) || !grownBoxes(n, qb, sk, this.gQuery, qf)) return false;
    bp.pad[0] = sk[SK_WANT]!;
    bp.hashBoxes();
    const hash = bp.hash, hq = hash.q, cand = bp.cand, g = this.gQuery;
    this.start = growI(this.start, n + 1);
    const start = this.start;
    let m = 0;
    start[0] = 0;
    for (let i = 0; i < n; i++) {
      this.has[i] = qf[i]!;
      if (qf[i] === 1) {
        const o = 4 * i;
        hq[0] = g[o]!;
        hq[1] = g[o + 1]!;
        hq[2] = g[o + 2]!;
        hq[3] = g[o + 3]!;
        const cnt = hash.queryQ(cand);
        this.items = growI(this.items, m + cnt);
        const items = this.items, buf = cand.buf;
        for (let c = 0; c < cnt; c++) items[m + c] = buf[c]!;
        m += cnt;
      }
      start[i + 1] = m;
    }
    this.nItems = nI;
    this.n = n;
    this.valid = 1;
    this.unused = 1;
    this.builds++;
    return true;
  }

  /**
   * out.buf[0..k) ← the items of particle i's list whose box in `ib` overlaps its query box in `qb` (closed
   * intervals, the comparisons of SpatialHash.queryQ), ascending; returns k. Only after `ensure` returned SKIN_HELD or SKIN_BUILT.
   */
  filter(i: number, ib: Float64Array, qb: Float64Array, out: { buf: Int32Array }): number {
    const s0 = this.start[i]!, s1 = this.start[i + 1]!, m = s1 - s0 + this.nEsc;
    if (out.buf.length < m) out.buf = new Int32Array(Math.max(16, 2 * out.buf.length, m));
    if (this.nEsc === 0) return filterKernel(s0, s1, this.items, ib, qb, 4 * i, out.buf);
    return filterEscapedKernel(s0, s1, this.items, ib, qb, 4 * i, out.buf, this.esc, this.nEsc, this.escMark);
  }
}

/** Whether every box of `b` with f[i] = 1 is proper (min ≤ max) and lies inside its box of `g`; NaN is never inside. */
function inside(n: number, b: Float64Array, g: Float64Array, f: Uint8Array): boolean {
  for (let i = 0; i < n; i++) {
    if (f[i] !== 1) continue;
    const o = 4 * i;
    if (!(b[o]! >= g[o]! && b[o + 1]! >= g[o + 1]! && b[o + 2]! <= g[o + 2]! && b[o + 3]! <= g[o + 3]! && b[o]! <= b[o + 2]! && b[o + 1]! <= b[o + 3]!)) {
      return false;
    }
  }
  return true;
}

/**
 * The items whose box left its grown box, into esc (ascending) and marked in `mark`; their count, or −1 when there
 * are more than SKIN_ESCAPED_MAX, or one of them, or any other box, is not proper or not finite (marks cleared then).
 * An item that left is tested against every query box by the filter, with the hash query's own comparisons, which
 * give the hash's answer only for a proper box with finite bounds.
 */
function escapees(n: number, b: Float64Array, g: Float64Array, esc: Int32Array, mark: Uint8Array): number {
  let k = 0;
  for (let i = 0; i < n; i++) {
    const o = 4 * i;
    if (b[o]! >= g[o]! && b[o + 1]! >= g[o + 1]! && b[o + 2]! <= g[o + 2]! && b[o + 3]! <= g[o + 3]! && b[o]! <= b[o + 2]! && b[o + 1]! <= b[o + 3]!) {
      continue;
    }
    const finite = Number.isFinite(b[o]!) && Number.isFinite(b[o + 1]!) && Number.isFinite(b[o + 2]!) && Number.isFinite(b[o + 3]!);
    if (k === SKIN_ESCAPED_MAX || !finite || !(b[o]! <= b[o + 2]! && b[o + 1]! <= b[o + 3]!)) {
      clearMarks(k, esc, mark);
      return -1;
    }
    esc[k++] = i;
    mark[i] = 1;
  }
  return k;
}

/** Unmark the first k items of esc. */
function clearMarks(k: number, esc: Int32Array, mark: Uint8Array): void {
  for (let e = 0; e < k; e++) mark[esc[e]!] = 0;
}

/** Whether every particle querying now had a list at the build. */
function hadList(n: number, qf: Uint8Array, has: Uint8Array): boolean {
  for (let i = 0; i < n; i++) if (qf[i] === 1 && has[i] !== 1) return false;
  return true;
}

/**
 * g ← b grown by sk[SK_WANT] (the boxes with f[i] = 1 when f is given); false when one is not finite or not proper
 * (min > max: the hash puts such an item in no cell, where the overlap test alone could pass it).
 */
function grownBoxes(n: number, b: Float64Array, sk: Float64Array, g: Float64Array, f: Uint8Array | null): boolean {
  const s = sk[SK_WANT]!;
  for (let i = 0; i < n; i++) {
    if (f !== null && f[i] !== 1) continue;
    const o = 4 * i;
    g[o] = b[o]! - s;
    g[o + 1] = b[o + 1]! - s;
    g[o + 2] = b[o + 2]! + s;
    g[o + 3] = b[o + 3]! + s;
    if (!(Number.isFinite(g[o]!) && Number.isFinite(g[o + 1]!) && Number.isFinite(g[o + 2]!) && Number.isFinite(g[o + 3]!))) return false;
    if (!(b[o]! <= b[o + 2]! && b[o + 1]! <= b[o + 3]!)) return false;
  }
  return true;
}

/**
 * SkinLists.filter's loop with items that left their grown boxes: the list's other items, merged in ascending order
 * with the escaped ones (esc, ascending; marked in `mark`, so the list's copies are skipped) that overlap the query.
 */
function filterEscapedKernel(
  s0: number, s1: number, items: Int32Array, w: Float64Array, qb: Float64Array, q: number, out: Int32Array,
  esc: Int32Array, nEsc: number, mark: Uint8Array,
): number {
  const qx0 = qb[q]!, qy0 = qb[q + 1]!, qx1 = qb[q + 2]!, qy1 = qb[q + 3]!;
  let k = 0, e = 0;
  for (let c = s0; c < s1; c++) {
    const i = items[c]!, o = 4 * i;
    if (mark[i] === 1 || w[o]! > qx1 || w[o + 2]! < qx0 || w[o + 1]! > qy1 || w[o + 3]! < qy0) continue;
    for (; e < nEsc && esc[e]! < i; e++) {
      const j = esc[e]!, p = 4 * j;
      if (!(w[p]! > qx1 || w[p + 2]! < qx0 || w[p + 1]! > qy1 || w[p + 3]! < qy0)) out[k++] = j;
    }
    out[k++] = i;
  }
  for (; e < nEsc; e++) {
    const j = esc[e]!, p = 4 * j;
    if (!(w[p]! > qx1 || w[p + 2]! < qx0 || w[p + 1]! > qy1 || w[p + 3]! < qy0)) out[k++] = j;
  }
  return k;
}

/** SkinLists.filter's loop. */
function filterKernel(s0: number, s1: number, items: Int32Array, w: Float64Array, qb: Float64Array, q: number, out: Int32Array): number {
  const qx0 = qb[q]!, qy0 = qb[q + 1]!, qx1 = qb[q + 2]!, qy1 = qb[q + 3]!;
  let k = 0;
  for (let c = s0; c < s1; c++) {
    const i = items[c]!, o = 4 * i;
    if (w[o]! > qx1 || w[o + 2]! < qx0 || w[o + 1]! > qy1 || w[o + 3]! < qy0) continue;
    out[k++] = i;
  }
  return k;
}
