import { InputError } from '../errors';
import type { MeshData } from './types';

/**
 * Uniform refinement: each triangle is split into d² triangles on its
 * barycentric lattice; vertices on shared edges are merged (keyed by the
 * edge's endpoint pair and lattice step), so the result is a conforming mesh
 * whose vertices all lie inside the original triangles (for exact skinning).
 */
export function refineMesh(mesh: MeshData, d: number): MeshData {
  if (!Number.isInteger(d) || d < 1) throw new InputError(`refineMesh: d must be an integer >= 1, got ${d}`);
  const P = mesh.positions, T = mesh.triangles;
  const nv = P.length / 2;
  if (d === 1) return { positions: Float64Array.from(P), triangles: Uint32Array.from(T) };
  const pos: number[] = Array.from(P);
  const edgeVerts = new Map<string, number[]>();
  const tris: number[] = [];
  const nt = T.length / 3;
  const edge = (a: number, b: number): number[] => {
    const key = a < b ? `${a},${b}` : `${b},${a}`;
    let v = edgeVerts.get(key);
    if (!v) {
      const lo = a < b ? a : b, hi = a < b ? b : a;
      v = [];
      for (let k = 1; k < d; k++) {
        const t = k / d;
        v.push(pos.length / 2);
        pos.push(P[2 * lo]! + t * (P[2 * hi]! - P[2 * lo]!), P[2 * lo + 1]! + t * (P[2 * hi + 1]! - P[2 * lo + 1]!));
      }
      edgeVerts.set(key, v);
    }
    // k-th point from a towards b
    return a < b ? v : v.slice().reverse();
  };
  for (let t = 0; t < nt; t++) {
    const a = T[3 * t]!, b = T[3 * t + 1]!, c = T[3 * t + 2]!;
    const ab = edge(a, b), ac = edge(a, c), bc = edge(b, c);
    // grid[i][j]: point a + i/d (b − a) + j/d (c − a), i + j <= d
    const grid: number[][] = [];
    for (let i = 0; i <= d; i++) {
      grid.push([]);
      for (let j = 0; i + j <= d; j++) {
        let id: number;
        if (i === 0 && j === 0) id = a;
        else if (i === d) id = b;
        else if (j === d) id = c;
        else if (j === 0) id = ab[i - 1]!;
        else if (i === 0) id = ac[j - 1]!;
        else if (i + j === d) id = bc[j - 1]!;
        else {
          id = pos.length / 2;
          pos.push(
            P[2 * a]! + (i / d) * (P[2 * b]! - P[2 * a]!) + (j / d) * (P[2 * c]! - P[2 * a]!),
            P[2 * a + 1]! + (i / d) * (P[2 * b + 1]! - P[2 * a + 1]!) + (j / d) * (P[2 * c + 1]! - P[2 * a + 1]!),
          );
        }
        grid[i]!.push(id);
      }
    }
    for (let i = 0; i < d; i++) {
      for (let j = 0; i + j < d; j++) {
        tris.push(grid[i]![j]!, grid[i + 1]![j]!, grid[i]![j + 1]!);
        if (i + j + 1 < d) tris.push(grid[i + 1]![j]!, grid[i + 1]![j + 1]!, grid[i]![j + 1]!);
      }
    }
  }
  void nv;
  return { positions: Float64Array.from(pos), triangles: Uint32Array.from(tris) };
}
