import { describe, expect, it } from 'vitest';
import { meshBox, meshCircle, refineMesh } from '../src/mesh';
import { Skin } from '../src/game/skin';

function area(m: { positions: Float64Array; triangles: Uint32Array }): number {
  let s = 0;
  const p = m.positions, t = m.triangles;
  for (let k = 0; k < t.length; k += 3) {
    const a = t[k]!, b = t[k + 1]!, c = t[k + 2]!;
    s += 0.5 * ((p[2 * b]! - p[2 * a]!) * (p[2 * c + 1]! - p[2 * a + 1]!) - (p[2 * c]! - p[2 * a]!) * (p[2 * b + 1]! - p[2 * a + 1]!));
  }
  return s;
}

describe('refineMesh', () => {
  it('splits each triangle into d² CCW triangles, merges shared edge vertices, keeps the area', () => {
    const box = meshBox(2, 1, 2, 1); // 6 vertices, 4 triangles, 9 unique edges
    const r = refineMesh(box, 3);
    expect(r.triangles.length / 3).toBe(4 * 9);
    // V = 6 + 9 edges·2 + 4 triangles·1 interior
    expect(r.positions.length / 2).toBe(6 + 9 * 2 + 4 * 1);
    expect(area(r)).toBeCloseTo(area(box), 12);
    const p = r.positions, t = r.triangles;
    for (let k = 0; k < t.length; k += 3) {
      const a = t[k]!, b = t[k + 1]!, c = t[k + 2]!;
      expect((p[2 * b]! - p[2 * a]!) * (p[2 * c + 1]! - p[2 * a + 1]!) - (p[2 * c]! - p[2 * a]!) * (p[2 * b + 1]! - p[2 * a + 1]!)).toBeGreaterThan(0);
    }
  });

  it('every refined vertex lies inside the simulation mesh (skin binds without extrapolation)', () => {
    const c = meshCircle(1, 2);
    const r = refineMesh(c, 2);
    const skin = new Skin(c.positions, c.triangles, r.positions);
    expect(skin.outsideCount).toBe(0);
  });
});
