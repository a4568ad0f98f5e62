/**
 * Per-candidate kernels of the in-solve contact potential (implicit.ts: ContactPotential holds the
 * candidates): exact geometry, normal energy and its derivatives, normal force, friction slip,
 * curvatures, the local Hessian and its diagonal majorizer, time of impact and time to the floor —
 * functions of the candidate arrays (kind, node, geo; layout G_* below), a candidate index and
 * positions. The formulas are in implicit.ts's header and docs/contact.md.
 *
 * Scratch convention (geometry.ts's header; docs/contact.md): results go to KQ (offsets KQ_*); the
 * scalar friction / barrier kernels (barrier-friction.ts) go through PQ, the swept tests through
 * geometry.ts's SW.
 */
import {
  barrierB1Q, barrierB2Q, barrierBQ, frictionF2Q, PQ, PQ_IO, PQ_PARAM,
} from './barrier-friction';
import { SW, SW_A0, SW_A1, SW_B0, SW_B1, SW_P0, SW_P1, SW_Q0, SW_Q1, SW_RHO, SW_T, sweptPCS, sweptPS } from './geometry';

export const KIND_PLANE = 0;
export const KIND_CIRCLE = 1;
export const KIND_SEGMENT = 2;
export const KIND_EDGE = 3;

/** Per-candidate doubles in `geo` (NG per candidate): the G_* offsets. */
export const NG = 20;
export const G_A = 0; // plane: nx, ny, c0 | circle: cx, cy, R | segment: ax, ay, bx, by
export const G_R = 4; // r̂
export const G_K = 5; // κ
export const G_ML = 6; // μ λ
export const G_TX = 7; // lagged tangent
export const G_TY = 8;
export const G_WF = 9; // 3 lagged friction weights
export const G_U0 = 12;
export const G_EPS = 13;
export const G_NX = 14; // fallback normal (d = 0)
export const G_NY = 15;
export const G_SIDE = 16; // segment / edge: +1 or −1, the side (of the left normal) the particle is kept on
export const G_KB = 17; // barrier stiffness κ_b (0: no barrier: the pair started the step at d ≤ 0)
export const G_DB = 18; // barrier width d̂_b
/**
 * 1 while the solve predicts that this slipping pair sticks (friction stick prediction, Newton in
 * src/solver/newton.ts and ContactPotential.stickMark): its friction is modelled by the stick zone's
 * quadratic μλ (u²/ε + ε/3) until its slip is back within ε. 0 otherwise; every step starts at 0.
 */
export const G_STICK = 19;

/**
 * Scratch of the per-candidate kernels. candidateGeom writes d, n, α at KQ_D .. KQ_AL of its `out`
 * (KQ or a caller's array of 4); the others write their one result at their offset.
 */
export const KQ = new Float64Array(10);
export const KQ_D = 0;
export const KQ_NX = 1;
export const KQ_NY = 2;
export const KQ_AL = 3;
/** normalForceQ: −∂E_n/∂d (≥ 0, finite). */
export const KQ_FN = 4;
/** impactTimeQ / floorTimeQ: the earliest t, −1 for none. */
export const KQ_TOI = 5;
/** normalEnergyQ, dEddQ, d2Edd2Q: E_n, ∂E_n/∂d, ∂²E_n/∂d² (curvaturesQ: the normal curvature). */
export const KQ_E = 6;
/** slipQ: the slip u. */
export const KQ_U = 7;
/** curvaturesQ: the friction curvature μλ f₀''(|u|). */
export const KQ_CU = 8;
/** addTangentQ's input: the tangential force f (∂E/∂u) spread onto the candidate's nodes. */
export const KQ_FT = 9;

// ---- per-candidate kernels -----------------------------------------------------------------

