/**
 * The O(N log N) simple-polygon sweep (src/mesh/simple-polygon.ts, issue 16 item 5): large valid
 * polygons validate fast, a crossing anywhere in a large polygon is reported with its edge indices,
 * and on many seeded random small polygons (integer grids, so collinear and touching cases are
 * common) the verdict agrees with the every-pair check below, which the loader used before.
 */
import { describe, expect, it } from 'vitest';
import { edgesMeet, orient, polygonProblem } from '../src/mesh/simple-polygon';
import { Rng } from '../src/math/rng';
import { PhysicsWorld } from '../src/world';
import { parseSceneXml } from '../src/scene/xml';

/** The reference: every pair of edges, plain floating-point orientation (exact on small integers). */
function quadraticProblem(p: number[]): boolean {
  const n = p.length / 2;
  const X = (i: number) => p[2 * (i % n)]!;
  const Y = (i: number) => p[2 * (i % n) + 1]!;
  const o = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number) => Math.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));
  let area2 = 0;
  for (let i = 0; i < n; i++) {
    if (X(i) === X(i + 1) && Y(i) === Y(i + 1)) return true;
    area2 += X(i) * Y(i + 1) - X(i + 1) * Y(i);
  }
  for (let i = 0; i < n; i++) {
    const dot = (X(i + 1) - X(i)) * (X(i + 2) - X(i + 1)) + (Y(i + 1) - Y(i)) * (Y(i + 2) - Y(i + 1));
    if (o(X(i), Y(i), X(i + 1), Y(i + 1), X(i + 2), Y(i + 2)) === 0 && dot < 0) return true;
  }
  const on = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number) =>
    Math.min(ax, bx) <= cx && cx <= Math.max(ax, bx) && Math.min(ay, by) <= cy && cy <= Math.max(ay, by);
  for (let i = 0; i < n; i++) {
    for (let j = i + 2; j < n; j++) {
      if (i === 0 && j === n - 1) continue;
      const ax = X(i), ay = Y(i), bx = X(i + 1), by = Y(i + 1), cx = X(j), cy = Y(j), dx = X(j + 1), dy = Y(j + 1);
      const o1 = o(ax, ay, bx, by, cx, cy), o2 = o(ax, ay, bx, by, dx, dy), o3 = o(cx, cy, dx, dy, ax, ay), o4 = o(cx, cy, dx, dy, bx, by);
      if (o1 * o2 < 0 && o3 * o4 < 0) return true;
      if ((o1 === 0 && on(ax, ay, bx, by, cx, cy)) || (o2 === 0 && on(ax, ay, bx, by, dx, dy)) ||
        (o3 === 0 && on(cx, cy, dx, dy, ax, ay)) || (o4 === 0 && on(cx, cy, dx, dy, bx, by))) return true;
    }
  }
  return area2 === 0;
}

/** A star-shaped simple polygon of n points (radii vary, angles increase; `rng` null: a circle). */
function star(n: number, rng: Rng | null): number[] {
  const p: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = (2 * Math.PI * i) / n, r = rng ? 1 + 0.5 * rng.next() : 1;
    p.push(r * Math.cos(t), r * Math.sin(t));
  }
  return p;
}

describe('simple-polygon sweep', () => {
  it('agrees with the every-pair check on 20,000 seeded random small polygons (integer grid)', () => {
    const rng = new Rng(1234);
    let bad = 0, good = 0;
    for (let k = 0; k < 20000; k++) {
      const n = 3 + Math.floor(rng.next() * 8);
      const grid = 2 + Math.floor(rng.next() * 5);
      const p: number[] = [];
      for (let i = 0; i < 2 * n; i++) p.push(Math.floor(rng.next() * grid));
      const expected = quadraticProblem(p);
      const got = polygonProblem(p);
      if ((got !== '') !== expected) throw new Error(`disagreement on ${JSON.stringify(p)}: sweep '${got}', every-pair ${expected}`);
      const m = /edges (\d+) and (\d+) intersect/.exec(got);
      if (m) expect(edgesMeet(p, n, Number(m[1]), Number(m[2]))).toBe(true); // the pair reported really meets
      if (expected) bad++;
      else good++;
    }
    expect(good).toBeGreaterThan(1000); // both verdicts well represented
    expect(bad).toBeGreaterThan(1000);
  });

  it('agrees on seeded random star polygons with one vertex moved (real-valued coordinates)', () => {
    const rng = new Rng(99);
    for (let k = 0; k < 3000; k++) {
      const p = star(4 + Math.floor(rng.next() * 20), rng);
      const v = Math.floor(rng.next() * (p.length / 2));
      p[2 * v] = 3 * (rng.next() - 0.5);
      p[2 * v + 1] = 3 * (rng.next() - 0.5);
      expect(polygonProblem(p) !== '').toBe(quadraticProblem(p));
    }
  });

  it('validates a 30,000-point polygon in well under a second', () => {
    const p = star(30000, new Rng(7));
    const t0 = performance.now();
    expect(polygonProblem(p)).toBe('');
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('reports a crossing anywhere in a large polygon with its edge indices', () => {
    const n = 30000;
    for (const at of [0, 1234, 17000, n - 2]) {
      const p = star(n, null);
      // swap points at and at+1 of a circle: edges at−1 (A→C) and at+1 (B→D) are chords of four
      // points in convex position that interleave, so they cross, and no other pair does
      const i = at, j = at + 1;
      [p[2 * i], p[2 * j]] = [p[2 * j]!, p[2 * i]!];
      [p[2 * i + 1], p[2 * j + 1]] = [p[2 * j + 1]!, p[2 * i + 1]!];
      const t0 = performance.now();
      const problem = polygonProblem(p);
      expect(performance.now() - t0).toBeLessThan(1000);
      const m = /edges (\d+) and (\d+) intersect/.exec(problem);
      expect(m, problem).not.toBeNull();
      const a = Number(m![1]), b = Number(m![2]);
      expect(edgesMeet(p, n, a, b)).toBe(true);
      expect([a, b]).toEqual([(i + n - 1) % n, j].sort((x, y) => x - y));
    }
  });

  it('orient is exact where floating point is not', () => {
    // three points on the line y = x scaled so the float determinant rounds to a non-zero value
    const a = 0.1, b = 0.2, c = 0.30000000000000004;
    expect(orient(a, a, b, b, c, c)).toBe(0);
    expect(orient(0, 0, 1, 1e-300, 2, 2e-300)).toBe(0);
    expect(orient(0, 0, 1, 1e-300, 2, 3e-300)).toBe(1);
    expect(orient(1e9, 1e9, -1e9, -1e9, 1e9 - 1e-7, 1e9 - 1e-7)).toBe(0);
  });

  it('addPolygonCollider and <polygoncollider> refuse a self-intersecting polygon and take 30,000 points', () => {
    const w = new PhysicsWorld({ gravity: null });
    expect(() => w.addPolygonCollider([0, 0, 1, 1, 1, 0, 0, 1])).toThrow(/addPolygonCollider: 'points': expected a simple polygon; edges 0 and 2 intersect/);
    expect(w.colliders.length).toBe(0);
    const big = star(30000, new Rng(3));
    expect(w.addPolygonCollider(big)).toBeGreaterThan(0);
    const text = `<scene><duration time="1"/><integrator type="implicit-euler" dt="0.01"/><collision type="game"/>` +
      `<polygoncollider points="${big.join(' ')}"/></scene>`;
    expect(parseSceneXml(text, 'big.xml').colliders[0]!.type).toBe('polygon');
  });
});
