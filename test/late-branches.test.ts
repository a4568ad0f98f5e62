/**
 * A branch a game first takes long after the code was optimized must not deoptimize it (docs/solver.md, "Stop 29").
 * Found in the jelly page after world.warmUp: the first deferred contact-pattern rebuild (PatternBook.commit,
 * inlined in the candidate search, which then deoptimized at every step for some 20 steps and compiled again).
 * A child process with V8's natives optimizes commit while every rebuild is granted, then has rebuilds deferred,
 * and the test reads V8's deopt trace: before, commit was deoptimized for insufficient type feedback.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PROBE = fileURLToPath(new URL('./support/late-branch-probe.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('late branches', () => {
  it('the first deferred contact-pattern rebuild does not deoptimize PatternBook.commit', () => {
    const r = spawnSync(process.execPath, ['--allow-natives-syntax', '--trace-deopt', '--import', 'tsx', PROBE], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    const begin = lines.indexOf('--late-begin'), end = lines.indexOf('--late-end');
    expect(begin).toBeGreaterThan(0);
    expect(end).toBeGreaterThan(begin);
    const report = JSON.parse(lines.find((l) => l.startsWith('{"optimizedBefore"'))!) as { optimizedBefore: boolean; deferred: number };
    // what the test needs to be able to fail: commit optimized before, rebuilds deferred after
    expect(report.optimizedBefore).toBe(true);
    expect(report.deferred).toBeGreaterThan(0);
    const deopts = lines.slice(begin, end).filter((l) => l.includes('deoptimizing') && l.includes('<JSFunction commit '));
    expect(deopts).toEqual([]);
  }, 60_000);
});
