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
 * topology's pattern (src/systems/topology.ts, addContactPairs / setContactPairs) before slots
 * are looked up, so a candidate's full 6×6 Hessian is assembled exactly. While pattern rebuilds
 * are rate-limited, a candidate whose (p, a) or (p, b) block is missing is assembled with a
 * diagonal-block PSD majorizer instead (localMajorizer): for H = c g gᵀ with g = (w_j v)_j,
 * Cauchy–Schwarz gives (Σ w_j y_j)² ≤ (Σ|w_j|) Σ |w_j| y_j², so H ≼ blockdiag(S c |w_j| v vᵀ),
 * S = Σ|w_j| (= 2 on an edge), for the normal part and the friction part alike. See docs/contact.md.
 */
import type { SymPattern } from '../solver/pattern';
import { findSlot } from '../solver/pattern';
import { SW, SW_T, sweptPCS, sweptPS } from './geometry';
import { LOG_IO, logInPlace } from '../math/exp-log';

function growF(a: Float64Array, n: number): Float64Array {
  if (a.length >= n) return a;
  const g = new Float64Array(Math.max(n, 2 * a.length, 64));
  g.set(a);
  return g;
}
function growI(a: Int32Array, n: number): Int32Array {
  if (a.length >= n) return a;
  const g = new Int32Array(Math.max(n, 2 * a.length, 64));
  g.set(a);
  return g;
}

/**
 * In/out of the scalar kernels below (friction f₀ and the barrier): [0] the argument (y or d) in,
 * the result out; [1] the parameter (ε or d̂). The contact kernels call them with no double
 * crossing a call: V8 boxes a double argument or return value of a call it does not inline
 * (docs/solver.md, "Allocation work"). The number-taking exports are wrappers (tests, tools).
 */
const PQ = new Float64Array(2);

/** A PQ kernel in number-taking form (the exports below: tests and tools, not the step path). */
function viaPQ(kernel: () => void, a: number, b: number): number {
  PQ[0] = a;
  PQ[1] = b;
  kernel();
  return PQ[0]!;
}

/** IPC's smoothed friction primitive f₀ and its derivatives f₁ = f₀', f₀''. */
export function frictionF0(y: number, eps: number): number {
  return viaPQ(frictionF0Q, y, eps);
}
export function frictionF1(y: number, eps: number): number {
  return viaPQ(frictionF1Q, y, eps);
}
export function frictionF2(y: number, eps: number): number {
  return viaPQ(frictionF2Q, y, eps);
}
/** PQ[0] ← f₀(PQ[0], ε = PQ[1]). */
function frictionF0Q(): void {
  const y = PQ[0]!, eps = PQ[1]!;
  PQ[0] = y < eps ? (y * y) / eps - (y * y * y) / (3 * eps * eps) + eps / 3 : y;
}
/** PQ[0] ← f₁(PQ[0], ε = PQ[1]). */
function frictionF1Q(): void {
  const y = PQ[0]!, eps = PQ[1]!;
  PQ[0] = y < eps ? (2 * y) / eps - (y * y) / (eps * eps) : 1;
}
/** PQ[0] ← f₀''(PQ[0], ε = PQ[1]). */
function frictionF2Q(): void {
  const y = PQ[0]!, eps = PQ[1]!;
  PQ[0] = y < eps ? 2 / eps - (2 * y) / (eps * eps) : 0;
}

/**
 * IPC's log barrier on d ∈ (0, d̂): b(d) = −(d − d̂)² ln(d / d̂), b(d̂) = b'(d̂) = b''(d̂) = 0 (C²),
 * b → ∞ as d → 0⁺, convex on (0, d̂); 0 for d ≥ d̂. b1 = b', b2 = b''.
 */
