/**
 * Is a closed polygon simple? An O(N log N) Shamos–Hoey sweep (issue 16), used by the XML loader's
 * `<polygoncollider>` and by PhysicsWorld.addPolygonCollider (which were O(N²): 33 s at 30,000
 * points, so the loader capped polygons at 4,096 points and the API was unguarded).
 *
 * The polygon is points x0 y0 x1 y1 …; edge i joins point i to point i + 1 (mod N). It is simple when
 * no two consecutive points coincide, no two consecutive edges fold back onto each other, no two
 * non-adjacent edges touch or cross, and its area is not zero. `polygonProblem` says why not (naming
 * the points or edges), or returns '' when it is.
 *
 * Exactness: every decision is an orientation sign. `orient` uses Shewchuk's floating-point filter
 * and, when the filter cannot decide (collinear or nearly so), recomputes the determinant exactly
 * with BigInt on the coordinates' exact binary values (finite doubles are integers times 2^-1074).
 * So the answer is that of exact arithmetic on the given doubles; it is deterministic (no random
 * numbers: the balanced tree's priorities come from a fixed-seed generator, and only its shape, not
 * the answer, depends on them).
 *
 * The sweep: vertices are distinct (checked first by sorting them), so each sweep point is one
 * vertex, where exactly its two edges start or end. Events run in lexicographic (x, y) order, ends
 * before starts at a point. The status holds the edges the sweep line crosses, ordered bottom to
 * top, in a treap (split/merge by the `below` order) threaded with a neighbour list. An edge is
 * checked against its neighbours when it is inserted, and its two neighbours against each other
 * when it is removed: the leftmost illegal contact is always between two edges that were neighbours
 * just before it (Shamos and Hoey 1976), so the first check that fails reports a real pair.
 */

/** Why the closed polygon p (x, y pairs) is not simple, or '' when it is. O(N log N). */
export function polygonProblem(p: ArrayLike<number>): string {
  const n = p.length >> 1;
  if (n < 3) return 'a polygon needs at least 3 points';
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    if (p[2 * i] === p[2 * j] && p[2 * i + 1] === p[2 * j + 1]) return `points ${i} and ${j} coincide`;
  }
  for (let i = 0; i < n; i++) {
    if (foldsBack(p, n, i)) return `edges ${i} and ${(i + 1) % n} fold back onto each other at point ${(i + 1) % n}`;
  }
  const order = sortedVertices(p, n);
  for (let k = 1; k < n; k++) {
    const a = order[k - 1]!, b = order[k]!;
    if (p[2 * a] === p[2 * b] && p[2 * a + 1] === p[2 * b + 1]) {
      const lo = a < b ? a : b, hi = a < b ? b : a;
      return `points ${lo} and ${hi} coincide (the polygon touches itself; edges ${lo} and ${hi} intersect)`;
    }
  }
  const sweep = new Sweep(p, n, order);
  const hit = sweep.run() ?? (sweep.lost ? firstPairQuadratic(p, n) : null);
  if (hit !== null) return `edges ${hit[0]} and ${hit[1]} intersect (the polygon is not simple)`;
  let area2 = 0;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    area2 += p[2 * i]! * p[2 * j + 1]! - p[2 * j]! * p[2 * i + 1]!;
  }
  return area2 === 0 ? 'the polygon has zero area' : '';
}

/** Every pair, O(N²): the safety net if the sweep's order ever broke (see Sweep.lost). */
function firstPairQuadratic(p: ArrayLike<number>, n: number): [number, number] | null {
  for (let i = 0; i < n; i++) for (let j = i + 2; j < n; j++) if (edgesMeet(p, n, i, j)) return [i, j];
  return null;
}

// ---- exact orientation ------------------------------------------------------------------------

/** Shewchuk's ccwerrboundA: |det| above this times the permanent has the right sign. */
const ERR_A = 3.3306690738754716e-16;

/** Sign of the orientation of (a, b, c): > 0 when c is left of a→b, 0 when collinear; exact. */
export function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  const l = (ax - cx) * (by - cy), r = (ay - cy) * (bx - cx);
  const det = l - r;
  const bound = ERR_A * (Math.abs(l) + Math.abs(r));
  if (det > bound) return 1;
  if (-det > bound) return -1;
  return orientExact(ax, ay, bx, by, cx, cy);
}

function orientExact(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  const AX = big(ax), AY = big(ay), BX = big(bx), BY = big(by), CX = big(cx), CY = big(cy);
  const det = (AX - CX) * (BY - CY) - (AY - CY) * (BX - CX);
  return det > 0n ? 1 : det < 0n ? -1 : 0;
}

