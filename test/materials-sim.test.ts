/**
 * Hyperelastic materials in simulation: squash-and-release recovery (game-mode Newton, lumped and
 * consistent mass) and cantilever convergence to Euler–Bernoulli.
 */
import { describe, expect, it } from 'vitest';
import { PhysicsWorld } from '../src/world';
import { meshBox } from '../src/mesh';
import type { MaterialName } from '../src/elements';
import { mulberry32 } from './elements-helpers';
import { applyFixedToMatrix } from '../src/solver/workspace';

function signedArea(world: PhysicsWorld): { area: number; inverted: number } {
  const t = world.topology();
  const x = world.readPositions();
  const tr = t.triangles;
  let area = 0, inverted = 0;
  for (let e = 0; e < tr.count; e++) {
    const a = 2 * tr.nodes[3 * e]!, b = 2 * tr.nodes[3 * e + 1]!, c = 2 * tr.nodes[3 * e + 2]!;
    const cr = (x[b]! - x[a]!) * (x[c + 1]! - x[a + 1]!) - (x[c]! - x[a]!) * (x[b + 1]! - x[a + 1]!);
    area += 0.5 * cr;
    if (cr <= 0) inverted++;
  }
  return { area, inverted };
}

describe('squash and release', () => {
  const N = 8;
  for (const massMatrix of ['lumped', 'consistent'] as const) {
    for (const material of ['stvk', 'neohookean', 'corotational'] as const satisfies readonly MaterialName[]) {
      it(`${material}, ${massMatrix} mass: a jelly squashed to 5% of its height recovers its area within 2% in 3 s`, () => {
        const world = new PhysicsWorld({ gravity: null, dt: 1 / 60, massMatrix });
        const mesh = meshBox(1, 1, N, N);
        const rnd = mulberry32(7);
        const ids: number[] = [];
        const nv = mesh.positions.length / 2;
        for (let i = 0; i < nv; i++) ids.push(world.addParticle({ x: mesh.positions[2 * i]!, y: mesh.positions[2 * i + 1]!, m: 0 }));
        for (let k = 0; k < mesh.triangles.length; k += 3) {
          world.addTriangle(ids[mesh.triangles[k]!]!, ids[mesh.triangles[k + 1]!]!, ids[mesh.triangles[k + 2]!]!, {
            youngsModulus: 2e4, poissonRatio: 0.3, density: 100, material,
          });
        }
        // squash to 5% of the height, with a seeded jitter (larger than a squashed cell's height) that inverts some triangles
        const P = world.c.Particle;
        for (let i = 0; i < nv; i++) {
          const e = ids[i]!;
          P.y[e] = -0.5 + 0.05 * (P.y[e]! + 0.5) + 0.015 * (rnd() - 0.5);
          P.x[e] = P.x[e]! + 0.3 * (1 / N) * (rnd() - 0.5);
        }
        const before = signedArea(world);
        expect(before.inverted).toBeGreaterThan(5);
        let maxIters = 0;
        for (let s = 0; s < 180; s++) {
          world.step();
          maxIters = Math.max(maxIters, world.lastStats.newtonIters);
        }
        const x = world.readPositions();
        for (const v of x) expect(Number.isFinite(v)).toBe(true);
        const after = signedArea(world);
        console.log(`squash ${material}/${massMatrix}: inverted ${before.inverted} -> ${after.inverted}, area ${before.area.toFixed(4)} -> ${after.area.toFixed(6)} (rest 1), max Newton its ${maxIters}`);
        // stvk included: its energy on signed singular values is inversion-safe (docs/materials.md)
        expect(after.inverted).toBe(0);
        expect(Math.abs(after.area - 1)).toBeLessThan(0.02);
      });
    }
  }
});

