/**
 * Candidate search (game mode, forces stage and refinement): the contact candidates and guard
 * pairs of the implicit solve, once per step and again per refinement (docs/contact.md,
 * "Candidates" and "Trust region").
 *
 * Every particle's box from xᵗ to the prediction x̃ = xᵗ + h v (and a refinement's result xs),
 * grown by r̂ plus the margin, is queried in the broad phase (broadphase.ts) over boundary edges
 * and collider segments and circles at their end pose, or taken from its skin list while every box
 * stays within its skin (skin-lists.ts: the same items); half-planes are tested directly. A pair is
 * a candidate when its exact distance at xᵗ, x̃ or xs is below r̂ + margin or the particle's path
 * crosses the segment; pairs the broad phase met and the narrow test rejected that an iterate can
 * still reach inside the trust region become guards. Order: particles in creation order; per
 * particle, half-planes, then items ascending (`itemBefore`) — deterministic. Particle–edge
 * candidates ask the pattern book (pattern-book.ts) for their blocks; the candidates go to the
 * potential (implicit.ts) through its staging scratch `stageIn` (offsets ST_*).
 *
 * `search` is the driver; the tests per pair kind are methods (planes, edge, segment, circle) that
 * read the search's doubles from `sq` (offsets S_*) and the particle's from `pq` (offsets P_*):
 * no double crosses a call (geometry.ts's header).
 */
import type { StepContext } from '../solver/context';
import type { SymPattern } from '../solver/pattern';
import { growF, growI, growU8 } from './buffers';
import { emptyBoundary, type ContactBoundary } from './boundary';
import type { ItemBroadphase } from './broadphase';
import { bouncyCollider, frictionInto, type KinematicColliders } from './colliders';
import type { ContactFilter } from './filter';
import { GS, GS_AL, GS_D, pointSegAt, sweptNodes, sweptSegment } from './geometry';
import {
  ContactPotential, KIND_CIRCLE, KIND_EDGE, KIND_PLANE, KIND_SEGMENT, ST_EPS, ST_G, ST_K, ST_MU, ST_N, ST_R, ST_SLIP,
} from './implicit';
import type { PatternBook } from './pattern-book';
import type { ContactSettings } from './settings';
import { SK_EX, SK_SKIN, SK_WANT, SKIN_BUILT, SKIN_NONE, SkinLists } from './skin-lists';

/** Offsets of `sq`, the search's doubles: κ per unit mass (stiffness / h²), friction ε (ε_v h), trust-region δ, h. */
const S_KS = 0, S_EPS = 1, S_DL = 2, S_H = 3;
/**
 * Offsets of `pq`, the particle's doubles: its positions at xᵗ, x̃ and x_e (xs in a refinement, else
 * x̃), radius, slack (margin), mass (0 when fixed), and its trust box (min x, min y, max x, max y).
 */
export const P_X0 = 0, P_Y0 = 1, P_X1 = 2, P_Y1 = 3, P_X2 = 4, P_Y2 = 5, P_R = 6, P_SLACK = 7, P_M = 8;
export const P_TLX = 9, P_TLY = 10, P_THX = 11, P_THY = 12;
/** Inputs of farFromEdgeAt besides the particle's: r̂ + slack of the pair, the trust region's δ, 1 when it is on. */
export const P_REACH = 13, P_DL = 14, P_TRUST = 15;
/** Size of `pq` (farFromEdgeAt's tests build one). */
export const PQ_N = 16;

/** The skin lists' σ (skin-lists.ts), in units of the candidate margin at the smallest radius (margin · r_min). */
const SKIN = 0.5;

/**
 * Rounding margin of farFromEdgeAt, relative: far above the few ulps by which a computed
 * point–segment distance or swept test (its 1e-9 end tolerance included) can be off, far below the
 * gaps it decides on (a 1 m scene near the origin: 1e-8 m).
 */
const FAR_ROUNDING = 1e-8;

/**
 * Whether a particle and a boundary edge (nodes at offsets a2, b2 of x0, xp, xe) are certain to give
 * neither a candidate nor a guard in CandidateSearch.edge(), decided on boxes, so that edge() may
 * return at once (as it does after its exact tests when they find nothing: this only skips them, 3
 * distances and up to 2 swept tests, for most of the pairs the hash meets). Inputs: the particle's
 * positions and trust box at P[P_X0 .. P_THY], P[P_REACH] (r̂ + slack: edge()'s rr + slack),
 * P[P_DL] (δ) and P[P_TRUST] (1: trust region on); the edge's box over the three configurations at
 * ec[o .. o + 3]. Certain when
 * - the trust boxes do not overlap (edge()'s guard test, on the same numbers): no guard;
 * - the particle's box over xᵗ, x̃, x_e and the edge's lie more than r̂ + slack apart along x or y, so
 *   every distance edge() computes is ≥ r̂ + slack and no path meets the segment, both staying in
 *   their boxes;
 * - and the swept tests cannot report a crossing that is not one: the edge vector keeps its
 *   direction (e(xᵗ)·e(x̃) > 0, e(xᵗ)·e(x_e) > 0, so along each sweep |e| ≥ ℓ = min length / √2; an
 *   edge that flips through zero length makes its line sweep the plane and the swept test's
 *   collinearity root meaningless), the particle is on one side of the edge's line at xᵗ, x̃ and x_e,
 *   clear of it (the swept test's fallback for a sign change between the ends, which reads as a
 *   crossing at t = 1 whenever the end's projection falls inside the segment, cannot fire), and the
 *   gap beyond r̂ + slack exceeds the rounding of those tests, FAR_ROUNDING · S² / ℓ with S the boxes'
 *   extent plus the coordinates' size (a root of the collinearity polynomial puts the particle on the
 *   line to within that, and inside the segment's extent it would be closer than the gap).
 * test/contact-far.test.ts checks the claim against the exact tests on random configurations.
 */
