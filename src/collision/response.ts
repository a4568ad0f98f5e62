/**
 * Post-solve contact response (game mode, response stage): swept detection over x⁰ → x on the
 * broad phase (broadphase.ts, items at both poses and polygon interiors), the CCD safety net for
 * pairs the implicit solve did not cover, and the velocity filter for bouncy colliders and for
 * integrators without contact in the solve. Writes the step's pairs (pairs.ts) for the events.
 *
 * The velocity filter (the course's): for each contact the relative velocity into the normal is
 * removed (or reflected by the COR) and the tangential velocity is reduced by at most μ times that
 * normal change (Coulomb). Penetration is corrected by moving positions only; a correction that
 * lifts a particle against the force on it takes that potential energy out of its outgoing normal
 * speed, so the correction never adds energy. The narrow phase is continuous (swept point–segment
 * and point–circle), so a particle cannot pass through a zero-thickness segment whatever its speed.
 *
 * With contact in the solve, a pair the solve covers is only recorded (see gate). Scratch: `rq`
 * (offsets R_*) carries the narrow phase's results and the response's inputs between the methods,
 * so no double crosses a call (geometry.ts's header).
 */
import { TRI_B00, TRI_MATERIAL, TRI_STRIDE } from '../elements/layout';
import { MAT_COROTATIONAL, MAT_NEOHOOKEAN } from '../elements/materials';
import type { StepContext } from '../solver/context';
import type { Topology } from '../solver/topology';
import { emptyBoundary, type ContactBoundary } from './boundary';
import type { ItemBroadphase } from './broadphase';
import { itemBefore } from './candidates';
import { bouncyCollider, type KinematicColliders } from './colliders';
import {
  GS, GS_AL, loadSweptNodes, loadSweptSegment, pointSegAt, SW, SW_A0, SW_A1, SW_B0, SW_B1, SW_P0, SW_P1, SW_Q0, SW_Q1,
  SW_RHO, SW_T, sweptPCS, sweptPS,
} from './geometry';
import type { ContactFilter } from './filter';
import type { ContactPotential } from './implicit';
import { KIND_EDGE, KQ, KQ_FN, normalForceQ } from './candidate-kernels';
import type { ContactPairs } from './pairs';
import type { ContactSettings } from './settings';

/** Offsets of `rq`: normal, penetration, edge fraction α, combined radius, contact point, surface velocity, COR, μ, impulse. */
const R_NX = 0, R_NY = 1, R_PEN = 2, R_AL = 3, R_RT = 4, R_CX = 5, R_CY = 6, R_SVX = 7, R_SVY = 8, R_COR = 9, R_MU = 10, R_IMP = 11;
/** Offsets of `fs`: 1 while the pairs are the solve's candidates (fromSolve), 1 once such a detection met a pair to correct. */
const FS_ON = 0, FS_ABORTED = 1;
/** ContactPairs.covered: the solve covered the pair (no correction), or a driven collider yielded to the particle (markCovered). */
const COVER_SOLVED = 1, COVER_YIELD = 2;
/** limitRelease: a stopped collider lets a particle it holds out by at most this many radii a step. */
const RELEASE_STEP = 0.5;

/**
 * Whether every particle moved less than √reach2 over the step (x0 → x); false for a non-finite position. A
 * module-level kernel: once per step, a method's loop would run unoptimized for thousands of steps.
 */
function movedLess(nodes: number, x0: Float64Array, x: Float64Array, reach2: Float64Array): boolean {
  const r2 = reach2[0]!;
  for (let i = 0; i < nodes; i++) {
    const dx = x[2 * i]! - x0[2 * i]!, dy = x[2 * i + 1]! - x0[2 * i + 1]!;
    if (!(dx * dx + dy * dy < r2)) return false;
  }
  return true;
}

export class ContactResponse {
  private readonly rq = new Float64Array(12);
  /** fromSolve's state (offsets FS_*): typed, since a field first written late deoptimizes the code that read it. */
  private readonly fs = new Uint8Array(2);
  /** fromSolve's bound on the step's motion, squared ([0]; an array: no double crosses a call). */
  private readonly reach2 = new Float64Array(1);
  // this detection's inputs (set by detect)
  private bnd: ContactBoundary = emptyBoundary();
  private x0: Float64Array = new Float64Array(0);
  private v0: Float64Array = new Float64Array(0);
  private implicitOn = false;
  private topo: Topology | null = null;
  /** isPressed's flags: 1 for a body touching another body this step (index: body id), and whether they are set. */
  private pressed: Uint8Array = new Uint8Array(0);
  private pressedReady = false;
  /**
   * The driven collider (its entity id + 1; 0: none) that left each particle more than r̂ inside it (a covered pair: it
   * yielded to the particle) in the last response (yieldPrev) and in this one (yieldNext); of the boundary yieldBnd.
   * markCovered keeps covering the particle's pair with that collider while it stays inside and the collider moves,
   * also once its body no longer touches another (a release: see markCovered); limitRelease when the collider stopped.
   */
  private yieldPrev: Int32Array = new Int32Array(0);
  private yieldNext: Int32Array = new Int32Array(0);
  /** The world's colliders (ctx.lists.colliders), for the yield's entity ids. */
  private colliderEids: readonly number[] = [];
  private yieldBnd: ContactBoundary | null = null;
  /** limitRelease's correction so far this response, by particle. */
  private releaseUsed: Float64Array = new Float64Array(0);
  /** selfFolded's memo for this detection: the last body checked (0: none) and whether it has an inverted triangle. */
  private foldAct = 0;
  private foldInv = false;

  private readonly s: ContactSettings;
  private readonly cols: KinematicColliders;
  private readonly bp: ItemBroadphase;
  private readonly pot: ContactPotential;
  private readonly pairs: ContactPairs;
  private readonly filter: ContactFilter;

