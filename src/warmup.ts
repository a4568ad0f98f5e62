/**
 * JIT warm-up: before the first game-mode step of a process, two tiny private worlds.
 * - An 8-triangle FOSSSim-CST jelly, bottom row fixed, its top row thrown down at 4 m/s (large
 *   strain: the PSD clamp branch and line-search halvings): DIRECT_WARMUP_STEPS (30) steps on the
 *   direct path (rest chords and chord chains without contact), then WARMUP_STEPS (1500) steps whose
 *   linear systems are solved by PCG preconditioned by one factor (so pcg() and the LDLᵀ kernels
 *   become hot), the Newton phase timings on every third step.
 * - COLLIDER_WARMUP_STEPS (8) steps of three free 8-triangle jellies landing on a circle, a segment and a
 *   polygon collider beside a floor. The contact code's first calls then meet every collider kind, before
 *   the contact world below makes it hot: optimized on half-planes and body edges alone, the candidate search,
 *   the post-solve detection and the staging were deoptimized at a game's first collider contacts and compiled
 *   again, two or three times each (docs/solver.md, "Stop 43").
 * - CONTACT_WARMUP_STEPS (60) steps of contact: two free 8-triangle jellies, one sliding along a
 *   floor at 2 m/s (friction, stick predictions), the other dropped onto it (body–body pairs,
 *   contact-pattern growth, refinement). Without it, the Newton step was optimized with no contact
 *   type feedback, deoptimized at a game's first contact steps, and was optimized again some 50
 *   steps later, in a step that allocated 0.4–0.6 MB: the allocation gate's contact pile failed on
 *   it in 2 of 12 processes (docs/solver.md, "Stop 23"). It also moves the compiling of the contact
 *   code from the game's first contact steps to the warm-up.
 * No other material, no springs or hinges: warming those too was tried and dropped (docs/solver.md,
 * part 5). It is one of the V8 measures the allocation gate shows to be needed (docs/solver.md, part 6).
 *
 * Why (V8, docs/solver.md "Allocation work, part 5"): the solver's kernels are loops over typed
 * arrays. When a kernel's first calls are long loops (a 10k-triangle jelly), V8 decides to
 * optimize it while it is inside the loop and compiles only on-stack-replacement (OSR) code; the
 * request for regular optimized code is dropped, and every later call runs its prologue in the
 * interpreter and jumps into the OSR code at the loop, boxing doubles each time (≈100 B per
 * call). Drivers called a few times per step (the Newton step, Φ) take hundreds of steps to be
 * optimized at all. A small world makes the same functions hot with short calls: V8 marks them at
 * a function return and compiles regular optimized code (with the CST's type feedback) before the
 * game's own bodies run.
 *
 * No effect on results: the warm-up worlds share no state with other worlds (kernels keep only
 * scratch that is overwritten before it is read; test/warmup.test.ts). Costs about half a second once per
 * process on one core of the development machine (0.45–0.75 s, stop 43); games can call it during
 * loading (`warmUpEngine()` in src/world.ts; the plugin's SoftSim does), otherwise the first
 * game-mode PhysicsWorld.step() does.
 */
import type { MaterialName } from './elements';
import { meshBox } from './mesh';
import type { NewtonSolver } from './solver/newton';

/**
 * What the warm-up needs of a world (PhysicsWorld has it): declared here so that this module does
 * not import src/world.ts, which calls it.
 */
export interface WarmUpWorld {
  addParticle(p: { x: number; y: number; vx?: number; vy?: number; m: number; radius?: number; fixed?: boolean; body?: number }): number;
  addTriangle(a: number, b: number, c: number, p: { youngsModulus: number; poissonRatio: number; density?: number; material?: MaterialName }): number;
  createBody(): number;
  addHalfplane(px: number, py: number, nx: number, ny: number): number;
  addCircleCollider(cx: number, cy: number, radius: number): number;
  addSegmentCollider(x1: number, y1: number, x2: number, y2: number): number;
  addPolygonCollider(points: ArrayLike<number>): number;
  readonly contacts: { enabled: boolean };
  step(): void;
  /** The current game-mode Newton solver (its tuning fields). */
  newtonSolver(): NewtonSolver;
}

/** Steps of the warm-up world. */
export const WARMUP_STEPS = 1500;
/**
 * Steps the warm-up jelly takes on the direct LDLᵀ path before its PCG steps: its rest chords and chord
 * chains there (a world without contact, NewtonSolver.chordChain). With one step, the 1k bench jelly's
 * first chains deoptimized the Newton driver, which then allocated 17 kB a step; 30 steps: 0 B.
 */
export const DIRECT_WARMUP_STEPS = 30;
/** Steps of the collider warm-up world (each jelly touches its collider from its first steps). */
export const COLLIDER_WARMUP_STEPS = 8;
/** Steps of the contact warm-up world (1 s: the slide stops and the second jelly lands). */
export const CONTACT_WARMUP_STEPS = 60;

let state: 0 | 1 | 2 = 0; // not run, running, done

/** True once the warm-up ran (or is running) in this process. */
export function engineWarmedUp(): boolean {
  return state !== 0;
}