export function farFromEdgeAt(
  P: Float64Array, ec: Float64Array, o: number, x0: Float64Array, xp: Float64Array, xe: Float64Array, a2: number, b2: number,
): boolean {
  const X0 = P[P_X0]!, Y0 = P[P_Y0]!, X1 = P[P_X1]!, Y1 = P[P_Y1]!, X2 = P[P_X2]!, Y2 = P[P_Y2]!;
  const px0 = Math.min(X0, X1, X2), py0 = Math.min(Y0, Y1, Y2), px1 = Math.max(X0, X1, X2), py1 = Math.max(Y0, Y1, Y2);
  const ex0 = ec[o]!, ey0 = ec[o + 1]!, ex1 = ec[o + 2]!, ey1 = ec[o + 3]!;
  const gx = px0 > ex1 ? px0 - ex1 : ex0 > px1 ? ex0 - px1 : 0;
  const gy = py0 > ey1 ? py0 - ey1 : ey0 > py1 ? ey0 - py1 : 0;
  const gap = (gx > gy ? gx : gy) - P[P_REACH]!;
  if (!(gap > 0)) return false;
  const dl = P[P_DL]!;
  if (P[P_TRUST] === 1 && P[P_TLX]! <= ex1 + dl && P[P_THX]! >= ex0 - dl && P[P_TLY]! <= ey1 + dl && P[P_THY]! >= ey0 - dl) return false;
  const e0x = x0[b2]! - x0[a2]!, e0y = x0[b2 + 1]! - x0[a2 + 1]!;
  const e1x = xp[b2]! - xp[a2]!, e1y = xp[b2 + 1]! - xp[a2 + 1]!;
  const e2x = xe[b2]! - xe[a2]!, e2y = xe[b2 + 1]! - xe[a2 + 1]!;
  if (!(e0x * e1x + e0y * e1y > 0) || !(e0x * e2x + e0y * e2y > 0)) return false;
  const l0 = e0x * e0x + e0y * e0y, l1 = e1x * e1x + e1y * e1y, l2 = e2x * e2x + e2y * e2y;
  const ll = 0.5 * (l0 < l1 ? (l0 < l2 ? l0 : l2) : l1 < l2 ? l1 : l2); // ℓ²
  // S ≥ the union box's extent plus its largest coordinate (each extent ≤ the sum of its bounds' sizes)
  const ux0 = px0 < ex0 ? px0 : ex0, uy0 = py0 < ey0 ? py0 : ey0, ux1 = px1 > ex1 ? px1 : ex1, uy1 = py1 > ey1 ? py1 : ey1;
  const S = 2 * (Math.abs(ux0) + Math.abs(uy0) + Math.abs(ux1) + Math.abs(uy1));
  const tol = FAR_ROUNDING * S * S;
  if (!(gap * gap * ll > tol * tol)) return false;
  // the side of the edge's line at each configuration (sweptPS's C at t = 0, its end value at t = 1)
  const c0 = e0x * (Y0 - x0[a2 + 1]!) - e0y * (X0 - x0[a2]!);
  const c1 = e1x * (Y1 - xp[a2 + 1]!) - e1y * (X1 - xp[a2]!);
  const c2 = e2x * (Y2 - xe[a2 + 1]!) - e2y * (X2 - xe[a2]!);
  const m = 1e-4 * tol; // 1e-12 S²: ≫ the rounding of sweptPS's end value A + B + C (a few ε S²)
  return (c0 > m && c1 > m && c2 > m) || (c0 < -m && c1 < -m && c2 < -m);
}

/** Candidate order within a particle: half-planes first (−1, −2, …), then items ascending. */
export function itemBefore(a: number, b: number): boolean {
  if (a < 0 && b < 0) return a > b;
  if (a < 0) return true;
  if (b < 0) return false;
  return a < b;
}

