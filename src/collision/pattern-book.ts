/**
 * The contact pattern book (game mode): which particle pairs the topology's sparsity pattern
 * holds for contact, and the rules that cap it (docs/contact.md, "Cap on pattern growth").
 *
 * - Queue: the candidate search asks for the (p, a) and (p, b) blocks of every particle–edge
 *   candidate (`require`); pairs missing from the pattern are queued.
 * - Rebuild (`commit`): when pairs are queued and the token bucket (`rebuildBurst` tokens, refilled
 *   at `rebuildRate` per simulated second by the candidate search) has a token, the pattern is rebuilt with the
 *   queued pairs and without the stale ones (no candidate for more than `staleSteps` steps), and
 *   the linear solver with it; without a token the rebuild is deferred (the candidates' missing
 *   blocks use the potential's diagonal majorizer).
 * - Staleness (`markSeen`): every step stamps the pattern pairs that are blocks of a candidate,
 *   through a per-slot pair map (no allocation unless the pattern changed).
 */
import { rebuildSolver, type StepContext } from '../solver/context';
import { findSlot, type SymPattern } from '../solver/pattern';
import { setContactPairs, type Topology } from '../solver/topology';
import { growI } from './buffers';
import { KIND_EDGE, type ContactPotential } from './implicit';
import type { ContactSettings } from './settings';

export class PatternBook {
  /** Rebuilds deferred by the rate limit, and contact pairs dropped as stale, since creation. */
  deferredRebuilds = 0;
  droppedPairs = 0;
  /** Contact-pattern growths (pattern + symbolic factorization rebuilt) and their total cost (ms). */
  growths = 0;
  msGrowth = 0;
  /** Steps begun (beginStep): the stamp of markSeen. */
  private stepNo = 0;
  /**
   * [0]: rebuild tokens left (−1 before the first step); a Float64Array: no heap number per refill.
   * Refilled by the candidate search (candidates.ts) to min(rebuildBurst, tokens + rebuildRate · h).
   */
  readonly tokens = new Float64Array([-1]);
  /** Per contact pair of the topology: the last step it was a candidate. */
  private pairSeen: Int32Array = new Int32Array(0);
  /** Per pattern slot: the contact pair whose (hi, lo) xx entry it is, −1 otherwise. */
  private slotPair: Int32Array = new Int32Array(0);
  private slotPatternRef: SymPattern | null = null;
  private seenTopoRef: Topology | null = null;
  /** Pairs queued for the pattern (2 per pair; duplicates are merged at the rebuild). */
  private newPairs: Int32Array = new Int32Array(0);
  private nNew = 0;

  private readonly s: ContactSettings;

  constructor(s: ContactSettings) {
    this.s = s;
  }

  /** What a snapshot keeps (the stamps only while they are mapped onto the current pattern). */
  exportState(t: Topology): { stepNo: number; tokens: number; pairSeen: Int32Array | null } {
    const mapped = this.seenTopoRef === t && this.slotPatternRef === t.pattern;
    return { stepNo: this.stepNo, tokens: this.tokens[0]!, pairSeen: mapped ? this.pairSeen.slice(0, t.contactPairCount) : null };
  }

  /** Put a snapshot's state back (after the topology's contact pairs were restored). */
  importState(t: Topology, stepNo: number, tokens: number, pairSeen: Int32Array | null): void {
    this.stepNo = stepNo;
    this.tokens[0] = tokens;
    this.nNew = 0;
    if (pairSeen && pairSeen.length === t.contactPairCount) this.mapPairs(t, pairSeen.slice());
    else {
      this.seenTopoRef = null;
      this.slotPatternRef = null;
    }
  }

  /** A new step (the stamp of markSeen). */
  beginStep(): void {
    this.stepNo++;
  }

  /** Start a candidate search: nothing queued. */
  clearQueue(): void {
    this.nNew = 0;
  }

