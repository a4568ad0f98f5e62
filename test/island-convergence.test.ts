/**
 * Island convergence (src/solver/newton.ts islandConvergence, docs/solver.md "Island convergence"):
 * within a game-mode Newton solve, an island of the system whose whole step is within the step
 * tolerance stops iterating while the other islands go on. Its rows leave the gradient and the
 * assembly, and the factorization keeps its factored rows (SparseLDLT KEEP_ROWS) after cutting them
 * from other islands' columns (isolateKeptRows). Also: the solver's tuning survives the solver's
 * replacement by a contact-pattern growth (NewtonSolver.tuning).
 */
import { describe, expect, it } from 'vitest';
import { buildPattern } from '../src/solver/pattern';
import { KEEP_ROWS, SparseLDLT } from '../src/solver/ldlt';
import { fillReducingOrder } from '../src/solver/ordering';
import { PhysicsWorld } from '../src/world';
import { meshBox } from '../src/mesh';
import { tuneSolver } from './support/rest-chord';

/** Values of an SPD matrix on pattern p: diagonal `diag`, off-diagonal entries whose nodes pass `couple`. */
function spd(p: ReturnType<typeof buildPattern>, diag: number, couple: (a: number, b: number) => boolean, shift = 0): Float64Array {
  const v = new Float64Array(p.rowIdx.length);
  for (let j = 0; j < p.n; j++) {
    for (let q = p.colPtr[j]!; q < p.colPtr[j + 1]!; q++) {
      const i = p.rowIdx[q]!;
      v[q] = i === j ? diag + shift * ((i % 4) + 1) : couple(i >> 1, j >> 1) ? -1 + 0.1 * ((i + 2 * j) % 3) : 0;
    }
  }
  return v;
}

describe('island convergence: the factorization keeps a converged island\'s rows', () => {
  // particles 0–3 and 4–7 (two chains) with pattern entries linking 3–4 (a contact pair of an earlier step)
  const chain = Int32Array.from([0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7]);
  const p = buildPattern(8, 2, [{ k: 2, nodes: chain }]);
  const island = (i: number): number => (i < 4 ? 0 : 1);
  const label = Int32Array.from([0, 0, 0, 0, 4, 4, 4, 4]);
  const perm = fillReducingOrder(p, 2);
  const coupled = spd(p, 10, () => true);
  // the next iteration's matrix: island 0 changed, the two islands apart
  const split = spd(p, 10, (a, b) => island(a) === island(b), 0.5);
  const rhs = Float64Array.from([1, -2, 0.5, 3, -1, 2, 0.25, 4, 0, 0, 0, 0, 0, 0, 0, 0]);

  it('kept rows stay as factored; after isolateKeptRows every other row solves bit-identically to the full factorization', () => {
    const full = new SparseLDLT(p, perm);
    expect(full.paired).toBe(true);
    expect(full.factor(split)).toBe(true);
    const want = new Float64Array(16);
    full.solve(rhs, want);

    // island 1 was factored while coupled to island 0 (its rows hold entries in island 0's columns),
    // then converged: kept
    const f = new SparseLDLT(p, perm);
    expect(f.factor(coupled)).toBe(true);
    const held = Uint8Array.from([0, 0, 0, 0, KEEP_ROWS, KEEP_ROWS, KEEP_ROWS, KEEP_ROWS]);
    const keptD = f.D.slice();
    f.isolateKeptRows(held, label);
    expect(f.factor(split, held)).toBe(true);
    const got = new Float64Array(16);
    f.solve(rhs, got);
    for (let d = 0; d < 8; d++) expect(got[d]).toBe(want[d]);
    for (let d = 8; d < 16; d++) expect(got[d]).toBe(0);
    for (let k = 0; k < 16; k++) if (held[f.perm[k]! >> 1] === KEEP_ROWS) expect(f.D[k]).toBe(keptD[k]);
  });

  it('without isolateKeptRows the kept rows\' old coupling reaches the other island', () => {
    const full = new SparseLDLT(p, perm);
    full.factor(split);
    const want = new Float64Array(16);
    full.solve(rhs, want);
    const f = new SparseLDLT(p, perm);
    f.factor(coupled);
    const held = Uint8Array.from([0, 0, 0, 0, KEEP_ROWS, KEEP_ROWS, KEEP_ROWS, KEEP_ROWS]);
    f.factor(split, held);
    const got = new Float64Array(16);
    f.solve(rhs, got);
    let diff = 0;
    for (let d = 0; d < 16; d++) diff = Math.max(diff, Math.abs(got[d]! - want[d]!));
    expect(diff).toBeGreaterThan(1e-6);
  });
});

