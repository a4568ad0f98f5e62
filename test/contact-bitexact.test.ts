/**
 * Restructuring guard for src/collision: the contact hot paths rewritten for V8 (kernels reading
 * positions from the typed arrays by node index, results in typed scratch, candidate lists in
 * typed buffers) must give bit-identical states. The hashes are SHA-256 of the positions and
 * velocities (IEEE bytes) after the given steps, recorded from the contact code before the
 * rewrite (commit 4861f6b). A deliberate numerical change must update them and say so. Updated
 * once, on purpose: the fill-reducing ordering changed from the CSparse-derived AMD to our own
 * minimum degree (src/solver/mindegree.ts), which changes the elimination order and the rounding
 * (the 'cor room' and 'cor shots' scenes solve no linear system and kept their hashes).
 * Updated a second time, on purpose, for the contact trust region and the candidate-filter fixes
 * (docs/contact.md, "Trust region"): 'pile' changed with the filter fix (a particle beyond the
 * end of a one-sided edge, on the inner side of its line, was dropped as "deep inside"; it is now
 * a candidate; largest position change after 150 steps 1.0 mm), 'colliders' with the trust region
 * (guard pairs, the box bound in the line search, continued solves; 2.8 mm), 'cloth' with both
 * (14 mm). The slopes and the COR scenes kept their hashes.
 * Updated a third time, on purpose, for friction stick prediction (docs/contact.md, "Stick
 * prediction": a Newton direction that carries a slipping pair's slip through zero is followed by
 * directions of the stick model; same minimizer, other iterates): largest position change 1.5 mm
 * ('pile'), 0.09 m ('cloth': the drape folds another way, as solves converged to 1e-10 with and
 * without the prediction differ too), 1.7 µm ('slope 15'), 0.5 mm ('colliders'). 'slope 40' (it
 * slides: no crossing) and the COR scenes kept their hashes.
 * Updated a fourth time, on purpose, for the swept point–segment test's t = 1 fallback (it read a
 * path that crossed the edge's line beyond the segment and ended behind it as a crossing; now only
 * a sign change with no root in (0, 1] is): 'cloth' 0.11 m (the drape folds another way); the
 * other scenes kept their hashes.
 * Updated a fifth time, on purpose, for chord iterations in the direct path's slow tails
 * (NewtonSolver.slowChord, docs/solver.md "Stop 23": other iterates, the same stopping rule):
 * largest position change 2.0 µm ('pile'), 6.1 µm ('cloth'); the other scenes kept their hashes.
 * Updated a sixth time, on purpose, for rest chords (NewtonSolver.restChord, docs/solver.md "Stop 25": a
 * step that follows a converged solve, near where that solve's Hessian was assembled, starts with a
 * chord iteration on its factor): largest position change 2.4e-8 m ('pile'), 2.8e-9 m ('cloth'),
 * 3.0e-8 m ('slope 15'); the other scenes kept their hashes. With rest chords off the three scenes
 * still hash to the values before (checked below).
 * Updated a seventh time, on purpose, for island convergence (NewtonSolver.islandConvergence,
 * docs/solver.md "Island convergence": an island whose whole Newton step is within the tolerance stops
 * iterating while the others go on): 'colliders' (two jellies apart) 1.7e-8 m; 'pile' is one island
 * (its candidates join every jelly) and the other scenes have one body: they kept their hashes. With
 * island convergence off 'colliders' still hashes to the value before (checked below).
 * Updated an eighth time, on purpose, for contact chords (NewtonSolver.contactChords, docs/solver.md "Stop 30":
 * with contact on the direct path, a chord iteration after a small full Newton step and chains after a rest
 * chord): largest position change 1.7e-5 m ('pile'), 4.7e-10 m ('cloth'), 1.5e-8 m ('slope 15'), 1.7e-9 m
 * ('slope 40'), 1.6e-9 m ('colliders'); the COR scenes kept their hashes. With contact chords off every scene
 * hashes to the value before (checked below).
 * Updated a ninth time, on purpose, for cut chords (NewtonSolver.cutChord, docs/solver.md "Cut chords": after a
 * Newton step that Φ's Armijo test cut to a quarter or less, far from the tolerance, the next iteration is a chord
 * on the same factor): largest position change 7.0e-6 m ('pile'), 2.0e-11 m ('colliders'); the other scenes kept
 * their hashes. With cut chords off every scene hashes to the value before (checked below).
 * Updated a tenth time, on purpose, for corrected chords (NewtonSolver.majorCg, docs/solver.md "Stop 36": a chord on a
 * factor with majorized contact candidates is corrected by PCG to the exact Hessian's direction): largest position
 * change 6.1e-6 m ('cloth'); the other scenes kept their hashes. With majorCg 0 'cloth' hashes to the value before
 * (checked below).
 * Updated an eleventh time, on purpose, for the constant guess (NewtonSolver.constantGuess and guessStop, docs/solver.md
 * "Free flight": an island in free flight starts at x̃ + h² g, and a solve or island whose gradient there bounds its
 * Newton step within the tolerance ends there): 'colliders' 2.1e-15 m; the other scenes kept their hashes (no
 * free flight, or none that iterated). With the guess off 'colliders' hashes to the value before (checked below).
 */
