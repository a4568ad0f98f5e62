/**
 * Issue 16 through the real CLI: runs `node bin/elastica.mjs` on the fuzzer's mutated scenes
 * (test/fuzz/case.ts, sceneCase) with a seeded mix of commands and output formats (and `replay` of
 * replays recorded from those scenes, some with bytes flipped or cut off), and stops some
 * runs with SIGINT / SIGTERM, early (startup, loading) or while they write their output. Dev tooling,
 * minutes per few hundred runs: not part of `npm test`.
 *
 *   npx tsx test/fuzz/cli-run.ts [--runs N] [--seed S] [--first I] [--timeout MS] [--keep] [--json]
 *   npx tsx test/fuzz/cli-run.ts --seed S --run I --show        print run I's command line and scene text
 *
 * Each run gets a fresh folder holding only scene.xml (and pngs/ for FOSSSim's -g 1). After it ends:
 *
 *   - exit 0, 2 (bad input), 3 (the simulation failed), or, for a run sent signal n, 128 + n
 *     (`replay` also 1 with nothing on stderr: its documented 'a state hash differs');
 *     a run signalled before the CLI installed its handlers (Node and tsx starting) dies of the
 *     signal itself: 'died-of-signal', a defect if it printed anything or left a file;
 *   - stderr: `warning: …` lines, then for a failure exactly one line `elastica: <where>: …` naming
 *     the scene or an output path; never `internal error`, never a stack trace;
 *   - files: after a failure or a signal the folder holds exactly what it held before (no output,
 *     no `.tmp`, no frame, no folder the run created); after success the outputs asked for, and no
 *     temporary file.
 *
 * Prints a count per outcome and every defect with the command that replays it; exits 1 on a defect.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { wholeArg as int } from './args';
import { Rng } from '../../src/math/rng';
import { InputError } from '../../src/errors';
import { parseSceneXml } from '../../src/scene/xml';
import { buildScene } from '../../src/scene/build';
import { Recorder } from '../../src/replay';
import { sceneCase } from './case';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'elastica.mjs');

type Mode = 'run-out' | 'run-none' | 'frames-svg' | 'frames-png' | 'gif' | 'mp4' | 'fosssim-o' | 'fosssim-m' | 'fosssim-g1' | 'replay';
const MODES: [Mode, number][] = [
  ['run-out', 6], ['run-none', 1], ['frames-svg', 2], ['frames-png', 2], ['gif', 2], ['mp4', 1], ['fosssim-o', 3], ['fosssim-m', 2], ['fosssim-g1', 1], ['replay', 3],
];

/** What one run does: its command line, scene and (maybe) the signal it gets. */
export interface RunPlan {
  index: number;
  mode: Mode;
  /** The fuzz case the scene comes from (sceneCase(seed, sceneIndex)). */
  sceneIndex: number;
  args: string[];
  /** Outputs the run writes on success (relative to its folder). */
  outputs: string[];
  signal: 'SIGINT' | 'SIGTERM' | null;
  /** 'early': after killDelayMs from spawn; 'writing': killDelayMs after an output appears. */
  killWhen: 'early' | 'writing';
  killDelayMs: number;
  /** replay mode: steps recorded, then the bytes damaged ('none', 'flip' 1–3 bytes, 'truncate'). */
  replay: { steps: number; damage: 'none' | 'flip' | 'truncate'; seed: number };
  /** Signal the process group (as a terminal's Ctrl-C does: ffmpeg gets it too), not the process alone. */
  group: boolean;
  pngsDir: boolean;
}

function pick<T>(rng: Rng, list: readonly T[]): T {
  return list[Math.floor(rng.next() * list.length)]!;
}

function weighted(rng: Rng): Mode {
  const total = MODES.reduce((s, [, w]) => s + w, 0);
  let r = rng.next() * total;
  for (const [m, w] of MODES) if ((r -= w) < 0) return m;
  return MODES[0]![0];
}

/** Whether a scene text loads and builds (a run that gets a signal needs one that simulates). */
function loads(text: string): boolean {
  try {
    const d = parseSceneXml(text, 'scene.xml');
    const { world } = buildScene(d);
    return world.particleCount() > 0;
  } catch (e) {
    if (e instanceof InputError) return false;
    return true; // anything else is the run's business: let the CLI meet it
  }
}