/** Exact distance d, unit normal n (∇_p d) and edge parameter α of candidate k at x into out[KQ_D .. KQ_AL]. */
export function candidateGeom(
  kindA: Uint8Array, node: Int32Array, G: Float64Array, k: number, x: Float64Array, out: Float64Array,
): void {
  const o = NG * k, kind = kindA[k]!;
  const p = 2 * node[3 * k]!;
  const px = x[p]!, py = x[p + 1]!;
  if (kind === KIND_PLANE) {
    out[KQ_D] = G[o]! * px + G[o + 1]! * py - G[o + 2]!;
    out[KQ_NX] = G[o]!;
    out[KQ_NY] = G[o + 1]!;
    out[KQ_AL] = 0;
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
      const a = 2 * node[3 * k + 1]!, b = 2 * node[3 * k + 2]!;
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
      out[KQ_D] = s;
      out[KQ_NX] = nx;
      out[KQ_NY] = ny;
      out[KQ_AL] = al;
      return;
    }
    cx = ax + al * (bx - ax);
    cy = ay + al * (by - ay);
  }
  const dx = px - cx, dy = py - cy;
  const l = Math.sqrt(dx * dx + dy * dy);
  if (l > 1e-14) {
    out[KQ_NX] = dx / l;
    out[KQ_NY] = dy / l;
  } else {
    out[KQ_NX] = G[o + G_NX]!;
    out[KQ_NY] = G[o + G_NY]!;
  }
  out[KQ_D] = l - R;
  out[KQ_AL] = al;
}

/** KQ[KQ_FN] ← the normal force −∂E_n/∂d = κ·max(0, r̂ − d) − κ_b b'(d) of candidate k at x (finite: 0 when undefined); KQ_D .. KQ_AL: its geometry. */
export function normalForceQ(kindA: Uint8Array, node: Int32Array, G: Float64Array, k: number, x: Float64Array): void {
  const q = KQ;
  candidateGeom(kindA, node, G, k, x, q);
  const o = NG * k, d = q[KQ_D]!;
  const gap = G[o + G_R]! - d;
  let f = gap > 0 ? -G[o + G_K]! * gap : 0;
  const kb = G[o + G_KB]!;
  if (kb > 0) {
    PQ[PQ_IO] = d;
    PQ[PQ_PARAM] = G[o + G_DB]!;
    barrierB1Q();
    f += kb * PQ[PQ_IO]!;
  }
  f = -f;
  q[KQ_FN] = Number.isFinite(f) && f > 0 ? f : 0;
}

/**
 * KQ[KQ_E] ← normal energy of candidate k at distance d = KQ[KQ_D]: ½κ max(0, r̂ − d)² + κ_b b(d)
 * (∞ at d ≤ 0 with a barrier).
 */
export function normalEnergyQ(G: Float64Array, k: number): void {
  const o = NG * k, q = KQ, d = q[KQ_D]!;
  const gap = G[o + G_R]! - d;
  let E = gap > 0 ? 0.5 * G[o + G_K]! * gap * gap : 0;
  const kb = G[o + G_KB]!;
  if (kb > 0) {
    PQ[PQ_IO] = d;
    PQ[PQ_PARAM] = G[o + G_DB]!;
    barrierBQ();
    E += kb * PQ[PQ_IO]!;
  }
  q[KQ_E] = E;
}

/** KQ[KQ_E] ← ∂E_n/∂d of candidate k at distance d = KQ[KQ_D] (≤ 0: repulsive). */
export function dEddQ(G: Float64Array, k: number): void {
  const o = NG * k, q = KQ, d = q[KQ_D]!;
  const gap = G[o + G_R]! - d;
  let f = gap > 0 ? -G[o + G_K]! * gap : 0;
  const kb = G[o + G_KB]!;
  if (kb > 0) {
    PQ[PQ_IO] = d;
    PQ[PQ_PARAM] = G[o + G_DB]!;
    barrierB1Q();
    f += kb * PQ[PQ_IO]!;
  }
  q[KQ_E] = f;
}

