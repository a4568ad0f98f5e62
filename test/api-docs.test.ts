/**
 * docs/api.md names every export of the three entry points (src/index.ts → `elastica`, src/phaser.ts →
 * `elastica/phaser`, src/node.ts → `elastica/node`), and `elastica` exports neither the plugin nor the Node helpers.
 * (That no browser bundle sees a Node module is checked on real builds: test/consumer and the gallery build.)
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRIES = { elastica: 'src/index.ts', 'elastica/phaser': 'src/phaser.ts', 'elastica/node': 'src/node.ts' };

/** Names an entry exports: `export { a, b as c }`, `export type { … }`, `export * as ns`. */
function exportedNames(source: string): string[] {
  const names: string[] = [];
  for (const m of source.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
    for (const part of m[1]!.split(',')) {
      const name = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/).pop()!.trim();
      if (name) names.push(name);
    }
  }
  for (const m of source.matchAll(/export\s+\*\s+as\s+(\w+)/g)) names.push(m[1]!);
  return names;
}

describe('docs/api.md', () => {
  const doc = readFileSync(join(ROOT, 'docs/api.md'), 'utf8');
  for (const [entry, file] of Object.entries(ENTRIES)) {
    it(`mentions every export of ${entry} (${file})`, () => {
      const names = exportedNames(readFileSync(join(ROOT, file), 'utf8'));
      expect(names.length).toBeGreaterThan(2);
      const missing = names.filter((n) => !new RegExp(`\\b${n}\\b`).test(doc));
      expect(missing, `add these to docs/api.md`).toEqual([]);
    });
  }

  it('the name scanner sees plain, type and renamed exports', () => {
    expect(exportedNames("export { A, b as C } from './x';\nexport type {\n  D,\n  E as F,\n} from './y';\nexport * as g from './z';"))
      .toEqual(['A', 'C', 'D', 'F', 'g']);
  });
});

describe('entry points keep to their runtime', () => {
  it('elastica exports the engine and neither the plugin nor the Node helpers; elastica/node has those', async () => {
    const core = await import('../src/index');
    expect(typeof core.PhysicsWorld).toBe('function');
    expect(typeof core.parseSceneXml).toBe('function');
    expect(typeof core.math.sin).toBe('function');
    expect('ElasticaPlugin' in core).toBe(false);
    expect('loadSceneFile' in core).toBe(false);
    const node = await import('../src/node');
    expect(typeof node.loadSceneFile).toBe('function');
    expect(typeof node.runScene).toBe('function');
  });
});