/** A 0.4 m square jelly (32 triangles) at (cx, cy). */
function jelly(w: PhysicsWorld, cx: number, cy: number): void {
  const mesh = meshBox(0.4, 0.4, 4, 4);
  const body = w.createBody();
  const ids: number[] = [];
  for (let v = 0; v < mesh.positions.length / 2; v++) ids.push(w.addParticle({ x: cx + mesh.positions[2 * v]!, y: cy + mesh.positions[2 * v + 1]!, m: 0, radius: 0.02, body }));
  for (let k = 0; k < mesh.triangles.length; k += 3) {
    w.addTriangle(ids[mesh.triangles[k]!]!, ids[mesh.triangles[k + 1]!]!, ids[mesh.triangles[k + 2]!]!, { youngsModulus: 5e4, poissonRatio: 0.3, density: 40 });
  }
}

/** Three jellies 1 m apart dropped from 0.3, 1 and 2 m onto the ground (friction 0.5): separate islands, landing at different steps. */
function drop(island: boolean | null): PhysicsWorld {
  const w = new PhysicsWorld({ dt: 1 / 60 });
  if (island !== null) tuneSolver(w, { islandConvergence: island });
  w.contacts.enabled = true;
  w.contacts.friction = 0.5;
  w.addHalfplane(0, 0, 0, 1);
  jelly(w, -1, 0.5);
  jelly(w, 0, 1.2);
  jelly(w, 1, 2.2);
  return w;
}

function maxDiff(a: Float64Array, b: Float64Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i]! - b[i]!));
  return d;
}

describe('island convergence: the Newton solve', () => {
  it('separate landing jellies: converged islands stop early, every step within the tolerance of iterating them all', () => {
    const on = drop(true), off = drop(false);
    let kept = 0, itersOn = 0, itersOff = 0, worst = 0;
    for (let s = 0; s < 90; s++) {
      // the same start state for both: off takes on's state, then each takes one step
      off.restore(on.snapshot());
      const k0 = on.newtonSolver().convergedIslandParticles;
      on.step();
      off.step();
      kept += on.newtonSolver().convergedIslandParticles - k0;
      itersOn += on.lastStats.newtonIters;
      itersOff += off.lastStats.newtonIters;
      expect(on.lastStats.converged).toBe(off.lastStats.converged);
      // the scene's step tolerance: 1e-6 × its size (about 3 m)
      worst = Math.max(worst, maxDiff(on.readPositions(), off.readPositions()) / 3e-6);
    }
    // measured: 1,300 particles kept over the solves, 188 Newton iterations both ways, at most 0.002 tolerances apart
    if (process.env.PRINT_MEASURED) console.log({ kept, itersOn, itersOff, worst });
    expect(kept).toBeGreaterThan(1000);
    expect(itersOn).toBe(itersOff);
    expect(worst).toBeGreaterThan(0);
    expect(worst).toBeLessThan(1);
  }, 60_000);

  it('a world restored from a snapshot taken while the factor holds kept rows continues bit-identically', () => {
    const a = drop(true);
    for (let s = 0; s < 40; s++) a.step();
    const kept0 = a.newtonSolver().convergedIslandParticles;
    a.step();
    expect(a.newtonSolver().convergedIslandParticles).toBeGreaterThan(kept0); // kept rows in this step's factor
    const snap = a.snapshot();
    const b = drop(true);
    b.restore(snap);
    for (let s = 0; s < 40; s++) {
      a.step();
      b.step();
      expect(b.stateHash()).toBe(a.stateHash());
    }
  }, 60_000);
});

describe('solver tuning across a contact-pattern growth', () => {
  it('the solver that replaces one keeps what was set on it', () => {
    // one jelly dropped onto another: their first body–body pairs grow the pattern
    const w = new PhysicsWorld({ dt: 1 / 60 });
    w.contacts.enabled = true;
    w.addHalfplane(0, 0, 0, 1);
    jelly(w, 0, 0.25);
    jelly(w, 0.1, 1.2);
    w.step();
    const first = w.newtonSolver();
    first.slowChord = 0;
    first.restChord = false;
    first.islandConvergence = false;
    first.chordWithin = 50;
    let replaced = 0;
    let seen = first;
    for (let s = 0; s < 90; s++) {
      w.step();
      const now = w.newtonSolver();
      if (now !== seen) {
        replaced++;
        seen = now;
      }
      expect(now.slowChord).toBe(0);
      expect(now.restChord).toBe(false);
      expect(now.islandConvergence).toBe(false);
      expect(now.chordWithin).toBe(50);
    }
    expect(replaced).toBeGreaterThan(0); // the landings grew the pattern
    expect(seen.convergedIslandParticles).toBe(0);
  }, 60_000);
});