export class CandidateSearch {
  /**
   * Trust-region level: δ = δ₀ · 4^level (0 at the step's first search; +1 per refinement after a
   * solve stopped on its box).
   */
  trustLevel = 0;
  /** Predicted end-of-step positions x + h v. */
  private xp: Float64Array = new Float64Array(0);
  /** Guard pairs staged during the search: kind, p, a, b, item, side (6 each) and their stageIn (ST_N each). */
  private gBuf: Int32Array = new Int32Array(0);
  private gSt: Float64Array = new Float64Array(0);
  private nG = 0;
  /** insidePolygons' result: the nearest edge (item) of each polygon a particle starts inside. */
  private fe: Int32Array = new Int32Array(0);
  /** A candidate's lagged tangent (ContactPotential.tangent). */
  private readonly tg = new Float64Array(2);
  private readonly sq = new Float64Array(4);
  private readonly pq = new Float64Array(PQ_N);
  // this search's inputs (set by search)
  private bnd: ContactBoundary = emptyBoundary();
  private x0: Float64Array = new Float64Array(0);
  private xe: Float64Array = new Float64Array(0);
  private xs: Float64Array | null = null;
  private pattern: SymPattern | null = null;
  /** 1 when the trust region is on (δ > 0). */
  private trust = 0;
  /**
   * The search's first pass, per particle: its slack (margin · r plus a tenth of its predicted motion), its query box
   * (4 each) and 1 when it queries the broad phase.
   */
  private qs: Float64Array = new Float64Array(0);
  private qb: Float64Array = new Float64Array(0);
  private qf: Uint8Array = new Uint8Array(0);
  /** The broad phase's skin lists (skin-lists.ts): the hash built and queried only when a box left its skin. */
  readonly skin = new SkinLists();

  private readonly s: ContactSettings;
  private readonly cols: KinematicColliders;
  private readonly bp: ItemBroadphase;
  private readonly pot: ContactPotential;
  private readonly book: PatternBook;
  private readonly filter: ContactFilter;

  constructor(
    s: ContactSettings, cols: KinematicColliders, bp: ItemBroadphase, pot: ContactPotential, book: PatternBook, filter: ContactFilter,
  ) {
    this.s = s;
    this.filter = filter;
    this.cols = cols;
    this.bp = bp;
    this.pot = pot;
    this.book = book;
  }

