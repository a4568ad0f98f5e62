/**
 * The CI slice of the fuzzer (issue 16, item 7; test/fuzz/): a fixed seed, mutated bundled scenes
 * well-formed PhysicsWorld call sequences (with sleeping, filters, snapshots and warmUp, whose
 * invariants the sequences check) and hostile ones with issue 16's known misuses, each case
 * on a worker thread with a time limit.
 * Fails on any exception other than InputError / SimulationError, any hang and any silent NaN,
 * listing each with the command that replays it. About 30 s on a quiet machine.
 */
import { describe, expect, it } from 'vitest';
import { DEFECTS, runCase, sceneCase, type FuzzOptions } from './fuzz/case';
import { runCases } from './fuzz/pool';
import { MISUSES } from './fuzz/api';
import { PhysicsWorld } from '../src/world';

const SCENES: FuzzOptions = { seed: 20261124, maxSteps: 100, kinds: 'scene', api: 'valid' };
const API: FuzzOptions = { seed: 20261124, maxSteps: 60, kinds: 'api', api: 'valid' };
const HOSTILE: FuzzOptions = { seed: 20261124, maxSteps: 60, kinds: 'api', api: 'hostile' };

function defects(outcomes: Awaited<ReturnType<typeof runCases>>, o: FuzzOptions): string[] {
  return outcomes
    .filter((r) => DEFECTS.includes(r.kind))
    .map((r) => `${r.kind} #${r.index} ${r.source}: ${r.message} (npm run fuzz -- --seed ${o.seed} --kinds ${o.kinds} --case ${r.index})`);
}

describe('fuzz CI slice', () => {
  it('1200 mutated scenes: only clean outcomes', async () => {
    const out = await runCases(SCENES, 0, 1200, { workers: 2, timeoutMs: 10_000 });
    expect(defects(out, SCENES)).toEqual([]);
    // the mutations reach every outcome the loader and the engine give (the slice is not all rejections)
    const kinds = new Set(out.map((r) => r.kind));
    expect(kinds.has('input-error') && kinds.has('ok')).toBe(true);
  }, 60_000);

  it('200 well-formed API call sequences: only clean outcomes', async () => {
    const out = await runCases(API, 0, 200, { workers: 2, timeoutMs: 10_000 });
    expect(defects(out, API)).toEqual([]);
    expect(out.filter((r) => r.kind === 'ok').length).toBeGreaterThan(100);
  }, 60_000);

  it('200 hostile API call sequences with the known misuses: each refused with an InputError that changes nothing', async () => {
    const out = await runCases(HOSTILE, 0, 200, { workers: 2, timeoutMs: 10_000 });
    expect(defects(out, HOSTILE)).toEqual([]);
    expect(out.filter((r) => r.kind === 'ok').length).toBeGreaterThan(150); // refusals do not end a sequence
  }, 60_000);

  it('the hostile mode catches a misuse the API accepts again (a regression of the validation)', () => {
    const w = MISUSES.find(([name]) => name === 'addDrag(-10)');
    expect(w).toBeDefined();
    // every case below makes at least one misuse; replaying one with addDrag's check removed must fail
    const proto = PhysicsWorld.prototype as unknown as { addDrag: (b: number) => number };
    const saved = proto.addDrag;
    proto.addDrag = function (this: PhysicsWorld) {
      return this.addConstantForce(0, 0); // accepts anything, as before issue 16
    };
    try {
      const outcomes = Array.from({ length: 200 }, (_, i) => runCase(HOSTILE, i));
      expect(outcomes.some((o) => o.kind === 'exception' && /misuse 'addDrag\(-10\)' was accepted/.test(o.message))).toBe(true);
    } finally {
      proto.addDrag = saved;
    }
  }, 60_000);

  it('cases are functions of (seed, index): the same text and outcome twice', () => {
    expect(sceneCase(SCENES.seed, 17)).toEqual(sceneCase(SCENES.seed, 17));
    const a = runCase(SCENES, 17), b = runCase(SCENES, 17);
    expect([a.kind, a.message, a.source]).toEqual([b.kind, b.message, b.source]);
    expect(sceneCase(SCENES.seed, 17).text).not.toBe(sceneCase(SCENES.seed, 18).text);
  });
});
