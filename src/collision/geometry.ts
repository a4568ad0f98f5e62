/**
 * Allocation-free 2D contact geometry: continuous (swept) point–segment and
 * point–circle tests. All motion within a step is linear in t ∈ [0, 1].
 */

const EPS = 1e-12;

function cross(ax: number, ay: number, bx: number, by: number): number {
  return ax * by - ay * bx;
}

/** Fraction along segment a→b of the point on it closest to p, clamped to [0, 1]. */
export function closestAlpha(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const ex = bx - ax, ey = by - ay;
  const l2 = ex * ex + ey * ey;
  if (!(l2 > 0)) return 0;
  const t = ((px - ax) * ex + (py - ay) * ey) / l2;
  return t < 0 ? 0 : t > 1 ? 1 : t;
}

/** Is the root t of the collinearity polynomial a crossing inside the (moving) segment? */
function insideAt(
  t: number, p0x: number, p0y: number, dpx: number, dpy: number,
  a0x: number, a0y: number, dax: number, day: number, e0x: number, e0y: number, dex: number, dey: number,
): boolean {
  if (!(t >= 0 && t <= 1)) return false;
  const ax = a0x + t * dax, ay = a0y + t * day;
  const ex = e0x + t * dex, ey = e0y + t * dey;
  const l2 = ex * ex + ey * ey;
  if (!(l2 > 0)) return false;
  const s = ((p0x + t * dpx - ax) * ex + (p0y + t * dpy - ay) * ey) / l2;
  return s >= -1e-9 && s <= 1 + 1e-9;
}

/**
 * Earliest t ∈ (0, 1] at which a point moving p0→p1 crosses the line of a
 * segment moving (a0, b0)→(a1, b1) inside the segment, or −1 for none.
 * The sign of cross(b0 − a0, p0 − a0) at t = 0 tells the side it came from.
 */
export function sweptPointSegment(
  p0x: number, p0y: number, p1x: number, p1y: number,
  a0x: number, a0y: number, b0x: number, b0y: number,
  a1x: number, a1y: number, b1x: number, b1y: number,
): number {
  const e0x = b0x - a0x, e0y = b0y - a0y;
  const dex = b1x - a1x - e0x, dey = b1y - a1y - e0y;
  const dax = a1x - a0x, day = a1y - a0y;
  const dpx = p1x - p0x, dpy = p1y - p0y;
  const w0x = p0x - a0x, w0y = p0y - a0y;
  const dwx = dpx - dax, dwy = dpy - day;
  const C = cross(e0x, e0y, w0x, w0y);
  const B = cross(e0x, e0y, dwx, dwy) + cross(dex, dey, w0x, w0y);
  const A = cross(dex, dey, dwx, dwy);
  // The sign of f(t) = A t² + B t + C changes at a crossing; f(0) = C.
  const C1 = A + B + C;
  if (C === 0 && B === 0 && A === 0) return -1;
  let t1 = -1, t2 = -1;
  const scale = Math.abs(A) + Math.abs(B) + Math.abs(C);
  if (Math.abs(A) <= 1e-14 * scale) {
    if (B !== 0) t1 = -C / B;
  } else {
    const disc = B * B - 4 * A * C;
    if (disc < 0) return -1;
    const sq = Math.sqrt(disc);
    const q = -0.5 * (B + (B >= 0 ? sq : -sq));
    const r1 = q / A;
    const r2 = q !== 0 ? C / q : r1;
    t1 = r1 < r2 ? r1 : r2;
    t2 = r1 < r2 ? r2 : r1;
  }
  // A start exactly on the line is not a crossing (t = 0 excluded); an end on the line is.
  if (t1 > 0 && insideAt(t1, p0x, p0y, dpx, dpy, a0x, a0y, dax, day, e0x, e0y, dex, dey)) return t1;
  if (t2 > 0 && insideAt(t2, p0x, p0y, dpx, dpy, a0x, a0y, dax, day, e0x, e0y, dex, dey)) return t2;
  // Rounding near t = 1: a sign change between the ends that the roots missed.
  if ((C > 0 && C1 < 0) || (C < 0 && C1 > 0)) {
    if (insideAt(1, p0x, p0y, dpx, dpy, a0x, a0y, dax, day, e0x, e0y, dex, dey)) return 1;
  }
  return -1;
}

/**
 * Earliest t ∈ [0, 1] at which a point moving q0→q1 (relative to a circle's
 * centre) reaches distance rho from it, coming from outside; −1 for none.
 */
export function sweptPointCircle(q0x: number, q0y: number, q1x: number, q1y: number, rho: number): number {
  const c = q0x * q0x + q0y * q0y - rho * rho;
  if (c < 0) return -1;
  const dx = q1x - q0x, dy = q1y - q0y;
  const a = dx * dx + dy * dy;
  if (a < EPS * EPS) return -1;
  const b = 2 * (q0x * dx + q0y * dy);
  if (b >= 0) return -1;
  const disc = b * b - 4 * a * c;
  if (disc < 0) return -1;
  const t = (-b - Math.sqrt(disc)) / (2 * a);
  return t >= 0 && t <= 1 ? t : -1;
}