  constructor(
    s: ContactSettings, cols: KinematicColliders, bp: ItemBroadphase, pot: ContactPotential, pairs: ContactPairs, filter: ContactFilter,
  ) {
    this.s = s;
    this.filter = filter;
    this.cols = cols;
    this.bp = bp;
    this.pot = pot;
    this.pairs = pairs;
  }

  /**
   * Broad phase over swept boxes x0 → ctx.x, then Gauss–Seidel passes (narrow phase + response) over
   * the pairs; x0, v0: the start-of-step state; implicitOn: contact was in this step's solve (the
   * potential holds its candidates); searched: nothing changed the state or the colliders between the
   * candidate search and here but the solve (no user system ran in between), so where the step moved
   * little the pairs may come from the solve's candidates instead (fromSolve).
   */
  detect(ctx: StepContext, bnd: ContactBoundary, x0: Float64Array, v0: Float64Array, implicitOn: boolean, searched: boolean): void {
    this.bnd = bnd;
    this.x0 = x0;
    this.v0 = v0;
    this.implicitOn = implicitOn;
    this.beginYield(bnd);
    if (implicitOn && searched && this.fromSolve(ctx)) return;
    const x = ctx.x, n = bnd.n, pairs = this.pairs, s = this.s;
    const nE = bnd.nE, nItems = nE + this.cols.nS + this.cols.nC + this.cols.nP;
    this.bp.grow[0] = 0;
    this.bp.fill(s, bnd, this.cols, x0, x, x, 1, 1);
    const hash = this.bp.hash, hq = hash.q, cand = this.bp.cand;
    // Candidate pairs, by particle in creation order.
    pairs.count = 0;
    const H = ctx.c.Halfplane, hps = ctx.lists.halfplanes, invMass = bnd.invMass, filter = this.filter, cols = this.cols;
    for (let i = 0; i < n; i++) {
      if (invMass[i] === 0 && nE === 0) continue;
      const planes = !filter.sensorParticle(i);
      const r = bnd.radius[i]!;
      const X0 = x0[2 * i]!, Y0 = x0[2 * i + 1]!, X1 = x[2 * i]!, Y1 = x[2 * i + 1]!;
      const move = Math.abs(X1 - X0) + Math.abs(Y1 - Y0);
      for (let q = 0; q < hps.length; q++) {
        const e = hps[q]!;
        if (invMass[i] === 0 || !planes) break;
        const d = (X1 - H.px[e]!) * H.nx[e]! + (Y1 - H.py[e]!) * H.ny[e]!;
        if (d < 2 * r + move) pairs.add(i, -(q + 1));
      }
      if (nItems === 0) continue;
      // an interior mesh node pairs with no edge (below) and, fixed, with no collider shape: nothing to query
      if (bnd.surface[i] === 0 && (nItems === nE || invMass[i] === 0)) continue;
      hq[0] = Math.min(X0, X1) - r;
      hq[1] = Math.min(Y0, Y1) - r;
      hq[2] = Math.max(X0, X1) + r;
      hq[3] = Math.max(Y0, Y1) + r;
      const cnt = hash.queryCellsQ(cand);
      const buf = cand.buf;
      for (let c = 0; c < cnt; c++) {
        const item = buf[c]!;
        if (item < nE) {
          if (bnd.surface[i] === 0) continue;
          const a = bnd.ea[item]!, b = bnd.eb[item]!;
          if (bnd.adjacent(i, a, b)) continue;
          if (invMass[i] === 0 && invMass[a] === 0 && invMass[b] === 0) continue;
          if (filter.contactWithEdge(i, item, bnd)) pairs.add(i, item);
        } else if (invMass[i] !== 0 && filter.contactWithShape(i, item, nE, cols, x0)) {
          pairs.add(i, item);
        }
      }
    }
    if (implicitOn) this.covered(ctx);
    this.passes(ctx);
  }

  /**
   * The detection from the solve's candidates instead of the broad phase, where that finds the same contacts
   * (docs/contact.md, "The response from the solve's candidates"). Every particle moved less than
   * D = ¼ margin · r_min over the step, and each particle's candidate slack is at least margin · r: a pair the search
   * rejected for its distance (at least r̂ + slack at xᵗ; guards too) stays more than r̂ apart at the result and all
   * along the straight path to it (each end moved at most D, d is 1-Lipschitz in each node), and a pair it never
   * met is further still. So the pairs that touch or cross are candidates, which come in the detection's order
   * (particles, half-planes, items ascending): the passes over them touch exactly the pairs the broad phase's
   * would. Polygon interiors, which the search does not have, are added where a particle ends inside the polygon's
   * box. Not when a collider moved or is bouncy, a sensor exists, or the search dropped a pair for a reason other
   * than its distance (ContactPotential.unguarded). Changes no state: where a pair needs a correction it stops
   * (FS_ABORTED) before making it and returns false, and the caller runs the broad phase.
   */
  private fromSolve(ctx: StepContext): boolean {
    const pot = this.pot, s = this.s, cols = this.cols, bnd = this.bnd, x = ctx.x, x0 = this.x0;
    if (pot.unguarded[0] !== 0 || s.cor > 0 || this.filter.anySensor || !cols.stillAndDull(ctx, s)) return false;
    const n = bnd.n, reach = 0.25 * s.margin * bnd.minRadius;
    this.reach2[0] = reach * reach;
    if (!(reach > 0) || !movedLess(n, x0, x, this.reach2)) return false;
    const pairs = this.pairs, invMass = bnd.invMass, filter = this.filter;
    const node = pot.node, item = pot.item, m = pot.count;
    const nE = bnd.nE, nP = cols.nP, poly0 = nE + cols.nS + cols.nC, box = cols.polyBox;
    pairs.count = 0;
    // the candidates [0, m), ordered by particle, then half-planes, then items ascending (a guard, like a pair the
    // search rejected, was at least r̂ + slack away at xᵗ and touches no more than they do)
    let j = 0;
    for (let i = 0; i < n; i++) {
      while (j < m && node[3 * j] === i) pairs.add(i, item[j++]!);
      // polygon interiors (the last items): where the particle ends inside the polygon's box
      if (nP === 0 || invMass[i] === 0) continue;
      const px = x[2 * i]!, py = x[2 * i + 1]!;
      for (let q = 0; q < nP; q++) {
        const o = 4 * q;
        if (px >= box[o]! && py >= box[o + 1]! && px <= box[o + 2]! && py <= box[o + 3]! && filter.contactWithShape(i, poly0 + q, nE, cols, x0)) {
          pairs.add(i, poly0 + q);
        }
      }
    }
    this.covered(ctx);
    const fs = this.fs;
    fs[FS_ON] = 1;
    fs[FS_ABORTED] = 0;
    this.passes(ctx);
    const aborted = fs[FS_ABORTED] === 1;
    fs[FS_ON] = 0;
    fs[FS_ABORTED] = 0; // the broad phase's passes run to the end
    return !aborted;
  }

