/**
 * Contact inside the implicit solve (game mode): a one-sided quadratic penalty
 * on the EXACT distance, recomputed at every Newton iterate and line-search
 * trial, and lagged, smoothed Coulomb friction, per contact candidate, added to
 * the force model's potential V (the Newton solver multiplies it by h²).
 *
 * Candidate kinds (particle p against ...):
 *   PLANE    half-plane n·x = c0:             d = n·p − c0 (signed)
 *   CIRCLE   circle (c, R) at its end pose:    d = |p − c| − R (signed)
 *   SEGMENT  collider segment (a, b), fixed, and
 *   EDGE     body edge (a, b), both moving: with α the closest point's parameter,
 *            0 < α < 1: d = σ n_l·(p − a), the signed distance to the line (n_l the unit left
 *            normal, σ = ±1 the side the particle is kept on: a body edge's outside, or the side
 *            of a two-sided segment at the start of the step); α = 0 or 1: d = |p − vertex|
 *
 *   E_n = ½ κ max(0, r̂ − d)²,  ∇E_n = −κ (r̂ − d) ∇d,  ∇d = (w_p n, w_a n, w_b n),
 *   w = (1, −(1 − α), −α)   (exact: the gradient of a point–line distance; endpoints: α = 0 or 1),
 *   Hessian: Gauss–Newton κ ∇d ∇dᵀ (PSD; drops −κ (r̂ − d) ∇²d, which is negative semidefinite).
 *
 * The signed interior distance keeps growing past the line, so the penalty has no maximum at
 * d = 0 that a fast particle could be pushed over (an unsigned distance would then push it
 * on through). `maxStep` (continuous collision detection) pulls the solver's initial guess
 * x̃ back before its earliest crossing of a segment or edge candidate.
 *
 * Friction (IPC, lagged): the tangent t and the weights w_f are taken at the start of the step
 * (xᵗ, the last step's converged state), and the normal force λ = κ max(0, r̂ − d(xᵗ)) is the
 * pair's converged contact force of the last step:
 *   u(x) = Σ_j w_f,j t·(x_j − xᵗ_j) − s_t    (slip over the step, relative to the surface),
 *   E_f  = μ λ f₀(|u|),  f₀ IPC's C¹ smoothing with ε = ε_v h;
 * u is linear in x, so the exact Hessian μ λ f₀''(|u|) ∇u ∇uᵀ is PSD (f₀ convex).
 *
 * Sparsity: particle–edge candidates couple p with a and b; the contact system grows the
 * topology's pattern (src/solver/topology.ts, addContactPairs / setContactPairs) before slots
 * are looked up, so a candidate's full 6×6 Hessian is assembled exactly. While pattern rebuilds
 * are rate-limited, a candidate whose (p, a) or (p, b) block is missing is assembled with a
 * diagonal-block PSD majorizer instead (localMajorizer): for H = c g gᵀ with g = (w_j v)_j,
 * Cauchy–Schwarz gives (Σ w_j y_j)² ≤ (Σ|w_j|) Σ |w_j| y_j², so H ≼ blockdiag(S c |w_j| v vᵀ),
 * S = Σ|w_j| (= 2 on an edge), for the normal part and the friction part alike. See docs/contact.md.
 *
 * This file holds the candidates (ContactPotential: their arrays, slots, trust boxes) and the
 * ContactTerm the solver calls (energy, gradient, Hessian, maxStep), which loop over the candidates
 * in index order; the kernels are in candidate-kernels.ts and barrier-friction.ts. (A little over
 * 500 lines: a tenth of them is this header's formulas.)
 */
import type { SymPattern } from '../solver/pattern';
import { findDiagonalSlot, findSlot, findSlotAfter } from '../solver/pattern';
import { unionRoots } from '../solver/islands';
import type { ContactTerm } from '../solver/model';
import { growF, growI, growU8 } from './buffers';
import {
  addTangentQ, candidateGeom, KIND_CIRCLE, KIND_PLANE, dEddQ, floorTimeQ, impactTimeQ, KIND_EDGE, KQ, KQ_AL, KQ_CU, KQ_D, KQ_E, KQ_FN, KQ_FT, KQ_NX, KQ_NY,
  KQ_TOI, KQ_U,
  localHessianAt, localMajorizerAt, NG, G_A, G_DB, G_EPS, G_K, G_KB, G_ML, G_NX, G_NY, G_R, G_SIDE, G_STICK, G_TX, G_TY, G_U0,
  G_WF, normalEnergyQ, normalForceQ, slipQ, tangentSumQ,
} from './candidate-kernels';
import { frictionF0Q, frictionF1Q, PQ, PQ_IO, PQ_PARAM } from './barrier-friction';

export { barrierB, barrierB1, barrierB2, frictionF0, frictionF1, frictionF2 } from './barrier-friction';
export { KIND_CIRCLE, KIND_EDGE, KIND_PLANE, KIND_SEGMENT } from './candidate-kernels';

/** Slots per candidate: diagonal blocks (xx, yx, yy) of p, a, b; then off-diagonal blocks (p,a), (p,b), (a,b) (4 each). */
const NS = 21;
/** Minimum capacity of the candidate buffers. */
const MIN_CAP = 64;

/**
 * α of the far test (farAt reads [0]) at the iterate (0) and over a whole step (1, maxStep); at a trial
 * point, the solver's own array. Arrays, so that no method copies a double (interpreted, each copy is
 * a heap number).
 */
const ALPHA_ZERO = Float64Array.of(0);
const ALPHA_ONE = Float64Array.of(1);
/**
 * fbRef of a candidate without a reference. A module constant: `-Infinity` written in a method is a
 * negation computed on each call, and boundsBegin (once per solve, never optimized) boxed its result
 * (the allocation gate's pile: 16 B a solve).
 */
const NO_REF = -Infinity;
/** Evaluation point of a candidate loop (ContactPotential.boundMode): exact, the solve's iterate, its trial point. */
const AT_ANY = 0;
const AT_ITERATE = 1;
const AT_TRIAL = 2;

// Loop kernel of the far-candidate bounds: its doubles are handled inside the loop (a method whose
// first long call V8 compiled on stack replacement runs its code outside the loop interpreted, boxing
// its doubles: a per-solve pass over the coordinates read 16–48 B/step in the allocation gate's pile
// in 9 of 16 processes; docs/design.md, "Scratch and calling convention").

