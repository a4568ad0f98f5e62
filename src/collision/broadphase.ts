/**
 * The contact broad phase: one spatial hash over every contact item, filled by one box fill for
 * both of its users — the candidate search before the solve (candidates.ts) and the post-solve
 * detection (response.ts). Both then query it with a particle's box in hash.q: the search for the
 * items whose boxes overlap it (hash.queryQ(cand)), the detection for every item of the cells it covers
 * (hash.queryCellsQ(cand): its corrections move items between its narrow tests, after the fill).
 * `fill` is `boxes` (every item's box into `itemBox`) then `hashBoxes` (the hash over them, each grown by
 * pad[0]): the search computes the boxes every time and builds the hash only when its skin lists need it
 * (skin-lists.ts), over boxes grown by their skin.
 *
 * Item numbers: [0, nE) boundary edges (boundary.ts), then the collider shapes of this step
 * (colliders.ts): nS segments (polygon edges included), nC circles, and — for the post-solve
 * detection only — nP polygons (their interiors). Half-planes are no items (tested directly).
 *
 * Boxes (world units, before the hash floors them to cells): an edge's box covers its end nodes in
 * the configurations A, B and C (pass C = B for two), grown by its radius + the largest particle
 * radius + grow[0]; it is also kept in `edgeBox` (4 per edge, not grown: the trust region's guard
 * test reads it). A segment's and a circle's box covers their end pose, or (allPoses) their start
 * and end poses, grown by their radius + the largest particle radius; a polygon's, its end-pose
 * box grown by the largest particle radius.
 */
import { growF } from './buffers';
import type { ContactBoundary } from './boundary';
import type { KinematicColliders } from './colliders';
import { SpatialHash } from './hash';
import type { ContactSettings } from './settings';

export class ItemBroadphase {
  readonly hash = new SpatialHash();
  /** Query output (hash.queryQ / queryCellsQ(cand)): item numbers ascending. */
  readonly cand = { buf: new Int32Array(64) };
  /** Per edge: the box of its end points over the fill's configurations (min x, min y, max x, max y). */
  edgeBox: Float64Array = new Float64Array(0);
  /** [0]: extra growth of the edges' hash boxes (the candidate search's trust region; 0 in the response). */
  readonly grow = new Float64Array(1);

  /**
   * World boxes of the last `boxes()` (4 per item: min x, min y, max x, max y), exactly as `fill` puts them into
   * the hash (a query's overlap test reads the same numbers): the candidate search's skin lists filter by them.
   */
  itemBox: Float64Array = new Float64Array(0);
  /** Items of the last `boxes()`. */
  nItems = 0;

  /**
   * Fill and build the hash: the boundary's edges over A, B, C; collider segments and circles at
   * their end pose (allPoses = 0) or both poses (1); polygons when withPolygons = 1.
   */
  fill(
    s: ContactSettings, bnd: ContactBoundary, cols: KinematicColliders,
    A: Float64Array, B: Float64Array, C: Float64Array, allPoses: number, withPolygons: number,
  ): void {
    this.boxes(s, bnd, cols, A, B, C, allPoses, withPolygons);
    this.pad[0] = 0;
    this.hashBoxes();
  }

