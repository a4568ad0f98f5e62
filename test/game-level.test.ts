/**
 * The playable gallery game's rules (gallery/pages/jelly-run-level.ts) headless: a scripted input policy,
 * decided per fixed step from the game state, collects coins and reaches the flag; the same script gives a
 * bit-identical final state twice.
 */
import { describe, expect, it } from 'vitest';
import { SoftSim } from '../src/game/sim';
import { JellyRun, LEDGE, LEVEL_HEIGHT } from '../gallery/pages/jelly-run-level';

function newGame(): JellyRun {
  const sim = new SoftSim({ pixelsPerMetre: 100, originX: 0, originY: LEVEL_HEIGHT });
  return new JellyRun(sim);
}

/**
 * The script, decided per step from the game state: steer towards a target x (the ferry's pivot while
 * waiting or riding it, then the far side); jump the second pit.
 */
function policy(g: JellyRun): void {
  const x = g.player.centroid.x, vx = g.player.velocity.x, px = g.platform.x;
  let target: number;
  if (x < 230) target = g.docked === -1 ? px : 150; // wait on the ground until the ferry docks
  else if (x < 500) target = g.docked === 1 ? 560 : px; // ride it until it docks at the far side
  else target = 800;
  const inp = g.input;
  const err = target - x;
  inp.left = inp.right = inp.grab = false;
  if (Math.abs(err) > 8) {
    inp.right = err > 0;
    inp.left = err < 0;
  } else if (Math.abs(vx) > 20) {
    inp.right = vx < 0;
    inp.left = vx > 0;
  }
  inp.jump = x > 530 && x < 600;
}

function play(): { game: JellyRun; state: Float64Array } {
  const g = newGame();
  for (let s = 0; s < 60 * 25 && g.state === 'playing'; s++) {
    policy(g);
    g.sim.stepOnce();
  }
  const pos = g.sim.world.readPositions(), vel = g.sim.world.readVelocities();
  const state = new Float64Array(pos.length + vel.length + 2);
  state.set(pos);
  state.set(vel, pos.length);
  state[state.length - 2] = g.score;
  state[state.length - 1] = g.steps;
  return { game: g, state };
}

describe('Jelly run (the playable gallery level)', () => {
  it('a scripted run collects coins and reaches the flag', () => {
    const { game } = play();
    expect(game.state).toBe('won');
    expect(game.coinsTaken).toBeGreaterThanOrEqual(1);
    expect(game.score).toBe(100 * game.coinsTaken + 500);
  });

  it('the same scripted inputs give a bit-identical state', () => {
    const a = play(), b = play();
    expect(a.game.steps).toBe(b.game.steps);
    expect(Array.from(b.state)).toEqual(Array.from(a.state));
  });

  it('the one-way ledge: jumping from below passes through it, the player lands on it and takes the bonus coin (a sensor)', () => {
    const g = newGame();
    const bonus = g.coins[3]!;
    // roll under the ledge and stop there (steer to x = 150, brake against the velocity)
    for (let s = 0, still = 0; s < 900 && still < 20; s++) {
      const err = 150 - g.player.centroid.x, vx = g.player.velocity.x, inp = g.input;
      inp.left = inp.right = false;
      if (Math.abs(err) > 8) {
        inp.right = err > 0 && vx < 80;
        inp.left = err < 0 && vx > -80;
      } else if (Math.abs(vx) > 10) {
        inp.right = vx < 0;
        inp.left = vx > 0;
      }
      still = Math.abs(err) < 12 && Math.abs(vx) < 15 ? still + 1 : 0;
      g.sim.stepOnce();
    }
    g.input.left = g.input.right = false;
    expect(Math.abs(g.player.centroid.x - 150)).toBeLessThan(20);
    expect(g.player.centroid.y).toBeGreaterThan(LEDGE.y); // under it
    expect(bonus.taken).toBe(false);
    g.input.jump = true;
    g.sim.stepOnce();
    g.input.jump = false;
    for (let k = 0; k < 90; k++) g.sim.stepOnce();
    const box = g.player.boundingBox;
    expect(box.y + box.height).toBeLessThan(LEDGE.y); // resting on top of the ledge
    expect(bonus.taken).toBe(true);
    // the ground coin under the ledge was taken on the way; the far ones were not
    expect(g.coins.map((c) => c.taken)).toEqual([true, false, false, true]);
    expect(g.score).toBe(200);
  });

  it('falling into the first pit loses', () => {
    const g = newGame();
    for (let s = 0; s < 600 && g.state === 'playing'; s++) {
      g.input.right = true; // no waiting for the ferry
      g.sim.stepOnce();
    }
    expect(g.state).toBe('lost');
  });
});
