/**
 * The allocation gate: the step path allocates nothing after warm-up (docs/design.md, "Scratch and
 * calling convention"; docs/solver.md, "Allocation work", parts 1–5).
 *
 * How: the bench's own measurement (src/cli/bench.ts, AllocMeter) in child processes, as
 * `elastica bench --json --cases 1k,pile --no-rapier`: each case in a fresh Node process (JIT state
 * clean, nothing of this test's process measured), the engine's JIT warm-up (src/warmup.ts) on the
 * first step, then 60 warm-up steps and a timed window of 300 steps (1k jelly, 1,012 triangles) or
 * 120 steps (the contact pile, 10 jellies × 512 triangles, src/cli/bench-jellies.ts). The meter reads V8's
 * heap used + external memory right before and after each metered step (its own reads
 * calibrated out). Nothing here depends on time, so a loaded machine changes no figure below
 * except when V8's concurrent compiles land (see the dropped steps).
 *
 * What is checked, per case, and why these budgets:
 *
 * - allocBytesPerStepSteady ≤ STEADY_BUDGET (8 B/step). The mean bytes per metered step after
 *   dropping the largest 5 % of steps. Measured on this branch, 6 runs of both cases (2 cores shared
 *   with other helpers, load average up to 13.6, `taskset -c 1`): 0 in all 12 rows. Outside compile
 *   events single steps read 0 or 8 B (the calibration's jitter: one pile run had a mean of 0.1 B,
 *   max 8 B). One boxed double (16 B) on every step reads 16 B, so the budget sits between the
 *   jitter and the smallest thing V8 allocates per step. The dropped steps are those during which
 *   V8 installs newly optimized code for a function that only then became hot (1–4 of 270 at 1k,
 *   0–2 of 108 in the pile in those runs, 0.2–24 KB each: code and its metadata, not garbage;
 *   docs/solver.md, part 5). An allocation made on more than 5 % of the steps is not all dropped:
 *   on every step it shows in full; on every 10th step, half of it stays in the figure.
 * - allocBytesMaxStep ≤ MAX_STEP_BUDGET (256 KB): one step. The compile steps measured 0.2–24 KB;
 *   the deopt-into-the-interpreter steps of the earlier allocation work were 0.5–7.5 MB.
 * - gcSteps = 0: no garbage collection in the timed window (0 in every run since docs/solver.md
 *   part 3). A window that needs one has allocated megabytes.
 *
 * Not a criterion: the plain mean allocBytesPerStep, which counts the compile steps. It read 0–50
 *   B/step at 1k and 0–257 B/step in the pile in those runs (a 24 KB compile step over 108 steps,
 *   more often the busier the machine), so any budget that never fails on it lets a small
 *   allocation on every step through.
 *
 * The gate can fail: `bench --inject-alloc` adds a user system (inside world.step, forces stage)
 * that allocates one one-element array per step, and the second test checks that the same
 * criteria reject it (measured: steady 72 B/step, 270 of 270 steps allocating). The report of
 * issue 10 also shows it failing on an allocation written into a real stage.
 *
 * Best of five processes per case: V8's tiering is not the same in every fresh process. On the
 * merged tree of issue 10, about half of the first attempts had one process where a driver stayed
 * in the baseline tier for the whole window (pile: 96 B on every step; 1k: 11–16 B/step, no step
 * above 16 B), and the next process of the same code read 0 (an open finding: which driver, and why
 * only in some processes, is not known yet). A case passes when one of up to ATTEMPTS fresh
 * processes is within budget; an allocation the code itself makes on every step fails every
 * attempt (the injection test below checks exactly that). Every failed attempt is printed.
 *
 * Runtime: ≈ 8 s (both cases) + ≈ 4 s (injected 1k) of CPU on a quiet core (26 s + 4.5 s wall
 * measured with the machine at load 13).
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'elastica.mjs');

/** Bytes per step, steady state (the largest 5 % of steps dropped). */
const STEADY_BUDGET = 8;
/** Bytes in any one metered step. */
const MAX_STEP_BUDGET = 256 * 1024;
/** Fresh processes tried per case (see the header: V8's tiering differs between processes). */
const ATTEMPTS = 5;

/** The case's over-budget reasons in each attempt until one is within budget (empty last entry: passed). */
function gate(name: string, ...extra: string[]): string[][] {
  const tries: string[][] = [];
  for (let k = 0; k < ATTEMPTS; k++) {
    const rows = bench(name, ...extra);
    if (rows.length !== 1 || rows[0]!.name !== name || !(rows[0]!.meteredSteps >= 100)) throw new Error(`bench ${name}: unexpected rows ${JSON.stringify(rows)}`);
    const why = overBudget(rows[0]!);
    tries.push(why);
    if (why.length === 0) break;
    console.log(`alloc gate, ${name}, attempt ${k + 1} over budget: ${why.join('; ')}`);
  }
  return tries;
}

interface Row {
  name: string;
  allocBytesPerStep: number;
  allocBytesPerStepSteady: number;
  allocBytesMaxStep: number;
  allocSteps: number;
  meteredSteps: number;
  gcSteps: number;
}

function bench(cases: string, ...extra: string[]): Row[] {
  const r = spawnSync(process.execPath, [BIN, 'bench', '--json', '--no-rapier', '--cases', cases, ...extra], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`bench failed (exit ${r.status}): ${r.stderr}`);
  return r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Row);
}

/** What the gate rejects in one bench row (empty: within budget). */
function overBudget(o: Row): string[] {
  const why: string[] = [];
  const figures = `(mean ${o.allocBytesPerStep} B/step, ${o.allocSteps} of ${o.meteredSteps} steps allocating, max ${o.allocBytesMaxStep} B, ${o.gcSteps} GC)`;
  if (!(o.allocBytesPerStepSteady <= STEADY_BUDGET)) why.push(`${o.name}: steady ${o.allocBytesPerStepSteady} B/step > ${STEADY_BUDGET} ${figures}`);
  if (!(o.allocBytesMaxStep <= MAX_STEP_BUDGET)) why.push(`${o.name}: one step allocated ${o.allocBytesMaxStep} B > ${MAX_STEP_BUDGET} ${figures}`);
  if (o.gcSteps !== 0) why.push(`${o.name}: ${o.gcSteps} garbage collections in the timed window ${figures}`);
  return why;
}

describe('allocation gate', () => {
  it('the 1k jelly and the contact pile allocate nothing per step after warm-up (best of five processes)', () => {
    for (const name of ['1k', 'pile']) {
      const tries = gate(name);
      expect(tries[tries.length - 1], `${name}: over budget in all ${tries.length} attempts: ${JSON.stringify(tries)}`).toEqual([]);
    }
  }, 400_000);

  it('fails when the step allocates one small array per step (bench --inject-alloc): in every attempt', () => {
    const tries = gate('1k', '--inject-alloc');
    expect(tries.length).toBe(ATTEMPTS);
    for (const why of tries) expect(why.join('\n')).toMatch(/1k: steady [\d.]+ B\/step > 8/);
    const [o] = bench('1k', '--inject-alloc');
    // every metered step allocated, so nothing of it was dropped as a compile step
    expect(o!.allocSteps).toBeGreaterThan(0.9 * o!.meteredSteps);
  }, 400_000);
});
