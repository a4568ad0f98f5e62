/** Minimum-degree ordering (src/solver/mindegree.ts) on plain graphs. */
import { describe, expect, it } from 'vitest';
import { minimumDegreeOrder } from '../src/solver/mindegree';
import { Rng } from '../src/math';

/** Full adjacency lists (no self loops) from an edge list. */
function graph(n: number, edges: [number, number][]): { adjPtr: Int32Array; adjIdx: Int32Array } {
  const nb: Set<number>[] = Array.from({ length: n }, () => new Set<number>());
  for (const [a, b] of edges) {
    if (a === b) continue;
    nb[a]!.add(b);
    nb[b]!.add(a);
  }
  const adjPtr = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) adjPtr[i + 1] = adjPtr[i]! + nb[i]!.size;
  const adjIdx = new Int32Array(adjPtr[n]!);
  for (let i = 0; i < n; i++) adjIdx.set([...nb[i]!].sort((x, y) => x - y), adjPtr[i]!);
  return { adjPtr, adjIdx };
}

/** Off-diagonal entries of the Cholesky factor for elimination order perm (explicit elimination graph). */
function fill(n: number, edges: [number, number][], perm: Int32Array): number {
  const nb: Set<number>[] = Array.from({ length: n }, () => new Set<number>());
  for (const [a, b] of edges) if (a !== b) { nb[a]!.add(b); nb[b]!.add(a); }
  const gone = new Uint8Array(n);
  let nnz = 0;
  for (const p of perm) {
    const live = [...nb[p]!].filter((j) => gone[j] === 0);
    nnz += live.length;
    for (const i of live) for (const j of live) if (i !== j) nb[i]!.add(j);
    gone[p] = 1;
  }
  return nnz;
}

/** Exact minimum degree by explicit elimination (ties: smallest index): a reference for small graphs. */
function exactMinDegree(n: number, edges: [number, number][]): Int32Array {
  const nb: Set<number>[] = Array.from({ length: n }, () => new Set<number>());
  for (const [a, b] of edges) if (a !== b) { nb[a]!.add(b); nb[b]!.add(a); }
  const gone = new Uint8Array(n);
  const perm = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    let p = -1, pd = 0;
    for (let i = 0; i < n; i++) {
      if (gone[i] === 1) continue;
      let d = 0;
      for (const j of nb[i]!) if (gone[j] === 0) d++;
      if (p < 0 || d < pd) { p = i; pd = d; }
    }
    const live = [...nb[p]!].filter((j) => gone[j] === 0);
    for (const i of live) for (const j of live) if (i !== j) nb[i]!.add(j);
    gone[p] = 1;
    perm[k] = p;
  }
  return perm;
}

function isPermutation(perm: Int32Array, n: number): boolean {
  return perm.length === n && Array.from(perm).sort((a, b) => a - b).every((v, i) => v === i);
}

function gridEdges(nx: number, ny: number, diagonals: boolean): [number, number][] {
  const e: [number, number][] = [];
  const id = (i: number, j: number): number => j * (nx + 1) + i;
  for (let j = 0; j <= ny; j++) {
    for (let i = 0; i <= nx; i++) {
      if (i < nx) e.push([id(i, j), id(i + 1, j)]);
      if (j < ny) e.push([id(i, j), id(i, j + 1)]);
      if (diagonals && i < nx && j < ny) e.push([id(i, j), id(i + 1, j + 1)]);
    }
  }
  return e;
}

