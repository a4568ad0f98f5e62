/** The FOSSSim scene files the tests use: the bundled copies, plus any extra ones in ../shared beside the repo. */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BUNDLED = fileURLToPath(new URL('../../assets/scenes/fosssim', import.meta.url));
export const SHARED = fileURLToPath(new URL('../../../shared/scenes/fosssim', import.meta.url));

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (name.endsWith('.xml')) out.push(p);
  }
  return out;
}

/** Scene files keyed by their path below the fosssim folder; bundled copies first. */
export function fosssimScenes(): { name: string; path: string }[] {
  const byName = new Map<string, string>();
  for (const root of [BUNDLED, SHARED]) {
    if (!existsSync(root)) continue;
    for (const p of walk(root)) {
      const name = relative(root, p);
      if (!byName.has(name)) byName.set(name, p);
    }
  }
  return [...byName.entries()].map(([name, path]) => ({ name, path }));
}
