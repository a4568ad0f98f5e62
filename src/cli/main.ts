/**
 * The headless `elastica` command.
 *
 *   elastica run <scene.xml> [--out <file.bin>] [--steps N] [--force] [--quiet]
 *   elastica render <scene.xml> [--frames <dir>] [--gif <file>] [--mp4 <file>] [--fps N] [--size WxH] [--format png|svg]
 *   elastica -s <scene.xml> -d 0 [-o <file.bin>] [-g 1] [-m <dir>]      (FOSSSim's form)
 *
 * Exit codes: 0 done, 1 internal error (a bug), 2 bad input (including a run over the limits of
 * src/cli/limits.ts without --force), 3 the simulation failed (a SimulationError: singular
 * system or a diverged, non-finite state), 128 + n stopped by signal n (SIGINT 130, SIGTERM 143).
 * Every failure prints one message, never a stack trace, and leaves no output file. docs/cli.md.
 */
import { parseArgs } from 'node:util';
import { InputError, SimulationError } from '../errors';
import { loadSceneFile } from '../scene/load';
import { buildScene } from '../scene/build';
import { CollisionRecorder } from '../collision/simple';
import type { FrameOutput, FrameTargets } from '../render/output';
import { StateWriter } from './output';
import { createProgress } from './progress';
import { checkRunLimits } from './limits';
import { holdProcessSignals, watchSignals, yieldToSignals, type SignalWatch } from './signals';
import { CliExit } from './exit';

const USAGE = `Usage:
  elastica run <scene.xml> [--out <file.bin>] [--steps N] [--force] [--quiet]
  elastica render <scene.xml> [--frames <dir>] [--format png|svg] [--gif <out.gif>] [--mp4 <out.mp4>]
                  [--fps N] [--size WxH] [--strain] [--steps N] [--out <file.bin>] [--quiet]
  elastica -s <scene.xml> -d 0 [-o <file.bin>] [-g 0|1] [-m <dir>] [--fps N] [--size WxH]   FOSSSim's command form
  elastica replay <file.replay> --verify [--out <file.bin>] [--quiet]
  elastica bench [--json] [--quick] [--cases 1k,4k,10k,pile,page,pile20,stirred,row20] [--steps N] [--no-rapier] [--material fosssim|stvk|neohookean|corotational|all] [--no-isolate] [--inject-alloc] [--scene-mode cold|cold-warmup|game|warm|sleeping] [--core N|all]
  elastica --help | --version

run: simulates a FOSSSim XML scene for ceil(duration/dt) steps (or --steps N)
and writes FOSSSim's state format: raw little-endian float64, one record for the
initial state and one per step, each all positions then all velocities (with
<collision type="simple">, each record followed by that step's collision list).
render: the same run drawn as frames (default 24 per second of simulated time,
800x600) into a folder, an animated GIF and/or an mp4 (needs ffmpeg).
-g 1 writes pngs/frame%05d.png (the folder pngs/ must exist, as in FOSSSim) and
-m <dir> writes <dir>/frame%05d.svg, one frame per step (or per --fps sample).
A run of more than 1 000 000 steps (without --steps) or more than 1 GiB of state
output (or more than the disk has free) is refused unless --force is given.
Exit codes: 0 done, 1 internal error, 2 bad input, 3 the simulation failed,
128+n stopped by signal n.`;

export interface RunOptions {
  scene: string;
  out?: string;
  steps?: number;
  quiet?: boolean;
  /** Frame and movie output (src/render); absent: none. */
  frames?: Omit<FrameTargets, 'size'> & { size?: FrameTargets['size'] };
  /** Run even when over the limits of src/cli/limits.ts. */
  force?: boolean;
}

/** Yield to the event loop (so signal handlers run) at most every this many ms. */
const YIELD_MS = 50;

/** One step; a failed simulation becomes a one-line report naming the file (exit code 3). */
function stepOrReport(world: { step(): void }, scene: string): void {
  try {
    world.step();
  } catch (e) {
    if (e instanceof SimulationError) throw new CliExit(`${scene}: ${e.message}`, 3);
    throw e;
  }
}

function stopIfSignalled(signals: SignalWatch, scene: string, step: number): void {
  signals.stopIfSignalled(`${scene}: stopped by`, `after step ${step}; no output written`);
}

