/**
 * Object shapes (V8 maps) stay stable: a profiled step and a snapshot restore change no field's
 * representation, so the optimized Newton step and contact code are not deoptimized in every world
 * (docs/solver.md, "Stop 23": the allocation gate's contact pile failed in CI on such a
 * re-optimization). V8-specific: the probe (test/support/shape-probe.ts) runs in a child Node
 * process with --allow-natives-syntax and compares shapes with %HaveSameMap.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('object shapes (V8)', () => {
  it('a profiled step and a restore leave every engine object with the shape a fresh world has', () => {
    const r = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', 'test/support/shape-probe.ts'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, string[]>;
    expect(Object.keys(result).sort()).toEqual(['eventLists', 'profiledStep', 'restore']);
    expect(result.profiledStep).toEqual([]);
    expect(result.restore).toEqual([]);
    // contact event lists that start as small-integer arrays (docs/solver.md, "Stop 35")
    expect(result.eventLists).toEqual([]);
  }, 60_000);
});
