/** The bit-exact tests' state digest: SHA-256 of a world's positions and velocities (their exact bits), 32 hex digits. */
import { createHash } from 'node:crypto';
import type { PhysicsWorld } from '../../src/world';

export function digest(w: PhysicsWorld): string {
  const h = createHash('sha256');
  const p = w.readPositions(), v = w.readVelocities();
  h.update(new Uint8Array(p.buffer, p.byteOffset, p.byteLength));
  h.update(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
  return h.digest('hex').slice(0, 32);
}
