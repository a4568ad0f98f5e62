/**
 * The game scenes (src/cli/bench-scenes.ts) in headless Chromium, where a Phaser game runs: what a player's browser
 * makes of the engine's code, beside `elastica bench`'s Node figures (docs/solver.md, "Benchmark").
 *
 *   npm run bench:browser -- [--cases page,pile20] [--modes game,warm] [--runs 3] [--steps N] [--no-rapier] [--json] [--core 1|all]
 *
 * The scene code is bundled with esbuild, Node's modules replaced (the page's own `performance`; no forced garbage
 * collection and no memory figures), and served on a localhost origin with cross-origin isolation, so that
 * `performance.now()` ticks in microseconds rather than Chromium's 100 µs. Chromium (CHROMIUM_PATH, default
 * /usr/bin/chromium) runs under `taskset -c <core>`, every process of it on one core, as the Node bench is run;
 * `--core all` runs it unpinned, on every core of the machine, as a player's browser runs (V8 then compiles on its
 * own threads beside the page's). Each scene row's `runtime` names the browser and the cores.
 * Modes, as `elastica bench --scene-mode` names them:
 *  - cold, cold-warmup, game: a fresh browser per run (`--runs` of each), the scene the page's first;
 *  - warm, sleeping: a fresh browser, the scene run once unmeasured and then measured in the same page.
 * Then Rapier's default (constraints) solver, sleeping off, in a fresh browser (one run unmeasured, so that its
 * WebAssembly is compiled and tiered up, then one measured), and the ratio row (Elastica warm over it), as
 * `elastica bench` prints them. With --json, one JSON row per line.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  failedSceneRow, ratioLines, ratioToRapier, runsWarm, sceneRowLines, SCENES, SCENE_MODES, type SceneMode, type SceneName, type SceneOptions, type SceneResult,
} from '../src/cli/bench-scenes';

const repo = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The page's origin: localhost is a secure context, so Chromium honours the isolation headers (no server listens). */
const ORIGIN = 'http://localhost:8765';
const ISOLATION = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };

interface Options {
  cases: SceneName[];
  modes: SceneMode[];
  runs: number;
  steps?: number;
  rapier: boolean;
  json: boolean;
  /** The core every Chromium process runs on, or null: unpinned (`--core all`). */
  core: number | null;
}

class UsageError extends Error {}

const USAGE = 'usage: npm run bench:browser -- [--cases page,pile20] [--modes game,warm] [--runs 3] [--steps N] [--no-rapier] [--json] [--core 1|all]';

function intArg(flag: string, v: string | undefined, lo: number, hi: number): number {
  const n = v !== undefined && /^\d+$/.test(v) ? Number(v) : NaN;
  if (!(n >= lo && n <= hi)) throw new UsageError(`${flag}: expected an integer from ${lo} to ${hi}, got ${v === undefined ? 'nothing' : `'${v}'`}`);
  return n;
}

/** `--core`: a core's number, or `all` (unpinned: null). */
function coreArg(v: string | undefined, cores: number): number | null {
  if (v === 'all') return null;
  const n = v !== undefined && /^\d+$/.test(v) ? Number(v) : NaN;
  if (!(n < cores)) throw new UsageError(`--core: expected a core from 0 to ${cores - 1} or 'all', got ${v === undefined ? 'nothing' : `'${v}'`}`);
  return n;
}

function listArg<T extends string>(flag: string, v: string | undefined, allowed: readonly T[]): T[] {
  const items = (v ?? '').split(',').filter((s) => s !== '');
  if (items.length === 0) throw new UsageError(`${flag}: expected a comma-separated list of ${allowed.join(', ')}`);
  for (const s of items) if (!(allowed as readonly string[]).includes(s)) throw new UsageError(`${flag}: '${s}' is not one of ${allowed.join(', ')}`);
  return items as T[];
}