  /**
   * Fill the potential with this step's candidates and guards: start-of-step state x0, v0; xs the
   * last solve's result in a refinement (null in the forces stage). Grows the contact pattern
   * through the pattern book when candidates need blocks it lacks (and a rebuild token is left).
   */
  search(ctx: StepContext, bnd: ContactBoundary, x0: Float64Array, v0: Float64Array, xs: Float64Array | null): void {
    const pot = this.pot, s = this.s, cols = this.cols, bp = this.bp, book = this.book, filter = this.filter;
    pot.clear();
    book.clearQueue();
    // the forces stage's search refills the pattern book's rebuild tokens. Here, not in a method of
    // the book: run once per step, such a method stays unoptimized and boxes its three doubles
    // (measured: 48 B/step); this function runs optimized (docs/solver.md, "Allocation work")
    if (!xs) {
      const tk = book.tokens, cap = s.rebuildBurst;
      tk[0] = tk[0]! < 0 ? cap : Math.min(cap, tk[0]! + s.rebuildRate * ctx.dt);
    }
    let t = ctx.topology;
    const h = ctx.dt, n = bnd.n, invMass = bnd.invMass, mass = t.mass;
    const nE = bnd.nE, nS = cols.nS, nC = cols.nC;
    const nItems = nE + nS + nC;
    const sq = this.sq, P = this.pq;
    sq[S_KS] = s.stiffness / (h * h);
    sq[S_EPS] = s.frictionEpsV * h;
    sq[S_H] = h;
    this.xp = growF(this.xp, 2 * n);
    const xp = this.xp;
    for (let q = 0; q < 2 * n; q++) xp[q] = x0[q]! + h * v0[q]!;
    // refinement (ContactSystem.refine): boxes and tests also cover the last solve's result xs
    const xe = xs ?? xp;
    this.bnd = bnd;
    this.x0 = x0;
    this.xe = xe;
    this.xs = xs;
    this.pattern = t.pattern;
    this.nG = 0;
    const mr = bnd.maxRadius;
    // trust region's δ (see below): mr + ½ margin·rmin, ×4 per level (a refinement after a solve
    // that stopped on its box raises the level); the hash boxes of edges and particles grow by the
    // extra δ − δ₀ so the guard argument below holds for any level
    const dl0 = mr + 0.5 * s.margin * bnd.minRadius;
    const dl = dl0 * (1 << (2 * this.trustLevel));
    const ex = dl - dl0;
    sq[S_DL] = dl;
    bp.grow[0] = ex;
    bp.boxes(s, bnd, cols, x0, xp, xe, 0, 0);
    const hash = bp.hash, hq = hash.q;
    // each particle's slack, query box (below) and whether it queries: an interior mesh node meets no edge (edge()
    // skips it) and, without mass, no collider shape: its query would find nothing to test
    const qs = this.qs = growF(this.qs, n), qb = this.qb = growF(this.qb, 4 * n), qf = this.qf = growU8(this.qf, n);
    for (let i = 0; i < n; i++) {
      const X0 = x0[2 * i]!, Y0 = x0[2 * i + 1]!, X1 = xp[2 * i]!, Y1 = xp[2 * i + 1]!, X2 = xe[2 * i]!, Y2 = xe[2 * i + 1]!;
      const slack = s.margin * bnd.radius[i]! + 0.1 * (Math.abs(X1 - X0) + Math.abs(Y1 - Y0));
      qs[i] = slack;
      if (nItems === 0 || (bnd.surface[i] === 0 && (nItems === nE || !(invMass[i]! > 0 && mass[2 * i]! > 0)))) {
        qf[i] = 0;
        continue;
      }
      qf[i] = 1;
      const g = bnd.radius[i]! + mr + slack + ex;
      qb[4 * i] = Math.min(X0, X1, X2) - g;
      qb[4 * i + 1] = Math.min(Y0, Y1, Y2) - g;
      qb[4 * i + 2] = Math.max(X0, X1, X2) + g;
      qb[4 * i + 3] = Math.max(Y0, Y1, Y2) + g;
    }
    // the skin lists give each particle the hash query's items; without them (off, backing off, or a box not finite
    // or not proper) the hash is built over the exact boxes and queried
    const skin = this.skin, sk = skin.sk, want = SKIN * s.margin * bnd.minRadius;
    sk[SK_WANT] = want;
    const got = skin.on && nItems > 0 ? skin.ensure(bp, n, qb, qf, sk[SK_SKIN] === want && ex >= sk[SK_EX]! ? 1 : 0) : SKIN_NONE;
    if (got === SKIN_BUILT) {
      sk[SK_SKIN] = want;
      sk[SK_EX] = ex;
    }
    const lists = got !== SKIN_NONE;
    if (!lists) {
      bp.pad[0] = 0;
      bp.hashBoxes();
    }
    const st = pot.stageIn;
    st[ST_SLIP] = 0;
    // Trust region (docs/contact.md): each particle's box over xᵗ, x̃ (and xs), grown by δ. A query
    // box is grown by r + mr + slack + (δ − δ₀) (slack ≥ margin·rmin), an edge's by its radius + mr +
    // (δ − δ₀), so while both a particle and an edge's end points stay within δ of their boxes, a
    // pair the hash never met stays more than r̂ apart (2δ ≤ 2 mr + slack + 2 (δ − δ₀) with
    // δ₀ = mr + ½ margin·rmin); the pairs it met but rejected become guards.
    const trust = dl > 0;
    this.trust = trust ? 1 : 0;
    P[P_DL] = dl;
    P[P_TRUST] = this.trust;
    if (trust) {
      pot.beginTrust(n);
      pot.trTol[0] = 1e-6 * dl;
    }
    const tb = pot.trBox;
    for (let i = 0; i < n; i++) {
      const r = bnd.radius[i]!;
      const X0 = x0[2 * i]!, Y0 = x0[2 * i + 1]!, X1 = xp[2 * i]!, Y1 = xp[2 * i + 1]!, X2 = xe[2 * i]!, Y2 = xe[2 * i + 1]!;
      const slack = qs[i]!;
      const mi = invMass[i]! > 0 ? mass[2 * i]! : 0;
      const tlx = Math.min(X0, X1, X2) - dl, tly = Math.min(Y0, Y1, Y2) - dl;
      const thx = Math.max(X0, X1, X2) + dl, thy = Math.max(Y0, Y1, Y2) + dl;
      if (trust) {
        tb[4 * i] = tlx;
        tb[4 * i + 1] = tly;
        tb[4 * i + 2] = thx;
        tb[4 * i + 3] = thy;
      }
      P[P_X0] = X0;
      P[P_Y0] = Y0;
      P[P_X1] = X1;
      P[P_Y1] = Y1;
      P[P_X2] = X2;
      P[P_Y2] = Y2;
      P[P_R] = r;
      P[P_SLACK] = slack;
      P[P_M] = mi;
      P[P_TLX] = tlx;
      P[P_TLY] = tly;
      P[P_THX] = thx;
      P[P_THY] = thy;
      if (mi > 0 && s.cor <= 0 && !filter.sensorParticle(i)) this.planes(ctx, i);
      if (qf[i] !== 1) continue;
      let cnt: number;
      if (lists) cnt = skin.filter(i, bp.itemBox, qb, bp.cand);
      else {
        hq[0] = qb[4 * i]!;
        hq[1] = qb[4 * i + 1]!;
        hq[2] = qb[4 * i + 2]!;
        hq[3] = qb[4 * i + 3]!;
        cnt = hash.queryQ(bp.cand);
      }
      const buf = bp.cand.buf;
      // the nearest edge of each polygon the particle starts inside, a candidate at any depth (merged in item order)
      const nf = cols.nP > 0 && mi > 0 ? this.insidePolygons(ctx, i) : 0, fe = this.fe;
      let f = 0;
      for (let c = 0; c < cnt; c++) {
        const item = buf[c]!;
        while (f < nf && fe[f]! < item) this.segment(ctx, i, fe[f++]!, true);
        if (f < nf && fe[f] === item) {
          this.segment(ctx, i, fe[f++]!, true);
          continue;
        }
        // filtered, sensor and one-way pairs from the wrong side take no part (filter.ts)
        if (item < nE) {
          if (filter.contactWithEdge(i, item, bnd)) this.edge(i, item, mass);
        } else if (!(mi > 0) || bouncyCollider(ctx, cols.colliderOf(item - nE), s) || !filter.contactWithShape(i, item, nE, cols, x0)) continue;
        else if (item < nE + nS) this.segment(ctx, i, item, false);
        else this.circle(ctx, i, item);
      }
      while (f < nf) this.segment(ctx, i, fe[f++]!, true);
    }
    // the guards after the candidates (same order: particles, then half-planes, then items)
    pot.beginGuards();
    const gb = this.gBuf, gs = this.gSt, nG = this.nG;
    for (let g = 0; g < nG; g++) {
      for (let j = 0; j < ST_N; j++) st[j] = gs[ST_N * g + j]!;
      const o = 6 * g;
      pot.addStaged(gb[o]!, gb[o + 1]!, gb[o + 2]!, gb[o + 3]!, x0, gb[o + 4]!, gb[o + 5]!);
    }
    book.commit(ctx);
    t = ctx.topology;
    pot.computeSlots(t.pattern);
    book.markSeen(t, pot);
  }

