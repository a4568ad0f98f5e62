/**
 * Islands of the system matrix: sets of particles that no term of Φ couples to the rest (elements,
 * then this step's contact candidates and guards). An island with no free particle — every particle
 * pinned or asleep (Topology.fixed) — is *held*: its step is zero, so the game-mode Newton solve
 * (newton.ts) neither assembles its Hessian terms nor factors its rows (SparseLDLT.factor's `held`),
 * with bit-identical results. Sleeping (src/systems/sleep.ts) builds its islands from the same
 * element components.
 *
 * Labels are union–find forests over dense particle indices whose roots are the smallest index of
 * each set: deterministic, independent of the order the unions come in.
 */
import type { Topology } from './topology';
import { KEEP_ROWS } from './ldlt';

/**
 * comp[i] ← the root of particle i's element component: particles joined by any element (springs,
 * hinges, triangles, damped springs, gravitation, vortices, edges). comp stays a union–find forest
 * (not flattened): contact joins may follow. Allocates nothing; loops over the topology once.
 */
export function elementIslands(t: Topology, comp: Int32Array): void {
  const n = t.n;
  for (let i = 0; i < n; i++) comp[i] = i;
  joinFamily(comp, t.springs.count, t.springs.k, t.springs.nodes);
  joinFamily(comp, t.hinges.count, t.hinges.k, t.hinges.nodes);
  joinFamily(comp, t.triangles.count, t.triangles.k, t.triangles.nodes);
  joinFamily(comp, t.dampedSprings.count, t.dampedSprings.k, t.dampedSprings.nodes);
  joinFamily(comp, t.gravitation.count, t.gravitation.k, t.gravitation.nodes);
  joinFamily(comp, t.vortices.count, t.vortices.k, t.vortices.nodes);
  joinFamily(comp, t.edges.count, t.edges.k, t.edges.nodes);
}

function joinFamily(comp: Int32Array, count: number, k: number, nodes: Int32Array): void {
  for (let e = 0; e < count; e++) for (let a = 1; a < k; a++) unionRoots(comp, nodes[k * e]!, nodes[k * e + a]!);
}

/** The root of i's set, compressing the path. */
export function findRoot(p: Int32Array, i: number): number {
  let r = i;
  while (p[r] !== r) r = p[r]!;
  while (p[i] !== r) {
    const nx = p[i]!;
    p[i] = r;
    i = nx;
  }
  return r;
}

/** Join the sets of i and j; the root is the smaller index (so labels are the islands' smallest index). */
export function unionRoots(p: Int32Array, i: number, j: number): void {
  const a = findRoot(p, i), b = findRoot(p, j);
  if (a < b) p[b] = a;
  else if (b < a) p[a] = b;
}

/** comp[i] ← its root for every i (labels); returns the number of islands. */
export function flattenIslands(n: number, comp: Int32Array): number {
  let count = 0;
  for (let i = 0; i < n; i++) {
    const r = findRoot(comp, i);
    comp[i] = r;
    if (r === i) count++;
  }
  return count;
}

/** free[l] ← 1 for the labels (from flattenIslands) of islands with a free particle (fixed = 0), else 0. */
export function freeIslands(n: number, label: Int32Array, fixed: Uint8Array, free: Uint8Array): void {
  for (let i = 0; i < n; i++) free[i] = 0;
  for (let i = 0; i < n; i++) if (fixed[i] === 0) free[label[i]!] = 1;
}

/**
 * held[i] ← 1 for the particles of islands (labels from flattenIslands) with no free particle.
 * free[] (indexed by label) is left as freeIslands sets it. Returns the number of held particles.
 */
export function markHeldIslands(n: number, label: Int32Array, fixed: Uint8Array, held: Uint8Array, free: Uint8Array): number {
  freeIslands(n, label, fixed, free);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const h = free[label[i]!] === 0;
    held[i] = h ? 1 : 0;
    count += h ? 1 : 0;
  }
  return count;
}

/**
 * Island convergence (src/solver/newton.ts, islandConvergence): the islands with a free particle (free[]
 * from freeIslands), none of it held or converged yet (held = 0), whose every |d| component is within
 * tol: held[i] ← KEEP_ROWS for their particles. islandStep is scratch indexed by label. Returns the
 * number of particles newly marked.
 */
export function keepConvergedIslands(
  n: number, label: Int32Array, free: Uint8Array, held: Uint8Array, d: Float64Array, tol: number, islandStep: Float64Array,
): number {
  for (let i = 0; i < n; i++) islandStep[i] = 0;
  for (let i = 0; i < n; i++) {
    const a = Math.abs(d[2 * i]!), b = Math.abs(d[2 * i + 1]!);
    // held, or not finite: the island is not converged
    const m = held[i] !== 0 || !(a <= Infinity) || !(b <= Infinity) ? Infinity : a > b ? a : b;
    const l = label[i]!;
    if (m > islandStep[l]!) islandStep[l] = m;
  }
  let count = 0;
  for (let i = 0; i < n; i++) {
    const l = label[i]!;
    if (free[l] === 1 && islandStep[l]! <= tol) {
      held[i] = KEEP_ROWS;
      count++;
    }
  }
  return count;
}

/**
 * Islands still at the initial guess (src/solver/newton.ts, constantGuess): the islands with a free particle,
 * none of it held or converged yet, whose gradient g has Σ g² ≤ tol2[0] over their particles: held[i] ← KEEP_ROWS
 * for their particles. islandSum is scratch indexed by label. Returns the number of particles marked; out[0] ←
 * the number of free islands left unmarked.
 */
export function keepStillIslands(
  n: number, label: Int32Array, free: Uint8Array, held: Uint8Array, g: Float64Array, tol2: Float64Array, islandSum: Float64Array,
  out: Float64Array,
): number {
  const bound = tol2[0]!;
  for (let i = 0; i < n; i++) islandSum[i] = 0;
  for (let i = 0; i < n; i++) {
    const a = g[2 * i]!, b = g[2 * i + 1]!;
    const q = held[i] !== 0 || !(Math.abs(a) <= Infinity) || !(Math.abs(b) <= Infinity) ? Infinity : a * a + b * b;
    const l = label[i]!;
    islandSum[l] = islandSum[l]! + q;
  }
  let count = 0;
  let left = 0;
  for (let i = 0; i < n; i++) {
    const l = label[i]!;
    if (free[l] !== 1) continue;
    if (islandSum[l]! <= bound) {
      held[i] = KEEP_ROWS;
      count++;
    } else if (l === i) left++;
  }
  out[0] = left;
  return count;
}
