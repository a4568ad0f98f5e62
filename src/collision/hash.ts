/**
 * A uniform-grid spatial hash over axis-aligned boxes, rebuilt each step into
 * preallocated typed arrays (counting sort by bucket). A query (queryQ) returns the items whose
 * boxes overlap the query box (closed intervals, world units: the cells only find them), ascending;
 * queryCellsQ returns every item of the cells the query box covers, a superset. A raycast's cell
 * pass (beginPassQ, cellQ) returns the items whose boxes cover the cells it walks.
 */
/** Bucket of cell (ix, iy). */
function hashCell(ix: number, iy: number, mask: number): number {
  return (Math.imul(ix, 73856093) ^ Math.imul(iy, 19349663)) & mask;
}

/**
 * Cell indices are clamped to ±CELL_LIMIT, so every loop over cells stays finite for any finite
 * coordinate (above 2^53 an index's `ix++` would do nothing and a loop would never end). Clamping
 * is monotonic, so boxes that share a cell still share one after it: far items only crowd the
 * border cells (more candidates, never a missed pair). NaN stays NaN, and a loop over it runs zero times.
 */
export const CELL_LIMIT = 1 << 30;

/**
 * dst[0..3] = the cells of the world box src[0..3]: floor(v × grid[1]), clamped to ±CELL_LIMIT (NaN
 * stays NaN). The one conversion from world units to cells, for item boxes and query boxes alike.
 * Arrays in, nothing out, and no call inside: wherever V8's inlining budget runs out, no double
 * crosses a call (it boxes those). A raycast that inlined the query start past its budget kept two
 * calls of a number-returning form of this and allocated 32 B per ray (test/game-api.test.ts,
 * "queries per frame").
 */
function cellBoxOf(src: Float64Array, grid: Float64Array, dst: Float64Array): void {
  const inv = grid[1]!;
  for (let k = 0; k < 4; k++) {
    const c = Math.floor(src[k]! * inv);
    dst[k] = c < -CELL_LIMIT ? -CELL_LIMIT : c > CELL_LIMIT ? CELL_LIMIT : c;
  }
}

/** Integer results of countCells: [0] cell entries, [1] items too large for the grid. */
const HS = new Int32Array(2);

/** counts[bucket] += the cells of every item's box b[4i..4i+3] (items over maxCells cells: HS[1]). */
function countCells(n: number, b: Int32Array, counts: Int32Array, mask: number, maxCells: number): void {
  let total = 0;
  let nBig = 0;
  for (let i = 0; i < n; i++) {
    const o = 4 * i;
    const cells = (b[o + 2]! - b[o]! + 1) * (b[o + 3]! - b[o + 1]! + 1);
    if (cells > maxCells) {
      nBig++;
      continue;
    }
    for (let iy = b[o + 1]!; iy <= b[o + 3]!; iy++) {
      for (let ix = b[o]!; ix <= b[o + 2]!; ix++) {
        const h = hashCell(ix, iy, mask);
        counts[h] = counts[h]! + 1;
        total++;
      }
    }
  }
  HS[0] = total;
  HS[1] = nBig;
}

/** starts[h] ← Σ counts[< h] for h ≤ nb, and counts[h] ← starts[h] (the fill cursors). */
function prefixStarts(nb: number, counts: Int32Array, starts: Int32Array): void {
  let acc = 0;
  for (let h = 0; h < nb; h++) {
    starts[h] = acc;
    acc += counts[h]!;
    counts[h] = starts[h]!;
  }
  starts[nb] = acc;
}

/** Write every item into its cells' buckets (cursors in counts); items over maxCells into big. */
function fillEntries(
  n: number, b: Int32Array, counts: Int32Array, mask: number, maxCells: number, entries: Int32Array, big: Int32Array,
): void {
  let nBig = 0;
  for (let i = 0; i < n; i++) {
    const o = 4 * i;
    const cells = (b[o + 2]! - b[o]! + 1) * (b[o + 3]! - b[o + 1]! + 1);
    if (cells > maxCells) {
      big[nBig++] = i;
      continue;
    }
    for (let iy = b[o + 1]!; iy <= b[o + 3]!; iy++) {
      for (let ix = b[o]!; ix <= b[o + 2]!; ix++) {
        const h = hashCell(ix, iy, mask);
        entries[counts[h]!] = i;
        counts[h] = counts[h]! + 1;
      }
    }
  }
}

