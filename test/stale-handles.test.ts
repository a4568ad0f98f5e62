/**
 * Stale handles (issue 16): entity ids are bitECS ids and are recycled, so an id kept after its
 * entity was removed can silently name a new entity. The handles a game keeps (SoftBody, Collider)
 * know when they were removed and refuse every later use with an InputError; the world's own
 * entity calls say "no live entity" for a removed id that was not reused yet (docs/design.md,
 * "Stale handles", says why world ids stay plain bitECS ids).
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors';
import { SoftSim } from '../src/game/sim';
import { PhysicsWorld } from '../src/world';

const sim = () => new SoftSim({ pixelsPerMetre: 50, originX: 0, originY: 600 });

describe('stale handles', () => {
  it('a removed body whose particle ids were recycled: its handle refuses every use, the new body is untouched', () => {
    const s = sim();
    const old = s.jelly(300, 300, { width: 60, height: 60, stiffness: 3e4, density: 50 });
    const oldIds = [...old.particles];
    old.destroy();
    const fresh = s.jelly(300, 300, { width: 60, height: 60, stiffness: 3e4, density: 50 });
    expect(fresh.particles.some((e) => oldIds.includes(e))).toBe(true); // the ids were recycled: the hazard is real
    const before = s.world.stateHash();
    const uses: [string, () => unknown][] = [
      ['setVelocity', () => old.setVelocity(100, 0)],
      ['applyImpulse', () => old.applyImpulse(1, 1)],
      ['applyForce', () => old.applyForce(1, 1)],
      ['teleport', () => old.teleport(0, 0)],
      ['pin', () => old.pin(0)],
      ['setStatic', () => old.setStatic(true)],
      ['centroid', () => old.centroid],
      ['velocity', () => old.velocity],
      ['mass', () => old.mass],
    ];
    for (const [call, use] of uses) {
      expect(use, call).toThrow(InputError);
      expect(use, call).toThrow(new RegExp(`SoftBody\\.${call}: this body was removed .*stale`));
    }
    expect(s.world.stateHash()).toBe(before);
    old.destroy(); // removing twice stays harmless
    expect(s.world.stateHash()).toBe(before);
    fresh.setVelocity(10, 0); // the live handle still works
  });

  it('a removed collider handle refuses moves and reads, even when its id now names another collider', () => {
    const s = sim();
    const a = s.circle(100, 100, 20);
    s.removeCollider(a);
    const b = s.circle(400, 100, 20);
    expect(b.id).toBe(a.id); // recycled
    const before = s.world.stateHash();
    expect(() => a.moveTo(0, 0)).toThrow(/Collider\.moveTo: this collider was removed .*stale/);
    expect(() => a.setPosition(0, 0)).toThrow(/Collider\.setPosition: this collider was removed/);
    expect(() => a.x).toThrow(/Collider\.x: this collider was removed/);
    expect(() => { a.rotation = 1; }).toThrow(InputError);
    expect(s.world.stateHash()).toBe(before);
    expect(b.x).toBeCloseTo(400, 9);
  });

  it('the world names a removed id that was not reused yet as no live entity', () => {
    const w = new PhysicsWorld({ gravity: null });
    const a = w.addParticle({ x: 0, y: 0, m: 1 });
    const b = w.addParticle({ x: 1, y: 0, m: 1 });
    w.removeEntity(b);
    expect(() => w.addSpring(a, b, { alpha: 1 })).toThrow(/addSpring: 'b': expected a particle of this world, got \d+ \(no live entity: never created, or removed\)/);
    expect(() => w.removeEntity(b)).toThrow(/removeEntity: 'eid': expected an engine entity of this world, got \d+ \(no live entity/);
  });
});