  /** This response's yield marks start empty; the last response's become yieldPrev (none for a new boundary). */
  private beginYield(bnd: ContactBoundary): void {
    if (this.releaseUsed.length !== bnd.n) this.releaseUsed = new Float64Array(bnd.n);
    else this.releaseUsed.fill(0);
    if (this.yieldBnd !== bnd) {
      this.yieldBnd = bnd;
      this.yieldPrev = new Int32Array(bnd.n);
      this.yieldNext = new Int32Array(bnd.n);
      return;
    }
    const prev = this.yieldPrev;
    this.yieldPrev = this.yieldNext;
    this.yieldNext = prev;
    prev.fill(0);
  }

  /**
   * The last response's yields (a copy: per particle the collider's entity id + 1, or 0), when it ran on boundary `bnd`
   * and a collider yielded to a particle; else null (snapshots: they decide the next step's covers).
   */
  yieldMarks(bnd: ContactBoundary): Int32Array | null {
    if (this.yieldBnd !== bnd) return null;
    const f = this.yieldNext;
    for (let i = 0; i < f.length; i++) if (f[i] !== 0) return f.slice();
    return null;
  }

  /** Put a snapshot's yield marks back (null: none), for boundary `bnd` (the restored world's). */
  importYieldMarks(bnd: ContactBoundary, marks: Int32Array | null): void {
    if (marks === null) {
      if (this.yieldBnd !== bnd) return; // nothing marked: the next response starts empty either way
      this.yieldNext.fill(0);
      return;
    }
    this.yieldBnd = bnd;
    this.yieldPrev = new Int32Array(bnd.n);
    this.yieldNext = marks.slice();
  }

  /**
   * A correction of particle k's pair with collider item `item` (≥ nE) that the last response left the particle
   * inside of (its mark), where the collider did not move this step (it stopped inside a pile): at most RELEASE_STEP
   * times the particle's radius a step, over every pass, and the mark is kept while that leaves it inside. So a paddle
   * that stops in a jelly it was pressed into lets it out over some steps instead of in one jump, and the next steps'
   * solves keep the particle's neighbours apart (docs/contact.md, "Releases"). Scales rq[R_PEN], the correction.
   */
  private limitRelease(k: number, item: number): void {
    const nE = this.bnd.nE, cols = this.cols, poly0 = nE + cols.nS + cols.nC;
    if (cols.shapeMoved(item >= poly0 ? cols.polySeg[item - poly0]! : item - nE)) return;
    const p = this.pairs.p[k]!, id = this.yieldId(item);
    if (this.yieldPrev[p] !== id) return;
    const pen = this.rq[R_PEN]!, used = this.releaseUsed[p]!, budget = RELEASE_STEP * this.bnd.radius[p]!;
    const left = budget > used ? budget - used : 0;
    if (pen > left) {
      this.rq[R_PEN] = left;
      this.releaseUsed[p] = budget;
      this.yieldNext[p] = id; // still inside: the next step goes on
    } else this.releaseUsed[p] = used + pen;
  }

  /**
   * Whether a moving collider's item `item` yields to particle p (markCovered, polygonYields): the last response left p
   * inside that collider (its mark: a release goes on), or p's body touches another body this step (it is pressed).
   */
  private yieldsTo(p: number, item: number, x: Float64Array): boolean {
    return this.yieldPrev[p] === this.yieldId(item) || this.isPressed(this.bnd.bodyOf[p]!, x);
  }

  /** The yield mark of item `item` (≥ nE: a collider shape or a polygon's interior): its collider's entity id + 1. */
  private yieldId(item: number): number {
    return this.colliderEids[this.cols.colliderOf(item - this.bnd.nE)]! + 1;
  }

  /** The solve's share of each pair: which pairs it covered (markCovered) and the impulses it applied (solveImpulses). */
  private covered(ctx: StepContext): void {
    this.topo = ctx.topology;
    this.colliderEids = ctx.lists.colliders;
    this.foldAct = 0;
    this.markCovered(ctx.x);
    this.solveImpulses(ctx);
  }

  /**
   * Gauss–Seidel passes: narrow phase on the current state, then response. Later passes only revisit
   * the pairs that touched in the first. fromSolve's detection stops at a pair to correct.
   */
  private passes(ctx: StepContext): void {
    const pairs = this.pairs, fs = this.fs;
    for (let k = 0; k < pairs.count && fs[FS_ABORTED] === 0; k++) this.resolvePair(ctx, k);
    for (let pass = 1; pass < this.s.iterations && fs[FS_ABORTED] === 0; pass++) {
      for (let k = 0; k < pairs.count; k++) if (pairs.hit[k] === 1) this.resolvePair(ctx, k);
    }
  }

  /**
   * A pair needs the response's correction: true, except in fromSolve's detection, which changes no state: it
   * stops there (FS_ABORTED) and the broad phase's detection runs instead.
   */
  private corrects(): boolean {
    const fs = this.fs;
    if (fs[FS_ON] === 0) return true;
    fs[FS_ABORTED] = 1;
    return false;
  }