/** acc[i] += α · len[i] for the first `nodes` nodes, α = a[0]. */
function accumulatePaths(acc: Float64Array, len: Float64Array, a: Float64Array, nodes: number): void {
  for (let i = 0; i < nodes; i++) acc[i] = acc[i]! + a[0]! * len[i]!;
}

/**
 * Far test of candidate k (docs/contact.md, "Far candidates"): true when its normal energy, force and
 * curvature are certainly zero at a point whose nodes moved at most acc[i] − (acc[i] at k's reference)
 * + α·len[i] since its reference: slack[k] = (d − max(r̂, d̂_b) − margin) / |∇_p d| at the reference
 * iterate, and d ≥ d_ref − |∇_p d| (motion of p + the larger motion of a and b), as d is 1-Lipschitz in
 * each node's position (|∇_p d| = 1 but for a plane's normal, 1 to rounding). slack[k] = −∞ for a
 * candidate whose d is not (a signed distance to an edge's or segment's line, which changes sign at the
 * end of the slab) or that has friction: the loops compute those exactly.
 */
function farAt(
  kind: Uint8Array, nd: Int32Array, k: number, slack: Float64Array, refA: Float64Array,
  acc: Float64Array, len: Float64Array, alpha: Float64Array,
): boolean {
  // Every comparison runs on every call, with no early return: a comparison first reached late in a
  // game (the warm-up world has no far candidate) deoptimized each loop that inlines this one.
  // m ≥ 0 (path lengths only grow), so a candidate without a reference (slack −∞) is never far.
  const S = slack[k]!, al = alpha[0]!; // α in an array: a double argument of a call that is not inlined is boxed
  const p = nd[3 * k]!;
  let m = acc[p]! - refA[3 * k]! + al * len[p]!;
  if (kind[k] === KIND_EDGE) {
    const a = nd[3 * k + 1]!, b = nd[3 * k + 2]!;
    const ma = acc[a]! - refA[3 * k + 1]! + al * len[a]!, mb = acc[b]! - refA[3 * k + 2]! + al * len[b]!;
    m += ma > mb ? ma : mb;
  }
  return m <= S;
}

/**
 * Offsets of ContactPotential.stageIn, the doubles of a candidate for addStaged: the surface
 * (ST_G .. ST_G + 3: plane nx, ny, c0 | circle cx, cy, R | segment ax, ay, bx, by; unused for a
 * body edge), r̂, κ, μ, the surface's tangential displacement s_t, ε.
 */
export const ST_G = 0;
export const ST_R = 4;
export const ST_K = 5;
export const ST_MU = 6;
export const ST_SLIP = 7;
export const ST_EPS = 8;
export const ST_N = 9;

/** The contact candidates of a step and their potential (the solver's ContactTerm). */
/**
 * The matrix slots of candidate k (nodes p, a, b at node[3k ..]) into s[NS·k ..]: per node its
 * diagonal block (xx, yx, yy), then the off-diagonal blocks (p, a), (p, b), (a, b) at (hi, lo)
 * (xx, xy, yx, yy); −1 for a node that is absent or an entry missing from the pattern.
 */
function lookUpSlots(pattern: SymPattern, nd: Int32Array, k: number, s: Int32Array): void {
  for (let j = 0; j < 3; j++) {
    const i = nd[3 * k + j]!, o = NS * k + 3 * j;
    if (i < 0) {
      s[o] = s[o + 1] = s[o + 2] = -1;
      continue;
    }
    s[o] = findDiagonalSlot(pattern, 2 * i);
    s[o + 1] = findSlotAfter(pattern, s[o]!, 2 * i + 1, 2 * i);
    s[o + 2] = findDiagonalSlot(pattern, 2 * i + 1);
  }
  for (let q = 0; q < 3; q++) {
    const u = nd[3 * k + (q === 2 ? 1 : 0)]!, v = nd[3 * k + (q === 0 ? 1 : 2)]!;
    const o = NS * k + 9 + 4 * q;
    if (u < 0 || v < 0) {
      s[o] = s[o + 1] = s[o + 2] = s[o + 3] = -1;
      continue;
    }
    const hi = u > v ? u : v, lo = u > v ? v : u;
    s[o] = findSlot(pattern, 2 * hi, 2 * lo);
    s[o + 1] = findSlot(pattern, 2 * hi, 2 * lo + 1);
    s[o + 2] = findSlotAfter(pattern, s[o]!, 2 * hi + 1, 2 * lo);
    s[o + 3] = findSlotAfter(pattern, s[o + 1]!, 2 * hi + 1, 2 * lo + 1);
  }
}

export class ContactPotential implements ContactTerm {
  count = 0;
  kind: Uint8Array = new Uint8Array(0);
  /** Nodes p, a, b (dense particle indices; −1: unused). */
  node: Int32Array = new Int32Array(0);
  geo: Float64Array = new Float64Array(0);
  /** Pair identity for events / tests (item index of the contact system). */
  item: Int32Array = new Int32Array(0);
  /** Newton iteration cap while candidates exist (the solver takes max(settings, this)). */
  maxIters = 20;
  /** Fraction of the earliest crossing time a step may take (continuous collision detection). */
  ccdFraction = 0.9;
  /**
   * Log barrier (IPC) on d ∈ (0, barrierWidth · r̂) for every pair that starts the step at d > 0:
   * E_b = κ_b b(d), κ_b = barrierStiffness · κ, ×8 for a pair that started the step closer than
   * 1 % of the barrier width (adaptive: the pair was being pressed through). 0 disables it.
   */
  barrierStiffness = 1;
  barrierWidth = 1;
  /**
   * A pair without a barrier (it started the step touching or past its surface, d⁰ ≤ 10⁻³ d̂) may
   * not move further in than min(d⁰, 0) − touchingSlack · r̂ during the solve (maxStep: one-sided
   * continuous collision detection against that offset surface). Negative: no limit.
   */
  touchingSlack = 0.1;
  private slots: Int32Array = new Int32Array(0);
  /**
   * The nodes (p, a, b) the slots at each candidate index were looked up for, in `slotPattern`: a
   * candidate with the same nodes at the same index in the same pattern keeps its slots (the
   * refinement's search and a resting step's search list mostly the same candidates in the same
   * order). −2: none.
   */
  private slotNodes: Int32Array = new Int32Array(0);
  private slotPattern: SymPattern | null = null;
  /** Per candidate: the floor of a pair without a barrier (the signed distance no iterate goes below; −∞: none). */
  private floor: Float64Array = new Float64Array(0);
  /** Per candidate: 1 when an off-diagonal block is missing from the pattern (diagonal majorizer). */
  private major: Uint8Array = new Uint8Array(0);
  /** Candidates assembled with the diagonal-block majorizer (set by computeSlots). */
  majorized = 0;
  /** Result of the number-returning wrappers energy() and maxStep(). */
  private readonly res = new Float64Array(1);

