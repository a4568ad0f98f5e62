/**
 * Errors caused by the user's input (scene files, API arguments, CLI flags).
 * The CLI prints `message` alone (no stack) and exits with code 2.
 * Messages say where (file, tag and its index, attribute) and what was expected.
 */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}

/** Throw an InputError unless `value` is a finite number. */
export function requireFinite(value: number, where: string): number {
  if (!Number.isFinite(value)) throw new InputError(`${where}: expected a finite number, got ${value}`);
  return value;
}

/**
 * A FOSSSim-exact simulation that failed: a step's system was singular, or the state became
 * non-finite (an explicit integrator diverging is physics, not a bug). Thrown by `world.step()`
 * with the world left at its last good state (the start of the failed step); the CLI prints
 * `elastica: <file>: <message>` and exits with code 3, writing no output file.
 */
export class SimulationError extends Error {
  /** The step that failed, counted from 1. */
  readonly step: number;
  /** Simulated time the failed step was to reach (step × dt). */
  readonly time: number;
  /** Why, e.g. 'the state became non-finite' or the solver's message. */
  readonly reason: string;
  /** What failed, when known (e.g. 'particle 3'), else ''. */
  readonly element: string;

  constructor(step: number, time: number, reason: string, element = '', options?: { cause?: unknown }) {
    super(`the simulation failed at step ${step} (t = ${time}): ${reason}${element !== '' ? ` (${element})` : ''}`, options);
    this.name = 'SimulationError';
    this.step = step;
    this.time = time;
    this.reason = reason;
    this.element = element;
  }
}
