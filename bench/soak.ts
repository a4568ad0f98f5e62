/**
 * Soak test (issue 16): a long run of a contact pile, reporting the heap at intervals, to show that
 * the engine's memory stays flat over many steps (no growth per step, per contact begin/end, per
 * pattern rebuild). Not part of the CI suite: `npm run soak` (defaults: 20,000 steps, a pile of 10
 * jellies of 50 triangles from src/cli/bench-jellies.ts, stirred by a kinematic circle so contacts
 * keep beginning and ending).
 *
 *   npm run soak -- [--steps 20000] [--every 1000] [--jellies 10] [--triangles 50] [--json]
 *
 * Each line: step, heapUsed and arrayBuffers (MB) after a forced GC (node --expose-gc, which the npm
 * script passes), the time per step over the interval, and the contact counters. At the end: the
 * growth of heapUsed and arrayBuffers from the first reading after warm-up to the last, overall and
 * per 1,000 steps. Exits 1 if the state became non-finite.
 *
 * `--scene stirred` (or page, pile20, row20) soaks one of the game-scene bench's scenes instead
 * (src/cli/bench-scenes.ts, with its own drive: the stirred scene's paddle), as issue 15's stirred
 * target asks: memory flat after the first window, touching pairs bounded, no fail-safe step.
 */
import { parseArgs } from 'node:util';
import { PhysicsWorld } from '../src/world';
import { makeJellyPile } from '../src/cli/bench-jellies';
import { buildScene, SCENES, type SceneName } from '../src/cli/bench-scenes';
import { sin } from '../src/math';

