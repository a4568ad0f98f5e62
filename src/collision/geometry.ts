/**
 * Contact geometry kernels (allocation-free): continuous (swept) point–segment and point–circle
 * tests, the point–segment distance, and loaders of the swept test from particle and collider
 * arrays. All motion within a step is linear in t ∈ [0, 1].
 *
 * Scratch convention (docs/design.md, "Scratch and calling convention"; collision's scratch
 * arrays are listed in docs/contact.md, "Scratch convention"): a kernel family has one
 * Float64Array scratch with a named offset for every slot. On the step path a caller writes the inputs at their offsets and calls the kernel
 * with integers and typed arrays only; the kernel writes its results at their offsets. No double
 * crosses a call: V8 boxes a double passed to or returned from a call it does not inline
 * (docs/solver.md, "Allocation work"). The number-taking, number-returning functions
 * (`sweptPointSegment`, `sweptPointCircle`, `closestAlpha`) are the kernels' public face, for
 * tests, tools and cold code; they wrap the scratch forms and give the same results.
 */

const EPS = 1e-12;

/**
 * Scratch of the swept kernels (sweptPS, sweptPCS, the loaders). Each point is two slots (x, y).
 * Point–segment: p0, p1 (the particle's motion), a0, b0 (the segment at t = 0), a1, b1 (at t = 1).
 * Point–circle (relative to the centre): q0, q1 and the radius rho. Result: t (−1: none).
 */
export const SW = new Float64Array(26);
export const SW_P0 = 0;
export const SW_P1 = 2;
export const SW_A0 = 4;
export const SW_B0 = 6;
export const SW_A1 = 8;
export const SW_B1 = 10;
/** Result of sweptPS / sweptPCS. */
export const SW_T = 12;
/** Point–circle inputs (they share slots with the point–segment ones). */
export const SW_Q0 = 0;
export const SW_Q1 = 2;
export const SW_RHO = 4;
/** sweptPS's temporaries for insideAtS: the root tested, then p0, Δp, a0, Δa, e0 = b0 − a0, Δe (x, y each). */
const SW_ROOT = 13;
const SW_SP = 14;
const SW_SDP = 16;
const SW_SA = 18;
const SW_SDA = 20;
const SW_SE = 22;
const SW_SDE = 24;

/** Scratch of pointSegAt: the distance and the closest point's fraction α along a→b. */
export const GS = new Float64Array(2);
export const GS_D = 0;
export const GS_AL = 1;

/** Fraction along segment a→b of the point on it closest to p, clamped to [0, 1]. */
export function closestAlpha(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const ex = bx - ax, ey = by - ay;
  const l2 = ex * ex + ey * ey;
  if (!(l2 > 0)) return 0;
  const t = ((px - ax) * ex + (py - ay) * ey) / l2;
  return t < 0 ? 0 : t > 1 ? 1 : t;
}

/** Is the root t = SW[SW_ROOT] of the collinearity polynomial a crossing inside the (moving) segment? (values of sweptPS) */
function insideAtS(): boolean {
  const w = SW, t = w[SW_ROOT]!;
  if (!(t >= 0 && t <= 1)) return false;
  const ax = w[SW_SA]! + t * w[SW_SDA]!, ay = w[SW_SA + 1]! + t * w[SW_SDA + 1]!;
  const ex = w[SW_SE]! + t * w[SW_SDE]!, ey = w[SW_SE + 1]! + t * w[SW_SDE + 1]!;
  const l2 = ex * ex + ey * ey;
  if (!(l2 > 0)) return false;
  const s = ((w[SW_SP]! + t * w[SW_SDP]! - ax) * ex + (w[SW_SP + 1]! + t * w[SW_SDP + 1]! - ay) * ey) / l2;
  return s >= -1e-9 && s <= 1 + 1e-9;
}

/**
 * Earliest t ∈ (0, 1] at which a point moving p0→p1 crosses the line of a segment moving
 * (a0, b0)→(a1, b1) inside the segment, or −1 for none: inputs SW_P0 .. SW_B1, result SW[SW_T].
 * The sign of cross(b0 − a0, p0 − a0) at t = 0 tells the side it came from.
 */
