/**
 * PhysicsWorld.warmUp (issue 15, "cold start"): a scene runs its own steps at load with user systems
 * muted, then is put back exactly, so the first frames do not compile contact, material and collider
 * code. What must hold: the world afterwards is the world before (snapshot bytes, step counter,
 * StepStats counters) and continues bit for bit as a world never warmed; user systems and listeners
 * never see the warm-up steps; progress goes up to 1; bad options are InputErrors.
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors';
import { PhysicsWorld } from '../src/world';
import { SoftSim } from '../src/game/sim';
import { meshBox, meshCircle } from '../src/mesh';

/** Two jellies (stvk box, neo-Hookean disc) falling onto the ground, a circle collider and each other. */
function scene(): PhysicsWorld {
  const w = new PhysicsWorld({ dt: 1 / 60 });
  w.contacts.enabled = true;
  w.addHalfplane(0, 0, 0, 1);
  w.addCircleCollider(0.9, 0.2, 0.3);
  const bodies: [ReturnType<typeof meshBox>, number, number, 'stvk' | 'neohookean'][] = [
    [meshBox(0.5, 0.5, 4, 4), 0, 0.5, 'stvk'],
    [meshCircle(0.25, 3), 0.1, 1.3, 'neohookean'],
  ];
  for (const [mesh, cx, cy, material] of bodies) {
    const body = w.createBody();
    const ids: number[] = [];
    for (let v = 0; v < mesh.positions.length / 2; v++) {
      ids.push(w.addParticle({ x: cx + mesh.positions[2 * v]!, y: cy + mesh.positions[2 * v + 1]!, m: 0, radius: 0.02, body }));
    }
    for (let t = 0; t < mesh.triangles.length; t += 3) {
      w.addTriangle(ids[mesh.triangles[t]!]!, ids[mesh.triangles[t + 1]!]!, ids[mesh.triangles[t + 2]!]!, {
        youngsModulus: 3e4, poissonRatio: 0.3, density: 40, material,
      });
    }
  }
  return w;
}

describe('PhysicsWorld.warmUp', () => {
  it('puts the world back exactly: same snapshot bytes, step counter and stats counters; the continuation is bit-identical', () => {
    const ref = scene();
    for (let s = 0; s < 5; s++) ref.step();
    const warm = scene();
    for (let s = 0; s < 5; s++) warm.step();
    const before = warm.snapshot();
    const stats = { ...warm.lastStats };
    // onProgress runs between the warm-up's steps: it sees the world as the warm-up moved it
    let touchedDuring = 0;
    const rep = warm.warmUp({ steps: 90, onProgress: () => (touchedDuring = Math.max(touchedDuring, warm.lastStats.contactTouching)) });
    expect(rep.steps).toBe(90);
    expect(rep.ms).toBeGreaterThan(0);
    expect(touchedDuring).toBeGreaterThan(0); // the steps it undid reached contact
    expect(Array.from(warm.snapshot())).toEqual(Array.from(before));
    expect(warm.stepCount).toBe(5);
    for (const k of ['failSafeSteps', 'contactRebuildsTotal', 'topologyBuilds', 'symbolicBuilds', 'paramRefreshes'] as const) {
      expect(warm.lastStats[k]).toBe(stats[k]);
    }
    let touched = 0;
    for (let s = 0; s < 150; s++) {
      ref.step();
      warm.step();
      touched = Math.max(touched, warm.lastStats.contactTouching);
    }
    expect(touched).toBeGreaterThan(0);
    expect(warm.stateHash()).toBe(ref.stateHash());
    expect(Array.from(warm.readPositions())).toEqual(Array.from(ref.readPositions()));
  });

  it('user systems are muted during the warm-up only; progress rises to 1; no contact events are left behind', () => {
    const w = scene();
    let systemCalls = 0;
    w.addSystem('events', () => {
      systemCalls++;
    });
    const fractions: number[] = [];
    w.warmUp({ steps: 80, onProgress: (f) => fractions.push(f) });
    expect(systemCalls).toBe(0);
    expect(fractions.length).toBeGreaterThanOrEqual(80);
    for (let k = 1; k < fractions.length; k++) expect(fractions[k]!).toBeGreaterThan(fractions[k - 1]!);
    expect(fractions[fractions.length - 1]).toBe(1);
    expect(w.contacts.begin.length).toBe(0);
    w.step();
    expect(systemCalls).toBe(1); // muted only during the warm-up
  });

  it('zero steps runs only the engine warm-up; bad options are InputErrors and leave the world as it was', () => {
    const w = scene();
    const before = w.snapshot();
    const fractions: number[] = [];
    expect(w.warmUp({ steps: 0, onProgress: (f) => fractions.push(f) }).steps).toBe(0);
    expect(fractions[fractions.length - 1]).toBe(1);
    for (const steps of [-1, 1.5, Number.NaN, 601]) expect(() => w.warmUp({ steps })).toThrow(InputError);
    expect(() => w.warmUp({ onProgress: 5 as unknown as () => void })).toThrow(/onProgress/);
    expect(Array.from(w.snapshot())).toEqual(Array.from(before));
  });

  it('SoftSim.warmUp: step listeners are not called and the scene continues as an unwarmed one', () => {
    const make = (): SoftSim => {
      const sim = new SoftSim({ pixelsPerMetre: 100, originX: 0, originY: 500 });
      sim.bounds(0, 0, 800, 500);
      sim.jelly(200, 380, { width: 110, height: 80, stiffness: 2e5, density: 20 });
      sim.jelly(230, 250, { radius: 42, stiffness: 6e4, density: 20 });
      return sim;
    };
    const a = make(), b = make();
    let heard = 0;
    b.onStep(() => {
      heard++;
    });
    b.warmUp({ steps: 60 });
    expect(heard).toBe(0);
    for (let s = 0; s < 90; s++) {
      a.world.step();
      b.world.step();
    }
    expect(b.world.stateHash()).toBe(a.world.stateHash());
  });
});
