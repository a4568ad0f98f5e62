/**
 * The contact broad phase: one spatial hash over every contact item, filled by one box fill for
 * both of its users — the candidate search before the solve (candidates.ts) and the post-solve
 * detection (response.ts). Both then query it with a particle's box in hash.q: the search for the
 * items whose boxes overlap it (hash.queryQ(cand)), the detection for every item of the cells it covers
 * (hash.queryCellsQ(cand): its corrections move items between its narrow tests, after the fill).
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
   * Fill and build the hash: the boundary's edges over A, B, C; collider segments and circles at
   * their end pose (allPoses = 0) or both poses (1); polygons when withPolygons = 1.
   */
  fill(
    s: ContactSettings, bnd: ContactBoundary, cols: KinematicColliders,
    A: Float64Array, B: Float64Array, C: Float64Array, allPoses: number, withPolygons: number,
  ): void {
    const nE = bnd.nE, nS = cols.nS, nC = cols.nC, nP = withPolygons === 1 ? cols.nP : 0;
    let cell = s.cellSize;
    if (!(cell > 0)) cell = bnd.meanEdge > 0 ? 2 * bnd.meanEdge : Math.max(8 * bnd.maxRadius, 0.1);
    const hash = this.hash, hq = hash.q;
    hash.grid[0] = cell; // begin's doubles, here (SpatialHash.grid)
    hash.grid[1] = 1 / cell;
    hash.beginQ(nE + nS + nC + nP);
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
      hq[0] = ec[o]! - r;
      hq[1] = ec[o + 1]! - r;
      hq[2] = ec[o + 2]! + r;
      hq[3] = ec[o + 3]! + r;
      hash.setBoxQ(k);
    }
    // the first pose read: 0 (start pose) or the end pose again (the same box as the end pose alone)
    const sf = allPoses === 1 ? 0 : 4, cf = allPoses === 1 ? 0 : 2;
    const sg = cols.seg, segRad = cols.segRad;
    for (let k = 0; k < nS; k++) {
      const o = 8 * k, r = segRad[k]! + mr;
      hq[0] = Math.min(sg[o + sf]!, sg[o + sf + 2]!, sg[o + 4]!, sg[o + 6]!) - r;
      hq[1] = Math.min(sg[o + sf + 1]!, sg[o + sf + 3]!, sg[o + 5]!, sg[o + 7]!) - r;
      hq[2] = Math.max(sg[o + sf]!, sg[o + sf + 2]!, sg[o + 4]!, sg[o + 6]!) + r;
      hq[3] = Math.max(sg[o + sf + 1]!, sg[o + sf + 3]!, sg[o + 5]!, sg[o + 7]!) + r;
      hash.setBoxQ(nE + k);
    }
    const ci = cols.circ;
    for (let k = 0; k < nC; k++) {
      const o = 5 * k, r = ci[o + 4]! + mr;
      hq[0] = Math.min(ci[o + cf]!, ci[o + 2]!) - r;
      hq[1] = Math.min(ci[o + cf + 1]!, ci[o + 3]!) - r;
      hq[2] = Math.max(ci[o + cf]!, ci[o + 2]!) + r;
      hq[3] = Math.max(ci[o + cf + 1]!, ci[o + 3]!) + r;
      hash.setBoxQ(nE + nS + k);
    }
    const pb = cols.polyBox;
    for (let k = 0; k < nP; k++) {
      const o = 4 * k;
      hq[0] = pb[o]! - mr;
      hq[1] = pb[o + 1]! - mr;
      hq[2] = pb[o + 2]! + mr;
      hq[3] = pb[o + 3]! + mr;
      hash.setBoxQ(nE + nS + nC + k);
    }
    hash.build();
  }
}
