/**
 * The game API (issue 12, round 1), headless through SoftSim (pixels, y down) and the engine's
 * BodyControl (SI): body control, contact events, kinematic colliders, queries, attachments, and
 * bit-identical replays of scripted inputs.
 */
import { describe, expect, it } from 'vitest';
import { SoftSim, type SoftContact } from '../src/game/sim';
import { PhysicsWorld } from '../src/world';
import { BodyControl } from '../src/systems/bodies';

const PPM = 100;

function world(gravity: [number, number] = [0, 981]): SoftSim {
  return new SoftSim({ pixelsPerMetre: PPM, originX: 0, originY: 600, gravity });
}

function steps(sim: SoftSim, n: number): void {
  for (let i = 0; i < n; i++) sim.stepOnce();
}

describe('body control', () => {
  it('an impulse changes the momentum by exactly the impulse (and a step without gravity keeps it)', () => {
    const sim = world([0, 0]);
    const b = sim.jelly(300, 300, { width: 80, height: 60, stiffness: 3e4, density: 50 });
    steps(sim, 1);
    const p0 = b.momentum;
    b.applyImpulse(12, -7);
    const p1 = b.momentum;
    expect(p1.x - p0.x).toBeCloseTo(12, 10);
    expect(p1.y - p0.y).toBeCloseTo(-7, 10);
    steps(sim, 5);
    const p2 = b.momentum;
    expect(p2.x).toBeCloseTo(p1.x, 6);
    expect(p2.y).toBeCloseTo(p1.y, 6);
    expect(b.centroid.x).toBeGreaterThan(300);
  });

  it('an off-centre impulse also spins the body by (at − c) × J', () => {
    const sim = world([0, 0]);
    const b = sim.jelly(300, 300, { width: 80, height: 80, stiffness: 3e4, density: 50 });
    steps(sim, 1);
    const c = b.centerOfMass;
    b.applyImpulse(10, 0, { x: c.x, y: c.y - 40 }); // push the top to the right: clockwise on screen
    expect(b.angularVelocity).toBeGreaterThan(0);
    const m0 = b.momentum;
    expect(m0.x).toBeCloseTo(10, 9);
    // engine: angular momentum about the centre changed by r × J (SI)
    const w = new PhysicsWorld({ gravity: null });
    const ids = [w.addParticle({ x: -1, y: 0, m: 1 }), w.addParticle({ x: 1, y: 0, m: 1 }), w.addParticle({ x: 0, y: 1, m: 2 })];
    const ctl = new BodyControl(w, ids, [-1, 0, 1, 0, 0, 1]);
    ctl.applyImpulse(0, 3, 1, 0.5);
    const P = w.c.Particle;
    let L = 0, cx = 0, cy = 0;
    for (const e of ids) {
      cx += (P.x[e]! * (e === ids[2] ? 2 : 1)) / 4;
      cy += (P.y[e]! * (e === ids[2] ? 2 : 1)) / 4;
    }
    for (const e of ids) L += (e === ids[2] ? 2 : 1) * ((P.x[e]! - cx) * P.vy[e]! - (P.y[e]! - cy) * P.vx[e]!);
    expect(L).toBeCloseTo((1 - cx) * 3, 12);
  });

  it('applyForce for one step equals the impulse h F; a persistent force keeps accelerating', () => {
    const a = world([0, 0]), b = world([0, 0]);
    const ja = a.jelly(300, 300, { radius: 30, stiffness: 3e4, density: 50 });
    const jb = b.jelly(300, 300, { radius: 30, stiffness: 3e4, density: 50 });
    ja.applyForce(600, 0);
    jb.applyImpulse(600 / 60, 0);
    steps(a, 3);
    steps(b, 3);
    expect(Array.from(a.world.readPositions())).toEqual(Array.from(b.world.readPositions()));
    ja.applyForce(60, 0, true);
    const v0 = ja.velocity.x;
    steps(a, 60);
    // Δv = F t / m over one second
    expect(ja.velocity.x - v0).toBeCloseTo(60 / ja.mass, 4);
    ja.clearForces();
    const v1 = ja.velocity.x;
    steps(a, 10);
    expect(ja.velocity.x).toBeCloseTo(v1, 6);
  });

  it('setVelocity sets the centre-of-mass velocity, setAngularVelocity the rigid spin; angle follows', () => {
    const sim = world([0, 0]);
    const b = sim.jelly(300, 300, { width: 100, height: 40, stiffness: 1e5, density: 50 });
    steps(sim, 1);
    b.setVelocity(50, -20);
    expect(b.velocity.x).toBeCloseTo(50, 9);
    expect(b.velocity.y).toBeCloseTo(-20, 9);
    b.setVelocity(0, 0).setAngularVelocity(Math.PI / 2);
    expect(b.angularVelocity).toBeCloseTo(Math.PI / 2, 9);
    expect(Math.abs(b.angle)).toBeLessThan(1e-9);
    steps(sim, 30); // half a second at π/2 rad/s, clockwise on screen
    expect(b.angle).toBeGreaterThan(0.6);
    expect(b.angle).toBeLessThan(0.85);
  });

  it('teleport moves the centre of mass and keeps the shape', () => {
    const sim = world([0, 0]);
    const b = sim.jelly(300, 300, { radius: 30, stiffness: 3e4, density: 50 });
    const bb = b.boundingBox;
    b.teleport(500, 100);
    expect(b.centerOfMass.x).toBeCloseTo(500, 9);
    expect(b.centerOfMass.y).toBeCloseTo(100, 9);
    expect(b.boundingBox.width).toBeCloseTo(bb.width, 9);
    // no interpolation streak: the render positions are at the new place
    expect(sim.renderPositions[0]).toBeCloseTo(sim.world.c.Particle.x[b.particles[0]!]!, 12);
  });

  it('a static body does not move and another rests on it; setStatic(false) lets it fall', () => {
    const sim = world();
    sim.bounds(0, 0, 800, 600);
    const floor = sim.jelly(400, 300, { width: 300, height: 40, stiffness: 1e5, density: 50 }).setStatic(true);
    const top = sim.jelly(400, 220, { width: 60, height: 60, stiffness: 5e4, density: 50 });
    const before = sim.world.readPositions().slice(0, 2 * floor.particles.length);
    steps(sim, 90);
    const after = sim.world.readPositions().slice(0, 2 * floor.particles.length);
    expect(Array.from(after)).toEqual(Array.from(before));
    const restY = top.centroid.y;
    expect(restY).toBeLessThan(300 - 20 - 25); // above the static body's top
    expect(top.velocity.y).toBeLessThan(5);
    floor.setStatic(false);
    steps(sim, 30);
    expect(floor.centroid.y).toBeGreaterThan(305);
  });

  it('pin holds one particle in place, unpin releases it', () => {
    const sim = world();
    const b = sim.jelly(300, 200, { width: 60, height: 60, stiffness: 5e4, density: 50 });
    b.pin(0);
    const P = sim.world.c.Particle, e = b.particles[0]!;
    const x0 = P.x[e]!, y0 = P.y[e]!;
    steps(sim, 30);
    expect([P.x[e], P.y[e]]).toEqual([x0, y0]);
    expect(b.centroid.y).toBeGreaterThan(200); // the rest swings down
    b.unpin(0);
    steps(sim, 10);
    expect(P.y[e]!).toBeLessThan(y0);
    expect(() => b.pin(999)).toThrow(/particle index/);
  });

  it('rejects non-finite arguments with a clear message', () => {
    const sim = world();
    const b = sim.jelly(300, 200, { radius: 20 });
    expect(() => b.applyImpulse(NaN, 0)).toThrow(/applyImpulse: arguments must be finite/);
    expect(() => b.setVelocity(0, Infinity)).toThrow(/setVelocity/);
  });
});