  /**
   * The moving polygons particle i (search inputs in pq) starts inside at their end pose: the nearest edge of each (its
   * item) into fe, ascending; returns their count. Such a particle is a candidate of that edge whatever its depth, so
   * its penalty pushes it out (a circle's pair has that from its signed distance). Polygons the filter or a COR leaves
   * to the response, one-way ones (bodies pass into them) and still ones (a particle inside one was put there, not
   * reached by it: the response pushes it out; a terrain's many vertices are then not tested for every particle) take
   * no part.
   */
  private insidePolygons(ctx: StepContext, i: number): number {
    const cols = this.cols, P = this.pq, nE = this.bnd.nE, box = cols.polyBox, w = cols.polyWorld;
    const px = P[P_X0]!, py = P[P_Y0]!;
    const fe = this.fe = growI(this.fe, cols.nP);
    let nf = 0;
    for (let q = 0; q < cols.nP; q++) {
      const o = 4 * q;
      if (!(px >= box[o]! && py >= box[o + 1]! && px <= box[o + 2]! && py <= box[o + 3]!) || !cols.shapeMoved(cols.polySeg[q]!)) continue;
      if (bouncyCollider(ctx, cols.polyCol[q]!, this.s) || this.filter.oneWay(cols.polyCol[q]!) || !cols.insidePolygon(q, this.x0, 2 * i)) continue;
      const start = cols.polyStartW[q]!, cnt = cols.polyCountW[q]!, item = nE + cols.polySeg[q]!;
      let best = Infinity, bj = 0;
      for (let j = 0; j < cnt; j++) {
        pointSegAt(this.x0, 2 * i, w, 2 * (start + j), 2 * (start + (j + 1 === cnt ? 0 : j + 1)));
        if (GS[GS_D]! < best) {
          best = GS[GS_D]!;
          bj = j;
        }
      }
      if (this.filter.contactWithShape(i, item + bj, nE, cols, this.x0)) fe[nf++] = item + bj;
    }
    return nf;
  }

  /** Particle i against every half-plane: a candidate within r̂ + slack at xᵗ, x̃ or x_e, else a guard its trust box reaches. */
  private planes(ctx: StepContext, i: number): void {
    const P = this.pq, sq = this.sq, st = this.pot.stageIn;
    const X0 = P[P_X0]!, Y0 = P[P_Y0]!, X1 = P[P_X1]!, Y1 = P[P_Y1]!, X2 = P[P_X2]!, Y2 = P[P_Y2]!;
    const r = P[P_R]!, slack = P[P_SLACK]!, mi = P[P_M]!;
    const H = ctx.c.Halfplane, hps = ctx.lists.halfplanes;
    for (let q = 0; q < hps.length; q++) {
      const e = hps[q]!;
      const nx = H.nx[e]!, ny = H.ny[e]!;
      const c0 = H.px[e]! * nx + H.py[e]! * ny;
      const d = Math.min(X0 * nx + Y0 * ny, X1 * nx + Y1 * ny, X2 * nx + Y2 * ny) - c0;
      if (!(d < r + slack)) {
        // guard: the trust box reaches the plane
        if (this.trust === 1 && nx * (nx > 0 ? P[P_TLX]! : P[P_THX]!) + ny * (ny > 0 ? P[P_TLY]! : P[P_THY]!) <= c0) {
          st[ST_G] = nx;
          st[ST_G + 1] = ny;
          st[ST_G + 2] = c0;
          st[ST_G + 3] = 0;
          st[ST_R] = r;
          st[ST_K] = sq[S_KS]! * mi;
          st[ST_MU] = 0;
          st[ST_EPS] = sq[S_EPS]!;
          this.stageGuard(KIND_PLANE, i, -1, -1, -(q + 1), 1);
        }
      } else {
        st[ST_G] = nx;
        st[ST_G + 1] = ny;
        st[ST_G + 2] = c0;
        st[ST_G + 3] = 0;
        st[ST_R] = r;
        st[ST_K] = sq[S_KS]! * mi;
        st[ST_MU] = this.s.friction;
        st[ST_EPS] = sq[S_EPS]!;
        this.pot.addStaged(KIND_PLANE, i, -1, -1, this.x0, -(q + 1), 1);
      }
    }
  }

