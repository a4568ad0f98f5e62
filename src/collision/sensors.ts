/**
 * The sensor pass (game mode, response stage, after the post-solve detection): overlaps of sensor
 * pairs (filter.ts: a sensor collider or a sensor body on either side, and the filter allows the
 * pair) at the end-of-step positions, appended to the step's pairs (pairs.ts) with `sensor = 1`, so
 * the events (events.ts) report them as begin / active / end with `sensor: true` and impulse 0.
 * Sensor pairs never reach the candidate search or the velocity filter: they never push.
 *
 * Overlap, for a particle of radius r: within r (+ the segment's or edge's radius) of a collider
 * segment or polygon edge or of another body's boundary edge, within r of a circle's rim or inside
 * it, or inside a polygon. Queried on the broad phase the detection just filled (items at both poses,
 * polygons included). Runs only when some particle or collider is a sensor.
 */
import type { StepContext } from '../solver/context';
import type { ContactBoundary } from './boundary';
import type { ItemBroadphase } from './broadphase';
import type { KinematicColliders } from './colliders';
import { PAIR_SENSOR, type ContactFilter } from './filter';
import { GS, GS_AL, GS_D, pointSegAt } from './geometry';
import type { ContactPairs } from './pairs';

/** Scratch: the contact point and normal of the last overlap test (x, y, nx, ny), then the test's radius (in). */
const OV = new Float64Array(5);
const OV_R = 4;

export function sensorPass(
  ctx: StepContext, bnd: ContactBoundary, filter: ContactFilter, cols: KinematicColliders, bp: ItemBroadphase, pairs: ContactPairs,
): void {
  if (!filter.anySensor) return;
  const x = ctx.x, n = bnd.n, nE = bnd.nE, nS = cols.nS, nC = cols.nC;
  if (nE + nS + nC + cols.nP === 0) return;
  const hash = bp.hash, hq = hash.q, cand = bp.cand;
  for (let i = 0; i < n; i++) {
    const r = bnd.radius[i]!;
    hq[0] = x[2 * i]! - r;
    hq[1] = x[2 * i + 1]! - r;
    hq[2] = x[2 * i]! + r;
    hq[3] = x[2 * i + 1]! + r;
    const cnt = hash.queryCellsQ(cand);
    const buf = cand.buf;
    for (let c = 0; c < cnt; c++) {
      const item = buf[c]!;
      let hit = false;
      if (item < nE) {
        if (bnd.surface[i] === 0) continue;
        const a = bnd.ea[item]!, b = bnd.eb[item]!;
        if (bnd.actor(i) === bnd.actor(a) || filter.bodies(i, a, bnd) !== PAIR_SENSOR) continue;
        OV[OV_R] = r + bnd.eRad[item]!;
        hit = overlapSegment(x, 2 * i, x, 2 * a, 2 * b);
      } else {
        const j = item - nE;
        if (filter.collider(i, cols.colliderOf(j)) !== PAIR_SENSOR) continue;
        OV[OV_R] = j < nS ? r + cols.segRad[j]! : r;
        if (j < nS) hit = overlapSegment(x, 2 * i, cols.seg, 8 * j + 4, 8 * j + 6);
        else if (j < nS + nC) hit = overlapCircle(x, 2 * i, cols.circ, 5 * (j - nS));
        else hit = insidePolygon(x, 2 * i, cols.polyWorld, cols.polyStartW[j - nS - nC]!, cols.polyCountW[j - nS - nC]!);
      }
      if (!hit) continue;
      pairs.add(i, item);
      const k = pairs.count - 1, o = 4 * k;
      pairs.hit[k] = 1;
      pairs.sensor[k] = 1;
      pairs.geo[o] = OV[0]!;
      pairs.geo[o + 1] = OV[1]!;
      pairs.geo[o + 2] = OV[2]!;
      pairs.geo[o + 3] = OV[3]!;
    }
  }
}

/** Point P[p] within OV[OV_R] of segment A[a]–A[b]; OV ← the closest point and the unit normal towards the point. */
function overlapSegment(P: Float64Array, p: number, A: Float64Array, a: number, b: number): boolean {
  pointSegAt(P, p, A, a, b);
  const d = GS[GS_D]!, al = GS[GS_AL]!, rr = OV[OV_R]!;
  if (!(d < rr)) return false;
  const cx = A[a]! + al * (A[b]! - A[a]!), cy = A[a + 1]! + al * (A[b + 1]! - A[a + 1]!);
  OV[0] = cx;
  OV[1] = cy;
  OV[2] = d > 1e-12 ? (P[p]! - cx) / d : 0;
  OV[3] = d > 1e-12 ? (P[p + 1]! - cy) / d : 1;
  return true;
}

/** Point P[p] within r = OV[OV_R] of the circle ci[o + 2], ci[o + 3] (end pose), radius ci[o + 4], or inside it. */
function overlapCircle(P: Float64Array, p: number, ci: Float64Array, o: number): boolean {
  const r = OV[OV_R]!;
  const dx = P[p]! - ci[o + 2]!, dy = P[p + 1]! - ci[o + 3]!, R = ci[o + 4]!;
  const l = Math.sqrt(dx * dx + dy * dy);
  if (!(l < R + r)) return false;
  const nx = l > 1e-12 ? dx / l : 0, ny = l > 1e-12 ? dy / l : 1;
  OV[0] = ci[o + 2]! + R * nx;
  OV[1] = ci[o + 3]! + R * ny;
  OV[2] = nx;
  OV[3] = ny;
  return true;
}

/** Point P[p] inside the polygon w[2 start ..] of cnt vertices (even-odd); OV ← the point itself, normal (0, 1). */
function insidePolygon(P: Float64Array, p: number, w: Float64Array, start: number, cnt: number): boolean {
  const px = P[p]!, py = P[p + 1]!;
  let inside = false;
  for (let j = 0, m = cnt - 1; j < cnt; m = j++) {
    const xj = w[2 * (start + j)]!, yj = w[2 * (start + j) + 1]!, xm = w[2 * (start + m)]!, ym = w[2 * (start + m) + 1]!;
    if ((yj > py) !== (ym > py) && px < ((xm - xj) * (py - yj)) / (ym - yj) + xj) inside = !inside;
  }
  if (!inside) return false;
  OV[0] = px;
  OV[1] = py;
  OV[2] = 0;
  OV[3] = 1;
  return true;
}
