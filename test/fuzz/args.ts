/** Command-line helpers shared by the fuzzer's commands (main.ts, cli-run.ts). */

/** `--name`'s text as a whole number >= 0, or an Error naming the flag. */
export function wholeArg(name: string, text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--${name}: expected a whole number >= 0, got "${text}"`);
  return n;
}