import { digest } from './support/digest';
import { describe, expect, it } from 'vitest';
import { PhysicsWorld } from '../src/world';
import { makeJellyPile } from '../src/cli/bench-jellies';
import { meshBox, meshSheet } from '../src/mesh';
import { tuneSolver } from './support/rest-chord';

/**
 * w with the solver features each scene switches (on: the solver's default; cut chords off: cutChord 0; corrected chords
 * off: majorCg 0; the guess off: constantGuess and guessStop false).
 */
function tuned(w: PhysicsWorld, rest: boolean, island: boolean, chords: boolean, cut: boolean, major: boolean, guess: boolean): PhysicsWorld {
  return tuneSolver(w, {
    restChord: rest, islandConvergence: island, contactChords: chords, cutChord: cut ? undefined : 0, majorCg: major ? undefined : 0,
    constantGuess: guess, guessStop: guess,
  });
}

/** 10 jellies × 50 triangles in a box of half-planes, game mode (implicit contact), 150 steps. */
function pile(rest = true, island = true, chords = true, cut = true, major = true, guess = true): PhysicsWorld {
  const w = tuned(new PhysicsWorld({}), rest, island, chords, cut, major, guess);
  makeJellyPile(w, 10, 50);
  for (let s = 0; s < 150; s++) w.step();
  return w;
}

/** test/contact.test.ts's cloth pinned along its top draping over a circle, 120 steps. */
function cloth(rest = true, island = true, chords = true, cut = true, major = true, guess = true): PhysicsWorld {
  const w = tuned(new PhysicsWorld({}), rest, island, chords, cut, major, guess);
  w.contacts.enabled = true;
  w.contacts.friction = 0.3;
  w.addCircleCollider(0, 0, 0.3);
  const sheet = meshSheet(1.2, 0.8, 12, 8);
  const nv = sheet.positions.length / 2;
  const top = new Set(sheet.top);
  const ids: number[] = [];
  for (let v = 0; v < nv; v++) {
    ids.push(w.addParticle({ x: sheet.positions[2 * v]! - 0.6, y: sheet.positions[2 * v + 1]! + 0.5, m: 0, radius: 0.01, fixed: top.has(v) && v % 4 === 0 }));
  }
  for (let t = 0; t < sheet.triangles.length; t += 3) {
    w.addTriangle(ids[sheet.triangles[t]!]!, ids[sheet.triangles[t + 1]!]!, ids[sheet.triangles[t + 2]!]!, { youngsModulus: 500, poissonRatio: 0.3, density: 0.5 });
  }
  for (let s = 0; s < 120; s++) w.step();
  return w;
}

/** test/contact.test.ts's jelly on a slope (half-plane, friction 0.5), 120 steps. */
function slope(angleDeg: number, rest = true, island = true, chords = true, cut = true, major = true, guess = true): PhysicsWorld {
  const w = tuned(new PhysicsWorld({}), rest, island, chords, cut, major, guess);
  w.contacts.enabled = true;
  w.contacts.friction = 0.5;
  const a = (angleDeg * Math.PI) / 180, c = Math.cos(a), s = Math.sin(a);
  w.addHalfplane(0, 0, -s, c);
  const mesh = meshBox(0.4, 0.4, 4, 4);
  const body = w.createBody();
  const ids: number[] = [];
  for (let v = 0; v < mesh.positions.length / 2; v++) {
    const lx = mesh.positions[2 * v]!, ly = mesh.positions[2 * v + 1]! + 0.2 + 0.021;
    ids.push(w.addParticle({ x: c * lx - s * ly, y: s * lx + c * ly, m: 0, radius: 0.02, body }));
  }
  for (let t = 0; t < mesh.triangles.length; t += 3) {
    w.addTriangle(ids[mesh.triangles[t]!]!, ids[mesh.triangles[t + 1]!]!, ids[mesh.triangles[t + 2]!]!, { youngsModulus: 2e4, poissonRatio: 0.3, density: 100 });
  }
  for (let k = 0; k < 120; k++) w.step();
  return w;
}

