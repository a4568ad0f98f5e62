/** A progress bar on a terminal (stderr) for long runs; nothing when not on a terminal. */
import cliProgress from 'cli-progress';

export interface Progress {
  tick(step: number): void;
  stop(): void;
}

const NONE: Progress = { tick() {}, stop() {} };

/** A bar for runs of at least `minTotal` steps (rendering runs are slower per step: a lower bar). */
export function createProgress(total: number, quiet: boolean, minTotal = 500): Progress {
  if (quiet || !process.stderr.isTTY || total < minTotal) return NONE;
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: 'steps {bar} {percentage}% | {value}/{total} | eta {eta}s', hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  let last = 0;
  return {
    tick(step: number) {
      // Redraw at most ~200 times per run.
      if (step - last >= total / 200 || step === total) {
        bar.update(step);
        last = step;
      }
    },
    stop() {
      bar.stop();
    },
  };
}
