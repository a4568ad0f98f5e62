/**
 * `elastica bench`: game-mode implicit Euler on square jellies (CST triangles,
 * bottom row fixed, gravity, dt = 1/60), and the same jellies in Rapier 2D
 * (`@dimforge/rapier2d-compat`, a devDependency used only here) for comparison.
 *
 *   elastica bench [--json] [--quick] [--cases 1k,4k,10k,pile] [--no-rapier]
 *                  [--material fosssim|stvk|neohookean|corotational|all] [--no-isolate] [--inject-alloc]
 *
 * Fixtures (the jelly, the pile) are in src/cli/bench-jellies.ts. `--inject-alloc` is the allocation gate's
 * test seam (test/alloc-gate.test.ts): a user system that allocates a small array on every step.
 *
 * Each elastica case (per material) runs in its own Node process (`--no-isolate`: all in this
 * one), as in a game that runs one scene: V8's compiled code and type feedback from one case would
 * otherwise carry over into the next (code compiled for the previous case's world is discarded
 * when that world is collected, and the next case's first few hundred steps re-tier it), which
 * shows up as allocation in the later cases' timed windows (docs/solver.md, part 5).
 *
 * Case `pile` (contact): ten jellies of 512 triangles (5,120 in all) dropped into a box
 * (makeJellyPile), contact inside the game-mode Newton solve (docs/contact.md); 60 warm-up steps
 * then 120 timed (--quick: ten 50-triangle jellies, 5 + 10). Extra JSON fields: `contacts` (mean
 * touching pairs per timed step), `candidates` (mean candidate pairs), `rebuilds` (contact-pattern
 * rebuilds in the timed window), `patternPairs` (contact pairs in the pattern at the end),
 * `failSafeSteps`. No Rapier row (its soft bodies have no comparable pile here).
 *
 * Materials: FOSSSim's CST (ε = FᵀF − I, no ½) is 4× stiffer than StVK /
 * Neo-Hookean / corotational at equal E (docs/materials.md), so the other
 * materials get E = 4·JELLY.youngsModulus: every material models the same
 * jelly (same small-strain stiffness) and costs are compared like for like.
 */
import { performance } from 'node:perf_hooks';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { PhysicsWorld } from '../world';
import { InputError } from '../errors';
import { MATERIAL_NAMES, type MaterialName } from '../elements';
import { JELLY, buildJelly, jellyMesh, jellyModulus, makeJellyPile } from './bench-jellies';
import { STAGES } from '../systems/pipeline';
import { measureSnapshot, type SnapshotFigures } from './bench-snapshot';
import {
  collector, failedSceneRow, measureScene, ratioLines, ratioToRapier, sceneRowLines, SCENES, SCENE_MODES, runSceneRapier, type SceneMode, type SceneName, type SceneResult,
} from './bench-scenes';

export interface BenchOptions {
  json?: boolean;
  quick?: boolean;
  cases?: string[];
  rapier?: boolean;
  /** Triangle materials to bench (default ['fosssim']); 'all' expands to every material. */
  materials?: string[];
  /** Run each elastica case in its own process (default true; the CLI's --no-isolate sets false). */
  isolate?: boolean;
  /** Test seam of the allocation gate (--inject-alloc): allocate on every step (injectAllocation). */
  injectAlloc?: boolean;
  /** Game scenes (bench-scenes.ts): steps to run (default 600; stirred 2,000). */
  steps?: number;
  /** Game scenes, in a child process: run only this Elastica mode (internal: the parent's isolation). */
  sceneMode?: SceneMode;
  /** `--core` for the child processes: where this one runs (bench-pin.ts pinBench), so they run there too. */
  core?: string;
  /** Where this process runs ('Node v20.x, core 1'), written to each row it measures (bench-pin.ts). */
  runtime?: string;
  out?: (line: string) => void;
}