/** test/contact.test.ts's COR 1 room (half-planes, segment, circle, polygon; velocity filter), 600 steps. */
function corRoom(rest = true, island = true, chords = true, cut = true, major = true, guess = true): PhysicsWorld {
  const w = tuned(new PhysicsWorld({ gravity: null }), rest, island, chords, cut, major, guess);
  w.contacts.enabled = true;
  w.contacts.cor = 1;
  w.contacts.friction = 0;
  w.addHalfplane(0, 0, 0, 1);
  w.addHalfplane(-2, 0, 1, 0);
  w.addSegmentCollider(-3, 2, 1.5, 2);
  w.addCircleCollider(-1, 1, 0.3);
  w.addPolygonCollider([1, 0, 2, 0, 2, 2, 1, 2]);
  w.addParticle({ x: 0, y: 1, vx: 3.1, vy: 2.3, m: 1, radius: 0.05 });
  for (let s = 0; s < 600; s++) w.step();
  return w;
}

/** COR 0.5 shots at 100 m/s on a rising segment (CCD in the filter), 12 steps each. */
function corShots(rest = true, island = true, chords = true, cut = true, major = true, guess = true): PhysicsWorld {
  const w = tuned(new PhysicsWorld({ gravity: null }), rest, island, chords, cut, major, guess);
  w.contacts.enabled = true;
  w.contacts.cor = 0.5;
  const seg = w.addSegmentCollider(-1, 0, 1, 0);
  w.setColliderVelocity(seg, 0, 3);
  for (let k = 0; k < 9; k++) {
    const ang = ((-80 + 20 * k) * Math.PI) / 180;
    const sx = Math.sin(ang), cy = Math.cos(ang);
    w.addParticle({ x: -0.8 * sx, y: 0.8 * cy, vx: 100 * sx, vy: -100 * cy, m: 1, radius: 0.01 });
  }
  for (let s = 0; s < 12; s++) w.step();
  return w;
}

/** Two jellies (COR 0: implicit contact) dropped on a moving segment and a rotating circle and polygon. */
function colliders(rest = true, island = true, chords = true, cut = true, major = true, guess = true): PhysicsWorld {
  const w = tuned(new PhysicsWorld({}), rest, island, chords, cut, major, guess);
  w.contacts.enabled = true;
  w.addHalfplane(0, -1, 0, 1);
  const seg = w.addSegmentCollider(-1.2, 0, 0, -0.2);
  w.setColliderVelocity(seg, 0.2, 0.1);
  const circ = w.addCircleCollider(0.6, -0.3, 0.25);
  w.setColliderVelocity(circ, 0, 0, 2);
  const poly = w.addPolygonCollider([-0.2, -0.9, 0.3, -0.9, 0.3, -0.6, -0.2, -0.6]);
  w.setColliderVelocity(poly, 0, 0, -1);
  const mesh = meshBox(0.4, 0.4, 4, 4);
  for (const [cx, cy] of [[-0.6, 0.5], [0.5, 0.4]] as const) {
    const body = w.createBody();
    const ids: number[] = [];
    for (let v = 0; v < mesh.positions.length / 2; v++) {
      ids.push(w.addParticle({ x: cx + mesh.positions[2 * v]!, y: cy + mesh.positions[2 * v + 1]!, m: 0, radius: 0.02, body }));
    }
    for (let t = 0; t < mesh.triangles.length; t += 3) {
      w.addTriangle(ids[mesh.triangles[t]!]!, ids[mesh.triangles[t + 1]!]!, ids[mesh.triangles[t + 2]!]!, { youngsModulus: 2e4, poissonRatio: 0.3, density: 100 });
    }
  }
  for (let s = 0; s < 150; s++) w.step();
  return w;
}

