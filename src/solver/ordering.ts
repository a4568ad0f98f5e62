/**
 * Orderings for the sparse factorization: the node graph of a dof pattern (FEM matrices couple
 * all dofs of two nodes at once, so the ordering works on nodes, d² times less work, and keeps
 * each node's 2×2 block together), block-size detection, the fill-reducing ordering and
 * permutation inversion. Fully deterministic.
 */
import type { SymPattern } from './pattern.js';
import { minimumDegreeOrder } from './mindegree.js';

/**
 * Compress a dof pattern to its node graph (full adjacency, no self loops):
 * node I ~ node J when any dof of I couples to any dof of J.
 */
export function patternNodeGraph(p: SymPattern, dofsPerNode: number): { nNodes: number; adjPtr: Int32Array; adjIdx: Int32Array } {
  const d = dofsPerNode;
  const nNodes = (p.n / d) | 0;
  const colPtr = p.colPtr;
  const rowIdx = p.rowIdx;
  const mark = new Int32Array(nNodes).fill(-1);
  const deg = new Int32Array(nNodes + 1);
  for (let pass = 0; pass < 2; pass++) {
    if (pass === 1) {
      // prefix sums; deg[] becomes the fill pointer
      let s = 0;
      for (let J = 0; J < nNodes; J++) {
        const c = deg[J];
        deg[J] = s;
        s += c;
      }
      deg[nNodes] = s;
      mark.fill(-1);
    }
    const adjPtr = pass === 1 ? deg.slice() : deg;
    const adjIdx = pass === 1 ? new Int32Array(deg[nNodes]) : new Int32Array(0);
    for (let J = 0; J < nNodes; J++) {
      for (let j = J * d; j < J * d + d; j++) {
        for (let q = colPtr[j]; q < colPtr[j + 1]; q++) {
          const I = (rowIdx[q] / d) | 0;
          if (I === J || mark[I] === J) continue;
          mark[I] = J;
          if (pass === 0) {
            deg[I]++;
            deg[J]++;
          } else {
            adjIdx[deg[I]++] = J;
            adjIdx[deg[J]++] = I;
          }
        }
      }
    }
    if (pass === 1) return { nNodes, adjPtr, adjIdx };
  }
  throw new Error('unreachable');
}

/** Largest block size d in {3, 2} such that the pattern is exactly the d-expansion of a node graph, else 1. */
export function detectBlockSize(p: SymPattern): number {
  for (const d of [3, 2]) {
    if (p.n % d !== 0 || p.n === 0) continue;
    const g = patternNodeGraph(p, d);
    // exact expansion: d(d+1)/2 per node diagonal block plus d^2 per lower edge
    const edges = g.adjPtr[g.nNodes] / 2;
    if (g.nNodes * ((d * (d + 1)) / 2) + edges * d * d === p.nnz) return d;
  }
  return 1;
}

/**
 * Fill-reducing ordering of a symmetric dof pattern: minimum degree (src/solver/mindegree.ts) on
 * the node graph (dofsPerNode consecutive dofs per node; detected when omitted), expanded to dofs
 * with each node's dofs kept consecutive. Returns perm (new -> old), length p.n.
 */
export function fillReducingOrder(p: SymPattern, dofsPerNode?: number): Int32Array {
  const d = dofsPerNode ?? detectBlockSize(p);
  if (!Number.isInteger(d) || d < 1 || p.n % d !== 0) {
    throw new RangeError(`fillReducingOrder: dofsPerNode ${d} does not divide n = ${p.n}`);
  }
  const g = patternNodeGraph(p, d);
  const nodePerm = minimumDegreeOrder(g.nNodes, g.adjPtr, g.adjIdx);
  if (d === 1) return nodePerm;
  const perm = new Int32Array(p.n);
  for (let K = 0; K < g.nNodes; K++) {
    const J = nodePerm[K];
    for (let c = 0; c < d; c++) perm[K * d + c] = J * d + c;
  }
  return perm;
}

/** Inverse permutation: pinv[perm[k]] = k. Throws if perm is not a permutation of 0..n-1. */
export function invertPermutation(perm: Int32Array): Int32Array {
  const n = perm.length;
  const pinv = new Int32Array(n).fill(-1);
  for (let k = 0; k < n; k++) {
    const i = perm[k];
    if (i < 0 || i >= n || pinv[i] !== -1) throw new RangeError(`invalid permutation: entry ${k} = ${i}`);
    pinv[i] = k;
  }
  return pinv;
}