describe('contact events', () => {
  it('begin once and end once per (body, collider) pair, with the handles, point, normal, impulse and speed', () => {
    const sim = world();
    const [floor] = sim.bounds(0, 0, 800, 600);
    // dropped 8 px (bottom 10 px above the floor, contact radius 2 px): lands at t ≈ 7/60 s without a rebound
    const b = sim.jelly(400, 560, { width: 60, height: 60, stiffness: 5e4, density: 50 });
    const starts: SoftContact[] = [], ends: SoftContact[] = [];
    let active = 0;
    sim.on('contactstart', (e) => starts.push({ ...e }));
    sim.on('contactend', (e) => ends.push({ ...e }));
    sim.on('contactactive', () => active++);
    let bodyStarts = 0;
    b.on('contactstart', () => bodyStarts++);
    steps(sim, 60);
    expect(starts).toHaveLength(1);
    const s = starts[0]!;
    expect(s.bodyA).toBe(b);
    expect(s.collider).toBe(floor);
    expect(s.bodyB).toBeNull();
    expect(s.y).toBeCloseTo(600, 0);
    expect(s.normalY).toBeCloseTo(-1, 6); // from the floor towards the body: up on screen
    expect(s.impulse).toBeGreaterThan(0);
    // approach speed at the start of the landing step: g t at t = 7/60 s (the step it touched), 114.45 px/s
    expect(s.relativeSpeed).toBeCloseTo(981 * 7 / 60, 0);
    expect(bodyStarts).toBe(1);
    expect(active).toBeGreaterThan(10);
    expect(ends).toHaveLength(0);
    b.applyImpulse(0, -4 * b.mass * PPM); // throw it up
    steps(sim, 20);
    expect(ends).toHaveLength(1);
    expect(ends[0]!.bodyA).toBe(b);
    expect(starts).toHaveLength(1);
  });

  it('body–body contacts name both bodies; per-body listeners fire for A and B', () => {
    const sim = world();
    sim.bounds(0, 0, 800, 600);
    const low = sim.jelly(400, 560, { width: 120, height: 60, stiffness: 5e4, density: 50 });
    const high = sim.jelly(400, 500, { width: 50, height: 50, stiffness: 5e4, density: 50 });
    const seen: string[] = [];
    low.on('contactstart', (e) => { if (e.bodyB) seen.push('low'); });
    high.on('contactstart', (e) => { if (e.bodyB) seen.push('high'); });
    const pairs: [unknown, unknown][] = [];
    sim.on('contactstart', (e) => { if (e.bodyB) pairs.push([e.bodyA, e.bodyB]); });
    steps(sim, 60);
    expect(pairs).toHaveLength(1);
    expect(new Set(pairs[0])).toEqual(new Set([low, high]));
    expect(seen.sort()).toEqual(['high', 'low']);
  });

  it('costs nothing when nobody listens: no snapshot, no dispatch', () => {
    const sim = world();
    sim.bounds(0, 0, 800, 600);
    sim.jelly(400, 540, { radius: 30 });
    steps(sim, 5);
    expect(sim.contacts.listening).toBe(false);
    const fn = (): void => {};
    sim.on('contactactive', fn);
    expect(sim.contacts.listening).toBe(true);
    sim.off('contactactive', fn);
    expect(sim.contacts.listening).toBe(false);
  });
});