/**
 * Largest position change the rest chords may make in each scene whose hash they changed: the Newton
 * tolerance, 1e-6 × the scene's size of about 1 m (measured 2.4e-8, 2.8e-9 and 3.0e-8 m).
 */
const REST_CHORD_CHANGE: Record<string, number> = { pile: 1e-6, cloth: 1e-6, 'slope 15': 1e-6 };

const GOLDEN: Record<string, string> = {
  pile: '4c156a83ca512a0d80a77ed572276955',
  cloth: 'bc84fea8441cfe082fd071009b52650e',
  'slope 15': '8a8bf654aea6348c12c01959f6522bd0',
  'slope 40': 'd89f748ae813a5b8623b158684f183f8',
  'cor room': '80bbe4fcc232ff92e4050f35ddf75abe',
  'cor shots': 'cd478f55744f99974eb24e454f581316',
  colliders: '284912982705f905516829517b621ae2',
};

/** Hashes with island convergence off: the code before it (the GOLDEN of the sixth update). */
const BEFORE_ISLAND_CONVERGENCE: Record<string, string> = {
  colliders: '58ba7af270dce98be2472137bf3743b4',
};

/**
 * Largest position change island convergence may make where it changed the hash: an island stops at
 * the step tolerance, 1e-6 × the scene's size of about 2 m, where the other island's iterations would
 * have refined it on (measured 1.7e-8 m).
 */
const ISLAND_CHANGE: Record<string, number> = { colliders: 2e-6 };

/** Hashes with rest chords off: the code before them (the GOLDEN of the fifth update). */
const BEFORE_REST_CHORD: Record<string, string> = {
  pile: 'e94e38587ad9cac27edfefbc6756fd7a',
  cloth: '99254bb0389599e6ef9b0d011f0fa6e3',
  'slope 15': '3c0045b1c033331d02d9687a0ee0791d',
};

/** Hashes with contact chords off: the code before them (the GOLDEN of the seventh update). */
const BEFORE_CONTACT_CHORDS: Record<string, string> = {
  pile: '2ad6ffcfadbba56cae872b2b90c1ee5f',
  cloth: '8fab84cdc92e76137231e2bde49d983c',
  'slope 15': '43157822c5d08a18a8be3452181f0cc5',
  'slope 40': '8bc87cdd8a788b5dd9642be6e83ef4c7',
  colliders: '1fdf1df1ee61317166461eea582029a7',
};

/**
 * Largest position change contact chords may make where they changed the hash: the Newton tolerance, 1e-6 × a
 * scene's size of about 1 m (measured 4.7e-10 m 'cloth', 1.5e-8 'slope 15', 1.7e-9 'slope 40', 1.6e-9
 * 'colliders'); the pile, where iterates that differ within the tolerance meet different stick–slip switches
 * over its 150 steps, 1e-4 m (measured 1.7e-5 m; from the same states a step's distance to a solve converged to
 * 1e-10 is the same with them as without: docs/solver.md, "Stop 30").
 */
const CONTACT_CHORD_CHANGE: Record<string, number> = { pile: 1e-4, cloth: 1e-6, 'slope 15': 1e-6, 'slope 40': 1e-6, colliders: 1e-6 };

/** Hashes with cut chords off: the code before them (the GOLDEN of the eighth update). */
const BEFORE_CUT_CHORDS: Record<string, string> = {
  pile: 'f6441a1905357448938ec4de2aba84fe',
  colliders: '7b244277cbf951c2eea32a2aecea5d01',
};

/**
 * Largest position change cut chords may make where they changed the hash: the Newton tolerance, 1e-6 × the scene's
 * size of about 1 m (measured 2.0e-11 m 'colliders'); the pile, whose iterates meet other stick–slip switches over
 * its 150 steps, 1e-4 m as for contact chords (measured 7.0e-6 m).
 */
const CUT_CHORD_CHANGE: Record<string, number> = { pile: 1e-4, colliders: 1e-6 };

/** Hashes with corrected chords off (majorCg 0): the code before them (the GOLDEN of the ninth update). */
const BEFORE_MAJOR_CG: Record<string, string> = {
  cloth: 'da1161132c1c139e1bd34a49cba8333b',
};