  clear(): void {
    this.unguarded[0] = 0;
    this.count = 0;
    this.total = 0;
    this.guarding = 0;
    this.trN = 0;
    this.warmStart = null;
    this.fbOn = 0;
  }

  // ---- far candidates: motion bounds within a solve (docs/contact.md, "Far candidates") ----
  // Most candidates and guards of a pile are centimetres out of reach: their energy, gradient and
  // Hessian are exactly zero at every iterate and trial. The solver registers its iterate and trial
  // buffers, each direction and each trial's α; a candidate whose reference distance (its last exact
  // distance at an iterate) minus a bound on its nodes' motion since is still beyond its reach is
  // skipped. The skipped terms are exact zeros, so results are bit-identical.
  /** 1 between boundsBegin and boundsEnd (and clear()). */
  private fbOn = 0;
  /** 1 while fbDir is the direction of the current line search. */
  private fbDirSet = 0;
  private fbX: Float64Array | null = null;
  private fbTrial: Float64Array | null = null;
  private fbDir: Float64Array | null = null;
  /** The solver's array whose [0] is the α of the trial point whenever a loop runs at `fbTrial`. */
  private fbAlpha: Float64Array = ALPHA_ZERO;
  /** Per node: the length of the path its iterates took in this solve (Σ α |dir_i|, an upper bound). */
  private fbAcc: Float64Array = new Float64Array(0);
  /** Per node: |dir_i| of the registered direction. */
  private fbLen: Float64Array = new Float64Array(0);
  /**
   * Per candidate: 1 when farAt held along the whole registered direction (α = 1, set by maxStep), so
   * at every trial on it and, once one is accepted, at the new iterate; valid while fbFlagOk = 1.
   */
  private fbFlag: Uint8Array = new Uint8Array(0);
  private fbFlagOk = 0;
  /** Per candidate: farAt's slack at its reference iterate (−∞: none), and fbAcc of p, a, b there. */
  private fbRef: Float64Array = new Float64Array(0);
  private fbRefA: Float64Array = new Float64Array(0);

  /**
   * A solve begins at iterate x (its buffer), with line-search trials in `trial` at α = alpha[0] (the
   * solver keeps it there while a trial is evaluated): no references yet.
   */
  boundsBegin(x: Float64Array, trial: Float64Array, alpha: Float64Array): void {
    const nodes = x.length >> 1, total = this.total;
    this.fbAcc = growF(this.fbAcc, nodes, MIN_CAP);
    this.fbLen = growF(this.fbLen, nodes, MIN_CAP);
    this.fbRef = growF(this.fbRef, total, MIN_CAP);
    this.fbRefA = growF(this.fbRefA, 3 * total, MIN_CAP);
    this.fbFlag = growU8(this.fbFlag, total, MIN_CAP);
    this.fbFlagOk = 0;
    this.fbAcc.fill(0, 0, nodes);
    this.fbRef.fill(NO_REF, 0, total);
    this.fbX = x;
    this.fbTrial = trial;
    this.fbAlpha = alpha;
    this.fbDirSet = 0;
    this.fbOn = 1;
  }

  /** The line search's direction dir from the iterate (its per-node lengths). */
  boundsDirection(dir: Float64Array): void {
    const len = this.fbLen, nodes = dir.length >> 1;
    for (let i = 0; i < nodes; i++) {
      const dx = dir[2 * i]!, dy = dir[2 * i + 1]!;
      len[i] = Math.sqrt(dx * dx + dy * dy);
    }
    this.fbDir = dir;
    this.fbDirSet = 1;
    this.fbFlagOk = 0;
  }

  /** The trial at α = a[0] became the iterate. */
  boundsAccept(a: Float64Array): void {
    const x = this.fbX;
    accumulatePaths(this.fbAcc, this.fbLen, a, x === null ? 0 : x.length >> 1); // boundsBegin sized acc and len for these
    this.fbDirSet = 0;
  }

  /** The solve ended: every loop computes exactly again. */
  boundsEnd(): void {
    this.fbOn = 0;
    this.fbDirSet = 0;
  }

  /** Whether farAt skips candidate k at the iterate + alpha · the registered direction (tests and tools). */
  isFar(k: number, alpha: number): boolean {
    return this.fbOn === 1 && farAt(this.kind, this.node, k, this.fbRef, this.fbRefA, this.fbAcc, this.fbLen, Float64Array.of(alpha));
  }

  /** Where x is: the solve's iterate (AT_ITERATE), its trial point (AT_TRIAL), or any point (AT_ANY). */
  private boundMode(x: Float64Array): number {
    let mode = AT_ANY;
    if (this.fbOn === 1) {
      if (x === this.fbX) mode = AT_ITERATE;
      else if (x === this.fbTrial && this.fbDirSet === 1) mode = AT_TRIAL;
    }
    return mode;
  }

  /**
   * Candidate k's reference at the iterate x, from its exact distance there in KQ[KQ_D] (farAt's
   * slack). The margin, 1 nm + 10⁻¹² × the larger of 1 m + |d| and its coordinates' size, is far above the
   * rounding of its distances and of its nodes' motion within a solve.
   */
  private setRef(k: number, x: Float64Array): void {
    const d = KQ[KQ_D]!, o = NG * k, kd = this.kind[k]!, G = this.geo, nd = this.node, acc = this.fbAcc, rA = this.fbRefA;
    const lipschitz = kd === KIND_PLANE || kd === KIND_CIRCLE || G[o + G_KB]! > 0;
    let thr = G[o + G_R]!;
    if (G[o + G_KB]! > 0 && G[o + G_DB]! > thr) thr = G[o + G_DB]!;
    let c = 1 + Math.abs(d); // a double from the start (a small integer first deoptimized this method)
    for (let j = 0; j < 3; j++) {
      const i = nd[3 * k + j]!;
      if (i < 0) continue;
      const ax = Math.abs(x[2 * i]!), ay = Math.abs(x[2 * i + 1]!);
      if (ax > c) c = ax;
      if (ay > c) c = ay;
    }
    for (let j = 0; j < 4; j++) {
      const g = Math.abs(G[o + G_A + j]!); // the surface: plane, circle or segment (0 for a body edge)
      if (g > c) c = g;
    }
    const slack = d - thr - (1e-9 + 1e-12 * c);
    const grad = kd === KIND_PLANE ? Math.sqrt(G[o]! * G[o]! + G[o + 1]! * G[o + 1]!) : 1;
    this.fbRef[k] = lipschitz && !(G[o + G_ML]! > 0) ? slack / grad : NO_REF;
    const a = nd[3 * k + 1]!, b = nd[3 * k + 2]!;
    rA[3 * k] = acc[nd[3 * k]!]!;
    rA[3 * k + 1] = a >= 0 ? acc[a]! : 0;
    rA[3 * k + 2] = b >= 0 ? acc[b]! : 0;
  }

