/**
 * FOSSSim's simple collision response (`<collision type="simple">`, ContactSystem mode 'simple'):
 * after the integrator step, every overlapping and approaching pair gets its normal relative
 * velocity reflected by the COR, mass-weighted, fixed particles immovable; positions untouched.
 * Facts and sources: docs/scene-format.md, Contact.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PhysicsWorld } from '../src/world';
import { buildScene } from '../src/scene/build';
import { loadSceneFile } from '../src/scene/load';
import { parseSceneXml } from '../src/scene/xml';
import { oracleStep, prepare, simpleCollisions } from './support/fosssim-oracle';

const SCENES = fileURLToPath(new URL('../assets/scenes/fosssim', import.meta.url));
const SYNTHETIC = fileURLToPath(new URL('./scenes', import.meta.url));

interface P {
  x: number;
  y: number;
  vx?: number;
  vy?: number;
  m?: number;
  fixed?: boolean;
  radius?: number;
}

/** A world in simple mode, no forces, dt tiny so the step itself barely moves anything. */
function simpleWorld(cor: number, ps: P[], edges: [number, number, number][] = [], halfplanes: [number, number, number, number][] = []) {
  const w = new PhysicsWorld({ dt: 1e-6, gravity: null, integrator: 'symplectic-euler' });
  w.contacts.enabled = true;
  w.contacts.mode = 'simple';
  w.contacts.cor = cor;
  const ids = ps.map((p) => w.addParticle({ m: 1, ...p }));
  for (const [a, b, r] of edges) w.addEdge(ids[a]!, ids[b]!, r);
  for (const [px, py, nx, ny] of halfplanes) w.addHalfplane(px, py, nx, ny);
  return w;
}

function vel(w: PhysicsWorld): number[] {
  return [...w.readVelocities()];
}

describe('simple mode: particle–particle', () => {
  for (const [m1, m2] of [[1, 1], [1, 3], [2.5, 0.5]] as const) {
    for (const cor of [1, 0.5, 0]) {
      it(`head-on, masses ${m1} and ${m2}, COR ${cor}: momentum conserved, relative normal velocity × −COR`, () => {
        const w = simpleWorld(cor, [
          { x: 0, y: 0, vx: 2, vy: 0.5, m: m1, radius: 0.1 },
          { x: 0.15, y: 0, vx: -1, vy: 0.5, m: m2, radius: 0.1 },
        ]);
        w.step();
        const [v1x, v1y, v2x, v2y] = vel(w);
        expect(m1 * v1x! + m2 * v2x!).toBeCloseTo(m1 * 2 + m2 * -1, 12);
        expect(m1 * v1y! + m2 * v2y!).toBeCloseTo((m1 + m2) * 0.5, 12);
        expect(v2x! - v1x!).toBeCloseTo(cor * 3, 12); // before: v1 − v2 = 3 towards each other
        // Tangential velocities untouched (the line of centres stays on the x axis); the textbook result.
        expect(v1y).toBe(0.5);
        expect(v2y).toBe(0.5);
        expect(v1x).toBeCloseTo(2 - ((1 + cor) * m2 * 3) / (m1 + m2), 12);
        expect(v2x).toBeCloseTo(-1 + ((1 + cor) * m1 * 3) / (m1 + m2), 12);
      });
    }
  }

  it('a fixed particle has infinite mass: it keeps its velocity, the free one reflects fully', () => {
    const w = simpleWorld(0.5, [
      { x: 0, y: 0, fixed: true, radius: 0.2 },
      { x: 0.2, y: 0.2, vx: -1, vy: -2, radius: 0.1 }, // along (1, 1)/√2
    ]);
    w.step();
    const [v0x, v0y, vx, vy] = vel(w);
    expect([v0x, v0y]).toEqual([0, 0]);
    // n̂ = (1, 1)/√2: vn = −3/√2 → +1.5/√2; the tangential part (−1, 1)/√2 · (−1/√2) is kept.
    expect(vx).toBeCloseTo(0.75 + 0.5, 4); // the step itself turns n̂ by ~1e-5
    expect(vy).toBeCloseTo(0.75 - 0.5, 4);
  });

  it('no response when overlapping but separating, or approaching but apart', () => {
    const sep = simpleWorld(1, [
      { x: 0, y: 0, vx: -1, radius: 0.1 },
      { x: 0.1, y: 0, vx: 1, radius: 0.1 },
    ]);
    sep.step();
    expect(vel(sep)).toEqual([-1, 0, 1, 0]);
    const apart = simpleWorld(1, [
      { x: 0, y: 0, vx: 1, radius: 0.1 },
      { x: 0.3, y: 0, vx: -1, radius: 0.1 },
    ]);
    apart.step();
    expect(vel(apart)).toEqual([1, 0, -1, 0]);
  });
});