const F64 = new Float64Array(1);
const U32 = new Uint32Array(F64.buffer);
const LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** x · 2^1074 as a BigInt: exact for every finite double. */
function big(x: number): bigint {
  if (x === 0) return 0n;
  F64[0] = x;
  const hi = U32[LITTLE ? 1 : 0]!, lo = U32[LITTLE ? 0 : 1]!;
  const exp = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  if (exp !== 0) mant = (mant | (1n << 52n)) << BigInt(exp - 1);
  return hi >>> 31 ? -mant : mant;
}

// ---- the pieces -------------------------------------------------------------------------------

/** Edges i and i + 1 collinear with the second going back along the first. */
function foldsBack(p: ArrayLike<number>, n: number, i: number): boolean {
  const a = i, b = (i + 1) % n, c = (i + 2) % n;
  const ax = p[2 * a]!, ay = p[2 * a + 1]!, bx = p[2 * b]!, by = p[2 * b + 1]!, cx = p[2 * c]!, cy = p[2 * c + 1]!;
  if (orient(ax, ay, bx, by, cx, cy) !== 0) return false;
  // collinear: c lies back on the a side of b when it is not beyond b in the direction a→b
  return bx > ax ? cx < bx : bx < ax ? cx > bx : by > ay ? cy < by : cy > by;
}

/** Vertex indices in lexicographic (x, y) order. */
function sortedVertices(p: ArrayLike<number>, n: number): Int32Array {
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => p[2 * a]! - p[2 * b]! || p[2 * a + 1]! - p[2 * b + 1]! || a - b);
  return order;
}

/** Point on the closed segment a–b, given that it is collinear with it. */
function within(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): boolean {
  return (ax <= bx ? ax <= cx && cx <= bx : bx <= cx && cx <= ax) && (ay <= by ? ay <= cy && cy <= by : by <= cy && cy <= ay);
}

/** The sweep over one polygon (see the file header). */
class Sweep {
  /** Each edge's left (lexicographically smaller) and right end: point indices. */
  private readonly lo: Int32Array;
  private readonly hi: Int32Array;
  // treap over edges in the status
  private readonly left: Int32Array;
  private readonly right: Int32Array;
  private readonly prio: Uint32Array;
  // neighbour list of the status (−1: none)
  private readonly below: Int32Array;
  private readonly above: Int32Array;
  private root = -1;
  private hit: [number, number] | null = null;
  /** Set if a removal did not find its edge (never seen; the caller then checks every pair). */
  lost = false;

  private readonly p: ArrayLike<number>;
  private readonly n: number;
  private readonly order: Int32Array;

  constructor(p: ArrayLike<number>, n: number, order: Int32Array) {
    this.p = p;
    this.n = n;
    this.order = order;
    this.lo = new Int32Array(n);
    this.hi = new Int32Array(n);
    this.left = new Int32Array(n).fill(-1);
    this.right = new Int32Array(n).fill(-1);
    this.prio = new Uint32Array(n);
    this.below = new Int32Array(n).fill(-1);
    this.above = new Int32Array(n).fill(-1);
    let s = 0x9e3779b9;
    for (let e = 0; e < n; e++) {
      const a = e, b = (e + 1) % n;
      const aFirst = p[2 * a]! < p[2 * b]! || (p[2 * a] === p[2 * b] && p[2 * a + 1]! < p[2 * b + 1]!);
      this.lo[e] = aFirst ? a : b;
      this.hi[e] = aFirst ? b : a;
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      this.prio[e] = s >>> 0;
    }
  }

  /** The first intersecting pair of edges (lower index first), or null. */
  run(): [number, number] | null {
    const n = this.n;
    for (let k = 0; k < n && this.hit === null && !this.lost; k++) {
      const v = this.order[k]!;
      const ePrev = (v + n - 1) % n, eNext = v; // the two edges at vertex v
      // ends first, then starts
      if (this.hi[ePrev] === v) this.remove(ePrev);
      if (this.hit === null && this.hi[eNext] === v) this.remove(eNext);
      if (this.hit === null && this.lo[ePrev] === v) this.insert(ePrev);
      if (this.hit === null && this.lo[eNext] === v) this.insert(eNext);
    }
    return this.hit;
  }