export function barrierB(d: number, dh: number): number {
  return viaPQ(barrierBQ, d, dh);
}
export function barrierB1(d: number, dh: number): number {
  return viaPQ(barrierB1Q, d, dh);
}
export function barrierB2(d: number, dh: number): number {
  return viaPQ(barrierB2Q, d, dh);
}
/** PQ[0] ← b(PQ[0], d̂ = PQ[1]); ln through LOG_IO (no double crosses a call). */
function barrierBQ(): void {
  const d = PQ[0]!, dh = PQ[1]!;
  if (!(d < dh)) {
    PQ[0] = 0;
    return;
  }
  if (!(d > 0)) {
    PQ[0] = Infinity;
    return;
  }
  const e = d - dh;
  LOG_IO[0] = d / dh;
  logInPlace();
  PQ[0] = -e * e * LOG_IO[0]!;
}
/** PQ[0] ← b'(PQ[0], d̂ = PQ[1]). */
function barrierB1Q(): void {
  const d = PQ[0]!, dh = PQ[1]!;
  if (!(d < dh) || !(d > 0)) {
    PQ[0] = 0;
    return;
  }
  const e = d - dh;
  LOG_IO[0] = d / dh;
  logInPlace();
  PQ[0] = -2 * e * LOG_IO[0]! - (e * e) / d;
}
/** PQ[0] ← b''(PQ[0], d̂ = PQ[1]). */
function barrierB2Q(): void {
  const d = PQ[0]!, dh = PQ[1]!;
  if (!(d < dh) || !(d > 0)) {
    PQ[0] = 0;
    return;
  }
  const e = d - dh, q = e / d;
  LOG_IO[0] = d / dh;
  logInPlace();
  PQ[0] = -2 * LOG_IO[0]! - 4 * q + q * q;
}

export const KIND_PLANE = 0;
export const KIND_CIRCLE = 1;
export const KIND_SEGMENT = 2;
export const KIND_EDGE = 3;

/** Per-candidate doubles: see the G_* offsets. */
const NG = 19;
const G_A = 0; // plane: nx, ny, c0 | circle: cx, cy, R | segment: ax, ay, bx, by
const G_R = 4; // r̂
const G_K = 5; // κ
const G_ML = 6; // μ λ
const G_TX = 7; // lagged tangent
const G_TY = 8;
const G_WF = 9; // 3 lagged friction weights
const G_U0 = 12;
const G_EPS = 13;
const G_NX = 14; // fallback normal (d = 0)
const G_NY = 15;
const G_SIDE = 16; // segment / edge: +1 or −1, the side (of the left normal) the particle is kept on
const G_KB = 17; // barrier stiffness κ_b (0: no barrier: the pair started the step at d ≤ 0)
const G_DB = 18; // barrier width d̂_b
/** Slots per candidate: diagonal blocks (xx, yx, yy) of p, a, b; then off-diagonal blocks (p,a), (p,b), (a,b) (4 each). */
const NS = 21;

export class ContactPotential {
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
  /** Per candidate: the floor of a pair without a barrier (the signed distance no iterate goes below; −∞: none). */
  private floor: Float64Array = new Float64Array(0);
  /** Per candidate: 1 when an off-diagonal block is missing from the pattern (diagonal majorizer). */
  private major: Uint8Array = new Uint8Array(0);
  /** Candidates assembled with the diagonal-block majorizer (set by computeSlots). */
  majorized = 0;
  /**
   * Scratch: d, nx, ny, alpha (geom); [4]: normalForceQ; [5]: impactTimeQ; [6]: normalEnergyQ,
   * dEddQ, d2Edd2Q; [7]: slipQ; [8]: curvaturesQ's friction curvature. Per-candidate doubles
   * come back here, not as return values.
   */
  private readonly gq = new Float64Array(9);
  /** Result of the number-returning wrappers energy() and maxStep(). */
  private readonly res = new Float64Array(1);

  clear(): void {
    this.count = 0;
    this.total = 0;
    this.guarding = 0;
    this.trN = 0;
    this.warmStart = null;
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
    this.trBox = growF(this.trBox, 4 * n);
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
    s[0] = g0;
    s[1] = g1;
    s[2] = g2;
    s[3] = g3;
    s[4] = r;
    s[5] = kappa;
    s[6] = mu;
    s[7] = st;
    s[8] = eps;
    return this.addStaged(kind, p, a, b, xt, item, side);
  }

  /**
   * Input scratch of addStaged: g0..g3, r, κ, μ, s_t, ε (the doubles of `add`). Hot callers write
   * it and call addStaged with integers only (V8 boxes doubles passed to calls it does not inline).
   */
  readonly stageIn = new Float64Array(9);