  /**
   * Candidates and guard pairs: entries [0, count) are the candidates, [count, total) the guards —
   * pairs the broad phase met and the narrow phase rejected (more than r̂ + margin apart at xᵗ, x̃
   * and a refinement's result, not crossed on the way) that an iterate can still reach inside the
   * trust region. Guards are potentials like the candidates (zero until an iterate comes within
   * r̂, then the barrier; CCD in the line search) but never grow the sparsity pattern (their
   * missing blocks use the diagonal majorizer), are not counted as candidates, and do not keep
   * pattern pairs alive (docs/contact.md, "Trust region").
   */
  total = 0;
  /** 1 after beginGuards(): addStaged appends guards (count stays). */
  private guarding = 0;

  /** The candidates are complete: the following addStaged calls append guards. */
  beginGuards(): void {
    this.guarding = 1;
  }

  /**
   * [0]: 1 when the last search dropped a pair the broad phase met without making it a candidate or a guard for a
   * reason other than its distance (a particle deep inside a one-sided edge, a pair of a body with an inverted
   * triangle): such a pair may touch at the result, and the response then cannot take its pairs from these lists
   * (ContactResponse.fromSolve). Reset by clear(). An array: a field written late deoptimizes code that read it.
   */
  readonly unguarded = new Int32Array(1);

  /** The solve's initial guess instead of x̃ (ContactTerm.warmStart; set by a refinement, reset by clear). */
  warmStart: Float64Array | null = null;

  // ---- guards: what the line search limits besides the candidates (docs/contact.md, "Trust region") ----
  /**
   * Trust region of the line search: per particle i, the box trBox[4i .. 4i + 3] (min x, min y,
   * max x, max y) that the candidate search covered (its boxes around xᵗ, the prediction and a
   * refinement's result, grown by δ). Every iterate keeps each particle inside its box, so a pair
   * the broad phase never met stays apart by more than r̂. trN particles have a box (0: none).
   */
  trBox: Float64Array = new Float64Array(0);
  trN = 0;
  /** [0]: distance to a box side within which a particle of the result counts as pinned (pinned()). */
  readonly trTol = new Float64Array(1);
  /** Room for n particles' trust boxes (written by the candidate search into trBox); trN ← n. */
  beginTrust(n: number): void {
    this.trBox = growF(this.trBox, 4 * n, MIN_CAP);
    this.trN = n;
  }

  /** True when a particle of x lies on a side of its trust box (within trTol): the solve was stopped there. */
  pinned(x: Float64Array): boolean {
    const B = this.trBox, tol = this.trTol[0]!;
    for (let i = 0; i < this.trN; i++) {
      const o = 4 * i, px = x[2 * i]!, py = x[2 * i + 1]!;
      if (px <= B[o]! + tol || py <= B[o + 1]! + tol || px >= B[o + 2]! - tol || py >= B[o + 3]! - tol) return true;
    }
    return false;
  }

  /**
   * Append a candidate; slots are looked up later (`computeSlots`, after the pattern grew).
   * `xt` are the start-of-step positions (friction lag); `st` the surface's tangential
   * displacement over the step (kinematic colliders).
   */
  add(
    kind: number, p: number, a: number, b: number, g0: number, g1: number, g2: number, g3: number,
    r: number, kappa: number, mu: number, st: number, eps: number, xt: Float64Array, item = -1, side = 1,
  ): number {
    const s = this.stageIn;
    s[ST_G] = g0;
    s[ST_G + 1] = g1;
    s[ST_G + 2] = g2;
    s[ST_G + 3] = g3;
    s[ST_R] = r;
    s[ST_K] = kappa;
    s[ST_MU] = mu;
    s[ST_SLIP] = st;
    s[ST_EPS] = eps;
    return this.addStaged(kind, p, a, b, xt, item, side);
  }

  /**
   * Input scratch of addStaged: the doubles of `add` at the ST_* offsets. Hot callers write it and
   * call addStaged with integers only (V8 boxes doubles passed to calls it does not inline).
   */
  readonly stageIn = new Float64Array(ST_N);