  /** The pair's surface is bouncy: a collider's own COR > 0, else (body edges, half-planes) the system's. */
  private bouncyItem(ctx: StepContext, item: number): boolean {
    const nE = this.bnd.nE;
    return item < nE ? this.s.cor > 0 : bouncyCollider(ctx, this.cols.colliderOf(item - nE), this.s);
  }

  private resolvePair(ctx: StepContext, k: number): void {
    const i = this.pairs.p[k]!, item = this.pairs.item[k]!;
    const x = ctx.x, x0 = this.x0;
    const r = this.bnd.radius[i]!;
    const i2 = 2 * i;
    const X0 = x0[i2]!, Y0 = x0[i2 + 1]!;
    const nE = this.bnd.nE, nS = this.cols.nS, nC = this.cols.nC;
    if (item < 0) {
      const e = ctx.lists.halfplanes[-item - 1]!;
      const H = ctx.c.Halfplane;
      const nx = H.nx[e]!, ny = H.ny[e]!;
      const d = (x[i2]! - H.px[e]!) * nx + (x[i2 + 1]! - H.py[e]!) * ny;
      if (d >= r) return;
      this.rq[R_NX] = nx;
      this.rq[R_NY] = ny;
      this.rq[R_PEN] = r - d;
      const rq = this.rq;
      rq[R_RT] = r;
      rq[R_CX] = x[i2]! - d * nx;
      rq[R_CY] = x[i2 + 1]! - d * ny;
      if (!this.gate(ctx, k, item)) return;
      // Contact point: the foot of the particle on the plane after the correction.
      rq[R_CX] = x[i2]! - d * nx;
      rq[R_CY] = x[i2 + 1]! - d * ny;
      rq[R_SVX] = 0;
      rq[R_SVY] = 0;
      rq[R_COR] = this.s.cor;
      rq[R_MU] = this.s.friction;
      this.applyStatic(ctx, k, i);
      return;
    }
    if (item < nE) {
      const a = this.bnd.ea[item]!, b = this.bnd.eb[item]!;
      const a2 = 2 * a, b2 = 2 * b;
      const rq = this.rq;
      loadSweptNodes(x0, x, i2, a2, b2);
      rq[R_RT] = r + this.bnd.eRad[item]!;
      if (!this.narrowSegment(this.bnd.eOneSided[item] === 1)) return;
      const al = rq[R_AL]!;
      rq[R_RT] = r + this.bnd.eRad[item]!;
      rq[R_CX] = (1 - al) * x[a2]! + al * x[b2]!;
      rq[R_CY] = (1 - al) * x[a2 + 1]! + al * x[b2 + 1]!;
      if (!this.gate(ctx, k, item)) return;
      this.respondEdge(ctx, k, i, a, b);
      return;
    }
    if (item < nE + nS) {
      const s = item - nE, o = 8 * s, sg = this.cols.seg;
      const rq = this.rq;
      loadSweptSegment(x0, x, i2, sg, o);
      rq[R_RT] = r + this.cols.segRad[s]!;
      // a polygon's edge (not a one-way polygon's) is one-sided for a particle that starts inside the polygon (either
      // pose) or ends inside it: it goes out; any other keeps its start side (on the inner side of this edge's line,
      // outside the polygon, it is beyond another edge, and pushing it out through this one would carry it across)
      // (a particle on the outer side of the edge's line at both ends takes the same narrow phase either way: no test)
      const q = this.cols.segPoly[s]!, w = SW;
      const s0 = (w[SW_B0]! - w[SW_A0]!) * (w[SW_P0 + 1]! - w[SW_A0 + 1]!) - (w[SW_B0 + 1]! - w[SW_A0 + 1]!) * (w[SW_P0]! - w[SW_A0]!);
      const s1 = (w[SW_B1]! - w[SW_A1]!) * (w[SW_P1 + 1]! - w[SW_A1 + 1]!) - (w[SW_B1 + 1]! - w[SW_A1 + 1]!) * (w[SW_P1]! - w[SW_A1]!);
      const one = q >= 0 && !(s0 < 0 && s1 <= 0) && !this.filter.oneWay(this.cols.segCol[s]!) &&
        (this.cols.insidePolygon(q, x, i2) || this.cols.insidePolygonEitherPose(q, x0, i2));
      if (!this.narrowSegment(one)) return;
      const col = this.cols.segCol[s]!;
      const cx = sg[o + 4]! + rq[R_AL]! * (sg[o + 6]! - sg[o + 4]!);
      const cy = sg[o + 5]! + rq[R_AL]! * (sg[o + 7]! - sg[o + 5]!);
      rq[R_RT] = r + this.cols.segRad[s]!;
      rq[R_CX] = cx;
      rq[R_CY] = cy;
      if (!this.gate(ctx, k, item)) return;
      rq[R_CX] = cx;
      rq[R_CY] = cy;
      this.respondCollider(ctx, k, i, col);
      return;
    }
    if (item < nE + nS + nC) {
      const c = item - nE - nS, o = 5 * c, ci = this.cols.circ;
      const rho = ci[o + 4]! + r;
      const q1x = x[i2]! - ci[o + 2]!, q1y = x[i2 + 1]! - ci[o + 3]!;
      const d1 = Math.sqrt(q1x * q1x + q1y * q1y);
      if (d1 < rho) {
        if (d1 > 1e-12) {
          this.rq[R_NX] = q1x / d1;
          this.rq[R_NY] = q1y / d1;
        } else {
          this.rq[R_NX] = 0;
          this.rq[R_NY] = 1;
        }
        this.rq[R_PEN] = rho - d1;
      } else {
        const q0x = X0 - ci[o]!, q0y = Y0 - ci[o + 1]!;
        const w = SW;
        w[SW_Q0] = q0x;
        w[SW_Q0 + 1] = q0y;
        w[SW_Q1] = q1x;
        w[SW_Q1 + 1] = q1y;
        w[SW_RHO] = rho;
        sweptPCS();
        const t = w[SW_T]!;
        if (t < 0) return;
        const qx = q0x + t * (q1x - q0x), qy = q0y + t * (q1y - q0y);
        const dq = Math.sqrt(qx * qx + qy * qy);
        this.rq[R_NX] = qx / dq;
        this.rq[R_NY] = qy / dq;
        this.rq[R_PEN] = rho - (q1x * this.rq[R_NX]! + q1y * this.rq[R_NY]!);
        if (!(this.rq[R_PEN]! > 0)) return;
      }
      const col = this.cols.circCol[c]!;
      const rq = this.rq;
      rq[R_RT] = r;
      rq[R_CX] = ci[o + 2]! + rq[R_NX]! * ci[o + 4]!;
      rq[R_CY] = ci[o + 3]! + rq[R_NY]! * ci[o + 4]!;
      if (!this.gate(ctx, k, item)) return;
      rq[R_CX] = ci[o + 2]! + rq[R_NX]! * ci[o + 4]!;
      rq[R_CY] = ci[o + 3]! + rq[R_NY]! * ci[o + 4]!;
      this.respondCollider(ctx, k, i, col);
      return;
    }
    // Polygon interior: a particle that ended inside is pushed out through the nearest edge.
    const p = item - nE - nS - nC;
    const start = this.cols.polyStartW[p]!, cnt = this.cols.polyCountW[p]!, w = this.cols.polyWorld;
    if (!this.cols.insidePolygon(p, x, i2)) return;
    const px = x[i2]!, py = x[i2 + 1]!;
    let best = Infinity, bx = 0, by = 0, bnx = 0, bny = 0;
    for (let j = 0; j < cnt; j++) {
      const j2 = j + 1 === cnt ? 0 : j + 1;
      const ax = w[2 * (start + j)]!, ay = w[2 * (start + j) + 1]!, qx = w[2 * (start + j2)]!, qy = w[2 * (start + j2) + 1]!;
      pointSegAt(x, i2, w, 2 * (start + j), 2 * (start + j2));
      const al = GS[GS_AL]!; // closestAlpha(p, a, q), same operations (no double crosses a call)
      const cx = ax + al * (qx - ax), cy = ay + al * (qy - ay);
      const d2 = (px - cx) ** 2 + (py - cy) ** 2;
      if (d2 < best) {
        best = d2;
        bx = cx;
        by = cy;
        const ex = qx - ax, ey = qy - ay, l = Math.sqrt(ex * ex + ey * ey);
        bnx = ey / l; // local vertices are stored counter-clockwise: outward is to the right
        bny = -ex / l;
      }
    }
    this.rq[R_NX] = bnx;
    this.rq[R_NY] = bny;
    this.rq[R_PEN] = r + Math.sqrt(best);
    this.rq[R_CX] = bx;
    this.rq[R_CY] = by;
    if (this.implicitOn && this.pairs.covered[k] === COVER_YIELD) {
      // a moving polygon yields to a pressed body (markCovered): its edges' penalties push the particle out
      this.yieldNext[i] = this.yieldId(item);
      this.rq[R_IMP] = 0;
      this.record(k);
      return;
    }
    if (!this.corrects()) return;
    this.limitRelease(k, item);
    this.respondCollider(ctx, k, i, this.cols.polyCol[p]!);
  }