describe('simple mode: particle–edge', () => {
  it('a particle hitting a fixed edge: normal velocity × −COR, tangential kept, edge unchanged, no position change', () => {
    const w = simpleWorld(
      0.3,
      [
        { x: -1, y: 0, fixed: true },
        { x: 1, y: 0, fixed: true },
        { x: 0.25, y: 0.12, vx: 0.7, vy: -2, radius: 0.1 },
      ],
      [[0, 1, 0.05]],
    );
    w.step();
    const v = vel(w);
    expect(v.slice(0, 4)).toEqual([0, 0, 0, 0]);
    expect(v[4]).toBeCloseTo(0.7, 12);
    expect(v[5]).toBeCloseTo(0.6, 12);
    const y = w.readPositions()[5]!;
    expect(y).toBeCloseTo(0.12 - 2e-6, 12); // moved by the step only
  });

  it('a free edge takes the impulse with barycentric weights (1 − α, α); momentum conserved', () => {
    const w = simpleWorld(
      1,
      [
        { x: 0, y: 0, m: 2 },
        { x: 1, y: 0, m: 1 },
        { x: 0.25, y: 0.1, vy: -1, m: 1, radius: 0.1 },
      ],
      [[0, 1, 0.05]],
    );
    w.step();
    const v = vel(w);
    // α = 0.25: W = 1 + 0.75²/2 + 0.25² = 1.34375; impulse j = 2·1/W (COR 1).
    const j = 2 / 1.34375;
    expect(v[5]).toBeCloseTo(-1 + j, 10);
    expect(v[1]).toBeCloseTo((-0.75 * j) / 2, 10);
    expect(v[3]).toBeCloseTo(-0.25 * j, 10);
    expect(2 * v[1]! + v[3]! + v[5]!).toBeCloseTo(-1, 12);
  });

  it('an endpoint never collides with its own edge; a separating particle is left alone', () => {
    const w = simpleWorld(
      1,
      [
        { x: 0, y: 0, vy: -1 },
        { x: 1, y: 0, fixed: true },
        { x: 0.5, y: 0.1, vy: 1, radius: 0.1 },
      ],
      [[0, 1, 0.05]],
    );
    w.step();
    expect(vel(w)).toEqual([0, -1, 0, 0, 0, 1]);
  });
});

describe('simple mode: particle–half-plane', () => {
  it('reflects the normal velocity by COR (any normal length), and only while approaching', () => {
    const w = simpleWorld(0.5, [{ x: 0, y: 0.05, vx: 1, vy: -2 }, { x: 3, y: 0.05, vx: 1, vy: 2 }], [], [[0, 0, 0, 5]]);
    w.step();
    const v = vel(w);
    expect(v[0]).toBe(1);
    expect(v[1]).toBeCloseTo(1, 12);
    expect(v.slice(2)).toEqual([1, 2]);
  });

  it("FOSSSim's test is two-sided: past the boundary and moving deeper there is no response", () => {
    const w = simpleWorld(1, [{ x: 0, y: -0.05, vy: -1 }], [], [[0, 0, 0, 1]]);
    w.step();
    expect(vel(w)).toEqual([0, -1]);
  });
});

describe('simple mode: pair order (collisiondetection)', () => {
  // Particle 0 hits the floor while particle 1 lands on edge 0–2: the floor bounce of 0 comes
  // before particle 1's edge response in AllPairsDetector order, after it in ContestDetector order.
  const xml = (order: string) => `<scene>
    <duration time="0.01"/><integrator type="symplectic-euler" dt="0.01"/>
    <collision type="simple" COR="0.8"/><collisiondetection type="${order}"/>
    <particle m="1" px="0" py="-0.95" vx="0.3" vy="-1" fixed="0" radius="0.1"/>
    <particle m="1" px="0.4" py="-0.85" vx="0" vy="-2" fixed="0" radius="0.1"/>
    <particle m="1" px="1" py="-0.95" vx="0" vy="0" fixed="0" radius="0.1"/>
    <edge i="0" j="2" radius="0.05"/>
    <halfplane px="0" py="-1" nx="0" ny="1"/>
  </scene>`;

  it('allpairs and contest give different, each FOSSSim-exact, results', () => {
    const out: number[][] = [];
    for (const order of ['allpairs', 'contest']) {
      const desc = parseSceneXml(xml(order), `${order}.xml`);
      const { world } = buildScene(desc);
      const s = prepare(desc);
      const ref = oracleStep(s, world.readPositions(), world.readVelocities());
      simpleCollisions(s, ref.x, ref.v, 0.8, order === 'contest');
      world.step();
      const v = vel(world);
      v.forEach((q, a) => expect(q).toBeCloseTo(ref.v[a]!, 12));
      out.push(v);
    }
    expect(Math.abs(out[0]![1]! - out[1]![1]!)).toBeGreaterThan(0.1);
  });
});

