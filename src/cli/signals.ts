/**
 * SIGINT / SIGTERM / SIGHUP during a run: remember the signal so the run loop stops at its next
 * yield and removes its temporary output (src/cli/output.ts), then exits with 128 + the signal
 * number. JavaScript handlers run only between tasks, so the run loop yields every ~50 ms.
 * (SIGKILL cannot be caught: a killed run can leave its `.name.pid.tmp` file behind.)
 */
import { constants } from 'node:os';

export interface SignalWatch {
  /** The signal received, or null. */
  readonly signal: NodeJS.Signals | null;
  /** Remove the handlers. */
  dispose(): void;
}

const WATCHED: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export function watchSignals(): SignalWatch {
  const watch = {
    signal: null as NodeJS.Signals | null,
    dispose() {
      for (const s of WATCHED) process.off(s, handler);
    },
  };
  const handler = (s: NodeJS.Signals) => {
    watch.signal ??= s;
  };
  for (const s of WATCHED) process.on(s, handler);
  return watch;
}

/** The conventional exit code of a process stopped by `signal`: 128 + its number. */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}
