/**
 * In-process A/B of solver settings on a bench scene (docs/solver.md, "Benchmark"):
 *
 *   node --import tsx bench/ab.ts <scene> <steps> <settingsA> <settingsB> [runs]
 *
 * e.g. `taskset -c 1 node --import tsx bench/ab.ts pile20 300 cutChord=0 cutChord=2 6`. Settings are
 * comma-separated `field=value` pairs set on the world's NewtonSolver before every step (a contact-pattern
 * growth replaces it); `maxStepIters=k` sets the world's Newton settings instead, and `contacts.field=v` the
 * world's contact settings once, after the scene is built (e.g. `contacts.rebuildRate=8`). Both settings first run once
 * uncounted (up to 120 steps: V8 compiles the scene's code paths then); then each run builds the scene once per
 * setting, in alternating order, and runs after the first start from positions perturbed by up to 1e-7 m (seeded). Per window after spawn it prints
 * mean ms a step beside counts that do not depend on the machine: Newton iterations, LDLᵀ factorizations
 * and factored particle rows (rows not held by a sleeping or converged island). Compare the counts first:
 * on a shared machine the times of two runs of the same code differ by 20 % and more.
 */
import { performance } from 'node:perf_hooks';
import { buildScene, SCENES, WINDOWS as SCENE_WINDOWS, type SceneName } from '../src/cli/bench-scenes';
import { warmUpEngine, type PhysicsWorld } from '../src/world';
import { SparseLDLT } from '../src/solver/ldlt';

/** The bench's windows after spawn, in steps of 1/60 s. */
const WINDOWS = SCENE_WINDOWS.map(([from, to]) => [60 * from, 60 * to] as const);
const MAX_STEPS = WINDOWS[WINDOWS.length - 1]![1];

type Setting = [string, number | boolean];

function parseSettings(spec: string): Setting[] {
  if (spec === '' || spec === '-') return [];
  return spec.split(',').map((kv) => {
    const [k, v] = kv.split('=');
    if (!k || v === undefined) throw new Error(`ab: expected field=value, got '${kv}'`);
    const value = v === 'true' ? true : v === 'false' ? false : Number(v);
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`ab: '${kv}': expected a number, true or false`);
    return [k, value];
  });
}

// factorizations and factored particle rows, counted in SparseLDLT.factor
let factorizations = 0;
let factoredRows = 0;
const factor = SparseLDLT.prototype.factor;
SparseLDLT.prototype.factor = function (this: SparseLDLT, values: Float64Array, held?: Uint8Array | null): boolean {
  factorizations++;
  const nodes = this.n >> 1;
  if (!held) factoredRows += nodes;
  else for (let i = 0; i < nodes; i++) factoredRows += held[i] === 0 ? 1 : 0;
  return factor.call(this, values, held);
};

/** Perturb every particle's start by up to 1e-7 m (a linear congruential generator seeded by `seed`). */
function perturb(world: PhysicsWorld, seed: number): void {
  let s = seed >>> 0;
  const next = (): number => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s / 4294967296 - 0.5) * 2e-7;
  };
  const P = world.c.Particle;
  for (const e of world.lists.particles) {
    P.x[e] = P.x[e]! + next();
    P.y[e] = P.y[e]! + next();
  }
}

interface Totals { ms: number[]; iters: number[]; factors: number[]; rows: number[]; rebuilds: number[]; runs: number }

