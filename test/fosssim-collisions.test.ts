/**
 * FOSSSim's collision grading, reproduced for every scene with `<collision type="simple">` or
 * `type="penalty"`: the CLI writes the state file; each step is recomputed by the independent
 * oracle (test/support/fosssim-oracle.ts) restarted from the engine's own previous record.
 * Positions and velocities must agree within 1e-10, and for simple scenes the step's collision
 * list must hold exactly the oracle's collisions in the oracle's order (type, particle, other
 * object), each detection vector within 1e-9, time 0. The initial record carries an empty list;
 * penalty scenes carry none.
 *
 * Scenes: FOSSSim's HalfplaneTests/test01 (bundled) and Elastica-authored scenes in test/scenes/
 * (simple-*: particle–particle, particle–edge, half-planes, fixed particles, COR, pair order;
 * penalty-*: every pair kind under explicit, symplectic, linearized and full implicit Euler).
 * FOSSSim's own t2m1/t2m2 collision test scenes (CollisionTests, CORTests, …) are not in the
 * searchable copy of the course repository this was built with, so they are not bundled; any put
 * in ../shared/scenes/fosssim are graded here too.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../src/cli/main';
import { loadSceneFile } from '../src/scene/load';
import { sceneSteps } from '../src/scene/build';
import { oracleStepWithCollisions, penaltyGradient, prepare, type OracleCollision } from './support/fosssim-oracle';
import { fosssimScenes } from './support/scenes';
import { readStateFile, type StateRecord } from './support/statefile';

const SYNTHETIC = fileURLToPath(new URL('./scenes', import.meta.url));
const all = [
  ...fosssimScenes(),
  ...readdirSync(SYNTHETIC).filter((f) => f.endsWith('.xml')).sort().map((f) => ({ name: `synthetic/${f}`, path: join(SYNTHETIC, f) })),
];
const scenes = all.filter(({ path }) => {
  const t = loadSceneFile(path).collision?.type;
  return t === 'simple' || t === 'penalty';
});

/** The first difference between the file's list and the oracle's, or '' when they agree. */
export function compareLists(got: NonNullable<StateRecord['collisions']>, want: OracleCollision[], tol = 1e-9): string {
  for (let k = 0; k < Math.max(got.length, want.length); k++) {
    const g = got[k], w = want[k];
    if (!g) return `missing collision #${k}: ${JSON.stringify(w)}`;
    if (!w) return `superfluous collision #${k}: ${JSON.stringify(g)}`;
    if (g.type !== w.type || g.i !== w.i || g.j !== w.j) return `collision #${k}: got ${g.type}/${g.i}/${g.j}, expected ${w.type}/${w.i}/${w.j}`;
    if (!(Math.abs(g.n[0] - w.n[0]) <= tol && Math.abs(g.n[1] - w.n[1]) <= tol)) return `collision #${k}: n (${g.n}) vs (${w.n})`;
    if (g.time !== 0) return `collision #${k}: time ${g.time}, expected 0`;
  }
  return '';
}

describe('FOSSSim collision grading (states and collision lists, step by step)', () => {
  it('covers particle-particle, particle-edge, particle-half-plane, fixed particles, COR and penalty', () => {
    const names = scenes.map((s) => s.name).join(' ');
    for (const want of ['simple-particles-cor', 'simple-edges-cor', 'simple-fixed-halfplanes', 'HalfplaneTests', 'penalty-particles', 'penalty-edges']) {
      expect(names).toContain(want);
    }
  });

  it('compareLists fails a missed, a superfluous and an off collision (the check can fail)', () => {
    const a = { type: 0, i: 0, j: 1, n: [1, 0] as [number, number], time: 0 };
    expect(compareLists([a], [])).toMatch(/superfluous/);
    expect(compareLists([], [{ type: 0, i: 0, j: 1, n: [1, 0] }])).toMatch(/missing/);
    expect(compareLists([a], [{ type: 0, i: 0, j: 1, n: [1, 2e-9] }])).toMatch(/n \(/);
    expect(compareLists([a], [{ type: 1, i: 0, j: 1, n: [1, 0] }])).toMatch(/expected 1/);
    expect(compareLists([a], [{ type: 0, i: 0, j: 1, n: [1, 5e-10] }])).toBe('');
  });

  for (const { name, path } of scenes) {
    it(name, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'elastica-coll-'));
      try {
        const out = join(dir, 'out.bin');
        expect(await main(['-s', path, '-d', '0', '-o', out, '--quiet'])).toBe(0);
        const desc = loadSceneFile(path);
        const simple = desc.collision?.type === 'simple';
        const records = readStateFile(readFileSync(out), desc.particles.length, simple);
        const steps = sceneSteps(desc);
        expect(records.length).toBe(steps + 1);
        if (simple) expect(records[0]!.collisions).toEqual([]);
        const oracle = prepare(desc);
        let maxDx = 0, maxDv = 0, listed = 0, pressed = 0;
        const problems: string[] = [];
        for (let k = 0; k < steps; k++) {
          const ref = oracleStepWithCollisions(oracle, records[k]!.x, records[k]!.v);
          const next = records[k + 1]!;
          for (let a = 0; a < ref.x.length; a++) {
            maxDx = Math.max(maxDx, Math.abs(ref.x[a]! - next.x[a]!));
            maxDv = Math.max(maxDv, Math.abs(ref.v[a]! - next.v[a]!));
          }
          if (!simple && penaltyGradient(oracle, records[k]!.x).some((g) => g !== 0)) pressed++;
          if (simple) {
            listed += next.collisions!.length;
            const diff = compareLists(next.collisions!, ref.collisions);
            if (diff !== '' && problems.length < 5) problems.push(`step ${k + 1}: ${diff}`);
          }
        }
        expect(problems).toEqual([]);
        expect(maxDx).toBeLessThan(1e-10);
        expect(maxDv).toBeLessThan(1e-10);
        if (simple) expect(listed).toBeGreaterThan(0); // the scene does collide
        else expect(pressed).toBeGreaterThan(0); // a penalty pair is active at some step
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
