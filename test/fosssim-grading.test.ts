/**
 * FOSSSim's grading, reproduced: every scene is run through the CLI, then each
 * step is recomputed by an independent reference integrator restarted from
 * the engine's own state; the position residual must stay below 1e-10 and the
 * velocity residual below 1e-9.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../src/cli/main';
import { loadSceneFile } from '../src/scene/load';
import { sceneSteps } from '../src/scene/build';
import { oracleStepWithCollisions, prepare } from './support/fosssim-oracle';
import { fosssimScenes } from './support/scenes';
import { readStateFile } from './support/statefile';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Synthetic scenes for what the shared ones don't reach: damping, drag and vortex under implicit integrators. */
const SYNTHETIC = fileURLToPath(new URL('./scenes', import.meta.url));
const scenes = [
  ...fosssimScenes(),
  ...readdirSync(SYNTHETIC).filter((f) => f.endsWith('.xml')).sort().map((f) => ({ name: `synthetic/${f}`, path: join(SYNTHETIC, f) })),
];

describe('FOSSSim grading (step-by-step residuals against a reference integrator)', () => {
  it('has the bundled scenes', () => {
    expect(scenes.length).toBeGreaterThanOrEqual(48);
  });

  for (const { name, path } of scenes) {
    it(name, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'elastica-grade-'));
      try {
        const out = join(dir, 'out.bin');
        expect(await main(['-s', path, '-d', '0', '-o', out, '--quiet'])).toBe(0);
        const desc = loadSceneFile(path);
        const N = 2 * desc.particles.length;
        // states only: a simple-collision scene's file also carries collision lists (test/fosssim-collisions.test.ts)
        const records = readStateFile(readFileSync(out), desc.particles.length, desc.collision?.type === 'simple');
        const data = Float64Array.from(records.flatMap((r) => [...r.x, ...r.v]));
        const steps = sceneSteps(desc);
        expect(data.length).toBe((steps + 1) * 2 * N);
        // Initial record is the scene's own state.
        desc.particles.forEach((p, i) => {
          expect(data[2 * i]).toBe(p.px);
          expect(data[2 * i + 1]).toBe(p.py);
          expect(data[N + 2 * i]).toBe(p.vx);
          expect(data[N + 2 * i + 1]).toBe(p.vy);
        });
        const oracle = prepare(desc);
        let maxDx = 0;
        let maxDv = 0;
        for (let k = 0; k < steps; k++) {
          const rec = data.subarray(2 * N * k, 2 * N * (k + 1));
          const next = data.subarray(2 * N * (k + 1), 2 * N * (k + 2));
          const ref = oracleStepWithCollisions(oracle, rec.slice(0, N), rec.slice(N));
          for (let a = 0; a < N; a++) {
            maxDx = Math.max(maxDx, Math.abs(ref.x[a]! - next[a]!));
            maxDv = Math.max(maxDv, Math.abs(ref.v[a]! - next[N + a]!));
          }
        }
        expect(maxDx).toBeLessThan(1e-10);
        expect(maxDv).toBeLessThan(1e-9);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