  /** The pattern needs the block of particles i and j: queue the pair unless the pattern has it. */
  require(pattern: SymPattern, i: number, j: number): void {
    const hi = i > j ? i : j, lo = i > j ? j : i;
    if (findSlot(pattern, 2 * hi, 2 * lo) >= 0) return;
    this.newPairs = growI(this.newPairs, 2 * (this.nNew + 1));
    this.newPairs[2 * this.nNew] = i;
    this.newPairs[2 * this.nNew + 1] = j;
    this.nNew++;
  }

  /** Rebuild the pattern with the queued pairs if any are queued and a token is left (else count a deferred rebuild). */
  commit(ctx: StepContext): void {
    if (this.nNew === 0) return;
    const rebuild = this.tokens[0]! >= 1;
    // counted on every call, not in a branch of its own: the first deferred rebuild comes late in a game (the
    // jelly page's step 89), and a first run of that branch deoptimized the candidate search it is inlined in
    this.deferredRebuilds += rebuild ? 0 : 1;
    if (rebuild) {
      this.tokens[0] = this.tokens[0]! - 1;
      const t0 = performance.now();
      this.rebuildPattern(ctx);
      this.growths++;
      this.msGrowth += performance.now() - t0;
    }
  }

  /** Mark this step's edge candidates' contact pairs as seen (no allocation unless the pattern changed). */
  markSeen(t: Topology, pot: ContactPotential): void {
    if (this.slotPatternRef !== t.pattern || this.seenTopoRef !== t) this.mapPairs(t, null);
    const sp = this.slotPair, seen = this.pairSeen, step = this.stepNo;
    for (let k = 0; k < pot.count; k++) {
      if (pot.kind[k] !== KIND_EDGE) continue;
      for (let q = 0; q < 2; q++) {
        const s = pot.offDiagonalSlot(k, q);
        if (s < 0) continue;
        const c = sp[s]!;
        if (c >= 0) seen[c] = step;
      }
    }
  }

  /** Per-slot contact-pair map and last-seen steps, after a pattern change (setup rate: allocates). */
  private mapPairs(t: Topology, seen: Int32Array | null): void {
    const pat = t.pattern, m = t.contactPairCount, cp = t.contactPairs;
    this.slotPair = new Int32Array(pat.nnz).fill(-1);
    for (let k = 0; k < m; k++) {
      const u = cp[2 * k]!, v = cp[2 * k + 1]!;
      const s = findSlot(pat, 2 * (u > v ? u : v), 2 * (u > v ? v : u));
      if (s >= 0 && this.slotPair[s] === -1) this.slotPair[s] = k;
    }
    this.pairSeen = seen ?? new Int32Array(m).fill(this.stepNo);
    this.slotPatternRef = pat;
    this.seenTopoRef = t;
  }

  /**
   * Rebuild the contact pattern: keep the topology's contact pairs seen as candidates within the
   * last `staleSteps` steps, add the queued pairs (duplicates merged), rebuild the pattern and the
   * linear solver. Setup rate (limited by the token bucket): allocates.
   */
  private rebuildPattern(ctx: StepContext): void {
    const t = ctx.topology;
    if (this.slotPatternRef !== t.pattern || this.seenTopoRef !== t) this.mapPairs(t, null);
    const old = t.contactPairCount, cp = t.contactPairs, n = t.n, step = this.stepNo;
    const out: number[] = [];
    const seen: number[] = [];
    const keys = new Set<number>();
    const push = (u: number, v: number, s: number): void => {
      const lo = u < v ? u : v, hi = u < v ? v : u;
      const key = lo * n + hi;
      if (keys.has(key)) return;
      keys.add(key);
      out.push(u, v);
      seen.push(s);
    };
    for (let k = 0; k < old; k++) {
      if (step - this.pairSeen[k]! > this.s.staleSteps) {
        this.droppedPairs++;
        continue;
      }
      push(cp[2 * k]!, cp[2 * k + 1]!, this.pairSeen[k]!);
    }
    for (let k = 0; k < this.nNew; k++) push(this.newPairs[2 * k]!, this.newPairs[2 * k + 1]!, step);
    setContactPairs(t, Int32Array.from(out), out.length / 2);
    rebuildSolver(ctx);
    this.mapPairs(t, Int32Array.from(seen));
  }
}
