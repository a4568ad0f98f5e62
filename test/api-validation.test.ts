/**
 * The API validates like the loader (issue 16 item 6): every public add…/set… call of PhysicsWorld
 * (and the contact settings) checks signs, finiteness, ranges (src/ranges.ts, the loader's table),
 * entity ids and names, and throws an InputError naming the call, the argument and what was
 * expected. A refused call leaves the world exactly as it was (same state hash, same entities).
 * Each misuse below was accepted before (or failed with a TypeError, or silently misbehaved).
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors';
import { PhysicsWorld } from '../src/world';
import { parseSceneXml } from '../src/scene/xml';
import { buildScene } from '../src/scene/build';

function world() {
  const w = new PhysicsWorld({ gravity: null });
  const a = w.addParticle({ x: 0, y: 0, m: 1 });
  const b = w.addParticle({ x: 1, y: 0, m: 1 });
  const c = w.addParticle({ x: 0, y: 1, m: 1 });
  const col = w.addCircleCollider(5, 5, 1);
  return { w, a, b, c, col };
}

type W = ReturnType<typeof world>;

/** [what, call, expected message]: each call must throw an InputError matching the message. */
const MISUSES: [string, (s: W) => unknown, RegExp][] = [
  ['negative spring alpha', ({ w, a, b }) => w.addSpring(a, b, { alpha: -1 }), /addSpring: 'alpha': expected 0 or a number in \[1e-30, 1e13\], got -1/],
  ['negative hinge alpha', ({ w, a, b, c }) => w.addHinge(a, b, c, { alpha: -2 }), /addHinge: 'alpha': expected .*got -2/],
  ['negative damped-spring k', ({ w, a, b }) => w.addDampedSpring(a, b, { k: -10, l0: 1 }), /addDampedSpring: 'k': expected .*got -10/],
  ['negative damped-spring b', ({ w, a, b }) => w.addDampedSpring(a, b, { k: 10, l0: 1, b: -1 }), /addDampedSpring: 'b': expected .*got -1/],
  ['negative G', ({ w, a, b }) => w.addGravitation(a, b, -6.7e-11), /addGravitation: 'G': expected .*got -6\.7e-11/],
  ['negative drag', ({ w }) => w.addDrag(-10), /addDrag: 'b': expected 0 or a number in \[1e-30, 1e13\], got -10/],
  ['an edge from a particle to itself', ({ w, a }) => w.addEdge(a, a), /addEdge: 'a' and 'b': expected two different particles, got \d+ twice/],
  ['edge radius NaN', ({ w, a, b }) => w.addEdge(a, b, NaN), /addEdge: 'radius': expected 0 or a number in .*got NaN/],
  ['collider COR 5', ({ w }) => w.addCircleCollider(0, 0, 1, { cor: 5 }), /addCircleCollider: 'cor': expected a number in \[0, 1\] \(coefficient of restitution\), got 5/],
  ['segment collider friction -1', ({ w }) => w.addSegmentCollider(0, 0, 1, 0, { friction: -1 }), /addSegmentCollider: 'friction': expected a number in \[0, 1000\], got -1/],
  ['contacts.cor = NaN', ({ w }) => { w.contacts.cor = NaN; }, /contacts: 'cor': expected a number in \[0, 1\].*got NaN/],
  ['contacts.friction = -0.5', ({ w }) => { w.contacts.friction = -0.5; }, /contacts: 'friction': expected .*got -0\.5/],
  ['contacts.iterations = 2.5', ({ w }) => { w.contacts.iterations = 2.5; }, /contacts: 'iterations': expected an integer/],
  // a step does a pass per iteration and a whole re-solve per refinement: 1e9 was accepted and the step never ended
  ['contacts.iterations = 1001', ({ w }) => { w.contacts.iterations = 1001; }, /contacts: 'iterations': expected an integer in \[0, 1000\]/],
  ['contacts.maxRefinements = 1e9', ({ w }) => { w.contacts.maxRefinements = 1e9; }, /contacts: 'maxRefinements': expected an integer in \[0, 100\]/],
  ['integrator rk4 (setter)', ({ w }) => { w.integrator = 'rk4' as never; }, /PhysicsWorld: 'integrator': expected one of 'explicit-euler', .*got "rk4"/],
  ['dt = NaN', ({ w }) => { w.dt = NaN; }, /PhysicsWorld: 'dt': expected a number in \[1e-9, 10\] \(s\), got NaN/],
  ['dt negative', ({ w }) => { w.dt = -0.01; }, /PhysicsWorld: 'dt': expected .*got -0\.01/],
  ['addTriangle without options', ({ w, a, b, c }) => w.addTriangle(a, b, c, undefined as never), /addTriangle: 'options': expected an options object, got undefined/],
  ['addSpring without options', ({ w, a, b }) => w.addSpring(a, b, null as never), /addSpring: 'options': expected an options object, got null/],
  ['addParticle without options', ({ w }) => w.addParticle(undefined as never), /addParticle: 'options': expected an options object/],
  ['readPositions into a too-short array', ({ w }) => w.readPositions(new Float64Array(5)), /readPositions: 'out': expected a Float64Array of at least 6 elements.*got length 5/],
  ['readVelocities into a plain array', ({ w }) => w.readVelocities([] as never), /readVelocities: 'out': expected a Float64Array, got an array of length 0/],
  ['newton.maxIters 65 (the loader\'s range)', ({ w }) => { w.newton = { maxIters: 65 } as never; }, /newton: 'maxIters': expected an integer in \[1, 64\], got 65/],
  ['newton.tolerance 2 (the loader\'s range)', ({ w }) => { w.newton = { tolerance: 2 } as never; }, /newton: 'tolerance': expected a number in \(0, 1\], got 2/],
  ['a particle mass of 5e-324 (a denormal)', ({ w }) => w.addParticle({ x: 0, y: 0, m: 5e-324 }), /addParticle: 'm': expected 0 or a number in \[1e-12, 1e12\] \(kg\), got 5e-324/],
  ['a coordinate of 1e300', ({ w }) => w.addParticle({ x: 1e300, y: 0, m: 1 }), /addParticle: 'x': expected a number with \|x\| <= 1e9 \(m\), got 1e\+300/],
  ['fixed given as a number', ({ w }) => w.addParticle({ x: 0, y: 0, m: 1, fixed: 1 as never }), /addParticle: 'fixed': expected true or false, got 1/],
  ['a body id never created', ({ w }) => w.addParticle({ x: 0, y: 0, m: 1, body: 7 }), /addParticle: 'body': expected 0 or an id from createBody\(\)/],
  ['Poisson ratio 1', ({ w, a, b, c }) => w.addTriangle(a, b, c, { youngsModulus: 1e5, poissonRatio: 1 }), /addTriangle: 'poissonRatio': expected a number in \[-0\.999, 0\.999\], got 1/],
  ['an unknown material', ({ w, a, b, c }) => w.addTriangle(a, b, c, { youngsModulus: 1e5, poissonRatio: 0.3, material: 'jelly' as never }), /addTriangle: 'material': expected one of 'fosssim', .*got "jelly"/],
  ['a rest shape of five numbers', ({ w, a, b, c }) => w.addTriangle(a, b, c, { youngsModulus: 1e5, poissonRatio: 0.3, rest: [0, 0, 1, 0, 0] }), /addTriangle: 'rest': expected 6 numbers, got 5/],
  ['a degenerate rest shape', ({ w, a, b, c }) => w.addTriangle(a, b, c, { youngsModulus: 1e5, poissonRatio: 0.3, rest: [0, 0, 1, 0, 2, 0] }), /addTriangle: 'rest': expected a triangle of non-zero area/],
  ['a vortex with kbs Infinity', ({ w, a, b }) => w.addVortex(a, b, Infinity, 1), /addVortex: 'kbs': expected .*got Infinity/],
  ['gravity of 1e300', ({ w }) => w.addGravity(0, -1e300), /addGravity: 'gy': expected a number with \|f\| <= 1e9, got -1e\+300/],
  ['a zero half-plane normal', ({ w }) => w.addHalfplane(0, 0, 0, 0), /addHalfplane: 'nx', 'ny': expected a non-zero normal/],
  ['a string where a number goes', ({ w }) => w.addHalfplane('0' as never, 0, 0, 1), /addHalfplane: 'px': expected a number .*got "0"/],
  ['a polygon collider with an odd count', ({ w }) => w.addPolygonCollider([0, 0, 1, 0, 1]), /addPolygonCollider: 'points': expected an array of numbers \(a multiple of 2\), at least 6, got 5/],
  ['a polygon collider with NaN', ({ w }) => w.addPolygonCollider([0, 0, 1, 0, NaN, 1]), /addPolygonCollider: 'points'\[4\]: expected .*got NaN/],
  ['a collider velocity of NaN', ({ w, col }) => w.setColliderVelocity(col, NaN, 0), /setColliderVelocity: 'vx': expected .*got NaN/],
  ['a collider pose at Infinity', ({ w, col }) => w.setColliderPose(col, Infinity, 0), /setColliderPose: 'x': expected .*got Infinity/],
  ['a particle id that is a collider', ({ w, a, col }) => w.addSpring(a, col, { alpha: 1 }), /addSpring: 'b': expected a particle of this world, got \d+ \(a Collider entity\)/],
  ['a particle id that is not an integer', ({ w, a }) => w.addSpring(a, 1.5, { alpha: 1 }), /addSpring: 'b': expected a particle of this world, got 1\.5/],
  ['a collider id that is a particle', ({ w, a }) => w.moveColliderTo(a, 0, 0), /moveColliderTo: 'eid': expected a collider of this world, got \d+ \(a Particle entity\)/],
  ['an anchor with negative stiffness', ({ w, a }) => w.setAnchor(a, 0, 0, -5), /setAnchor: 'k': expected .*got -5/],
  ['setParticleFixed with a string', ({ w, a }) => w.setParticleFixed(a, 'yes' as never), /setParticleFixed: 'fixed': expected true or false, got "yes"/],
  ['profile = 1', ({ w }) => { w.profile = 1 as never; }, /PhysicsWorld: 'profile': expected true or false, got 1/],
  ['massMatrix = "full"', ({ w }) => { w.massMatrix = 'full' as never; }, /PhysicsWorld: 'massMatrix': expected one of 'lumped', 'consistent', got "full"/],
  ['removeEntity of a number never created', ({ w }) => w.removeEntity(12345), /removeEntity: 'eid': expected an engine entity of this world, got 12345 \(no live entity/],
];

describe('PhysicsWorld validates every public call like the loader', () => {
  for (const [what, call, message] of MISUSES) {
    it(`${what}: a located InputError, the world unchanged`, () => {
      const s = world();
      s.w.step();
      const hash = s.w.stateHash();
      const counts = JSON.stringify(s.w.lists);
      const settings = JSON.stringify([s.w.dt, s.w.integrator, s.w.newton, s.w.massMatrix, s.w.contacts.cor, s.w.contacts.friction, s.w.contacts.iterations]);
      let err: unknown;
      try {
        call(s);
      } catch (e) {
        err = e;
      }
      expect(err, 'the call was accepted').toBeInstanceOf(InputError);
      expect((err as Error).message).toMatch(message);
      expect(s.w.stateHash()).toBe(hash);
      expect(JSON.stringify(s.w.lists)).toBe(counts);
      expect(JSON.stringify([s.w.dt, s.w.integrator, s.w.newton, s.w.massMatrix, s.w.contacts.cor, s.w.contacts.friction, s.w.contacts.iterations])).toBe(settings);
      s.w.step(); // and it still steps
    });
  }

  it('constructor options are checked like the setters', () => {
    expect(() => new PhysicsWorld({ integrator: 'rk4' as never })).toThrow(/PhysicsWorld: 'integrator': expected one of/);
    expect(() => new PhysicsWorld({ dt: 0 })).toThrow(/PhysicsWorld: 'dt': expected a number in \[1e-9, 10\] \(s\), got 0/);
    expect(() => new PhysicsWorld({ gravity: [0, NaN] })).toThrow(/PhysicsWorld: 'gravity'\[1\]: expected .*got NaN/);
    expect(() => new PhysicsWorld({ newton: { maxIters: 0 } })).toThrow(/newton: 'maxIters'/);
    expect(() => new PhysicsWorld({ newton: { lineSearch: 'yes' as never } })).toThrow(/newton: 'lineSearch': expected true or false/);
  });

  it('addDrag(-10) used to blow up (|x| = 3.1e8 after 120 steps); now it is refused and the world stays bounded', () => {
    const w = new PhysicsWorld({ integrator: 'symplectic-euler' });
    const p = w.addParticle({ x: 0, y: 0, vx: 1, m: 1 });
    expect(() => w.addDrag(-10)).toThrow(InputError);
    for (let i = 0; i < 120; i++) w.step();
    expect(Math.abs(w.c.Particle.x[p]!)).toBeLessThan(10);
  });

  it('the loader and the world agree: maxiters 64 is accepted by both, 65 by neither', () => {
    const scene = (n: number) =>
      `<scene><duration time="0.1"/><integrator type="implicit-euler" dt="0.01" maxiters="${n}"/><particle m="1" px="0" py="0" vx="0" vy="0" fixed="0"/></scene>`;
    expect(() => buildScene(parseSceneXml(scene(64), 'ok.xml')).world.step()).not.toThrow();
    expect(() => parseSceneXml(scene(65), 'bad.xml')).toThrow(/bad\.xml: <integrator>.*'maxiters': expected an integer in \[1, 64\]/);
    expect(() => new PhysicsWorld({ newton: { maxIters: 65 } })).toThrow(/newton: 'maxIters': expected an integer in \[1, 64\], got 65/);
  });

  it('the loader and the world agree on a zero-length damped spring (l0 = 0), and both refuse l0 = -1', () => {
    const scene = (l0: string) =>
      '<scene><duration time="0.1"/><integrator type="explicit-euler" dt="0.01"/>' +
      '<particle m="1" px="0" py="0" vx="0" vy="0" fixed="1"/><particle m="1" px="1" py="0" vx="0" vy="0" fixed="0"/>' +
      `<edge i="0" j="1"/><springforce edge="0" k="10" l0="${l0}"/></scene>`;
    expect(buildScene(parseSceneXml(scene('0'), 'ok.xml')).world.lists.dampedSprings.length).toBe(1);
    expect(() => parseSceneXml(scene('-1'), 'bad.xml')).toThrow(/'l0': expected 0 or a number in \[1e-9, 1e9\] \(m\)/);
    const { w, a, b } = world();
    expect(() => w.addDampedSpring(a, b, { k: 10, l0: -1 })).toThrow(/addDampedSpring: 'l0': expected 0 or a number in \[1e-9, 1e9\] \(m\), got -1/);
  });

  it('values inside the ranges are accepted (zero-length damped springs, COR 1, zero radius)', () => {
    const { w, a, b } = world();
    expect(w.addDampedSpring(a, b, { k: 10, l0: 0 })).toBeGreaterThan(0);
    expect(w.addCircleCollider(0, -5, 1, { cor: 1, friction: 0 })).toBeGreaterThan(0);
    expect(w.addEdge(a, b, 0)).toBeGreaterThan(0);
    w.contacts.cor = 1;
    w.step();
  });
});

describe('the game core checks its options with the same ranges', () => {
  it('SoftSim options: each bad value is a located InputError', async () => {
    const { SoftSim } = await import('../src/game/sim');
    const cases: [object, RegExp][] = [
      [{ pixelsPerMetre: 0 }, /SoftSim: 'pixelsPerMetre': expected a number in \[1e-6, 1e6\] \(px\/m\), got 0/],
      [{ originX: NaN }, /SoftSim: 'originX': expected .*got NaN/],
      [{ restitution: 5 }, /SoftSim: 'restitution': expected a number in \[0, 1\].*got 5/],
      [{ friction: -1 }, /SoftSim: 'friction': expected a number in \[0, 1000\], got -1/],
      [{ dt: -1 }, /PhysicsWorld: 'dt': expected .*got -1/],
      [{ integrator: 'rk4' }, /PhysicsWorld: 'integrator': expected one of/],
      [{ gravity: [0, Infinity] }, /SoftSim: 'gravity'\[1\]: expected .*got Infinity/],
      [{ maxStepsPerFrame: 0 }, /maxStepsPerFrame must be an integer >= 1, got 0/],
    ];
    for (const [opts, re] of cases) {
      let err: unknown;
      try {
        new SoftSim(opts as never);
      } catch (e) {
        err = e;
      }
      expect(err, JSON.stringify(opts)).toBeInstanceOf(InputError);
      expect((err as Error).message).toMatch(re);
    }
    const sim = new SoftSim();
    expect(() => sim.setGravityMetric(0, NaN)).toThrow(/setGravityMetric: 'gy': expected .*got NaN/);
  });
});

describe('the rest of the public surface', () => {
  it('a body whose options are refused leaves no half-built body (jelly, sheet, rope)', async () => {
    const { SoftSim } = await import('../src/game/sim');
    const sim = new SoftSim();
    sim.jelly(100, 100, {});
    const hash = sim.world.stateHash();
    const lists = JSON.stringify(sim.world.lists);
    expect(() => sim.jelly(300, 100, { stiffness: -1 })).toThrow(/jelly: 'stiffness': expected a number in \[1e-30, 1e13\], got -1/);
    expect(() => sim.jelly(300, 100, { poissonRatio: 1 })).toThrow(/jelly: 'poissonRatio': expected/);
    expect(() => sim.sheet(300, 100, { density: NaN })).toThrow(/sheet: 'density': expected .*got NaN/);
    expect(() => sim.jelly(1e12, 100, {})).toThrow(/jelly: 'position \(m, after the pixel conversion\)'\[\d+\]: expected a number with \|x\| <= 1e9/);
    expect(() => sim.rope([0, 0, 1e12, 0], {})).toThrow(/rope: 'points \(m, after the pixel conversion\)'\[2\]/);
    expect(sim.world.stateHash()).toBe(hash);
    expect(JSON.stringify(sim.world.lists)).toBe(lists);
    expect(sim.bodies.length).toBe(1);
  });

  it('meshing refuses sizes whose arrays cannot be allocated (was a RangeError from the typed array)', async () => {
    const { meshBox, meshCircle, meshSheet } = await import('../src/mesh');
    expect(() => meshBox(1, 1, 1e9, 1e9)).toThrow(/meshBox: expected at most 10000000 vertices/);
    expect(() => meshSheet(1, 1, 1e5, 1e5)).toThrow(InputError);
    expect(() => meshCircle(1, 1e6)).toThrow(/meshCircle rings: expected an integer in \[1, 1800\]/);
  });

  it('anchors.setTarget refuses a slot with no anchor and a non-finite target (was silently written)', () => {
    const { w, a } = world();
    const slot = w.setAnchor(a, 0, 0, 100);
    expect(() => w.anchors.setTarget(slot + 1, 0, 0)).toThrow(/anchors\.setTarget: expected a slot in \[0, 1\)/);
    expect(() => w.anchors.setTarget(slot, NaN, 0)).toThrow(/anchors\.setTarget: .*got slot 0, \(NaN, 0\)/);
    w.anchors.setTarget(slot, 1, 1);
    w.step();
  });

  it('simulateTwiceAndCompare refuses a negative step count', async () => {
    const { simulateTwiceAndCompare } = await import('../src/testing');
    expect(() => simulateTwiceAndCompare(() => new PhysicsWorld(), -5)).toThrow(/simulateTwiceAndCompare: 'steps': expected an integer >= 0, got -5/);
  });
});
