import { InputError } from '../errors';

/**
 * Points of a straight rope from (x0, y0) to (x1, y1) split into `segments`
 * equal segments: segments+1 points, x0, y0, x1, y1, ... Endpoints are exact.
 * Connect consecutive points with springs (and consecutive triples with hinges
 * for bending stiffness).
 */
export function ropePoints(x0: number, y0: number, x1: number, y1: number, segments: number): Float64Array {
  if (!Number.isInteger(segments) || segments < 1 || segments > 1e7) throw new InputError(`ropePoints segments: expected an integer in [1, 1e7], got ${segments}`);
  for (const [v, n] of [[x0, 'x0'], [y0, 'y0'], [x1, 'x1'], [y1, 'y1']] as const) {
    if (!Number.isFinite(v)) throw new InputError(`ropePoints ${n}: expected a finite number, got ${v}`);
  }
  const out = new Float64Array((segments + 1) * 2);
  for (let i = 0; i <= segments; i++) {
    const t = i / segments;
    out[2 * i] = i === segments ? x1 : x0 + (x1 - x0) * t;
    out[2 * i + 1] = i === segments ? y1 : y0 + (y1 - y0) * t;
  }
  return out;
}
