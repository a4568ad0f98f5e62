/**
 * The constant-acceleration guess (src/solver/newton.ts constantGuess, docs/solver.md "Free flight"): an island
 * that no contact candidate touches starts its Newton solve at x̃ + h² a (a: gravity and constant forces over
 * mass), and islands whose gradient there bounds their Newton step within the tolerance (‖g‖₂ ≤ m_min · tol,
 * as H ≽ M under PSD projection) stay there without an assembly or a factorization.
 */
import { describe, expect, it } from 'vitest';
import { meshBox } from '../src/mesh';
import { PhysicsWorld } from '../src/world';
import { maxDiff, sideBySide, squareJelly as jelly, threeJellyDrop } from './support/islands';
import { kickedJelly, tuneSolver } from './support/rest-chord';

describe('constant guess: free flight', () => {
  it('an undeformed falling jelly takes no Newton iteration, and lands where the solve from x̃ does', () => {
    const on = tuneSolver(new PhysicsWorld({ dt: 1 / 60 }), { constantGuess: true });
    const off = tuneSolver(new PhysicsWorld({ dt: 1 / 60 }), { constantGuess: false });
    for (const w of [on, off]) jelly(w, 0, 1);
    let itersOn = 0, itersOff = 0, worst = 0;
    for (let s = 0; s < 30; s++) {
      on.step();
      off.step();
      itersOn += on.lastStats.newtonIters;
      itersOff += off.lastStats.newtonIters;
      expect(on.lastStats.converged).toBe(true);
      // step tolerance: 1e-6 × the jelly's 0.57 m diagonal
      worst = Math.max(worst, maxDiff(on.readPositions(), off.readPositions()) / 0.57e-6);
    }
    expect(itersOn).toBe(0);
    // measured: 89 from x̃ = xᵗ + h vᵗ (a step of h² g, then one or two within the tolerance)
    expect(itersOff).toBeGreaterThanOrEqual(60);
    expect(worst).toBeLessThan(1);
    // ballistic: after 30 steps of implicit Euler, y = y0 − g h² (1 + 2 + … + 30)
    const y0 = new PhysicsWorld({ dt: 1 / 60 });
    jelly(y0, 0, 1);
    const drop = 9.81 * (30 * 31) / 2 / 3600;
    const a = on.readPositions(), b = y0.readPositions();
    for (let i = 1; i < a.length; i += 2) expect(Math.abs(a[i]! - (b[i]! - drop))).toBeLessThan(1e-9);
  });

  it('a jelly flying apart still iterates: the bound holds only near its solution', () => {
    const w = tuneSolver(new PhysicsWorld({ dt: 1 / 60 }), { constantGuess: true });
    const mesh = meshBox(0.4, 0.4, 4, 4);
    const body = w.createBody();
    const ids: number[] = [];
    // spreading sideways at 3 m/s per metre: x̃ stretches it, so its elastic forces there are far from zero
    for (let v = 0; v < mesh.positions.length / 2; v++) {
      const x = mesh.positions[2 * v]!, y = mesh.positions[2 * v + 1]!;
      ids.push(w.addParticle({ x, y: 1 + y, vx: 3 * x, m: 0, radius: 0.02, body }));
    }
    for (let k = 0; k < mesh.triangles.length; k += 3) {
      w.addTriangle(ids[mesh.triangles[k]!]!, ids[mesh.triangles[k + 1]!]!, ids[mesh.triangles[k + 2]!]!, { youngsModulus: 5e4, poissonRatio: 0.3, density: 40 });
    }
    w.step();
    expect(w.lastStats.newtonIters).toBeGreaterThan(1);
    expect(w.lastStats.converged).toBe(true);
  });
});

describe('constant guess: islands', () => {
  it('falling jellies stay at the guess while another lands; every step within the tolerance of the solve from x̃', () => {
    // the scene's step tolerance: 1e-6 × its size (about 3 m)
    const on = threeJellyDrop({ constantGuess: true }), off = threeJellyDrop({ constantGuess: false });
    const { kept: still, itersOn, itersOff, worst } = sideBySide(on, off, 90, 3e-6, (a) => {
      expect(a.lastStats.converged).toBe(true);
    });
    // measured: 2,625 particles kept at the guess over the solves, 163 Newton iterations against 191, 0.002 tolerances apart
    if (process.env.PRINT_MEASURED) console.log({ still, itersOn, itersOff, worst });
    expect(still).toBeGreaterThan(500);
    expect(itersOn).toBeLessThan(itersOff);
    expect(worst).toBeLessThan(1);
  }, 60_000);
});

describe('the stop at the guess', () => {
  it('a settling clamped jelly ends many steps at its guess, each within the tolerance of the solve that iterates', () => {
    // 400 triangles, bottom row fixed (no constant guess: a clamp holds it), direct path, no chord chains
    const on = kickedJelly('fosssim', 0, { pcg: false, chordChain: 0, guessStop: true }, 400);
    const off = kickedJelly('fosssim', 0, { pcg: false, chordChain: 0, guessStop: false }, 400);
    // the step tolerance: 1e-6 × the 1 m jelly; guessStop set again after each restore
    const { zeroOn: zero, itersOn, itersOff, worst } = sideBySide(on, off, 360, 1e-6, (a) => {
      expect(a.lastStats.converged).toBe(true);
    }, (b) => { b.newtonSolver().guessStop = false; });
    // measured: 172 of 360 steps end at the guess; 342 Newton iterations against 517; at most 0.052 tolerances apart
    if (process.env.PRINT_MEASURED) console.log({ zero, itersOn, itersOff, worst });
    expect(zero).toBeGreaterThan(100);
    expect(itersOn).toBeLessThan(itersOff);
    expect(worst).toBeLessThan(1);
  });

  it('linearized implicit Euler keeps its one Newton step a step, however small', () => {
    // a settled clamped jelly: with implicit Euler most of these steps end at the guess (above)
    const w = new PhysicsWorld({ dt: 1 / 60, integrator: 'linearized-implicit-euler' });
    const mesh = meshBox(0.4, 0.4, 4, 4);
    const ids: number[] = [];
    for (let v = 0; v < mesh.positions.length / 2; v++) {
      ids.push(w.addParticle({ x: mesh.positions[2 * v]!, y: mesh.positions[2 * v + 1]!, m: 0, fixed: mesh.positions[2 * v + 1]! < -0.19 }));
    }
    for (let k = 0; k < mesh.triangles.length; k += 3) {
      w.addTriangle(ids[mesh.triangles[k]!]!, ids[mesh.triangles[k + 1]!]!, ids[mesh.triangles[k + 2]!]!, { youngsModulus: 5e4, poissonRatio: 0.3, density: 40 });
    }
    for (let s = 0; s < 300; s++) {
      w.step();
      expect(w.lastStats.newtonIters).toBe(1);
    }
  });
});