  /** `add` with its doubles in `stageIn`; side is ±1. */
  addStaged(kind: number, p: number, a: number, b: number, xt: Float64Array, item: number, side: number): number {
    const si = this.stageIn;
    const r = si[4]!, kappa = si[5]!, mu = si[6]!, st = si[7]!, eps = si[8]!;
    const k = this.total;
    if (k + 1 > this.kind.length) this.growCandidates();
    this.kind[k] = kind;
    this.node[3 * k] = p;
    this.node[3 * k + 1] = a;
    this.node[3 * k + 2] = b;
    this.item[k] = item;
    const G = this.geo, o = NG * k;
    G[o + G_A] = si[0]!;
    G[o + G_A + 1] = si[1]!;
    G[o + G_A + 2] = si[2]!;
    G[o + G_A + 3] = si[3]!;
    G[o + G_R] = r;
    G[o + G_K] = kappa;
    G[o + G_EPS] = eps;
    G[o + G_SIDE] = side;
    G[o + G_KB] = 0;
    G[o + G_DB] = this.barrierWidth * r;
    this.total = k + 1;
    if (this.guarding === 0) this.count = k + 1;
    // lagged geometry at xᵗ: normal force, tangent, friction weights
    G[o + G_NX] = 0;
    G[o + G_NY] = 1;
    const q = this.gq;
    this.geom(k, xt, q);
    const nx = q[1]!, ny = q[2]!, al = q[3]!, d0 = q[0]!;
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
    this.normalForceQ(k, xt);
    const lambda = Math.min(q[4]!, 10 * kappa * r);
    const tx = -ny, ty = nx;
    G[o + G_ML] = mu * lambda;
    G[o + G_TX] = tx;
    G[o + G_TY] = ty;
    G[o + G_WF] = 1;
    G[o + G_WF + 1] = kind === KIND_EDGE ? -(1 - al) : 0;
    G[o + G_WF + 2] = kind === KIND_EDGE ? -al : 0;
    let u0 = st;
    for (let j = 0; j < 3; j++) {
      const i = this.node[3 * k + j]!;
      if (i < 0) continue;
      u0 += G[o + G_WF + j]! * (tx * xt[2 * i]! + ty * xt[2 * i + 1]!);
    }
    G[o + G_U0] = u0;
    return k;
  }

  /** Double the candidate buffers (cold). */
  private growCandidates(): void {
    const cap = Math.max(64, 2 * this.kind.length);
    this.node = growI(this.node, 3 * cap);
    this.item = growI(this.item, cap);
    this.geo = growF(this.geo, NG * cap);
    this.floor = growF(this.floor, cap);
    this.slots = growI(this.slots, NS * cap);
    const kk = new Uint8Array(cap);
    kk.set(this.kind);
    this.kind = kk;
    const mj = new Uint8Array(cap);
    mj.set(this.major);
    this.major = mj;
  }

  /** Look up the matrix slots of every candidate (all pairs must be in the pattern; −1 where missing). */
  computeSlots(pattern: SymPattern): void {
    const s = this.slots, nd = this.node;
    let nm = 0;
    for (let k = 0; k < this.total; k++) {
      this.major[k] = 0;
      for (let j = 0; j < 3; j++) {
        const i = nd[3 * k + j]!, o = NS * k + 3 * j;
        if (i < 0) {
          s[o] = s[o + 1] = s[o + 2] = -1;
          continue;
        }
        s[o] = findSlot(pattern, 2 * i, 2 * i);
        s[o + 1] = findSlot(pattern, 2 * i + 1, 2 * i);
        s[o + 2] = findSlot(pattern, 2 * i + 1, 2 * i + 1);
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
        s[o + 2] = findSlot(pattern, 2 * hi + 1, 2 * lo);
        s[o + 3] = findSlot(pattern, 2 * hi + 1, 2 * lo + 1);
        if (s[o]! < 0 || s[o + 1]! < 0 || s[o + 2]! < 0 || s[o + 3]! < 0) this.major[k] = 1;
      }
      if (k < this.count) nm += this.major[k]!;
    }
    this.majorized = nm;
  }

  /** Matrix slot of candidate k's off-diagonal block (p, a) (q = 0) or (p, b) (q = 1): its (hi, lo) xx entry, −1 if missing. */
  offDiagonalSlot(k: number, q: number): number {
    return this.slots[NS * k + 9 + 4 * q]!;
  }

  /** True when candidate k is assembled with the diagonal-block majorizer (a block is missing from the pattern). */
  isMajorized(k: number): boolean {
    return this.major[k] === 1;
  }

