/** Shared by the island tests (held islands, island convergence, solver tuning): small matrices and jellies. */
import { buildPattern as buildPatternOf, type buildPattern } from '../../src/solver/pattern';
import { SparseLDLT } from '../../src/solver/ldlt';
import type { PhysicsWorld } from '../../src/world';
import { meshBox } from '../../src/mesh';

/**
 * Values of an SPD matrix on pattern p: diagonal `diag` (plus shift × ((i mod 4) + 1) on row i), and on every
 * off-diagonal entry whose nodes pass `couple` −1 + 0.1 ((i + 2j) mod 3); 0 elsewhere.
 */
export function spd(p: ReturnType<typeof buildPattern>, diag: number, couple: (a: number, b: number) => boolean, shift = 0): Float64Array {
  const v = new Float64Array(p.rowIdx.length);
  for (let j = 0; j < p.n; j++) {
    for (let q = p.colPtr[j]!; q < p.colPtr[j + 1]!; q++) {
      const i = p.rowIdx[q]!;
      v[q] = i === j ? diag + shift * ((i % 4) + 1) : couple(i >> 1, j >> 1) ? -1 + 0.1 * ((i + 2 * j) % 3) : 0;
    }
  }
  return v;
}

/** A 0.4 m square jelly (32 triangles, E 5e4, ν 0.3, density 40, particle radius 0.02) at (cx, cy), a body of its own; returns its particles. */
export function squareJelly(w: PhysicsWorld, cx: number, cy: number): number[] {
  const mesh = meshBox(0.4, 0.4, 4, 4);
  const body = w.createBody();
  const ids: number[] = [];
  for (let v = 0; v < mesh.positions.length / 2; v++) ids.push(w.addParticle({ x: cx + mesh.positions[2 * v]!, y: cy + mesh.positions[2 * v + 1]!, m: 0, radius: 0.02, body }));
  for (let k = 0; k < mesh.triangles.length; k += 3) {
    w.addTriangle(ids[mesh.triangles[k]!]!, ids[mesh.triangles[k + 1]!]!, ids[mesh.triangles[k + 2]!]!, { youngsModulus: 5e4, poissonRatio: 0.3, density: 40 });
  }
  return ids;
}

/** Largest |a[i] − b[i]|. */
export function maxDiff(a: Float64Array, b: Float64Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i]! - b[i]!));
  return d;
}

/**
 * Two chains of particles, 0–3 and 4–7, with pattern entries linking 3–4 (a contact pair of an earlier
 * step: in the pattern, zero in a matrix with the islands apart), and a right-hand side zero on the second.
 */
export function twoChains(): { p: ReturnType<typeof buildPattern>; island: (i: number) => number; rhs: Float64Array } {
  const chain = Int32Array.from([0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7]);
  return {
    p: buildPatternOf(8, 2, [{ k: 2, nodes: chain }]),
    island: (i) => (i < 4 ? 0 : 1),
    rhs: Float64Array.from([1, -2, 0.5, 3, -1, 2, 0.25, 4, 0, 0, 0, 0, 0, 0, 0, 0]),
  };
}

/**
 * The solve of `split` with rows marked in `held` (1 held, KEEP_ROWS kept) by a factor that first held
 * `coupled` (as after a step in which the islands touched), `between` run in between, and the solve by
 * a fresh factorization of `split` alone: { got, want, f }.
 */
export function solveAfterCoupled(
  p: ReturnType<typeof buildPattern>, perm: Int32Array, coupled: Float64Array, split: Float64Array, held: Uint8Array, rhs: Float64Array,
  between: (f: SparseLDLT) => void = () => {},
): { got: Float64Array; want: Float64Array; f: SparseLDLT } {
  const full = new SparseLDLT(p, perm);
  if (!full.paired || !full.factor(split)) throw new Error('solveAfterCoupled: the full factorization failed');
  const want = new Float64Array(p.n);
  full.solve(rhs, want);
  const f = new SparseLDLT(p, perm);
  if (!f.factor(coupled)) throw new Error('solveAfterCoupled: the coupled factorization failed');
  between(f);
  if (!f.factor(split, held)) throw new Error('solveAfterCoupled: the held factorization failed');
  const got = new Float64Array(p.n);
  f.solve(rhs, got);
  return { got, want, f };
}
