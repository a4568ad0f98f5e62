/**
 * A failure the CLI reports in one line with its own exit code (src/cli/main.ts prints
 * `elastica: <message>` and exits with `code`): a failed simulation (3), a signal (128 + n).
 */
export class CliExit extends Error {
  readonly code: number;
  constructor(message: string, code: number) {
    super(message);
    this.code = code;
  }
}
