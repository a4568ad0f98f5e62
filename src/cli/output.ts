/**
 * FOSSSim's state format: raw little-endian float64, no header; one record per
 * state, each record all positions (x0, y0, x1, y1, …) then all velocities.
 * With `<collision type="simple">` every record is followed by FOSSSim's collision list of that
 * step (writeCollisions; docs/scene-format.md, "The state file").
 * Written to a temporary file beside the target and renamed at the end, so a
 * failed run never leaves a partial output file.
 */
import { closeSync, openSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { CollisionRecorder } from '../collision/simple';
import { InputError } from '../errors';

/** Bytes of one collision entry: int32 type, first, second; float64 nx, ny, time. */
export const COLLISION_RECORD_BYTES = 36;

export class StateWriter {
  private readonly fd: number;
  private readonly tmp: string;
  private readonly buf: Buffer;
  private cbuf: Buffer = Buffer.alloc(4 + 16 * COLLISION_RECORD_BYTES);
  private done = false;
  readonly path: string;
  readonly particleCount: number;

  constructor(path: string, particleCount: number) {
    this.path = path;
    this.particleCount = particleCount;
    this.tmp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
    try {
      this.fd = openSync(this.tmp, 'w');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code ?? '';
      throw new InputError(`cannot write output file '${path}': ${code === 'ENOENT' ? 'its folder does not exist' : code === 'EACCES' ? 'permission denied' : code || String(e)}`);
    }
    this.buf = Buffer.alloc(32 * particleCount);
  }

  /** FOSSSim's collision list after a record: int32 count, then 36 bytes per collision (time 0). */
  writeCollisions(rec: CollisionRecorder | null): void {
    const count = rec === null ? 0 : rec.count;
    const bytes = 4 + COLLISION_RECORD_BYTES * count;
    if (this.cbuf.length < bytes) this.cbuf = Buffer.alloc(2 * bytes);
    const b = this.cbuf;
    b.writeInt32LE(count, 0);
    for (let k = 0; k < count; k++) {
      const o = 4 + COLLISION_RECORD_BYTES * k;
      b.writeInt32LE(rec!.type[k]!, o);
      b.writeInt32LE(rec!.first[k]!, o + 4);
      b.writeInt32LE(rec!.second[k]!, o + 8);
      b.writeDoubleLE(rec!.n[2 * k]!, o + 12);
      b.writeDoubleLE(rec!.n[2 * k + 1]!, o + 20);
      b.writeDoubleLE(0, o + 28);
    }
    writeSync(this.fd, b, 0, bytes);
  }

  /** Size of the written file (after commit). */
  size(): number {
    return statSync(this.path).size;
  }

  write(x: Float64Array, v: Float64Array): void {
    const n = 2 * this.particleCount;
    for (let i = 0; i < n; i++) this.buf.writeDoubleLE(x[i]!, 8 * i);
    for (let i = 0; i < n; i++) this.buf.writeDoubleLE(v[i]!, 8 * (n + i));
    try {
      writeSync(this.fd, this.buf);
    } catch (e) {
      throw new InputError(`cannot write output file '${this.path}': ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
    }
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
