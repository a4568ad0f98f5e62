/**
 * `elastica bench --core N|all`: the core the bench runs on. Benchmarks here are measured on one core
 * (docs/solver.md, "Benchmark"), so that V8's optimizing compiles, which run on their own threads, land in
 * the steps as they do on a loaded machine, and runs compare. By default the bench pins itself to core 1
 * (core 1 leaves core 0 to the system) unless it was started on one core already (`taskset -c 0 ...`);
 * `--core all` runs it on every core of the machine, as a game in a player's browser runs
 * (bench/browser.ts has the same flag). Pinning goes through `taskset` (Linux's util-linux) on every thread
 * of the process; the child processes the bench starts inherit it, and are given the same `--core`. Where
 * `taskset` is missing or fails, the bench says so and runs where it was started. Each row's `runtime`
 * says where it ran.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { InputError } from '../errors';

/** The core the bench pins itself to by default. */
export const DEFAULT_BENCH_CORE = 1;

/** `--core`: a core's number (0 … cores − 1) or 'all'; undefined when not given. */
export function parseCore(text: string | undefined, cores = machineCores()): number | 'all' | undefined {
  if (text === undefined) return undefined;
  if (text === 'all') return 'all';
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(n < cores)) throw new InputError(`bench --core: expected a core from 0 to ${cores - 1} or 'all', got "${text}"`);
  return n;
}

/** The machine's logical cores (whatever this process's affinity). */
export function machineCores(): number {
  return Math.max(1, cpus().length);
}

/** The cores this process may run on (Linux's /proc/self/status), or null where that is not known. */
export function allowedCores(): number[] | null {
  let status: string;
  try {
    status = readFileSync('/proc/self/status', 'utf8');
  } catch {
    return null;
  }
  const m = /^Cpus_allowed_list:\s*([\d,-]+)\s*$/m.exec(status);
  if (!m) return null;
  const out: number[] = [];
  for (const part of m[1]!.split(',')) {
    const [a, b] = part.split('-').map(Number) as [number, number | undefined];
    for (let c = a; c <= (b ?? a); c++) out.push(c);
  }
  return out;
}

/** Where a process allowed on `allowed` (null: not known) runs, in words: 'core K' (one core) or 'unpinned, N cores'. */
function coresInWords(allowed: number[] | null): string {
  if (allowed !== null && allowed.length === 1) return `core ${allowed[0]!}`;
  const n = allowed?.length ?? availableParallelism();
  return n === 1 ? '1 core' : `unpinned, ${n} cores`;
}

/**
 * Pin this process (every thread; children inherit it) as `--core` asks: a core, 'all' (every core), or,
 * when not given, DEFAULT_BENCH_CORE unless the process runs on one core already or the machine has one.
 * Returns the `--core` value to hand to the bench's child processes (undefined where the affinity is not known),
 * and the runtime in words for its rows, both from the affinity read once after pinning.
 */
export function pinBench(core: number | 'all' | undefined, warn: (line: string) => void): { child: string | undefined; runtime: string } {
  const cores = machineCores();
  let want = core;
  if (want === undefined) {
    const before = allowedCores();
    if (cores >= 2 && !(before !== null && before.length === 1)) want = DEFAULT_BENCH_CORE;
  }
  if (want !== undefined) {
    const list = want === 'all' ? `0-${cores - 1}` : String(want);
    const r = spawnSync('taskset', ['-a', '-cp', list, String(process.pid)], { encoding: 'utf8' });
    if (r.status !== 0) {
      const why = r.error ? r.error.message : (r.stderr || `exit ${r.status ?? r.signal}`).trim();
      warn(`bench: could not pin the bench to ${want === 'all' ? 'every core' : `core ${want}`} with taskset (${why}); it runs where it was started`);
    }
  }
  const allowed = allowedCores();
  return {
    child: allowed === null ? undefined : allowed.length === 1 ? String(allowed[0]!) : 'all',
    runtime: `Node ${process.version}, ${coresInWords(allowed)}`,
  };
}
