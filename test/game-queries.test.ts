/**
 * The spatial-hash queries (src/game/queries.ts) give exactly the brute-force answers (queries-brute.ts, the
 * oracle) on seeded random scenes: jellies, a rope, every collider kind (moved and rotated), after some steps;
 * random points, rectangles, radii and rays. Raycast hits the first body along the ray.
 */
import { describe, expect, it } from 'vitest';
import { SoftSim } from '../src/game/sim';
import { Rng } from '../src/math/rng';

function scene(seed: number): { sim: SoftSim; rng: Rng } {
  const rng = new Rng(seed);
  const sim = new SoftSim({ pixelsPerMetre: 100, originX: 0, originY: 600, gravity: [0, 981] });
  sim.bounds(0, 0, 800, 600);
  const r = (a: number, b: number): number => a + (b - a) * rng.next();
  for (let k = 0; k < 6; k++) {
    if (rng.next() < 0.5) sim.jelly(r(80, 720), r(80, 450), { radius: r(20, 45), stiffness: 3e4, density: 40 });
    else sim.jelly(r(80, 720), r(80, 450), { width: r(30, 90), height: r(30, 70), stiffness: 3e4, density: 40 });
  }
  sim.rope([r(100, 300), 60, r(300, 500), 120, r(500, 700), 80], { segments: 10, pinStart: true });
  sim.circle(r(100, 700), r(300, 550), r(10, 40));
  sim.segment(r(50, 300), r(400, 550), r(400, 750), r(400, 550), 0);
  const thick = sim.segment(r(50, 300), r(300, 500), r(400, 750), r(300, 500), 12);
  const poly = sim.polygon([r(300, 350), 500, r(400, 450), 500, r(400, 450), 540, r(300, 350), 560]);
  thick.setVelocity(20, -10, 0.3);
  poly.setVelocity(-15, 0, -0.2);
  return { sim, rng };
}

function sameHit(a: ReturnType<SoftSim['query']['raycast']>, b: ReturnType<SoftSim['query']['raycast']>): void {
  if (a === null || b === null) {
    expect(a === null).toBe(b === null);
    return;
  }
  expect([a.body, a.collider, a.x, a.y, a.normalX, a.normalY, a.fraction]).toEqual([b.body, b.collider, b.x, b.y, b.normalX, b.normalY, b.fraction]);
}

describe('hash queries equal the brute force', () => {
  for (const seed of [1, 7, 42]) {
    it(`seed ${seed}: bodyAt, bodiesIn, particlesNear, raycast on 4 × 300 random queries over 3 states`, () => {
      const { sim, rng } = scene(seed);
      const q = sim.query, bq = q.brute;
      const r = (a: number, b: number): number => a + (b - a) * rng.next();
      let hits = 0, bodyHits = 0, colliderHits = 0, found = 0;
      for (let state = 0; state < 3; state++) {
        for (let s = 0; s < 25; s++) sim.stepOnce();
        const o1: unknown[] = [], o2: unknown[] = [], i1: number[] = [], i2: number[] = [];
        for (let k = 0; k < 300; k++) {
          const x = r(-20, 820), y = r(-20, 620);
          const a = q.bodyAt(x, y);
          expect(a).toBe(bq.bodyAt(x, y));
          if (a) found++;
          const w = r(-200, 200), h = r(-200, 200);
          expect(q.bodiesIn(x, y, w, h, o1 as never)).toEqual(bq.bodiesIn(x, y, w, h, o2 as never));
          const rad = r(0, 60);
          expect(q.particlesNear(x, y, rad, i1)).toBe(bq.particlesNear(x, y, rad, i2));
          expect(i1).toEqual(i2);
          const x1 = r(-50, 850), y1 = r(-50, 650);
          const hh = q.raycast(x, y, x1, y1);
          const hb = bq.raycast(x, y, x1, y1);
          sameHit(hh ? { ...hh } : null, hb);
          if (hh) {
            hits++;
            if (hh.body) bodyHits++;
            else colliderHits++;
          }
        }
      }
      // the random queries exercised every kind of answer
      expect(found).toBeGreaterThan(10);
      expect(bodyHits).toBeGreaterThan(10);
      expect(colliderHits).toBeGreaterThan(50);
      expect(hits).toBe(bodyHits + colliderHits);
    });
  }

  it('raycast hits the first body along the ray (three jellies in a row, from both ends)', () => {
    const sim = new SoftSim({ pixelsPerMetre: 100, originX: 0, originY: 600, gravity: [0, 0] });
    const a = sim.jelly(200, 300, { radius: 30 }), b = sim.jelly(400, 300, { radius: 30 }), c = sim.jelly(600, 300, { radius: 30 });
    expect(sim.query.raycast(0, 300, 800, 300)!.body).toBe(a);
    expect(sim.query.raycast(800, 300, 0, 300)!.body).toBe(c);
    expect(sim.query.raycast(300, 300, 800, 300)!.body).toBe(b);
    const h = sim.query.raycast(300, 300, 800, 300)!;
    expect(h.x).toBeGreaterThan(368);
    expect(h.x).toBeLessThan(372);
    expect(h.normalX).toBeLessThan(-0.9);
  });

  it('a teleport between steps is seen by the next query', () => {
    const sim = new SoftSim({ pixelsPerMetre: 100, originX: 0, originY: 600, gravity: [0, 0] });
    const a = sim.jelly(200, 300, { radius: 30 });
    expect(sim.query.bodyAt(200, 300)).toBe(a);
    a.teleport(500, 300);
    expect(sim.query.bodyAt(200, 300)).toBeNull();
    expect(sim.query.bodyAt(500, 300)).toBe(a);
  });
});
