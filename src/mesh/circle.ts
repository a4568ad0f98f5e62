import { InputError } from '../errors';
import { sinCosTurn } from './trig';
import type { MeshData } from './types';

/**
 * A disc of radius r centred on the origin: a centre vertex plus `rings`
 * concentric rings, ring k (1..rings) at radius r*k/rings with 6k vertices.
 * Triangles are near-equilateral (the hexagonal pattern bent round).
 * Vertex 0 is the centre; ring k starts at index 1 + 3k(k-1). The outer ring
 * (the boundary, CCW) is the last 6*rings vertices.
 */
export function meshCircle(r: number, rings: number): MeshData {
  if (!(r > 0) || !Number.isFinite(r)) throw new InputError(`meshCircle r: expected a positive finite radius, got ${r}`);
  if (!Number.isInteger(rings) || rings < 1 || rings > 1800) throw new InputError(`meshCircle rings: expected an integer in [1, 1800] (at most ~10 M vertices), got ${rings}`);
  const nv = 1 + 3 * rings * (rings + 1);
  const positions = new Float64Array(nv * 2);
  const sc: [number, number] = [0, 0];
  const start = (k: number): number => (k === 0 ? 0 : 1 + 3 * k * (k - 1));
  for (let k = 1; k <= rings; k++) {
    const rk = k === rings ? r : (r * k) / rings;
    const n = 6 * k;
    const s0 = start(k);
    for (let i = 0; i < n; i++) {
      sinCosTurn(i, n, sc);
      positions[(s0 + i) * 2] = rk * sc[1];
      positions[(s0 + i) * 2 + 1] = rk * sc[0];
    }
  }
  // Ring k-1 has 6(k-1) vertices, ring k has 6k: 6(2k-1) triangles in between.
  const nt = 6 * rings * rings;
  const triangles = new Uint32Array(nt * 3);
  let t = 0;
  for (let k = 1; k <= rings; k++) {
    const inner = start(k - 1);
    const outer = start(k);
    const nIn = k === 1 ? 1 : 6 * (k - 1);
    const nOut = 6 * k;
    // Merge-walk both rings by angle: i over inner, o over outer. Angle of outer
    // vertex o is o/nOut of a turn, inner vertex i is i/nIn. Compare o*nIn vs i*nOut.
    const innerSteps = k === 1 ? 0 : nIn; // the centre is a single vertex: a fan
    let i = 0;
    let o = 0;
    while (i < innerSteps || o < nOut) {
      const ia = inner + (nIn === 1 ? 0 : i % nIn);
      const ib = inner + (nIn === 1 ? 0 : (i + 1) % nIn);
      const oa = outer + (o % nOut);
      const ob = outer + ((o + 1) % nOut);
      // Advance along the ring whose next vertex comes first in angle.
      const advanceOuter = i >= innerSteps || (o < nOut && (o + 1) * nIn <= (i + 1) * nOut);
      if (advanceOuter) {
        triangles[t++] = ia; triangles[t++] = oa; triangles[t++] = ob;
        o++;
      } else {
        triangles[t++] = ia; triangles[t++] = oa; triangles[t++] = ib;
        i++;
      }
    }
  }
  if (t !== nt * 3) throw new Error(`meshCircle: internal error, ${t / 3} triangles instead of ${nt}`);
  return { positions, triangles };
}