  /** Exact distance d, unit normal n (∇_p d) and edge parameter α of candidate k at x into out. */
  geom(k: number, x: Float64Array, out: Float64Array): void {
    const G = this.geo, o = NG * k, kind = this.kind[k]!;
    const p = 2 * this.node[3 * k]!;
    const px = x[p]!, py = x[p + 1]!;
    if (kind === KIND_PLANE) {
      out[0] = G[o]! * px + G[o + 1]! * py - G[o + 2]!;
      out[1] = G[o]!;
      out[2] = G[o + 1]!;
      out[3] = 0;
      return;
    }
    let cx: number, cy: number, al = 0, R = 0;
    if (kind === KIND_CIRCLE) {
      cx = G[o]!;
      cy = G[o + 1]!;
      R = G[o + 2]!;
    } else {
      let ax: number, ay: number, bx: number, by: number;
      if (kind === KIND_SEGMENT) {
        ax = G[o]!;
        ay = G[o + 1]!;
        bx = G[o + 2]!;
        by = G[o + 3]!;
      } else {
        const a = 2 * this.node[3 * k + 1]!, b = 2 * this.node[3 * k + 2]!;
        ax = x[a]!;
        ay = x[a + 1]!;
        bx = x[b]!;
        by = x[b + 1]!;
      }
      // closestAlpha, inline (no double crossing a call)
      const cex = bx - ax, cey = by - ay;
      const l2 = cex * cex + cey * cey;
      if (l2 > 0) {
        const ct = ((px - ax) * cex + (py - ay) * cey) / l2;
        al = ct < 0 ? 0 : ct > 1 ? 1 : ct;
      }
      if (al > 0 && al < 1) {
        // interior: signed distance to the segment's line, positive on the kept side
        const ex = bx - ax, ey = by - ay, l = Math.sqrt(ex * ex + ey * ey);
        let nx = -ey / l, ny = ex / l;
        let s = nx * (px - ax) + ny * (py - ay);
        // barrier pairs: the unsigned distance (continuous around the edge's ends; iterates never
        // reach d = 0, see maxStep); others: signed, positive on the kept side G_SIDE
        const sd = G[o + G_KB]! > 0 ? (s < 0 ? -1 : 1) : G[o + G_SIDE]!;
        nx *= sd;
        ny *= sd;
        s *= sd;
        out[0] = s;
        out[1] = nx;
        out[2] = ny;
        out[3] = al;
        return;
      }
      cx = ax + al * (bx - ax);
      cy = ay + al * (by - ay);
    }
    const dx = px - cx, dy = py - cy;
    const l = Math.sqrt(dx * dx + dy * dy);
    if (l > 1e-14) {
      out[1] = dx / l;
      out[2] = dy / l;
    } else {
      out[1] = G[o + G_NX]!;
      out[2] = G[o + G_NY]!;
    }
    out[0] = l - R;
    out[3] = al;
  }

  /** The lagged tangent (t_x, t_y) of candidate k into out[0..1]. */
  tangent(k: number, out: Float64Array): void {
    out[0] = this.geo[NG * k + G_TX]!;
    out[1] = this.geo[NG * k + G_TY]!;
  }

  /** Make candidate k's friction slip relative to a surface displaced by (sx, sy) over the step. */
  addSurfaceSlip(k: number, sx: number, sy: number): void {
    this.slipIn[0] = sx;
    this.slipIn[1] = sy;
    this.addSurfaceSlipStaged(k);
  }

  /** Input of addSurfaceSlipStaged: (sx, sy) (hot callers write it: no double crosses the call). */
  readonly slipIn = new Float64Array(2);

  /** addSurfaceSlip with (sx, sy) in `slipIn`. */
  addSurfaceSlipStaged(k: number): void {
    const G = this.geo, o = NG * k, sx = this.slipIn[0]!, sy = this.slipIn[1]!;
    G[o + G_U0] = G[o + G_U0]! + G[o + G_TX]! * sx + G[o + G_TY]! * sy;
  }

  /** gq[7] ← the slip u of candidate k at x. */
  private slipQ(k: number, x: Float64Array): void {
    const G = this.geo, o = NG * k, nd = this.node;
    const tx = G[o + G_TX]!, ty = G[o + G_TY]!;
    let u = -G[o + G_U0]!;
    for (let j = 0; j < 3; j++) {
      const i = nd[3 * k + j]!;
      if (i < 0) continue;
      u += G[o + G_WF + j]! * (tx * x[2 * i]! + ty * x[2 * i + 1]!);
    }
    this.gq[7] = u;
  }