function parseOptions(argv: string[]): Options {
  const o: Options = { cases: ['page', 'pile20'], modes: ['game', 'warm'], runs: 3, rapier: true, json: false, core: 1 };
  const cores = availableParallelism();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--cases') o.cases = listArg(a, argv[++i], SCENES);
    else if (a === '--modes') o.modes = listArg(a, argv[++i], SCENE_MODES);
    else if (a === '--runs') o.runs = intArg(a, argv[++i], 1, 20);
    else if (a === '--steps') o.steps = intArg(a, argv[++i], 1, 100_000);
    else if (a === '--core') o.core = coreArg(argv[++i], cores);
    else if (a === '--no-rapier') o.rapier = false;
    else if (a === '--json') o.json = true;
    else throw new UsageError(`unknown argument '${a}'`);
  }
  return o;
}

/** The bench-scenes module for the page: one script, Node's modules replaced by what the browser has. */
async function bundle(): Promise<string> {
  const { build } = await import('esbuild');
  const shims: Record<string, string> = {
    'node:perf_hooks': 'export const performance = globalThis.performance;',
    // bench-scenes' collector() catches this and reports no collector
    'node:v8': 'export function setFlagsFromString() { throw new Error("no V8 flags in a browser"); }',
    'node:vm': 'export function runInNewContext() { throw new Error("no vm contexts in a browser"); }',
  };
  const r = await build({
    stdin: {
      contents: "import { measureScene, runSceneRapier } from './src/cli/bench-scenes';\n" +
        'Object.assign(globalThis, { __elasticaBench: { measureScene, runSceneRapier } });\n',
      resolveDir: repo, sourcefile: 'bench-browser-entry.ts', loader: 'ts',
    },
    bundle: true, format: 'iife', platform: 'browser', target: 'es2022', write: false, logLevel: 'silent',
    plugins: [{
      name: 'node-shims',
      setup(b) {
        b.onResolve({ filter: /^node:/ }, (a) => shims[a.path] !== undefined
          ? { path: a.path, namespace: 'node-shim' }
          : { errors: [{ text: `${a.path} (imported by ${a.importer}) has no browser replacement in bench/browser.ts` }] });
        b.onLoad({ filter: /.*/, namespace: 'node-shim' }, (a) => ({ contents: shims[a.path]!, loader: 'js' }));
      },
    }],
  });
  return r.outputFiles[0]!.text;
}

type Browser = import('playwright-core').Browser;
type Page = import('playwright-core').Page;

/** How Chromium is started: its executable (a `taskset` wrapper when pinned) and the cores it runs on, in words. */
interface Launcher {
  path: string;
  where: string;
}

/** Launches Chromium and opens the bench page; the page's errors are collected. */
async function openPage(script: string, launcher: Launcher): Promise<{ browser: Browser; page: Page; errors: string[] }> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: launcher.path, headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const errors: string[] = [];
  try {
    const page = await browser.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await page.route(`${ORIGIN}/**`, (route) => {
      const js = new URL(route.request().url()).pathname === '/bench.js';
      return route.fulfill({
        status: 200,
        headers: { 'content-type': js ? 'text/javascript' : 'text/html; charset=utf-8', ...ISOLATION },
        body: js ? script : '<!doctype html><meta charset="utf-8"><title>elastica bench</title><script src="/bench.js"></script>',
      });
    });
    await page.goto(`${ORIGIN}/`, { waitUntil: 'load' });
    const isolated = await page.evaluate(() => globalThis.crossOriginIsolated && typeof (globalThis as { __elasticaBench?: unknown }).__elasticaBench === 'object');
    if (!isolated) throw new Error(`the bench page did not load cross-origin isolated with its script${errors.length ? `: ${errors.join('; ')}` : ''} (performance.now() would tick in 100 µs)`);
    return { browser, page, errors };
  } catch (e) {
    await browser.close(); // a page that did not open leaves no browser behind
    throw e;
  }
}

/**
 * One row measured in a fresh browser (`measure` runs in its page); a row with the error when the measurement throws.
 * `as` names the row then.
 */
async function rowInFreshBrowser(
  script: string, launcher: Launcher, as: { name: SceneName; engine: string; mode: SceneMode }, measure: (page: Page) => Promise<SceneResult>,
): Promise<SceneResult> {
  const { browser, page, errors } = await openPage(script, launcher);
  try {
    return { ...(await measure(page)), runtime: `Chromium ${browser.version()}, ${launcher.where}` };
  } catch (e) {
    return failedSceneRow(as.name, as.engine, as.mode, e, errors);
  } finally {
    await browser.close();
  }
}

