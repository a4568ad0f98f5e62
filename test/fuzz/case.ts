/**
 * One fuzz case, generated from (seed, index) alone so any case can be replayed, and its outcome:
 *
 *   input-error       an InputError (a clean rejection)
 *   simulation-error  a SimulationError (a clean, reported failure of the physics)
 *   ok                ran, the state is finite
 *   silent-nan        ran, NaN or ∞ in the state and no error           → a defect
 *   exception         any other exception                               → a defect
 *   hang              over the time limit (detected by the pool, test/fuzz/pool.ts) → a defect
 *   unlocated-error   a scene case's InputError that does not start with the file's name or spans
 *                     lines (the CLI prints it as its one message)                  → a defect
 *
 * Cases alternate between mutated bundled scenes (test/fuzz/mutate.ts) and API-call sequences on
 * PhysicsWorld (test/fuzz/api.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError, SimulationError } from '../../src/errors';
import { Rng } from '../../src/math/rng';
import { parseSceneXml } from '../../src/scene/xml';
import { buildScene } from '../../src/scene/build';
import { mutateScene } from './mutate';
import { apiSequence, type ApiMode } from './api';

export type OutcomeKind = 'input-error' | 'simulation-error' | 'ok' | 'silent-nan' | 'exception' | 'hang' | 'unlocated-error';
export const DEFECTS: readonly OutcomeKind[] = ['silent-nan', 'exception', 'hang', 'unlocated-error'];

export interface Outcome {
  index: number;
  kind: OutcomeKind;
  /** 'scene <file> [mutations]' or 'api'. */
  source: string;
  /** The error message (first line), or ''. */
  message: string;
  ms: number;
}

export interface FuzzOptions {
  seed: number;
  /** Steps run per case at most. */
  maxSteps: number;
  /** 'scene', 'api' or 'both' (alternating). */
  kinds: 'scene' | 'api' | 'both';
  /** API arguments: 'valid' (well-formed calls only) or 'hostile' (any value). */
  api: ApiMode;
}

const SCENE_DIR = fileURLToPath(new URL('../../assets/scenes/fosssim', import.meta.url));

function xmlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...xmlFiles(p));
    else if (name.endsWith('.xml')) out.push(p);
  }
  return out;
}

let corpus: { name: string; text: string }[] | null = null;

/** The bundled scenes, in a fixed order. */
export function sceneCorpus(): { name: string; text: string }[] {
  corpus ??= xmlFiles(SCENE_DIR).map((p) => ({ name: p.slice(SCENE_DIR.length + 1), text: readFileSync(p, 'utf8') }));
  return corpus;
}

/** The case's own generator: a function of (seed, index) only. */
export function caseRng(seed: number, index: number): Rng {
  return new Rng((seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0);
}

/** The mutated scene text of case `index` (for replaying and minimizing a scene case). */
export function sceneCase(seed: number, index: number): { name: string; text: string; applied: string[] } {
  const rng = caseRng(seed, index);
  const scenes = sceneCorpus();
  const base = scenes[Math.floor(rng.next() * scenes.length)]!;
  const m = mutateScene(base.text, rng);
  return { name: base.name, text: m.text, applied: m.applied };
}

export function isSceneCase(o: FuzzOptions, index: number): boolean {
  return o.kinds === 'scene' || (o.kinds === 'both' && index % 2 === 0);
}

/** Run case `index`; never throws. */
export function runCase(o: FuzzOptions, index: number): Outcome {
  const t0 = performance.now();
  let source = 'api';
  let kind: OutcomeKind;
  let message = '';
  try {
    if (isSceneCase(o, index)) {
      const c = sceneCase(o.seed, index);
      source = `scene ${c.name} [${c.applied.join(', ')}]`;
      kind = runScene(c.text, o.maxSteps);
    } else {
      kind = apiSequence(caseRng(o.seed, index), o.maxSteps, o.api) ? 'ok' : 'silent-nan';
    }
  } catch (e) {
    kind = e instanceof InputError ? 'input-error' : e instanceof SimulationError ? 'simulation-error' : 'exception';
    if (kind === 'input-error' && isSceneCase(o, index) && !/^fuzz\.xml: [^\n\r\u2028\u2029]*$/.test((e as Error).message)) kind = 'unlocated-error';
    message = (e instanceof Error ? `${e.name}: ${e.message}` : String(e)).split('\n')[0]!.slice(0, 300);
  }
  return { index, kind, source, message, ms: performance.now() - t0 };
}

/** Parse, build and step a scene text; 'ok' or 'silent-nan' (errors propagate). */
function runScene(text: string, maxSteps: number): OutcomeKind {
  const { world, steps } = buildScene(parseSceneXml(text, 'fuzz.xml'));
  const n = Math.min(steps, maxSteps);
  const x = world.readPositions(), v = world.readVelocities();
  for (let s = 0; s < n; s++) {
    world.step();
    world.readPositions(x);
    world.readVelocities(v);
    for (let i = 0; i < x.length; i++) if (!Number.isFinite(x[i]!) || !Number.isFinite(v[i]!)) return 'silent-nan';
  }
  return 'ok';
}