describe('kinematic colliders', () => {
  it('a body resting on a moving platform is carried by friction', () => {
    const sim = world();
    const plat = sim.polygon([200, 400, 500, 400, 500, 430, 200, 430]);
    const b = sim.jelly(300, 370, { width: 50, height: 50, stiffness: 5e4, density: 50 });
    steps(sim, 60); // settle
    const x0 = b.centroid.x;
    plat.setVelocity(60, 0);
    steps(sim, 60);
    expect(plat.x).toBeCloseTo(350 + 60, 6);
    const moved = b.centroid.x - x0;
    expect(moved).toBeGreaterThan(45); // carried (the platform moved 60 px)
    expect(moved).toBeLessThan(70);
    expect(b.centroid.y).toBeLessThan(400);
  });

  it('moveTo (and the tweenable x setter) moves over one step then stops; setPosition teleports', () => {
    const sim = world();
    const c = sim.circle(100, 100, 20);
    c.x = 110;
    expect(c.x).toBe(100);
    sim.stepOnce();
    expect(c.x).toBeCloseTo(110, 9);
    expect(c.velocityX).toBe(0);
    sim.stepOnce();
    expect(c.x).toBeCloseTo(110, 9);
    c.setPosition(300, 200);
    expect([c.x, c.y]).toEqual([300, 200]);
    const [floor] = sim.bounds(0, 0, 800, 600);
    expect(() => floor!.setVelocity(1, 0)).toThrow(/half-plane/);
  });
});

