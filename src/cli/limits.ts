/**
 * What a CLI run may cost before it starts (issue 16): the step count and the output size are
 * known from the scene, so a run that would take millions of steps or fill the disk is refused
 * up front with the reason and the flag that allows it, instead of running for hours.
 *
 *   steps  > RUN_LIMITS.maxSteps             needs --steps N (an explicit count) or --force
 *   output > RUN_LIMITS.maxOutputBytes       needs --force
 *   output > the free space of its directory needs --force
 */
import { statfsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InputError } from '../errors';

export const RUN_LIMITS = {
  /** Steps of a run taken from the scene's duration (FOSSSim's bundled scenes need at most 50 000). */
  maxSteps: 1_000_000,
  /** Bytes of one output file (1 GiB). */
  maxOutputBytes: 1024 ** 3,
} as const;

/** Output bytes of a run: (steps + 1) records of 4 float64 per particle. */
export function outputBytes(steps: number, particles: number): number {
  return (steps + 1) * particles * 32;
}

export interface RunPlan {
  scene: string;
  steps: number;
  /** The steps came from --steps (the user chose them). */
  stepsGiven: boolean;
  particles: number;
  out?: string;
  force: boolean;
}

/** Throw an InputError saying why, when the planned run is over a limit and not forced. */
export function checkRunLimits(p: RunPlan): void {
  if (p.force) return;
  if (!p.stepsGiven && p.steps > RUN_LIMITS.maxSteps) {
    throw new InputError(
      `${p.scene}: the scene's duration means ${p.steps} steps, more than the limit of ${RUN_LIMITS.maxSteps}; ` +
        'run it with --steps N to choose the count, or --force to run them all',
    );
  }
  if (p.out === undefined) return;
  const bytes = outputBytes(p.steps, p.particles);
  if (bytes > RUN_LIMITS.maxOutputBytes) {
    throw new InputError(
      `${p.out}: the run would write ${mib(bytes)} (${p.steps + 1} records of ${p.particles} particles), more than ` +
        `the limit of ${mib(RUN_LIMITS.maxOutputBytes)}; use --steps N for fewer steps, or --force`,
    );
  }
  const free = freeBytes(dirname(resolve(p.out)));
  if (free !== null && bytes > free) {
    throw new InputError(
      `${p.out}: the run would write ${mib(bytes)} but its disk has only ${mib(free)} free; use --steps N for fewer steps, or --force`,
    );
  }
}

function mib(bytes: number): string {
  return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
}

/** Free bytes for an unprivileged writer on the file system of `dir`, or null when unknown. */
function freeBytes(dir: string): number | null {
  try {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  } catch {
    return null; // a missing directory is reported when the file is opened
  }
}
