/**
 * Reader of the CLI's state file (docs/scene-format.md, "The state file"): per record all positions
 * then all velocities (float64), and with `<collision type="simple">` that step's collision list
 * (int32 count, then 36 bytes per entry: int32 type, first, second, float64 nx, ny, time).
 */
export interface StateRecord {
  x: Float64Array;
  v: Float64Array;
  /** null when the file carries no lists (no simple collision handler). */
  collisions: { type: number; i: number; j: number; n: [number, number]; time: number }[] | null;
}

export function readStateFile(buf: Buffer, particles: number, withCollisions: boolean): StateRecord[] {
  const N = 2 * particles;
  const out: StateRecord[] = [];
  let o = 0;
  while (o < buf.length) {
    if (o + 16 * N > buf.length) throw new Error(`state file: truncated record at byte ${o}`);
    const x = new Float64Array(N), v = new Float64Array(N);
    for (let a = 0; a < N; a++) x[a] = buf.readDoubleLE(o + 8 * a);
    for (let a = 0; a < N; a++) v[a] = buf.readDoubleLE(o + 8 * (N + a));
    o += 16 * N;
    let collisions: StateRecord['collisions'] = null;
    if (withCollisions) {
      const count = buf.readInt32LE(o);
      o += 4;
      collisions = [];
      for (let k = 0; k < count; k++) {
        collisions.push({
          type: buf.readInt32LE(o), i: buf.readInt32LE(o + 4), j: buf.readInt32LE(o + 8),
          n: [buf.readDoubleLE(o + 12), buf.readDoubleLE(o + 20)], time: buf.readDoubleLE(o + 28),
        });
        o += 36;
      }
    }
    out.push({ x, v, collisions });
  }
  return out;
}
