/**
 * The house rules of src/ (docs/design.md, "Layers"), checked on every test run:
 * - no import cycle between files under src/ (type-only imports count: a cycle of types is still a
 *   cycle a reader has to untangle);
 * - each inner folder imports only the folders below it (the table LAYERS), so data flows one way;
 *   in particular src/collision, src/solver, src/systems and src/elements never import src/world.ts.
 * Imports are read from the source text (import / export … from, import()); nothing is executed.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const SRC = resolve(__dirname, '../src');

/**
 * What each inner folder may import (besides itself). Top-level files (world.ts, warmup.ts, the
 * entry points) and the outer folders (scene, game, cli) sit above all of these, except the two
 * leaves errors.ts and ranges.ts (the validity ranges and argument checks, which import only
 * errors.ts): the layers that validate input may use them.
 */
const LAYERS: Record<string, readonly string[]> = {
  math: [],
  components: [],
  elements: ['math'],
  mesh: ['math', 'errors.ts'],
  solver: ['components', 'elements', 'math', 'errors.ts'],
  collision: ['solver', 'components', 'elements', 'math', 'errors.ts', 'ranges.ts'],
  systems: ['collision', 'solver', 'components', 'elements', 'math', 'errors.ts', 'ranges.ts'],
};

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out.sort();
}

/** Relative import specifiers of a file (static imports and re-exports, and dynamic import()). */
export function importsOf(text: string): string[] {
  const specs: string[] = [];
  const re = /(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const s = m[1] ?? m[2] ?? m[3]!;
    if (s.startsWith('.')) specs.push(s);
  }
  return specs;
}

function resolveImport(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec.replace(/\.js$/, ''));
  for (const cand of [`${base}.ts`, join(base, 'index.ts')]) if (existsSync(cand)) return cand;
  return null;
}

/** The layer of a file: its first folder under src/, or the file name for top-level files. */
function layerOf(file: string): string {
  return relative(SRC, file).split('/')[0]!;
}

function graph(): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const f of sourceFiles(SRC)) {
    const deps: string[] = [];
    for (const spec of importsOf(readFileSync(f, 'utf8'))) {
      const r = resolveImport(f, spec);
      if (r === null) throw new Error(`${relative(SRC, f)}: cannot resolve import '${spec}'`);
      deps.push(r);
    }
    g.set(f, deps);
  }
  return g;
}

/** Every elementary cycle found by a depth-first search (each reported once, from its first file). */
export function findCycles(g: Map<string, string[]>): string[][] {
  const state = new Map<string, 0 | 1 | 2>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (f: string): void => {
    state.set(f, 1);
    stack.push(f);
    for (const d of g.get(f) ?? []) {
      const s = state.get(d) ?? 0;
      if (s === 1) cycles.push([...stack.slice(stack.indexOf(d)), d]);
      else if (s === 0) visit(d);
    }
    stack.pop();
    state.set(f, 2);
  };
  for (const f of [...g.keys()].sort()) if ((state.get(f) ?? 0) === 0) visit(f);
  return cycles;
}

describe('architecture of src/', () => {
  const g = graph();

  it('has no import cycles between files', () => {
    const cycles = findCycles(g).map((c) => c.map((f) => relative(SRC, f)).join(' → '));
    expect(cycles).toEqual([]);
  });

  it('inner folders import only the layers below them', () => {
    const bad: string[] = [];
    for (const [f, deps] of g) {
      const layer = layerOf(f);
      const allowed = LAYERS[layer];
      if (!allowed) continue; // top-level files and outer folders
      for (const d of deps) {
        const to = layerOf(d);
        if (to !== layer && !allowed.includes(to)) bad.push(`${relative(SRC, f)} imports ${relative(SRC, d)}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('the check sees cycles and layer breaks (it can fail)', () => {
    const a = '/x/a.ts', b = '/x/b.ts', c = '/x/c.ts';
    expect(findCycles(new Map([[a, [b]], [b, [c]], [c, [a]]]))).toEqual([[a, b, c, a]]);
    expect(findCycles(new Map([[a, [b]], [b, [c]], [c, []]]))).toEqual([]);
    expect(importsOf("import type { PhysicsWorld } from '../world';\nexport { x } from './y.js';\nconst m = import('./z');"))
      .toEqual(['../world', './y.js', './z']);
  });
});
