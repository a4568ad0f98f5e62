/**
 * Helpers for a game's own deterministic tests (framework-agnostic: they return results or throw
 * an Error with a message, so `expect(...)` of any test runner works). docs/replay.md shows them
 * with Vitest.
 */
import { InputError } from './errors';
import { readReplay, replay, type ReplayResult } from './replay';
import type { PhysicsWorld } from './world';

export interface TwiceResult {
  /** Both runs ended in the same state, and every step's state hash was equal. */
  equal: boolean;
  /** The first step (0-based) after which the hashes differed, or −1. */
  firstDifference: number;
  hashes: [string, string];
}

/**
 * Build a world twice with `setup`, step both `steps` times (`drive(world, step)` before each step:
 * the scripted inputs) and compare their state hashes after every step.
 */
export function simulateTwiceAndCompare(
  setup: () => PhysicsWorld, steps: number, drive?: (world: PhysicsWorld, step: number) => void,
): TwiceResult {
  if (!Number.isInteger(steps) || steps < 0) throw new InputError(`simulateTwiceAndCompare: 'steps': expected an integer >= 0, got ${steps}`);
  const a = setup(), b = setup();
  for (let s = 0; s < steps; s++) {
    drive?.(a, s);
    drive?.(b, s);
    a.step();
    b.step();
    const ha = a.stateHash(), hb = b.stateHash();
    if (ha !== hb) return { equal: false, firstDifference: s, hashes: [ha, hb] };
  }
  return { equal: true, firstDifference: -1, hashes: [a.stateHash(), b.stateHash()] };
}

/**
 * Re-simulate replay bytes (a file a game recorded with `Recorder`) and throw, naming the first
 * diverging step, unless every recorded hash matches. `systems` installs the game's own systems
 * first (those that change the state inside a step). Returns the result when it matches.
 */
export function expectReplayMatches(bytes: Uint8Array, systems?: (world: PhysicsWorld) => void): ReplayResult {
  const result = replay(readReplay(bytes), systems ? { systems } : {});
  if (!result.ok) {
    const m = result.mismatch!;
    throw new Error(`replay diverged after step ${m.step}: expected state hash ${m.expected}, got ${m.actual} (${JSON.stringify(m.parts)})`);
  }
  return result;
}