  /** `add` with its doubles in `stageIn`; side is ±1. */
  addStaged(kind: number, p: number, a: number, b: number, xt: Float64Array, item: number, side: number): number {
    const si = this.stageIn;
    const r = si[ST_R]!, kappa = si[ST_K]!, mu = si[ST_MU]!, st = si[ST_SLIP]!, eps = si[ST_EPS]!;
    const k = this.total;
    if (k + 1 > this.kind.length) this.growCandidates();
    this.kind[k] = kind;
    this.node[3 * k] = p;
    this.node[3 * k + 1] = a;
    this.node[3 * k + 2] = b;
    this.item[k] = item;
    const G = this.geo, o = NG * k;
    G[o + G_A] = si[ST_G]!;
    G[o + G_A + 1] = si[ST_G + 1]!;
    G[o + G_A + 2] = si[ST_G + 2]!;
    G[o + G_A + 3] = si[ST_G + 3]!;
    G[o + G_R] = r;
    G[o + G_K] = kappa;
    G[o + G_EPS] = eps;
    G[o + G_SIDE] = side;
    G[o + G_KB] = 0;
    G[o + G_DB] = this.barrierWidth * r;
    G[o + G_STICK] = 0;
    this.total = k + 1;
    if (this.guarding === 0) this.count = k + 1;
    // lagged geometry at xᵗ: normal force, tangent, friction weights
    G[o + G_NX] = 0;
    G[o + G_NY] = 1;
    const q = KQ;
    candidateGeom(this.kind, this.node, G, k, xt, q);
    const nx = q[KQ_NX]!, ny = q[KQ_NY]!, al = q[KQ_AL]!, d0 = q[KQ_D]!;
    G[o + G_NX] = nx;
    G[o + G_NY] = ny;
    // barrier only for pairs on the right side at the start (iterates then stay there: maxStep)
    // (not for a pair that starts touching, d ≤ 1e-3 d̂: penalty only, the barrier would start at ~∞)
    const db = G[o + G_DB]!;
    if (this.barrierStiffness > 0 && d0 > 1e-3 * db && Number.isFinite(d0)) {
      G[o + G_KB] = this.barrierStiffness * kappa * (d0 < 0.01 * db ? 8 : 1);
    }
    // the others may move out, but no further in than their floor (maxStep); −∞: no limit
    this.floor[k] = G[o + G_KB]! > 0 || !(this.touchingSlack >= 0) || !Number.isFinite(d0)
      ? -Infinity : (d0 < 0 ? d0 : 0) - this.touchingSlack * r;
    // lagged normal force for friction, capped at 10 κ r̂ (a barrier force near d = 0 is unbounded)
    normalForceQ(this.kind, this.node, G, k, xt);
    const lambda = Math.min(q[KQ_FN]!, 10 * kappa * r);
    const tx = -ny, ty = nx;
    G[o + G_ML] = mu * lambda;
    G[o + G_TX] = tx;
    G[o + G_TY] = ty;
    G[o + G_WF] = 1;
    G[o + G_WF + 1] = kind === KIND_EDGE ? -(1 - al) : 0;
    G[o + G_WF + 2] = kind === KIND_EDGE ? -al : 0;
    q[KQ_U] = st;
    tangentSumQ(this.node, G, k, xt);
    G[o + G_U0] = q[KQ_U]!;
    return k;
  }

  /** Double the candidate buffers (cold). */
  private growCandidates(): void {
    const cap = Math.max(MIN_CAP, 2 * this.kind.length);
    this.node = growI(this.node, 3 * cap, MIN_CAP);
    this.item = growI(this.item, cap, MIN_CAP);
    this.geo = growF(this.geo, NG * cap, MIN_CAP);
    this.floor = growF(this.floor, cap, MIN_CAP);
    this.slots = growI(this.slots, NS * cap, MIN_CAP);
    const had = this.slotNodes.length;
    this.slotNodes = growI(this.slotNodes, 3 * cap, MIN_CAP);
    this.slotNodes.fill(-2, had);
    this.kind = growU8(this.kind, cap, MIN_CAP);
    this.major = growU8(this.major, cap, MIN_CAP);
  }

  /**
   * Look up the matrix slots of every candidate (all pairs must be in the pattern; −1 where missing),
   * keeping those of a candidate index whose nodes and pattern are those of its last look-up.
   */
  computeSlots(pattern: SymPattern): void {
    const s = this.slots, nd = this.node, sn = this.slotNodes;
    if (pattern !== this.slotPattern) {
      sn.fill(-2);
      this.slotPattern = pattern;
    }
    let nm = 0, all = 0;
    for (let k = 0; k < this.total; k++) {
      const p = nd[3 * k]!, a = nd[3 * k + 1]!, b = nd[3 * k + 2]!;
      if (sn[3 * k] !== p || sn[3 * k + 1] !== a || sn[3 * k + 2] !== b) {
        lookUpSlots(pattern, nd, k, s);
        sn[3 * k] = p;
        sn[3 * k + 1] = a;
        sn[3 * k + 2] = b;
      }
      let major = 0;
      for (let q = 0; q < 3; q++) {
        const u = nd[3 * k + (q === 2 ? 1 : 0)]!, v = nd[3 * k + (q === 0 ? 1 : 2)]!;
        const o = NS * k + 9 + 4 * q;
        if (u < 0 || v < 0) continue;
        if (s[o]! < 0 || s[o + 1]! < 0 || s[o + 2]! < 0 || s[o + 3]! < 0) major = 1;
      }
      this.major[k] = major;
      if (k < this.count) nm += major;
      all += major;
    }
    this.majorized = nm;
    // room for every majorized candidate and guard hessian() may assemble (majorCorrection)
    this.majorNodes = growI(this.majorNodes, 3 * all, MIN_CAP);
    this.majorD = growF(this.majorD, 36 * all, 36 * MIN_CAP);
  }

  /** Matrix slot of candidate k's off-diagonal block (p, a) (q = 0) or (p, b) (q = 1): its (hi, lo) xx entry, −1 if missing. */
  offDiagonalSlot(k: number, q: number): number {
    return this.slots[NS * k + 9 + 4 * q]!;
  }

  /** True when candidate k is assembled with the diagonal-block majorizer (a block is missing from the pattern). */
  isMajorized(k: number): boolean {
    return this.major[k] === 1;
  }

  /** Exact distance d, unit normal n (∇_p d) and edge parameter α of candidate k at x into out[0..3] (KQ_D .. KQ_AL). */
  geom(k: number, x: Float64Array, out: Float64Array): void {
    candidateGeom(this.kind, this.node, this.geo, k, x, out);
  }

  /** The lagged tangent (t_x, t_y) of candidate k into out[0..1]. */
  tangent(k: number, out: Float64Array): void {
    out[0] = this.geo[NG * k + G_TX]!;
    out[1] = this.geo[NG * k + G_TY]!;
  }

  /** Input of addSurfaceSlipStaged: the surface's displacement (sx, sy) over the step (no double crosses the call). */
  readonly slipIn = new Float64Array(2);

  /** Make candidate k's friction slip relative to a surface displaced by `slipIn` over the step. */
  addSurfaceSlipStaged(k: number): void {
    const G = this.geo, o = NG * k, sx = this.slipIn[0]!, sy = this.slipIn[1]!;
    G[o + G_U0] = G[o + G_U0]! + G[o + G_TX]! * sx + G[o + G_TY]! * sy;
  }

  /** Contact radius r̂ of candidate k. */
  radius(k: number): number {
    return this.geo[NG * k + G_R]!;
  }

  /** Barrier stiffness κ_b of candidate k (0: the pair has no barrier this step). */
  barrierKappa(k: number): number {
    return this.geo[NG * k + G_KB]!;
  }