/** Buckets per item of a build (beginQ), and the fewest buckets a build uses. */
const BUCKETS_PER_ITEM = 8, MIN_BUCKETS = 64;

let hashKernelsPrimed = false;

/**
 * Once per process: call build's kernels 64 times with n = 0 and the real argument types, so their
 * feedback vectors and prologue feedback exist before the first real (long) call, which otherwise
 * compiles them on stack replacement only (docs/solver.md, "Allocation work, part 4"). Writes only HS.
 */
function primeHashKernels(): void {
  if (hashKernelsPrimed) return;
  hashKernelsPrimed = true;
  const z = new Int32Array(4), st = new Int32Array(1);
  for (let r = 0; r < 64; r++) {
    countCells(0, z, z, 0, 1024);
    prefixStarts(0, z, st);
    fillEntries(0, z, z, 0, 1024, z, z);
  }
}

export class SpatialHash {
  /**
   * Grid scratch: [0] the cell size, [1] its inverse. Hot callers write both and call beginQ, so
   * begin (called a few times per step, never optimized) handles no double: an interpreted double
   * operation or a double argument of a call V8 does not inline is a heap number (docs/solver.md,
   * "Allocation work").
   */
  readonly grid = new Float64Array([1, 1]);
  /** Buckets of this build − 1 (a power of two − 1, at most the capacity's; set by beginQ). */
  private mask: number;
  /** Buckets allocated − 1 (the constructor's `buckets`). */
  private readonly maxMask: number;
  private readonly counts: Int32Array;
  private readonly starts: Int32Array;
  /** Items are boxes: 4 numbers each, minx miny maxx maxy (in cells, integers). */
  private boxes: Int32Array = new Int32Array(0);
  /** The same boxes in world units (what a query's overlap test reads). */
  private wboxes: Float64Array = new Float64Array(0);
  private nItems = 0;
  private entries: Int32Array = new Int32Array(0);
  /** Per-item stamp for de-duplication during one query. */
  private stamp: Int32Array = new Int32Array(0);
  private stampNow = 0;
  /** Items too large for the grid (more than maxCells cells): tested by every query. */
  private big: Int32Array = new Int32Array(0);
  private nBig = 0;
  readonly maxCells = 1024;

  constructor(buckets = 1 << 14) {
    primeHashKernels();
    let b = 1;
    while (b < buckets) b <<= 1;
    this.mask = b - 1;
    this.maxMask = b - 1;
    this.counts = new Int32Array(b);
    this.starts = new Int32Array(b + 1);
  }


  /** Start a rebuild for `n` items with cells of size `cell`. */
  begin(n: number, cell: number): void {
    this.grid[0] = cell;
    this.grid[1] = 1 / cell;
    this.beginQ(n);
  }

  /** begin with the cell size and its inverse already in `grid`. */
  beginQ(n: number): void {
    if (this.boxes.length < 4 * n) {
      this.boxes = new Int32Array(4 * Math.max(n, 16) * 2);
      this.wboxes = new Float64Array(this.boxes.length);
    }
    if (this.stamp.length < n) {
      this.stamp = new Int32Array(Math.max(n, 16) * 2);
      this.stampNow = 0;
    }
    this.nItems = n;
    // BUCKETS_PER_ITEM buckets per item (at least MIN_BUCKETS), up to the capacity: a build clears and
    // prefix-sums every bucket, which for a small scene cost more than its items (16k buckets, three
    // builds a step). Queries return the same items in the same order with any bucket count.
    let b = MIN_BUCKETS;
    while (b < BUCKETS_PER_ITEM * n && b <= this.maxMask) b <<= 1;
    this.mask = (b <= this.maxMask ? b : this.maxMask + 1) - 1;
  }

  /**
   * Box scratch (world units: minx miny maxx maxy) for setBoxQ / queryQ: hot callers write it and
   * call those, so no double crosses a call (V8 boxes doubles passed to calls it does not inline).
   */
  readonly q = new Float64Array(4);
  /**
   * The query box of the current query or pass in cells (beginQuery): min x, min y, max x, max y.
   * Doubles, not Int32: a NaN bound must stay NaN (collect's scan of every item depends on it).
   */
  private readonly qc = new Float64Array(4);
  /** setBoxQ's scratch: the item's box in cells (cellBoxOf), before it is stored in `boxes`. */
  private readonly ic = new Float64Array(4);

