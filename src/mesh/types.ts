/**
 * Plain mesh data, in metres, y-up, as the meshing helpers return it.
 * positions: x0, y0, x1, y1, ...; triangles: a0, b0, c0, a1, ... (counter-clockwise).
 */
export interface MeshData {
  positions: Float64Array;
  triangles: Uint32Array;
}

/** A sheet (cloth): a grid mesh plus its unique edges and the indices of its top row. */
export interface SheetData extends MeshData {
  /** Unique undirected edges (a < b), pairs: a0, b0, a1, b1, ... */
  edges: Uint32Array;
  /** Vertex indices of the top row, left to right (handy to pin a cloth). */
  top: Uint32Array;
}
