/**
 * Restructuring guard: the game-mode Newton step (loops moved into module functions, line
 * search rearranged for V8, profile timers) must give bit-identical states. The hashes below
 * are SHA-256 of the positions and velocities (IEEE bytes) after the given steps, recorded from
 * the solver before the restructuring (commit 0cc497e). Any change of an operation or its order
 * changes them; a deliberate numerical change must update them and say so. Updated once, on
 * purpose: the fill-reducing ordering changed from the CSparse-derived AMD to our own minimum
 * degree (src/solver/mindegree.ts), which changes the elimination order and so the rounding.
 * Re-recorded, the two PCG hashes only: chord iterations (src/solver/newton.ts, docs/solver.md
 * "Chord iterations") replace the iteration that confirms a small Newton step on the PCG path by
 * a solve with the reused factor, a different (equally converged) iterate. The direct-LDLᵀ and
 * squashed hashes are unchanged (that path takes no chord iteration), and test/newton-chord.test.ts
 * checks that with chordWithin = 0 the PCG jellies still hash to the values recorded here before
 * (fosssim 901793e2…, neohookean 8c2ac18e…), and that the states with and without chord
 * iterations agree within the Newton tolerance.
 * Re-recorded, every hash: rest chords (NewtonSolver.restChord, docs/solver.md "Rest chords") start a
 * step that follows a converged solve, near where that solve's Hessian was assembled, with a chord
 * iteration on its factor (the direct path's last one, or the PCG path's reused one). With rest chords
 * off they hash as before, and the states with them agree within the Newton tolerance (checked below).
 * Re-recorded, every hash: chord chains (NewtonSolver.chordChain, docs/solver.md "Chord chains") let a
 * rest chord on the PCG path, and on the direct path without contact (these jellies have none), be
 * followed by more chord iterations on its factor instead of Newton's, and waive its distance to the last
 * assembly there. With chordChain = 0 they hash as before (checked below); test/chord-chain.test.ts
 * compares the two step by step.
 * Re-recorded, the hashes that change: predicted-error stops (NewtonSolver.contractionMax, docs/solver.md
 * "Predicted-error stops") end a rest chord's solve when the error it leaves, predicted from the contraction
 * a chain measured on the same factor, is within the tolerance. With contractionMax = 0 they hash as before
 * (checked below); test/predicted-stop.test.ts compares each step with a tightly converged solve.
 * Re-recorded, squashed only: where chains run, a step of Φ's own model within the tolerance that Φ's rounding
 * rejects whole is not halved (NewtonSolver.step, roundOff); the iterate stays where it was instead of moving by a
 * fraction 2⁻ᵏ of a step within the tolerance. With chordChain = 0 it hashes as before (BEFORE_CHORD_CHAIN).
 * Re-recorded, squashed only: a solve whose gradient at its initial guess bounds its Newton step within the tolerance
 * ends there (NewtonSolver.guessStop, docs/solver.md "Free flight"): 180 of its 200 steps, settled, end with no
 * iteration; largest position change 6.1e-16 m. With the stop off it hashes as before (BEFORE_GUESS_STOP).
 */
import { digest } from './support/digest';
import { describe, expect, it } from 'vitest';
import { PhysicsWorld } from '../src/world';
import { buildJelly } from '../src/cli/bench-jellies';
import { MATERIAL_NAMES, type MaterialName } from '../src/elements';
import { tuneSolver } from './support/rest-chord';

/**
 * A 200-triangle jelly of the given material, kicked (shear velocity) so Newton takes several iterations;
 * chordChain and contractionMax as given (the defaults when undefined).
 */
function jelly(material: MaterialName, pcg: boolean, kick: number, rest = true, chordChain?: number, contractionMax?: number): PhysicsWorld {
  const w = tuneSolver(new PhysicsWorld({ dt: 1 / 60, integrator: 'implicit-euler' }), { restChord: rest, chordChain, contractionMax });
  buildJelly(200, w, material);
  const P = w.c.Particle;
  for (const e of w.lists.particles) if (P.fixed[e] === 0) P.vx[e] = kick * (P.y[e]! - 0.5);
  if (pcg) {
    w.step();
    w.newtonSolver().pcgMinDofs = 0;
  }
  return w;
}