  /** Set item i's box (world units). */
  setBox(i: number, minx: number, miny: number, maxx: number, maxy: number): void {
    const q = this.q;
    q[0] = minx;
    q[1] = miny;
    q[2] = maxx;
    q[3] = maxy;
    this.setBoxQ(i);
  }

  /** Set item i's box from the scratch `q`. */
  setBoxQ(i: number): void {
    const b = this.boxes, w = this.wboxes, o = 4 * i, q = this.q, ic = this.ic;
    w[o] = q[0]!;
    w[o + 1] = q[1]!;
    w[o + 2] = q[2]!;
    w[o + 3] = q[3]!;
    cellBoxOf(q, this.grid, ic);
    b[o] = ic[0]!;
    b[o + 1] = ic[1]!;
    b[o + 2] = ic[2]!;
    b[o + 3] = ic[3]!;
  }

  /**
   * Bucket all items (after every setBox). A driver over the loop kernels below (integers only):
   * as one method, its 16k-bucket loop put it in V8's OSR trap (docs/solver.md, "Allocation work,
   * part 4": the prologue had no feedback, every later call entered OSR code from the interpreter).
   */
  build(): void {
    const counts = this.counts, b = this.boxes, n = this.nItems, mask = this.mask;
    counts.fill(0, 0, mask + 1);
    countCells(n, b, counts, mask, this.maxCells);
    const total = HS[0]!, nBig = HS[1]!;
    if (this.entries.length < total) this.entries = new Int32Array(total * 2);
    if (this.big.length < nBig) this.big = new Int32Array(nBig * 2);
    this.nBig = nBig;
    prefixStarts(mask + 1, counts, this.starts);
    fillEntries(n, b, counts, mask, this.maxCells, this.entries, this.big);
  }

  /**
   * Items whose boxes overlap the query box, each once, written to `out` from index 0 in
   * ascending order; returns how many (grows `out` via `grow`).
   */
  query(minx: number, miny: number, maxx: number, maxy: number, out: { buf: Int32Array }): number {
    const q = this.q;
    q[0] = minx;
    q[1] = miny;
    q[2] = maxx;
    q[3] = maxy;
    return this.queryQ(out);
  }

  /** query with the box in the scratch `q`; items come out in ascending order (deterministic, cache-friendly). */
  queryQ(out: { buf: Int32Array }): number {
    const k = this.collect(out, false);
    sortAscending(out.buf, k);
    return k;
  }

  /**
   * queryQ's coarser form: the items whose boxes share a cell with the box in `q` (a superset of
   * queryQ's), ascending. For a caller whose items may have moved since the build by an amount no box
   * covers: the post-solve detection, whose position corrections move particles and edge nodes
   * between its narrow tests (response.ts), and the sensor pass after it.
   */
  queryCellsQ(out: { buf: Int32Array }): number {
    const k = this.collect(out, true);
    sortAscending(out.buf, k);
    return k;
  }

  /**
   * Start a pass over several cells (a raycast's cell walk, src/game/queries.ts): a fresh stamp, and the items too
   * large for the grid whose boxes meet the box in `q`, written to out from 0 (each once); returns their count.
   */
  beginPassQ(out: { buf: Int32Array }): number {
    return this.beginQuery(out, true);
  }

  /** Append to out, from index k, the items whose box covers cell (ix, iy) and not yet seen in this pass; returns the new count. */
  cellQ(ix: number, iy: number, out: { buf: Int32Array }, k: number): number {
    const stamp = this.stamp, b = this.boxes, entries = this.entries, starts = this.starts, now = this.stampNow;
    const h = hashCell(ix, iy, this.mask);
    for (let e = starts[h]!; e < starts[h + 1]!; e++) {
      const i = entries[e]!;
      if (stamp[i] === now) continue;
      const o = 4 * i;
      if (b[o]! > ix || b[o + 2]! < ix || b[o + 1]! > iy || b[o + 3]! < iy) continue;
      stamp[i] = now;
      if (k === out.buf.length) grow(out);
      out.buf[k++] = i;
    }
    return k;
  }

