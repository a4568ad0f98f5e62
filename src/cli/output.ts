/**
 * FOSSSim's state format: raw little-endian float64, no header; one record per
 * state, each record all positions (x0, y0, x1, y1, …) then all velocities.
 * Written to a temporary file beside the target and renamed at the end, so a
 * failed run never leaves a partial output file.
 */
import { closeSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export class StateWriter {
  private readonly fd: number;
  private readonly tmp: string;
  private readonly buf: Buffer;
  private done = false;

  constructor(readonly path: string, readonly particleCount: number) {
    this.tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
    this.fd = openSync(this.tmp, 'w');
    this.buf = Buffer.alloc(32 * particleCount);
  }

  write(x: Float64Array, v: Float64Array): void {
    const n = 2 * this.particleCount;
    for (let i = 0; i < n; i++) this.buf.writeDoubleLE(x[i]!, 8 * i);
    for (let i = 0; i < n; i++) this.buf.writeDoubleLE(v[i]!, 8 * (n + i));
    writeSync(this.fd, this.buf);
  }

  /** Move the finished file into place. */
  commit(): void {
    closeSync(this.fd);
    renameSync(this.tmp, this.path);
    this.done = true;
  }

  /** Remove the temporary file (after a failure). */
  abort(): void {
    if (this.done) return;
    try {
      closeSync(this.fd);
    } catch {
      /* already closed */
    }
    try {
      unlinkSync(this.tmp);
    } catch {
      /* nothing to remove */
    }
    this.done = true;
  }
}
