/**
 * The headless `elastica` command.
 *
 *   elastica run <scene.xml> [--out <file.bin>] [--steps N] [--quiet]
 *   elastica -s <scene.xml> -d 0 -o <file.bin>        (FOSSSim's form)
 *
 * Exit codes: 0 done, 2 bad input, 1 internal error. Bad input prints one
 * message, never a stack trace.
 */
import { parseArgs } from 'node:util';
import { InputError } from '../errors';
import { loadSceneFile } from '../scene/xml';
import { buildScene } from '../scene/build';
import { StateWriter } from './output';
import { createProgress } from './progress';

const USAGE = `Usage:
  elastica run <scene.xml> [--out <file.bin>] [--steps N] [--quiet]
  elastica -s <scene.xml> -d 0 [-o <file.bin>]     FOSSSim's command form
  elastica bench [--json] [--quick] [--cases 1k,4k,10k,pile,page,pile20,stirred] [--steps N] [--no-rapier] [--material fosssim|stvk|neohookean|corotational|all] [--no-isolate]
  elastica --help | --version

run: simulates a FOSSSim XML scene for ceil(duration/dt) steps (or --steps N)
and writes FOSSSim's state format: raw little-endian float64, one record for the
initial state and one per step, each all positions then all velocities.`;

export interface RunOptions {
  scene: string;
  out?: string;
  steps?: number;
  quiet?: boolean;
}

function parseSteps(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\s*\d+\s*$/.test(text) || !Number.isSafeInteger(n)) {
    throw new InputError(`--steps: expected a whole number >= 0, got "${text}"`);
  }
  return n;
}

/** Run a scene; returns the number of steps taken. */
export function runScene(opts: RunOptions): number {
  const desc = loadSceneFile(opts.scene);
  for (const w of desc.warnings) process.stderr.write(`warning: ${w}\n`);
  const { world, steps: sceneSteps } = buildScene(desc);
  const steps = opts.steps ?? sceneSteps;
  const writer = opts.out ? new StateWriter(opts.out, world.particleCount()) : null;
  const progress = createProgress(steps, opts.quiet === true);
  try {
    const x = world.readPositions();
    const v = world.readVelocities();
    writer?.write(x, v);
    for (let s = 1; s <= steps; s++) {
      world.step();
      world.readPositions(x);
      world.readVelocities(v);
      for (let i = 0; i < x.length; i++) {
        if (!Number.isFinite(x[i]!) || !Number.isFinite(v[i]!)) {
          throw new SimulationError(
            `${opts.scene}: the simulation produced a non-finite value at step ${s} (t = ${world.time}): ` +
              `particle ${i >> 1} diverged; try a smaller dt or an implicit integrator`,
          );
        }
      }
      writer?.write(x, v);
      progress.tick(s);
    }
    progress.stop();
    writer?.commit();
  } catch (e) {
    progress.stop();
    writer?.abort();
    throw e;
  }
  return steps;
}

/** The simulation itself failed (diverged); exit code 1. */
export class SimulationError extends Error {}

export async function main(argv: string[]): Promise<number> {
  try {
    return await dispatch(argv);
  } catch (e) {
    if (e instanceof InputError) {
      process.stderr.write(`elastica: ${e.message}\n`);
      return 2;
    }
    if (e instanceof SimulationError) {
      process.stderr.write(`elastica: ${e.message}\n`);
      return 1;
    }
    process.stderr.write(`elastica: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    if (process.env.ELASTICA_DEBUG) process.stderr.write(`${e instanceof Error ? e.stack : ''}\n`);
    return 1;
  }
}

type ParseOptions = NonNullable<NonNullable<Parameters<typeof parseArgs>[0]>['options']>;

function parse(argv: string[], options: ParseOptions): ReturnType<typeof parseArgs> {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new InputError(`${e instanceof Error ? e.message : String(e)}\n${USAGE}`);
  }
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
  if (command === 'run') {
    const { values, positionals } = parse(rest, {
      out: { type: 'string', short: 'o' },
      steps: { type: 'string' },
      quiet: { type: 'boolean', short: 'q' },
    });
    if (positionals.length !== 1) throw new InputError(`run: expected exactly one scene file, got ${positionals.length}\n${USAGE}`);
    runScene({
      scene: positionals[0]!,
      out: values.out as string | undefined,
      steps: parseSteps(values.steps as string | undefined),
      quiet: values.quiet as boolean | undefined,
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
      steps: { type: 'string' },
      'scene-mode': { type: 'string' },
    });
    if (positionals.length > 0) throw new InputError(`bench: unexpected argument "${positionals[0]}"\n${USAGE}`);
    const sceneMode = values['scene-mode'] as string | undefined;
    if (sceneMode !== undefined && sceneMode !== 'cold' && sceneMode !== 'warm') throw new InputError(`bench --scene-mode: expected cold or warm, got "${sceneMode}"`);
    const { runBench } = await import('./bench');
    const cases = values.cases === undefined ? undefined : (values.cases as string).split(',').map((c) => c.trim()).filter((c) => c !== '');
    await runBench({
      json: values.json === true, quick: values.quick === true, cases, rapier: values['no-rapier'] !== true,
      isolate: values['no-isolate'] !== true, steps: parseSteps(values.steps as string | undefined), sceneMode,
      materials: values.material === undefined ? undefined : (values.material as string).split(',').map((c) => c.trim()).filter((c) => c !== ''),
    });
    return 0;
  }
  if (command!.startsWith('-')) {
    // FOSSSim's form: -s scene -d display -o output
    const { values, positionals } = parse(argv, {
      scene: { type: 'string', short: 's' },
      display: { type: 'string', short: 'd' },
      output: { type: 'string', short: 'o' },
      steps: { type: 'string' },
      quiet: { type: 'boolean', short: 'q' },
    });
    if (positionals.length > 0) throw new InputError(`unexpected argument "${positionals[0]}"\n${USAGE}`);
    if (values.scene === undefined) throw new InputError(`-s <scene.xml> is required\n${USAGE}`);
    const display = values.display as string | undefined;
    if (display !== undefined && display !== '0' && display !== '1') {
      throw new InputError(`-d: expected 0 (headless) or 1 (display), got "${display}"`);
    }
    if (display === '1') {
      throw new InputError('-d 1: this command is headless; use -d 0 here, and the gallery (npm start) to watch a scene');
    }
    runScene({
      scene: values.scene as string,
      out: values.output as string | undefined,
      steps: parseSteps(values.steps as string | undefined),
      quiet: values.quiet as boolean | undefined,
    });
    return 0;
  }
  throw new InputError(`unknown command "${command}"\n${USAGE}`);
}
