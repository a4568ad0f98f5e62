/**
 * The pointer "anchor" force: E = ½ k ‖x_i − p‖², in the implicit solve.
 * Finite-difference checks of gradient and Hessian through the real ForceModel,
 * and world-level behaviour: no topology rebuild, stiff bodies follow the target.
 */
import { describe, expect, it } from 'vitest';
import { PhysicsWorld } from '../src/world';

function triangleWorld(): { world: PhysicsWorld; eids: number[] } {
  const world = new PhysicsWorld({ dt: 1 / 60, gravity: [0, -9.81] });
  const eids = [
    world.addParticle({ x: 0, y: 0, m: 0.1 }),
    world.addParticle({ x: 1, y: 0.1, m: 0.1 }),
    world.addParticle({ x: 0.2, y: 0.9, m: 0.1 }),
  ];
  world.addTriangle(eids[0]!, eids[1]!, eids[2]!, { youngsModulus: 1000, poissonRatio: 0.3, density: 1 });
  return { world, eids };
}

describe('anchor force', () => {
  it('gradient and Hessian match finite differences of the energy', () => {
    const { world, eids } = triangleWorld();
    world.setAnchor(eids[1]!, 1.3, -0.4, 250);
    world.setAnchor(eids[2]!, 0.1, 1.2, 75);
    const model = world.forceModel();
    const t = world.topology();
    const x = Float64Array.from([0.05, -0.02, 1.1, 0.05, 0.25, 0.95]);
    const v = new Float64Array(6);
    const g = new Float64Array(6);
    model.gradient(x, v, g);
    const h = 1e-6;
    for (let i = 0; i < 6; i++) {
      const xp = Float64Array.from(x), xm = Float64Array.from(x);
      xp[i] = xp[i]! + h;
      xm[i] = xm[i]! - h;
      const fd = (model.energy(xp) - model.energy(xm)) / (2 * h);
      expect(g[i]!).toBeCloseTo(fd, 4);
    }
    // Anchor-only Hessian: with and without anchors, the difference is k on the diagonal only.
    const H1 = new Float64Array(t.pattern.rowIdx.length);
    model.hessian(x, v, 1, 0, H1);
    world.clearAnchors();
    const H0 = new Float64Array(t.pattern.rowIdx.length);
    model.hessian(x, v, 1, 0, H0);
    const diff = H1.map((a, i) => a - H0[i]!);
    const expectDiag = new Float64Array(H1.length);
    expectDiag[t.diag[2]!] = 250; expectDiag[t.diag[3]!] = 250;
    expectDiag[t.diag[4]!] = 75; expectDiag[t.diag[5]!] = 75;
    for (let i = 0; i < diff.length; i++) expect(diff[i]!).toBeCloseTo(expectDiag[i]!, 9);
    // FD of the anchor gradient alone (k I) through the model: d g_i / d x_i.
    world.setAnchor(eids[0]!, 0, 0, 400);
    const g0 = new Float64Array(6), g1 = new Float64Array(6);
    const Hs = new Float64Array(H1.length);
    model.hessian(x, v, 1, 0, Hs);
    for (let i = 0; i < 2; i++) {
      const xp = Float64Array.from(x), xm = Float64Array.from(x);
      xp[i] = xp[i]! + h; xm[i] = xm[i]! - h;
      model.gradient(xp, v, g1);
      model.gradient(xm, v, g0);
      expect(Hs[t.diag[i]!]!).toBeCloseTo((g1[i]! - g0[i]!) / (2 * h), 3);
    }
  });

  it('grabbing, moving and releasing keeps the same topology object', () => {
    const { world, eids } = triangleWorld();
    const topo = world.topology();
    const slot = world.setAnchor(eids[0]!, 0, 0, 100);
    expect(slot).toBe(0);
    for (let s = 0; s < 10; s++) {
      world.anchors.setTarget(slot, 0.05 * s, 0.02 * s);
      world.step();
    }
    world.clearAnchors();
    world.step();
    expect(world.topology()).toBe(topo);
    expect(world.anchors.count).toBe(0);
  });

  it('a stiff body follows a dragged anchor without blowing up', () => {
    const world = new PhysicsWorld({ dt: 1 / 60, gravity: [0, -9.81] });
    const ids: number[] = [];
    const n = 4;
    for (let j = 0; j <= n; j++) for (let i = 0; i <= n; i++) ids.push(world.addParticle({ x: i * 0.1, y: j * 0.1, m: 0 }));
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) {
        const a = ids[j * (n + 1) + i]!, b = a + 1, c = ids[(j + 1) * (n + 1) + i]!, d = c + 1;
        world.addTriangle(a, b, d, { youngsModulus: 1e6, poissonRatio: 0.3, density: 50 });
        world.addTriangle(a, d, c, { youngsModulus: 1e6, poissonRatio: 0.3, density: 50 });
      }
    }
    const grab = ids[ids.length - 1]!;
    const slot = world.setAnchor(grab, 0.4, 0.4, 2000);
    const pos = new Float64Array(2 * ids.length);
    for (let s = 0; s < 120; s++) {
      world.anchors.setTarget(slot, 0.4 + 0.01 * s, 0.4 + 0.005 * s);
      world.step();
    }
    world.readPositions(pos);
    for (const p of pos) expect(Number.isFinite(p)).toBe(true);
    const gi = world.particleIndex(grab);
    // The grabbed corner is near the target (gravity on the hanging body pulls it a little below).
    expect(Math.abs(pos[2 * gi]! - 1.59)).toBeLessThan(0.1);
    expect(Math.abs(pos[2 * gi + 1]! - 0.995)).toBeLessThan(0.2);
    // The body keeps its size (stiff): diagonal of the square stays ~0.566 m.
    const dx = pos[2 * gi]! - pos[0]!, dy = pos[2 * gi + 1]! - pos[1]!;
    expect(Math.abs(Math.sqrt(dx * dx + dy * dy) - Math.SQRT2 * 0.4)).toBeLessThan(0.05);
  });
});