  /**
   * Particle i against boundary edge `item` (not its own or a neighbouring one; interior mesh nodes
   * skip edges). A candidate when within r̂ + slack at xᵗ, x̃ or xs or crossed on the way there,
   * unless deep inside a one-sided edge; a guard when the trust boxes overlap and the particle
   * starts outside (or beyond an end).
   */
  private edge(i: number, item: number, mass: Float64Array): void {
    const bnd = this.bnd, invMass = bnd.invMass;
    if (bnd.surface[i] === 0) return;
    const a = bnd.ea[item]!, b = bnd.eb[item]!;
    if (bnd.adjacent(i, a, b)) return;
    const P = this.pq, sq = this.sq, st = this.pot.stageIn, x0 = this.x0, xs = this.xs;
    const X0 = P[P_X0]!, Y0 = P[P_Y0]!, r = P[P_R]!, slack = P[P_SLACK]!, mi = P[P_M]!;
    const m = mi > 0 ? mi : 0.5 * ((invMass[a]! > 0 ? mass[2 * a]! : 0) + (invMass[b]! > 0 ? mass[2 * b]! : 0));
    if (!(m > 0)) return;
    const rr = r + bnd.eRad[item]!;
    const a2 = 2 * a, b2 = 2 * b;
    P[P_REACH] = rr + slack;
    if (farFromEdgeAt(P, this.bp.edgeBox, 4 * item, x0, this.xp, this.xe, a2, b2)) return;
    pointSegAt(x0, 2 * i, x0, a2, b2);
    const d0 = GS[GS_D]!;
    // beyond an end (α clamped) the side of the edge's line says nothing about inside / outside
    const mid = GS[GS_AL]! > 0 && GS[GS_AL]! < 1;
    pointSegAt(this.xp, 2 * i, this.xp, a2, b2);
    const d1 = GS[GS_D]!;
    let d2 = d1;
    if (xs) {
      pointSegAt(xs, 2 * i, xs, a2, b2);
      d2 = GS[GS_D]!;
    }
    // side: a mesh boundary's outside (right of a→b), else the particle's side at the start
    const sl = (x0[b2]! - x0[a2]!) * (Y0 - x0[a2 + 1]!) - (x0[b2 + 1]! - x0[a2 + 1]!) * (X0 - x0[a2]!);
    // a mesh boundary edge whose triangle is inverted at the start (a folded corner) has no
    // reliable outside: it is two-sided for this step (the particle kept on its start side)
    let one = bnd.eOneSided[item]!;
    if (one === 1) {
      const c2 = 2 * bnd.eOpp[item]!;
      if ((x0[b2]! - x0[a2]!) * (x0[c2 + 1]! - x0[a2 + 1]!) - (x0[b2 + 1]! - x0[a2 + 1]!) * (x0[c2]! - x0[a2]!) <= 0) one = 0;
      // ...and no contact at all for its own body's particles: an inverted body turns back through
      // itself (no path of non-overlapping shapes reverses an orientation), and its material pushes it
      // there; the pair returns once the triangle is upright (issue 16: mirrored starts)
      if (one === 0 && bnd.actor(i) === bnd.actor(a)) {
        this.pot.unguarded[0] = 1;
        return;
      }
    }
    if (Math.min(d0, d1, d2) >= rr + slack && !sweptNodes(x0, this.xp, 2 * i, a2, b2) && (!xs || !sweptNodes(x0, xs, 2 * i, a2, b2))) {
      // guard: the trust boxes of the particle and the edge overlap, and the particle starts
      // outside or beyond an end (a one-sided edge is not limited from its inside: the particle may leave)
      const o = 4 * item, ec = this.bp.edgeBox, dl = sq[S_DL]!;
      if (this.trust === 1 && P[P_TLX]! <= ec[o + 2]! + dl && P[P_THX]! >= ec[o]! - dl && P[P_TLY]! <= ec[o + 3]! + dl &&
        P[P_THY]! >= ec[o + 1]! - dl && (one === 0 || sl < 0 || !mid)) {
        st[ST_G] = 0;
        st[ST_G + 1] = 0;
        st[ST_G + 2] = 0;
        st[ST_G + 3] = 0;
        st[ST_R] = rr;
        st[ST_K] = sq[S_KS]! * m;
        st[ST_MU] = 0;
        st[ST_EPS] = sq[S_EPS]!;
        this.stageGuard(KIND_EDGE, i, a, b, item, sl < 0 ? -1 : 1);
      }
      return;
    }
    if (one === 1 && mid && sl > rr * Math.sqrt((x0[b2]! - x0[a2]!) ** 2 + (x0[b2 + 1]! - x0[a2 + 1]!) ** 2)) {
      this.pot.unguarded[0] = 1; // deep inside
      return;
    }
    const side = one === 1 ? -1 : sl < 0 ? -1 : 1;
    st[ST_G] = 0;
    st[ST_G + 1] = 0;
    st[ST_G + 2] = 0;
    st[ST_G + 3] = 0;
    st[ST_R] = rr;
    st[ST_K] = sq[S_KS]! * m;
    st[ST_MU] = this.s.friction;
    st[ST_EPS] = sq[S_EPS]!;
    this.pot.addStaged(KIND_EDGE, i, a, b, x0, item, side);
    this.book.require(this.pattern!, i, a);
    this.book.require(this.pattern!, i, b);
  }