  /**
   * The items' boxes (`itemBox`, `edgeBox`; the fill's configurations and poses as in `fill`) and the cell size
   * (`hash.grid`), without building the hash.
   */
  boxes(
    s: ContactSettings, bnd: ContactBoundary, cols: KinematicColliders,
    A: Float64Array, B: Float64Array, C: Float64Array, allPoses: number, withPolygons: number,
  ): void {
    const nE = bnd.nE, nS = cols.nS, nC = cols.nC, nP = withPolygons === 1 ? cols.nP : 0;
    const n = nE + nS + nC + nP;
    let cell = s.cellSize;
    if (!(cell > 0)) cell = bnd.meanEdge > 0 ? 2 * bnd.meanEdge : Math.max(8 * bnd.maxRadius, 0.1);
    this.hash.grid[0] = cell; // begin's doubles, here (SpatialHash.grid)
    this.hash.grid[1] = 1 / cell;
    this.nItems = n;
    const ib = this.itemBox = growF(this.itemBox, 4 * n);
    const mr = bnd.maxRadius, ex = this.grow[0]!;
    const ec = this.edgeBox = growF(this.edgeBox, 4 * nE);
    const ea = bnd.ea, eb = bnd.eb, eRad = bnd.eRad;
    for (let k = 0; k < nE; k++) {
      const a = 2 * ea[k]!, b = 2 * eb[k]!;
      const r = eRad[k]! + mr + ex, o = 4 * k;
      ec[o] = Math.min(A[a]!, A[b]!, B[a]!, B[b]!, C[a]!, C[b]!);
      ec[o + 1] = Math.min(A[a + 1]!, A[b + 1]!, B[a + 1]!, B[b + 1]!, C[a + 1]!, C[b + 1]!);
      ec[o + 2] = Math.max(A[a]!, A[b]!, B[a]!, B[b]!, C[a]!, C[b]!);
      ec[o + 3] = Math.max(A[a + 1]!, A[b + 1]!, B[a + 1]!, B[b + 1]!, C[a + 1]!, C[b + 1]!);
      ib[o] = ec[o]! - r;
      ib[o + 1] = ec[o + 1]! - r;
      ib[o + 2] = ec[o + 2]! + r;
      ib[o + 3] = ec[o + 3]! + r;
    }
    // the first pose read: 0 (start pose) or the end pose again (the same box as the end pose alone)
    const sf = allPoses === 1 ? 0 : 4, cf = allPoses === 1 ? 0 : 2;
    const sg = cols.seg, segRad = cols.segRad;
    for (let k = 0; k < nS; k++) {
      const o = 8 * k, r = segRad[k]! + mr, q = 4 * (nE + k);
      ib[q] = Math.min(sg[o + sf]!, sg[o + sf + 2]!, sg[o + 4]!, sg[o + 6]!) - r;
      ib[q + 1] = Math.min(sg[o + sf + 1]!, sg[o + sf + 3]!, sg[o + 5]!, sg[o + 7]!) - r;
      ib[q + 2] = Math.max(sg[o + sf]!, sg[o + sf + 2]!, sg[o + 4]!, sg[o + 6]!) + r;
      ib[q + 3] = Math.max(sg[o + sf + 1]!, sg[o + sf + 3]!, sg[o + 5]!, sg[o + 7]!) + r;
    }
    const ci = cols.circ;
    for (let k = 0; k < nC; k++) {
      const o = 5 * k, r = ci[o + 4]! + mr, q = 4 * (nE + nS + k);
      ib[q] = Math.min(ci[o + cf]!, ci[o + 2]!) - r;
      ib[q + 1] = Math.min(ci[o + cf + 1]!, ci[o + 3]!) - r;
      ib[q + 2] = Math.max(ci[o + cf]!, ci[o + 2]!) + r;
      ib[q + 3] = Math.max(ci[o + cf + 1]!, ci[o + 3]!) + r;
    }
    const pb = cols.polyBox;
    for (let k = 0; k < nP; k++) {
      const o = 4 * k, q = 4 * (nE + nS + nC + k);
      ib[q] = pb[o]! - mr;
      ib[q + 1] = pb[o + 1]! - mr;
      ib[q + 2] = pb[o + 2]! + mr;
      ib[q + 3] = pb[o + 3]! + mr;
    }
  }

  /**
   * Build the hash over the last `boxes()`, each box grown by `pad[0]` (0: as they are; the skin lists' builds
   * grow them by their skin).
   */
  hashBoxes(): void {
    const hash = this.hash;
    hash.beginQ(this.nItems);
    hashBoxKernel(this.nItems, this.itemBox, this.pad, hash.q, hash);
    hash.build();
  }

  /** hashBoxes' growth of every box (a double in an array: no double crosses the call). */
  readonly pad = new Float64Array(1);
}

/**
 * Every item's box, grown by pad[0], into the hash (through its scratch q). With pad 0 a box may read +0 where it
 * held −0, which no comparison and no cell tells apart.
 */
function hashBoxKernel(n: number, ib: Float64Array, pad: Float64Array, hq: Float64Array, hash: SpatialHash): void {
  const g = pad[0]!;
  for (let k = 0; k < n; k++) {
    const o = 4 * k;
    hq[0] = ib[o]! - g;
    hq[1] = ib[o + 1]! - g;
    hq[2] = ib[o + 2]! + g;
    hq[3] = ib[o + 3]! + g;
    hash.setBoxQ(k);
  }
}