  /**
   * Particle p0→p1 against a segment (a0,b0)→(a1,b1) with combined radius r.
   * Sets nx, ny (towards the particle), pen (> 0) and alpha; false when apart.
   * One-sided edges are body boundaries with the body on their left.
   */
  private narrowSegment(oneSided: boolean): boolean {
    const w = SW;
    const p0x = w[SW_P0]!, p0y = w[SW_P0 + 1]!, p1x = w[SW_P1]!, p1y = w[SW_P1 + 1]!;
    const a0x = w[SW_A0]!, a0y = w[SW_A0 + 1]!, b0x = w[SW_B0]!, b0y = w[SW_B0 + 1]!;
    const a1x = w[SW_A1]!, a1y = w[SW_A1 + 1]!, b1x = w[SW_B1]!, b1y = w[SW_B1 + 1]!, r = this.rq[R_RT]!;
    const ex = b1x - a1x, ey = b1y - a1y;
    const len = Math.sqrt(ex * ex + ey * ey);
    if (!(len > 0)) return false;
    const ux = -ey / len, uy = ex / len; // left normal
    sweptPS();
    const t = w[SW_T]!;
    // closestAlpha(p1, a1, b1), inline
    const l2 = ex * ex + ey * ey;
    let al = 0;
    if (l2 > 0) {
      const ct = ((p1x - a1x) * ex + (p1y - a1y) * ey) / l2;
      al = ct < 0 ? 0 : ct > 1 ? 1 : ct;
    }
    if (t >= 0) {
      let side = (b0x - a0x) * (p0y - a0y) - (b0y - a0y) * (p0x - a0x);
      if (side === 0) side = -((p1x - p0x) * ux + (p1y - p0y) * uy);
      // One-sided: only crossings from outside (the right) count.
      if (!(oneSided && side > 0)) {
        const sg = side > 0 ? 1 : -1;
        this.rq[R_NX] = sg * ux;
        this.rq[R_NY] = sg * uy;
        const s1 = (p1x - a1x) * this.rq[R_NX]! + (p1y - a1y) * this.rq[R_NY]!;
        this.rq[R_PEN] = r - s1;
        this.rq[R_AL] = al;
        return this.rq[R_PEN]! > 0;
      }
    }
    const cx = a1x + al * ex, cy = a1y + al * ey;
    const dx = p1x - cx, dy = p1y - cy;
    const d2 = dx * dx + dy * dy;
    if (d2 >= r * r) return false;
    const d = Math.sqrt(d2);
    this.rq[R_AL] = al;
    if (oneSided) {
      const s = dx * -ux + dy * -uy; // signed distance along the outward (right) normal
      if (s < 0 && al > 0 && al < 1) {
        this.rq[R_NX] = -ux;
        this.rq[R_NY] = -uy;
        this.rq[R_PEN] = r - s;
        return true;
      }
      if (s < 0) return false;
    }
    if (d > 1e-12) {
      this.rq[R_NX] = dx / d;
      this.rq[R_NY] = dy / d;
    } else {
      let side = (p0x - a1x) * ux + (p0y - a1y) * uy;
      if (oneSided) side = -1;
      this.rq[R_NX] = side >= 0 ? ux : -ux;
      this.rq[R_NY] = side >= 0 ? uy : -uy;
    }
    this.rq[R_PEN] = r - d;
    return true;
  }

