import { InputError } from '../src/errors';
import { describe, expect, it } from 'vitest';
import { Skin } from '../src/game/skin';
import { mesh2dIndices, mesh2dVertices, uvFromBounds } from '../src/game/mesh2d';
import { meshBox, meshCircle } from '../src/mesh';

function affine(src: ArrayLike<number>, m: [number, number, number, number, number, number]): Float64Array {
  const out = new Float64Array(src.length);
  for (let i = 0; i < src.length; i += 2) {
    const x = src[i]!, y = src[i + 1]!;
    out[i] = m[0] * x + m[1] * y + m[4];
    out[i + 1] = m[2] * x + m[3] * y + m[5];
  }
  return out;
}

describe('Skin', () => {
  const sim = meshBox(2, 1, 4, 2);
  const display = meshBox(2, 1, 16, 8).positions;

  it('binds every display vertex inside the simulation mesh', () => {
    const s = new Skin(sim.positions, sim.triangles, display);
    expect(s.count).toBe(display.length / 2);
    expect(s.outsideCount).toBe(0);
    for (let i = 0; i < s.weight.length; i += 3) {
      expect(s.weight[i]! + s.weight[i + 1]! + s.weight[i + 2]!).toBeCloseTo(1, 12);
      for (let k = 0; k < 3; k++) expect(s.weight[i + k]!).toBeGreaterThanOrEqual(-1e-9);
    }
  });

  it('reproduces the rest pose and follows an affine deformation exactly', () => {
    const s = new Skin(sim.positions, sim.triangles, display);
    const out = new Float64Array(display.length);
    s.update(sim.positions, out);
    for (let i = 0; i < out.length; i++) expect(out[i]).toBeCloseTo(display[i]!, 12);
    const m: [number, number, number, number, number, number] = [1.3, 0.4, -0.2, 0.8, 5, -3];
    s.update(affine(sim.positions, m), out);
    const want = affine(display, m);
    for (let i = 0; i < out.length; i++) expect(out[i]).toBeCloseTo(want[i]!, 12);
  });

  it('a vertex inside a triangle follows that triangle under a non-affine deformation', () => {
    const s = new Skin(sim.positions, sim.triangles, [0.13, 0.07]);
    const t = s.triangle[0]!;
    const deformed = Float64Array.from(sim.positions);
    for (let i = 0; i < deformed.length; i += 2) deformed[i + 1] += 0.3 * deformed[i]! * deformed[i]!; // bend
    const out = new Float64Array(2);
    s.update(deformed, out);
    const [a, b, c] = [sim.triangles[3 * t]!, sim.triangles[3 * t + 1]!, sim.triangles[3 * t + 2]!];
    const [wa, wb, wc] = [s.weight[0]!, s.weight[1]!, s.weight[2]!];
    expect(out[0]).toBeCloseTo(wa * deformed[2 * a]! + wb * deformed[2 * b]! + wc * deformed[2 * c]!, 14);
    expect(out[1]).toBeCloseTo(wa * deformed[2 * a + 1]! + wb * deformed[2 * b + 1]! + wc * deformed[2 * c + 1]!, 14);
    // And the rest-pose barycentric coordinates reproduce the point.
    const r = new Float64Array(2);
    s.update(sim.positions, r);
    expect(r[0]).toBeCloseTo(0.13, 14);
    expect(r[1]).toBeCloseTo(0.07, 14);
  });

  it('binds outside vertices to the nearest triangle (affine extrapolation)', () => {
    const disc = meshCircle(1, 3);
    // A square display grid around the disc: corners are outside the polygonal disc.
    const grid = meshBox(2.2, 2.2, 6, 6).positions;
    const s = new Skin(disc.positions, disc.triangles, grid);
    expect(s.outsideCount).toBeGreaterThan(0);
    const m: [number, number, number, number, number, number] = [0.5, -0.9, 0.9, 0.5, 1, 2];
    const out = new Float64Array(grid.length);
    s.update(affine(disc.positions, m), out);
    const want = affine(grid, m);
    for (let i = 0; i < out.length; i++) expect(out[i]).toBeCloseTo(want[i]!, 10);
  });

  it('writes interleaved pixel output in place (Mesh2D layout) with a y flip', () => {
    const s = new Skin(sim.positions, sim.triangles, display).setOutput({ stride: 4, offset: 0, scaleX: 50, scaleY: -50, translateX: 10 });
    const uv = uvFromBounds(display);
    const buf = mesh2dVertices(display, uv, 50);
    const before = Float32Array.from(buf);
    s.update(sim.positions, buf);
    for (let v = 0; v < s.count; v++) {
      expect(buf[4 * v]).toBeCloseTo(before[4 * v]! + 10, 3);
      expect(buf[4 * v + 1]).toBeCloseTo(before[4 * v + 1]!, 3);
      expect(buf[4 * v + 2]).toBe(before[4 * v + 2]); // uv untouched
      expect(buf[4 * v + 3]).toBe(before[4 * v + 3]);
    }
    expect(() => s.update(sim.positions, new Float32Array(3))).toThrow(InputError);
    expect(() => s.setOutput({ stride: 4, offset: 3 })).toThrow(InputError);
  });
});

describe('Mesh2D helpers', () => {
  it('uv maps the bounds to [0,1] with v = 0 at the bottom (GL convention, Mesh2D flipV = false)', () => {
    const uv = uvFromBounds([0, 0, 2, 0, 2, 1, 0, 1]);
    expect(Array.from(uv)).toEqual([0, 0, 1, 0, 1, 1, 0, 1]);
  });
  it('indices add the texture page', () => {
    expect(mesh2dIndices([0, 1, 2, 2, 3, 0])).toEqual([0, 1, 2, 0, 2, 3, 0, 0]);
  });
});
