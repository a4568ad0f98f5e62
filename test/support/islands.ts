/** Shared by the island tests (held islands, island convergence, solver tuning): small matrices and jellies. */
import { buildPattern as buildPatternOf, type buildPattern } from '../../src/solver/pattern';
import { SparseLDLT } from '../../src/solver/ldlt';
import { PhysicsWorld } from '../../src/world';
import { meshBox } from '../../src/mesh';
import { tuneSolver } from './rest-chord';

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

/**
 * Three squareJelly 1 m apart with their centres at 0.5, 1.2 and 2.2 m over the ground (friction 0.5): separate
 * islands that land at different steps; the solver tuned as `tune` before each solve (tuneSolver).
 */
export function threeJellyDrop(tune: Parameters<typeof tuneSolver>[1]): PhysicsWorld {
  const w = tuneSolver(new PhysicsWorld({ dt: 1 / 60 }), tune);
  w.contacts.enabled = true;
  w.contacts.friction = 0.5;
  w.addHalfplane(0, 0, 0, 1);
  squareJelly(w, -1, 0.5);
  squareJelly(w, 0, 1.2);
  squareJelly(w, 1, 2.2);
  return w;
}

/** What sideBySide counted. */
export interface SideBySide {
  /** Particles `on`'s solvers kept (NewtonSolver.convergedIslandParticles) over the steps. */
  kept: number;
  itersOn: number;
  itersOff: number;
  /** `on`'s steps with no Newton iteration. */
  zeroOn: number;
  /** Largest position gap of a step, in tolerances. */
  worst: number;
}

/**
 * `steps` steps of `on` and `off` from the same states: each step `off` takes `on`'s state (restore, then `afterRestore`),
 * both step, and `check` sees the two. Position gaps are measured in tolerances of `tol` m.
 */
export function sideBySide(
  on: PhysicsWorld, off: PhysicsWorld, steps: number, tol: number,
  check: (on: PhysicsWorld, off: PhysicsWorld) => void, afterRestore: (off: PhysicsWorld) => void = () => {},
): SideBySide {
  const r: SideBySide = { kept: 0, itersOn: 0, itersOff: 0, zeroOn: 0, worst: 0 };
  for (let s = 0; s < steps; s++) {
    off.restore(on.snapshot());
    afterRestore(off);
    const k0 = on.newtonSolver().convergedIslandParticles;
    on.step();
    off.step();
    r.kept += on.newtonSolver().convergedIslandParticles - k0;
    r.itersOn += on.lastStats.newtonIters;
    r.itersOff += off.lastStats.newtonIters;
    r.zeroOn += on.lastStats.newtonIters === 0 ? 1 : 0;
    check(on, off);
    r.worst = Math.max(r.worst, maxDiff(on.readPositions(), off.readPositions()) / tol);
  }
  return r;
}