export function sweptPS(): void {
  const w = SW;
  const p0x = w[SW_P0]!, p0y = w[SW_P0 + 1]!, p1x = w[SW_P1]!, p1y = w[SW_P1 + 1]!;
  const a0x = w[SW_A0]!, a0y = w[SW_A0 + 1]!, b0x = w[SW_B0]!, b0y = w[SW_B0 + 1]!;
  const a1x = w[SW_A1]!, a1y = w[SW_A1 + 1]!, b1x = w[SW_B1]!, b1y = w[SW_B1 + 1]!;
  const e0x = b0x - a0x, e0y = b0y - a0y;
  const dex = b1x - a1x - e0x, dey = b1y - a1y - e0y;
  const dax = a1x - a0x, day = a1y - a0y;
  const dpx = p1x - p0x, dpy = p1y - p0y;
  const w0x = p0x - a0x, w0y = p0y - a0y;
  const dwx = dpx - dax, dwy = dpy - day;
  const C = e0x * w0y - e0y * w0x;
  const B = (e0x * dwy - e0y * dwx) + (dex * w0y - dey * w0x);
  const A = dex * dwy - dey * dwx;
  // The sign of f(t) = A t² + B t + C changes at a crossing; f(0) = C.
  const C1 = A + B + C;
  w[SW_T] = -1;
  if (C === 0 && B === 0 && A === 0) return;
  let t1 = -1, t2 = -1;
  const scale = Math.abs(A) + Math.abs(B) + Math.abs(C);
  if (Math.abs(A) <= 1e-14 * scale) {
    if (B !== 0) t1 = -C / B;
  } else {
    const disc = B * B - 4 * A * C;
    if (disc < 0) return;
    const sq = Math.sqrt(disc);
    const q = -0.5 * (B + (B >= 0 ? sq : -sq));
    const r1 = q / A;
    const r2 = q !== 0 ? C / q : r1;
    t1 = r1 < r2 ? r1 : r2;
    t2 = r1 < r2 ? r2 : r1;
  }
  w[SW_SP] = p0x; w[SW_SP + 1] = p0y; w[SW_SDP] = dpx; w[SW_SDP + 1] = dpy;
  w[SW_SA] = a0x; w[SW_SA + 1] = a0y; w[SW_SDA] = dax; w[SW_SDA + 1] = day;
  w[SW_SE] = e0x; w[SW_SE + 1] = e0y; w[SW_SDE] = dex; w[SW_SDE + 1] = dey;
  // A start exactly on the line is not a crossing (t = 0 excluded); an end on the line is.
  w[SW_ROOT] = t1;
  if (t1 > 0 && insideAtS()) {
    w[SW_T] = t1;
    return;
  }
  w[SW_ROOT] = t2;
  if (t2 > 0 && insideAtS()) {
    w[SW_T] = t2;
    return;
  }
  // Rounding near t = 1: a sign change between the ends that the roots missed (no root in (0, 1]).
  // A root in (0, 1] outside the segment explains the sign change: the path crossed the line
  // beyond the segment's end and may end behind the segment without having crossed it.
  if (((C > 0 && C1 < 0) || (C < 0 && C1 > 0)) && !(t1 > 0 && t1 <= 1) && !(t2 > 0 && t2 <= 1)) {
    w[SW_ROOT] = 1;
    if (insideAtS()) w[SW_T] = 1;
  }
}

/**
 * Earliest t ∈ (0, 1] at which a point moving p0→p1 crosses the line of a
 * segment moving (a0, b0)→(a1, b1) inside the segment, or −1 for none
 * (the public face of sweptPS).
 */
export function sweptPointSegment(
  p0x: number, p0y: number, p1x: number, p1y: number,
  a0x: number, a0y: number, b0x: number, b0y: number,
  a1x: number, a1y: number, b1x: number, b1y: number,
): number {
  const w = SW;
  w[SW_P0] = p0x; w[SW_P0 + 1] = p0y; w[SW_P1] = p1x; w[SW_P1 + 1] = p1y;
  w[SW_A0] = a0x; w[SW_A0 + 1] = a0y; w[SW_B0] = b0x; w[SW_B0 + 1] = b0y;
  w[SW_A1] = a1x; w[SW_A1 + 1] = a1y; w[SW_B1] = b1x; w[SW_B1 + 1] = b1y;
  sweptPS();
  return w[SW_T]!;
}

/**
 * Distance from point P[p], P[p + 1] to the segment (A[a], A[a + 1])–(A[b], A[b + 1]) into
 * GS[GS_D], the clamped fraction α into GS[GS_AL] (closestAlpha's operations).
 */
