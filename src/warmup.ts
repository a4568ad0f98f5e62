/**
 * JIT warm-up: before the first game-mode step of a process, WARMUP_STEPS (1500) steps of one tiny
 * private world: an 8-triangle FOSSSim-CST jelly, bottom row fixed, its top row thrown down at 4 m/s
 * (large strain: the PSD clamp branch and line-search halvings), its linear systems solved by PCG
 * preconditioned by the first step's factor (so pcg() and the LDLᵀ kernels become hot), the
 * Newton phase timings on every third step. No other material, no springs or hinges, no contact:
 * warming those too was tried and dropped (docs/solver.md, part 5: 0.22 s and 1–2.4 s, and the
 * isolated late-compile steps stayed); contact's kernels are compiled during a game's first steps.
 * It is one of the V8 measures the allocation gate shows to be needed (docs/solver.md, part 6).
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
 * No effect on results: the warm-up world shares no state with other worlds (kernels keep only
 * scratch that is overwritten before it is read; test/warmup.test.ts). Costs 0.10–0.14 s once per
 * process (docs/solver.md, part 5); games can call it during loading (`warmUpEngine()` in src/world.ts), otherwise the
 * first game-mode PhysicsWorld.step() does.
 */
import type { MaterialName } from './elements';
import { meshBox } from './mesh';
import type { NewtonSolver } from './solver/newton';

/**
 * What the warm-up needs of a world (PhysicsWorld has it): declared here so that this module does
 * not import src/world.ts, which calls it.
 */
export interface WarmUpWorld {
  addParticle(p: { x: number; y: number; vy?: number; m: number; radius?: number; fixed?: boolean; body?: number }): number;
  addTriangle(a: number, b: number, c: number, p: { youngsModulus: number; poissonRatio: number; density?: number; material?: MaterialName }): number;
  step(): void;
  /** The current game-mode Newton solver (its tuning fields). */
  newtonSolver(): NewtonSolver;
}

/** Steps of the warm-up world. */
export const WARMUP_STEPS = 1500;

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
  if (state !== 0) return;
  state = 1;
  // a fosssim jelly squashed by its top row's initial velocity (large strain: the PSD clamp branch,
  // line-search halvings). Its linear systems go through PCG preconditioned by the factor of the
  // first step, never refactored, so each solve takes several CG iterations and pcg() becomes hot
  // (LDLᵀ's factor and solve kernels run in the first step and in every preconditioner solve). The
  // solver's phase timings (NewtonSolver.profile) are on every third step.
  const a = createWorld();
  addJelly(a, 0, 0.3, -4);
  a.step();
  const newton = a.newtonSolver();
  newton.pcgMinDofs = 0;
  newton.refactorIters = 1 << 20;
  newton.cgTolerance = 1e-12;
  for (let s = 0; s < WARMUP_STEPS; s++) {
    newton.profile = s % 3 === 0;
    a.step();
    if (onProgress && (s + 1) % 100 === 0) onProgress((s + 1) / WARMUP_STEPS);
  }
  state = 2;
}

/** A 0.3 m square FOSSSim-CST jelly of 8 triangles centred at (cx, cy), bottom row fixed, top row moving at vyTop. */
function addJelly(w: WarmUpWorld, cx: number, cy: number, vyTop: number): void {
  const mesh = meshBox(0.3, 0.3, 2, 2);
  const ids: number[] = [];
  const n = mesh.positions.length / 2;
  for (let v = 0; v < n; v++) {
    const y = mesh.positions[2 * v + 1]!;
    ids.push(w.addParticle({ x: cx + mesh.positions[2 * v]!, y: cy + y, vy: y > 0.14 ? vyTop : 0, m: 0, radius: 0.02, fixed: y < -0.14 }));
  }
  for (let t = 0; t < mesh.triangles.length; t += 3) {
    w.addTriangle(ids[mesh.triangles[t]!]!, ids[mesh.triangles[t + 1]!]!, ids[mesh.triangles[t + 2]!]!, {
      youngsModulus: 2e4, poissonRatio: 0.3, density: 100, material: 'fosssim',
    });
  }
}