  /**
   * Start a query or a cell pass: the box in `q` in cells into `qc`, a fresh stamp, and the items too
   * large for the grid that meet it (byCells: their cell boxes meet its cells; else their world boxes
   * meet it), written to out from 0; returns their count. Every such item is stamped: none is in a cell.
   */
  private beginQuery(out: { buf: Int32Array }, byCells: boolean): number {
    const q = this.q, qc = this.qc;
    cellBoxOf(q, this.grid, qc);
    const qx0 = q[0]!, qy0 = q[1]!, qx1 = q[2]!, qy1 = q[3]!;
    const x0 = qc[0]!, y0 = qc[1]!, x1 = qc[2]!, y1 = qc[3]!;
    const stamp = this.stamp, w = this.wboxes, b = this.boxes;
    let now = ++this.stampNow;
    if (now === 0x7fffffff) {
      stamp.fill(0);
      this.stampNow = now = 1;
    }
    let k = 0;
    // a NaN bound excludes nothing (each comparison with it is false), here as in collect's scans
    for (let s = 0; s < this.nBig; s++) {
      const i = this.big[s]!;
      const o = 4 * i;
      stamp[i] = now;
      if (byCells ? b[o]! > x1 || b[o + 2]! < x0 || b[o + 1]! > y1 || b[o + 3]! < y0
        : w[o]! > qx1 || w[o + 2]! < qx0 || w[o + 1]! > qy1 || w[o + 3]! < qy0) continue;
      if (k === out.buf.length) grow(out);
      out.buf[k++] = i;
    }
    return k;
  }

  /**
   * The items of a query, unsorted: the items too large for the grid (beginQuery), then those the
   * query's cells hold, each tested once (the stamp marks it seen either way). With `byCells` false (queryQ) an
   * item's world box is tested against the query's (closed intervals): the cells are only a coarser
   * cover, and two boxes a cell apart can share one (half of the items met in a resting pile). With
   * `byCells` true (queryCellsQ) its cell box is: every item of the query's cells.
   */
  private collect(out: { buf: Int32Array }, byCells: boolean): number {
    let k = this.beginQuery(out, byCells);
    const q = this.q, qc = this.qc, now = this.stampNow;
    const qx0 = q[0]!, qy0 = q[1]!, qx1 = q[2]!, qy1 = q[3]!;
    const x0 = qc[0]!, y0 = qc[1]!, x1 = qc[2]!, y1 = qc[3]!;
    const stamp = this.stamp, w = this.wboxes, b = this.boxes;
    if (!((x1 - x0 + 1) * (y1 - y0 + 1) <= this.maxCells * 4)) {
      // Huge query, or a NaN bound (whose cell loops would run over the other axis's whole range):
      // scan all items' boxes directly.
      for (let i = 0; i < this.nItems; i++) {
        if (stamp[i] === now) continue;
        const o = 4 * i;
        if (byCells ? b[o]! > x1 || b[o + 2]! < x0 || b[o + 1]! > y1 || b[o + 3]! < y0
          : w[o]! > qx1 || w[o + 2]! < qx0 || w[o + 1]! > qy1 || w[o + 3]! < qy0) continue;
        if (k === out.buf.length) grow(out);
        out.buf[k++] = i;
      }
      return k;
    }
    const entries = this.entries, starts = this.starts;
    for (let iy = y0; iy <= y1; iy++) {
      for (let ix = x0; ix <= x1; ix++) {
        const h = hashCell(ix, iy, this.mask);
        for (let e = starts[h]!; e < starts[h + 1]!; e++) {
          const i = entries[e]!;
          if (stamp[i] === now) continue;
          stamp[i] = now;
          const o = 4 * i;
          if (byCells ? b[o]! > x1 || b[o + 2]! < x0 || b[o + 1]! > y1 || b[o + 3]! < y0
            : w[o]! > qx1 || w[o + 2]! < qx0 || w[o + 1]! > qy1 || w[o + 3]! < qy0) continue;
          if (k === out.buf.length) grow(out);
          out.buf[k++] = i;
        }
      }
    }
    return k;
  }
}

function grow(out: { buf: Int32Array }): void {
  const g = new Int32Array(Math.max(16, out.buf.length * 2));
  g.set(out.buf);
  out.buf = g;
}

/** Insertion sort of buf[0..n): query lists are short. */
function sortAscending(buf: Int32Array, n: number): void {
  for (let a = 1; a < n; a++) {
    const v = buf[a]!;
    let b = a - 1;
    while (b >= 0 && buf[b]! > v) {
      buf[b + 1] = buf[b]!;
      b--;
    }
    buf[b + 1] = v;
  }
}