export interface BenchResult {
  name: string;
  engine: string;
  /** Triangle material (elastica rows). */
  material?: string;
  /** Young's modulus given to that material (4E for non-FOSSSim materials: same jelly). */
  youngsModulus?: number;
  triangles: number;
  dofs: number;
  integrator: string;
  linearPath: string;
  msPerStepMedian: number;
  msPerStepP95: number;
  /** Where the row was measured: Node's version and the cores (bench-pin.ts). */
  runtime?: string;
  /** Tail of the step times (elastica rows): 99th percentile and largest step, ms. */
  msPerStepP99?: number;
  msPerStepMax?: number;
  /**
   * Game-mode solver counts over the timed window (elastica rows; deterministic, unlike the times):
   * PCG preconditioner refactorizations, PCG iterations per step, chord iterations
   * (src/solver/newton.ts; all 0 on the direct LDLᵀ path below 8000 dofs).
   */
  refactors?: number;
  cgItersPerStep?: number;
  chordIters?: number;
  newtonItersMean: number;
  msAssembly: number;
  msFactor: number;
  msSolve: number;
  /** Retained heap growth per step: heap after a full GC at the end minus at the start of the timed window. */
  heapGrowthBytesPerStep: number;
  /**
   * Bytes allocated per step (V8 heap used + external memory, sampled right before and after
   * each timed step with no GC in between; the sampler's own allocation is calibrated out),
   * mean over the timed steps that saw no garbage collection.
   */
  allocBytesPerStep: number;
  /**
   * The steady-state figure the allocation gate checks (test/alloc-gate.test.ts): mean bytes per
   * metered step after dropping the largest STEADY_DROP (5 %) of them. The dropped steps are the
   * isolated ones during which V8 installs newly optimized code (0–5 per window, see allocSteps);
   * an allocation made on every step is not dropped and shows here in full.
   */
  allocBytesPerStepSteady: number;
  /** Largest single-step allocation in the timed window (bytes, same measure). */
  allocBytesMaxStep: number;
  /**
   * Metered timed steps that allocated more than 16 bytes (one boxed double), and how many steps
   * were metered (the phase-profiled ones are not). In the steady state this is 0 or a few
   * isolated steps during which V8 installed newly optimized code for a function that only then
   * became hot (docs/solver.md, part 5): the heap grows by the code and its metadata, not garbage.
   */
  allocSteps: number;
  meteredSteps: number;
  /**
   * Mean milliseconds per pipeline stage (src/systems/pipeline.ts: STAGES) over the profiled steps
   * (every PROFILE_EVERY-th; PhysicsWorld.profile on, so not allocation-metered). Elastica rows only.
   */
  stageMs?: Record<string, number>;
  /** Snapshot size and median times after the timed window (bench-snapshot.ts; Elastica rows). */
  snapshotBytes?: SnapshotFigures['snapshotBytes'];
  snapshotMs?: number;
  restoreMs?: number;
  /** Restore + 8 steps (ms, median): a rollback. */
  rollbackMs?: number;
  /** Timed steps during which a garbage collection ran (heap shrank): 0 when nothing is allocated. */
  gcSteps: number;
  sag: number;
  /** Contact case: mean touching pairs per timed step. */
  contacts?: number;
  /** Contact case: mean contact candidates (pairs in the solve) per timed step. */
  candidates?: number;
  /** Contact case: contact-pattern rebuilds (pattern + symbolic factorization) in the timed window. */
  rebuilds?: number;
  /** Contact case: contact node pairs in the sparsity pattern at the end. */
  patternPairs?: number;
  /** Contact case: steps that failed safe in the timed window. */
  failSafeSteps?: number;
  note?: string;
}

const CASES: Record<string, number> = { '1k': 1000, '4k': 4000, '10k': 10000 };
/** Contact case: a pile of PILE_COUNT jellies of PILE_EACH triangles (--quick: PILE_EACH_QUICK). */
const PILE = 'pile';
const PILE_COUNT = 10;
const PILE_EACH = 512;
const PILE_EACH_QUICK = 50;
const KNOWN = [...Object.keys(CASES), PILE, ...SCENES];

