/**
 * Recording and replay in the game layer (SoftSim.record / stopRecording / replay / replayStatus):
 * a session with a pointer drag, an impulse and a persistent force through the game API is recorded,
 * verifies headless (a bare PhysicsWorld with no systems), and plays back in a SoftSim verified at
 * 30, 60 and 144 Hz render rates with the same final state hash.
 */
import { describe, expect, it } from 'vitest';
import { SoftSim } from '../src/game/sim';
import { replay } from '../src/replay';

function game(): SoftSim {
  const sim = new SoftSim({ pixelsPerMetre: 100, originX: 0, originY: 500 });
  sim.bounds(0, 0, 800, 500);
  sim.circle(400, 450, 40);
  return sim;
}

/** A play session at 60 Hz frames: drag a jelly, kick another, push a third steadily. */
function play(sim: SoftSim): void {
  const a = sim.jelly(200, 200, { width: 100, height: 80, stiffness: 5e4, density: 20 });
  const b = sim.jelly(500, 150, { radius: 40, stiffness: 4e4, density: 20 });
  sim.jelly(650, 300, { width: 60, height: 60, stiffness: 5e4, density: 20 });
  sim.record({ hashEvery: 1, snapshotEvery: 30 });
  for (let f = 0; f < 90; f++) {
    if (f === 10) sim.pointerDown(200, 200);
    if (f > 10 && f < 40) sim.pointerMove(200 + 4 * (f - 10), 200 - 2 * (f - 10));
    if (f === 40) sim.pointerUp();
    if (f === 20) b.applyImpulse(-3, -2);
    if (f === 30) a.applyForce(5, 0, true);
    sim.frame(1000 / 60);
  }
}

describe('game-layer replay', () => {
  it('a recorded game session verifies headless and plays back verified at 30, 60 and 144 Hz', () => {
    const sim = game();
    play(sim);
    const bytes = sim.stopRecording();
    const finalHash = sim.world.stateHash();
    const steps = sim.world.stepCount;
    expect(steps).toBeGreaterThan(80);
    // headless: a bare world, no game systems, every hash equal
    const headless = replay(bytes);
    expect(headless.ok).toBe(true);
    expect(headless.hashesCompared).toBe(headless.steps);
    // in the game, at three render rates: same fixed steps, same hashes
    for (const hz of [30, 60, 144]) {
      const other = game();
      play(other); // the same scene (its own recording is discarded)
      other.stopRecording();
      other.replay(bytes);
      let frames = 0;
      while (other.replayStatus!.playing && frames++ < 2000) other.frame(1000 / hz);
      const st = other.replayStatus!;
      expect(st.playing, `${hz} Hz`).toBe(false);
      expect(st.verified, `${hz} Hz`).toBe(true);
      expect(st.compared, `${hz} Hz`).toBe(headless.steps);
      // the replay ended on the recorded last step; the world then holds the recording's final state
      expect(other.world.stateHash(), `${hz} Hz`).toBe(finalHash);
    }
  });

  it('a replay that does not match the game is reported at its first diverging step', () => {
    const sim = game();
    play(sim);
    const bytes = sim.stopRecording();
    const other = game();
    play(other);
    other.stopRecording();
    other.replay(bytes);
    other.world.addSystem('forces', (ctx) => {
      if (ctx.stepCount > sim.world.stepCount - 50) ctx.v[0] = ctx.v[0]! + 1e-9;
    }, { before: true });
    while (other.replayStatus!.playing) other.frame(1000 / 60);
    expect(other.replayStatus!.verified).toBe(false);
    expect(other.replayStatus!.mismatchStep).toBeGreaterThan(0);
  });
});