  /**
   * With contact in the solve, a pair the solve covers (body edges; colliders with COR 0) is only
   * recorded (its impulse is the solve's, put in by solveImpulses) unless the particle tunnelled or
   * ended past the surface (pen > r̂): that is the CCD safety net's case, handled by the response
   * (back to the correct side, normal velocity removed). Bouncy contacts always go to the filter.
   */
  private gate(ctx: StepContext, k: number, item: number): boolean {
    if (!this.implicitOn) return true;
    if (!(item >= 0 && item < this.bnd.nE) && this.bouncyItem(ctx, item)) return this.corrects();
    if (this.rq[R_PEN]! > this.rq[R_RT]!) {
      if (this.pairs.covered[k] === 0) {
        if (item >= this.bnd.nE) this.limitRelease(k, item);
        return this.corrects();
      }
      // left inside the collider (a COVER_YIELD pair is a collider's)
      if (this.pairs.covered[k] === COVER_YIELD) this.yieldNext[this.pairs.p[k]!] = this.yieldId(item);
    }
    this.rq[R_IMP] = 0;
    this.record(k);
    return false;
  }

  /**
   * The impulse the solve's contact potential applied to each detected pair over the step: h times
   * its normal force −∂E/∂d at the solution (implicit Euler: v⁺ = v + h M⁻¹ F(x⁺), so this is the
   * contact's share of the momentum change). Written before the response's passes move anything; the
   * velocity filter's impulses add to it for the pairs it corrects.
   */
  private solveImpulses(ctx: StepContext): void {
    const pot = this.pot, pairs = this.pairs, x = ctx.x, q = KQ;
    for (let k = 0; k < pairs.count; k++) {
      const j = pairs.cand[k]!;
      if (j < 0) continue;
      normalForceQ(pot.kind, pot.node, pot.geo, j, x);
      pairs.imp[k] = ctx.dt * q[KQ_FN]!;
    }
  }

  /**
   * Particle p and the edge's node a belong to one body that has a triangle of an inversion-resisting
   * material inverted at the start of the step (actorInverted). The last body checked is remembered (pairs come ordered by particle): a body is scanned
   * once per run of its pairs.
   */
  private selfFolded(p: number, a: number): boolean {
    const act = this.bnd.actor(p);
    if (act !== this.bnd.actor(a)) return false;
    if (act !== this.foldAct) {
      this.foldAct = act;
      this.foldInv = actorInverted(this.topo!, this.bnd, this.x0, act);
    }
    return this.foldInv;
  }

  /**
   * Body `body` (> 0) touches another body at x (ContactPotential.markTouchingBodies), for markCovered: the flags are
   * computed at the first call after markCovered began (this.pressedReady), once a step.
   */
  private isPressed(body: number, x: Float64Array): boolean {
    if (!this.pressedReady) {
      const bodyOf = this.bnd.bodyOf;
      let top = 0;
      for (let i = 0; i < this.bnd.n; i++) if (bodyOf[i]! > top) top = bodyOf[i]!;
      if (this.pressed.length <= top) this.pressed = new Uint8Array(top + 1);
      else this.pressed.fill(0);
      this.pot.markTouchingBodies(x, bodyOf, this.pressed);
      this.pressedReady = true;
    }
    return body > 0 && this.pressed[body] === 1;
  }

  /**
   * Particle p's pair with polygon q's interior is left to the solve (markCovered): the polygon moved this step, the
   * particle's body touches another body, and the particle is a floor candidate (no barrier: it started touching or
   * inside) of one of the polygon's edges, whose penalty pushes it out. The candidates of p come before j (ordered by
   * item, the polygon's edges before its interior).
   */
  private polygonYields(p: number, q: number, j: number, x: Float64Array): boolean {
    const cols = this.cols, pot = this.pot, nE = this.bnd.nE;
    const lo = nE + cols.polySeg[q]!, hi = lo + cols.polyCountW[q]!;
    if (!cols.shapeMoved(lo - nE)) return false;
    for (let c = j - 1; c >= 0 && pot.node[3 * c] === p && pot.item[c]! >= lo; c--) {
      if (pot.item[c]! < hi && pot.hasFloor(c)) return this.yieldsTo(p, lo, x);
    }
    return false;
  }

