/**
 * The plugin's Phaser-free stepping core (SoftSim) with the real PhysicsWorld:
 * frame-rate independence, pointer dragging, colliders, bodies.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { SoftSim } from '../src/game/sim';
import { PhysicsWorld } from '../src/world';

function scene(): SoftSim {
  const sim = new SoftSim({ pixelsPerMetre: 100, originX: 0, originY: 600 });
  sim.bounds(0, 0, 800, 600);
  sim.circle(400, 500, 60);
  sim.jelly(380, 200, { width: 120, height: 80, stiffness: 3e4, density: 50 });
  sim.jelly(520, 120, { radius: 40, stiffness: 2e4, density: 50 });
  sim.rope([100, 100, 300, 100], { segments: 8, pinStart: true });
  return sim;
}

function runFrames(sim: SoftSim, hz: number, seconds: number): void {
  const frames = Math.round(hz * seconds);
  for (let f = 0; f < frames; f++) sim.frame(1000 / hz);
}

describe('SoftSim fixed-step loop with the real PhysicsWorld', () => {
  it('same state after the same number of steps at 30, 60 and 144 Hz', () => {
    const states = [30, 60, 144].map((hz) => {
      const sim = scene();
      runFrames(sim, hz, 2);
      expect(sim.world.stepCount).toBe(120);
      return sim.world.readPositions();
    });
    expect(states[0]!.length).toBeGreaterThan(40);
    expect(Array.from(states[1]!)).toEqual(Array.from(states[0]!));
    expect(Array.from(states[2]!)).toEqual(Array.from(states[0]!));
  });

  it('same result with a held pointer drag at 30, 60 and 144 Hz', () => {
    const states = [30, 60, 144].map((hz) => {
      const sim = scene();
      const body = sim.bodies[0]!;
      const c = body.centroid;
      expect(sim.pointerDown(c.x, c.y + 10, 60)).toBe(body);
      sim.pointerMove(c.x + 150, c.y - 120);
      runFrames(sim, hz, 1);
      sim.pointerUp();
      runFrames(sim, hz, 0.5);
      expect(sim.world.stepCount).toBe(90);
      return sim.world.readPositions();
    });
    expect(Array.from(states[1]!)).toEqual(Array.from(states[0]!));
    expect(Array.from(states[2]!)).toEqual(Array.from(states[0]!));
  });

  it('the stepping equals the ordered systems run by hand', () => {
    const sim = scene();
    runFrames(sim, 60, 0.5);
    const ref = scene();
    for (let s = 0; s < 30; s++) {
      ref.world.step();
    }
    expect(Array.from(sim.world.readPositions())).toEqual(Array.from(ref.world.readPositions()));
  });

  it('bodies fall under gravity and rest on the floor and the circle', () => {
    const sim = scene();
    const jelly = sim.bodies[0]!;
    const y0 = jelly.centroid.y;
    runFrames(sim, 60, 3);
    const c = jelly.centroid;
    expect(c.y).toBeGreaterThan(y0 + 50); // fell (pixels, y down)
    const P = sim.world.c.Particle;
    for (const e of sim.world.lists.particles) expect(P.y[e]!).toBeGreaterThan(-0.01); // above the floor (y = 0 m)
    expect(c.y).toBeLessThan(600);
  });

  it('a pointer drag moves a stiff jelly to the pointer and releasing lets it go', () => {
    const sim = new SoftSim({ pixelsPerMetre: 100, originX: 0, originY: 600 });
    sim.bounds(0, 0, 800, 600);
    const jelly = sim.jelly(400, 520, { width: 100, height: 100, stiffness: 5e5, density: 100 });
    runFrames(sim, 60, 0.5);
    const before = jelly.centroid;
    expect(sim.pointerDown(before.x, before.y, 80)).toBe(jelly);
    const topo = sim.world.topology();
    for (let k = 1; k <= 60; k++) {
      sim.pointerMove(before.x + 3 * k, before.y - 4 * k);
      sim.frame(1000 / 60);
    }
    expect(sim.world.topology()).toBe(topo); // dragging never rebuilt the topology
    const held = jelly.centroid;
    expect(held.x - before.x).toBeGreaterThan(120);
    expect(before.y - held.y).toBeGreaterThan(150);
    sim.pointerUp();
    expect(sim.world.anchors.count).toBe(0);
    runFrames(sim, 60, 2);
    const after = jelly.centroid;
    expect(after.y).toBeGreaterThan(held.y + 100); // falls again
    const pos = sim.world.readPositions();
    for (const p of pos) expect(Number.isFinite(p)).toBe(true);
  });

  it('interpolates render positions between the last two steps', () => {
    const sim = scene();
    runFrames(sim, 60, 0.5);
    sim.frame(1000 / 120); // half a step accumulated
    expect(sim.alpha).toBeCloseTo(0.5, 6);
    for (let i = 0; i < sim.renderPositions.length; i++) {
      expect(sim.renderPositions[i]!).toBeCloseTo(0.5 * (sim.prev[i]! + sim.curr[i]!), 12);
    }
    const b = sim.bodies[1]!;
    expect(b.local[0]).toBe(sim.renderPositions[2 * b.index[0]!]);
  });

  it('pause, single step, time scale and gravity controls', () => {
    const sim = scene();
    sim.pause();
    runFrames(sim, 60, 0.5);
    expect(sim.world.stepCount).toBe(0);
    sim.stepOnce();
    expect(sim.world.stepCount).toBe(1);
    sim.resume();
    sim.timeScale = 0.5;
    runFrames(sim, 60, 1);
    expect(sim.world.stepCount).toBe(31);
    sim.setGravity(0, 0);
    expect(sim.gravity).toEqual([0, 0]);
    sim.setGravity(0, 981);
    expect(sim.gravityMetric[1]).toBeCloseTo(-981 / sim.pixelsPerMetre, 12);
    expect(sim.gravity[1]).toBeCloseTo(981, 9);
    sim.setGravityMetric(1, -9.81);
    expect(sim.gravity[0]).toBeCloseTo(sim.pixelsPerMetre, 9);
    expect(sim.gravity[1]).toBeCloseTo(9.81 * sim.pixelsPerMetre, 9);
  });

  it('gravity options: px/s² y down (gravity) or m/s² y up (gravityMetric), default 9.81 m/s² down', () => {
    expect(new SoftSim({ pixelsPerMetre: 100 }).gravityMetric).toEqual([0, -9.81]);
    expect(new SoftSim({ pixelsPerMetre: 100, gravity: [0, 981] }).gravityMetric).toEqual([0, -9.81]);
    expect(new SoftSim({ pixelsPerMetre: 50, gravityMetric: [0, -9.81] }).gravity).toEqual([0, 490.5]);
    expect(() => new SoftSim({ gravity: [0, 1], gravityMetric: [0, -1] })).toThrow(/not both/);
    expect(() => new SoftSim({ gravity: [0, Number.NaN] })).toThrow(/SoftSim: 'gravity'\[1\]: expected a number with \|f\| <= 1e9, got NaN/);
    // the same physical gravity either way: identical states
    const a = new SoftSim({ pixelsPerMetre: 100, gravity: [0, 981] });
    const b = new SoftSim({ pixelsPerMetre: 100, gravityMetric: [0, -9.81] });
    for (const s of [a, b]) {
      s.jelly(400, 100, { width: 60, height: 40 });
      for (let i = 0; i < 10; i++) s.stepOnce();
    }
    expect(Array.from(a.world.readPositions())).toEqual(Array.from(b.world.readPositions()));
    expect(a.world.readPositions()[1]!).toBeLessThan(b.bodies[0]!.rest[1]!); // it fell (y up)
  });

  it('destroying a body removes its entities and re-indexes the others', () => {
    const sim = scene();
    runFrames(sim, 60, 0.2);
    const [a, b] = sim.bodies;
    const nb = b!.particles.length;
    a!.destroy();
    expect(sim.bodies).not.toContain(a);
    runFrames(sim, 60, 0.2);
    expect(sim.world.particleCount()).toBe(sim.bodies.reduce((s, x) => s + x.particles.length, 0));
    expect(b!.index.length).toBe(nb);
    expect(b!.local[0]).toBe(sim.renderPositions[2 * b!.index[0]!]);
  });

  it('polygon jelly, sheet and FOSSSim scene bodies', () => {
    const sim = new SoftSim({ pixelsPerMetre: 100, originX: 0, originY: 600 });
    const star = sim.jelly(300, 300, { points: [0, -60, 20, -20, 60, -15, 30, 15, 40, 60, 0, 35, -40, 60, -30, 15, -60, -15, -20, -20] });
    expect(star.triangles.length).toBeGreaterThan(20);
    const sheet = sim.sheet(500, 100, { width: 200, height: 100, cols: 6, rows: 3 });
    expect(sheet.triangles.length / 3).toBe(36);
    runFrames(sim, 60, 0.5);
    const P = sim.world.c.Particle;
    expect(P.y[sheet.particles[sheet.particles.length - 1]!]!).toBeCloseTo(5, 9); // pinned top row
    const xml = readFileSync('assets/scenes/fosssim/t4m1/CSTTests/test00.xml', 'utf8');
    const body = sim.fromSceneText(xml, 'test00.xml');
    expect(sim.bodies).toEqual([body]);
    expect(body.triangles.length).toBeGreaterThan(0);
    expect(sim.world).toBeInstanceOf(PhysicsWorld);
    runFrames(sim, 60, 0.2);
    expect(sim.world.stepCount).toBeGreaterThan(0);
  });

  it('colliders are engine entities and every body has its own contact body id', () => {
    const sim = new SoftSim({ pixelsPerMetre: 100, originX: 0, originY: 500 });
    const walls = sim.bounds(0, 0, 800, 500);
    const circle = sim.circle(200, 430, 60);
    const seg = sim.segment(470, 260, 780, 380, 10);
    const bare = sim.segment(100, 100, 200, 120, 0);
    const poly = sim.polygon([520, 500, 640, 430, 760, 500]);
    expect(walls.map((c) => sim.world.halfplanes.includes(c.id))).toEqual([true, true, true, true]);
    for (const c of [circle, seg, bare, poly]) expect(sim.world.colliders).toContain(c.id);
    const a = sim.jelly(300, 100), b = sim.jelly(500, 100, { radius: 30 }), r = sim.rope([100, 50, 200, 50], { segments: 5 });
    const P = sim.world.c.Particle;
    const ids = [a, b, r].map((h) => P.body[h.particles[0]!]!);
    expect(new Set(ids).size).toBe(3);
    for (const [k, h] of [a, b, r].entries()) for (const e of h.particles) expect(P.body[e]).toBe(ids[k]);
    expect(sim.world.contacts.enabled).toBe(true);
    sim.removeCollider(bare);
    expect(sim.world.colliders).not.toContain(bare.id);
    expect(sim.colliders.list).not.toContain(bare);
  });

  it('body–body contact: a jelly dropped on another rests on it, neither inverts', () => {
    const sim = new SoftSim({ pixelsPerMetre: 100, originX: 0, originY: 500 });
    sim.bounds(0, 0, 800, 500);
    const low = sim.jelly(400, 440, { width: 120, height: 100, stiffness: 2e5, density: 20 });
    const top = sim.jelly(400, 250, { width: 80, height: 60, stiffness: 2e5, density: 20 });
    runFrames(sim, 60, 3);
    // top rests on low: centroids (pixels, y down) about (100 + 60) / 2 = 80 px apart, same column
    const dy = low.centroid.y - top.centroid.y;
    expect(dy).toBeGreaterThan(70);
    expect(dy).toBeLessThan(90);
    expect(Math.abs(low.centroid.x - top.centroid.x)).toBeLessThan(20);
    // no particle of the top body inside the low body's box (its top edge, with the contact radius)
    const lowTop = Math.min(...Array.from({ length: low.particles.length }, (_, i) => -low.local[2 * i + 1]!)) * 100 + 500;
    for (let i = 0; i < top.particles.length; i++) expect(-top.local[2 * i + 1]! * 100 + 500).toBeLessThan(lowTop + 2);
    // every triangle keeps its orientation and most of its area
    for (const h of [low, top]) {
      const p = h.local, q = h.rest, t = h.triangles;
      for (let k = 0; k < t.length; k += 3) {
        const [i, j, l] = [t[k]!, t[k + 1]!, t[k + 2]!];
        const A = (p[2 * j]! - p[2 * i]!) * (p[2 * l + 1]! - p[2 * i + 1]!) - (p[2 * l]! - p[2 * i]!) * (p[2 * j + 1]! - p[2 * i + 1]!);
        const A0 = (q[2 * j]! - q[2 * i]!) * (q[2 * l + 1]! - q[2 * i + 1]!) - (q[2 * l]! - q[2 * i]!) * (q[2 * j + 1]! - q[2 * i + 1]!);
        expect(A / A0).toBeGreaterThan(0.7);
      }
    }
  });
});

describe('SoftSim jelly material option', () => {
  it("passes `material` to every triangle (default 'fosssim'); an unknown name is an InputError naming the choices", async () => {
    const { materialId } = await import('../src/elements');
    const sim = new SoftSim({ pixelsPerMetre: 100, originX: 0, originY: 500 });
    const a = sim.jelly(200, 200, { width: 60, height: 60, material: 'neohookean' });
    const b = sim.jelly(400, 200, { width: 60, height: 60 });
    const T = sim.world.c.Triangle;
    const idsA = a.elements, idsB = b.elements;
    expect(idsA.length).toBeGreaterThan(0);
    for (const e of idsA) expect(T.material[e]).toBe(materialId('neohookean'));
    for (const e of idsB) expect(T.material[e]).toBe(materialId('fosssim'));
    expect(() => sim.jelly(600, 200, { width: 60, height: 60, material: 'jelly' as never })).toThrow(/material.*one of/);
  });
});
