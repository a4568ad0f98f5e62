/**
 * Run a probe (a TypeScript file under test/support) in a child Node process with V8 flags and read its stdout,
 * where V8 writes its traces (--trace-deopt, --trace-opt): test/restore-deopt.test.ts, test/late-branches.test.ts.
 *
 * The child compiles on its main thread (--no-concurrent-recompilation): V8 then optimizes a function at the
 * call where it is marked, whatever the load on the machine. With its default background compiler, a loaded CI
 * machine finished a compile after the probe's marker, and a test's "optimized before" precondition failed.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Traced {
  status: number | null;
  stderr: string;
  lines: string[];
  /** The lines strictly between the probe's marker lines `begin` and `end` (empty if either is missing). */
  between(begin: string, end: string): string[];
}

export function runTraced(probe: string, v8Flags: string[]): Traced {
  const r = spawnSync(process.execPath, ['--no-concurrent-recompilation', ...v8Flags, '--import', 'tsx', fileURLToPath(new URL(probe, import.meta.url))], {
    cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20,
  });
  const lines = r.stdout.split('\n');
  return {
    status: r.status, stderr: r.stderr, lines,
    between: (begin, end) => {
      const b = lines.indexOf(begin), e = lines.indexOf(end);
      return b >= 0 && e > b ? lines.slice(b + 1, e) : [];
    },
  };
}

/** Matches V8's --trace-opt line for a finished TurboFan compile of a function named `name`. */
export function turbofanCompiled(name: string): RegExp {
  return new RegExp(`completed compiling .*<JSFunction ${name} .*target TURBOFAN`);
}

/** The lines of V8's --trace-deopt output among `lines` that deoptimize a function named `name`. */
export function deoptimizations(lines: string[], name: string): string[] {
  return lines.filter((l) => l.includes('deoptimizing') && l.includes(`<JSFunction ${name} `));
}
