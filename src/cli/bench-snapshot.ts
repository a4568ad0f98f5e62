/**
 * Snapshot figures for the bench rows (issue: rollback netcode): bytes of world.snapshot(), the
 * median time of snapshot() and of restore(), and a rollback — restore, then 8 steps — as a game
 * resimulating after a late input would do it (target: inside a 16 ms frame at 1k triangles).
 * The world is stepped on from where it was; a restore puts it back each time.
 */
import { performance } from 'node:perf_hooks';
import type { PhysicsWorld } from '../world';

export interface SnapshotFigures {
  snapshotBytes: number;
  snapshotMs: number;
  restoreMs: number;
  /** restore + ROLLBACK_STEPS steps (ms, median). */
  rollbackMs: number;
}

export const ROLLBACK_STEPS = 8;

function median(a: number[]): number {
  const s = a.slice().sort((x, y) => x - y);
  return s.length === 0 ? 0 : s[Math.floor(s.length / 2)]!;
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

export function measureSnapshot(world: PhysicsWorld, reps = 9): SnapshotFigures {
  const snapT: number[] = [], restT: number[] = [], rollT: number[] = [];
  let bytes = world.snapshot();
  for (let r = 0; r < reps; r++) {
    const t0 = performance.now();
    bytes = world.snapshot();
    snapT.push(performance.now() - t0);
    const t1 = performance.now();
    world.restore(bytes);
    restT.push(performance.now() - t1);
    const t2 = performance.now();
    world.restore(bytes);
    for (let s = 0; s < ROLLBACK_STEPS; s++) world.step();
    rollT.push(performance.now() - t2);
    world.restore(bytes);
  }
  return { snapshotBytes: bytes.length, snapshotMs: round(median(snapT)), restoreMs: round(median(restT)), rollbackMs: round(median(rollT)) };
}