  /** Contact radius r̂ of candidate k. */
  radius(k: number): number {
    return this.geo[NG * k + G_R]!;
  }

  /** Normal force −∂E_n/∂d = κ·max(0, r̂ − d) − κ_b b'(d) of candidate k at x (finite: 0 when undefined). */
  normalForce(k: number, x: Float64Array): number {
    this.normalForceQ(k, x);
    return this.gq[4]!;
  }

  /** normalForce into gq[4] (geom's values in gq[0..3]); dEdd's operations, no double crossing a call. */
  private normalForceQ(k: number, x: Float64Array): void {
    const q = this.gq;
    this.geom(k, x, q);
    const G = this.geo, o = NG * k, d = q[0]!;
    const gap = G[o + G_R]! - d;
    let f = gap > 0 ? -G[o + G_K]! * gap : 0;
    const kb = G[o + G_KB]!;
    if (kb > 0) {
      PQ[0] = d;
      PQ[1] = G[o + G_DB]!;
      barrierB1Q();
      f += kb * PQ[0]!;
    }
    f = -f;
    q[4] = Number.isFinite(f) && f > 0 ? f : 0;
  }

  /** Barrier stiffness κ_b of candidate k (0: the pair has no barrier this step). */
  barrierKappa(k: number): number {
    return this.geo[NG * k + G_KB]!;
  }

  /**
   * gq[6] ← normal energy of candidate k at distance d = gq[0]: ½κ max(0, r̂ − d)² + κ_b b(d)
   * (∞ at d ≤ 0 with a barrier). The d-functions below return through gq, not as a double.
   */
  private normalEnergyQ(k: number): void {
    const G = this.geo, o = NG * k, q = this.gq, d = q[0]!;
    const gap = G[o + G_R]! - d;
    let E = gap > 0 ? 0.5 * G[o + G_K]! * gap * gap : 0;
    const kb = G[o + G_KB]!;
    if (kb > 0) {
      PQ[0] = d;
      PQ[1] = G[o + G_DB]!;
      barrierBQ();
      E += kb * PQ[0]!;
    }
    q[6] = E;
  }

  /** gq[6] ← ∂E_n/∂d of candidate k at distance d = gq[0] (≤ 0: repulsive). */
  private dEddQ(k: number): void {
    const G = this.geo, o = NG * k, q = this.gq, d = q[0]!;
    const gap = G[o + G_R]! - d;
    let f = gap > 0 ? -G[o + G_K]! * gap : 0;
    const kb = G[o + G_KB]!;
    if (kb > 0) {
      PQ[0] = d;
      PQ[1] = G[o + G_DB]!;
      barrierB1Q();
      f += kb * PQ[0]!;
    }
    q[6] = f;
  }

  /** gq[6] ← ∂²E_n/∂d² of candidate k at distance d = gq[0] (≥ 0). */
  private d2Edd2Q(k: number): void {
    const G = this.geo, o = NG * k, q = this.gq, d = q[0]!;
    let c = G[o + G_R]! - d > 0 ? G[o + G_K]! : 0;
    const kb = G[o + G_KB]!;
    if (kb > 0) {
      PQ[0] = d;
      PQ[1] = G[o + G_DB]!;
      barrierB2Q();
      c += kb * PQ[0]!;
    }
    q[6] = c;
  }

  energy(x: Float64Array): number {
    this.energyTo(x, this.res);
    return this.res[0]!;
  }

  /** out[0] ← energy(x). */
  energyTo(x: Float64Array, out: Float64Array): void {
    let E = 0;
    const G = this.geo, q = this.gq;
    for (let k = 0; k < this.total; k++) {
      const o = NG * k;
      this.geom(k, x, q);
      this.normalEnergyQ(k);
      E += q[6]!;
      const ml = G[o + G_ML]!;
      if (ml > 0) {
        this.slipQ(k, x);
        PQ[0] = Math.abs(q[7]!);
        PQ[1] = G[o + G_EPS]!;
        frictionF0Q();
        E += ml * PQ[0]!;
      }
    }
    out[0] = E;
  }

