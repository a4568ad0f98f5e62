import type { MeshData } from './types';

export interface MeshReport {
  vertexCount: number;
  triangleCount: number;
  /** Sum of signed triangle areas (m^2). */
  area: number;
  minArea: number;
  /** Smallest interior angle over all triangles, in degrees. */
  minAngleDeg: number;
  /** Triangles with signed area <= 0 (clockwise or degenerate). */
  nonPositive: number;
  /** Directed edges used by two triangles (orientation conflicts) or undirected edges used by 3+. */
  badEdges: number;
  /** Undirected edges used by exactly one triangle, as pairs a, b in the direction the triangle uses them. */
  boundaryEdges: number[];
  /** Vertices used by no triangle. */
  unusedVertices: number;
}

/** Checks a mesh for orientation, degeneracy and manifoldness; used by tests and debug tools. */
export function meshReport(mesh: MeshData): MeshReport {
  const { positions: p, triangles: t } = mesh;
  const nv = p.length / 2;
  let area = 0, minArea = Infinity, minAngle = 180, nonPositive = 0;
  const used = new Uint8Array(nv);
  const directed = new Map<number, number>();
  const undirected = new Map<number, number>();
  for (let k = 0; k < t.length; k += 3) {
    const a = t[k]!, b = t[k + 1]!, c = t[k + 2]!;
    used[a] = used[b] = used[c] = 1;
    const ax = p[2 * a]!, ay = p[2 * a + 1]!, bx = p[2 * b]!, by = p[2 * b + 1]!, cx = p[2 * c]!, cy = p[2 * c + 1]!;
    const ar = ((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)) / 2;
    area += ar;
    if (ar < minArea) minArea = ar;
    if (ar <= 0) nonPositive++;
    const l2 = [(bx - cx) ** 2 + (by - cy) ** 2, (cx - ax) ** 2 + (cy - ay) ** 2, (ax - bx) ** 2 + (ay - by) ** 2];
    for (let i = 0; i < 3; i++) {
      const opp = l2[i]!, s1 = l2[(i + 1) % 3]!, s2 = l2[(i + 2) % 3]!;
      const cos = (s1 + s2 - opp) / (2 * Math.sqrt(s1 * s2));
      const ang = (Math.acos(Math.max(-1, Math.min(1, cos))) * 180) / Math.PI;
      if (ang < minAngle) minAngle = ang;
    }
    for (const [u, v] of [[a, b], [b, c], [c, a]] as const) {
      const dk = u * nv + v;
      directed.set(dk, (directed.get(dk) ?? 0) + 1);
      const uk = Math.min(u, v) * nv + Math.max(u, v);
      undirected.set(uk, (undirected.get(uk) ?? 0) + 1);
    }
  }
  let badEdges = 0;
  for (const c of directed.values()) if (c > 1) badEdges++;
  for (const c of undirected.values()) if (c > 2) badEdges++;
  const boundaryEdges: number[] = [];
  for (const [dk] of directed) {
    const u = Math.floor(dk / nv), v = dk % nv;
    if (undirected.get(Math.min(u, v) * nv + Math.max(u, v)) === 1) boundaryEdges.push(u, v);
  }
  let unused = 0;
  for (let i = 0; i < nv; i++) if (!used[i]) unused++;
  return {
    vertexCount: nv,
    triangleCount: t.length / 3,
    area,
    minArea: t.length > 0 ? minArea : 0,
    minAngleDeg: minAngle,
    nonPositive,
    badEdges,
    boundaryEdges,
    unusedVertices: unused,
  };
}
