/**
 * SIGINT / SIGTERM / SIGHUP during a run: remember the signal so the run loop stops at its next
 * yield and removes its temporary output (src/cli/output.ts), then exits with 128 + the signal
 * number. JavaScript handlers run only between tasks, so the run loop yields every ~50 ms.
 * (SIGKILL cannot be caught: a killed run can leave its `.name.pid.tmp` file behind.)
 */
import { constants } from 'node:os';
import { CliExit } from './exit';

export interface SignalWatch {
  /** The signal received, or null. */
  readonly signal: NodeJS.Signals | null;
  /** Throw CliExit(`<before> <SIGNAL> <after>`, 128 + n) when a signal was received. */
  stopIfSignalled(before: string, after: string): void;
  /** Remove the handlers. */
  dispose(): void;
}

const WATCHED: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * The `elastica` process itself (bin/elastica.mjs: main(argv, { ownProcess: true })) keeps its
 * handlers until it exits: a signal before a run watches stops the command at once with one line
 * (nothing was written yet), one during a run goes to the run's watch, and one after the run ended
 * is ignored (its outputs are in place, its message printed: the exit code stands). Without this,
 * the default action killed a finished run in the moments between its last check and the exit.
 */
let ownProcess: 'off' | 'open' | 'closed' = 'off';
let current: { signal: NodeJS.Signals | null } | null = null;

function processHandler(s: NodeJS.Signals): void {
  if (current) {
    current.signal ??= s;
    return;
  }
  if (ownProcess !== 'open') return;
  process.stderr.write(`elastica: stopped by ${s}; nothing written\n`);
  process.exit(signalExitCode(s));
}

/** Handle signals process-wide until the process exits (the CLI's own process only); returns `close`: the command is done. */
export function holdProcessSignals(): () => void {
  if (ownProcess === 'off') for (const s of WATCHED) process.on(s, processHandler);
  ownProcess = 'open';
  return () => {
    ownProcess = 'closed';
  };
}

export function watchSignals(): SignalWatch {
  const watch = {
    signal: null as NodeJS.Signals | null,
    stopIfSignalled(before: string, after: string) {
      if (watch.signal !== null) throw new CliExit(`${before} ${watch.signal} ${after}`, signalExitCode(watch.signal));
    },
    dispose() {
      if (ownProcess !== 'off') {
        if (current === watch) current = null;
        ownProcess = 'closed'; // the run is over: a later signal is ignored
        return;
      }
      for (const s of WATCHED) process.off(s, handler);
    },
  };
  const handler = (s: NodeJS.Signals) => {
    watch.signal ??= s;
  };
  if (ownProcess !== 'off') current = watch;
  else for (const s of WATCHED) process.on(s, handler);
  return watch;
}

/** The conventional exit code of a process stopped by `signal`: 128 + its number. */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}

/**
 * Let pending signal handlers run: they run only between tasks, and a signal that arrived during
 * synchronous work (loading, `ffmpeg -version`) reaches its handler in the event loop's second turn,
 * not the first (measured: after one setImmediate the handler had not run, after two it had).
 */
export async function yieldToSignals(): Promise<void> {
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
}