  /**
   * flags[b] ← 1 for every body b (an index of bodyOf's values) one of whose boundary particles or edges touches, at x,
   * another body: a body-edge candidate whose particle and edge belong to different bodies, within its contact radius r̂.
   * Particles of no body (0) mark nothing. flags must hold every body id; it is not cleared here.
   */
  markTouchingBodies(x: Float64Array, bodyOf: Int32Array, flags: Uint8Array): void {
    const kind = this.kind, node = this.node, G = this.geo, q = KQ;
    for (let j = 0; j < this.count; j++) {
      if (kind[j] !== KIND_EDGE) continue;
      const bp = bodyOf[node[3 * j]!]!, be = bodyOf[node[3 * j + 1]!]!;
      if (bp === be || bp === 0 || be === 0) continue;
      candidateGeom(kind, node, G, j, x, q);
      if (q[KQ_D]! < G[NG * j + G_R]!) {
        flags[bp] = 1;
        flags[be] = 1;
      }
    }
  }

  /** Candidate k has a floor (no barrier; the line search kept it from sinking deeper than the floor). */
  hasFloor(k: number): boolean {
    return this.floor[k]! > -Infinity;
  }

  energy(x: Float64Array): number {
    this.energyTo(x, this.res);
    return this.res[0]!;
  }

  /** out[0] ← energy(x). */
  energyTo(x: Float64Array, out: Float64Array): void {
    let E = 0;
    const G = this.geo, q = KQ, kind = this.kind, nd = this.node;
    const mode = this.boundMode(x), ref = this.fbRef, refA = this.fbRefA, acc = this.fbAcc, len = this.fbLen;
    const alpha = mode === AT_TRIAL ? this.fbAlpha : ALPHA_ZERO;
    const flag = this.fbFlag, flagOk = this.fbFlagOk === 1;
    for (let k = 0; k < this.total; k++) {
      const o = NG * k;
      // out of reach (no friction): its energy is +0, and E + 0 = E
      if (mode !== AT_ANY && ((flagOk && flag[k] === 1) || farAt(kind, nd, k, ref, refA, acc, len, alpha))) continue;
      candidateGeom(kind, nd, G, k, x, q);
      if (mode === AT_ITERATE) this.setRef(k, x);
      normalEnergyQ(G, k);
      E += q[KQ_E]!;
      const ml = G[o + G_ML]!;
      if (ml > 0) {
        slipQ(nd, G, k, x);
        PQ[PQ_IO] = Math.abs(q[KQ_U]!);
        PQ[PQ_PARAM] = G[o + G_EPS]!;
        frictionF0Q();
        E += ml * PQ[PQ_IO]!;
      }
    }
    out[0] = E;
  }

  /** gU += ∂E/∂x. */
  gradient(x: Float64Array, gU: Float64Array, held: Uint8Array | null = null): void {
    const G = this.geo, q = KQ, nd = this.node, kind = this.kind;
    const mode = this.boundMode(x), ref = this.fbRef, refA = this.fbRefA, acc = this.fbAcc, len = this.fbLen;
    const alpha = mode === AT_TRIAL ? this.fbAlpha : ALPHA_ZERO;
    const flag = this.fbFlag, flagOk = this.fbFlagOk === 1;
    for (let k = 0; k < this.total; k++) {
      if (held !== null && held[nd[3 * k]!] !== 0) continue; // a held island's pair
      const o = NG * k;
      if (mode !== AT_ANY && ((flagOk && flag[k] === 1) || farAt(kind, nd, k, ref, refA, acc, len, alpha))) continue; // zero force, no friction
      candidateGeom(kind, nd, G, k, x, q);
      if (mode === AT_ITERATE) this.setRef(k, x);
      dEddQ(G, k);
      const fn = q[KQ_E]!; // ∂E/∂d
      if (fn !== 0) {
        const al = q[KQ_AL]!, gx = fn * q[KQ_NX]!, gy = fn * q[KQ_NY]!;
        const p = 2 * nd[3 * k]!;
        gU[p] = gU[p]! + gx;
        gU[p + 1] = gU[p + 1]! + gy;
        if (kind[k] === KIND_EDGE) {
          const a = 2 * nd[3 * k + 1]!, b = 2 * nd[3 * k + 2]!, be = 1 - al;
          gU[a] = gU[a]! - be * gx;
          gU[a + 1] = gU[a + 1]! - be * gy;
          gU[b] = gU[b]! - al * gx;
          gU[b + 1] = gU[b + 1]! - al * gy;
        }
      }
      const ml = G[o + G_ML]!;
      if (ml > 0) {
        slipQ(nd, G, k, x);
        const u = q[KQ_U]!;
        PQ[PQ_IO] = Math.abs(u);
        PQ[PQ_PARAM] = G[o + G_EPS]!;
        frictionF1Q();
        const ft = ml * PQ[PQ_IO]! * (u > 0 ? 1 : u < 0 ? -1 : 0);
        if (ft === 0) continue;
        q[KQ_FT] = ft;
        addTangentQ(nd, G, k, gU);
      }
    }
  }

  /** Join, in the union–find forest comp (src/solver/islands.ts), each candidate's and guard's particle with its edge's ends. */
  joinIslands(comp: Int32Array): void {
    const nd = this.node;
    for (let k = 0; k < this.total; k++) {
      const p = nd[3 * k]!, a = nd[3 * k + 1]!, b = nd[3 * k + 2]!;
      if (a >= 0) unionRoots(comp, p, a);
      if (b >= 0) unionRoots(comp, p, b);
    }
  }

  /**
   * touched[comp[i]] ← 1 for every node i of a candidate (comp: flattened island labels). Guards, pairs the
   * narrow test rejected, are left out.
   */
  markIslands(comp: Int32Array, touched: Uint8Array): void {
    const nd = this.node;
    for (let k = 0; k < this.count; k++) {
      for (let j = 0; j < 3; j++) {
        const i = nd[3 * k + j]!;
        if (i >= 0) touched[comp[i]!] = 1;
      }
    }
  }

  // ---- friction stick prediction (docs/contact.md, "Stick prediction") ------------------------
  // The smoothed friction μλ f₀(|u|) is linear in the slip u outside |u| < ε (ε = εᵥ h, 1.7 µm at
  // 60 Hz), so its Hessian there is zero and a Newton direction carries a slipping pair that should
  // stick straight through u = 0 and on: the line search then cuts the whole step to a few per cent.
  // A pair whose slip the last direction carried through zero is predicted to stick: its friction
  // is modelled by the stick zone's quadratic μλ (u²/ε + ε/3) (f₀ itself inside |u| < ε, extended),
  // which pulls its slip back to zero in one direction, until its slip is within ε (f₀'s own model
  // from there, so a pair that does slip leaves the zone by f₀'s exact Newton step, without a new
  // crossing). Only the direction changes: the line search tests the true energy, the solver drops
  // the prediction on a direction that is not a descent, and it stops only on a step of its own model.

