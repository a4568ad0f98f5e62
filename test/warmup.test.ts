import { describe, expect, it } from 'vitest';
import { PhysicsWorld, warmUpEngine } from '../src/world';
import { COLLIDER_WARMUP_STEPS, CONTACT_WARMUP_STEPS, engineWarmedUp, WARMUP_STEPS } from '../src/warmup';

// Module state is per test file (vitest isolates files), so the first test sees a process that
// has not warmed up yet.
describe('JIT warm-up (src/warmup.ts)', () => {
  function jelly(opts: ConstructorParameters<typeof PhysicsWorld>[0]): PhysicsWorld {
    const w = new PhysicsWorld(opts);
    const ids = [
      w.addParticle({ x: 0, y: 0, m: 1, fixed: true }), w.addParticle({ x: 1, y: 0, m: 1, fixed: true }),
      w.addParticle({ x: 0, y: 1, m: 1 }), w.addParticle({ x: 1, y: 1, m: 1 }),
    ];
    w.addTriangle(ids[0]!, ids[1]!, ids[3]!, { youngsModulus: 1e4, poissonRatio: 0.3 });
    w.addTriangle(ids[0]!, ids[3]!, ids[2]!, { youngsModulus: 1e4, poissonRatio: 0.3 });
    return w;
  }

  /** Two free jellies of 2 triangles each, in contact with a floor and with each other. */
  function contactPair(): PhysicsWorld {
    const w = new PhysicsWorld({});
    w.addHalfplane(0, 0, 0, 1);
    for (const [cx, cy, vx] of [[0, 0.12, 1.5], [0.1, 0.5, 0]] as const) {
      const body = w.createBody();
      const ids = [[-0.1, -0.1], [0.1, -0.1], [-0.1, 0.1], [0.1, 0.1]].map(([dx, dy]) =>
        w.addParticle({ x: cx + dx!, y: cy + dy!, vx, m: 0, radius: 0.02, body }));
      w.addTriangle(ids[0]!, ids[1]!, ids[3]!, { youngsModulus: 2e4, poissonRatio: 0.3, density: 100 });
      w.addTriangle(ids[0]!, ids[3]!, ids[2]!, { youngsModulus: 2e4, poissonRatio: 0.3, density: 100 });
    }
    w.contacts.enabled = true;
    return w;
  }

  /** Two free jellies of 2 triangles each, one resting on a circle collider, one on a segment beside a polygon. */
  function colliderPair(): PhysicsWorld {
    const w = new PhysicsWorld({});
    w.addHalfplane(0, 0, 0, 1);
    w.addCircleCollider(0, 0.2, 0.1);
    w.addSegmentCollider(0.4, 0.3, 0.9, 0.2);
    w.addPolygonCollider([0.8, 0, 1.2, 0, 1, 0.2]);
    for (const [cx, cy] of [[0, 0.45], [0.7, 0.45]] as const) {
      const body = w.createBody();
      const ids = [[-0.1, -0.1], [0.1, -0.1], [-0.1, 0.1], [0.1, 0.1]].map(([dx, dy]) =>
        w.addParticle({ x: cx + dx!, y: cy + dy!, m: 0, radius: 0.02, body }));
      w.addTriangle(ids[0]!, ids[1]!, ids[3]!, { youngsModulus: 2e4, poissonRatio: 0.3, density: 100 });
      w.addTriangle(ids[0]!, ids[3]!, ids[2]!, { youngsModulus: 2e4, poissonRatio: 0.3, density: 100 });
    }
    w.contacts.enabled = true;
    return w;
  }

  it('FOSSSim-semantics worlds do not trigger it; the first game-mode step does, once; results are unchanged', () => {
    const fs = jelly({ integrator: 'implicit-euler', newton: 'fosssim' });
    fs.step();
    expect(engineWarmedUp()).toBe(false);
    // reference: a game-mode world advanced by the step systems directly (pipeline.step() is all that
    // PhysicsWorld.step does besides the warm-up), before any warm-up ran in this process
    const ref = jelly({});
    for (let s = 0; s < 30; s++) ref.pipeline.step();
    // and a contact world (the warm-up steps one too: its scratch must not reach other worlds)
    const refContact = contactPair();
    for (let s = 0; s < 60; s++) refContact.pipeline.step();
    expect(refContact.lastStats.contactTouching).toBeGreaterThan(0);
    // and one with collider shapes (the warm-up's collider world steps those)
    const refColliders = colliderPair();
    for (let s = 0; s < 60; s++) refColliders.pipeline.step();
    expect(refColliders.lastStats.contactTouching).toBeGreaterThan(0);
    expect(engineWarmedUp()).toBe(false);
    const g = jelly({});
    g.step();
    expect(engineWarmedUp()).toBe(true);
    for (let s = 1; s < 30; s++) g.step();
    expect(g.stepCount).toBe(30);
    expect(Array.from(g.readPositions())).toEqual(Array.from(ref.readPositions()));
    expect(Array.from(g.readVelocities())).toEqual(Array.from(ref.readVelocities()));
    const gContact = contactPair();
    for (let s = 0; s < 60; s++) gContact.step();
    expect(Array.from(gContact.readPositions())).toEqual(Array.from(refContact.readPositions()));
    expect(Array.from(gContact.readVelocities())).toEqual(Array.from(refContact.readVelocities()));
    const gColliders = colliderPair();
    for (let s = 0; s < 60; s++) gColliders.step();
    expect(Array.from(gColliders.readPositions())).toEqual(Array.from(refColliders.readPositions()));
    expect(Array.from(gColliders.readVelocities())).toEqual(Array.from(refColliders.readVelocities()));
    warmUpEngine(); // already done: returns at once
    expect(WARMUP_STEPS).toBeGreaterThan(0);
    expect(CONTACT_WARMUP_STEPS).toBeGreaterThan(0);
    expect(COLLIDER_WARMUP_STEPS).toBeGreaterThan(0);
  });

  it('world.time is stepCount × dt', () => {
    const a = jelly({ dt: 0.01 });
    for (let s = 0; s < 7; s++) a.step();
    expect(a.time).toBe(7 * 0.01);
  });
});