describe('minimumDegreeOrder', () => {
  it('orders a tree without fill (leaves first)', () => {
    const rng = new Rng(7);
    for (let trial = 0; trial < 20; trial++) {
      const n = 2 + Math.floor(rng.next() * 60);
      const edges: [number, number][] = [];
      for (let i = 1; i < n; i++) edges.push([i, Math.floor(rng.next() * i)]);
      const { adjPtr, adjIdx } = graph(n, edges);
      const perm = minimumDegreeOrder(n, adjPtr, adjIdx);
      expect(isPermutation(perm, n)).toBe(true);
      expect(fill(n, edges, perm)).toBe(n - 1); // exactly the tree's edges: no fill
    }
  });

  it('is a permutation on empty, single-node, disconnected and complete graphs', () => {
    expect(minimumDegreeOrder(0, new Int32Array(1), new Int32Array(0)).length).toBe(0);
    const one = graph(1, []);
    expect(Array.from(minimumDegreeOrder(1, one.adjPtr, one.adjIdx))).toEqual([0]);
    const iso = graph(4, []);
    expect(isPermutation(minimumDegreeOrder(4, iso.adjPtr, iso.adjIdx), 4)).toBe(true);
    const two: [number, number][] = [[0, 1], [1, 2], [3, 4], [4, 5], [5, 3]];
    const g2 = graph(6, two);
    expect(isPermutation(minimumDegreeOrder(6, g2.adjPtr, g2.adjIdx), 6)).toBe(true);
    const k6: [number, number][] = [];
    for (let i = 0; i < 6; i++) for (let j = i + 1; j < 6; j++) k6.push([i, j]);
    const g6 = graph(6, k6);
    expect(isPermutation(minimumDegreeOrder(6, g6.adjPtr, g6.adjIdx), 6)).toBe(true);
  });

  it('is within 10% of exact minimum degree fill on random and mesh graphs, and deterministic', () => {
    const rng = new Rng(11);
    const cases: { n: number; edges: [number, number][] }[] = [
      { n: 11 * 11, edges: gridEdges(10, 10, false) },
      { n: 13 * 9, edges: gridEdges(12, 8, true) },
    ];
    for (let trial = 0; trial < 8; trial++) {
      const n = 30 + Math.floor(rng.next() * 50);
      const edges: [number, number][] = [];
      for (let k = 0; k < 3 * n; k++) edges.push([Math.floor(rng.next() * n), Math.floor(rng.next() * n)]);
      cases.push({ n, edges });
    }
    for (const { n, edges } of cases) {
      const { adjPtr, adjIdx } = graph(n, edges);
      const perm = minimumDegreeOrder(n, adjPtr, adjIdx);
      expect(isPermutation(perm, n)).toBe(true);
      expect(Array.from(minimumDegreeOrder(n, adjPtr, adjIdx))).toEqual(Array.from(perm));
      const ours = fill(n, edges, perm), exact = fill(n, edges, exactMinDegree(n, edges));
      const natural = fill(n, edges, Int32Array.from({ length: n }, (_, i) => i));
      expect(ours).toBeLessThanOrEqual(Math.ceil(1.1 * exact));
      expect(ours).toBeLessThanOrEqual(natural);
    }
  });

  it('orders 400 random and banded graphs exactly as the list-of-arrays version before stop 30 did (a hash of the permutations)', () => {
    // The typed-array rewrite (docs/solver.md, "Stop 30") must keep every elimination order: the factor's
    // rounding, and so every game-mode hash, follows it. Recorded from the version before (c5f162a).
    const rng = new Rng(5);
    let h = 0x811c9dc5;
    for (let t = 0; t < 400; t++) {
      const n = 1 + Math.floor(rng.next() * 300);
      const m = Math.floor(rng.next() * 6 * n);
      const edges: [number, number][] = [];
      for (let k = 0; k < m; k++) {
        const a = Math.floor(rng.next() * n);
        const near = Math.min(n - 1, Math.max(0, a + Math.floor((rng.next() - 0.5) * 12)));
        edges.push([a, rng.next() < 0.7 ? near : Math.floor(rng.next() * n)]);
      }
      const { adjPtr, adjIdx } = graph(n, edges);
      for (const v of minimumDegreeOrder(n, adjPtr, adjIdx)) h = Math.imul(h ^ v, 0x01000193) >>> 0;
    }
    if (process.env.PRINT_GOLDEN) console.log(`ORDER_HASH ${h.toString(16)}`);
    expect(h.toString(16)).toBe(ORDER_HASH);
  });
});

/** FNV-1a of the 400 graphs' permutations above, from the list-of-arrays version (c5f162a). */
const ORDER_HASH = '32bf8c24';