  /**
   * Particle i against collider segment `item` (end pose; friction relative to the segment's surface displacement
   * over the step). A segment collider is two-sided: it keeps the particle on its start side. A polygon's edge is
   * one-sided, like a body's boundary edge: it keeps the particle outside (on its right), and a particle that starts
   * inside (a moving polygon reached it) has no barrier and no guard from it, only its floor and its penalty, which
   * push it out (docs/contact.md, "Driven colliders yield"). A one-way polygon's edges are two-sided: bodies pass
   * into it from its open side.
   */
  private segment(ctx: StepContext, i: number, item: number, inside: boolean): void {
    const P = this.pq, sq = this.sq, st = this.pot.stageIn, x0 = this.x0, xp = this.xp, xe = this.xe;
    const X0 = P[P_X0]!, Y0 = P[P_Y0]!, r = P[P_R]!, slack = P[P_SLACK]!, mi = P[P_M]!;
    const cols = this.cols, sg = cols.seg;
    const sj = item - this.bnd.nE, o = 8 * sj, col = cols.segCol[sj]!;
    const rr = r + cols.segRad[sj]!;
    const ax = sg[o + 4]!, ay = sg[o + 5]!, bx = sg[o + 6]!, by = sg[o + 7]!;
    pointSegAt(x0, 2 * i, sg, o + 4, o + 6);
    const d0 = GS[GS_D]!, al = GS[GS_AL]!; // al: closestAlpha(X0, Y0, a, b), same operations
    pointSegAt(xp, 2 * i, sg, o + 4, o + 6);
    const d1 = GS[GS_D]!;
    pointSegAt(xe, 2 * i, sg, o + 4, o + 6);
    const d2 = GS[GS_D]!;
    // side of the particle at the start (left of a→b: > 0), against the segment's start pose
    const sl = (sg[o + 2]! - sg[o]!) * (Y0 - sg[o + 1]!) - (sg[o + 3]! - sg[o + 1]!) * (X0 - sg[o]!);
    // a polygon's edge (not a one-way polygon's) keeps a particle that starts inside the polygon (at its start or end
    // pose) outside; any other particle on the side it starts on: one on the inner side of this edge's line but outside
    // the polygon is beyond another edge, and its signed distance to this one says nothing
    const poly = cols.segPoly[sj]!;
    const inner = poly >= 0 && !this.filter.oneWay(col) && (inside || (sl >= 0 && cols.insidePolygonEitherPose(poly, x0, 2 * i)));
    if (!inside && Math.min(d0, d1, d2) >= rr + slack && !sweptSegment(x0, xp, 2 * i, sg, o) && !sweptSegment(x0, xe, 2 * i, sg, o)) {
      // guard: the trust box reaches the segment's box (end pose), unless the particle starts inside the polygon (a
      // one-sided edge is not limited from its inside: the particle may leave)
      if (this.trust === 1 && P[P_TLX]! <= Math.max(ax, bx) && P[P_THX]! >= Math.min(ax, bx) && P[P_TLY]! <= Math.max(ay, by) &&
        P[P_THY]! >= Math.min(ay, by) && !inner) {
        st[ST_G] = ax;
        st[ST_G + 1] = ay;
        st[ST_G + 2] = bx;
        st[ST_G + 3] = by;
        st[ST_R] = rr;
        st[ST_K] = sq[S_KS]! * mi;
        st[ST_MU] = 0;
        st[ST_EPS] = sq[S_EPS]!;
        this.stageGuard(KIND_SEGMENT, i, -1, -1, item, sl < 0 ? -1 : 1);
      }
      return;
    }
    // surface displacement over the step at the particle's closest point (tangential part: friction)
    const sx = ax + al * (bx - ax) - ((1 - al) * sg[o]! + al * sg[o + 2]!);
    const sy = ay + al * (by - ay) - ((1 - al) * sg[o + 1]! + al * sg[o + 3]!);
    st[ST_G] = ax;
    st[ST_G + 1] = ay;
    st[ST_G + 2] = bx;
    st[ST_G + 3] = by;
    st[ST_R] = rr;
    st[ST_K] = sq[S_KS]! * mi;
    frictionInto(ctx, col, this.s, st, ST_MU);
    st[ST_EPS] = sq[S_EPS]!;
    const pot = this.pot;
    const k = pot.addStaged(KIND_SEGMENT, i, -1, -1, x0, item, inner || sl < 0 ? -1 : 1);
    const ss = pot.slipIn;
    ss[0] = sx;
    ss[1] = sy;
    pot.addSurfaceSlipStaged(k);
  }