/** KQ[KQ_E] ← ∂²E_n/∂d² of candidate k at distance d = KQ[KQ_D] (≥ 0). */
function d2Edd2Q(G: Float64Array, k: number): void {
  const o = NG * k, q = KQ, d = q[KQ_D]!;
  let c = G[o + G_R]! - d > 0 ? G[o + G_K]! : 0;
  const kb = G[o + G_KB]!;
  if (kb > 0) {
    PQ[PQ_IO] = d;
    PQ[PQ_PARAM] = G[o + G_DB]!;
    barrierB2Q();
    c += kb * PQ[PQ_IO]!;
  }
  q[KQ_E] = c;
}

/** KQ[KQ_U] += Σⱼ wⱼ t·vⱼ over candidate k's nodes: the change of its slip along v (lagged tangent t, friction weights w). */
export function tangentSumQ(node: Int32Array, G: Float64Array, k: number, v: Float64Array): void {
  const o = NG * k;
  const tx = G[o + G_TX]!, ty = G[o + G_TY]!;
  let u = KQ[KQ_U]!;
  for (let j = 0; j < 3; j++) {
    const i = node[3 * k + j]!;
    if (i < 0) continue;
    u += G[o + G_WF + j]! * (tx * v[2 * i]! + ty * v[2 * i + 1]!);
  }
  KQ[KQ_U] = u;
}

/** KQ[KQ_U] ← the slip u of candidate k at x. */
export function slipQ(node: Int32Array, G: Float64Array, k: number, x: Float64Array): void {
  KQ[KQ_U] = -G[NG * k + G_U0]!;
  tangentSumQ(node, G, k, x);
}

/** out += KQ[KQ_FT] · ∇u of candidate k (fⱼ = wⱼ f t on node j): a tangential force f = ∂E/∂u into a gradient. */
export function addTangentQ(node: Int32Array, G: Float64Array, k: number, out: Float64Array): void {
  const o = NG * k;
  const ft = KQ[KQ_FT]!;
  const fx = ft * G[o + G_TX]!, fy = ft * G[o + G_TY]!;
  for (let j = 0; j < 3; j++) {
    const i = node[3 * k + j]!;
    if (i < 0) continue;
    const w = G[o + G_WF + j]!;
    out[2 * i] = out[2 * i]! + w * fx;
    out[2 * i + 1] = out[2 * i + 1]! + w * fy;
  }
}

/**
 * Geometry of candidate k at x into KQ, with its normal curvature ∂²E_n/∂d² in KQ[KQ_E] and its
 * friction curvature μλ f₀''(|u|) in KQ[KQ_CU] (0 without friction; μλ 2/ε for a pair predicted to
 * stick whose slip is outside ε: G_STICK): the common start of the local Hessian and the majorizer.
 */
function curvaturesQ(kindA: Uint8Array, node: Int32Array, G: Float64Array, k: number, x: Float64Array): void {
  const o = NG * k, q = KQ;
  candidateGeom(kindA, node, G, k, x, q);
  d2Edd2Q(G, k);
  const ml = G[o + G_ML]!;
  q[KQ_CU] = 0;
  if (ml > 0) {
    slipQ(node, G, k, x);
    const y = Math.abs(q[KQ_U]!), eps = G[o + G_EPS]!;
    PQ[PQ_IO] = y;
    PQ[PQ_PARAM] = eps;
    frictionF2Q();
    // a pair predicted to stick, still slipping: the stick zone's curvature f₀''(0) = 2/ε
    q[KQ_CU] = ml * (G[o + G_STICK] === 1 && y >= eps ? 2 / eps : PQ[PQ_IO]!);
  }
}

/**
 * Local Hessian (6×6 over nodes p, a, b, row-major) of candidate k at x:
 * κ ∇d ∇dᵀ (Gauss–Newton) + μλ f₀''(|u|) ∇u ∇uᵀ. ContactPotential.localHessian.
 */