export function pointSegAt(P: Float64Array, p: number, A: Float64Array, a: number, b: number): void {
  const px = P[p]!, py = P[p + 1]!, ax = A[a]!, ay = A[a + 1]!, bx = A[b]!, by = A[b + 1]!;
  const ex = bx - ax, ey = by - ay;
  const l2 = ex * ex + ey * ey;
  let al = 0;
  if (l2 > 0) {
    const t = ((px - ax) * ex + (py - ay) * ey) / l2;
    al = t < 0 ? 0 : t > 1 ? 1 : t;
  }
  const dx = px - ax - al * ex, dy = py - ay - al * ey;
  GS[GS_D] = Math.sqrt(dx * dx + dy * dy);
  GS[GS_AL] = al;
}

/**
 * Earliest t ∈ [0, 1] at which a point moving q0→q1 (relative to a circle's
 * centre) reaches distance rho from it, coming from outside; −1 for none (the public face of sweptPCS).
 */
export function sweptPointCircle(q0x: number, q0y: number, q1x: number, q1y: number, rho: number): number {
  const w = SW;
  w[SW_Q0] = q0x; w[SW_Q0 + 1] = q0y; w[SW_Q1] = q1x; w[SW_Q1 + 1] = q1y; w[SW_RHO] = rho;
  sweptPCS();
  return w[SW_T]!;
}

/** sweptPointCircle on the scratch: SW_Q0, SW_Q1, SW_RHO in, SW[SW_T] out. */
export function sweptPCS(): void {
  const w = SW;
  const q0x = w[SW_Q0]!, q0y = w[SW_Q0 + 1]!, q1x = w[SW_Q1]!, q1y = w[SW_Q1 + 1]!, rho = w[SW_RHO]!;
  w[SW_T] = -1;
  const c = q0x * q0x + q0y * q0y - rho * rho;
  if (c < 0) return;
  const dx = q1x - q0x, dy = q1y - q0y;
  const a = dx * dx + dy * dy;
  if (a < EPS * EPS) return;
  const b = 2 * (q0x * dx + q0y * dy);
  if (b >= 0) return;
  const disc = b * b - 4 * a * c;
  if (disc < 0) return;
  const t = (-b - Math.sqrt(disc)) / (2 * a);
  if (t >= 0 && t <= 1) w[SW_T] = t;
}

/** Load SW with node p and body edge (a, b) (offsets into P and Q), each moving P → Q. */
export function loadSweptNodes(P: Float64Array, Q: Float64Array, p: number, a: number, b: number): void {
  const w = SW;
  w[SW_P0] = P[p]!;
  w[SW_P0 + 1] = P[p + 1]!;
  w[SW_P1] = Q[p]!;
  w[SW_P1 + 1] = Q[p + 1]!;
  w[SW_A0] = P[a]!;
  w[SW_A0 + 1] = P[a + 1]!;
  w[SW_B0] = P[b]!;
  w[SW_B0 + 1] = P[b + 1]!;
  w[SW_A1] = Q[a]!;
  w[SW_A1 + 1] = Q[a + 1]!;
  w[SW_B1] = Q[b]!;
  w[SW_B1 + 1] = Q[b + 1]!;
}

/** Load SW with node p moving P → Q and collider segment sg[o .. o + 7] (a0 b0 a1 b1: its start and end poses). */
export function loadSweptSegment(P: Float64Array, Q: Float64Array, p: number, sg: Float64Array, o: number): void {
  const w = SW;
  w[SW_P0] = P[p]!;
  w[SW_P0 + 1] = P[p + 1]!;
  w[SW_P1] = Q[p]!;
  w[SW_P1 + 1] = Q[p + 1]!;
  for (let j = 0; j < 8; j++) w[SW_A0 + j] = sg[o + j]!;
}

/** Does node p cross body edge (a, b) while all three move P → Q? */
export function sweptNodes(P: Float64Array, Q: Float64Array, p: number, a: number, b: number): boolean {
  loadSweptNodes(P, Q, p, a, b);
  sweptPS();
  return !(SW[SW_T]! < 0);
}

/** Does node p moving P → Q cross collider segment sg[o .. o + 7]? */
export function sweptSegment(P: Float64Array, Q: Float64Array, p: number, sg: Float64Array, o: number): boolean {
  loadSweptSegment(P, Q, p, sg, o);
  sweptPS();
  return !(SW[SW_T]! < 0);
}