  /** gU += ∂E/∂x. */
  gradient(x: Float64Array, gU: Float64Array): void {
    const G = this.geo, q = this.gq, nd = this.node;
    for (let k = 0; k < this.total; k++) {
      const o = NG * k;
      this.geom(k, x, q);
      this.dEddQ(k);
      const fn = q[6]!; // ∂E/∂d
      if (fn !== 0) {
        const al = q[3]!, gx = fn * q[1]!, gy = fn * q[2]!;
        const p = 2 * nd[3 * k]!;
        gU[p] = gU[p]! + gx;
        gU[p + 1] = gU[p + 1]! + gy;
        if (this.kind[k] === KIND_EDGE) {
          const a = 2 * nd[3 * k + 1]!, b = 2 * nd[3 * k + 2]!, be = 1 - al;
          gU[a] = gU[a]! - be * gx;
          gU[a + 1] = gU[a + 1]! - be * gy;
          gU[b] = gU[b]! - al * gx;
          gU[b + 1] = gU[b + 1]! - al * gy;
        }
      }
      const ml = G[o + G_ML]!;
      if (ml > 0) {
        this.slipQ(k, x);
        const u = q[7]!;
        PQ[0] = Math.abs(u);
        PQ[1] = G[o + G_EPS]!;
        frictionF1Q();
        const ft = ml * PQ[0]! * (u > 0 ? 1 : u < 0 ? -1 : 0);
        if (ft === 0) continue;
        const fx = ft * G[o + G_TX]!, fy = ft * G[o + G_TY]!;
        for (let j = 0; j < 3; j++) {
          const i = nd[3 * k + j]!;
          if (i < 0) continue;
          const w = G[o + G_WF + j]!;
          gU[2 * i] = gU[2 * i]! + w * fx;
          gU[2 * i + 1] = gU[2 * i + 1]! + w * fy;
        }
      }
    }
  }

  /**
   * Geometry of candidate k at x into gq, with its normal curvature ∂²E_n/∂d² in gq[6] and its
   * friction curvature μλ f₀''(|u|) in gq[8] (0 without friction): the common start of
   * localHessian and localMajorizer.
   */
  private curvaturesQ(k: number, x: Float64Array): void {
    const G = this.geo, o = NG * k, q = this.gq;
    this.geom(k, x, q);
    this.d2Edd2Q(k);
    const ml = G[o + G_ML]!;
    q[8] = 0;
    if (ml > 0) {
      this.slipQ(k, x);
      PQ[0] = Math.abs(q[7]!);
      PQ[1] = G[o + G_EPS]!;
      frictionF2Q();
      q[8] = ml * PQ[0]!;
    }
  }

  /**
   * Local Hessian (6×6 over nodes p, a, b, row-major) of candidate k at x:
   * κ ∇d ∇dᵀ (Gauss–Newton) + μλ f₀''(|u|) ∇u ∇uᵀ. Used by assembly and tests.
   */
  localHessian(k: number, x: Float64Array, out: Float64Array): void {
    out.fill(0, 0, 36);
    const G = this.geo, o = NG * k, q = this.gq;
    this.curvaturesQ(k, x);
    const cn = q[6]!, cu = q[8]!;
    if (cn === 0 && cu === 0) return;
    const edge = this.kind[k] === KIND_EDGE;
    const al = q[3]!;
    const wn0 = 1, wn1 = edge ? -(1 - al) : 0, wn2 = edge ? -al : 0;
    const nx = q[1]!, ny = q[2]!, tx = G[o + G_TX]!, ty = G[o + G_TY]!;
    for (let i = 0; i < 3; i++) {
      const wi = i === 0 ? wn0 : i === 1 ? wn1 : wn2, fi = G[o + G_WF + i]!;
      for (let j = 0; j < 3; j++) {
        const wj = j === 0 ? wn0 : j === 1 ? wn1 : wn2, fj = G[o + G_WF + j]!;
        const a = cn * wi * wj, b = cu * fi * fj;
        out[(2 * i) * 6 + 2 * j] = a * nx * nx + b * tx * tx;
        out[(2 * i) * 6 + 2 * j + 1] = a * nx * ny + b * tx * ty;
        out[(2 * i + 1) * 6 + 2 * j] = a * nx * ny + b * tx * ty;
        out[(2 * i + 1) * 6 + 2 * j + 1] = a * ny * ny + b * ty * ty;
      }
    }
  }