export function localHessianAt(
kindA: Uint8Array, node: Int32Array, G: Float64Array, k: number, x: Float64Array, out: Float64Array,
): void {
  out.fill(0, 0, 36);
  const o = NG * k, q = KQ;
  curvaturesQ(kindA, node, G, k, x);
  const cn = q[KQ_E]!, cu = q[KQ_CU]!;
  if (cn === 0 && cu === 0) return;
  const edge = kindA[k] === KIND_EDGE;
  const al = q[KQ_AL]!;
  const wn0 = 1, wn1 = edge ? -(1 - al) : 0, wn2 = edge ? -al : 0;
  const nx = q[KQ_NX]!, ny = q[KQ_NY]!, tx = G[o + G_TX]!, ty = G[o + G_TY]!;
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
 * edge, 1 otherwise), so majorizer − localHessian is PSD (Cauchy–Schwarz). ContactPotential.localMajorizer.
 */
export function localMajorizerAt(
kindA: Uint8Array, node: Int32Array, G: Float64Array, k: number, x: Float64Array, out: Float64Array,
): void {
  out.fill(0, 0, 36);
  const o = NG * k, q = KQ;
  curvaturesQ(kindA, node, G, k, x);
  const cn = q[KQ_E]!, cu = q[KQ_CU]!;
  if (cn === 0 && cu === 0) return;
  const edge = kindA[k] === KIND_EDGE;
  const al = q[KQ_AL]!;
  const w0 = 1, w1 = edge ? 1 - al : 0, w2 = edge ? al : 0;
  const f0 = Math.abs(G[o + G_WF]!), f1 = Math.abs(G[o + G_WF + 1]!), f2 = Math.abs(G[o + G_WF + 2]!);
  const sn = w0 + w1 + w2, sf = f0 + f1 + f2;
  const nx = q[KQ_NX]!, ny = q[KQ_NY]!, tx = G[o + G_TX]!, ty = G[o + G_TY]!;
  for (let i = 0; i < 3; i++) {
    const a = sn * cn * (i === 0 ? w0 : i === 1 ? w1 : w2), b = sf * cu * (i === 0 ? f0 : i === 1 ? f1 : f2);
    const r = 2 * i;
    out[r * 6 + r] = a * nx * nx + b * tx * tx;
    out[r * 6 + r + 1] = a * nx * ny + b * tx * ty;
    out[(r + 1) * 6 + r] = a * nx * ny + b * tx * ty;
    out[(r + 1) * 6 + r + 1] = a * ny * ny + b * ty * ty;
  }
}

/** KQ[KQ_TOI] ← earliest t ∈ [0, 1] at which candidate k's particle reaches its surface moving x → x + dx (−1: never). */
export function impactTimeQ(
  kindA: Uint8Array, node: Int32Array, G: Float64Array, k: number, x: Float64Array, dx: Float64Array,
): void {
  const w = SW;
  const kind = kindA[k]!, o = NG * k;
  const p = 2 * node[3 * k]!;
  const px = x[p]!, py = x[p + 1]!, qx = px + dx[p]!, qy = py + dx[p + 1]!;
  if (kind === KIND_PLANE) {
    const d0 = G[o]! * px + G[o + 1]! * py - G[o + 2]!;
    const d1 = G[o]! * qx + G[o + 1]! * qy - G[o + 2]!;
    KQ[KQ_TOI] = d0 > 0 && d1 <= 0 ? d0 / (d0 - d1) : -1;
    return;
  }
  if (kind === KIND_CIRCLE) {
    w[SW_Q0] = px - G[o]!;
    w[SW_Q0 + 1] = py - G[o + 1]!;
    w[SW_Q1] = qx - G[o]!;
    w[SW_Q1 + 1] = qy - G[o + 1]!;
    w[SW_RHO] = G[o + 2]!;
    sweptPCS();
    KQ[KQ_TOI] = w[SW_T]!;
    return;
  }
  w[SW_P0] = px;
  w[SW_P0 + 1] = py;
  w[SW_P1] = qx;
  w[SW_P1 + 1] = qy;
  if (kind === KIND_SEGMENT) {
    w[SW_A0] = w[SW_A1] = G[o]!;
    w[SW_A0 + 1] = w[SW_A1 + 1] = G[o + 1]!;
    w[SW_B0] = w[SW_B1] = G[o + 2]!;
    w[SW_B0 + 1] = w[SW_B1 + 1] = G[o + 3]!;
  } else {
    const a = 2 * node[3 * k + 1]!, b = 2 * node[3 * k + 2]!;
    w[SW_A0] = x[a]!;
    w[SW_A0 + 1] = x[a + 1]!;
    w[SW_B0] = x[b]!;
    w[SW_B0 + 1] = x[b + 1]!;
    w[SW_A1] = x[a]! + dx[a]!;
    w[SW_A1 + 1] = x[a + 1]! + dx[a + 1]!;
    w[SW_B1] = x[b]! + dx[b]!;
    w[SW_B1 + 1] = x[b + 1]! + dx[b + 1]!;
  }
  sweptPS();
  KQ[KQ_TOI] = w[SW_T]!;
}

