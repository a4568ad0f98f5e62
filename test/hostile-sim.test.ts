/**
 * Issue 16, item 2 (API side): a FOSSSim-exact step that is singular or leaves a non-finite state
 * throws a SimulationError with the step, time, reason and (when known) particle, and the world
 * stays at its last good state. Before, the solver's plain Error escaped (an `internal error` in
 * the CLI) or NaN was left in the state.
 */
import { describe, expect, it } from 'vitest';
import { InputError, SimulationError } from '../src/errors';
import { DENSE_MAX_DOFS } from '../src/solver/topology';
import { PhysicsWorld } from '../src/world';
import { parseSceneXml } from '../src/scene/xml';
import { buildScene } from '../src/scene/build';

function world(body: string, integrator: string, dt: string) {
  const text = `<scene><duration time="100"/><integrator type="${integrator}" dt="${dt}"/>${body}</scene>`;
  return buildScene(parseSceneXml(text, 's.xml')).world;
}

function failure(w: { step(): void }, maxSteps: number): SimulationError {
  for (let s = 0; s < maxSteps; s++) {
    try {
      w.step();
    } catch (e) {
      expect(e).toBeInstanceOf(SimulationError);
      return e as SimulationError;
    }
  }
  throw new Error('expected a SimulationError');
}

const SPRING = `<particle m="1" px="0" py="0" vx="0" vy="0" fixed="1"/><particle m="1" px="1.5" py="0" vx="0" vy="0" fixed="0"/>
<edge i="0" j="1"/><springforce edge="0" k="1000" l0="1"/>`;

describe('SimulationError from world.step() in FOSSSim mode', () => {
  it('a diverging explicit integrator: step, time, the particle, and the last good (finite) state kept', () => {
    const w = world(SPRING, 'explicit-euler', '0.5');
    const e = failure(w, 1000);
    expect(e.reason).toMatch(/^the state became non-finite; the explicit integrator diverged/);
    expect(e.element).toMatch(/^particle 1 /);
    expect(e.step).toBe(w.stepCount + 1);
    expect(e.time).toBe(e.step * 0.5);
    expect(e.message).toBe(`the simulation failed at step ${e.step} (t = ${e.time}): ${e.reason} (${e.element})`);
    const x = w.readPositions(), v = w.readVelocities();
    expect([...x, ...v].every(Number.isFinite)).toBe(true);
    // the world is usable: the same step fails the same way again
    expect(failure(w, 1).step).toBe(e.step);
  });

  it('a singular implicit system: the solver message as the reason, state unchanged', () => {
    const w = world(`<particle m="1" px="0" py="0" vx="0" vy="0" fixed="0"/><particle m="1" px="1" py="0" vx="0" vy="0" fixed="0"/>
<vortexforce i="0" j="1" kbs="1e13" kvc="-1e13"/>`, 'implicit-euler', '0.1');
    const before = w.readPositions();
    const e = failure(w, 1);
    expect(e.step).toBe(1);
    expect(e.reason).toBe('the system matrix is singular');
    expect(e.cause).toBeInstanceOf(Error);
    expect(w.readPositions()).toEqual(before);
    expect(w.stepCount).toBe(0);
  });

  it('a singular symmetric system (masses at the bottom of their range, stiffness at the top): the sparse solver\'s message', () => {
    // the "SymmetricSolver: matrix is singular" internal errors, with in-range values
    const w = world(`<particle m="1e-12" px="0" py="0" vx="0" vy="0" fixed="0"/><particle m="1e-12" px="1.5" py="0" vx="0" vy="0" fixed="0"/>
<elasticbodyspringforce i1="0" i2="1" alpha="1e13" l0="1"/>`, 'implicit-euler', '10');
    const e = failure(w, 1);
    expect(e.message).toMatch(/^the simulation failed at step 1 \(t = 10\): SymmetricSolver: matrix is singular \(full-pivot LU rank \d < n = 4\)/);
    expect(w.stepCount).toBe(0);
  });
});

describe('the dense LU of non-symmetric FOSSSim forces is bounded', () => {
  const scene = (n: number) => {
    const w = new PhysicsWorld({ dt: 0.01, gravity: null, integrator: 'implicit-euler', newton: 'fosssim' });
    const p = Array.from({ length: n }, (_, i) => w.addParticle({ x: i, y: 0, m: 1 }));
    w.addVortex(p[0]!, p[1]!, 1, 0.5);
    return w;
  };

  it(`more than ${DENSE_MAX_DOFS / 2} particles with a vortex: an InputError saying why, before any allocation of the n² matrix`, () => {
    const w = scene(DENSE_MAX_DOFS / 2 + 1);
    expect(() => w.step()).toThrow(InputError);
    expect(() => w.step()).toThrow(/513 particles with a damped spring .* or a vortex .*dense LU of 1026 × 1026 .*expected at most 512 particles/);
  });

  it('the issue\'s 5,000-particle damped-spring scene (XML): an InputError at the first step, the world unchanged', () => {
    const parts = Array.from({ length: 5000 }, (_, i) => `<particle m="1" px="${i % 100}" py="${Math.floor(i / 100)}" vx="0" vy="0" fixed="0"/>`).join('');
    const w = world(`${parts}<edge i="0" j="1"/><springforce edge="0" k="10" l0="1" b="0.5"/>`, 'implicit-euler', '0.01');
    expect(() => w.step()).toThrow(InputError);
    expect(() => w.step()).toThrow(/5000 particles with a damped spring .* or a vortex .*dense LU of 10000 × 10000 .*expected at most 512 particles/);
    expect(w.stepCount).toBe(0);
  });

  it('a small scene with a vortex still runs', () => {
    const w = scene(8);
    w.step();
    expect(w.stepCount).toBe(1);
  });
});