describe('queries', () => {
  function scene(): SoftSim {
    const sim = world([0, 0]);
    sim.jelly(300, 300, { width: 80, height: 80, stiffness: 5e4 });
    sim.jelly(500, 300, { radius: 40, stiffness: 5e4 });
    sim.circle(700, 300, 30);
    return sim;
  }

  it('raycast hits the first body along the ray, with the point and a normal facing the ray', () => {
    const sim = scene();
    const [a, b] = sim.bodies;
    const h = sim.query.raycast(100, 300, 800, 300)!;
    expect(h.body).toBe(a);
    expect(h.x).toBeCloseTo(260, 6);
    expect(h.normalX).toBeCloseTo(-1, 6);
    const back = sim.query.raycast(800, 300, 100, 300)!;
    expect(back.collider).toBe(sim.colliders.list[0]);
    expect(back.x).toBeCloseTo(730, 6);
    const mid = sim.query.raycast(400, 300, 800, 300)!;
    expect(mid.body).toBe(b);
    expect(mid.x).toBeGreaterThan(459);
    expect(mid.x).toBeLessThan(462);
    expect(sim.query.raycast(100, 100, 800, 100)).toBeNull();
  });

  it('bodyAt, bodiesIn and particlesNear', () => {
    const sim = scene();
    const [a, b] = sim.bodies;
    expect(sim.query.bodyAt(300, 300)).toBe(a);
    expect(sim.query.bodyAt(500, 330)).toBe(b);
    expect(sim.query.bodyAt(400, 300)).toBeNull();
    const out: unknown[] = [];
    expect(sim.query.bodiesIn(250, 250, 300, 100, out as never)).toEqual([a, b]);
    expect(sim.query.bodiesIn(450, 0, 100, 600)).toEqual([b]);
    const ids: number[] = [];
    const n = sim.query.particlesNear(260, 260, 1, ids);
    expect(n).toBe(1);
    expect(sim.bodyOfParticle(ids[0]!)).toBe(a);
  });
});

describe('attachments', () => {
  it('an attached sprite follows the interpolated material point (within 0.5 px) and turns with the body', () => {
    const sim = world([0, 0]);
    const b = sim.jelly(300, 300, { width: 80, height: 80, stiffness: 5e4, density: 50 });
    const sprite = { x: 0, y: 0, rotation: 0 };
    const at = { x: 310, y: 290 };
    const a = b.attach(sprite, { at, rotate: true });
    expect(sprite.x).toBeCloseTo(310, 9);
    expect(sprite.y).toBeCloseTo(290, 9);
    b.setAngularVelocity(2);
    sim.frame(1000 / 60);
    for (let f = 0; f < 20; f++) sim.frame(7); // partial steps: interpolated positions
    // the material point: the same barycentric combination of the interpolated positions
    const p = b.local;
    const x = a.w0 * p[2 * a.i0]! + a.w1 * p[2 * a.i1]! + a.w2 * p[2 * a.i2]!;
    const y = a.w0 * p[2 * a.i0 + 1]! + a.w1 * p[2 * a.i1 + 1]! + a.w2 * p[2 * a.i2 + 1]!;
    expect(Math.abs(sprite.x - sim.toPixelX(x))).toBeLessThan(0.5);
    expect(Math.abs(sprite.y - sim.toPixelY(y))).toBeLessThan(0.5);
    expect(sprite.rotation).toBeGreaterThan(0.1);
    expect(Math.abs(sprite.rotation - b.angle)).toBeLessThan(0.1);
    const byParticle = { x: 0, y: 0 };
    b.attach(byParticle, { at: 3 });
    expect(byParticle.x).toBeCloseTo(sim.toPixelX(b.local[6]!), 9);
    a.detach();
    expect(b.attachments).toHaveLength(1);
  });
});