export interface RunResult {
  steps: number;
  simulatedTime: number;
  wallSeconds: number;
  files: { path: string; bytes: number }[];
  frames: number;
}

function parseSteps(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\s*\d+\s*$/.test(text) || !Number.isSafeInteger(n)) {
    throw new InputError(`--steps: expected a whole number >= 0, got "${text}"`);
  }
  return n;
}

function parseFps(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\s*\d+(\.\d*)?\s*$/.test(text) || !(n > 0) || n > 1000) throw new InputError(`--fps: expected a number of frames per second in (0, 1000], got "${text}"`);
  return n;
}

function parseSize(text: string | undefined): { width: number; height: number } {
  if (text === undefined) return { width: 800, height: 600 };
  const m = /^(\d+)x(\d+)$/.exec(text.trim());
  const w = m ? Number(m[1]) : NaN, h = m ? Number(m[2]) : NaN;
  if (!(w >= 16 && w <= 8192 && h >= 16 && h <= 8192)) throw new InputError(`--size: expected WIDTHxHEIGHT in pixels, each 16 to 8192 (e.g. 800x600), got "${text}"`);
  return { width: w, height: h };
}

function parseFormat(text: string | undefined, dflt: 'png' | 'svg'): 'png' | 'svg' {
  if (text === undefined) return dflt;
  if (text !== 'png' && text !== 'svg') throw new InputError(`--format: expected png or svg, got "${text}"`);
  return text;
}

function humanBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}

/** The one-line summary `run` prints unless --quiet. */
export function summaryLine(r: RunResult): string {
  const what = `${r.steps} steps, ${Number(r.simulatedTime.toPrecision(12))} s simulated in ${r.wallSeconds.toFixed(2)} s wall time`;
  const frames = r.frames > 0 ? `, ${r.frames} frames` : '';
  const files = r.files.length === 0 ? 'nothing written (no --out given)' : `wrote ${r.files.map((f) => `${f.path} (${humanBytes(f.bytes)})`).join(', ')}`;
  return `elastica: ${what}${frames}; ${files}`;
}

/**
 * Run a scene: simulate, write the state file and the frames; returns what was done.
 * SIGINT / SIGTERM / SIGHUP are watched from the start: one received while loading is reported
 * before any output is opened, one received later at the next yield (every YIELD_MS) or before the
 * outputs are moved into place; either way they are removed and the run exits with 128 + n.
 */
export async function runScene(opts: RunOptions): Promise<RunResult> {
  const t0 = performance.now();
  const signals = watchSignals();
  try {
    const desc = loadSceneFile(opts.scene);
    for (const w of desc.warnings) process.stderr.write(`warning: ${w}\n`);
    const { world, steps: sceneSteps } = buildScene(desc);
    const steps = opts.steps ?? sceneSteps;
    checkRunLimits({
      scene: opts.scene, steps, stepsGiven: opts.steps !== undefined, particles: world.particleCount(), out: opts.out, force: opts.force === true,
    });
    await yieldToSignals();
    stopIfSignalled(signals, opts.scene, 0);
    return await simulate(opts, desc, world, steps, signals, t0);
  } finally {
    signals.dispose();
  }
}