/**
 * Run the warm-up now (once per process; later calls return at once). `createWorld` makes a
 * game-mode world with dt 1/60 and implicit Euler (src/world.ts passes PhysicsWorld's).
 */
export function runWarmUp(createWorld: () => WarmUpWorld, onProgress?: (fraction: number) => void): void {
  for (const fraction of warmUpSteps(createWorld)) if (onProgress) onProgress(fraction);
}

/**
 * The warm-up one step at a time: yields the fraction done after each of its steps, so that a caller
 * may spread it over several event-loop tasks (PhysicsWorld.warmUpAsync). Yields nothing when the
 * warm-up ran or is running. A warm-up left unfinished (the generator returned early) may run again.
 */
export function* warmUpSteps(createWorld: () => WarmUpWorld): Generator<number, void, void> {
  if (state !== 0) return;
  state = 1;
  try {
    // a fosssim jelly squashed by its top row's initial velocity (large strain: the PSD clamp branch,
    // line-search halvings). After its direct-path steps its linear systems go through PCG preconditioned
    // by one factor, never refactored, so each solve takes several CG iterations and pcg() becomes hot
    // (LDLᵀ's factor and solve kernels run in the direct-path steps and in every preconditioner solve). The
    // solver's phase timings (NewtonSolver.profile) are on every third step.
    const a = createWorld();
    addJelly(a, 0, 0.3, -4);
    let done = 0;
    for (let s = 0; s < DIRECT_WARMUP_STEPS; s++) {
      a.step();
      yield ++done / TOTAL_STEPS;
    }
    const newton = a.newtonSolver();
    newton.pcgMinDofs = 0;
    newton.refactorIters = 1 << 20;
    newton.cgTolerance = 1e-12;
    for (let s = 0; s < WARMUP_STEPS; s++) {
      newton.profile = s % 3 === 0;
      a.step();
      yield ++done / TOTAL_STEPS;
    }
    const c = colliderWorld(createWorld());
    for (let s = 0; s < COLLIDER_WARMUP_STEPS; s++) {
      c.step();
      yield ++done / TOTAL_STEPS;
    }
    const w = contactWorld(createWorld());
    for (let s = 0; s < CONTACT_WARMUP_STEPS; s++) {
      w.step();
      yield ++done / TOTAL_STEPS;
    }
    state = 2;
  } finally {
    if (state !== 2) state = 0;
  }
}

/** Steps of the whole warm-up (its progress fractions). */
const TOTAL_STEPS = DIRECT_WARMUP_STEPS + WARMUP_STEPS + COLLIDER_WARMUP_STEPS + CONTACT_WARMUP_STEPS;

/**
 * The collider warm-up world: a floor, a circle, a segment and a polygon collider, and a jelly resting just above
 * each of the three (their candidates from the first step, touching within a few).
 */
function colliderWorld(w: WarmUpWorld): WarmUpWorld {
  w.addHalfplane(0, 0, 0, 1);
  w.addCircleCollider(-1, 0.3, 0.15);
  w.addSegmentCollider(0.6, 0.4, 1.4, 0.3);
  w.addPolygonCollider([1.8, 0, 2.4, 0, 2.1, 0.3]);
  addJelly(w, -1, 0.63, 0, { body: w.createBody(), vx: 0 });
  addJelly(w, 1, 0.54, 0, { body: w.createBody(), vx: 0 });
  addJelly(w, 2.1, 0.48, 0, { body: w.createBody(), vx: 0 });
  w.contacts.enabled = true;
  return w;
}

/**
 * The contact warm-up world: a floor, one jelly sliding along it at 2 m/s until friction holds it,
 * another dropped onto it from 0.3 m above its top.
 */
function contactWorld(w: WarmUpWorld): WarmUpWorld {
  w.addHalfplane(0, 0, 0, 1);
  addJelly(w, 0, 0.16, 0, { body: w.createBody(), vx: 2 });
  addJelly(w, 0.2, 0.6, 0, { body: w.createBody(), vx: 0 });
  w.contacts.enabled = true;
  return w;
}

/** A 0.3 m square FOSSSim-CST jelly of 8 triangles centred at (cx, cy), bottom row fixed, top row moving at vyTop. */
function addJelly(w: WarmUpWorld, cx: number, cy: number, vyTop: number, free?: { body: number; vx: number }): void {
  const mesh = meshBox(0.3, 0.3, 2, 2);
  const ids: number[] = [];
  const n = mesh.positions.length / 2;
  for (let v = 0; v < n; v++) {
    const y = mesh.positions[2 * v + 1]!;
    ids.push(free
      ? w.addParticle({ x: cx + mesh.positions[2 * v]!, y: cy + y, vx: free.vx, m: 0, radius: 0.02, body: free.body })
      : w.addParticle({ x: cx + mesh.positions[2 * v]!, y: cy + y, vy: y > 0.14 ? vyTop : 0, m: 0, radius: 0.02, fixed: y < -0.14 }));
  }
  for (let t = 0; t < mesh.triangles.length; t += 3) {
    w.addTriangle(ids[mesh.triangles[t]!]!, ids[mesh.triangles[t + 1]!]!, ids[mesh.triangles[t + 2]!]!, {
      youngsModulus: 2e4, poissonRatio: 0.3, density: 100, material: 'fosssim',
    });
  }
}
