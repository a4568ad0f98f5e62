/**
 * The package as a game developer gets it (issue 11). In a temporary folder:
 *
 *   1. `npm pack` a private copy of this working tree (git's file list; runs `prepare`, the library build, from
 *      scratch) and check the tarball's file list;
 *   2. a fresh project the way a user makes one: Vite's current vanilla-ts template (create-vite@latest from the
 *      registry: its tsconfig.json and its vite version), the newest TypeScript, phaser@^4.2, the tarball; the game is
 *      examples/starter (which must contain the README's plugin snippet line for line), plus the README's engine
 *      snippet as src/engine.ts;
 *   3. `tsc --noEmit` (also with moduleResolution nodenext) and `vite build` (no Node-module warning; one copy of
 *      Phaser in the bundle);
 *   4. from the installed package with none of Elastica's devDependencies present: `npx elastica --help`,
 *      `--version`, `npx elastica run <bundled scene> --out f.bin`, `render --gif` (optional dependencies),
 *      `elastica/node` and the engine snippet in plain Node;
 *   5. the built game served and opened in headless Chromium: no console errors, the simulation advances and the
 *      jelly falls.
 *
 * Needs the npm registry (consumer.test.ts skips with a message only when it is unreachable). npm's cache makes
 * repeated runs fast (--prefer-offline). `npx tsx test/consumer/run.ts` runs it alone and keeps the folder.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CHROMIUM_ARGS, chromiumAvailable, chromiumPath, NODE_MODULE_WARNING, serve } from '../browser/run';

export const repo = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

/** What the tarball may hold (paths inside it, without the leading `package/`). */
export const SHIPPED = [/^package\.json$/, /^README\.md$/, /^LICENSE$/, /^CHANGELOG\.md$/, /^docs\/(getting-started|api)\.md$/,
  /^bin\/elastica\.mjs$/, /^dist\//, /^assets\/scenes\//];
/** What it must hold. */
export const REQUIRED = ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'bin/elastica.mjs', 'dist/index.js', 'dist/index.d.ts',
  'dist/phaser.js', 'dist/phaser.d.ts', 'dist/node.js', 'dist/node.d.ts', 'dist/cli/main.js'];
/** A bundled scene the CLI check runs (4 particles, 50 s). */
export const CLI_SCENE = 'assets/scenes/fosssim/t4m1/CSTTests/test07.xml';

export interface Step {
  name: string;
  ms: number;
}

export interface ConsumerResult {
  dir: string;
  tarball: string;
  tarballBytes: number;
  files: string[];
  typescript: string;
  vite: string;
  phaser: string;
  bundleBytes: number;
  phaserCopies: string[];
  steps: Step[];
  browser: { errors: string[]; simTime: number; fell: number; particles: number };
}

interface Cmd {
  code: number | null;
  out: string;
}

