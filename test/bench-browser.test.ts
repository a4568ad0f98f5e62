/**
 * `npm run bench:browser` (bench/browser.ts): the game scenes in headless Chromium. Runs a short page in the game and
 * warm modes with Rapier beside it and checks the rows; bad flags get a clear message. The Chromium part is skipped,
 * saying so, only when Chromium is not installed (CI installs it).
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(chromium);
if (!available) console.warn(`[bench-browser.test] SKIPPED the Chromium runs: Chromium not found at ${chromium}`);

function bench(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, ['--import', 'tsx', 'bench/browser.ts', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 170_000 });
}

interface Row {
  name: string; engine: string; mode: string; kind?: string; runtime?: string; sleeping?: boolean; warmupMs?: number; error?: string;
  maxStepAt: number; memoryMB?: unknown; windows: { from: number; to: number; steps: number; median: number; p95: number; p99: number; max: number }[];
}

describe('bench:browser', () => {
  it('rejects bad flags with a message that says what was expected, before starting a browser', () => {
    const runs = bench(['--runs', '0']);
    expect(runs.status).toBe(2);
    expect(runs.stderr).toContain("--runs: expected an integer from 1 to 20, got '0'");
    const cases = bench(['--cases', 'page,jelly']);
    expect(cases.status).toBe(2);
    expect(cases.stderr).toContain("--cases: 'jelly' is not one of page, pile20, stirred, row20");
    const core = bench(['--core', 'any']);
    expect(core.status).toBe(2);
    expect(core.stderr).toMatch(/--core: expected a core from 0 to \d+ or 'all', got 'any'/);
    const unknown = bench(['--fast']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("unknown argument '--fast'");
    expect(unknown.stdout).toBe('');
  }, 60_000);

  it.skipIf(!available)('runs the page in Chromium: a game row, a warm row, Rapier beside them and the ratio row', () => {
    const r = bench(['--json', '--cases', 'page', '--modes', 'game,warm', '--runs', '1', '--steps', '20']);
    expect(r.status, r.stderr).toBe(0);
    const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Row);
    expect(rows.map((o) => o.kind ?? o.mode)).toEqual(['game', 'warm', 'warm', 'ratio']);
    const [game, warm, rapier, ratio] = rows as [Row, Row, Row, Row];
    for (const o of [game, warm, rapier]) {
      expect(o.error).toBeUndefined();
      // pinned to the default core 1 (unpinned only where taskset cannot pin there, which bench:browser says)
      expect(o.runtime).toMatch(/^Chromium \d+\.[\d.]+, (core 1|unpinned, \d+ cores)$/);
      expect(o.name).toBe('page');
      expect(o.windows).toHaveLength(1);
      const w = o.windows[0]!;
      expect(w.steps).toBe(20);
      expect(w.median).toBeGreaterThan(0);
      expect(w.median).toBeLessThanOrEqual(w.p99);
      expect(w.p99).toBeLessThanOrEqual(w.max);
      expect(o.maxStepAt).toBeGreaterThanOrEqual(0);
      expect(o.maxStepAt).toBeLessThan(20);
      // the page is cross-origin isolated: its clock is finer than Chromium's default 100 µs
      const figures = [w.median, w.p95, w.p99, w.max];
      expect(figures.every((f) => Math.abs(f * 10 - Math.round(f * 10)) < 1e-9), figures.join(' ')).toBe(false);
    }
    expect(game.engine).toBe('elastica (sleeping on)');
    expect(game.sleeping).toBe(true);
    expect(game.warmupMs).toBeGreaterThan(0);
    // no memory figures where the runtime does not report them
    expect(game.memoryMB).toBeUndefined();
    expect(warm.engine).toBe('elastica');
    expect(rapier.engine).toContain('Constraints, default');
    expect(ratio.windows).toHaveLength(1);
    expect(ratio.windows[0]!.median).toBeCloseTo(warm.windows[0]!.median / rapier.windows[0]!.median, 2);
  }, 180_000);

  it.skipIf(!available)('--core all runs Chromium unpinned, on every core, and its rows say so', () => {
    const r = bench(['--json', '--cases', 'page', '--modes', 'warm', '--steps', '5', '--no-rapier', '--core', 'all']);
    expect(r.status, r.stderr).toBe(0);
    const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Row);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.error).toBeUndefined();
    expect(rows[0]!.runtime).toMatch(new RegExp(`^Chromium \\d+\\.[\\d.]+, unpinned, ${availableParallelism()} cores$`));
    expect(rows[0]!.windows[0]!.steps).toBe(5);
  }, 120_000);
});
