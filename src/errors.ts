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