function sh(cmd: string, args: string[], cwd: string, timeoutMs = 300_000): Cmd {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 1 << 26, env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' } });
  return { code: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? `\n${r.error.message}` : ''}` };
}

/** Run and fail with the command's output unless it exits 0. */
function must(cmd: string, args: string[], cwd: string, what: string, timeoutMs?: number): string {
  const r = sh(cmd, args, cwd, timeoutMs);
  if (r.code !== 0) throw new Error(`${what} failed (exit ${r.code}): ${cmd} ${args.join(' ')} in ${cwd}\n${r.out}`);
  return r.out;
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

/** The npm registry answers (`npm ping`, 20 s). */
export function registryReachable(): { ok: boolean; detail: string } {
  const r = sh(npm, ['ping'], tmpdir(), 20_000);
  return { ok: r.code === 0, detail: r.out.trim().split('\n').slice(-2).join(' ') };
}

/** ```ts blocks of README.md that follow the heading `heading`. */
export function readmeSnippet(heading: string): string {
  const text = readFileSync(join(repo, 'README.md'), 'utf8');
  const at = text.indexOf(`\n## ${heading}\n`);
  if (at < 0) throw new Error(`README.md has no '## ${heading}' section`);
  const m = /```ts\n([\s\S]*?)```/.exec(text.slice(at));
  if (!m) throw new Error(`README.md '## ${heading}' has no ts code block`);
  return m[1]!;
}

function timed<T>(steps: Step[], name: string, log: (l: string) => void, f: () => T): T {
  const t0 = performance.now();
  const v = f();
  const ms = performance.now() - t0;
  steps.push({ name, ms });
  log(`  ${name}: ${(ms / 1000).toFixed(1)} s`);
  return v;
}

async function timedAsync<T>(steps: Step[], name: string, log: (l: string) => void, f: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const v = await f();
  const ms = performance.now() - t0;
  steps.push({ name, ms });
  log(`  ${name}: ${(ms / 1000).toFixed(1)} s`);
  return v;
}

/**
 * A private copy of the working tree in `dir` (the files git tracks or would track: no dist/, no site/, nothing
 * ignored) with the repository's node_modules linked in. Packing there builds dist/ from scratch, as a git install
 * does, and never touches the repository's own dist/, which a concurrent test run may be using or rebuilding.
 * Falls back to the repository itself when git is not available.
 */
function workingCopy(dir: string): string {
  const ls = sh('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], repo);
  if (ls.code !== 0) return repo;
  const copy = join(dir, 'checkout');
  for (const f of ls.out.split('\0')) {
    if (f === '' || !existsSync(join(repo, f))) continue; // deleted but still tracked
    mkdirSync(dirname(join(copy, f)), { recursive: true });
    copyFileSync(join(repo, f), join(copy, f));
  }
  symlinkSync(join(repo, 'node_modules'), join(copy, 'node_modules'), 'dir');
  return copy;
}

/** Pack a copy of the repository into `dir`; returns the tarball path and its file list. */
export function packRepo(dir: string): { tarball: string; files: string[] } {
  const out = must(npm, ['pack', '--pack-destination', dir, '--json'], workingCopy(dir), 'npm pack (runs the library build)');
  const json = out.slice(out.indexOf('['));
  const info = JSON.parse(json.slice(0, json.lastIndexOf(']') + 1)) as { filename: string; files: { path: string }[] }[];
  return { tarball: join(dir, info[0]!.filename), files: info[0]!.files.map((f) => f.path).sort() };
}

/** Problems with the tarball's file list: files not meant to ship, required files missing. */
export function checkFileList(files: string[]): string[] {
  const problems: string[] = [];
  for (const f of files) if (!SHIPPED.some((re) => re.test(f))) problems.push(`ships ${f}`);
  for (const f of REQUIRED) if (!files.includes(f)) problems.push(`missing ${f}`);
  if (!files.some((f) => f.startsWith('assets/scenes/') && f.endsWith('.xml'))) problems.push('missing the bundled scenes');
  return problems;
}

/** Vite's vanilla-ts template from create-vite@latest: its tsconfig.json text and its vite version range. */
function viteTemplate(dir: string): { tsconfig: string; vite: string; version: string } {
  const out = must(npm, ['pack', 'create-vite@latest', '--pack-destination', dir, '--json', '--prefer-offline'], dir, 'npm pack create-vite@latest');
  const json = out.slice(out.indexOf('['));
  const info = JSON.parse(json.slice(0, json.lastIndexOf(']') + 1)) as { filename: string; version: string }[];
  const x = join(dir, 'create-vite');
  mkdirSync(x);
  must('tar', ['xzf', join(dir, info[0]!.filename), '-C', x], dir, 'unpack create-vite');
  const t = join(x, 'package', 'template-vanilla-ts');
  const pkg = JSON.parse(readFileSync(join(t, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  return { tsconfig: readFileSync(join(t, 'tsconfig.json'), 'utf8'), vite: pkg.devDependencies.vite!, version: info[0]!.version };
}

/** Module ids under node_modules/phaser seen by a Vite build of `app`, grouped by package directory. */
const PHASER_COPIES = `import { build } from 'vite';
const roots = new Set();
await build({ logLevel: 'silent', build: { write: false }, plugins: [{ name: 'phaser-copies', transform(_code, id) {
  const m = /^(.*[\\\\/]node_modules[\\\\/]phaser)[\\\\/]/.exec(id.split('?')[0]);
  if (m) roots.add(m[1]);
  return null;
} }] });
console.log(JSON.stringify([...roots]));
`;

export interface ConsumerOptions {
  log?: (line: string) => void;
  /** Keep the temporary folder (default: removed after a successful run). */
  keep?: boolean;
  /** Time limit for the page to advance, ms. */
  timeoutMs?: number;
}

export async function runConsumer(opts: ConsumerOptions = {}): Promise<ConsumerResult> {
  const log = opts.log ?? ((l: string) => console.log(l));
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const dir = mkdtempSync(join(tmpdir(), 'elastica-consumer-'));
  const steps: Step[] = [];
  log(`consumer test in ${dir}`);

  // 1. the tarball
  const { tarball, files } = timed(steps, 'npm pack', log, () => packRepo(dir));
  const listProblems = checkFileList(files);
  if (listProblems.length > 0) throw new Error(`tarball file list:\n  ${listProblems.join('\n  ')}`);

  // 2. a fresh project: the starter + the current vanilla-ts template's tsconfig
  const template = timed(steps, 'create-vite template', log, () => viteTemplate(dir));
  const app = join(dir, 'app');
  cpSync(join(repo, 'examples/starter'), app, { recursive: true, filter: (src) => !/[\\/](node_modules|dist)$/.test(src) });
  writeFileSync(join(app, 'tsconfig.json'), template.tsconfig);
  const pkgPath = join(app, 'package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
  const starterSpec = `file:../../${basename(tarball)}`;
  if (pkg.dependencies.elastica !== starterSpec) {
    throw new Error(`examples/starter/package.json: elastica should be "${starterSpec}" (the tarball npm pack makes), not "${pkg.dependencies.elastica}"`);
  }
  delete pkg.dependencies.elastica; // installed from the tarball below
  delete pkg.dependencies.phaser;
  delete pkg.devDependencies.typescript;
  delete pkg.devDependencies.vite;
  writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
  const main = readFileSync(join(app, 'src/main.ts'), 'utf8');
  const missing = readmeSnippet('Phaser plugin').split('\n').filter((l) => l.trim() !== '' && !main.includes(l.trim()));
  if (missing.length > 0) throw new Error(`examples/starter/src/main.ts lacks these lines of the README's plugin snippet:\n${missing.join('\n')}`);
  const engine = readmeSnippet('Using the engine from TypeScript');
  writeFileSync(join(app, 'src/engine.ts'), engine);
  writeFileSync(join(app, 'engine.mjs'), engine);

  timed(steps, 'npm install', log, () =>
    must(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, 'phaser@^4.2', 'typescript@latest', `vite@${template.vite}`], app, 'npm install'));
  const version = (name: string): string => (JSON.parse(readFileSync(join(app, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  for (const dev of ['tsx', 'vitest', 'esbuild', '@dimforge/rapier2d-compat', 'playwright-core', 'typescript-eslint']) {
    if (existsSync(join(app, 'node_modules', dev))) throw new Error(`Elastica's devDependency ${dev} got installed in the consumer project`);
  }
  if (existsSync(join(app, 'node_modules/elastica/node_modules'))) throw new Error('elastica brought its own node_modules (a nested copy)');
  const versions = { typescript: version('typescript'), vite: version('vite'), phaser: version('phaser') };
  log(`  typescript ${versions.typescript}, vite ${versions.vite}, phaser ${versions.phaser}, create-vite ${template.version}`);

  // 3. type-check and build as the template's `npm run build` does
  timed(steps, 'tsc --noEmit', log, () => must(npx, ['tsc', '--noEmit'], app, 'tsc --noEmit (vanilla-ts tsconfig)'));
  // The declarations also resolve under Node's own ESM resolution (docs/getting-started.md says so).
  writeFileSync(join(app, 'tsconfig.nodenext.json'), JSON.stringify({ extends: './tsconfig.json', compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' } }));
  timed(steps, 'tsc nodenext', log, () => must(npx, ['tsc', '--noEmit', '-p', 'tsconfig.nodenext.json'], app, 'tsc --noEmit (moduleResolution nodenext)'));
  const buildOut = timed(steps, 'vite build', log, () => must(npx, ['vite', 'build'], app, 'vite build'));
  const nodeWarnings = buildOut.split('\n').filter((l) => NODE_MODULE_WARNING.test(l));
  if (nodeWarnings.length > 0) throw new Error(`vite build saw Node modules:\n${nodeWarnings.join('\n')}`);
  const assets = join(app, 'dist/assets');
  const bundleBytes = readdirSync(assets).filter((f) => f.endsWith('.js')).reduce((s, f) => s + statSync(join(assets, f)).size, 0);
  writeFileSync(join(app, 'phaser-copies.mjs'), PHASER_COPIES);
  const copiesOut = timed(steps, 'phaser copies', log, () => must('node', ['phaser-copies.mjs'], app, 'counting Phaser copies'));
  const phaserCopies = JSON.parse(copiesOut.trim().split('\n').pop()!) as string[];
  if (phaserCopies.length !== 1) throw new Error(`the bundle holds ${phaserCopies.length} copies of Phaser: ${phaserCopies.join(', ')}`);
  log(`  bundle ${(bundleBytes / 1e6).toFixed(2)} MB, Phaser from ${phaserCopies[0]}`);

  // 4. the installed command and the Node entry
  timed(steps, 'installed CLI', log, () => {
    const help = must(npx, ['elastica', '--help'], app, 'npx elastica --help');
    if (!help.includes('Usage:')) throw new Error(`npx elastica --help printed no usage:\n${help}`);
    const want = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string }).version;
    const shown = must(npx, ['elastica', '--version'], app, 'npx elastica --version');
    if (!shown.includes(`elastica ${want}`)) throw new Error(`npx elastica --version printed "${shown.trim()}", package.json says ${want}`);
    must(npx, ['elastica', 'run', `node_modules/elastica/${CLI_SCENE}`, '--out', 'f.bin'], app, 'npx elastica run');
    const bytes = statSync(join(app, 'f.bin')).size;
    const record = 4 * 4 * 8; // 4 particles: x, y, vx, vy as float64
    if (bytes === 0 || bytes % record !== 0) throw new Error(`f.bin has ${bytes} bytes, not whole records of ${record}`);
    // frames through the optional dependencies (resvg-js, gifenc), which the built CLI loads on demand
    must(npx, ['elastica', 'render', `node_modules/elastica/${CLI_SCENE}`, '--gif', 'f.gif', '--steps', '30', '--quiet'], app, 'npx elastica render --gif');
    const gif = readFileSync(join(app, 'f.gif'));
    if (gif.subarray(0, 4).toString('latin1') !== 'GIF8') throw new Error(`f.gif is not a GIF (${gif.length} bytes)`);
    const nodeOut = must('node', ['--input-type=module', '-e',
      `import { loadSceneFile } from 'elastica/node'; import { buildScene } from 'elastica';
       const s = buildScene(loadSceneFile('node_modules/elastica/${CLI_SCENE}')); s.world.step(); console.log('particles', s.world.particleCount());`],
    app, 'elastica/node in plain Node');
    if (!nodeOut.includes('particles 4')) throw new Error(`elastica/node: unexpected output\n${nodeOut}`);
    const engineOut = must('node', ['engine.mjs'], app, "the README's engine snippet in plain Node");
    if (!/Float64Array/.test(engineOut)) throw new Error(`the engine snippet printed no positions:\n${engineOut}`);
  });

  // 5. the game in Chromium
  const browser = await timedAsync(steps, 'Chromium', log, () => openGame(join(app, 'dist'), timeoutMs));
  log(`  page: sim time ${browser.simTime.toFixed(2)} s, ${browser.particles} particles, jelly fell ${browser.fell.toFixed(0)} px`);
  for (const e of browser.errors) log(`  error: ${e}`);

  const tarballBytes = statSync(tarball).size;
  if (!opts.keep && browser.errors.length === 0) rmSync(dir, { recursive: true, force: true });
  return {
    dir, tarball, tarballBytes, files, ...versions,
    bundleBytes, phaserCopies, steps, browser,
  };
}

type GameWindow = {
  game?: {
    scene: {
      scenes: {
        soft?: {
          running: boolean;
          world: { time: number; particleCount(): number };
          sim: { bodies: { kind: string; centroid: { x: number; y: number } }[] };
        };
      }[];
    };
  };
};

/** Serve the built game and watch it in headless Chromium for a few simulated seconds. */
async function openGame(site: string, timeoutMs: number): Promise<ConsumerResult['browser']> {
  if (!chromiumAvailable()) throw new Error(`Chromium not found at ${chromiumPath}`);
  const { chromium } = await import('playwright-core');
  const { server, base } = await serve(site);
  const profile = mkdtempSync(join(tmpdir(), 'elastica-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath, headless: true, viewport: { width: 900, height: 700 }, args: CHROMIUM_ARGS });
  const errors: string[] = [];
  try {
    const page = await context.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    page.on('requestfailed', (r) => errors.push(`requestfailed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
    page.on('response', (r) => {
      if (r.status() >= 400) errors.push(`http ${r.status()}: ${r.url()}`);
    });
    await page.goto(`${base}/index.html`, { waitUntil: 'load', timeout: timeoutMs });
    const state = (): Promise<{ t: number; n: number; y: number } | null> =>
      page.evaluate(() => {
        const s = (window as unknown as GameWindow).game?.scene.scenes[0]?.soft;
        if (!s || !s.running) return null;
        const jelly = s.sim.bodies.find((b) => b.kind === 'jelly');
        return { t: s.world.time, n: s.world.particleCount(), y: jelly ? jelly.centroid.y : Number.NaN };
      });
    let first: { t: number; n: number; y: number } | null = null;
    try {
      await page.waitForFunction(() => ((window as unknown as GameWindow).game?.scene.scenes[0]?.soft?.running ?? false), undefined, { timeout: timeoutMs });
      first = await state();
      await page.waitForFunction(() => ((window as unknown as GameWindow).game?.scene.scenes[0]?.soft?.world.time ?? 0) >= 1.5, undefined, { timeout: timeoutMs });
    } catch (e) {
      errors.push(`the game did not run 1.5 s of simulated time within ${timeoutMs} ms: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    }
    const last = await state();
    const fell = first && last ? last.y - first.y : 0;
    if (!first || !last) errors.push('no running ElasticaPlugin on window.game.scene.scenes[0].soft');
    else if (!(fell > 20)) errors.push(`the jelly did not fall: its centroid moved ${fell.toFixed(1)} px down`);
    return { errors, simTime: last?.t ?? 0, fell, particles: last?.n ?? 0 };
  } finally {
    await context.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const reach = registryReachable();
  if (!reach.ok) {
    console.error(`npm registry unreachable: ${reach.detail}`);
    process.exit(2);
  }
  runConsumer({ keep: true })
    .then((r) => {
      console.log(`tarball ${r.tarball}: ${(r.tarballBytes / 1024).toFixed(0)} kB, ${r.files.length} files; kept ${r.dir}`);
      process.exit(r.browser.errors.length === 0 ? 0 : 1);
    })
    .catch((e: unknown) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    });
}