/** Stiff squashed jelly (test/newton.test.ts): many line-search halvings per step. `guess`: constantGuess and guessStop. */
function squashed(rest = true, chordChain?: number, contractionMax?: number, guess = true): PhysicsWorld {
  const w = tuneSolver(new PhysicsWorld({ dt: 1 / 30, integrator: 'implicit-euler' }), {
    restChord: rest, chordChain, contractionMax, constantGuess: guess, guessStop: guess,
  });
  const ids: number[] = [];
  const N = 4, L = 0.2;
  const at = (k: number): [number, number] => [((k % (N + 1)) / N) * L, (Math.floor(k / (N + 1)) / N) * L];
  for (let k = 0; k < (N + 1) * (N + 1); k++) ids.push(w.addParticle({ x: at(k)[0], y: at(k)[1], m: 0, fixed: k <= N }));
  for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) {
    const a = j * (N + 1) + i, b = a + 1, c = a + N + 2, d = a + N + 1;
    for (const tri of [[a, b, c], [a, c, d]]) {
      w.addTriangle(ids[tri[0]!]!, ids[tri[1]!]!, ids[tri[2]!]!, { youngsModulus: 1e9, poissonRatio: 0.3, density: 100, rest: tri.flatMap(at) });
    }
  }
  const P = w.c.Particle;
  for (let k = N + 1; k < ids.length; k++) {
    P.y[ids[k]!] = P.y[ids[k]!]! * 0.4;
    P.vx[ids[k]!] = 5;
  }
  return w;
}

/** The hashes with rest chords off: the code before them. */
const BEFORE_REST_CHORD: Record<string, string> = {
  'fosssim ldlt': 'ac7609e1f75e0ae589da2711178307b3',
  'stvk ldlt': '701e481efadb2fb8ce880ca734fad328',
  'neohookean ldlt': 'b907b8329f34d28d0c465fdabe415a45',
  'corotational ldlt': 'f06662b849bdaf5477e5c8f1e193a267',
  squashed: '36f36a2e0a34bdb405dd80f97dc60934',
  'fosssim pcg': '6ff1eef62701d4aeaf753299ae7a7a6a',
  'neohookean pcg': '144b144fd4ecd2d7a1251b4afb315c23',
};

/** The hashes with chord chains off (chordChain = 0): the code before them. */
const BEFORE_CHORD_CHAIN: Record<string, string> = {
  'fosssim ldlt': 'b338bf3d693a601c48d4ab5d0543b0aa',
  'stvk ldlt': '671e947de2f5fe8dc138677bd3e3d2fd',
  'neohookean ldlt': '2af92b12163fb91723ff3a6213dd2842',
  'corotational ldlt': '93e2f54e5638b6b08eb298c874ef8b81',
  'fosssim pcg': 'bd0af45df0f6470413ca9b018a771d15',
  'neohookean pcg': '8ac9b8480529a35c3b343ef20818f43d',
  squashed: '4452e858c4c739cf58cb7d007e18be06',
};

/** The hashes with predicted-error stops off (contractionMax = 0): the code before them. */
const BEFORE_PREDICTED_STOP: Record<string, string> = {
  'fosssim ldlt': '6f10e2e19d169ef5e879c4b95fd8f094',
  'stvk ldlt': '68b3520d7e3f2b23a4635179c9a627ee',
  'neohookean ldlt': 'dc8f9e004db9170c0229c593f627f0bb',
  'corotational ldlt': 'fae00f1975e70339b761633395501bcf',
  'fosssim pcg': '5a0c4dded5a7025e20ddba7ee5a9cc5f',
  'neohookean pcg': '8e4e5e8e69931b45824e7df44fdd3a56',
  squashed: '6092a4dafc0a5a59f4faf5c189fcce51', // with the round-off rule (above), which contractionMax does not switch
};

const GOLDEN: Record<string, string> = {
  'fosssim ldlt': '920dd2020340cff941d921c0b80d5e68',
  'stvk ldlt': '12fc414f1984e118fa164b6b6af0821e',
  'neohookean ldlt': '7a5ccbc5838ad82f1d239ba3d689e247',
  'corotational ldlt': '50bdfe4473e10b7757ea6f35e632ecff',
  'fosssim pcg': '5a0c4dded5a7025e20ddba7ee5a9cc5f',
  'neohookean pcg': '1204e81a865cab322ac65662828f81aa',
  squashed: '65ff819364594f1a77bfb33cb4843e6c',
};

/** The hashes with the stop at the guess off (guessStop; constantGuess: squashed is clamped): the code before it. */
const BEFORE_GUESS_STOP: Record<string, string> = {
  squashed: '6092a4dafc0a5a59f4faf5c189fcce51',
};