/** From the opened outputs to the last step: everything it wrote is removed again when it fails or is stopped. */
async function simulate(
  opts: RunOptions, desc: ReturnType<typeof loadSceneFile>, world: ReturnType<typeof buildScene>['world'], steps: number, signals: SignalWatch, t0: number,
): Promise<RunResult> {
  let frames: FrameOutput | null = null;
  let writer: StateWriter | null = null;
  const progress = createProgress(steps, opts.quiet === true, opts.frames ? 50 : 500);
  let done = 0; // steps completed
  try {
    if (opts.frames) {
      const { FrameOutput: Output } = await import('../render/output');
      frames = await Output.open(desc, { ...opts.frames, size: opts.frames.size ?? { width: 800, height: 600 } });
    }
    writer = opts.out ? new StateWriter(opts.out, world.particleCount()) : null;
    // FOSSSim's state file for <collision type="simple"> carries each step's collision list.
    const recorder = desc.collision?.type === 'simple' ? new CollisionRecorder() : null;
    if (recorder) world.contacts.simple.recorder = recorder;
    await yieldToSignals();
    stopIfSignalled(signals, opts.scene, 0);
    let lastYield = Date.now();
    const x = world.readPositions();
    const v = world.readVelocities();
    writer?.write(x, v);
    if (recorder) writer?.writeCollisions(null);
    if (frames) await frames.step(0, x);
    for (let s = 1; s <= steps; s++) {
      stepOrReport(world, opts.scene); // a non-finite state is a SimulationError from the step itself
      done = s;
      world.readPositions(x);
      world.readVelocities(v);
      writer?.write(x, v);
      if (recorder) writer?.writeCollisions(recorder);
      if (frames) await frames.step(s, x);
      progress.tick(s);
      if (Date.now() - lastYield >= YIELD_MS) {
        await yieldToSignals();
        stopIfSignalled(signals, opts.scene, s);
        lastYield = Date.now();
      }
    }
    progress.stop();
    await frames?.finish();
    // the last chance to stop: after this the outputs are in place and the run is done
    await yieldToSignals();
    stopIfSignalled(signals, opts.scene, done);
    frames?.commit();
    writer?.commit();
  } catch (e) {
    progress.stop();
    writer?.abort();
    frames?.abort();
    // a failure caused by the signal (ffmpeg stopped by the terminal's Ctrl-C, …) is reported as the signal
    if (signals.signal !== null && !(e instanceof CliExit)) stopIfSignalled(signals, opts.scene, done);
    throw e;
  }
  const files = [...(writer ? [{ path: writer.path, bytes: writer.size() }] : []), ...(frames ? frames.files() : [])];
  const result: RunResult = {
    steps, simulatedTime: steps * desc.integrator.dt, wallSeconds: (performance.now() - t0) / 1000, files, frames: frames?.frames ?? 0,
  };
  if (!opts.quiet) process.stdout.write(`${summaryLine(result)}\n`);
  return result;
}

/**
 * The command. `ownProcess`: this process is the command (bin/elastica.mjs), so it keeps its signal
 * handlers until it exits (src/cli/signals.ts, holdProcessSignals); in-process callers (tests) leave it off.
 */
