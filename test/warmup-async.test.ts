/**
 * PhysicsWorld.warmUpAsync (issue 15, "cold start"): the warm-up a loading screen can draw through. What must hold:
 * the event loop runs between its slices (a timer fires before it resolves, during the engine's part and during the
 * scene's); progress rises to 1; the world is never touched, so it may be stepped meanwhile and ends where an unwarmed
 * world stepped the same way ends; the engine's warm-up is done once it resolves (a SoftSim made with engineWarmUp
 * false leaves it to this); bad options reject with InputErrors.
 * Its own file: the engine's warm-up is process-wide, and the first test must find it not run yet.
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors';
import { PhysicsWorld } from '../src/world';
import { engineWarmedUp } from '../src/warmup';
import { SoftSim } from '../src/game/sim';
import { meshBox } from '../src/mesh';

/** A jelly dropped onto the ground beside a circle collider. */
function scene(): PhysicsWorld {
  const w = new PhysicsWorld({ dt: 1 / 60 });
  w.contacts.enabled = true;
  w.addHalfplane(0, 0, 0, 1);
  w.addCircleCollider(0.9, 0.2, 0.3);
  const mesh = meshBox(0.5, 0.5, 4, 4), body = w.createBody(), ids: number[] = [];
  for (let v = 0; v < mesh.positions.length / 2; v++) {
    ids.push(w.addParticle({ x: 0.4 + mesh.positions[2 * v]!, y: 0.6 + mesh.positions[2 * v + 1]!, m: 0, radius: 0.02, body }));
  }
  for (let t = 0; t < mesh.triangles.length; t += 3) {
    w.addTriangle(ids[mesh.triangles[t]!]!, ids[mesh.triangles[t + 1]!]!, ids[mesh.triangles[t + 2]!]!, {
      youngsModulus: 3e4, poissonRatio: 0.3, density: 40, material: 'neohookean',
    });
  }
  return w;
}

describe('PhysicsWorld.warmUpAsync', () => {
  it('yields to the event loop during the engine warm-up and the scene\'s steps; progress rises to 1; the engine is warm after', async () => {
    expect(engineWarmedUp()).toBe(false);
    expect(() => new SoftSim({ engineWarmUp: 'yes' as unknown as boolean })).toThrow(/SoftSim: 'engineWarmUp' must be true or false/);
    new SoftSim({ engineWarmUp: false }); // a game that warms up with warmUpAsync at load
    expect(engineWarmedUp()).toBe(false);
    const w = scene();
    const before = w.snapshot();
    let ticks = 0, ticksInEngine = 0, last = 0;
    const fractions: number[] = [];
    const timer = setInterval(() => {
      ticks++;
      if (last < 0.5) ticksInEngine++;
    }, 0);
    try {
      const report = await w.warmUpAsync({ steps: 60, sliceMs: 2, onProgress: (f) => fractions.push((last = f)) });
      expect(report.steps).toBe(60);
      expect(report.engineMs).toBeGreaterThan(0);
      expect(report.ms).toBeGreaterThanOrEqual(report.engineMs);
    } finally {
      clearInterval(timer);
    }
    expect(engineWarmedUp()).toBe(true);
    expect(ticksInEngine).toBeGreaterThan(0);
    expect(ticks).toBeGreaterThan(ticksInEngine); // the scene's part yielded too
    for (let k = 1; k < fractions.length; k++) expect(fractions[k]!).toBeGreaterThan(fractions[k - 1]!);
    expect(fractions[fractions.length - 1]).toBe(1);
    expect(Array.from(w.snapshot())).toEqual(Array.from(before)); // never touched
  });

  it('the world may be stepped while it runs: it ends where an unwarmed world stepped as often ends', async () => {
    const ref = scene(), w = scene();
    let stepped = 0;
    const stepper = setInterval(() => {
      w.step();
      stepped++;
    }, 0);
    try {
      await w.warmUpAsync({ steps: 90, sliceMs: 1 });
    } finally {
      clearInterval(stepper);
    }
    expect(stepped).toBeGreaterThan(0);
    for (let s = 0; s < stepped; s++) ref.step();
    expect(w.stepCount).toBe(stepped);
    expect(w.stateHash()).toBe(ref.stateHash());
    for (let s = 0; s < 120; s++) {
      ref.step();
      w.step();
    }
    expect(w.stateHash()).toBe(ref.stateHash());
  });

  it('bad options reject with InputErrors and run nothing; zero steps reports 1', async () => {
    const w = scene();
    const before = w.snapshot();
    for (const steps of [-1, 1.5, Number.NaN, 601]) await expect(w.warmUpAsync({ steps })).rejects.toThrow(InputError);
    for (const sliceMs of [0, -1, Number.NaN, 1001, '5' as unknown as number]) {
      await expect(w.warmUpAsync({ sliceMs })).rejects.toThrow(/sliceMs/);
    }
    await expect(w.warmUpAsync({ onProgress: 5 as unknown as () => void })).rejects.toThrow(/warmUpAsync: 'onProgress'/);
    const fractions: number[] = [];
    expect((await w.warmUpAsync({ steps: 0, onProgress: (f) => fractions.push(f) })).steps).toBe(0);
    expect(fractions).toEqual([1]);
    expect(Array.from(w.snapshot())).toEqual(Array.from(before));
  });

  it('SoftSim.warmUpAsync leaves the scene as built: it continues as an unwarmed one', async () => {
    const make = (): SoftSim => {
      const sim = new SoftSim({ pixelsPerMetre: 100, originX: 0, originY: 500 });
      sim.bounds(0, 0, 800, 500);
      sim.jelly(200, 380, { width: 110, height: 80, stiffness: 2e5, density: 20 });
      return sim;
    };
    const a = make(), b = make();
    let heard = 0;
    b.onStep(() => {
      heard++;
    });
    expect((await b.warmUpAsync({ steps: 30 })).steps).toBe(30);
    expect(heard).toBe(0);
    for (let s = 0; s < 60; s++) {
      a.stepOnce();
      b.stepOnce();
    }
    expect(heard).toBe(60);
    expect(b.world.stateHash()).toBe(a.world.stateHash());
  });
});
