#!/usr/bin/env node
/**
 * The library build (npm run build; also `prepare`, so npm pack and installs from git get it):
 *
 *   dist/index.js, dist/phaser.js, dist/node.js   ESM entries of `elastica`, `elastica/phaser`, `elastica/node`
 *   dist/chunks/*.js                               code they share (one copy of the engine, so instanceof works across entries)
 *   dist/cli/main.js                               the `elastica` command, one self-contained file for plain Node
 *   dist/**\/*.d.ts                                declarations from tsc, one per source file, relative imports with .js
 *
 * JavaScript: esbuild (bundle + code splitting, ES2022, source maps with the sources inlined, not minified: the
 * game's bundler minifies). Dependencies, the Phaser peer dependency and node:* stay imports. Declarations: tsc
 * (emitDeclarationOnly, tsconfig.build.json), then their relative specifiers get explicit `.js` / `/index.js` so they
 * resolve under every moduleResolution (bundler, node16, nodenext).
 */
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const external = [
  ...Object.keys(pkg.dependencies ?? {}),
  ...Object.keys(pkg.peerDependencies ?? {}),
  ...Object.keys(pkg.optionalDependencies ?? {}), // the CLI's frame rendering loads them on demand
  '@dimforge/rapier2d-compat', // bench only, loaded on demand (`elastica bench --no-rapier` runs without it)
  'node:*',
];
const t0 = performance.now();
rmSync(dist, { recursive: true, force: true });

const common = {
  absWorkingDir: root,
  bundle: true,
  format: 'esm',
  target: 'es2022',
  sourcemap: true,
  external,
  logLevel: 'warning',
  legalComments: 'none',
};

/**
 * `elastica/node` re-exports runScene from src/cli/main.ts, whose command dispatcher loads the benchmark on demand.
 * The library has no use for it (the `elastica bench` command runs dist/cli/main.js), so it gets a stub there.
 */
const benchStub = {
  name: 'bench-stub',
  setup(b) {
    b.onResolve({ filter: /^\.\/bench$/ }, (args) => (args.importer.endsWith(join('src', 'cli', 'main.ts')) ? { path: 'bench', namespace: 'bench-stub' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'bench-stub' }, () => ({
      contents: "export async function runBench() { throw new Error('the benchmark runs from the elastica command: npx elastica bench'); }",
      loader: 'js',
    }));
  },
};

await build({
  ...common,
  entryPoints: { index: 'src/index.ts', phaser: 'src/phaser.ts', node: 'src/node.ts' },
  outdir: dist,
  splitting: true,
  platform: 'neutral',
  chunkNames: 'chunks/[name]-[hash]',
  plugins: [benchStub],
});

await build({
  ...common,
  entryPoints: { 'cli/main': 'src/cli/main.ts' },
  outdir: dist,
  platform: 'node',
  target: 'node20',
});

const require = createRequire(import.meta.url);
const tsc = require.resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit', cwd: root });

/** `from './sim'` → `from './sim.js'`, `from '../mesh'` → `from '../mesh/index.js'` (what exists next to the file). */
function fixSpecifiers(file) {
  const dir = dirname(file);
  const text = readFileSync(file, 'utf8');
  const out = text.replace(/(from\s+|import\s*\(\s*|import\s+)(['"])(\.{1,2}\/[^'"]*)\2/g, (all, lead, q, spec) => {
    if (spec.endsWith('.js')) return all;
    const base = resolve(dir, spec);
    if (existsSync(`${base}.d.ts`)) return `${lead}${q}${spec}.js${q}`;
    if (existsSync(join(base, 'index.d.ts'))) return `${lead}${q}${spec}/index.js${q}`;
    throw new Error(`${relative(root, file)}: cannot resolve '${spec}'`);
  });
  if (out !== text) writeFileSync(file, out);
}
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (p.endsWith('.d.ts')) fixSpecifiers(p);
  }
}
walk(dist);

let bytes = 0, files = 0;
(function size(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) size(p);
    else {
      bytes += statSync(p).size;
      files++;
    }
  }
})(dist);
console.log(`dist/: ${files} files, ${(bytes / 1024).toFixed(0)} kB, in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