export async function main(argv: string[], opts: { ownProcess?: boolean } = {}): Promise<number> {
  const close = opts.ownProcess ? holdProcessSignals() : null;
  try {
    return await dispatch(argv);
  } catch (e) {
    if (e instanceof InputError) {
      process.stderr.write(`elastica: ${e.message}\n`);
      return 2;
    }
    if (e instanceof CliExit) {
      process.stderr.write(`elastica: ${e.message}\n`);
      return e.code;
    }
    process.stderr.write(`elastica: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    if (process.env.ELASTICA_DEBUG) process.stderr.write(`${e instanceof Error ? e.stack : ''}\n`);
    return 1;
  } finally {
    close?.();
  }
}

type ParseOptions = NonNullable<NonNullable<Parameters<typeof parseArgs>[0]>['options']>;

/** The command words (FOSSSim's `-s …` form has none). */
const COMMANDS = ['run', 'replay', 'render', 'bench'] as const;
type Command = (typeof COMMANDS)[number];

/**
 * parseArgs with the CLI's messages: an unknown option names the command and the options it takes (Node's own text
 * ends in a hint about positionals beginning with '-', which misleads here), other parse errors keep Node's text
 * after the command's name; each is followed by the usage.
 */
function parse(argv: string[], options: ParseOptions, command: Command | ''): ReturnType<typeof parseArgs> {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const unknown = /^Unknown option '([^']*)'/.exec(msg);
    const known = Object.entries(options).map(([name, o]) => (o.short ? `-${o.short}|--${name}` : `--${name}`)).join(', ');
    const where = command === '' ? '' : `${command}: `; // '' for FOSSSim's form, which has no command word
    const head = unknown ? `${where}unknown option '${unknown[1]}' (known: ${known})` : `${where}${msg}`;
    // pictures are `render`'s (or FOSSSim's -g 1 / -m): say so where a user looks for them
    const hint = unknown && /^--(png|frames|gif|mp4|movie|fps|size)$/.test(unknown[1]!) && !('frames' in options) && !('generate' in options)
      ? '\nfor pictures use: elastica render <scene.xml> --frames <dir> | --gif <out.gif> | --mp4 <out.mp4>  (or FOSSSim\'s -s <scene.xml> -d 0 -g 1)'
      : '';
    throw new InputError(`${head}${hint}\n${USAGE}`);
  }
}

/** `--help` or `-h` among a command's arguments (before a `--`): the usage is what was asked for. */
function asksHelp(args: string[]): boolean {
  for (const a of args) {
    if (a === '--') return false;
    if (a === '--help' || a === '-h') return true;
  }
  return false;
}

async function dispatch(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return argv.length === 0 ? 2 : 0;
  }
  if (argv[0] === '--version') {
    process.stdout.write('elastica 0.1.0\n');
    return 0;
  }
  const [command, ...rest] = argv;
  if (asksHelp(rest) && (COMMANDS as readonly string[]).includes(command!)) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (command === 'run') {
    const { values, positionals } = parse(rest, {
      out: { type: 'string', short: 'o' },
      steps: { type: 'string' },
      force: { type: 'boolean' },
      quiet: { type: 'boolean', short: 'q' },
    }, 'run');
    if (positionals.length !== 1) throw new InputError(`run: expected exactly one scene file, got ${positionals.length}\n${USAGE}`);
    await runScene({
      scene: positionals[0]!,
      out: values.out as string | undefined,
      steps: parseSteps(values.steps as string | undefined),
      quiet: values.quiet as boolean | undefined,
      force: values.force === true,
    });
    return 0;
  }
  if (command === 'replay') {
    const { values, positionals } = parse(rest, {
      verify: { type: 'boolean' },
      out: { type: 'string', short: 'o' },
      quiet: { type: 'boolean', short: 'q' },
    }, 'replay');
    if (positionals.length !== 1) throw new InputError(`replay: expected exactly one replay file, got ${positionals.length}\n${USAGE}`);
    if (values.verify !== true && values.out === undefined) throw new InputError(`replay: say what to do: --verify (compare every state hash) and/or --out <file.bin>\n${USAGE}`);
    const { runReplay } = await import('./replay');
    return await runReplay({ file: positionals[0]!, verify: values.verify === true, out: values.out as string | undefined, quiet: values.quiet as boolean | undefined },
      (line) => process.stdout.write(`${line}\n`));
  }
  if (command === 'render') {
    const { values, positionals } = parse(rest, {
      frames: { type: 'string' },
      format: { type: 'string' },
      gif: { type: 'string' },
      mp4: { type: 'string' },
      fps: { type: 'string' },
      size: { type: 'string' },
      strain: { type: 'boolean' },
      out: { type: 'string', short: 'o' },
      steps: { type: 'string' },
      force: { type: 'boolean' },
      quiet: { type: 'boolean', short: 'q' },
    }, 'render');
    if (positionals.length !== 1) throw new InputError(`render: expected exactly one scene file, got ${positionals.length}\n${USAGE}`);
    const str = (k: string) => values[k] as string | undefined;
    if (str('frames') === undefined && str('gif') === undefined && str('mp4') === undefined) {
      throw new InputError(`render: nothing to write; give --frames <dir>, --gif <out.gif> and/or --mp4 <out.mp4>\n${USAGE}`);
    }
    if (str('mp4') !== undefined && !str('mp4')!.endsWith('.mp4')) throw new InputError(`--mp4: expected a file name ending in .mp4, got "${str('mp4')}"`);
    if (str('gif') !== undefined && !str('gif')!.endsWith('.gif')) throw new InputError(`--gif: expected a file name ending in .gif, got "${str('gif')}"`);
    await runScene({
      scene: positionals[0]!,
      out: str('out'),
      steps: parseSteps(str('steps')),
      quiet: values.quiet as boolean | undefined,
      force: values.force === true,
      frames: {
        dir: str('frames'), createDir: true, format: parseFormat(str('format'), 'png'), gif: str('gif'), mp4: str('mp4'),
        fps: parseFps(str('fps')) ?? 24, firstIndex: 0, includeInitial: true, size: parseSize(str('size')), strain: values.strain === true,
      },
    });
    return 0;
  }
  if (command === 'bench') {
    const { values, positionals } = parse(rest, {
      json: { type: 'boolean' },
      quick: { type: 'boolean' },
      cases: { type: 'string' },
      'no-rapier': { type: 'boolean' },
      material: { type: 'string' },
      'no-isolate': { type: 'boolean' },
      'inject-alloc': { type: 'boolean' },
      steps: { type: 'string' },
      'scene-mode': { type: 'string' },
      core: { type: 'string' },
    }, 'bench');
    if (positionals.length > 0) throw new InputError(`bench: unexpected argument "${positionals[0]}"\n${USAGE}`);
    const { SCENE_MODES, runsWarm } = await import('./bench-scenes');
    const modeArg = values['scene-mode'] as string | undefined;
    const sceneMode = SCENE_MODES.find((m) => m === modeArg);
    if (modeArg !== undefined && sceneMode === undefined) {
      throw new InputError(`bench --scene-mode: expected ${SCENE_MODES.join(', ')}, got "${modeArg}"`);
    }
    const { runBench } = await import('./bench');
    const cases = values.cases === undefined ? undefined : (values.cases as string).split(',').map((c) => c.trim()).filter((c) => c !== '');
    // cold, cold-warmup and game measure a scene as the first of its process: a second case would run warm under that name
    if (sceneMode !== undefined && !runsWarm(sceneMode) && (cases === undefined || cases.length !== 1)) {
      throw new InputError(`bench --scene-mode ${sceneMode}: measures a scene as the first of a fresh process, so --cases must name one scene, got ${cases === undefined ? 'none' : `"${cases.join(',')}"`}`);
    }
    const { parseCore, pinBench } = await import('./bench-pin');
    const core = parseCore(values.core as string | undefined);
    const pin = pinBench(core, (l) => process.stderr.write(`${l}\n`));
    await runBench({
      core: pin.child, runtime: pin.runtime,
      json: values.json === true, quick: values.quick === true, cases, rapier: values['no-rapier'] !== true,
      isolate: values['no-isolate'] !== true, injectAlloc: values['inject-alloc'] === true, steps: parseSteps(values.steps as string | undefined), sceneMode,
      materials: values.material === undefined ? undefined : (values.material as string).split(',').map((c) => c.trim()).filter((c) => c !== ''),
    });
    return 0;
  }
  if (command!.startsWith('-')) {
    // FOSSSim's form: -s scene -d display -o output -g png-dump -m movie-dir
    const { values, positionals } = parse(argv, {
      scene: { type: 'string', short: 's' },
      display: { type: 'string', short: 'd' },
      output: { type: 'string', short: 'o' },
      generate: { type: 'string', short: 'g' },
      movie: { type: 'string', short: 'm' },
      fps: { type: 'string' },
      size: { type: 'string' },
      format: { type: 'string' },
      strain: { type: 'boolean' },
      steps: { type: 'string' },
      force: { type: 'boolean' },
      quiet: { type: 'boolean', short: 'q' },
    }, '');
    if (positionals.length > 0) throw new InputError(`unexpected argument "${positionals[0]}"\n${USAGE}`);
    if (values.scene === undefined) throw new InputError(`-s <scene.xml> is required\n${USAGE}`);
    const display = values.display as string | undefined;
    if (display !== undefined && display !== '0' && display !== '1') {
      throw new InputError(`-d: expected 0 (headless) or 1 (display), got "${display}"`);
    }
    if (display === '1') {
      throw new InputError('-d 1: this command is headless; use -d 0 here, and the gallery (npm start) to watch a scene');
    }
    const g = values.generate as string | undefined;
    if (g !== undefined && g !== '0' && g !== '1') throw new InputError(`-g: expected 0 (no PNG frames) or 1 (write pngs/frame%05d.png), got "${g}"`);
    const movie = values.movie as string | undefined;
    if (g === '1' && movie !== undefined) throw new InputError('-g 1 and -m <dir>: give one of them (both write one frame per step)');
    const common = {
      fps: parseFps(values.fps as string | undefined), firstIndex: 1, includeInitial: false,
      size: parseSize(values.size as string | undefined), strain: values.strain === true,
    };
    const frames = g === '1'
      ? { ...common, dir: 'pngs', createDir: false, dirLabel: "-g 1: folder 'pngs'", format: parseFormat(values.format as string | undefined, 'png') }
      : movie !== undefined
        ? { ...common, dir: movie, createDir: true, dirLabel: `-m: folder '${movie}'`, format: parseFormat(values.format as string | undefined, 'svg') }
        : undefined;
    await runScene({
      scene: values.scene as string,
      out: values.output as string | undefined,
      steps: parseSteps(values.steps as string | undefined),
      quiet: values.quiet as boolean | undefined,
      force: values.force === true,
      frames,
    });
    return 0;
  }
  throw new InputError(`unknown command "${command}"\n${USAGE}`);
}