const { values } = parseArgs({
  options: {
    steps: { type: 'string', default: '20000' },
    every: { type: 'string', default: '1000' },
    jellies: { type: 'string', default: '10' },
    triangles: { type: 'string', default: '50' },
    scene: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const int = (name: string, v: string): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) {
    process.stderr.write(`soak: --${name}: expected a whole number >= 1, got "${v}"\n`);
    process.exit(2);
  }
  return n;
};
const steps = int('steps', values.steps!), every = int('every', values.every!);
const jellies = int('jellies', values.jellies!), triangles = int('triangles', values.triangles!);
const scene = values.scene;
if (scene !== undefined && !(SCENES as readonly string[]).includes(scene)) {
  process.stderr.write(`soak: --scene: expected one of ${SCENES.join(', ')}, got "${scene}"\n`);
  process.exit(2);
}

const gc = (globalThis as { gc?: () => void }).gc;
const MB = 1024 * 1024;

interface Reading {
  step: number;
  heapUsedMB: number;
  arrayBuffersMB: number;
  msPerStep: number;
  touching: number;
  topologyBuilds: number;
  symbolicBuilds: number;
  failSafeSteps: number;
}

function read(step: number, msPerStep: number, w: PhysicsWorld): Reading {
  gc?.();
  const m = process.memoryUsage();
  return {
    step, heapUsedMB: m.heapUsed / MB, arrayBuffersMB: m.arrayBuffers / MB, msPerStep,
    touching: w.contacts.touching, topologyBuilds: w.lastStats.topologyBuilds, symbolicBuilds: w.lastStats.symbolicBuilds,
    failSafeSteps: w.lastStats.failSafeSteps,
  };
}

/** The soaked world and what moves it before each step (s ≥ 1). */
function soakWorld(): { world: PhysicsWorld; drive: (s: number) => void; what: string } {
  if (scene !== undefined) {
    const built = buildScene(scene as SceneName);
    // buildScene's drive takes the 0-based step the bench is about to run
    return { world: built.world, drive: (s) => built.drive?.(s - 1), what: `the bench's ${scene} scene` };
  }
  const world = new PhysicsWorld({ dt: 1 / 60 });
  const pile = makeJellyPile(world, jellies, triangles);
  // a kinematic circle sweeping through the top of the pile: contacts begin and end all run long
  const top = pile.radius * 2.2 * Math.ceil(jellies / Math.max(1, Math.ceil(Math.sqrt(jellies))));
  const stirrer = world.addCircleCollider(0, top + 0.3, pile.radius * 0.8);
  const drive = (s: number): void => {
    const phase = (2 * Math.PI * s) / 600; // one sweep every 10 s of simulated time
    world.moveColliderTo(stirrer, pile.halfWidth * 0.8 * sin(phase), top + 0.1 * sin(3 * phase));
  };
  return { world, drive, what: `${jellies} jellies × ${triangles} triangles` };
}
const { world, drive, what } = soakWorld();
const positions = new Float64Array(2 * world.particleCount());

const readings: Reading[] = [];
const line = (r: Reading) =>
  `step ${String(r.step).padStart(6)}  heapUsed ${r.heapUsedMB.toFixed(2).padStart(7)} MB  arrayBuffers ${r.arrayBuffersMB.toFixed(2).padStart(7)} MB  ` +
  `${r.msPerStep.toFixed(3)} ms/step  touching ${r.touching}  topology builds ${r.topologyBuilds}  symbolic builds ${r.symbolicBuilds}  fail-safe steps ${r.failSafeSteps}`;
if (!gc) process.stderr.write('soak: run with node --expose-gc (npm run soak does) for heap readings after a full GC\n');
if (!values.json) process.stdout.write(`soak: ${what} (${world.particleCount()} particles), ${steps} steps\n`);
readings.push(read(0, 0, world));
if (!values.json) process.stdout.write(`${line(readings[0]!)}\n`);
let t0 = performance.now();
for (let s = 1; s <= steps; s++) {
  drive(s);
  world.step();
  if (s % every === 0 || s === steps) {
    const ms = (performance.now() - t0) / (s % every === 0 ? every : s % every);
    world.readPositions(positions);
    if (!positions.every(Number.isFinite)) {
      process.stderr.write(`soak: the state became non-finite by step ${s}\n`);
      process.exit(1);
    }
    const r = read(s, ms, world);
    readings.push(r);
    if (!values.json) process.stdout.write(`${line(r)}\n`);
    t0 = performance.now();
  }
}
// growth from the first reading after warm-up (the first interval builds patterns, JIT code, pools)
const first = readings[Math.min(2, readings.length - 1)]!, last = readings[readings.length - 1]!;
const span = Math.max(1, last.step - first.step);
const summary = {
  steps, scene: scene ?? null, jellies, triangles, particles: world.particleCount(), gcForced: gc !== undefined,
  failSafeSteps: last.failSafeSteps, maxTouching: Math.max(...readings.map((r) => r.touching)),
  from: first.step, to: last.step,
  heapUsedGrowthMB: last.heapUsedMB - first.heapUsedMB,
  arrayBuffersGrowthMB: last.arrayBuffersMB - first.arrayBuffersMB,
  heapUsedGrowthKBPer1000Steps: ((last.heapUsedMB - first.heapUsedMB) * 1024 * 1000) / span,
  arrayBuffersGrowthKBPer1000Steps: ((last.arrayBuffersMB - first.arrayBuffersMB) * 1024 * 1000) / span,
  peakHeapUsedMB: Math.max(...readings.map((r) => r.heapUsedMB)),
};
if (values.json) process.stdout.write(`${JSON.stringify({ readings, summary }, null, 1)}\n`);
else {
  process.stdout.write(
    `soak: from step ${first.step} to ${last.step}: heapUsed ${summary.heapUsedGrowthMB >= 0 ? '+' : ''}${summary.heapUsedGrowthMB.toFixed(3)} MB ` +
      `(${summary.heapUsedGrowthKBPer1000Steps.toFixed(2)} KB per 1,000 steps), arrayBuffers ${summary.arrayBuffersGrowthMB >= 0 ? '+' : ''}` +
      `${summary.arrayBuffersGrowthMB.toFixed(3)} MB; peak heapUsed ${summary.peakHeapUsedMB.toFixed(2)} MB\n`,
  );
}
