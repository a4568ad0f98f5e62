/**
 * Allocation-free 2D contact geometry: continuous (swept) point–segment and
 * point–circle tests. All motion within a step is linear in t ∈ [0, 1].
 */

const EPS = 1e-12;

/** Fraction along segment a→b of the point on it closest to p, clamped to [0, 1]. */
export function closestAlpha(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const ex = bx - ax, ey = by - ay;
  const l2 = ex * ex + ey * ey;
  if (!(l2 > 0)) return 0;
  const t = ((px - ax) * ex + (py - ay) * ey) / l2;
  return t < 0 ? 0 : t > 1 ? 1 : t;
}

/**
 * Scratch of the kernels below (module-level, no double crosses a call: V8 boxes doubles passed
 * to or returned from calls it does not inline). In: SW[0..11] = p0 p1 a0 b0 a1 b1 (x, y each);
 * sweptPS writes its result t to SW[SW_T]; SW[13..25] are its own temporaries.
 */
export const SW = new Float64Array(26);
export const SW_T = 12;

/** Is the root t = SW[13] of the collinearity polynomial a crossing inside the (moving) segment? (values of sweptPS) */
function insideAtS(): boolean {
  const w = SW, t = w[13]!;
  if (!(t >= 0 && t <= 1)) return false;
  const ax = w[18]! + t * w[20]!, ay = w[19]! + t * w[21]!;
  const ex = w[22]! + t * w[24]!, ey = w[23]! + t * w[25]!;
  const l2 = ex * ex + ey * ey;
  if (!(l2 > 0)) return false;
  const s = ((w[14]! + t * w[16]! - ax) * ex + (w[15]! + t * w[17]! - ay) * ey) / l2;
  return s >= -1e-9 && s <= 1 + 1e-9;
}

/**
 * Earliest t ∈ (0, 1] at which a point moving p0→p1 crosses the line of a segment moving
 * (a0, b0)→(a1, b1) inside the segment, or −1 for none: inputs SW[0..11], result SW[SW_T].
 * The sign of cross(b0 − a0, p0 − a0) at t = 0 tells the side it came from.
 */
export function sweptPS(): void {
  const w = SW;
  const p0x = w[0]!, p0y = w[1]!, p1x = w[2]!, p1y = w[3]!;
  const a0x = w[4]!, a0y = w[5]!, b0x = w[6]!, b0y = w[7]!;
  const a1x = w[8]!, a1y = w[9]!, b1x = w[10]!, b1y = w[11]!;
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
  w[14] = p0x; w[15] = p0y; w[16] = dpx; w[17] = dpy;
  w[18] = a0x; w[19] = a0y; w[20] = dax; w[21] = day;
  w[22] = e0x; w[23] = e0y; w[24] = dex; w[25] = dey;
  // A start exactly on the line is not a crossing (t = 0 excluded); an end on the line is.
  w[13] = t1;
  if (t1 > 0 && insideAtS()) {
    w[SW_T] = t1;
    return;
  }
  w[13] = t2;
  if (t2 > 0 && insideAtS()) {
    w[SW_T] = t2;
    return;
  }
  // Rounding near t = 1: a sign change between the ends that the roots missed.
  if ((C > 0 && C1 < 0) || (C < 0 && C1 > 0)) {
    w[13] = 1;
    if (insideAtS()) w[SW_T] = 1;
  }
}

/**
 * Earliest t ∈ (0, 1] at which a point moving p0→p1 crosses the line of a
 * segment moving (a0, b0)→(a1, b1) inside the segment, or −1 for none
 * (wrapper of sweptPS for tests and cold code).
 */
export function sweptPointSegment(
  p0x: number, p0y: number, p1x: number, p1y: number,
  a0x: number, a0y: number, b0x: number, b0y: number,
  a1x: number, a1y: number, b1x: number, b1y: number,
): number {
  const w = SW;
  w[0] = p0x; w[1] = p0y; w[2] = p1x; w[3] = p1y;
  w[4] = a0x; w[5] = a0y; w[6] = b0x; w[7] = b0y;
  w[8] = a1x; w[9] = a1y; w[10] = b1x; w[11] = b1y;
  sweptPS();
  return w[SW_T]!;
}

/**
 * Scratch of pointSegAt: GS[0] = distance, GS[1] = the closest point's fraction α along a→b.
 */
export const GS = new Float64Array(2);

/**
 * Distance from point P[p], P[p + 1] to the segment (A[a], A[a + 1])–(A[b], A[b + 1]) into GS[0],
 * the clamped fraction α into GS[1] (closestAlpha and pointSegDist, same operations).
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
  GS[0] = Math.sqrt(dx * dx + dy * dy);
  GS[1] = al;
}

/**
 * Earliest t ∈ [0, 1] at which a point moving q0→q1 (relative to a circle's
 * centre) reaches distance rho from it, coming from outside; −1 for none.
 */
export function sweptPointCircle(q0x: number, q0y: number, q1x: number, q1y: number, rho: number): number {
  const w = SW;
  w[0] = q0x; w[1] = q0y; w[2] = q1x; w[3] = q1y; w[4] = rho;
  sweptPCS();
  return w[SW_T]!;
}

/** sweptPointCircle on the scratch: q0 = SW[0..1], q1 = SW[2..3], rho = SW[4] in, t = SW[SW_T] out. */
export function sweptPCS(): void {
  const w = SW;
  const q0x = w[0]!, q0y = w[1]!, q1x = w[2]!, q1y = w[3]!, rho = w[4]!;
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