describe('Newton step restructuring is bit-identical', () => {
  const cases: [string, () => PhysicsWorld][] = [
    ...MATERIAL_NAMES.map((m): [string, () => PhysicsWorld] => [`${m} ldlt`, () => jelly(m, false, 6)]),
    ['fosssim pcg', () => jelly('fosssim', true, 6)],
    ['neohookean pcg', () => jelly('neohookean', true, 6)],
    ['squashed', squashed],
  ];
  for (const [name, make] of cases) {
    it(`${name}: 200 steps hash to the recorded state`, () => {
      const w = make();
      let iters = 0;
      for (let s = 0; s < 200; s++) {
        w.step();
        iters += w.lastStats.newtonIters;
      }
      // more than one Newton iteration on some steps; squashed ends 180 of its settled steps at the guess (guessStop),
      // its squash and rebound take 34
      expect(iters).toBeGreaterThan(name === 'squashed' ? 30 : 200);
      if (process.env.PRINT_GOLDEN) console.log(`GOLDEN '${name}': '${digest(w)}',`);
      expect(digest(w)).toBe(GOLDEN[name]);
    });
  }
  // rest chords changed every hash: off, they hash as before (with chains, without predicted-error stops,
  // which test/predicted-stop.test.ts compares step by step)
  const directCases: [string, (rest: boolean) => PhysicsWorld, number][] = [
    ...MATERIAL_NAMES.map((m): [string, (rest: boolean) => PhysicsWorld, number] => [`${m} ldlt`, (rest) => jelly(m, false, 6, rest, undefined, 0), 1]),
    // rest chords alone: chord chains (test/chord-chain.test.ts) are compared step by step there
    ['fosssim pcg', (rest) => jelly('fosssim', true, 6, rest, 0), 1],
    ['neohookean pcg', (rest) => jelly('neohookean', true, 6, rest, 0), 1],
    ['squashed', (rest) => squashed(rest, undefined, undefined, false), 0.2],
  ];
  for (const [name, make, size] of directCases) {
    it(`${name}, rest chords off: the hash before them; with them, positions within the Newton tolerance`, () => {
      const off = make(false), on = make(true);
      for (let s = 0; s < 200; s++) {
        off.step();
        on.step();
      }
      expect(digest(off)).toBe(BEFORE_REST_CHORD[name]);
      const p = on.readPositions(), q = off.readPositions();
      let dx = 0;
      for (let i = 0; i < p.length; i++) dx = Math.max(dx, Math.abs(p[i]! - q[i]!));
      if (process.env.PRINT_GOLDEN) console.log(`rest chord change '${name}': ${dx}`);
      expect(dx).toBeGreaterThan(0);
      expect(dx).toBeLessThan(1e-6 * size); // the tolerance: 1e-6 × the jelly's size (m)
    });
  }
  // chord chains changed every hash: off, they hash as before
  const chainOff: [string, () => PhysicsWorld][] = [
    ...MATERIAL_NAMES.map((m): [string, () => PhysicsWorld] => [`${m} ldlt`, () => jelly(m, false, 6, true, 0)]),
    ['fosssim pcg', () => jelly('fosssim', true, 6, true, 0)],
    ['neohookean pcg', () => jelly('neohookean', true, 6, true, 0)],
    ['squashed', () => squashed(true, 0, undefined, false)],
  ];
  for (const [name, make] of chainOff) {
    it(`${name}, chord chains off: the hash before them`, () => {
      const w = make();
      for (let s = 0; s < 200; s++) w.step();
      expect(digest(w)).toBe(BEFORE_CHORD_CHAIN[name]);
    });
  }
  // the stop at the guess changed squashed's hash (its settled steps end there): off, it hashes as before; on,
  // positions within the tolerance, 1e-6 × its 0.2 m
  it('squashed, the stop at the guess off: the hash before it; with it, positions within the Newton tolerance', () => {
    const off = squashed(true, undefined, undefined, false), on = squashed();
    let zero = 0;
    for (let s = 0; s < 200; s++) {
      off.step();
      on.step();
      zero += on.lastStats.newtonIters === 0 ? 1 : 0;
    }
    expect(digest(off)).toBe(BEFORE_GUESS_STOP.squashed);
    const p = on.readPositions(), q = off.readPositions();
    let dx = 0;
    for (let i = 0; i < p.length; i++) dx = Math.max(dx, Math.abs(p[i]! - q[i]!));
    if (process.env.PRINT_GOLDEN) console.log(`guess stop change 'squashed': ${dx}, steps ended at the guess ${zero}`);
    expect(zero).toBeGreaterThan(0);
    expect(dx).toBeGreaterThan(0);
    expect(dx).toBeLessThan(1e-6 * 0.2);
  });
  // predicted-error stops changed the hashes of the jellies that stop on one: off, they hash as before
  const predictedOff: [string, () => PhysicsWorld][] = [
    ...MATERIAL_NAMES.map((m): [string, () => PhysicsWorld] => [`${m} ldlt`, () => jelly(m, false, 6, true, undefined, 0)]),
    ['fosssim pcg', () => jelly('fosssim', true, 6, true, undefined, 0)],
    ['neohookean pcg', () => jelly('neohookean', true, 6, true, undefined, 0)],
    ['squashed', () => squashed(true, undefined, 0, false)],
  ];
  for (const [name, make] of predictedOff) {
    it(`${name}, predicted-error stops off: the hash before them`, () => {
      const w = make();
      for (let s = 0; s < 200; s++) w.step();
      expect(digest(w)).toBe(BEFORE_PREDICTED_STOP[name]);
    });
  }
});
