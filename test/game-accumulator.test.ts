import { InputError } from '../src/errors';
import { describe, expect, it } from 'vitest';
import { FixedStepAccumulator, lerpStates } from '../src/game/accumulator';

/** Deterministic dummy integrator: damped spring, semi-implicit Euler. */
class Dummy {
  x = 1;
  v = 0;
  steps = 0;
  step(dt: number): void {
    const a = -40 * this.x - 0.5 * this.v;
    this.v += a * dt;
    this.x += this.v * dt;
    this.steps++;
  }
}

function run(hz: number, seconds: number, dt = 1 / 60): { d: Dummy; acc: FixedStepAccumulator } {
  const acc = new FixedStepAccumulator({ dt, maxStepsPerFrame: 8 });
  const d = new Dummy();
  const frames = Math.round(hz * seconds);
  for (let f = 0; f < frames; f++) {
    const n = acc.advance(1000 / hz);
    for (let i = 0; i < n; i++) d.step(acc.dt);
  }
  return { d, acc };
}

describe('FixedStepAccumulator', () => {
  it('gives the same number of steps and the same state at 30, 60 and 144 Hz', () => {
    const seconds = 10;
    const ref = run(60, seconds);
    expect(ref.d.steps).toBe(600);
    for (const hz of [30, 60, 144, 75, 240]) {
      const r = run(hz, seconds);
      expect(r.d.steps, `${hz} Hz`).toBe(600);
      // Bit-identical: the integrator ran the same steps with the same dt.
      expect(r.d.x, `${hz} Hz`).toBe(ref.d.x);
      expect(r.d.v, `${hz} Hz`).toBe(ref.d.v);
    }
  });

  it('is independent of irregular frame splitting', () => {
    const acc = new FixedStepAccumulator({ dt: 1 / 60, maxStepsPerFrame: 100 });
    // Pseudo-random but deterministic deltas summing to exactly 2000 ms (last one fills up).
    let seed = 12345;
    let total = 0;
    let steps = 0;
    while (total < 2000) {
      seed = (seed * 1103515245 + 12345) >>> 0;
      const d = Math.min(2000 - total, 1 + (seed % 4000) / 100);
      total += d;
      steps += acc.advance(d);
    }
    expect(steps).toBe(120);
  });

  it('caps steps per frame and drops the leftover whole steps', () => {
    const acc = new FixedStepAccumulator({ dt: 1 / 60, maxStepsPerFrame: 4 });
    expect(acc.advance(1000)).toBe(4); // 60 steps due, 4 granted
    expect(acc.droppedMs).toBeCloseTo((56 * 1000) / 60, 9);
    // Afterwards it runs normally again, with no backlog.
    expect(acc.advance(1000 / 60)).toBe(1);
    expect(acc.advance(1000 / 120)).toBe(0);
    expect(acc.advance(1000 / 120)).toBe(1);
  });

  it('reports alpha as the fraction of a step left over', () => {
    const acc = new FixedStepAccumulator({ dt: 0.02 });
    expect(acc.advance(10)).toBe(0);
    expect(acc.alpha).toBeCloseTo(0.5, 12);
    expect(acc.advance(15)).toBe(1);
    expect(acc.alpha).toBeCloseTo(0.25, 12);
    expect(acc.advance(-5)).toBe(0);
    expect(acc.advance(Number.NaN)).toBe(0);
    expect(acc.alpha).toBeGreaterThanOrEqual(0);
    expect(acc.alpha).toBeLessThan(1);
    acc.reset();
    expect(acc.alpha).toBe(0);
    expect(acc.totalSteps).toBe(0);
  });

  it('rejects bad options', () => {
    expect(() => new FixedStepAccumulator({ dt: 0 })).toThrow(InputError);
    expect(() => new FixedStepAccumulator({ maxStepsPerFrame: 0 })).toThrow(InputError);
  });

  it('lerpStates interpolates in place', () => {
    const out = new Float64Array(2);
    lerpStates([0, 10], [2, 20], 0.25, out);
    expect(Array.from(out)).toEqual([0.5, 12.5]);
  });
});