  /**
   * Diagonal-block PSD majorizer (6×6, row-major, zero off the diagonal blocks) of candidate k's
   * local Hessian at x: block j = S_n c_n |w_j| n nᵀ + S_f c_u |f_j| t tᵀ with S = Σ|w| (2 on an
   * edge, 1 otherwise), so majorizer − localHessian is PSD (Cauchy–Schwarz). Used for candidates
   * whose coupling blocks are not in the pattern yet (rebuilds rate-limited).
   */
  localMajorizer(k: number, x: Float64Array, out: Float64Array): void {
    out.fill(0, 0, 36);
    const G = this.geo, o = NG * k, q = this.gq;
    this.curvaturesQ(k, x);
    const cn = q[6]!, cu = q[8]!;
    if (cn === 0 && cu === 0) return;
    const edge = this.kind[k] === KIND_EDGE;
    const al = q[3]!;
    const w0 = 1, w1 = edge ? 1 - al : 0, w2 = edge ? al : 0;
    const f0 = Math.abs(G[o + G_WF]!), f1 = Math.abs(G[o + G_WF + 1]!), f2 = Math.abs(G[o + G_WF + 2]!);
    const sn = w0 + w1 + w2, sf = f0 + f1 + f2;
    const nx = q[1]!, ny = q[2]!, tx = G[o + G_TX]!, ty = G[o + G_TY]!;
    for (let i = 0; i < 3; i++) {
      const a = sn * cn * (i === 0 ? w0 : i === 1 ? w1 : w2), b = sf * cu * (i === 0 ? f0 : i === 1 ? f1 : f2);
      const r = 2 * i;
      out[r * 6 + r] = a * nx * nx + b * tx * tx;
      out[r * 6 + r + 1] = a * nx * ny + b * tx * ty;
      out[(r + 1) * 6 + r] = a * nx * ny + b * tx * ty;
      out[(r + 1) * 6 + r + 1] = a * ny * ny + b * ty * ty;
    }
  }

  private readonly H = new Float64Array(36);