/**
 * KQ[KQ_TOI] ← earliest t ∈ [0, 1] at which candidate k's particle, moving x → x + dx, goes below its
 * floor f = floor[k] (a pair without a barrier), −1 for never: one-sided, from the kept side of the
 * surface offset by f (plane: n·p = c₀ + f; circle: radius R + f; segment / edge: the segment
 * shifted by f along its kept-side normal, at x and at x + dx, moving linearly in between). A
 * particle already below its floor (only where a segment's offset line does not cover it) is
 * not limited.
 */
export function floorTimeQ(
  kindA: Uint8Array, node: Int32Array, G: Float64Array, floor: Float64Array, k: number, x: Float64Array, dx: Float64Array,
): void {
  const w = SW, q = KQ;
  const kind = kindA[k]!, o = NG * k, fl = floor[k]!;
  const p = 2 * node[3 * k]!;
  const px = x[p]!, py = x[p + 1]!, qx = px + dx[p]!, qy = py + dx[p + 1]!;
  q[KQ_TOI] = -1;
  if (kind === KIND_PLANE) {
    const d0 = G[o]! * px + G[o + 1]! * py - G[o + 2]! - fl;
    const d1 = G[o]! * qx + G[o + 1]! * qy - G[o + 2]! - fl;
    q[KQ_TOI] = d0 > 0 && d1 <= 0 ? d0 / (d0 - d1) : -1;
    return;
  }
  if (kind === KIND_CIRCLE) {
    const rho = G[o + 2]! + fl;
    if (!(rho > 0)) return;
    w[SW_Q0] = px - G[o]!;
    w[SW_Q0 + 1] = py - G[o + 1]!;
    w[SW_Q1] = qx - G[o]!;
    w[SW_Q1 + 1] = qy - G[o + 1]!;
    w[SW_RHO] = rho;
    sweptPCS();
    q[KQ_TOI] = w[SW_T]!;
    return;
  }
  let ax: number, ay: number, bx: number, by: number, cx: number, cy: number, ex: number, ey: number;
  if (kind === KIND_SEGMENT) {
    ax = cx = G[o]!;
    ay = cy = G[o + 1]!;
    bx = ex = G[o + 2]!;
    by = ey = G[o + 3]!;
  } else {
    const a = 2 * node[3 * k + 1]!, b = 2 * node[3 * k + 2]!;
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
  w[SW_A0] = ax - s0 * ly;
  w[SW_A0 + 1] = ay + s0 * lx;
  w[SW_B0] = bx - s0 * ly;
  w[SW_B0 + 1] = by + s0 * lx;
  lx = ex - cx;
  ly = ey - cy;
  l = Math.sqrt(lx * lx + ly * ly);
  if (!(l > 0)) return;
  const s1 = (sd * fl) / l;
  w[SW_A1] = cx - s1 * ly;
  w[SW_A1 + 1] = cy + s1 * lx;
  w[SW_B1] = ex - s1 * ly;
  w[SW_B1 + 1] = ey + s1 * lx;
  w[SW_P0] = px;
  w[SW_P0 + 1] = py;
  w[SW_P1] = qx;
  w[SW_P1 + 1] = qy;
  sweptPS();
  q[KQ_TOI] = w[SW_T]!;
}