  /** Drop every stick prediction (stickKeep(false)). */
  stickClear(): void {
    this.stickKeep(false);
  }

  /** Drop every stick prediction unless `keep` (ContactTerm.stickKeep: no branch, called on every Newton iteration). */
  stickKeep(keep: boolean): void {
    const G = this.geo, f = keep ? 1 : 0;
    for (let k = 0; k < this.total; k++) G[NG * k + G_STICK] = G[NG * k + G_STICK]! * f;
  }

  /** Drop the predictions of pairs whose slip at x is within ε; the number of predictions left. */
  stickRefresh(x: Float64Array): number {
    const G = this.geo, nd = this.node;
    let left = 0;
    for (let k = 0; k < this.total; k++) {
      const o = NG * k;
      if (G[o + G_STICK] !== 1) continue;
      slipQ(nd, G, k, x);
      if (Math.abs(KQ[KQ_U]!) < G[o + G_EPS]!) G[o + G_STICK] = 0;
      else left++;
    }
    return left;
  }

  /**
   * rhs −= scale · (∇ of the stick quadratic − ∇ of μλ f₀(|u|)) over the predicted pairs (slip
   * outside ε): rhs = −g becomes the right-hand side of the predicted model, −scale · μλ (2u/ε) ∇u
   * in place of −scale · μλ sign(u) ∇u.
   */
  stickAddRhs(x: Float64Array, scale: number, rhs: Float64Array): void {
    const G = this.geo, nd = this.node;
    for (let k = 0; k < this.total; k++) {
      const o = NG * k;
      if (G[o + G_STICK] !== 1) continue;
      slipQ(nd, G, k, x);
      const u = KQ[KQ_U]!, eps = G[o + G_EPS]!;
      KQ[KQ_FT] = -(scale * G[o + G_ML]! * ((2 * u) / eps - (u > 0 ? 1 : -1)));
      addTangentQ(nd, G, k, rhs);
    }
  }

  /** Predict that a pair sticks when the direction dx from x carries its slip from outside ε through zero. */
  stickMark(x: Float64Array, dx: Float64Array): void {
    const G = this.geo, nd = this.node;
    for (let k = 0; k < this.total; k++) {
      const o = NG * k;
      if (!(G[o + G_ML]! > 0) || G[o + G_STICK] === 1) continue;
      slipQ(nd, G, k, x);
      const u = KQ[KQ_U]!;
      if (Math.abs(u) < G[o + G_EPS]!) continue;
      KQ[KQ_U] = 0;
      tangentSumQ(nd, G, k, dx);
      if (u * (u + KQ[KQ_U]!) < 0) G[o + G_STICK] = 1;
    }
  }

  /**
   * Local Hessian (6×6 over nodes p, a, b, row-major) of candidate k at x:
   * κ ∇d ∇dᵀ (Gauss–Newton) + μλ f₀''(|u|) ∇u ∇uᵀ. Used by assembly and tests.
   */
  localHessian(k: number, x: Float64Array, out: Float64Array): void {
    localHessianAt(this.kind, this.node, this.geo, k, x, out);
  }

  /**
   * Diagonal-block PSD majorizer (6×6, row-major, zero off the diagonal blocks) of candidate k's
   * local Hessian at x (candidate-kernels.ts, localMajorizerAt). Used for candidates whose coupling
   * blocks are not in the pattern yet (rebuilds rate-limited).
   */
  localMajorizer(k: number, x: Float64Array, out: Float64Array): void {
    localMajorizerAt(this.kind, this.node, this.geo, k, x, out);
  }

  private readonly H = new Float64Array(36);
  private readonly HX = new Float64Array(36);
  /**
   * The majorized candidates the last hessian() assembled: their nodes (p, a, b; −1 none) and
   * scale · (M − H), the majorizer minus the exact local Hessian (6×6 row-major), so that the solver
   * can multiply by the exact Hessian: values · v − Σ (M − H) v (majorCorrection).
   */
  private majorNodes: Int32Array = new Int32Array(0);
  private majorD: Float64Array = new Float64Array(0);
  /** Majorized candidates assembled by the last hessian() (entries of majorNodes / majorD). */
  majorAssembled = 0;
  /** Rank bound of their excess Σ (M − H): 2 per node (ContactTerm.majorRank). */
  majorRank = 0;

  /** out −= Σ scale · (M − H) v over the majorized candidates of the last hessian() (the exact Hessian's difference). */
  majorCorrection(v: Float64Array, out: Float64Array): void {
    const nn = this.majorNodes, D = this.majorD;
    for (let m = 0; m < this.majorAssembled; m++) {
      const o = 36 * m;
      for (let r = 0; r < 6; r++) {
        const nr = nn[3 * m + (r >> 1)]!;
        if (nr < 0) continue;
        let acc = 0;
        for (let c = 0; c < 6; c++) {
          const nc = nn[3 * m + (c >> 1)]!;
          if (nc < 0) continue;
          acc += D[o + 6 * r + c]! * v[2 * nc + (c & 1)]!;
        }
        out[2 * nr + (r & 1)] = out[2 * nr + (r & 1)]! - acc;
      }
    }
  }