describe('scenes with <collision type="simple">', () => {
  it('HalfplaneTests/test01.xml: the spring bounces between floor and ceiling and stays between them', () => {
    const desc = loadSceneFile(join(SCENES, 'basic/t2m1/HalfplaneTests/test01.xml'));
    const { world, steps } = buildScene(desc);
    let minY = Infinity, maxY = -Infinity, flips = 0;
    let prevVy = world.readVelocities()[1]!;
    for (let k = 0; k < steps; k++) {
      world.step();
      const x = world.readPositions(), v = world.readVelocities();
      for (const i of [0, 1]) {
        minY = Math.min(minY, x[2 * i + 1]!);
        maxY = Math.max(maxY, x[2 * i + 1]!);
        expect(Math.abs(x[2 * i + 1]!)).toBeLessThan(1); // centres never cross the planes y = ±1
      }
      if (Math.sign(v[1]!) !== Math.sign(prevVy) && v[1] !== 0) flips++;
      prevVy = v[1]!;
    }
    expect(minY).toBeLessThan(-0.85);
    expect(maxY).toBeGreaterThan(0.85);
    expect(flips).toBeGreaterThanOrEqual(4); // several floor and ceiling bounces in 10 s
    // Without the response the same spring leaves through the floor.
    const off = buildScene({ ...desc, collision: { type: 'none' } });
    for (let k = 0; k < off.steps; k++) off.world.step();
    expect(off.world.readPositions()[1]!).toBeLessThan(-10);
  });

  it('the synthetic simple-collision scenes really collide (engine velocities differ from the collision-free step)', () => {
    const expectHits: Record<string, number> = {
      'simple-particles-cor.xml': 3,
      'simple-edges-cor.xml': 3,
      'simple-order-allpairs.xml': 3,
      'simple-order-contest.xml': 3,
    };
    for (const [file, min] of Object.entries(expectHits)) {
      const desc = loadSceneFile(join(SYNTHETIC, file));
      const { world, steps } = buildScene(desc);
      const s = prepare(desc);
      let hits = 0;
      for (let k = 0; k < steps; k++) {
        const free = oracleStep(s, world.readPositions(), world.readVelocities());
        world.step();
        const v = world.readVelocities();
        if (v.some((q, a) => Math.abs(q - free.v[a]!) > 1e-6)) hits++;
      }
      expect(hits, file).toBeGreaterThanOrEqual(min);
    }
  });
});

describe('scene wiring of <collision> and colliders', () => {
  const head = '<duration time="1"/><integrator type="symplectic-euler" dt="0.01"/>';
  it('simple: mode, COR and pair order reach the contact system; none and absent leave it off', () => {
    const w = (body: string) => buildScene(parseSceneXml(`<scene>${head}${body}</scene>`, 'w.xml')).world.contacts;
    const s = w('<collision type="simple" COR="0.25"/><collisiondetection type="contest"/>');
    expect([s.enabled, s.mode, s.cor, s.simpleOrder]).toEqual([true, 'simple', 0.25, 'contest']);
    expect(w('<collision type="simple"/>').simpleOrder).toBe('allpairs');
    expect(w('<collision type="simple"/><collisiondetection type="hash"/>').simpleOrder).toBe('allpairs');
    expect(w('<collision type="none"/>').enabled).toBe(false);
    expect(w('').enabled).toBe(false);
  });

  it('game: colliders built with their materials; a falling particle stays above a segment collider', () => {
    const desc = parseSceneXml(
      `<scene><duration time="2"/><integrator type="symplectic-euler" dt="0.01"/>
        <collision type="game" COR="0.1" friction="0.4"/>
        <particle m="1" px="0" py="1" vx="0" vy="0" fixed="0" radius="0.05"/>
        <simplegravity fx="0" fy="-9.81"/>
        <segmentcollider x1="-2" y1="0" x2="2" y2="0"/>
        <circlecollider cx="5" cy="0" radius="1" COR="0.9"/>
        <polygoncollider points="10 0 12 0 11 1" friction="0"/></scene>`,
      'g.xml',
    );
    const { world, steps } = buildScene(desc);
    expect([world.contacts.enabled, world.contacts.mode, world.contacts.cor, world.contacts.friction]).toEqual([true, 'game', 0.1, 0.4]);
    expect(world.colliders).toHaveLength(3);
    const K = world.c.Collider;
    expect(world.colliders.map((e) => [K.cor[e], K.friction[e]])).toEqual([[-1, -1], [0.9, -1], [-1, 0]]);
    for (let k = 0; k < steps; k++) {
      world.step();
      expect(world.readPositions()[1]!).toBeGreaterThan(-1e-9);
    }
  });
});
