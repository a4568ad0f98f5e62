/**
 * A branch a game first takes long after the code was optimized must not deoptimize it (docs/solver.md, "Stop 29").
 * Found in the jelly page after world.warmUp: the first deferred contact-pattern rebuild (PatternBook.commit,
 * inlined in the candidate search, which then deoptimized at every step for some 20 steps and compiled again).
 * A child process with V8's natives optimizes commit while every rebuild is granted, then has rebuilds deferred,
 * and the test reads V8's deopt trace: before, commit was deoptimized for insufficient type feedback.
 */
import { describe, expect, it } from 'vitest';
import { deoptimizations, runTraced, turbofanCompiled } from './support/v8-trace';

describe('late branches', () => {
  it('the first deferred contact-pattern rebuild does not deoptimize PatternBook.commit', () => {
    const r = runTraced('./late-branch-probe.ts', ['--allow-natives-syntax', '--trace-deopt']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.lines).toContain('--late-begin');
    expect(r.lines).toContain('--late-end');
    const report = JSON.parse(r.lines.find((l) => l.startsWith('{"optimizedBefore"'))!) as { optimizedBefore: boolean; deferred: number };
    // what the test needs to be able to fail: commit optimized before, rebuilds deferred after
    expect(report.optimizedBefore).toBe(true);
    expect(report.deferred).toBeGreaterThan(0);
    expect(deoptimizations(r.between('--late-begin', '--late-end'), 'commit')).toEqual([]);
  }, 60_000);

  it('the jelly page after world.warmUp: no deoptimization of the stage runner or isolateKeptRows', () => {
    const r = runTraced('./scene-warmup-probe.ts', ['--trace-deopt']);
    expect(r.status, r.stderr).toBe(0);
    const played = r.between('--scene-begin', '--scene-end');
    expect(played.length).toBeGreaterThan(0);
    const deopted = (name: string): string[] => deoptimizations(played, name);
    // the step's stage runner is inlined in Pipeline.step: its first call of user systems after a muted warm-up
    expect(deopted('step')).toEqual([]);
    expect(deopted('run')).toEqual([]);
    expect(deopted('isolateKeptRows')).toEqual([]);
  }, 60_000);

  it('the first factorization with an island held (asleep beside an awake one) does not deoptimize the LDLᵀ kernel', () => {
    const r = runTraced('./held-rows-probe.ts', ['--trace-opt', '--trace-deopt']);
    expect(r.status, r.stderr).toBe(0);
    const begin = r.lines.indexOf('--held-begin');
    expect(begin).toBeGreaterThan(0);
    expect(JSON.parse(r.lines.find((l) => l.startsWith('{"factored"')) ?? 'null')).toEqual({ factored: 200 });
    // what the test needs to be able to fail: the kernel was optimized on whole factorizations first
    expect(r.lines.slice(0, begin).join('\n')).toMatch(turbofanCompiled('factorPairedKernel'));
    expect(deoptimizations(r.between('--held-begin', '--held-end'), 'factorPairedKernel')).toEqual([]);
  }, 60_000);

  it('the next level: a second world with user systems does not deoptimize the stage runner', () => {
    const r = runTraced('./second-world-probe.ts', ['--trace-opt', '--trace-deopt']);
    expect(r.status, r.stderr).toBe(0);
    const begin = r.lines.indexOf('--second-begin');
    expect(begin).toBeGreaterThan(0);
    expect(r.lines).toContain('--second-end');
    // the systems ran: 400 steps of two systems in each world
    expect(JSON.parse(r.lines.find((l) => l.startsWith('{"calls"')) ?? 'null')).toEqual({ calls: 1600 });
    // the runner and the functions it may be inlined in (Pipeline.step; V8 inlines differently when it compiles
    // on the main thread, as here, and in the background: either way one of these was deoptimized before)
    const runner = ['step', 'run', 'runSystems', 'solvedAsSearched', 'responseStage'];
    // what the test needs to be able to fail: the runner was optimized on the first world
    const before = r.lines.slice(0, begin).join('\n');
    for (const f of ['step', 'run']) expect(before).toMatch(turbofanCompiled(f));
    const played = r.between('--second-begin', '--second-end');
    for (const f of runner) expect(deoptimizations(played, f)).toEqual([]);
  }, 60_000);
});