type BenchGlobal = {
  __elasticaBench: {
    measureScene: (n: string, m: string, o: object) => unknown;
    runSceneRapier: (n: string, solver: string, sleeping: boolean, o: object) => Promise<unknown>;
  };
};

/** One Elastica row: `mode` run in a fresh page (warm and sleeping run the scene once unmeasured first: measureScene). */
function elasticaRow(script: string, launcher: Launcher, name: SceneName, mode: SceneMode, sopts: SceneOptions): Promise<SceneResult> {
  return rowInFreshBrowser(script, launcher, { name, engine: `elastica (${mode})`, mode }, (page) => page.evaluate(
    ([n, m, o]) => (globalThis as unknown as BenchGlobal).__elasticaBench.measureScene(n, m, o), [name, mode, sopts] as const,
  ) as Promise<SceneResult>);
}

/** Rapier's default solver, sleeping off, in a fresh page: one run unmeasured, then one measured. */
function rapierRow(script: string, launcher: Launcher, name: SceneName, sopts: SceneOptions): Promise<SceneResult> {
  return rowInFreshBrowser(script, launcher, { name, engine: 'rapier2d-compat (constraints)', mode: 'warm' }, (page) => page.evaluate(async ([n, o]) => {
    const b = (globalThis as unknown as BenchGlobal).__elasticaBench;
    await b.runSceneRapier(n, 'constraints', false, o);
    return b.runSceneRapier(n, 'constraints', false, o);
  }, [name, sopts] as const) as Promise<SceneResult>);
}

async function main(argv: string[]): Promise<number> {
  let o: Options;
  try {
    o = parseOptions(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`bench:browser: ${e.message}\n${USAGE}`);
    return 2;
  }
  if (!existsSync(chromiumPath)) {
    console.error(`bench:browser: Chromium not found at ${chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH)`);
    return 2;
  }
  // pinned: every process of the browser on one core, through a launcher script that execs it under taskset
  // (inherited by its children); `--core all`: Chromium as it is, on every core
  const dir = mkdtempSync(join(tmpdir(), 'elastica-bench-browser-'));
  const launcher: Launcher = { path: chromiumPath, where: `unpinned, ${availableParallelism()} cores` };
  if (o.core !== null) {
    if (spawnSync('taskset', ['-c', String(o.core), 'true']).status === 0) {
      launcher.path = join(dir, 'chromium');
      launcher.where = `core ${o.core}`;
      writeFileSync(launcher.path, `#!/bin/sh\nexec taskset -c ${o.core} '${chromiumPath.replace(/'/g, "'\\''")}' "$@"\n`);
      chmodSync(launcher.path, 0o755);
    } else console.error(`bench:browser: taskset -c ${o.core} failed; Chromium runs on every core`);
  }
  const out = (l: string): void => console.log(l);
  const emit = (r: SceneResult): void => {
    if (o.json) out(JSON.stringify(r));
    else for (const l of sceneRowLines(r)) out(l + (l.startsWith(' ') ? '' : `  [${r.runtime ?? 'Chromium'}]`));
  };
  let failed = false;
  try {
    const script = await bundle();
    const sopts: SceneOptions = o.steps !== undefined ? { steps: o.steps } : {};
    for (const name of o.cases) {
      let warm: SceneResult | null = null;
      for (const mode of o.modes) {
        // a row of a scene's first run in its process needs a fresh browser for each of its runs
        for (let k = 0; k < (runsWarm(mode) ? 1 : o.runs); k++) {
          const r = await elasticaRow(script, launcher, name, mode, sopts);
          failed ||= r.error !== undefined;
          if (mode === 'warm' && !r.error) warm = r;
          emit(r);
        }
      }
      if (!o.rapier) continue;
      const rapier = await rapierRow(script, launcher, name, sopts);
      failed ||= rapier.error !== undefined;
      emit(rapier);
      const ratio = warm && !rapier.error ? ratioToRapier(warm, rapier) : null;
      if (ratio) {
        if (o.json) out(JSON.stringify(ratio));
        else for (const l of ratioLines(ratio)) out(l);
      }
    }
  } catch (e) {
    console.error(`bench:browser: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return failed ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