describe('determinism', () => {
  it('the same scripted inputs give bit-identical states', () => {
    const run = (): Float64Array => {
      const sim = world();
      sim.bounds(0, 0, 800, 600);
      const plat = sim.polygon([100, 450, 300, 450, 300, 470, 100, 470]);
      const p = sim.jelly(200, 400, { radius: 25, stiffness: 4e4, density: 40 });
      sim.jelly(500, 500, { width: 80, height: 60 });
      let hits = 0;
      p.on('contactstart', () => hits++);
      for (let s = 0; s < 120; s++) {
        if (s % 40 === 0) p.applyImpulse(0, -3 * p.mass * PPM);
        if (s % 3 === 0) p.applyTorque(200 * PPM * PPM);
        if (s === 30) plat.setVelocity(40, 0);
        if (s === 90) p.setVelocity(-50, 0);
        sim.stepOnce();
      }
      const out = sim.world.readPositions();
      const v = sim.world.readVelocities();
      const all = new Float64Array(out.length + v.length + 1);
      all.set(out);
      all.set(v, out.length);
      all[all.length - 1] = hits;
      return all;
    };
    const a = run(), b = run();
    expect(a[a.length - 1]).toBeGreaterThan(0);
    expect(Array.from(b)).toEqual(Array.from(a));
  });
});

describe('queries per frame', () => {
  it('bodiesIn, particlesNear, bodyAt and raycast (bodies and colliders on the ray) allocate nothing per call after warm-up', () => {
    const sim = world([0, 0]);
    for (let i = 0; i < 4; i++) sim.jelly(150 + 150 * i, 300, { radius: 30, stiffness: 5e4 });
    sim.circle(760, 300, 20);
    sim.polygon([700, 200, 740, 200, 740, 240, 700, 240]);
    const bodies: never[] = [], ids: number[] = [];
    const calls: ((k: number) => void)[] = [
      (k) => void sim.query.bodiesIn(100, 250 + (k % 3), 600, 100, bodies),
      (k) => void sim.query.particlesNear(150, 300 + (k % 3), 40, ids),
      (k) => void sim.query.bodyAt(300, 300 + (k % 3)),
      (k) => void sim.query.raycast(50, 300 + (k % 3), 790, 300), // hits the first jelly
      (k) => void sim.query.raycast(680, 300 + (k % 3), 790, 300), // hits the circle collider
      (k) => void sim.query.raycast(690, 220 + (k % 3), 790, 220), // hits the polygon collider
    ];
    for (const f of calls) {
      // up to eight measurements, each after more warm-up calls: under load V8 may not have optimized
      // the query yet (a baseline-tier call boxes its doubles; measured: a raycast reached 0 at the third); a fresh array per call fails all
      let perCall = Infinity;
      for (let attempt = 0; attempt < 8 && !(perCall < 4); attempt++) {
        for (let w = 0; w < 3000; w++) f(w);
        const growth: number[] = [];
        for (let r = 0; r < 9; r++) {
          const h0 = process.memoryUsage().heapUsed;
          for (let k = 0; k < 500; k++) f(k);
          growth.push(process.memoryUsage().heapUsed - h0);
        }
        growth.sort((a, b) => a - b);
        perCall = growth[4]! / 500;
      }
      expect(perCall).toBeLessThan(4); // bytes per call (median of 9 rounds); a fresh array would be ≥ 16
    }
    expect(bodies.length).toBe(4);
    expect(ids.length).toBeGreaterThan(0);
    expect(sim.query.raycast(680, 300, 790, 300)!.collider).toBe(sim.colliders.list[0]);
    expect(sim.query.raycast(690, 220, 790, 220)!.collider).toBe(sim.colliders.list[1]);
  });
});
