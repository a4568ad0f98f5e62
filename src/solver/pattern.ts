/**
 * Sparsity patterns of symmetric FEM matrices.
 *
 * A SymPattern stores the LOWER triangle (diagonal included) in compressed
 * sparse column form: column j holds rows rowIdx[colPtr[j] .. colPtr[j+1]-1],
 * sorted ascending, and the first entry of every column is the diagonal (j, j).
 * Values live in a separate Float64Array of length nnz so that one pattern
 * (built once from the mesh topology) serves every step.
 */

export interface SymPattern {
  n: number;
  colPtr: Int32Array;
  rowIdx: Int32Array;
  nnz: number;
}

/** A group of elements that all have k nodes: element e uses nodes[e*k .. e*k+k-1]. */
export interface CliqueGroup {
  nodes: Int32Array;
  k: number;
}

/** Sort a[lo..hi) ascending in place (insertion sort: the segments are short). */
function sortSegment(a: Int32Array, lo: number, hi: number): void {
  for (let i = lo + 1; i < hi; i++) {
    const v = a[i];
    let j = i - 1;
    while (j >= lo && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
}

function checkGroup(nNodes: number, g: CliqueGroup, gi: number): void {
  if (!Number.isInteger(g.k) || g.k < 1) throw new RangeError(`buildPattern: clique group ${gi}: k must be a positive integer, got ${g.k}`);
  if (g.nodes.length % g.k !== 0) {
    throw new RangeError(`buildPattern: clique group ${gi}: nodes.length (${g.nodes.length}) is not a multiple of k (${g.k})`);
  }
  const nodes = g.nodes;
  for (let t = 0; t < nodes.length; t++) {
    const v = nodes[t];
    if (v < 0 || v >= nNodes) throw new RangeError(`buildPattern: clique group ${gi}: node index ${v} at position ${t} is outside [0, ${nNodes})`);
  }
}

/**
 * Lower-triangular NODE graph (diagonal included): column J holds the nodes
 * I >= J that share an element with J, sorted, J first.
 */
export function buildNodeGraph(nNodes: number, cliques: CliqueGroup[]): { colPtr: Int32Array; rowIdx: Int32Array } {
  cliques.forEach((g, gi) => checkGroup(nNodes, g, gi));
  // Upper bound on entries per column: the diagonal plus every element pair.
  const cnt = new Int32Array(nNodes + 1);
  for (let J = 0; J < nNodes; J++) cnt[J] = 1;
  for (const g of cliques) {
    const { nodes, k } = g;
    const ne = nodes.length / k;
    for (let e = 0; e < ne; e++) {
      const b = e * k;
      for (let a = 0; a < k; a++) {
        for (let c = a + 1; c < k; c++) {
          const u = nodes[b + a];
          const v = nodes[b + c];
          if (u !== v) cnt[u < v ? u : v]++;
        }
      }
    }
  }
  const ptr = new Int32Array(nNodes + 1);
  for (let J = 0; J < nNodes; J++) ptr[J + 1] = ptr[J] + cnt[J];
  const raw = new Int32Array(ptr[nNodes]);
  const fill = ptr.slice(0, nNodes);
  for (let J = 0; J < nNodes; J++) raw[fill[J]++] = J;
  for (const g of cliques) {
    const { nodes, k } = g;
    const ne = nodes.length / k;
    for (let e = 0; e < ne; e++) {
      const b = e * k;
      for (let a = 0; a < k; a++) {
        for (let c = a + 1; c < k; c++) {
          const u = nodes[b + a];
          const v = nodes[b + c];
          if (u === v) continue;
          if (u < v) raw[fill[u]++] = v;
          else raw[fill[v]++] = u;
        }
      }
    }
  }
  // Sort and deduplicate each column (the diagonal J is the smallest row).
  const colPtr = new Int32Array(nNodes + 1);
  let q = 0;
  for (let J = 0; J < nNodes; J++) {
    const lo = ptr[J];
    const hi = ptr[J + 1];
    sortSegment(raw, lo, hi);
    colPtr[J] = q;
    let prev = -1;
    for (let t = lo; t < hi; t++) {
      const v = raw[t];
      if (v !== prev) {
        raw[q++] = v;
        prev = v;
      }
    }
  }
  colPtr[nNodes] = q;
  return { colPtr, rowIdx: raw.slice(0, q) };
}

/** Expand a lower node graph into the lower dof pattern (dofs of a node consecutive). */
export function expandNodeGraph(nodeColPtr: Int32Array, nodeRowIdx: Int32Array, dofsPerNode: number): SymPattern {
  const d = dofsPerNode;
  const nNodes = nodeColPtr.length - 1;
  const n = nNodes * d;
  const colPtr = new Int32Array(n + 1);
  let nnz = 0;
  for (let J = 0; J < nNodes; J++) {
    const off = nodeColPtr[J + 1] - nodeColPtr[J] - 1; // neighbours below J
    for (let c = 0; c < d; c++) {
      colPtr[J * d + c] = nnz;
      nnz += d - c + d * off;
    }
  }
  colPtr[n] = nnz;
  const rowIdx = new Int32Array(nnz);
  for (let J = 0; J < nNodes; J++) {
    const p0 = nodeColPtr[J];
    const p1 = nodeColPtr[J + 1];
    for (let c = 0; c < d; c++) {
      let q = colPtr[J * d + c];
      for (let r = c; r < d; r++) rowIdx[q++] = J * d + r;
      for (let p = p0 + 1; p < p1; p++) {
        const I = nodeRowIdx[p] * d;
        for (let r = 0; r < d; r++) rowIdx[q++] = I + r;
      }
    }
  }
  return { n, colPtr, rowIdx, nnz };
}

/**
 * Pattern of sum over elements of (element clique x dofsPerNode)^2 blocks,
 * plus a diagonal entry for every dof (isolated nodes included).
 */
export function buildPattern(nNodes: number, dofsPerNode: number, cliques: CliqueGroup[]): SymPattern {
  if (!Number.isInteger(nNodes) || nNodes < 0) throw new RangeError(`buildPattern: nNodes must be a non-negative integer, got ${nNodes}`);
  if (!Number.isInteger(dofsPerNode) || dofsPerNode < 1) {
    throw new RangeError(`buildPattern: dofsPerNode must be a positive integer, got ${dofsPerNode}`);
  }
  const g = buildNodeGraph(nNodes, cliques);
  return expandNodeGraph(g.colPtr, g.rowIdx, dofsPerNode);
}

/** values index of entry (i, j), i >= j, or -1 if it is not in the pattern (binary search). */
export function findSlot(p: SymPattern, i: number, j: number): number {
  let lo = p.colPtr[j];
  let hi = p.colPtr[j + 1] - 1;
  const rows = p.rowIdx;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = rows[mid];
    if (r === i) return mid;
    if (r < i) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** findSlot(p, j, j): the diagonal entry leads its column of the lower triangle when it is there. */
export function findDiagonalSlot(p: SymPattern, j: number): number {
  const s = p.colPtr[j]!;
  if (s < p.colPtr[j + 1]! && p.rowIdx[s] === j) return s;
  return findSlot(p, j, j);
}

/**
 * findSlot(p, i, j) given the slot s of entry (i − 1, j) (−1 when it is missing): rows ascend within a
 * column, so (i, j) is the next slot when it is in the pattern at all; checked, with the binary search
 * as the fallback, so the result is findSlot's. Two dofs of one node are adjacent rows: the second
 * dof's slot costs one comparison.
 */
export function findSlotAfter(p: SymPattern, s: number, i: number, j: number): number {
  if (s >= 0 && s + 1 < p.colPtr[j + 1]! && p.rowIdx[s + 1] === i) return s + 1;
  return findSlot(p, i, j);
}

/**
 * Scatter map for one clique group: for element e, local dofs r, c (local dof
 * r = a*d + comp for element node a), entry [e*(kd)^2 + r*kd + c] is the values
 * index of global entry (row(r), col(c)) when row(r) >= col(c), else -1.
 * Accumulating values[s] += Ke[r*kd+c] for every s >= 0 assembles the lower
 * triangle exactly (also when an element repeats a node).
 */
export function buildScatter(p: SymPattern, nodes: Int32Array, k: number, dofsPerNode: number): Int32Array {
  const d = dofsPerNode;
  const kd = k * d;
  const ne = nodes.length / k;
  if (!Number.isInteger(ne)) throw new RangeError(`buildScatter: nodes.length (${nodes.length}) is not a multiple of k (${k})`);
  const out = new Int32Array(ne * kd * kd);
  if (d === 2) {
    scatterByNodes(p, nodes, k, out);
    return out;
  }
  for (let e = 0; e < ne; e++) {
    const base = e * kd * kd;
    for (let r = 0; r < kd; r++) {
      const R = nodes[e * k + ((r / d) | 0)] * d + (r % d);
      for (let c = 0; c < kd; c++) {
        const C = nodes[e * k + ((c / d) | 0)] * d + (c % d);
        let s = -1;
        if (R >= C) {
          if (C < 0 || R >= p.n) throw new RangeError(`buildScatter: element ${e} references dof ${R} outside the pattern`);
          s = findSlot(p, R, C);
          if (s < 0) throw new Error(`buildScatter: entry (${R}, ${C}) of element ${e} is not in the pattern`);
        }
        out[base + r * kd + c] = s;
      }
    }
  }
  return out;
}

/**
 * buildScatter for two dofs per node, by node blocks: one search per pair of element nodes finds entry (2R, 2C), and
 * the block's other entries follow from the pattern's layout (rows ascend, so (2R + 1, 2C) is the next slot, and column
 * 2C + 1 holds column 2C's rows but 2C, so (2R, 2C + 1) lies one column length − 1 further). Every derived slot is
 * checked against the pattern's row, with findSlot as the fallback, so the map is findSlot's entry for entry.
 */
function scatterByNodes(p: SymPattern, nodes: Int32Array, k: number, out: Int32Array): void {
  const kd = 2 * k, ne = nodes.length / k, n = p.n, colPtr = p.colPtr;
  for (let e = 0; e < ne; e++) {
    const base = e * kd * kd;
    for (let a = 0; a < k; a++) {
      const R = 2 * nodes[e * k + a]!;
      for (let b = 0; b < k; b++) {
        const C = 2 * nodes[e * k + b]!;
        const o = base + 2 * a * kd + 2 * b; // local entry (2a, 2b)
        if (R < C) {
          out[o] = out[o + 1] = out[o + kd] = out[o + kd + 1] = -1; // the upper triangle
          continue;
        }
        if (C < 0 || R >= n) throw new RangeError(`buildScatter: element ${e} references dof ${C < 0 ? C : R} outside the pattern`);
        const s = findSlot(p, R, C);
        if (s < 0) throw new Error(`buildScatter: entry (${R}, ${C}) of element ${e} is not in the pattern`);
        out[o] = s;
        out[o + kd] = slotAt(p, s + 1, R + 1, C); // (2R + 1, 2C)
        if (R === C) {
          out[o + 1] = -1; // (2R, 2R + 1): upper
          out[o + kd + 1] = slotAt(p, colPtr[C + 1]!, R + 1, C + 1); // the diagonal leads its column
        } else {
          const s1 = s + colPtr[C + 1]! - colPtr[C]! - 1; // (2R, 2C + 1)
          out[o + 1] = slotAt(p, s1, R, C + 1);
          out[o + kd + 1] = slotAt(p, s1 + 1, R + 1, C + 1);
        }
      }
    }
  }
}

/** s when it holds entry (i, j) of the pattern, else findSlot(p, i, j); throws, as buildScatter does, when the pattern lacks the entry. */
function slotAt(p: SymPattern, s: number, i: number, j: number): number {
  if (s >= p.colPtr[j]! && s < p.colPtr[j + 1]! && p.rowIdx[s] === i) return s;
  const f = findSlot(p, i, j);
  if (f < 0) throw new Error(`buildScatter: entry (${i}, ${j}) is not in the pattern`);
  return f;
}

/** values index of every diagonal entry (i, i): the first entry of column i. */
export function diagonalSlots(p: SymPattern): Int32Array {
  return p.colPtr.slice(0, p.n);
}

/** y = A x for the symmetric matrix whose lower triangle is (p, values). x and y must not alias. */
export function symMultiply(p: SymPattern, values: Float64Array, x: Float64Array, y: Float64Array): void {
  const n = p.n;
  const colPtr = p.colPtr;
  const rowIdx = p.rowIdx;
  y.fill(0, 0, n);
  for (let j = 0; j < n; j++) {
    const p0 = colPtr[j];
    const p1 = colPtr[j + 1];
    const xj = x[j];
    let s = values[p0] * xj; // diagonal
    for (let q = p0 + 1; q < p1; q++) {
      const i = rowIdx[q];
      const v = values[q];
      y[i] += v * xj;
      s += v * x[i];
    }
    y[j] += s;
  }
}

/** Infinity norm (max row sum of |a_ij|) of the full symmetric matrix. work has length >= n. */
export function symNormInf(p: SymPattern, values: Float64Array, work: Float64Array): number {
  const n = p.n;
  const colPtr = p.colPtr;
  const rowIdx = p.rowIdx;
  work.fill(0, 0, n);
  for (let j = 0; j < n; j++) {
    const p0 = colPtr[j];
    const p1 = colPtr[j + 1];
    let s = Math.abs(values[p0]);
    for (let q = p0 + 1; q < p1; q++) {
      const a = Math.abs(values[q]);
      work[rowIdx[q]] += a;
      s += a;
    }
    work[j] += s;
  }
  let m = 0;
  for (let i = 0; i < n; i++) if (work[i] > m) m = work[i];
  return m;
}
