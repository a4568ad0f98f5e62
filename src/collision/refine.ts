/**
 * Refinement of the contact solve (game mode, solve stage; docs/contact.md, "Refinement" and
 * "Continued solves"): after a solve with contact, the candidate search is redone with the solve's
 * result added to its boxes and tests. When a pair that was neither a candidate nor a guard is in
 * contact at the result, or the straight path from the start crossed its surface, or the solve
 * stopped with a particle on the side of its trust box, the step is restored and solved again with
 * the larger set — at most `maxRefinements` times per step. After a stopped solve the trust region
 * grows (δ × 4) and Newton continues from that solve's result (every iterate was intersection-free).
 * A solve that ends inside every trust box needs no search: the trust region already proves that
 * no pair was missed (check()).
 */
import type { StepContext } from '../solver/context';
import type { ContactBoundary } from './boundary';
import { growF, growI } from './buffers';
import { itemBefore, type CandidateSearch } from './candidates';
import type { ContactPotential } from './implicit';
import { KQ_D } from './candidate-kernels';
import type { ContactSettings } from './settings';

export class Refinement {
  /** Refinement solves in the last step. */
  count = 0;
  /** Solves that ended with a particle on the side of its trust box (refined unless at maxRefinements), since creation. */
  pinnedSolves = 0;
  /** The last solve's candidates [0, count) and guards [count, total): particle and item. */
  private oldP: Int32Array = new Int32Array(0);
  private oldItem: Int32Array = new Int32Array(0);
  /** The last solve's result, and result − start. */
  private xs: Float64Array = new Float64Array(0);
  private dxs: Float64Array = new Float64Array(0);
  /** A candidate's geometry at the result (candidateGeom's out: KQ_D .. KQ_AL). */
  private readonly gq = new Float64Array(4);
  /** Initial guess of a refinement after a pinned solve (exactly ndof long). */
  private warm: Float64Array = new Float64Array(0);

  private readonly s: ContactSettings;
  private readonly pot: ContactPotential;
  private readonly search: CandidateSearch;

  constructor(s: ContactSettings, pot: ContactPotential, search: CandidateSearch) {
    this.s = s;
    this.pot = pot;
    this.search = search;
  }

  /**
   * After a solve: search again around its result ctx.x (start-of-step state x0, v0); if the
   * step must be solved again, restore ctx.x, ctx.v to the start and return true.
   */
  check(ctx: StepContext, bnd: ContactBoundary, x0: Float64Array, v0: Float64Array): boolean {
    if (this.count >= this.s.maxRefinements) return false;
    // the old candidates [0, m) and guards [m, mt): each list ordered like the new candidates
    const pot = this.pot, m = pot.count, mt = pot.total;
    this.oldP = growI(this.oldP, mt);
    this.oldItem = growI(this.oldItem, mt);
    for (let k = 0; k < mt; k++) {
      this.oldP[k] = pot.node[3 * k]!;
      this.oldItem[k] = pot.item[k]!;
    }
    this.xs = growF(this.xs, ctx.x.length);
    this.xs.set(ctx.x);
    // the solve stopped with a particle on the side of its trust box: search around the result too
    const pinned = pot.pinned(this.xs);
    // Every particle inside its trust box: the search would find no missed pair. A pair the hash never
    // met stays more than r̂ apart while both stay in their boxes (CandidateSearch.search), and the
    // boxes are convex, so neither the result nor the straight path to it meets such a pair; the
    // pairs it met are candidates or guards, whose potential the solve had. (Measured before this
    // return: 0 missed pairs after unpinned solves in 5,554 checks on pile20 ×6, page, row20, stirred.)
    // (It stays after the copies above, though they serve only the search: returning before any loop
    // leaves this method to V8's interpreter, and the partly sleeping step of test/sleep.test.ts then
    // allocated 21 B/step against the gate's 8.)
    if (!pinned && pot.trN > 0) return false;
    if (pinned) this.search.trustLevel++; // a larger trust region around the result (δ × 4)
    this.search.search(ctx, bnd, x0, v0, this.xs);
    // candidates are ordered by particle, then half-planes (item < 0, in order), then items ascending
    let j = 0, g = m, missing = pinned;
    if (pinned) this.pinnedSolves++;
    const q = this.gq;
    const nx = ctx.x.length;
    this.dxs = growF(this.dxs, nx);
    for (let i = 0; i < nx; i++) this.dxs[i] = this.xs[i]! - x0[i]!;
    for (let k = 0; k < pot.count && !missing; k++) {
      const p = pot.node[3 * k]!, it = pot.item[k]!;
      while (j < m && (this.oldP[j]! < p || (this.oldP[j] === p && itemBefore(this.oldItem[j]!, it)))) j++;
      if (j < m && this.oldP[j] === p && this.oldItem[j] === it) continue;
      // a guard of the solve had the potential too (its iterates were kept on its side)
      while (g < mt && (this.oldP[g]! < p || (this.oldP[g] === p && itemBefore(this.oldItem[g]!, it)))) g++;
      if (g < mt && this.oldP[g] === p && this.oldItem[g] === it) continue;
      // missed: in contact at the result, or the path xᵗ → result went through the surface
      pot.geom(k, this.xs, q);
      if (q[KQ_D]! < pot.radius(k) || (pot.barrierKappa(k) > 0 && pot.impactTime(k, x0, this.dxs) >= 0)) missing = true;
    }
    if (!missing) return false;
    this.count++;
    if (pinned) {
      // continue from the result (every iterate was intersection-free) with the larger trust region
      if (this.warm.length !== nx) this.warm = new Float64Array(nx);
      for (let i = 0; i < nx; i++) this.warm[i] = this.xs[i]!;
      pot.warmStart = this.warm;
    }
    ctx.x.set(x0.subarray(0, ctx.x.length));
    ctx.v.set(v0.subarray(0, ctx.v.length));
    return true;
  }
}