function quantile(sorted: number[], q: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

function round(x: number, d = 3): number {
  const s = 10 ** d;
  return Math.round(x * s) / s;
}


/** V8 heap in use plus external (ArrayBuffer) memory, without collecting. */
function heapNow(): number {
  const s = v8.getHeapStatistics();
  return s.used_heap_size + s.external_memory;
}

/**
 * Per-step allocation sampler: `before()`/`after()` bracket one step; heapNow() allocates its
 * own result object, which the calibration (same bracket around an empty call, median of 64)
 * subtracts. Heap used only grows between collections, so a step whose bracket shrank saw a GC
 * and is counted in `gcSteps` instead.
 */
class AllocMeter {
  private overhead = 0;
  private u0 = 0;
  /** Allocation of each metered step (bytes), for steady(). */
  private readonly perStep: Float64Array;
  sum = 0;
  n = 0;
  max = 0;
  gcSteps = 0;
  /** Steps that allocated more than 16 bytes. */
  allocating = 0;
  constructor(capacity: number) {
    this.perStep = new Float64Array(capacity);
    // the bracket around a timed step also holds the step's pair of clock reads (performance.now()
    // returns a fresh heap number in Node 20) and the store of their difference: calibrated too
    const noop = (): void => {};
    const d: number[] = [];
    const sink = new Float64Array(1);
    for (let i = 0; i < 64; i++) {
      this.before();
      const t0 = performance.now();
      noop();
      sink[0] = performance.now() - t0;
      d.push(this.raw());
    }
    d.sort((a, b) => a - b);
    this.overhead = d[32]!;
  }
  before(): void {
    this.u0 = heapNow();
  }
  private raw(): number {
    return heapNow() - this.u0;
  }
  after(): void {
    const d = this.raw();
    if (d < 0) {
      this.gcSteps++;
      return;
    }
    const a = Math.max(0, d - this.overhead);
    if (this.n < this.perStep.length) this.perStep[this.n] = a;
    this.sum += a;
    this.n++;
    if (a > 16) this.allocating++;
    if (a > this.max) this.max = a;
  }
  mean(): number {
    return this.n > 0 ? this.sum / this.n : 0;
  }
  /** Mean after dropping the largest ceil(STEADY_DROP · n) steps (called after the timed window). */
  steady(): number {
    const n = Math.min(this.n, this.perStep.length);
    const kept = n - Math.ceil(STEADY_DROP * n);
    if (kept <= 0) return 0;
    const sorted = Array.from(this.perStep.subarray(0, n)).sort((a, b) => a - b);
    let s = 0;
    for (let i = 0; i < kept; i++) s += sorted[i]!;
    return s / kept;
  }
}

/** Share of the metered steps that allocBytesPerStepSteady leaves out (the largest ones). */
export const STEADY_DROP = 0.05;

/**
 * Heap in use after full collections (gc exposed through V8 flags at run time). Six in a row: V8
 * flushes the bytecode of functions not run for 5 full collections (--bytecode-old-age), so with
 * one the baseline still held the set-up code (mesh, pattern, ordering) that the collections at the end
 * freed, and retained growth read −0.6…+0.3 KB/step of noise.
 */
function heapUsed(): number {
  const gc = collector();
  if (!gc) throw new Error('bench: no garbage collection on demand in this runtime');
  for (let k = 0; k < 6; k++) gc();
  return process.memoryUsage().heapUsed;
}

/** Phase timings (NewtonSolver.profile) are taken on every PROFILE_EVERY-th step only. */
export const PROFILE_EVERY = 10;
/**
 * Warm-up steps run after the full-GC baseline: a full GC drops V8's OSR code, so taking it right
 * before the timed window made the first timed steps run partly interpreted (docs/solver.md).
 */
export const STEPS_AFTER_BASELINE = 5;

/** Per-stage time sums over the profiled steps (PhysicsWorld.profile), reported as means. */
class StageTimes {
  private readonly sum = new Float64Array(STAGES.length);
  private n = 0;
  add(world: PhysicsWorld): void {
    const ms = world.lastStats.stageMs;
    for (let i = 0; i < STAGES.length; i++) this.sum[i] = this.sum[i]! + ms[i]!;
    this.n++;
  }
  means(): Record<string, number> {
    const out: Record<string, number> = {};
    STAGES.forEach((name, i) => {
      out[name] = round(this.n > 0 ? this.sum[i]! / this.n : 0, 4);
    });
    return out;
  }
}

/** Step k (counted from the first step after the one that created the Newton state) is profiled. */
function isProfiled(k: number): boolean {
  return k % PROFILE_EVERY === 1;
}

/**
 * Warm-up steps 1 … warmup − 1 (step 0 created the Newton state), with the same sampled phase
 * timings as the timed window (step 1 profiled, so both paths of NewtonSolver.step have type
 * feedback early); the allocation meter and the full-GC heap baseline are set up
 * STEPS_AFTER_BASELINE steps before the end.
 */
function warmUp(world: PhysicsWorld, newton: { profile: boolean }, warmup: number, steps: number): { meter: AllocMeter; heap0: number; stepsAfterBaseline: number } {
  const baseAt = Math.max(1, warmup - STEPS_AFTER_BASELINE);
  let meter: AllocMeter | null = null, heap0 = 0;
  for (let s = 1; s < warmup; s++) {
    if (s === baseAt) {
      meter = new AllocMeter(steps);
      heap0 = heapUsed();
    }
    // a contact-pattern rebuild may replace the Newton state: profile the current one
    const n = world.pipeline.ctx.newtonSolver ?? newton;
    n.profile = world.profile = isProfiled(s);
    world.step();
  }
  if (!meter) {
    meter = new AllocMeter(steps);
    heap0 = heapUsed();
    return { meter, heap0, stepsAfterBaseline: 0 };
  }
  return { meter, heap0, stepsAfterBaseline: warmup - baseAt };
}

/** Where injectAllocation's arrays go, so V8 cannot prove them dead and skip the allocation. */
const allocSink: { last: unknown } = { last: null };

/**
 * Test seam of the allocation gate (`bench --inject-alloc`, test/alloc-gate.test.ts): a user system
 * in the forces stage, inside world.step(), that allocates a one-element array on every step. The
 * gate runs the bench with it to show that its figure catches one small allocation per step.
 */
function injectAllocation(world: PhysicsWorld): void {
  world.addSystem('forces', (ctx) => {
    allocSink.last = [ctx.stepCount];
  });
}

/** Game-mode implicit Euler on the jelly. */
export function benchElastica(name: string, target: number, warmup: number, steps: number, material: MaterialName = 'fosssim', inject = false): BenchResult {
  const world = new PhysicsWorld({ dt: 1 / 60, integrator: 'implicit-euler' });
  const { top } = buildJelly(target, world, material);
  if (inject) injectAllocation(world);
  const t = world.topology();
  const ws = world.workspace();
  world.step(); // creates the Newton state
  const newton = world.newtonSolver();
  const w = warmUp(world, newton, warmup, steps);
  const times = new Float64Array(steps);
  let iters = 0, msA = 0, msF = 0, msS = 0, profiled = 0;
  const paths = new Set<string>();
  const stages = new StageTimes();
  const { meter } = w;
  const ref0 = newton.refactors, cg0 = newton.cgItersTotal, chord0 = newton.chordIters;
  for (let s = 0; s < steps; s++) {
    // phase and stage timings (NewtonSolver.profile, PhysicsWorld.profile: ~15 clock reads per step)
    // on sampled steps only, which the allocation meter skips; every step is timed by one pair of
    // reads around world.step
    const prof = isProfiled(warmup + s);
    newton.profile = world.profile = prof;
    if (!prof) meter.before();
    const t0 = performance.now();
    world.step();
    times[s] = performance.now() - t0;
    if (!prof) meter.after();
    iters += ws.stats.newtonIters;
    if (prof) {
      msA += newton.timing.msAssembly;
      msF += newton.timing.msFactor;
      msS += newton.timing.msSolve;
      stages.add(world);
      profiled++;
    }
    paths.add(ws.stats.linearPath);
  }
  const heap1 = heapUsed();
  const sorted = Array.from(times).sort((a, b) => a - b);
  const pos = world.readPositions();
  let h = 0;
  for (const i of top) h += pos[2 * i + 1]!;
  h /= top.length;
  return {
    name, engine: 'elastica', material, youngsModulus: jellyModulus(material), triangles: t.triangles.count, dofs: t.ndof, integrator: 'implicit-euler (game: newton+linesearch, psd)',
    linearPath: [...paths].sort().join('+'),
    msPerStepMedian: round(quantile(sorted, 0.5)), msPerStepP95: round(quantile(sorted, 0.95)),
    msPerStepP99: round(quantile(sorted, 0.99)), msPerStepMax: round(sorted[sorted.length - 1]!),
    refactors: newton.refactors - ref0, cgItersPerStep: round((newton.cgItersTotal - cg0) / steps, 2), chordIters: newton.chordIters - chord0,
    newtonItersMean: round(iters / steps, 2), msAssembly: round(msA / profiled), msFactor: round(msF / profiled), msSolve: round(msS / profiled),
    heapGrowthBytesPerStep: round((heap1 - w.heap0) / (steps + w.stepsAfterBaseline), 1),
    allocBytesPerStep: round(meter.mean(), 1), allocBytesPerStepSteady: round(meter.steady(), 1), allocBytesMaxStep: meter.max, allocSteps: meter.allocating, meteredSteps: meter.n, gcSteps: meter.gcSteps,
    sag: round(h / JELLY.size, 4), stageMs: stages.means(), ...measureSnapshot(world),
  };
}

/**
 * Contact case: `count` jellies of ~`each` triangles dropped into a box (makeJellyPile), game-mode
 * implicit Euler, dt 1/60. `sag` here is the final mean particle height over the initial one.
 */
export function benchPile(warmup: number, steps: number, each: number, count = PILE_COUNT, inject = false): BenchResult {
  const world = new PhysicsWorld({ dt: 1 / 60, integrator: 'implicit-euler' });
  makeJellyPile(world, count, each);
  if (inject) injectAllocation(world);
  const t = world.topology();
  const meanY = (): number => {
    const p = world.readPositions();
    let y = 0;
    for (let i = 1; i < p.length; i += 2) y += p[i]!;
    return y / (p.length / 2);
  };
  const y0 = meanY();
  world.step(); // creates the Newton state
  let newton = world.newtonSolver();
  const w = warmUp(world, newton, warmup, steps);
  newton = world.pipeline.ctx.newtonSolver ?? newton;
  const times = new Float64Array(steps);
  let iters = 0, msA = 0, msF = 0, msS = 0, touching = 0, cand = 0, profiled = 0;
  const stages = new StageTimes();
  const paths = new Set<string>();
  const { meter } = w;
  const rebuilds0 = world.lastStats.contactRebuildsTotal, failSafe0 = world.lastStats.failSafeSteps;
  for (let s = 0; s < steps; s++) {
    const prof = isProfiled(warmup + s);
    newton.profile = world.profile = prof;
    if (!prof) meter.before();
    const t0 = performance.now();
    world.step();
    times[s] = performance.now() - t0;
    if (!prof) meter.after();
    // a contact-pattern rebuild replaces the workspace (and its Newton state): its phase timings
    // are those of the old state, which ran the step
    const ws = world.workspace();
    const st = ws.stats;
    iters += st.newtonIters;
    if (prof) {
      msA += newton.timing.msAssembly;
      msF += newton.timing.msFactor;
      msS += newton.timing.msSolve;
      stages.add(world);
      profiled++;
    }
    const current = world.pipeline.ctx.newtonSolver;
    if (current && current !== newton) newton = current;
    paths.add(st.linearPath);
    touching += st.contactTouching;
    cand += st.contactCandidates;
  }
  const heap1 = heapUsed();
  const st = world.lastStats;
  const sorted = Array.from(times).sort((a, b) => a - b);
  return {
    name: PILE, engine: 'elastica', material: 'fosssim', youngsModulus: 2e4, triangles: t.triangles.count, dofs: t.ndof,
    integrator: 'implicit-euler (game: newton+linesearch, psd, contact)',
    linearPath: [...paths].sort().join('+'),
    msPerStepMedian: round(quantile(sorted, 0.5)), msPerStepP95: round(quantile(sorted, 0.95)),
    msPerStepP99: round(quantile(sorted, 0.99)), msPerStepMax: round(sorted[sorted.length - 1]!),
    newtonItersMean: round(iters / steps, 2), msAssembly: round(msA / profiled), msFactor: round(msF / profiled), msSolve: round(msS / profiled),
    heapGrowthBytesPerStep: round((heap1 - w.heap0) / (steps + w.stepsAfterBaseline), 1),
    allocBytesPerStep: round(meter.mean(), 1), allocBytesPerStepSteady: round(meter.steady(), 1), allocBytesMaxStep: meter.max, allocSteps: meter.allocating, meteredSteps: meter.n, gcSteps: meter.gcSteps,
    sag: round(meanY() / y0, 4),
    contacts: round(touching / steps, 1), candidates: round(cand / steps, 1),
    rebuilds: st.contactRebuildsTotal - rebuilds0, patternPairs: world.topology().contactPairCount,
    failSafeSteps: st.failSafeSteps - failSafe0, stageMs: stages.means(), ...measureSnapshot(world),
    note: `${count} jellies x ${each} triangles dropped into a box, warm-up ${warmup} + ${steps} timed steps; no Rapier comparison (contact case)`,
  };
}

/** The same jelly in Rapier 2D's soft bodies (FEM solver, corotational cells). */
export async function benchRapier(name: string, target: number, warmup: number, steps: number): Promise<BenchResult> {
  const R = (await import('@dimforge/rapier2d-compat')).default;
  await R.init();
  const { nx, pos, tris } = jellyMesh(target);
  const world = new R.World({ x: 0, y: -9.81 });
  world.timestep = 1 / 60;
  const nNodes = pos.length / 2;
  const masses = new Float32Array(nNodes);
  for (let e = 0; e < tris.length; e += 3) {
    const [a, b, c] = [tris[e]!, tris[e + 1]!, tris[e + 2]!];
    const area = 0.5 * Math.abs((pos[2 * b]! - pos[2 * a]!) * (pos[2 * c + 1]! - pos[2 * a + 1]!) - (pos[2 * c]! - pos[2 * a]!) * (pos[2 * b + 1]! - pos[2 * a + 1]!));
    for (const k of [a, b, c]) masses[k] = masses[k]! + (JELLY.density * area) / 3;
  }
  const pinned = Uint32Array.from({ length: nx + 1 }, (_, i) => i);
  const desc = new R.SoftBodyDesc(Float32Array.from(pos))
    .setCells(Uint32Array.from(tris))
    .setCellModel(R.SoftBodyCellModel.Corotational)
    .setSolver(R.SoftBodySolver.Fem)
    .setMasses(masses)
    .setPinnedParticles(pinned)
    .setSelfContacts(false)
    .setCanSleep(false);
  desc.setMaterial(materialFor(R) as never);
  const body = world.createSoftBody(desc);
  for (let s = 0; s < warmup; s++) world.step();
  const times: number[] = new Array<number>(steps).fill(0);
  const meter = new AllocMeter(steps);
  const heap0 = heapUsed();
  for (let s = 0; s < steps; s++) {
    meter.before();
    const t0 = performance.now();
    world.step();
    times[s] = performance.now() - t0;
    meter.after();
  }
  const heap1 = heapUsed();
  const sorted = times.slice().sort((a, b) => a - b);
  const h = rapierTopHeight(body, nNodes, nx);
  world.free();
  return {
    name, engine: 'rapier2d-compat soft body (Fem solver, corotational)', triangles: tris.length / 3, dofs: 2 * nNodes,
    integrator: 'rapier', linearPath: 'rapier',
    msPerStepMedian: round(quantile(sorted, 0.5)), msPerStepP95: round(quantile(sorted, 0.95)),
    newtonItersMean: 0, msAssembly: 0, msFactor: 0, msSolve: 0,
    heapGrowthBytesPerStep: round((heap1 - heap0) / steps, 1),
    allocBytesPerStep: round(meter.mean(), 1), allocBytesPerStepSteady: round(meter.steady(), 1), allocBytesMaxStep: meter.max, allocSteps: meter.allocating, meteredSteps: meter.n, gcSteps: meter.gcSteps,
    sag: round(h / JELLY.size, 4),
  };
}

function materialFor(R: any): unknown {
  const m = new R.SoftBodyMaterial();
  m.youngModulus = 4 * JELLY.youngsModulus;
  m.poissonRatio = JELLY.poissonRatio;
  return m;
}

function rapierTopHeight(body: any, nNodes: number, nx: number): number {
  let h = 0, c = 0;
  for (let k = nNodes - nx - 1; k < nNodes; k++) {
    const p = body.particlePosition(k);
    h += p.y;
    c++;
  }
  return h / c;
}

export async function runBench(opts: BenchOptions): Promise<BenchResult[]> {
  const out = opts.out ?? ((l: string) => process.stdout.write(`${l}\n`));
  const names = opts.cases ?? ['1k', '4k', '10k', PILE];
  for (const n of names) if (!KNOWN.includes(n)) throw new InputError(`bench --cases: unknown case "${n}" (known: ${KNOWN.join(', ')})`);
  const mats: MaterialName[] = [];
  for (const m of opts.materials ?? ['fosssim']) {
    if (m === 'all') mats.push(...MATERIAL_NAMES);
    else if ((MATERIAL_NAMES as readonly string[]).includes(m)) mats.push(m as MaterialName);
    else throw new InputError(`bench --material: unknown material "${m}" (known: ${MATERIAL_NAMES.join(', ')}, all)`);
  }
  const materials = [...new Set(mats)];
  if (!opts.json && materials.some((m) => m !== 'fosssim')) {
    out(`materials: fosssim at E = ${JELLY.youngsModulus}, others at 4E = ${4 * JELLY.youngsModulus} (FOSSSim's CST is 4x stiffer at equal E): same jelly`);
  }
  if (!opts.json && opts.runtime !== undefined && opts.sceneMode === undefined) out(`runtime: ${opts.runtime}`);
  const warmup = opts.quick ? 5 : 60;
  const steps = opts.quick ? 10 : 300;
  const results: BenchResult[] = [];
  const isolate = opts.isolate !== false;
  const inject = opts.injectAlloc === true;
  for (const name of names) {
    if ((SCENES as readonly string[]).includes(name)) {
      await benchScene(name as SceneName, opts, out);
      continue;
    }
    if (name === PILE) {
      const rp = isolate ? benchInChild(name, 'fosssim', opts.quick === true, inject, opts.core)
        : opts.quick ? benchPile(5, 10, PILE_EACH_QUICK, PILE_COUNT, inject) : benchPile(60, 120, PILE_EACH, PILE_COUNT, inject);
      results.push(rp);
      emit(rp);
      continue;
    }
    let r: BenchResult | null = null;
    for (const m of materials) {
      const rm = isolate ? benchInChild(name, m, opts.quick === true, inject, opts.core) : benchElastica(name, CASES[name]!, warmup, steps, m, inject);
      results.push(rm);
      emit(rm);
      r ??= rm;
    }
    if (!r) continue;
    if (opts.rapier !== false) {
      let rr: BenchResult | null = null;
      try {
        rr = await benchRapier(name, CASES[name]!, warmup, steps);
      } catch (e) {
        out(opts.json ? JSON.stringify({ name, engine: 'rapier2d-compat', error: String(e) }) : `  rapier: failed: ${String(e)}`);
      }
      if (rr) {
        rr.note = `elastica/rapier ms ratio ${round(r.msPerStepMedian / rr.msPerStepMedian, 2)}`;
        results.push(rr);
        emit(rr);
      }
    }
  }
  return results;

  function emit(r: BenchResult): void {
    r.runtime ??= opts.runtime;
    if (opts.json) {
      out(JSON.stringify(r));
      return;
    }
    out(
      `${r.name.padEnd(4)} ${(r.material ? `${r.engine} ${r.material}` : r.engine).slice(0, 28).padEnd(28)} tris ${String(r.triangles).padStart(6)} dofs ${String(r.dofs).padStart(6)}  ` +
        `median ${r.msPerStepMedian.toFixed(2)} ms  p95 ${r.msPerStepP95.toFixed(2)} ms` +
        (r.msPerStepP99 !== undefined ? `  p99 ${r.msPerStepP99.toFixed(2)} ms  max ${r.msPerStepMax!.toFixed(2)} ms` : '') + `  newton ${r.newtonItersMean}  ` +
        (r.cgItersPerStep !== undefined ? `pcg ${r.cgItersPerStep}/step refactors ${r.refactors} chord ${r.chordIters}  ` : '') +
        `asm ${r.msAssembly} fac ${r.msFactor} sol ${r.msSolve}  alloc ${r.allocBytesPerStep} B/step (${r.allocSteps} of ${r.meteredSteps} steps, max ${r.allocBytesMaxStep}, gc ${r.gcSteps})  retained ${r.heapGrowthBytesPerStep} B/step  sag ${r.sag}  ${r.linearPath}` +
        (r.contacts !== undefined ? `  contacts ${r.contacts} candidates ${r.candidates} rebuilds ${r.rebuilds} pattern pairs ${r.patternPairs} fail-safe ${r.failSafeSteps}` : '') +
        (r.note ? `  ${r.note}` : ''),
    );
  }
}

/**
 * A game scene (bench-scenes.ts): Elastica in each SCENE_MODES mode (cold: a fresh process; cold-warmup: the same,
 * warmed up at load; game: cold-warmup with sleeping on, the game layer's defaults; warm: built again after one run
 * in a process; sleeping: warm with sleeping on), then Rapier's constraints (default) and FEM solvers, sleeping off and on,
 * then the ratio row (ratioToRapier: Elastica warm over Rapier's default solver). One JSON row each; the text form prints one line per time window.
 */
async function benchScene(name: SceneName, opts: BenchOptions, out: (l: string) => void): Promise<void> {
  const sopts = { ...(opts.steps !== undefined ? { steps: opts.steps } : opts.quick ? { steps: 30, block: 10 } : {}) };
  const emitScene = (r: SceneResult): void => {
    r.runtime ??= opts.runtime;
    if (opts.json) {
      out(JSON.stringify(r));
      return;
    }
    for (const l of sceneRowLines(r)) out(l);
  };
  if (opts.sceneMode) {
    // in the child process (a warm run first runs the scene once, unmeasured)
    emitScene(measureScene(name, opts.sceneMode, sopts));
    return;
  }
  let warm: SceneResult | null = null;
  for (const mode of SCENE_MODES) {
    let r: SceneResult;
    if (opts.isolate !== false) {
      const args = [ELASTICA_BIN, 'bench', '--json', '--no-rapier', '--cases', name, '--scene-mode', mode];
      if (opts.steps !== undefined) args.push('--steps', String(opts.steps));
      if (opts.quick) args.push('--quick');
      if (opts.core !== undefined) args.push('--core', opts.core);
      const child = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 24 });
      const line = child.status === 0 ? child.stdout.split('\n').find((l) => l.startsWith('{')) : undefined;
      if (!line) throw new Error(`bench: scene ${name} (${mode}) failed in its child process (exit ${child.status ?? child.signal}): ${(child.stderr || child.stdout).trim().slice(0, 2000)}`);
      r = JSON.parse(line) as SceneResult;
    } else r = measureScene(name, mode, sopts);
    if (mode === 'warm') warm = r;
    emitScene(r);
  }
  if (opts.rapier === false) return;
  let rapierDefault: SceneResult | null = null;
  for (const solver of ['constraints', 'fem'] as const) {
    for (const sleeping of [false, true]) {
      try {
        const r = await runSceneRapier(name, solver, sleeping, sopts);
        if (solver === 'constraints' && !sleeping) rapierDefault = r;
        emitScene(r);
      } catch (e) {
        emitScene({ ...failedSceneRow(name, `rapier2d-compat (${solver})`, 'warm', e), sleeping });
      }
    }
  }
  const ratio = warm && rapierDefault ? ratioToRapier(warm, rapierDefault) : null;
  if (!ratio) return;
  if (opts.json) out(JSON.stringify(ratio));
  else for (const l of ratioLines(ratio)) out(l);
}

/** The `elastica` command (bin/elastica.mjs), two levels up from this module (src/cli or dist/cli). */
const ELASTICA_BIN = fileURLToPath(new URL('../../bin/elastica.mjs', import.meta.url));

/** One elastica case in a fresh Node process (`bench --no-isolate` there), its JSON row parsed. */
function benchInChild(name: string, material: MaterialName, quick: boolean, inject: boolean, core: string | undefined): BenchResult {
  const args = [ELASTICA_BIN, 'bench', '--json', '--no-isolate', '--no-rapier', '--cases', name, '--material', material];
  if (quick) args.push('--quick');
  if (inject) args.push('--inject-alloc');
  if (core !== undefined) args.push('--core', core);
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 24 });
  const line = r.status === 0 ? r.stdout.split('\n').find((l) => l.startsWith('{')) : undefined;
  if (!line) {
    throw new Error(`bench: case ${name} (${material}) failed in its child process (exit ${r.status ?? r.signal}): ${(r.stderr || r.stdout).trim().slice(0, 2000)}`);
  }
  return JSON.parse(line) as BenchResult;
}