function runOnce(name: SceneName, steps: number, settings: Setting[], seed: number, into: Totals): void {
  const { world, drive } = buildScene(name);
  world.sleeping = false;
  if (seed > 0) perturb(world, seed);
  const contacts = world.contacts as unknown as Record<string, unknown>;
  for (const [k, v] of settings) {
    if (!k.startsWith('contacts.')) continue;
    const field = k.slice('contacts.'.length);
    if (!(field in contacts)) throw new Error(`ab: world.contacts has no field '${field}'`);
    contacts[field] = v;
  }
  const budget = settings.find(([k]) => k === 'maxStepIters');
  if (budget && world.newton !== 'fosssim') world.newton = { ...world.newton, maxStepIters: Number(budget[1]) };
  for (let s = 0; s < steps; s++) {
    if (drive) drive(s);
    const solver = world.newtonSolver() as unknown as Record<string, unknown>;
    for (const [k, v] of settings) {
      if (k === 'maxStepIters' || k.startsWith('contacts.')) continue;
      if (!(k in solver)) throw new Error(`ab: NewtonSolver has no field '${k}'`);
      solver[k] = v;
    }
    const f0 = factorizations, r0 = factoredRows;
    const t0 = performance.now();
    world.step();
    const dt = performance.now() - t0;
    const w = WINDOWS.findIndex(([a, b]) => s >= a && s < b);
    into.ms[w] = into.ms[w]! + dt;
    into.iters[w] = into.iters[w]! + world.lastStats.newtonIters;
    into.factors[w] = into.factors[w]! + factorizations - f0;
    into.rows[w] = into.rows[w]! + factoredRows - r0;
    into.rebuilds[w] = into.rebuilds[w]! + world.lastStats.contactRebuilds;
  }
  into.runs++;
}

function main(): void {
  const [scene, stepsArg, a = '-', b = '-', runsArg = '4'] = process.argv.slice(2);
  if (!scene || !(SCENES as readonly string[]).includes(scene) || !stepsArg) {
    throw new Error(`usage: bench/ab.ts <${SCENES.join('|')}> <steps> <settingsA> <settingsB> [runs]`);
  }
  const steps = Number(stepsArg), runs = Number(runsArg);
  if (!(Number.isInteger(steps) && steps > 0 && steps <= MAX_STEPS)) throw new Error(`ab: steps: expected a whole number in [1, ${MAX_STEPS}]`);
  if (!(Number.isInteger(runs) && runs > 0)) throw new Error('ab: runs: expected a positive whole number');
  const specs = [a, b];
  const parsed = specs.map(parseSettings);
  const zero = (): number[] => WINDOWS.map(() => 0);
  const fresh = (): Totals => ({ ms: zero(), iters: zero(), factors: zero(), rows: zero(), rebuilds: zero(), runs: 0 });
  const totals: Totals[] = specs.map(fresh);
  warmUpEngine();
  // the scene's own code paths compiled first: both settings once, up to 120 steps, not counted
  for (let k = 0; k < 2; k++) runOnce(scene as SceneName, Math.min(steps, 120), parsed[k]!, 0, fresh());
  for (let r = 0; r < runs; r++) {
    const order = r % 2 === 0 ? [0, 1] : [1, 0];
    for (const k of order) runOnce(scene as SceneName, steps, parsed[k]!, r === 0 ? 0 : 12345 + 7919 * r, totals[k]!);
  }
  for (let k = 0; k < 2; k++) {
    const t = totals[k]!;
    const cells = WINDOWS.filter(([from]) => from < steps).map(([from, to], w) => {
      const n = t.runs * (Math.min(to, steps) - from);
      const sec = (k: number): string => String(Math.round((k / 60) * 100) / 100);
      return `${sec(from)}–${sec(Math.min(to, steps))} s: ${(t.ms[w]! / n).toFixed(2)} ms, ` +
        `${(t.iters[w]! / n).toFixed(2)} it, ${(t.factors[w]! / n).toFixed(2)} fac, ${(t.rows[w]! / n).toFixed(0)} rows, ${(t.rebuilds[w]! / t.runs).toFixed(1)} rebuilds`;
    });
    console.log(`${(specs[k] === '-' ? 'defaults' : specs[k]!).padEnd(24)} ${cells.join(' | ')}`);
  }
}

try {
  main();
} catch (e) {
  // bad arguments: one line, no stack trace
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(2);
}