/**
 * Largest position change corrected chords may make where they changed the hash: a chord corrected to the exact
 * Hessian's direction takes other iterates to the same stopping test; over the drape's 120 steps with friction 0.3
 * iterates that differ within the tolerance meet other stick–slip switches, as in the pile for contact chords
 * (measured 6.1e-6 m 'cloth', 6 tolerances of its 1 m): 2e-5 m.
 */
const MAJOR_CG_CHANGE: Record<string, number> = { cloth: 2e-5 };

/** Hashes with the constant guess off (constantGuess, guessStop): the code before it (the GOLDEN of the tenth update). */
const BEFORE_GUESS: Record<string, string> = {
  colliders: '7b383fad849769d49acd651e2849ddb2',
};

/**
 * Largest position change the constant guess may make where it changed the hash: the jellies' free fall ends at
 * its guess, within the step tolerance of where Newton's iterations from x̃ end, 1e-6 × the scene's size of about
 * 2 m (measured 2.1e-15 m).
 */
const GUESS_CHANGE: Record<string, number> = { colliders: 2e-6 };

const SCENES: Record<string, (rest?: boolean, island?: boolean, chords?: boolean, cut?: boolean, major?: boolean, guess?: boolean) => PhysicsWorld> = {
  pile,
  cloth,
  'slope 15': (rest, island, chords, cut, major, guess) => slope(15, rest, island, chords, cut, major, guess),
  'slope 40': (rest, island, chords, cut, major, guess) => slope(40, rest, island, chords, cut, major, guess),
  'cor room': corRoom,
  'cor shots': corShots,
  colliders,
};

function maxDiff(a: Float64Array, b: Float64Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i]! - b[i]!));
  return d;
}

describe('contact bit-exactness (hashes recorded before the V8 allocation rewrite)', () => {
  for (const [name, make] of Object.entries(SCENES)) {
    it(name, () => {
      const d = digest(make());
      if (process.env.PRINT_GOLDEN) console.log(`GOLDEN '${name}': '${d}',`);
      expect(d).toBe(GOLDEN[name]);
    });
  }
  /**
   * A solver feature switched off gives the hash before it; switched on, positions within `change` of that.
   * off and on are the scene's (rest chords, island convergence, contact chords, cut chords, corrected chords, guess) arguments.
   */
  const featureOff = (
    feature: string, before: Record<string, string>, change: Record<string, number>, changeName: string,
    off: [boolean, boolean, boolean, boolean, boolean, boolean], on: [boolean, boolean, boolean, boolean, boolean, boolean],
  ): void => {
    for (const [name, hash] of Object.entries(before)) {
      it(`${name}, ${feature} off: the hash before; with it, positions within ${changeName}`, () => {
        const a = SCENES[name]!(...off);
        expect(digest(a)).toBe(hash);
        const dx = maxDiff(SCENES[name]!(...on).readPositions(), a.readPositions());
        if (process.env.PRINT_GOLDEN) console.log(`${feature} change '${name}': ${dx}`);
        expect(dx).toBeGreaterThan(0);
        expect(dx).toBeLessThan(change[name]!);
      });
    }
  };
  featureOff('island convergence', BEFORE_ISLAND_CONVERGENCE, ISLAND_CHANGE, 'ISLAND_CHANGE', [true, false, false, false, false, false], [true, true, false, false, false, false]);
  featureOff('contact chords', BEFORE_CONTACT_CHORDS, CONTACT_CHORD_CHANGE, 'CONTACT_CHORD_CHANGE', [true, true, false, false, false, false], [true, true, true, false, false, false]);
  featureOff('rest chords', BEFORE_REST_CHORD, REST_CHORD_CHANGE, 'REST_CHORD_CHANGE', [false, false, false, false, false, false], [true, true, false, false, false, false]);
  featureOff('cut chords', BEFORE_CUT_CHORDS, CUT_CHORD_CHANGE, 'CUT_CHORD_CHANGE', [true, true, true, false, false, false], [true, true, true, true, false, false]);
  featureOff('the constant guess', BEFORE_GUESS, GUESS_CHANGE, 'GUESS_CHANGE', [true, true, true, true, true, false], [true, true, true, true, true, true]);
  featureOff('corrected chords', BEFORE_MAJOR_CG, MAJOR_CG_CHANGE, 'MAJOR_CG_CHANGE', [true, true, true, true, false, false], [true, true, true, true, true, false]);
});