/** Static equilibrium by Newton on the potential (exact Hessians; small load, so a few iterations). */
function solveStatic(world: PhysicsWorld): number {
  const t = world.topology();
  const model = world.forceModel();
  const ws = world.workspace();
  const x = world.readPositions();
  const v0 = new Float64Array(t.ndof), g = new Float64Array(t.ndof), d = new Float64Array(t.ndof);
  let iters = 0;
  for (; iters < 20; iters++) {
    model.gradient(x, v0, g);
    for (let i = 0; i < t.ndof; i++) g[i] = t.fixed[i >> 1] === 1 ? 0 : -g[i]!;
    ws.values.fill(0);
    model.hessian(x, v0, 1, 0, ws.values);
    applyFixedToMatrix(t, ws.values);
    ws.solve(g, d);
    let dm = 0;
    for (let i = 0; i < t.ndof; i++) {
      x[i] = x[i]! + d[i]!;
      dm = Math.max(dm, Math.abs(d[i]!));
    }
    if (dm < 1e-12) break;
  }
  const P = world.c.Particle;
  world.lists.particles.forEach((e, i) => {
    P.x[e] = x[2 * i]!;
    P.y[e] = x[2 * i + 1]!;
  });
  return iters;
}

describe('cantilever under gravity', () => {
  it('tip deflection converges towards Euler-Bernoulli q L^4 / (8 E I) under mesh refinement', () => {
    const L = 10, Hh = 1, E = 1e9, nu = 0.3, rho = 100, grav = 9.81;
    const q = rho * grav * Hh, I = Hh ** 3 / 12;
    const eb = (q * L ** 4) / (8 * E * I);
    const rows: string[] = [];
    const ratios: Record<string, number[]> = {};
    for (const material of ['stvk', 'neohookean', 'corotational'] as const) {
      ratios[material] = [];
      for (const [nx, ny] of [[10, 1], [20, 2], [40, 4], [80, 8]] as const) {
        const world = new PhysicsWorld({ gravity: [0, -grav] });
        const mesh = meshBox(L, Hh, nx, ny);
        const nv = mesh.positions.length / 2;
        const ids: number[] = [];
        for (let i = 0; i < nv; i++) {
          const px = mesh.positions[2 * i]!, py = mesh.positions[2 * i + 1]!;
          ids.push(world.addParticle({ x: px, y: py, m: 0, fixed: px === -L / 2 }));
        }
        for (let k = 0; k < mesh.triangles.length; k += 3) {
          world.addTriangle(ids[mesh.triangles[k]!]!, ids[mesh.triangles[k + 1]!]!, ids[mesh.triangles[k + 2]!]!, {
            youngsModulus: E, poissonRatio: nu, density: rho, material,
          });
        }
        const iters = solveStatic(world);
        // tip deflection: mean vertical displacement of the free end's nodes
        const P = world.c.Particle;
        let sum = 0, cnt = 0;
        for (let i = 0; i < nv; i++) {
          if (mesh.positions[2 * i] === L / 2) {
            sum += P.y[ids[i]!]! - mesh.positions[2 * i + 1]!;
            cnt++;
          }
        }
        const tip = -sum / cnt;
        ratios[material].push(tip / eb);
        rows.push(`${material.padEnd(13)} ${String(nx).padStart(3)}x${String(ny).padEnd(2)} tip ${tip.toExponential(4)}  EB ${eb.toExponential(4)}  ratio ${(tip / eb).toFixed(4)}  (${iters} Newton its)`);
      }
    }
    console.log('cantilever convergence (tip deflection / Euler-Bernoulli):\n' + rows.join('\n'));
    for (const r of Object.values(ratios)) {
      // monotone convergence from below (linear triangles are too stiff in bending) ...
      for (let k = 1; k < r.length; k++) expect(r[k]!).toBeGreaterThan(r[k - 1]!);
      // ... to within 10% at the finest mesh
      expect(Math.abs(r[r.length - 1]! - 1)).toBeLessThan(0.1);
    }
    // the three materials agree at this small load
    expect(Math.abs(ratios.stvk!.at(-1)! - ratios.corotational!.at(-1)!)).toBeLessThan(1e-3);
    expect(Math.abs(ratios.neohookean!.at(-1)! - ratios.corotational!.at(-1)!)).toBeLessThan(1e-3);
  });
});