  /** values += scale · (the PSD Hessian of every candidate but those of held particles), through the slots of computeSlots. */
  hessian(x: Float64Array, scale: number, values: Float64Array, held: Uint8Array | null = null): void {
    const s = this.slots, H = this.H, nd = this.node;
    const mode = this.boundMode(x), ref = this.fbRef, refA = this.fbRefA, acc = this.fbAcc, len = this.fbLen;
    const alpha = mode === AT_TRIAL ? this.fbAlpha : ALPHA_ZERO;
    const flag = this.fbFlag, flagOk = this.fbFlagOk === 1;
    const kind = this.kind;
    let nm = 0, rank = 0;
    const HX = this.HX, MN = this.majorNodes, MD = this.majorD;
    for (let k = 0; k < this.total; k++) {
      if (held !== null && held[nd[3 * k]!] !== 0) continue; // a held island's pair (its nodes share one island)
      if (mode !== AT_ANY && ((flagOk && flag[k] === 1) || farAt(kind, nd, k, ref, refA, acc, len, alpha))) continue; // zero curvature, no friction
      const major = this.major[k] === 1;
      if (major) {
        this.localHessian(k, x, HX);
        this.localMajorizer(k, x, H);
        // (a candidate added after computeSlots has no room: it is left out, and the corrected matrix stays ≽ the exact one)
        if (!(KQ[KQ_E] === 0 && KQ[KQ_CU] === 0) && 3 * nm + 3 <= MN.length && 36 * nm + 36 <= MD.length) {
          const o = 36 * nm;
          for (let j = 0; j < 36; j++) MD[o + j] = scale * (H[j]! - HX[j]!);
          MN[3 * nm] = nd[3 * k]!;
          MN[3 * nm + 1] = nd[3 * k + 1]!;
          MN[3 * nm + 2] = nd[3 * k + 2]!;
          rank += 2 + (nd[3 * k + 1]! >= 0 ? 2 : 0) + (nd[3 * k + 2]! >= 0 ? 2 : 0);
          nm++;
        }
      } else this.localHessian(k, x, H);
      // no curvature (a guard or a candidate out of reach, without friction): H is zero, and adding
      // zeros changes no entry (a sum begun at +0 is never −0)
      if (KQ[KQ_E] === 0 && KQ[KQ_CU] === 0) continue;
      const o = NS * k;
      for (let j = 0; j < 3; j++) {
        const d = o + 3 * j;
        if (s[d]! < 0) continue;
        const r = 2 * j;
        values[s[d]!] = values[s[d]!]! + scale * H[r * 6 + r]!;
        values[s[d + 1]!] = values[s[d + 1]!]! + scale * H[(r + 1) * 6 + r]!;
        values[s[d + 2]!] = values[s[d + 2]!]! + scale * H[(r + 1) * 6 + r + 1]!;
      }
      if (major) continue;
      for (let q = 0; q < 3; q++) {
        const d = o + 9 + 4 * q;
        if (s[d]! < 0) continue;
        // block (u, v) with u, v local node indices; the blocks are symmetric, so (hi, lo) = (u, v)
        const u = q === 2 ? 1 : 0, v = q === 0 ? 1 : 2;
        const r = 2 * u, c = 2 * v;
        values[s[d]!] = values[s[d]!]! + scale * H[r * 6 + c]!;
        values[s[d + 1]!] = values[s[d + 1]!]! + scale * H[r * 6 + c + 1]!;
        values[s[d + 2]!] = values[s[d + 2]!]! + scale * H[(r + 1) * 6 + c]!;
        values[s[d + 3]!] = values[s[d + 3]!]! + scale * H[(r + 1) * 6 + c + 1]!;
      }
    }
    this.majorAssembled = nm;
    this.majorRank = rank;
  }

  /**
   * Largest step fraction in (0, 1] along dx from x such that no particle of a barrier pair reaches
   * its surface (ccdFraction × the earliest time of impact; 1 when none does): every iterate and
   * line-search trial stays intersection-free, so the barrier stays finite. Pairs without a barrier
   * (the particle started the step touching or past the surface) may move back out freely but no
   * further in than their floor (floorTimeQ, `touchingSlack`), so the limit never pins a particle
   * inside. Half-planes: linear; circles: entering the circle; segments / edges: swept
   * point–segment (the edge moving linearly too). Guards count like candidates, and no particle
   * leaves its trust box (trBox).
   */
  maxStep(x: Float64Array, dx: Float64Array): number {
    this.maxStepTo(x, dx, this.res);
    return this.res[0]!;
  }

  /** out[0] ← maxStep(x, dx). */
  maxStepTo(x: Float64Array, dx: Float64Array, out: Float64Array): void {
    this.maxStepKernel(x, dx, out, 0);
  }

  /**
   * out[0] ← maxStep(x, dx) if it is < out[0] (else out[0] is kept): the caller's own bound and
   * this one combined here, so a once-per-step driver (ForceModel.maxStepTo) need not hold and
   * compare a double itself (interpreted, each one is a heap number; docs/solver.md).
   */
  maxStepMinTo(x: Float64Array, dx: Float64Array, out: Float64Array): void {
    this.maxStepKernel(x, dx, out, 1);
  }

  /** maxStepTo (keep = 0) and maxStepMinTo (keep = 1). */
  private maxStepKernel(x: Float64Array, dx: Float64Array, out: Float64Array, keep: number): void {
    let t = 1;
    const f = this.ccdFraction, q = KQ, kind = this.kind, nd = this.node, G = this.geo;
    // along the registered direction from the iterate: a candidate out of reach over the whole step
    // (α = 1) neither reaches its surface nor its floor
    const along = this.fbOn === 1 && this.fbDirSet === 1 && x === this.fbX && dx === this.fbDir;
    const ref = this.fbRef, refA = this.fbRefA, acc = this.fbAcc, len = this.fbLen, flag = this.fbFlag, alpha = ALPHA_ONE;
    for (let k = 0; k < this.total; k++) {
      if (along) {
        const far = farAt(kind, nd, k, ref, refA, acc, len, alpha);
        flag[k] = far ? 1 : 0;
        if (far) continue;
      }
      if (G[NG * k + G_KB]! > 0) impactTimeQ(kind, nd, G, k, x, dx);
      else if (this.floor[k]! > -Infinity) floorTimeQ(kind, nd, G, this.floor, k, x, dx); // started touching or past: no deeper than its floor
      else continue;
      const c = q[KQ_TOI]!;
      if (c >= 0 && f * c < t) t = f * c;
    }
    if (along) this.fbFlagOk = 1;
    // trust region: no particle leaves the box the candidate search covered (the whole fraction:
    // a particle may stop on the side; refine() then searches again around it)
    const B = this.trBox;
    for (let c = 0; c < 2 * this.trN; c++) {
      const d = dx[c]!;
      const o = 4 * (c >> 1) + (c & 1);
      const s = d > 0 ? (B[o + 2]! - x[c]!) / d : d < 0 ? (B[o]! - x[c]!) / d : 2;
      if (s < t) t = s > 0 ? s : 0;
    }
    const a = out[0]!;
    out[0] = keep === 0 || t < a ? t : a;
  }

  /** Earliest t ∈ [0, 1] at which candidate k's particle reaches its surface moving x → x + dx (−1: never). */
  impactTime(k: number, x: Float64Array, dx: Float64Array): number {
    impactTimeQ(this.kind, this.node, this.geo, k, x, dx);
    return KQ[KQ_TOI]!;
  }
}
