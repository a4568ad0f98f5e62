/**
 * Issue 16: the spatial hash stays finite for any finite coordinate (cell indices are clamped).
 * Before the clamp, a query at |x| ≥ 2^53 cells looped forever on `ix++` (the increment did
 * nothing), so these scenes run in a child process with a timeout: a hang fails, it is not suffered.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SpatialHash, CELL_LIMIT } from '../src/collision/hash';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const DRIVER = join(ROOT, 'test', 'support', 'far-particle.ts');

describe('spatial hash: bounded for any finite coordinate', () => {
  const cases: [string, string, string][] = [
    ['1e17', '1', 'symplectic-euler'],
    ['1e16', '1', 'implicit-euler'],
    ['-1e300', '1', 'explicit-euler'],
    ['3', '1e160', 'symplectic-euler'], // a huge circle pushes the particle to its far surface
  ];
  for (const [px, radius, integrator] of cases) {
    it(`a particle at x=${px} with a circle of radius ${radius} (${integrator}) finishes 10 steps`, () => {
      const r = spawnSync(process.execPath, ['--import', 'tsx', DRIVER, px, radius, integrator], {
        cwd: ROOT, encoding: 'utf8', timeout: 30_000,
      });
      expect(r.signal).toBeNull(); // not killed by the timeout
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe('done\n');
    });
  }

  it('clamped far boxes are still found by a query that covers them, and not by one near the origin', () => {
    const h = new SpatialHash(64);
    h.begin(2, 0.5);
    h.setBox(0, 1e17, 0, 1e17 + 1, 1);
    h.setBox(1, 0, 0, 1, 1);
    h.build();
    const out = { buf: new Int32Array(4) };
    expect([...out.buf.subarray(0, h.query(1e17, 0, 1e17, 0.5, out))]).toEqual([0]);
    expect([...out.buf.subarray(0, h.query(0.2, 0.2, 0.3, 0.3, out))]).toEqual([1]);
    expect([...out.buf.subarray(0, h.query(-1e308, -1e308, 1e308, 1e308, out))]).toEqual([0, 1]);
    expect(CELL_LIMIT).toBeLessThan(2 ** 31);
  });

  it('a query with a NaN bound scans the items instead of looping over the other axis (fuzz: seed 3, api case 303)', () => {
    // x = NaN with y from -∞ to ∞: the cell loops ran 2^31 rows of nothing (7 s per query) and found nothing
    const h = new SpatialHash(64);
    h.begin(2, 0.5);
    h.setBox(0, 0, 0, 1, 1);
    h.setBox(1, 5, 5, 6, 6);
    h.build();
    const out = { buf: new Int32Array(4) };
    const t0 = performance.now();
    const k = h.query(Number.NaN, -Infinity, Number.NaN, Infinity, out);
    expect(performance.now() - t0).toBeLessThan(100);
    expect([...out.buf.subarray(0, k)]).toEqual([0, 1]); // conservative: a NaN box excludes nothing
  });
});
