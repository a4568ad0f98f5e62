import { InputError } from '../errors';
import type { MeshData, SheetData } from './types';

/** Most vertices of a grid mesh (10 M: 160 MB of coordinates; a bigger body is no game body). */
export const MAX_GRID_VERTICES = 10_000_000;

function requireCells(n: number, name: string): void {
  if (!Number.isInteger(n) || n < 1) throw new InputError(`${name}: expected an integer >= 1, got ${n}`);
}
function requireGrid(nx: number, ny: number, name: string): void {
  if ((nx + 1) * (ny + 1) > MAX_GRID_VERTICES) {
    throw new InputError(`${name}: expected at most ${MAX_GRID_VERTICES} vertices ((nx + 1)(ny + 1)), got nx = ${nx}, ny = ${ny}`);
  }
}
function requireSize(v: number, name: string): void {
  if (!(v > 0) || !Number.isFinite(v)) throw new InputError(`${name}: expected a positive finite size, got ${v}`);
}

/**
 * Regular grid of (nx+1) x (ny+1) vertices over [x0, x0+w] x [y0, y0+h], two
 * triangles per cell with alternating diagonals (a "criss-cross" pattern that
 * avoids the directional stiffness bias of all-same diagonals). Row-major
 * vertex order starting bottom-left: index = j*(nx+1) + i. Triangles are CCW
 * in y-up coordinates.
 */
function grid(x0: number, y0: number, w: number, h: number, nx: number, ny: number): MeshData {
  const cols = nx + 1;
  const positions = new Float64Array(cols * (ny + 1) * 2);
  for (let j = 0; j <= ny; j++) {
    // Exact endpoints: j === ny gives y0 + h exactly.
    const y = j === ny ? y0 + h : y0 + (h * j) / ny;
    for (let i = 0; i <= nx; i++) {
      const x = i === nx ? x0 + w : x0 + (w * i) / nx;
      const k = (j * cols + i) * 2;
      positions[k] = x;
      positions[k + 1] = y;
    }
  }
  const triangles = new Uint32Array(nx * ny * 6);
  let t = 0;
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      const a = j * cols + i; // bottom-left
      const b = a + 1; // bottom-right
      const c = a + cols + 1; // top-right
      const d = a + cols; // top-left
      if ((i + j) % 2 === 0) {
        // diagonal a-c
        triangles[t++] = a; triangles[t++] = b; triangles[t++] = c;
        triangles[t++] = a; triangles[t++] = c; triangles[t++] = d;
      } else {
        // diagonal b-d
        triangles[t++] = a; triangles[t++] = b; triangles[t++] = d;
        triangles[t++] = b; triangles[t++] = c; triangles[t++] = d;
      }
    }
  }
  return { positions, triangles };
}

/**
 * A w x h box centred on the origin, nx x ny cells (2 triangles each).
 * Vertex index = j*(nx+1) + i, i along x, j along y, starting bottom-left.
 */
export function meshBox(w: number, h: number, nx: number, ny: number): MeshData {
  requireSize(w, 'meshBox w');
  requireSize(h, 'meshBox h');
  requireCells(nx, 'meshBox nx');
  requireCells(ny, 'meshBox ny');
  requireGrid(nx, ny, 'meshBox');
  return grid(-w / 2, -h / 2, w, h, nx, ny);
}

/** Unique undirected edges of a triangle list, sorted by (a, b), a < b. */
export function uniqueEdges(triangles: Uint32Array): Uint32Array {
  const keys = new Set<number>();
  const list: number[] = [];
  let nv = 0;
  for (let i = 0; i < triangles.length; i++) nv = Math.max(nv, triangles[i]! + 1);
  for (let t = 0; t < triangles.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const u = triangles[t + e]!;
      const v = triangles[t + ((e + 1) % 3)]!;
      const a = u < v ? u : v;
      const b = u < v ? v : u;
      const key = a * nv + b;
      if (!keys.has(key)) {
        keys.add(key);
        list.push(key);
      }
    }
  }
  list.sort((p, q) => p - q);
  const out = new Uint32Array(list.length * 2);
  for (let i = 0; i < list.length; i++) {
    out[2 * i] = Math.floor(list[i]! / nv);
    out[2 * i + 1] = list[i]! % nv;
  }
  return out;
}

/**
 * A hanging sheet (cloth) of w x h metres with its top edge on y = 0 and x in
 * [-w/2, w/2] (so it hangs into y < 0), nx x ny cells. Vertex index =
 * j*(nx+1) + i with j = 0 the bottom row. Also returns unique edges (for
 * spring networks) and the top row indices (to pin).
 */
export function meshSheet(w: number, h: number, nx: number, ny: number): SheetData {
  requireSize(w, 'meshSheet w');
  requireSize(h, 'meshSheet h');
  requireCells(nx, 'meshSheet nx');
  requireCells(ny, 'meshSheet ny');
  requireGrid(nx, ny, 'meshSheet');
  const m = grid(-w / 2, -h, w, h, nx, ny);
  const top = new Uint32Array(nx + 1);
  for (let i = 0; i <= nx; i++) top[i] = ny * (nx + 1) + i;
  return { ...m, edges: uniqueEdges(m.triangles), top };
}