  /**
   * Mark the detected pairs that were barrier candidates of the solve (merge of two lists both
   * ordered by particle, then half-planes, then items ascending). Their iterates stayed
   * intersection-free (continuous collision detection in the line search), so a straight-line
   * swept test x0 → x that "crosses" them is an artefact of the iterates' bent path, not tunnelling.
   */
  private markCovered(x: Float64Array): void {
    const pot = this.pot;
    // with the trust region (docs/contact.md) every pair is covered but the candidates without a
    // barrier (they started touching or past the surface): the line search kept each particle
    // inside the box the candidate search covered, and its CCD stopped every iterate before the
    // surface of each candidate with a barrier and each guard pair, so no iterate crossed any other.
    // A body-edge candidate without a barrier is covered too: the line search kept it above its floor,
    // and its penalty pushes it out over the next steps. Corrected here, it moved the edge's nodes
    // (2.4 cm in one step of a corotational 10 m drop) through other pairs that the solve had kept
    // apart (docs/contact.md, "Floor pairs"). Except a pair of one body with an inverted triangle (a
    // body turning back, selfFolded): left to the penalty, a mirrored Neo-Hookean jelly stayed
    // inverted. A collider pair without a barrier is covered when its collider moved this step and the particle's
    // body touches another body (a driven collider yields to a pressed body): the particle started the step touching
    // or inside the collider's end pose, the line search kept it above its floor, and the bodies around it held it
    // there. Pushed out here, it went through them, or its edges did (a paddle driven into a pile of Neo-Hookean
    // jellies: 298 particles inside another body after 600 steps; docs/contact.md, "Driven colliders yield"); its
    // penalty pushes it out once there is room. Every other collider pair without a barrier is corrected as before
    // (only the particle moves): a still collider's, and a moving one's against a free body, which the penalty alone
    // let a circle hitting a jelly at 8 m/s sink 10 cm into for a step. A polygon's interior pair yields likewise where
    // the particle is a floor candidate of one of its edges (polygonYields). A particle the last response left more than
    // r̂ inside a moving collider under such a cover (its mark, yieldPrev) stays covered by that collider while the pair
    // has no barrier, whether or not its body still touches another: released, it leaves by its penalty, with the
    // solve's barriers around it, where a correction pushed it out through the nearest surface in one step (up to
    // 15 cm, into a neighbour). A collider that stopped lets it out by limitRelease's steps (docs/contact.md, "Releases").
    const all = pot.trN > 0 ? 1 : 0, bnd = this.bnd, nE = bnd.nE, cols = this.cols, poly0 = nE + cols.nS + cols.nC;
    this.pressedReady = false;
    let j = 0, g = pot.count;
    for (let k = 0; k < this.pairs.count; k++) {
      const p = this.pairs.p[k]!, it = this.pairs.item[k]!;
      while (j < pot.count && (pot.node[3 * j]! < p || (pot.node[3 * j] === p && itemBefore(pot.item[j]!, it)))) j++;
      const cand = j < pot.count && pot.node[3 * j] === p && pot.item[j] === it;
      if (it >= poly0) {
        // a polygon's interior, never a candidate: covered as its edges' floor pairs are (below)
        if (this.polygonYields(p, it - poly0, j, x)) this.pairs.covered[k] = COVER_YIELD;
      } else if (cand) {
        if (pot.barrierKappa(j) > 0) this.pairs.covered[k] = COVER_SOLVED;
        else if (pot.hasFloor(j)) {
          if (pot.kind[j] === KIND_EDGE) {
            if (!this.selfFolded(p, pot.node[3 * j + 1]!)) this.pairs.covered[k] = COVER_SOLVED;
          } else if (it >= nE && cols.shapeMoved(it - nE) && this.yieldsTo(p, it, x)) {
            this.pairs.covered[k] = COVER_YIELD;
          }
        }
      } else if (all === 1) this.pairs.covered[k] = COVER_SOLVED;
      // the guards [count, total) are in the same order: the pair's potential, for its impulse
      while (g < pot.total && (pot.node[3 * g]! < p || (pot.node[3 * g] === p && itemBefore(pot.item[g]!, it)))) g++;
      this.pairs.cand[k] = cand ? j : g < pot.total && pot.node[3 * g] === p && pot.item[g] === it ? g : -1;
    }
  }

  private respondCollider(ctx: StepContext, k: number, i: number, col: number): void {
    const rq = this.rq, cx = rq[R_CX]!, cy = rq[R_CY]!;
    const K = ctx.c.Collider;
    const e = ctx.lists.colliders[col]!;
    const om = K.omega[e]!;
    const svx = K.vx[e]! - om * (cy - K.py[e]!);
    const svy = K.vy[e]! + om * (cx - K.px[e]!);
    const cor = K.cor[e]! >= 0 ? K.cor[e]! : this.s.cor;
    const mu = K.friction[e]! >= 0 ? K.friction[e]! : this.s.friction;
    rq[R_SVX] = svx;
    rq[R_SVY] = svy;
    rq[R_COR] = cor;
    rq[R_MU] = mu;
    this.applyStatic(ctx, k, i);
  }

  /** Velocity filter + penetration correction against an infinitely heavy surface moving at (svx, svy). */
  private applyStatic(ctx: StepContext, k: number, i: number): void {
    const rq = this.rq;
    const svx = rq[R_SVX]!, svy = rq[R_SVY]!, cor = rq[R_COR]!, mu = rq[R_MU]!;
    const x = ctx.x, v = ctx.v;
    const i2 = 2 * i;
    const nx = this.rq[R_NX]!, ny = this.rq[R_NY]!, pen = this.rq[R_PEN]!, h = ctx.dt;
    x[i2] = x[i2]! + pen * nx;
    x[i2 + 1] = x[i2 + 1]! + pen * ny;
    let rvx = v[i2]! - svx, rvy = v[i2 + 1]! - svy;
    const vn = rvx * nx + rvy * ny;
    let jn = 0;
    if (vn < 0 || pen > 0) {
      // The solve's acceleration into the normal (only its pull towards the surface counts).
      const v0 = this.v0;
      let an = ((v[i2]! - v0[i2]!) * nx + (v[i2 + 1]! - v0[i2 + 1]!) * ny) / h;
      if (an > 0) an = 0;
      // u: end-of-step normal velocity (the stored one is a mid-step velocity for
      // Euler-type integrators). Reflect it by the COR, then pay the lift `pen`
      // against the pull from it, so the response never adds energy.
      const half = 0.5 * h * cor * an;
      const u = vn + half;
      const mag2 = (u < 0 ? cor * cor * u * u : u * u) + 2 * an * pen;
      const vnNew = Math.sqrt(mag2 > 0 ? mag2 : 0) - half;
      const dvn = vnNew - vn;
      rvx += dvn * nx;
      rvy += dvn * ny;
      if (dvn > 0) {
        jn = dvn;
        const tx = rvx - vnNew * nx, ty = rvy - vnNew * ny;
        const vt = Math.sqrt(tx * tx + ty * ty);
        const dvt = Math.min(vt, mu * dvn);
        if (vt > 0) {
          rvx -= (dvt * tx) / vt;
          rvy -= (dvt * ty) / vt;
          // The solve already moved the particle by h·v: friction takes back its share of that slide.
          x[i2] = x[i2]! - (h * dvt * tx) / vt;
          x[i2 + 1] = x[i2 + 1]! - (h * dvt * ty) / vt;
        }
      }
    }
    v[i2] = rvx + svx;
    v[i2 + 1] = rvy + svy;
    rq[R_IMP] = jn / this.bnd.invMass[i]!;
    this.record(k);
  }

