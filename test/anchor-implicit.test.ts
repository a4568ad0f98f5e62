/**
 * Regression: pointer anchors must be part of the game-mode implicit solve
 * (their Hessian k·I assembled), so a stiff drag spring pulls a particle to the
 * pointer in one step instead of crawling along a gradient direction.
 */
import { describe, expect, it } from 'vitest';
import { PhysicsWorld } from '../src/world';

describe('pointer anchors in game-mode Newton', () => {
  it('assembles the anchor stiffness into the projected Hessian', () => {
    const w = new PhysicsWorld({ gravity: null });
    const p = w.addParticle({ x: 0, y: 0, m: 1 });
    w.setAnchor(p, 1, 0, 500);
    const t = w.topology();
    const values = new Float64Array(t.pattern.nnz);
    w.forceModel().hessianPSD(w.readPositions(), 2, values);
    expect(values[t.diag[0]!]).toBe(1000);
    expect(values[t.diag[1]!]).toBe(1000);
  });

  it('a stiff anchor brings a light particle to the pointer in one step', () => {
    const w = new PhysicsWorld({ gravity: null });
    const p = w.addParticle({ x: 0, y: 0, m: 0.01 });
    w.setAnchor(p, 1, 0, 1e6);
    w.step();
    const x = w.readPositions();
    // Backward Euler on m ẍ = −k (x − p): x1 = h²k/(m + h²k) ≈ 0.9996 for these values.
    expect(x[0]).toBeGreaterThan(0.99);
    expect(x[0]).toBeLessThan(1.0001);
    expect(Number.isFinite(w.readVelocities()[0]!)).toBe(true);
  });
});
