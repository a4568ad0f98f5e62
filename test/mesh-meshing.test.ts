import { describe, expect, it } from 'vitest';
import {
  meshBox, meshCircle, meshPolygon, meshReport, meshSheet, polygonArea, ropePoints, sinCosTurn, uniqueEdges,
  type MeshData,
} from '../src/mesh';
import { InputError } from '../src/errors';

/** Every property the physics needs from a mesh. */
function expectValid(mesh: MeshData, area: number, label: string, minAngleDeg = 0): ReturnType<typeof meshReport> {
  const r = meshReport(mesh);
  expect(r.nonPositive, `${label}: clockwise/degenerate triangles`).toBe(0);
  expect(r.minArea, `${label}: min area`).toBeGreaterThan(area * 1e-9);
  expect(r.badEdges, `${label}: non-manifold edges`).toBe(0);
  expect(r.unusedVertices, `${label}: unused vertices`).toBe(0);
  expect(r.area, `${label}: area`).toBeCloseTo(area, 9);
  expect(r.minAngleDeg, `${label}: min angle`).toBeGreaterThan(minAngleDeg);
  for (let i = 0; i < mesh.triangles.length; i++) expect(mesh.triangles[i]!).toBeLessThan(mesh.positions.length / 2);
  return r;
}

/** Boundary edges of the mesh must be exactly the resampled outline, each used once, CCW. */
function expectBoundaryIsOutline(mesh: MeshData, nBoundary: number, label: string): void {
  const r = meshReport(mesh);
  expect(r.boundaryEdges.length / 2, `${label}: boundary edge count`).toBe(nBoundary);
  const set = new Set<string>();
  for (let i = 0; i < r.boundaryEdges.length; i += 2) set.add(`${r.boundaryEdges[i]}-${r.boundaryEdges[i + 1]}`);
  for (let i = 0; i < nBoundary; i++) {
    expect(set.has(`${i}-${(i + 1) % nBoundary}`), `${label}: boundary edge ${i}->${(i + 1) % nBoundary}`).toBe(true);
  }
}

function boundaryCount(mesh: MeshData, outline: number[]): number {
  // Boundary samples are the leading vertices lying on the outline; count them via meshReport instead.
  void outline;
  return meshReport(mesh).boundaryEdges.length / 2;
}

describe('sinCosTurn', () => {
  it('matches Math.sin/cos closely and is exact at the quadrant points', () => {
    const sc: [number, number] = [0, 0];
    for (const n of [3, 5, 6, 7, 12, 24, 60, 97, 360]) {
      for (let k = 0; k < n; k++) {
        sinCosTurn(k, n, sc);
        const a = (2 * Math.PI * k) / n;
        expect(Math.abs(sc[0] - Math.sin(a))).toBeLessThan(1e-15);
        expect(Math.abs(sc[1] - Math.cos(a))).toBeLessThan(1e-15);
      }
    }
    expect(sinCosTurn(1, 4, sc)).toEqual([1, 0]);
    expect(sinCosTurn(2, 4, sc)[1]).toBe(-1);
  });
});

describe('meshBox / meshSheet', () => {
  it('box: counts, area, CCW, centred, boundary used once', () => {
    const m = meshBox(2, 1, 8, 4);
    expect(m.positions.length / 2).toBe(9 * 5);
    expect(m.triangles.length / 3).toBe(64);
    const r = expectValid(m, 2, 'box', 44.9);
    expect(r.boundaryEdges.length / 2).toBe(2 * (8 + 4));
    expect(m.positions[0]).toBe(-1);
    expect(m.positions[1]).toBe(-0.5);
    expect(m.positions[m.positions.length - 2]).toBe(1);
    expect(m.positions[m.positions.length - 1]).toBe(0.5);
  });

  it('sheet: hangs below y = 0, top row, unique edges', () => {
    const s = meshSheet(1, 2, 4, 6);
    expectValid(s, 2, 'sheet');
    expect(s.top.length).toBe(5);
    for (const i of s.top) expect(s.positions[2 * i + 1]).toBe(0);
    // Unique edges: horizontal 4*7 + vertical 5*6 + one diagonal per cell 24.
    expect(s.edges.length / 2).toBe(28 + 30 + 24);
    expect(uniqueEdges(s.triangles)).toEqual(s.edges);
  });

  it('rejects bad sizes', () => {
    expect(() => meshBox(0, 1, 1, 1)).toThrow(InputError);
    expect(() => meshBox(1, 1, 0, 1)).toThrow(InputError);
    expect(() => meshSheet(1, 1, 1.5, 1)).toThrow(InputError);
  });
});

describe('meshCircle', () => {
  it('is a valid disc whose area tends to pi r^2', () => {
    for (const rings of [1, 2, 3, 6, 10]) {
      const m = meshCircle(0.5, rings);
      const n = 6 * rings;
      // Area of the inscribed regular n-gon.
      const polyArea = 0.5 * n * 0.25 * Math.sin((2 * Math.PI) / n);
      const r = expectValid(m, polyArea, `circle ${rings}`, 25);
      expect(m.triangles.length / 3).toBe(6 * rings * rings);
      expect(r.boundaryEdges.length / 2).toBe(n);
      // The boundary is the outer ring, CCW.
      const s = m.positions.length / 2 - n;
      const set = new Set<string>();
      for (let i = 0; i < r.boundaryEdges.length; i += 2) set.add(`${r.boundaryEdges[i]}-${r.boundaryEdges[i + 1]}`);
      for (let i = 0; i < n; i++) expect(set.has(`${s + i}-${s + ((i + 1) % n)}`)).toBe(true);
    }
    expect(meshReport(meshCircle(1, 20)).area).toBeCloseTo(Math.PI, 2);
  });
});