  /** Particle i against body edge (a, b) at the narrow phase's alpha: mass-weighted impulses and correction. */
  private respondEdge(ctx: StepContext, k: number, i: number, a: number, b: number): void {
    const x = ctx.x, v = ctx.v;
    const al = this.rq[R_AL]!, be = 1 - al;
    const wi = this.bnd.invMass[i]!, wa = this.bnd.invMass[a]!, wb = this.bnd.invMass[b]!;
    const w = wi + be * be * wa + al * al * wb;
    if (!(w > 0)) return;
    const nx = this.rq[R_NX]!, ny = this.rq[R_NY]!;
    const i2 = 2 * i, a2 = 2 * a, b2 = 2 * b;
    const corr = this.rq[R_PEN]! / w;
    x[i2] = x[i2]! + wi * corr * nx;
    x[i2 + 1] = x[i2 + 1]! + wi * corr * ny;
    x[a2] = x[a2]! - be * wa * corr * nx;
    x[a2 + 1] = x[a2 + 1]! - be * wa * corr * ny;
    x[b2] = x[b2]! - al * wb * corr * nx;
    x[b2 + 1] = x[b2 + 1]! - al * wb * corr * ny;
    const rvx = v[i2]! - be * v[a2]! - al * v[b2]!, rvy = v[i2 + 1]! - be * v[a2 + 1]! - al * v[b2 + 1]!;
    const vn = rvx * nx + rvy * ny;
    let Jn = 0;
    if (vn < 0) {
      Jn = (-(1 + this.s.cor) * vn) / w;
      const tx = rvx - vn * nx, ty = rvy - vn * ny;
      const vt = Math.sqrt(tx * tx + ty * ty);
      const Jt = Math.min(vt / w, this.s.friction * Jn);
      const jx = Jn * nx - (vt > 0 ? (Jt * tx) / vt : 0);
      const jy = Jn * ny - (vt > 0 ? (Jt * ty) / vt : 0);
      if (vt > 0) {
        // Friction also takes back its share of the slide the solve already made.
        const fx = (-ctx.dt * Jt * tx) / vt, fy = (-ctx.dt * Jt * ty) / vt;
        x[i2] = x[i2]! + wi * fx;
        x[i2 + 1] = x[i2 + 1]! + wi * fy;
        x[a2] = x[a2]! - be * wa * fx;
        x[a2 + 1] = x[a2 + 1]! - be * wa * fy;
        x[b2] = x[b2]! - al * wb * fx;
        x[b2 + 1] = x[b2 + 1]! - al * wb * fy;
      }
      v[i2] = v[i2]! + wi * jx;
      v[i2 + 1] = v[i2 + 1]! + wi * jy;
      v[a2] = v[a2]! - be * wa * jx;
      v[a2 + 1] = v[a2 + 1]! - be * wa * jy;
      v[b2] = v[b2]! - al * wb * jx;
      v[b2 + 1] = v[b2 + 1]! - al * wb * jy;
    }
    const rq = this.rq;
    rq[R_IMP] = Jn;
    rq[R_CX] = be * x[a2]! + al * x[b2]!;
    rq[R_CY] = be * x[a2 + 1]! + al * x[b2 + 1]!;
    this.record(k);
  }

  /** Record pair k's impulse rq[R_IMP] at the contact point rq[R_CX], rq[R_CY] with normal rq[R_NX], rq[R_NY]. */
  private record(k: number): void {
    const rq = this.rq, impulse = rq[R_IMP]!, cx = rq[R_CX]!, cy = rq[R_CY]!;
    this.pairs.hit[k] = 1;
    this.pairs.imp[k] = this.pairs.imp[k]! + (Number.isFinite(impulse) ? impulse : 0);
    const o = 4 * k;
    this.pairs.geo[o] = cx;
    this.pairs.geo[o + 1] = cy;
    this.pairs.geo[o + 2] = this.rq[R_NX]!;
    this.pairs.geo[o + 3] = this.rq[R_NY]!;
  }
}

/**
 * Whether a triangle of contact actor `act` (a body) whose material resists inversion (Neo-Hookean,
 * corotational) is inverted at x0 (J ≤ 0 against its rest orientation, the sign of det B of its
 * inverse rest matrix): the body is turning back. A reflection-invariant material (`fosssim`, `stvk`)
 * rests folded: its body does not turn back, and putting its own floor pairs back every step only
 * stirred it (docs/contact.md, "Floor pairs").
 */
export function actorInverted(t: Topology, bnd: ContactBoundary, x0: Float64Array, act: number): boolean {
  const tr = t.triangles, P = tr.params;
  for (let e = 0; e < tr.count; e++) {
    const a = tr.nodes[3 * e]!, b = tr.nodes[3 * e + 1]!, c = tr.nodes[3 * e + 2]!;
    if (bnd.actor(a) !== act) continue;
    const mat = P[TRI_STRIDE * e + TRI_MATERIAL]!;
    if (mat !== MAT_NEOHOOKEAN && mat !== MAT_COROTATIONAL) continue;
    const a2 = 2 * a, b2 = 2 * b, c2 = 2 * c, q = TRI_STRIDE * e + TRI_B00; // B = Dm⁻¹: b00, b01, b10, b11
    const ds = (x0[b2]! - x0[a2]!) * (x0[c2 + 1]! - x0[a2 + 1]!) - (x0[b2 + 1]! - x0[a2 + 1]!) * (x0[c2]! - x0[a2]!);
    const dB = P[q]! * P[q + 3]! - P[q + 1]! * P[q + 2]!;
    if (!(ds * dB > 0)) return true;
  }
  return false;
}