/** The plan of run `index`: a function of (seed, index) only. */
export function planRun(seed: number, index: number): RunPlan {
  const rng = new Rng((seed ^ 0x5c11f00d ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0);
  const mode = weighted(rng);
  const signal = rng.next() < 0.3 ? pick(rng, ['SIGINT', 'SIGTERM'] as const) : null;
  const killWhen = rng.next() < 0.25 ? 'early' : 'writing';
  const killDelayMs = Math.floor(rng.next() * (killWhen === 'early' ? 2500 : 400));
  // scenes: case `index` of the fuzzer; a run that gets a signal (or replays one) takes the next case that simulates
  let sceneIndex = index;
  if (signal || mode === 'replay') while (!loads(sceneCase(seed, sceneIndex).text) && sceneIndex < index + 500) sceneIndex++;
  const steps = signal && killWhen === 'writing' ? 1_000_000 : rng.next() < 0.25 ? null : Math.floor(rng.next() * 300);
  const stepArgs = steps === null ? [] : ['--steps', String(steps)];
  const small = ['--size', pick(rng, ['160x120', '64x48', '200x150'])];
  const fps = rng.next() < 0.5 ? ['--fps', pick(rng, ['10', '24', '60', '0.5'])] : [];
  const q = rng.next() < 0.5 ? ['--quiet'] : [];
  let args: string[], outputs: string[];
  switch (mode) {
    case 'run-out': args = ['run', 'scene.xml', '--out', 'out.bin', ...stepArgs, ...q]; outputs = ['out.bin']; break;
    case 'run-none': args = ['run', 'scene.xml', ...stepArgs, ...q]; outputs = []; break;
    case 'frames-svg': args = ['render', 'scene.xml', '--frames', 'frames', '--format', 'svg', ...small, ...fps, ...stepArgs, ...q]; outputs = ['frames/']; break;
    case 'frames-png': args = ['render', 'scene.xml', '--frames', 'frames', ...small, ...fps, ...stepArgs, ...q]; outputs = ['frames/']; break;
    case 'gif': args = ['render', 'scene.xml', '--gif', 'out.gif', '--out', 'out.bin', ...small, ...fps, ...stepArgs, ...q]; outputs = ['out.gif', 'out.bin']; break;
    case 'mp4': args = ['render', 'scene.xml', '--mp4', 'out.mp4', ...small, ...fps, ...stepArgs, ...q]; outputs = ['out.mp4']; break;
    case 'fosssim-o': args = ['-s', 'scene.xml', '-d', '0', '-o', 'out.bin', ...stepArgs, ...q]; outputs = ['out.bin']; break;
    case 'fosssim-m': args = ['-s', 'scene.xml', '-d', '0', '-m', 'movie', ...small, ...fps, ...stepArgs, ...q]; outputs = ['movie/']; break;
    case 'fosssim-g1': args = ['-s', 'scene.xml', '-d', '0', '-g', '1', '-o', 'out.bin', ...small, ...fps, ...stepArgs, ...q]; outputs = ['pngs/', 'out.bin']; break;
    case 'replay': args = ['replay', 'in.replay', '--verify', '--out', 'out.bin', ...q]; outputs = ['out.bin']; break;
  }
  const r = rng.next();
  const replay = {
    steps: signal && killWhen === 'writing' ? 5000 : 1 + Math.floor(rng.next() * 200),
    damage: r < 0.4 ? 'none' as const : r < 0.8 ? 'flip' as const : 'truncate' as const,
    seed: rng.nextUint32(),
  };
  const pngsDir = mode === 'fosssim-g1' && rng.next() < 0.85;
  const group = rng.next() < 0.3;
  return { index, mode, sceneIndex, args, outputs, signal, killWhen, killDelayMs, group, pngsDir, replay };
}

/** A replay of the plan's scene (recorded here, in-process), damaged as the plan says. */
function replayBytes(seed: number, plan: RunPlan): Uint8Array {
  let bytes: Uint8Array;
  try {
    const { world } = buildScene(parseSceneXml(sceneCase(seed, plan.sceneIndex).text, 'scene.xml'));
    const rec = new Recorder(world);
    for (let k = 0; k < plan.replay.steps; k++) world.step();
    bytes = rec.stop();
  } catch {
    return new TextEncoder().encode('not a replay: the scene did not simulate');
  }
  const rng = new Rng(plan.replay.seed);
  if (plan.replay.damage === 'flip') {
    bytes = bytes.slice();
    for (let k = 0; k < 1 + Math.floor(rng.next() * 3); k++) bytes[Math.floor(rng.next() * bytes.length)]! ^= 1 + Math.floor(rng.next() * 255);
  } else if (plan.replay.damage === 'truncate') {
    bytes = bytes.subarray(0, Math.floor(rng.next() * bytes.length));
  }
  return bytes;
}

export type CliOutcome = 'exit-0' | 'exit-1' | 'exit-2' | 'exit-3' | 'exit-130' | 'exit-143' | 'died-of-signal' | 'defect';

export interface CliResult {
  plan: RunPlan;
  outcome: CliOutcome;
  code: number | null;
  signal: string | null;
  stderr: string;
  problems: string[];
  ms: number;
}

/** Every file and folder under `dir` (relative paths; folders end in '/'). */
function listing(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d).sort();
    } catch {
      return; // removed while listed (the run is still going)
    }
    for (const name of names) {
      const p = join(d, name);
      let isDir: boolean;
      try {
        isDir = statSync(p).isDirectory();
      } catch {
        continue; // removed between readdir and stat (a probe file, a frame of an aborting run)
      }
      if (isDir) {
        out.push(`${relative(dir, p)}/`);
        walk(p);
      } else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Run one plan in folder `dir` and check it. */
export async function runPlan(seed: number, plan: RunPlan, dir: string, timeoutMs: number): Promise<CliResult> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'scene.xml'), sceneCase(seed, plan.sceneIndex).text);
  if (plan.mode === 'replay') writeFileSync(join(dir, 'in.replay'), replayBytes(seed, plan));
  if (plan.pngsDir) mkdirSync(join(dir, 'pngs'));
  const before = listing(dir);
  const t0 = performance.now();
  const child = spawn(process.execPath, [BIN, ...plan.args], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], detached: plan.group });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  let exited = false;
  const exit = new Promise<{ code: number | null; signal: string | null }>((res) => child.on('exit', (code, signal) => {
    exited = true;
    res({ code, signal });
  }));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, timeoutMs);
  if (plan.signal) {
    if (plan.killWhen === 'writing') {
      const started = performance.now();
      while (!exited && performance.now() - started < timeoutMs && listing(dir).length === before.length) await sleep(20);
    }
    await sleep(plan.killDelayMs);
    if (!exited) {
      if (plan.group) process.kill(-child.pid!, plan.signal);
      else child.kill(plan.signal);
    }
  }
  const { code, signal } = await exit;
  clearTimeout(timer);
  const ms = performance.now() - t0;
  const problems: string[] = [];
  if (timedOut) problems.push(`no exit in ${timeoutMs} ms (killed)`);
  const sigCode = plan.signal === 'SIGINT' ? 130 : plan.signal === 'SIGTERM' ? 143 : -1;
  // replay: exit 1 is its documented 'a state hash differs' (on stdout), for damaged bytes only:
  // an undamaged recording must verify
  const replayDiffers = code === 1 && plan.mode === 'replay' && plan.replay.damage !== 'none' && stderr === '';
  let outcome: CliOutcome;
  if (signal !== null) {
    outcome = 'died-of-signal';
    if (signal !== plan.signal) problems.push(`died of ${signal}`);
    else if (stderr !== '') problems.push('died of its signal after writing to stderr (while running, not before its handlers were installed)');
  } else if (code === 0 || code === 2 || code === 3 || (code === sigCode && plan.signal) || replayDiffers) {
    outcome = `exit-${code}` as CliOutcome;
  } else {
    outcome = 'defect';
    problems.push(`exit code ${code}`);
  }
  // stderr: warnings, then one located line for a failure
  const lines = stderr.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const messages = lines.filter((l) => !l.startsWith('warning: '));
  if (lines.some((l) => /^\s+at .+[:(]\d+/.test(l))) problems.push('a stack trace on stderr');
  if (stderr.includes('internal error')) problems.push('internal error');
  if (code === 0 && messages.length > 0) problems.push(`exit 0 with ${messages.length} message line(s)`);
  if (code !== 0 && signal === null && !replayDiffers) {
    if (messages.length !== 1) problems.push(`expected one message line, got ${messages.length}`);
    const m = messages[0] ?? '';
    if (!m.startsWith('elastica: ')) problems.push('the message does not start with "elastica: "');
    const paths = ['scene.xml', 'in.replay', 'out.bin', 'out.gif', 'out.mp4', 'frames', 'movie', 'pngs'];
    // (a signal before the scene was read: nothing to name)
    if (!paths.some((p) => m.includes(p)) && !/^elastica: stopped by SIG[A-Z]+; nothing written$/.test(m)) problems.push('the message names no file');
  }
  // files
  const after = listing(dir);
  const made = after.filter((f) => !before.includes(f));
  const leftovers = made.filter((f) => /\.tmp(\.mp4)?$|\.elastica-probe/.test(f));
  if (leftovers.length > 0) problems.push(`temporary files left: ${leftovers.join(', ')}`);
  if (before.some((f) => !after.includes(f))) problems.push('a file that was there before is gone');
  if (code === 0 && signal === null) {
    for (const o of plan.outputs) {
      if (!after.includes(o)) problems.push(`exit 0 but ${o} missing`);
      else if (o !== 'out.bin' && !o.endsWith('/') && statSync(join(dir, o)).size === 0) problems.push(`exit 0 but ${o} is empty`); // a state file of 0 particles is empty
    }
  } else if (made.length > 0) {
    problems.push(`failed run left ${made.slice(0, 5).join(', ')}${made.length > 5 ? ', …' : ''}`);
  }
  if (problems.length > 0) outcome = 'defect';
  return { plan, outcome, code, signal, stderr, problems, ms };
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '300' },
      seed: { type: 'string', default: '1' },
      first: { type: 'string', default: '0' },
      timeout: { type: 'string', default: '120000' },
      run: { type: 'string' },
      show: { type: 'boolean' },
      keep: { type: 'boolean' },
      json: { type: 'boolean' },
    },
  });
  const seed = int('seed', values.seed!);
  let first = int('first', values.first!), count = int('runs', values.runs!);
  if (values.run !== undefined) {
    first = int('run', values.run);
    count = 1;
    if (values.show) {
      const p = planRun(seed, first);
      process.stdout.write(`# run ${first}: ${p.mode}${p.signal ? `, ${p.signal}${p.group ? ' to the group' : ''} ${p.killWhen} +${p.killDelayMs} ms` : ''}${p.pngsDir ? ', pngs/ made first' : ''}\n`);
      process.stdout.write(`# elastica ${p.args.join(' ')}\n${sceneCase(seed, p.sceneIndex).text}\n`);
      return 0;
    }
  }
  const base = mkdtempSync(join(tmpdir(), 'elastica-cli-fuzz-'));
  const t0 = performance.now();
  const counts = new Map<string, number>();
  const defects: CliResult[] = [];
  for (let i = first; i < first + count; i++) {
    const dir = join(base, `run${i}`);
    const r = await runPlan(seed, planRun(seed, i), dir, int('timeout', values.timeout!));
    const key = `${r.outcome}${r.plan.signal && r.outcome !== 'defect' ? ` (${r.plan.signal} ${r.plan.killWhen})` : ''}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (r.outcome === 'defect') defects.push(r);
    else if (!values.keep) rmSync(dir, { recursive: true, force: true });
  }
  const wall = (performance.now() - t0) / 1000;
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ seed, first, count, counts: Object.fromEntries(counts), defects })}\n`);
  } else {
    process.stdout.write(`cli fuzz: seed ${seed}, runs ${first}..${first + count - 1}, ${wall.toFixed(1)} s\n`);
    for (const [k, n] of [...counts].sort()) process.stdout.write(`  ${k.padEnd(32)} ${n}\n`);
    for (const d of defects) {
      process.stdout.write(`DEFECT run ${d.plan.index} (${d.plan.mode}, scene case ${d.plan.sceneIndex}): ${d.problems.join('; ')}\n`);
      process.stdout.write(`  exit ${d.code ?? d.signal}, stderr: ${JSON.stringify(d.stderr.slice(0, 400))}\n`);
      process.stdout.write(`  folder: ${join(base, `run${d.plan.index}`)}\n  replay: npx tsx test/fuzz/cli-run.ts --seed ${seed} --run ${d.plan.index} [--show]\n`);
    }
  }
  if (defects.length === 0 && !values.keep) rmSync(base, { recursive: true, force: true });
  return defects.length > 0 ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then(
    (code) => (process.exitCode = code),
    (e: unknown) => {
      process.stderr.write(`cli-run: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 2;
    },
  );
}