  /** values += scale · (the PSD Hessian of every candidate), through the slots of computeSlots. */
  hessian(x: Float64Array, scale: number, values: Float64Array): void {
    const s = this.slots, H = this.H;
    for (let k = 0; k < this.total; k++) {
      const major = this.major[k] === 1;
      if (major) this.localMajorizer(k, x, H);
      else this.localHessian(k, x, H);
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
    const f = this.ccdFraction, q = this.gq;
    for (let k = 0; k < this.total; k++) {
      if (this.geo[NG * k + G_KB]! > 0) this.impactTimeQ(k, x, dx);
      else if (this.floor[k]! > -Infinity) this.floorTimeQ(k, x, dx); // started touching or past: no deeper than its floor
      else continue;
      const c = q[5]!;
      if (c >= 0 && f * c < t) t = f * c;
    }
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
    this.impactTimeQ(k, x, dx);
    return this.gq[5]!;
  }

  /** impactTime into gq[5] (swept kernels on the geometry scratch SW: no double crosses a call). */
  private impactTimeQ(k: number, x: Float64Array, dx: Float64Array): void {
    const G = this.geo, nd = this.node, w = SW;
    const kind = this.kind[k]!, o = NG * k;
    const p = 2 * nd[3 * k]!;
    const px = x[p]!, py = x[p + 1]!, qx = px + dx[p]!, qy = py + dx[p + 1]!;
    if (kind === KIND_PLANE) {
      const d0 = G[o]! * px + G[o + 1]! * py - G[o + 2]!;
      const d1 = G[o]! * qx + G[o + 1]! * qy - G[o + 2]!;
      this.gq[5] = d0 > 0 && d1 <= 0 ? d0 / (d0 - d1) : -1;
      return;
    }
    if (kind === KIND_CIRCLE) {
      w[0] = px - G[o]!;
      w[1] = py - G[o + 1]!;
      w[2] = qx - G[o]!;
      w[3] = qy - G[o + 1]!;
      w[4] = G[o + 2]!;
      sweptPCS();
      this.gq[5] = w[SW_T]!;
      return;
    }
    w[0] = px;
    w[1] = py;
    w[2] = qx;
    w[3] = qy;
    if (kind === KIND_SEGMENT) {
      w[4] = w[8] = G[o]!;
      w[5] = w[9] = G[o + 1]!;
      w[6] = w[10] = G[o + 2]!;
      w[7] = w[11] = G[o + 3]!;
    } else {
      const a = 2 * nd[3 * k + 1]!, b = 2 * nd[3 * k + 2]!;
      w[4] = x[a]!;
      w[5] = x[a + 1]!;
      w[6] = x[b]!;
      w[7] = x[b + 1]!;
      w[8] = x[a]! + dx[a]!;
      w[9] = x[a + 1]! + dx[a + 1]!;
      w[10] = x[b]! + dx[b]!;
      w[11] = x[b + 1]! + dx[b + 1]!;
    }
    sweptPS();
    this.gq[5] = w[SW_T]!;
  }

  /**
   * gq[5] ← earliest t ∈ [0, 1] at which candidate k's particle, moving x → x + dx, goes below its
   * floor f = floor[k] (a pair without a barrier), −1 for never: one-sided, from the kept side of the
   * surface offset by f (plane: n·p = c₀ + f; circle: radius R + f; segment / edge: the segment
   * shifted by f along its kept-side normal, at x and at x + dx, moving linearly in between). A
   * particle already below its floor (only where a segment's offset line does not cover it) is
   * not limited.
   */
  private floorTimeQ(k: number, x: Float64Array, dx: Float64Array): void {
    const G = this.geo, nd = this.node, w = SW, q = this.gq;
    const kind = this.kind[k]!, o = NG * k, fl = this.floor[k]!;
    const p = 2 * nd[3 * k]!;
    const px = x[p]!, py = x[p + 1]!, qx = px + dx[p]!, qy = py + dx[p + 1]!;
    q[5] = -1;
    if (kind === KIND_PLANE) {
      const d0 = G[o]! * px + G[o + 1]! * py - G[o + 2]! - fl;
      const d1 = G[o]! * qx + G[o + 1]! * qy - G[o + 2]! - fl;
      q[5] = d0 > 0 && d1 <= 0 ? d0 / (d0 - d1) : -1;
      return;
    }
    if (kind === KIND_CIRCLE) {
      const rho = G[o + 2]! + fl;
      if (!(rho > 0)) return;
      w[0] = px - G[o]!;
      w[1] = py - G[o + 1]!;
      w[2] = qx - G[o]!;
      w[3] = qy - G[o + 1]!;
      w[4] = rho;
      sweptPCS();
      q[5] = w[SW_T]!;
      return;
    }
    let ax: number, ay: number, bx: number, by: number, cx: number, cy: number, ex: number, ey: number;
    if (kind === KIND_SEGMENT) {
      ax = cx = G[o]!;
      ay = cy = G[o + 1]!;
      bx = ex = G[o + 2]!;
      by = ey = G[o + 3]!;
    } else {
      const a = 2 * nd[3 * k + 1]!, b = 2 * nd[3 * k + 2]!;
      ax = x[a]!;
      ay = x[a + 1]!;
      bx = x[b]!;
      by = x[b + 1]!;
      cx = ax + dx[a]!;
      cy = ay + dx[a + 1]!;
      ex = bx + dx[b]!;
      ey = by + dx[b + 1]!;
    }
    // offset along the kept side's unit normal σ n_l (n_l = (−e_y, e_x) / |e|) by f, at both ends of the move
    const sd = G[o + G_SIDE]!;
    let lx = bx - ax, ly = by - ay, l = Math.sqrt(lx * lx + ly * ly);
    if (!(l > 0)) return;
    const s0 = (sd * fl) / l;
    // the particle must start on the kept side of the offset line (else it is not covered: no limit)
    if (sd * (lx * (py - ay - s0 * lx) - ly * (px - ax + s0 * ly)) <= 0) return;
    w[4] = ax - s0 * ly;
    w[5] = ay + s0 * lx;
    w[6] = bx - s0 * ly;
    w[7] = by + s0 * lx;
    lx = ex - cx;
    ly = ey - cy;
    l = Math.sqrt(lx * lx + ly * ly);
    if (!(l > 0)) return;
    const s1 = (sd * fl) / l;
    w[8] = cx - s1 * ly;
    w[9] = cy + s1 * lx;
    w[10] = ex - s1 * ly;
    w[11] = ey + s1 * lx;
    w[0] = px;
    w[1] = py;
    w[2] = qx;
    w[3] = qy;
    sweptPS();
    q[5] = w[SW_T]!;
  }

  /** True when every value of the candidate set is finite (geometry, stiffnesses, slots' inputs). */
  finite(): boolean {
    const G = this.geo;
    for (let q = 0; q < NG * this.total; q++) if (!Number.isFinite(G[q]!)) return false;
    return true;
  }
}
