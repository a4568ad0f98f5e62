/**
 * Fixed-timestep accumulator ("fix your timestep").
 *
 * The render loop calls `advance(frameDeltaMs)` once per frame; it returns how
 * many fixed physics steps to run now. The number of steps granted so far is
 * floor(totalElapsed / dt) minus dropped steps, computed from the compensated
 * total (with a 1 us tolerance), so it depends only on the total elapsed time,
 * never on how it was split into frames: 1 s given as 30 frames of 33.33.. ms or
 * 144 frames of 6.94.. ms grants exactly 60 steps at dt = 1/60 (as long as no
 * frame hits the cap).
 *
 * When a frame brings more time than `maxStepsPerFrame` steps can absorb (tab
 * in background, debugger pause) the whole steps beyond the cap are dropped
 * rather than carried forward, which avoids the "spiral of death"; the sub-step
 * remainder is kept. `droppedMs` counts what was lost.
 *
 * `alpha` in [0, 1) is the fraction of a step still in the accumulator after
 * `advance`; render `lerp(previous, current, alpha)` for smooth motion.
 */
import { InputError } from '../errors';
export interface AccumulatorOptions {
  /** Fixed step in seconds (default 1/60). */
  dt?: number;
  /** Cap on steps per `advance` call (default 5). */
  maxStepsPerFrame?: number;
}

/**
 * Tolerance in milliseconds when comparing accumulated time with a step
 * boundary. Frame deltas such as 1000/144 are not exact in binary floating
 * point; without a tolerance 144 such frames may sum to 999.9999999 ms and
 * grant one step fewer than 60 frames of 1000/60 ms. 1 microsecond is far below
 * any real frame-time jitter.
 */
const EPS_MS = 1e-3;

export class FixedStepAccumulator {
  readonly dt: number;
  readonly maxStepsPerFrame: number;
  private readonly dtMs: number;
  /** Total time fed in (ms), summed with Kahan compensation so it does not depend on how it was split. */
  private elapsedMs = 0;
  private elapsedComp = 0;
  /** Time dropped because of the per-frame cap, counted in whole steps (keeps the step grid). */
  private droppedSteps = 0;
  /** Total steps granted since creation/reset. */
  totalSteps = 0;

  constructor(opts: AccumulatorOptions = {}) {
    const dt = opts.dt ?? 1 / 60;
    if (!(dt > 0) || !Number.isFinite(dt)) throw new InputError(`dt must be a positive finite number, got ${dt}`);
    const max = opts.maxStepsPerFrame ?? 5;
    if (!Number.isInteger(max) || max < 1) throw new InputError(`maxStepsPerFrame must be an integer >= 1, got ${max}`);
    this.dt = dt;
    this.maxStepsPerFrame = max;
    this.dtMs = dt * 1000;
  }

  /** Milliseconds dropped so far because of the per-frame cap. */
  get droppedMs(): number {
    return this.droppedSteps * this.dtMs;
  }

  /**
   * Adds one frame's elapsed time (milliseconds, as Phaser's `update(time, delta)`
   * gives it) and returns the number of fixed steps to run now (0..maxStepsPerFrame).
   * Negative, NaN or infinite deltas count as 0.
   */
  advance(frameDeltaMs: number): number {
    if (!(frameDeltaMs > 0) || !Number.isFinite(frameDeltaMs)) return 0;
    // Kahan summation of the total elapsed time.
    const y = frameDeltaMs - this.elapsedComp;
    const t = this.elapsedMs + y;
    this.elapsedComp = t - this.elapsedMs - y;
    this.elapsedMs = t;

    const due = Math.floor((this.elapsedMs + EPS_MS) / this.dtMs) - this.droppedSteps - this.totalSteps;
    if (due <= 0) return 0;
    const n = due > this.maxStepsPerFrame ? this.maxStepsPerFrame : due;
    this.droppedSteps += due - n;
    this.totalSteps += n;
    return n;
  }

  /** Interpolation factor in [0, 1): fraction of a step accumulated but not yet simulated. */
  get alpha(): number {
    const rest = this.elapsedMs - (this.totalSteps + this.droppedSteps) * this.dtMs;
    const a = rest / this.dtMs;
    return a <= 0 ? 0 : a >= 1 ? 1 - 1e-9 : a;
  }

  /** Forget accumulated time and counters. */
  reset(): void {
    this.elapsedMs = 0;
    this.elapsedComp = 0;
    this.droppedSteps = 0;
    this.totalSteps = 0;
  }
}

/**
 * Linear interpolation of two equally long state arrays into `out` (no allocation):
 * out[i] = prev[i] + (curr[i] - prev[i]) * alpha.
 */
export function lerpStates(prev: ArrayLike<number>, curr: ArrayLike<number>, alpha: number, out: Float64Array | Float32Array | number[]): void {
  const n = Math.min(prev.length, curr.length, out.length);
  for (let i = 0; i < n; i++) out[i] = prev[i]! + (curr[i]! - prev[i]!) * alpha;
}