  /** Edge s is below edge t on the sweep line (both in the status, or s being inserted). */
  private isBelow(s: number, t: number): boolean {
    const p = this.p;
    const sl = this.lo[s]!, sr = this.hi[s]!, tl = this.lo[t]!, tr = this.hi[t]!;
    const slx = p[2 * sl]!, sly = p[2 * sl + 1]!, tlx = p[2 * tl]!, tly = p[2 * tl + 1]!;
    const tStartsFirst = tlx < slx || (tlx === slx && tly <= sly);
    if (tStartsFirst) {
      const trx = p[2 * tr]!, try_ = p[2 * tr + 1]!;
      let o = orient(tlx, tly, trx, try_, slx, sly);
      if (o === 0) o = orient(tlx, tly, trx, try_, p[2 * sr]!, p[2 * sr + 1]!);
      if (o === 0) this.report(s, t);
      return o < 0 || (o === 0 && s < t);
    }
    const srx = p[2 * sr]!, sry = p[2 * sr + 1]!;
    let o = orient(slx, sly, srx, sry, tlx, tly);
    if (o === 0) o = orient(slx, sly, srx, sry, p[2 * tr]!, p[2 * tr + 1]!);
    if (o === 0) this.report(s, t);
    return o > 0 || (o === 0 && s < t);
  }

  private insert(e: number): void {
    const [l, r] = this.split(this.root, e);
    const b = l < 0 ? -1 : this.maxOf(l), a = r < 0 ? -1 : this.minOf(r);
    this.root = this.merge(this.merge(l, e), r);
    this.below[e] = b;
    this.above[e] = a;
    if (b >= 0) this.above[b] = e;
    if (a >= 0) this.below[a] = e;
    if (b >= 0) this.check(e, b);
    if (a >= 0 && this.hit === null) this.check(e, a);
  }

  private remove(e: number): void {
    const b = this.below[e]!, a = this.above[e]!;
    const [l, r] = this.split(this.root, e); // l: below e, r: e and above
    const [first, rest] = this.splitFirst(r);
    this.root = this.merge(l, rest);
    if (first !== e) this.lost = true; // the order was inconsistent: only an undetected crossing does that
    if (b >= 0) this.above[b] = a;
    if (a >= 0) this.below[a] = b;
    this.below[e] = this.above[e] = -1;
    if (a >= 0 && b >= 0) this.check(a, b);
  }

  /** Split the treap at `root` into (edges below e, the others). */
  private split(root: number, e: number): [number, number] {
    if (root < 0) return [-1, -1];
    if (root !== e && this.isBelow(root, e)) {
      const [l, r] = this.split(this.right[root]!, e);
      this.right[root] = l;
      return [root, r];
    }
    const [l, r] = this.split(this.left[root]!, e);
    this.left[root] = r;
    return [l, root];
  }

  /** Split off the lowest edge: (it, the rest). */
  private splitFirst(root: number): [number, number] {
    if (root < 0) return [-1, -1];
    if (this.left[root]! < 0) {
      const rest = this.right[root]!;
      this.right[root] = -1;
      return [root, rest];
    }
    const [first, rest] = this.splitFirst(this.left[root]!);
    this.left[root] = rest;
    return [first, root];
  }

  private merge(a: number, b: number): number {
    if (a < 0) return b;
    if (b < 0) return a;
    if (this.prio[a]! > this.prio[b]!) {
      this.right[a] = this.merge(this.right[a]!, b);
      return a;
    }
    this.left[b] = this.merge(a, this.left[b]!);
    return b;
  }

  private minOf(t: number): number {
    while (this.left[t]! >= 0) t = this.left[t]!;
    return t;
  }

  private maxOf(t: number): number {
    while (this.right[t]! >= 0) t = this.right[t]!;
    return t;
  }

  /** Report edges i and j if they touch or cross illegally. */
  private check(i: number, j: number): void {
    if (edgesMeet(this.p, this.n, i, j)) this.report(i, j);
  }

  private report(i: number, j: number): void {
    if (this.hit === null) this.hit = i < j ? [i, j] : [j, i];
  }
}

/** Edges i and j of the polygon touch or cross, other than at the point two adjacent edges share. */
export function edgesMeet(p: ArrayLike<number>, n: number, i: number, j: number): boolean {
  if ((i + 1) % n === j || (j + 1) % n === i) return false; // adjacent: their fold-back was checked before the sweep
  const a = i, b = (i + 1) % n, c = j, d = (j + 1) % n;
  const ax = p[2 * a]!, ay = p[2 * a + 1]!, bx = p[2 * b]!, by = p[2 * b + 1]!;
  const cx = p[2 * c]!, cy = p[2 * c + 1]!, dx = p[2 * d]!, dy = p[2 * d + 1]!;
  const o1 = orient(ax, ay, bx, by, cx, cy), o2 = orient(ax, ay, bx, by, dx, dy);
  const o3 = orient(cx, cy, dx, dy, ax, ay), o4 = orient(cx, cy, dx, dy, bx, by);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  return (o1 === 0 && within(ax, ay, bx, by, cx, cy)) || (o2 === 0 && within(ax, ay, bx, by, dx, dy)) ||
    (o3 === 0 && within(cx, cy, dx, dy, ax, ay)) || (o4 === 0 && within(cx, cy, dx, dy, bx, by));
}
