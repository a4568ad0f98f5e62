/** Game-mode Newton on the incremental potential: descent, and the armadillo lesson in 2D. */
import { describe, expect, it } from 'vitest';
import { PhysicsWorld } from '../src/world';
import type { NewtonSettings } from '../src/solver/newton';
import { buildJelly } from '../src/cli/bench-jellies';

function stiffJelly(newton: Partial<NewtonSettings> | 'fosssim', integrator: 'implicit-euler' | 'linearized-implicit-euler'): PhysicsWorld {
  const w = new PhysicsWorld({ dt: 1 / 30, integrator, newton });
  const ids: number[] = [];
  const N = 4, L = 0.2;
  const at = (k: number) => [((k % (N + 1)) / N) * L, (Math.floor(k / (N + 1)) / N) * L];
  for (let k = 0; k < (N + 1) * (N + 1); k++) ids.push(w.addParticle({ x: at(k)[0]!, y: at(k)[1]!, m: 0, fixed: k <= N }));
  for (let j = 0; j < N; j++) for (let i = 0; i < N; i++) {
    const a = j * (N + 1) + i, b = a + 1, c = a + N + 2, d = a + N + 1;
    for (const tri of [[a, b, c], [a, c, d]]) {
      w.addTriangle(ids[tri[0]!]!, ids[tri[1]!]!, ids[tri[2]!]!, { youngsModulus: 1e9, poissonRatio: 0.3, density: 100, rest: tri.flatMap(at) });
    }
  }
  // squash it to 40% of its height and kick it sideways
  const P = w.c.Particle;
  for (let k = N + 1; k < ids.length; k++) {
    P.y[ids[k]!] = P.y[ids[k]!]! * 0.4;
    P.vx[ids[k]!] = 5;
  }
  return w;
}

function run(w: PhysicsWorld, steps: number): { maxPos: number; maxVel: number; finalVel: number; finite: boolean } {
  let maxPos = 0, maxVel = 0, finalVel = 0, finite = true;
  for (let s = 0; s < steps; s++) {
    try {
      w.step();
    } catch {
      finite = false; // the linear solve gave up on a non-finite system
      break;
    }
    const p = w.readPositions(), v = w.readVelocities();
    finalVel = 0;
    for (let i = 0; i < p.length; i++) {
      if (!Number.isFinite(p[i]!) || !Number.isFinite(v[i]!)) finite = false;
      maxPos = Math.max(maxPos, Math.abs(p[i]!));
      finalVel = Math.max(finalVel, Math.abs(v[i]!));
    }
    maxVel = Math.max(maxVel, finalVel);
    if (!finite) break;
  }
  return { maxPos, maxVel, finalVel, finite };
}

describe('game-mode Newton', () => {
  it('a failed LDLᵀ pivot is retried with a slightly raised diagonal (no dense LU, no fail-safe)', () => {
    const w = new PhysicsWorld({ dt: 1 / 60 });
    buildJelly(200, w);
    w.step();
    const ldlt = w.workspace().solver!.ldlt;
    const real = ldlt.factor.bind(ldlt);
    let calls = 0;
    ldlt.factor = (v: Float64Array): boolean => {
      calls++;
      return calls === 1 ? false : real(v); // the first factorization of the step "breaks down"
    };
    w.step();
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(w.lastStats.failSafe).toBe('');
    expect(w.lastStats.linearPath).toBe('ldlt');
    expect(w.lastStats.converged).toBe(true);
  });

  it('every accepted Newton step lowers the incremental potential', () => {
    const w = new PhysicsWorld({ dt: 1 / 60 });
    buildJelly(200, w);
    const P = w.c.Particle;
    for (const e of w.lists.particles) if (P.fixed[e] === 0) P.vx[e] = 3 * (P.y[e]! - 0.5);
    let checked = 0;
    for (let s = 0; s < 30; s++) {
      w.step();
      const nw = w.newtonSolver();
      for (let k = 1; k < nw.phiCount; k++) {
        expect(nw.phiHistory[k]!).toBeLessThan(nw.phiHistory[k - 1]!);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(30);
  });

  it('the armadillo lesson in 2D: unprojected linearized implicit Euler blows up on a stiff squashed jelly; Newton with line search stays bounded and comes to rest', () => {
    const lin = run(stiffJelly('fosssim', 'linearized-implicit-euler'), 300);
    const blewUp = !lin.finite || lin.maxPos > 5 || lin.maxVel > 100;
    expect(blewUp).toBe(true);
    for (const integ of ['implicit-euler', 'linearized-implicit-euler'] as const) {
      const nw = run(stiffJelly({}, integ), 300);
      expect(nw.finite).toBe(true);
      expect(nw.maxPos).toBeLessThan(0.5);
      expect(nw.finalVel).toBeLessThan(1e-6);
    }
  });

  it('rejects vortex forces in game mode with a clear InputError', () => {
    const w = new PhysicsWorld();
    const a = w.addParticle({ x: 0, y: 0, m: 1 }), b = w.addParticle({ x: 1, y: 0, m: 1 });
    // refused when made (it used to throw at the next step): the world is unchanged and still steps
    expect(() => w.addVortex(a, b, 1, 1)).toThrow(/addVortex: vortex forces need FOSSSim semantics/);
    expect(w.lists.vortices.length).toBe(0);
    w.step();
    // and switching a world with a vortex into game mode is refused the same way
    const e = new PhysicsWorld({ newton: 'fosssim' });
    e.addVortex(e.addParticle({ x: 0, y: 0, m: 1 }), e.addParticle({ x: 1, y: 0, m: 1 }), 1, 1);
    expect(() => { e.newton = { maxIters: 5 } as never; }).toThrow(/PhysicsWorld: 'newton': vortex forces need FOSSSim semantics/);
    expect(e.newton).toBe('fosssim');
    const f = new PhysicsWorld({ newton: 'fosssim' });
    const c = f.addParticle({ x: 0, y: 0, m: 1 }), d = f.addParticle({ x: 1, y: 0, m: 1 });
    f.addVortex(c, d, 1, 1);
    expect(() => f.step()).not.toThrow();
  });

  it('PCG with a reused LDLT factor matches the direct path', () => {
    const a = new PhysicsWorld(), b = new PhysicsWorld();
    buildJelly(400, a);
    buildJelly(400, b);
    a.step();
    b.step();
    b.newtonSolver().pcgMinDofs = 0;
    for (let s = 0; s < 20; s++) {
      a.step();
      b.step();
    }
    expect(b.lastStats.linearPath).toMatch(/pcg-ldlt|ldlt/);
    const pa = a.readPositions(), pb = b.readPositions();
    let d = 0;
    for (let i = 0; i < pa.length; i++) d = Math.max(d, Math.abs(pa[i]! - pb[i]!));
    expect(d).toBeLessThan(1e-4);
  });
});
