/** `elastica bench --quick --json`: runs and emits one valid JSON object per line with every field. */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('elastica bench', () => {
  it('--quick --json --cases 1k emits JSON lines with all fields', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'elastica.mjs'), 'bench', '--quick', '--json', '--cases', '1k'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(1);
    const fields = ['name', 'triangles', 'dofs', 'integrator', 'msPerStepMedian', 'msPerStepP95', 'newtonItersMean', 'msAssembly', 'msFactor', 'msSolve', 'heapGrowthBytesPerStep', 'sag'];
    const rows = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const ours = rows.find((o) => o.engine === 'elastica')!;
    expect(ours).toBeDefined();
    for (const o of rows) {
      if ('error' in o) continue;
      for (const f of fields) expect(o, f).toHaveProperty(f);
    }
    expect(ours.name).toBe('1k');
    expect(ours.triangles as number).toBeGreaterThan(900);
    expect(Number.isFinite(ours.sag as number)).toBe(true);
  }, 120_000);

  it('unknown case exits 2', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'elastica.mjs'), 'bench', '--cases', '7k'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/7k/);
  }, 60_000);
});
