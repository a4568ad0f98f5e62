/**
 * Child process of test/late-branches.test.ts, run with --trace-deopt: the jelly page warmed up at load
 * (world.warmUp: the engine's warm-up, then the scene's first 60 steps with its user systems muted, undone), then
 * played for 150 steps between markers. Branches first taken there deoptimized compiled code (docs/solver.md,
 * "Stop 35"): the stage runner's first call of the scene's user systems, and a converged island's factor rows kept
 * beside another island (SparseLDLT.isolateKeptRows).
 */
import { buildScene } from '../../src/cli/bench-scenes';

const { world, drive } = buildScene('page');
world.warmUp();
console.log('--scene-begin');
for (let s = 0; s < 150; s++) {
  drive?.(s);
  world.step();
}
console.log('--scene-end');