describe('ropePoints', () => {
  it('makes segments+1 evenly spaced points with exact endpoints', () => {
    const p = ropePoints(0, 1, 3, -2, 3);
    expect(Array.from(p)).toEqual([0, 1, 1, 0, 2, -1, 3, -2]);
    expect(() => ropePoints(0, 0, 1, 1, 0)).toThrow(InputError);
  });
});

const shapes: Record<string, number[]> = {
  square: [0, 0, 1, 0, 1, 1, 0, 1],
  triangle: [0, 0, 2, 0, 0.3, 1.5],
  lShape: [0, 0, 2, 0, 2, 1, 1, 1, 1, 2, 0, 2],
  uShape: [0, 0, 3, 0, 3, 2, 2, 2, 2, 0.5, 1, 0.5, 1, 2, 0, 2],
  clockwiseSquare: [0, 0, 0, 1, 1, 1, 1, 0],
  comb: [0, 0, 5, 0, 5, 1, 4.5, 1, 4.5, 0.2, 4, 0.2, 4, 1, 3.5, 1, 3.5, 0.2, 3, 0.2, 3, 1, 0, 1],
  thinSliver: [0, 0, 4, 0, 4, 0.05, 0, 0.05],
  sharpSpike: [0, 0, 1, 0, 1, 0.4, 3, 0.45, 1, 0.5, 1, 1, 0, 1],
  star: (() => {
    const s: number[] = [];
    for (let i = 0; i < 10; i++) {
      const r = i % 2 === 0 ? 1 : 0.4;
      const a = (Math.PI * 2 * i) / 10 + 0.1;
      s.push(r * Math.cos(a), r * Math.sin(a));
    }
    return s;
  })(),
  spiral: (() => {
    // A thick spiral arm: outer curve out, inner curve back.
    const outer: number[] = [];
    const inner: number[] = [];
    for (let i = 0; i <= 40; i++) {
      const a = (i / 40) * Math.PI * 3;
      const r = 0.5 + a * 0.3;
      outer.push((r + 0.25) * Math.cos(a), (r + 0.25) * Math.sin(a));
      inner.push(r * Math.cos(a), r * Math.sin(a));
    }
    const s = [...inner];
    for (let i = 40; i >= 0; i--) s.push(outer[2 * i]!, outer[2 * i + 1]!);
    return s;
  })(),
};

describe('meshPolygon', () => {
  for (const [name, outline] of Object.entries(shapes)) {
    for (const h of [0.5, 0.2, 0.1]) {
      it(`${name}, edge length ${h}: covers the polygon with CCW non-degenerate triangles`, () => {
        const m = meshPolygon(outline, h);
        const area = Math.abs(polygonArea(outline));
        expectValid(m, area, `${name}@${h}`);
        // Boundary samples come first and each boundary edge is used by exactly one triangle.
        expectBoundaryIsOutline(m, boundaryCount(m, outline), `${name}@${h}`);
        // No boundary sample segment is longer than the target.
        const r = meshReport(m);
        for (let i = 0; i < r.boundaryEdges.length; i += 2) {
          const a = r.boundaryEdges[i]!, b = r.boundaryEdges[i + 1]!;
          const d = Math.hypot(m.positions[2 * a]! - m.positions[2 * b]!, m.positions[2 * a + 1]! - m.positions[2 * b + 1]!);
          expect(d).toBeLessThanOrEqual(h * (1 + 1e-9));
        }
      });
    }
  }

  it('keeps every outline corner as a vertex and has decent quality on a convex shape', () => {
    const m = meshPolygon(shapes.square!, 0.1);
    const r = meshReport(m);
    expect(r.minAngleDeg).toBeGreaterThan(25);
    for (const [x, y] of [[0, 0], [1, 0], [1, 1], [0, 1]]) {
      let found = false;
      for (let i = 0; i < m.positions.length; i += 2) if (m.positions[i] === x && m.positions[i + 1] === y) found = true;
      expect(found).toBe(true);
    }
    // About the expected number of vertices: area / (sqrt(3)/2 h^2) plus boundary.
    expect(r.vertexCount).toBeGreaterThan(100);
    expect(r.vertexCount).toBeLessThan(180);
  });

  it('is deterministic', () => {
    const a = meshPolygon(shapes.star!, 0.1);
    const b = meshPolygon(shapes.star!, 0.1);
    expect(a.positions).toEqual(b.positions);
    expect(a.triangles).toEqual(b.triangles);
  });

  it('rejects invalid outlines', () => {
    expect(() => meshPolygon([0, 0, 1, 0], 0.1)).toThrow(InputError);
    expect(() => meshPolygon([0, 0, 1, 0, 2, 0], 0.1)).toThrow(InputError);
    expect(() => meshPolygon([0, 0, 1, 1, 1, 0, 0, 1], 0.1)).toThrow(/not simple/);
    expect(() => meshPolygon([0, 0, 1, 0, 1, 1, Number.NaN, 1], 0.1)).toThrow(/not finite/);
    expect(() => meshPolygon(shapes.square!, 0)).toThrow(InputError);
    expect(() => meshPolygon(shapes.square!, 1e-4)).toThrow(/maxVertices/);
  });

  it('accepts a closed outline (repeated first point) and duplicate points', () => {
    const m = meshPolygon([0, 0, 1, 0, 1, 0, 1, 1, 0, 1, 0, 0], 0.5);
    expectValid(m, 1, 'closed');
  });
});