  /** Particle i against collider circle `item` (end pose; friction relative to its centre's motion and spin). */
  private circle(ctx: StepContext, i: number, item: number): void {
    const P = this.pq, sq = this.sq, st = this.pot.stageIn;
    const X0 = P[P_X0]!, Y0 = P[P_Y0]!, X1 = P[P_X1]!, Y1 = P[P_Y1]!, X2 = P[P_X2]!, Y2 = P[P_Y2]!;
    const r = P[P_R]!, slack = P[P_SLACK]!, mi = P[P_M]!;
    const cols = this.cols, ci = cols.circ;
    const cc = item - this.bnd.nE - cols.nS, o = 5 * cc, col = cols.circCol[cc]!;
    const R = ci[o + 4]!;
    const d0 = Math.sqrt((X0 - ci[o + 2]!) ** 2 + (Y0 - ci[o + 3]!) ** 2) - R;
    const d1 = Math.sqrt((X1 - ci[o + 2]!) ** 2 + (Y1 - ci[o + 3]!) ** 2) - R;
    const d2 = Math.sqrt((X2 - ci[o + 2]!) ** 2 + (Y2 - ci[o + 3]!) ** 2) - R;
    if (Math.min(d0, d1, d2) >= r + slack) {
      // guard: the trust box reaches the circle's box (end pose)
      if (this.trust === 1 && P[P_TLX]! <= ci[o + 2]! + R && P[P_THX]! >= ci[o + 2]! - R && P[P_TLY]! <= ci[o + 3]! + R &&
        P[P_THY]! >= ci[o + 3]! - R) {
        st[ST_G] = ci[o + 2]!;
        st[ST_G + 1] = ci[o + 3]!;
        st[ST_G + 2] = R;
        st[ST_G + 3] = 0;
        st[ST_R] = r;
        st[ST_K] = sq[S_KS]! * mi;
        st[ST_MU] = 0;
        st[ST_EPS] = sq[S_EPS]!;
        this.stageGuard(KIND_CIRCLE, i, -1, -1, item, 1);
      }
      return;
    }
    const e = ctx.lists.colliders[col]!;
    st[ST_G] = ci[o + 2]!;
    st[ST_G + 1] = ci[o + 3]!;
    st[ST_G + 2] = R;
    st[ST_G + 3] = 0;
    st[ST_R] = r;
    st[ST_K] = sq[S_KS]! * mi;
    frictionInto(ctx, col, this.s, st, ST_MU);
    st[ST_EPS] = sq[S_EPS]!;
    const pot = this.pot;
    const k = pot.addStaged(KIND_CIRCLE, i, -1, -1, this.x0, item, 1);
    // centre displacement plus the spin of the surface (ω R along the tangent)
    const tg = this.tg, h = sq[S_H]!, om = ctx.c.Collider.omega;
    pot.tangent(k, tg);
    const ss = pot.slipIn;
    ss[0] = ci[o + 2]! - ci[o]! + h * om[e]! * R * tg[0]!;
    ss[1] = ci[o + 3]! - ci[o + 1]! + h * om[e]! * R * tg[1]!;
    pot.addSurfaceSlipStaged(k);
  }

  /** Stage a guard (its doubles are in the potential's stageIn); added after all candidates. */
  private stageGuard(kind: number, p: number, a: number, b: number, item: number, side: number): void {
    const nG = this.nG;
    this.gBuf = growI(this.gBuf, 6 * (nG + 1));
    this.gSt = growF(this.gSt, ST_N * (nG + 1));
    const o = 6 * nG, gb = this.gBuf, gs = this.gSt, st = this.pot.stageIn;
    gb[o] = kind;
    gb[o + 1] = p;
    gb[o + 2] = a;
    gb[o + 3] = b;
    gb[o + 4] = item;
    gb[o + 5] = side;
    for (let j = 0; j < ST_N; j++) gs[ST_N * nG + j] = st[j]!;
    this.nG = nG + 1;
  }
}
