/**
 * Island convergence (src/solver/newton.ts islandConvergence, docs/solver.md "Island convergence"):
 * within a game-mode Newton solve, an island of the system whose whole step is within the step
 * tolerance stops iterating while the other islands go on. Its rows leave the gradient and the
 * assembly, and the factorization keeps its factored rows (SparseLDLT KEEP_ROWS) after cutting them
 * from other islands' columns (isolateKeptRows).
 */
import { describe, expect, it } from 'vitest';
import { KEEP_ROWS } from '../src/solver/ldlt';
import { fillReducingOrder } from '../src/solver/ordering';
import { PhysicsWorld } from '../src/world';
import { maxDiff, sideBySide, solveAfterCoupled, spd, threeJellyDrop, twoChains } from './support/islands';

describe('island convergence: the factorization keeps a converged island\'s rows', () => {
  // two chains, 0–3 and 4–7, with pattern entries linking 3–4 (a contact pair of an earlier step)
  const { p, island, rhs } = twoChains();
  const label = Int32Array.from([0, 0, 0, 0, 4, 4, 4, 4]);
  const perm = fillReducingOrder(p, 2);
  // island 1 was factored while coupled to island 0 (its rows hold entries in island 0's columns), then converged: kept
  const coupled = spd(p, 10, () => true);
  // the next iteration's matrix: island 0 changed, the two islands apart
  const split = spd(p, 10, (a, b) => island(a) === island(b), 0.5);
  const kept = Uint8Array.from([0, 0, 0, 0, KEEP_ROWS, KEEP_ROWS, KEEP_ROWS, KEEP_ROWS]);

  it('kept rows stay as factored; after isolateKeptRows every other row solves bit-identically to the full factorization', () => {
    let keptD = new Float64Array(0);
    const { got, want, f } = solveAfterCoupled(p, perm, coupled, split, kept, rhs, (g) => {
      keptD = g.D.slice();
      g.isolateKeptRows(kept, label);
    });
    for (let d = 0; d < 8; d++) expect(got[d]).toBe(want[d]);
    for (let d = 8; d < 16; d++) expect(got[d]).toBe(0);
    for (let k = 0; k < 16; k++) if (kept[f.perm[k]! >> 1] === KEEP_ROWS) expect(f.D[k]).toBe(keptD[k]);
  });

  it('without isolateKeptRows the kept rows\' old coupling reaches the other island', () => {
    const { got, want } = solveAfterCoupled(p, perm, coupled, split, kept, rhs);
    expect(maxDiff(got, want)).toBeGreaterThan(1e-6);
  });
});

/** test/support/islands.ts threeJellyDrop, island convergence on or off. */
function drop(island: boolean): PhysicsWorld {
  return threeJellyDrop({ islandConvergence: island });
}

describe('island convergence: the Newton solve', () => {
  it('separate landing jellies: converged islands stop early, every step within the tolerance of iterating them all', () => {
    // the same start state for both: off takes on's state, then each takes one step; the scene's step tolerance is
    // 1e-6 × its size (about 3 m)
    const { kept, itersOn, itersOff, worst } = sideBySide(drop(true), drop(false), 90, 3e-6, (on, off) => {
      expect(on.lastStats.converged).toBe(off.lastStats.converged);
    });
    // measured: 2,625 particles kept over the solves (1,300 before the stop at the guess kept falling islands at
    // theirs), 163 Newton iterations both ways (188 before), at most 0.002 tolerances apart
    if (process.env.PRINT_MEASURED) console.log({ kept, itersOn, itersOff, worst });
    expect(kept).toBeGreaterThan(1000);
    expect(itersOn).toBe(itersOff);
    expect(worst).toBeGreaterThan(0);
    expect(worst).toBeLessThan(1);
  }, 60_000);

  it('a step after a solve that kept islands can be one rest chord: the kept rows are its factor there', () => {
    const w = drop(true);
    let afterKept = 0, restChords = 0, keptBefore = false;
    for (let s = 0; s < 200; s++) {
      const solver = w.newtonSolver(), k0 = solver.convergedIslandParticles;
      w.step();
      if (keptBefore) {
        afterKept++;
        if (w.lastStats.newtonIters === 1 && w.lastStats.linearPath === 'chord-ldlt') restChords++;
      }
      keptBefore = w.newtonSolver() === solver && solver.convergedIslandParticles > k0;
    }
    // measured: 2 of the 30 steps after such a solve; none when kept rows are set to identity instead
    expect(afterKept).toBeGreaterThan(10);
    expect(restChords).toBeGreaterThan(0);
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
