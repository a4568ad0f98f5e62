/**
 * Contact robustness (src/collision/implicit.ts, src/systems/pipeline.ts): the IPC log barrier and its
 * derivatives, continuous collision detection in the line search, hard impacts (jellies dropped
 * from 5 m and more onto a pile), and fail-safe steps (no NaN ever reaches the world).
 */
import { describe, expect, it } from 'vitest';
import { barrierB, barrierB1, barrierB2, ContactPotential, KIND_EDGE, KIND_PLANE } from '../src/collision/implicit';
import { PhysicsWorld } from '../src/world';
import { makeJellyPile } from '../src/cli/bench-jellies';
import { SoftSim } from '../src/game/sim';
import { MAX_HELD_ISLANDS } from '../src/systems/pipeline';

/** Boundary edges (used by one triangle) of the world's meshes. */
function boundaryEdges(w: PhysicsWorld): [number, number][] {
  const t = w.topology(), tr = t.triangles, use = new Map<number, number>();
  const key = (a: number, b: number): number => (a < b ? a * t.n + b : b * t.n + a);
  for (let e = 0; e < tr.count; e++) for (let k = 0; k < 3; k++) {
    const kk = key(tr.nodes[3 * e + k]!, tr.nodes[3 * e + ((k + 1) % 3)]!);
    use.set(kk, (use.get(kk) ?? 0) + 1);
  }
  const out: [number, number][] = [];
  for (let e = 0; e < tr.count; e++) for (let k = 0; k < 3; k++) {
    const a = tr.nodes[3 * e + k]!, b = tr.nodes[3 * e + ((k + 1) % 3)]!;
    if (use.get(key(a, b)) === 1) out.push([a, b]);
  }
  return out;
}

/** Inside the closed polygon `edges` (even–odd rule), or the distance to it (positive) — nearest boundary either way. */
function polygonTest(px: number, py: number, edges: [number, number][], X: (i: number) => number, Y: (i: number) => number): [boolean, number] {
  let inside = false, dist = Infinity;
  for (const [a, b] of edges) {
    const xa = X(a), ya = Y(a), xb = X(b), yb = Y(b);
    if ((ya > py) !== (yb > py) && px < ((xb - xa) * (py - ya)) / (yb - ya) + xa) inside = !inside;
    const ex = xb - xa, ey = yb - ya;
    const al = Math.max(0, Math.min(1, ((px - xa) * ex + (py - ya) * ey) / (ex * ex + ey * ey)));
    dist = Math.min(dist, Math.sqrt((px - xa - al * ex) ** 2 + (py - ya - al * ey) ** 2));
  }
  return [inside, dist];
}

interface Penetration {
  /** Deepest boundary (contact) particle inside another body's boundary polygon: what contact must prevent. */
  boundary: number;
  /**
   * Deepest interior node inside another body that is outside its own body's boundary polygon: a
   * corner whose elements inverted and folded out through its own boundary (the default `fosssim`
   * CST is reflection-invariant, so a folded corner is a rest state). The fold overlaps the
   * neighbour, but no boundary crossed: an element inversion, not a contact failure.
   */
  folded: number;
  /** Deepest interior node inside another body and still inside its own boundary (would mean the boundaries overlap). */
  interior: number;
}

/**
 * Particles inside another body: inside its boundary polygon (even–odd rule), depth = the distance
 * to that boundary, split into boundary particles and interior nodes (folded or not, see
 * Penetration). Inside a triangle is not used: an inverted element covers points outside its body.
 */
function penetration(w: PhysicsWorld, edges: [number, number][]): Penetration {
  const t = w.topology(), P = w.c.Particle;
  const X = (i: number): number => P.x[t.particleEids[i]!]!, Y = (i: number): number => P.y[t.particleEids[i]!]!;
  const body = (i: number): number => P.body[t.particleEids[i]!]!;
  const byBody = new Map<number, [number, number][]>(), onBoundary = new Uint8Array(t.n);
  for (const e of edges) {
    const B = body(e[0]);
    if (!byBody.has(B)) byBody.set(B, []);
    byBody.get(B)!.push(e);
    onBoundary[e[0]] = onBoundary[e[1]] = 1;
  }
  const out: Penetration = { boundary: 0, folded: 0, interior: 0 };
  for (let i = 0; i < t.n; i++) {
    const px = X(i), py = Y(i);
    for (const [B, eB] of byBody) {
      if (B === body(i)) continue;
      const [inside, d] = polygonTest(px, py, eB, X, Y);
      if (!inside) continue;
      if (onBoundary[i] === 1) out.boundary = Math.max(out.boundary, d);
      else if (polygonTest(px, py, byBody.get(body(i)) ?? [], X, Y)[0]) out.interior = Math.max(out.interior, d);
      else out.folded = Math.max(out.folded, d);
    }
  }
  return out;
}

/**
 * The bench's stirred scene with an inversion-safe material (four Neo-Hookean jellies in a box) and the paddle
 * `addPaddle` makes at (x, y), diving at 1 m/s for a second, then sweeping sideways for 40 steps: the deepest boundary
 * particle inside another body at a check every 10 steps, and the particles' radius. No step fails safe, nothing is NaN.
 */
function drivenPaddle(addPaddle: (w: PhysicsWorld, x: number, y: number) => number): { deepest: number; radius: number } {
  const w = new PhysicsWorld({ dt: 1 / 60 });
  const pile = makeJellyPile(w, 4, 256, { material: 'neohookean', youngsModulus: 8e4 });
  const paddle = addPaddle(w, -pile.halfWidth + 0.2, 1.4);
  const edges = boundaryEdges(w), radius = w.c.Particle.radius[w.lists.particles[0]!]!;
  let deepest = 0;
  for (let s = 0; s < 100; s++) {
    w.setColliderVelocity(paddle, s < 60 ? 0 : 1.5, s < 60 ? -1 : 0.2);
    w.step();
    if (s % 10 === 9) deepest = Math.max(deepest, penetration(w, edges).boundary);
    expect(w.lastStats.failSafe).toBe('');
  }
  expect(allFinite(w)).toBe(true);
  return { deepest, radius };
}

function allFinite(w: PhysicsWorld): boolean {
  const P = w.c.Particle;
  for (const e of w.lists.particles) {
    if (!Number.isFinite(P.x[e]!) || !Number.isFinite(P.y[e]!) || !Number.isFinite(P.vx[e]!) || !Number.isFinite(P.vy[e]!)) return false;
  }
  return true;
}

/**
 * Two Neo-Hookean jellies (128 triangles) stacked in a narrow box, and a circle (r = 0.15 m; `square`: a square of side
 * 0.3 m) above them that `drive` moves each step (it gets the world, the step, the paddle and the lower jelly's body)
 * for `release` + 30 steps: the particles inside the paddle just before step `release`, the largest move the response
 * made in steps release … release + 3, the particles inside the paddle at the end, the deepest boundary particle inside
 * another body (a check every 5 steps) and the particles' radius. No step fails safe.
 */
function pressedStack(release: number, drive: (w: PhysicsWorld, step: number, paddle: number, lower: number) => void, square = false) {
  const w = new PhysicsWorld({ dt: 1 / 60 });
  const pile = makeJellyPile(w, 2, 128, { material: 'neohookean', youngsModulus: 8e4, columns: 1 });
  for (let s = 0; s < 60; s++) w.step();
  const R = 0.15, y = 1.45;
  const paddle = square ? w.addPolygonCollider([-R, y - R, R, y - R, R, y + R, -R, y + R]) : w.addCircleCollider(0, y, R);
  const P = w.c.Particle, K = w.c.Collider, t = w.topology(), edges = boundaryEdges(w);
  const solved = new Float64Array(2 * t.n);
  let step = 0, releaseMove = 0, deepest = 0;
  w.addSystem('solve', (ctx) => solved.set(ctx.x));
  w.addSystem('response', (ctx) => {
    if (step < release || step >= release + 4) return;
    for (let i = 0; i < t.n; i++) releaseMove = Math.max(releaseMove, Math.hypot(ctx.x[2 * i]! - solved[2 * i]!, ctx.x[2 * i + 1]! - solved[2 * i + 1]!));
  });
  const inside = (dx: number, dy: number): boolean => (square ? Math.abs(dx) < R && Math.abs(dy) < R : Math.hypot(dx, dy) < R);
  const insidePaddle = (): number => w.lists.particles.filter((e) => inside(P.x[e]! - K.px[paddle]!, P.y[e]! - K.py[paddle]!)).length;
  let heldAtRelease = 0;
  for (step = 0; step < release + 30; step++) {
    if (step === release) heldAtRelease = insidePaddle();
    drive(w, step, paddle, pile.bodies[0]!);
    w.step();
    expect(w.lastStats.failSafe).toBe('');
    if (step % 5 === 4) deepest = Math.max(deepest, penetration(w, edges).boundary);
  }
  expect(allFinite(w)).toBe(true);
  return { heldAtRelease, releaseMove, insideAtEnd: insidePaddle(), deepest, radius: P.radius[w.lists.particles[0]!]! };
}

describe('IPC log barrier', () => {
  it('b, b\', b\'\' match central differences, vanish with their derivatives at d̂ (C²), and b → ∞ as d → 0', () => {
    const dh = 0.025, hd = 1e-9;
    for (const d of [1e-4, 0.003, 0.01, 0.02, 0.0249]) {
      expect(Math.abs((barrierB(d + hd, dh) - barrierB(d - hd, dh)) / (2 * hd) - barrierB1(d, dh))).toBeLessThan(1e-6 * Math.max(1, Math.abs(barrierB1(d, dh))));
      expect(Math.abs((barrierB1(d + hd, dh) - barrierB1(d - hd, dh)) / (2 * hd) - barrierB2(d, dh))).toBeLessThan(1e-5 * Math.max(1, Math.abs(barrierB2(d, dh))));
      expect(barrierB2(d, dh)).toBeGreaterThan(0); // convex
      expect(barrierB1(d, dh)).toBeLessThan(0); // repulsive
    }
    expect(Math.abs(barrierB(dh * (1 - 1e-6), dh))).toBeLessThan(1e-15);
    expect(Math.abs(barrierB1(dh * (1 - 1e-6), dh))).toBeLessThan(1e-12);
    expect(Math.abs(barrierB2(dh * (1 - 1e-6), dh))).toBeLessThan(1e-4);
    expect(barrierB(dh, dh)).toBe(0);
    expect(barrierB(0, dh)).toBe(Infinity);
    expect(barrierB(1e-12, dh)).toBeGreaterThan(1e-2);
  });

  it('a barrier pair: energy gradient matches differences, its Hessian is (κ + κ_b b\'\') ∇d∇dᵀ, and the energy grows without bound at the surface', () => {
    const xt = Float64Array.from([0.1, 0.52, -0.4, 0.47, 0.6, 0.55]);
    const pot = new ContactPotential();
    pot.add(KIND_EDGE, 0, 1, 2, 0, 0, 0, 0, 0.08, 3e4, 0, 0, 1e-3, xt, 0, 1);
    expect(pot.barrierKappa(0)).toBeGreaterThan(0);
    const x = Float64Array.from([0.1004, 0.5291, -0.4, 0.471, 0.6, 0.55]);
    const q = new Float64Array(4);
    pot.geom(0, x, q);
    expect(q[0]).toBeGreaterThan(0);
    expect(q[0]).toBeLessThan(0.08);
    const g = new Float64Array(6);
    pot.gradient(x, g);
    const hd = 1e-8;
    for (let i = 0; i < 6; i++) {
      const xp = x.slice(), xm = x.slice();
      xp[i] = xp[i]! + hd;
      xm[i] = xm[i]! - hd;
      expect(Math.abs((pot.energy(xp) - pot.energy(xm)) / (2 * hd) - g[i]!)).toBeLessThan(1e-5 * Math.max(1, Math.abs(g[i]!)));
    }
    const H = new Float64Array(36);
    pot.localHessian(0, x, H);
    const d = q[0]!, c = 3e4 + pot.barrierKappa(0) * barrierB2(d, 0.08);
    const gd = [q[1]!, q[2]!, -(1 - q[3]!) * q[1]!, -(1 - q[3]!) * q[2]!, -q[3]! * q[1]!, -q[3]! * q[2]!];
    for (let r = 0; r < 6; r++) for (let s = 0; s < 6; s++) expect(Math.abs(H[6 * r + s]! - c * gd[r]! * gd[s]!)).toBeLessThan(1e-9 * c);
    // onto the edge: the barrier grows without bound (crossing it is what maxStep prevents)
    const y = x.slice();
    y[0] = 0.1;
    y[1] = 0.5105 + 1e-9;
    expect(pot.energy(y)).toBeGreaterThan(10 * pot.energy(x)); // logarithmic: b(1e-9) ≈ d̂² ln(d̂/1e-9)
  });

  it('maxStep: a barrier pair stops the step before its surface (plane and edge); a pair that starts inside is not limited', () => {
    const xt = Float64Array.from([0, 0.1, -1, 0, 1, 0]);
    const pot = new ContactPotential();
    pot.add(KIND_PLANE, 0, -1, -1, 0, 1, 0, 0, 0.05, 1e3, 0, 0, 1e-3, xt);
    const dx = Float64Array.from([0, -0.3, 0, 0, 0, 0]);
    expect(pot.maxStep(xt, dx)).toBeCloseTo(0.9 * (0.1 / 0.3), 12);
    const inside = new ContactPotential();
    inside.add(KIND_PLANE, 0, -1, -1, 0, 1, 0.2, 0, 0.05, 1e3, 0, 0, 1e-3, xt); // starts 0.1 below the plane
    expect(inside.barrierKappa(0)).toBe(0);
    expect(inside.maxStep(xt, Float64Array.from([0, 0.5, 0, 0, 0, 0]))).toBe(1);
    const edge = new ContactPotential();
    edge.add(KIND_EDGE, 0, 1, 2, 0, 0, 0, 0, 0.05, 1e3, 0, 0, 1e-3, xt, 0, 1);
    const t = edge.maxStep(xt, dx);
    expect(t).toBeGreaterThan(0);
    expect(xt[1]! + t * dx[1]!).toBeGreaterThan(0);
  });

  it('maxStep: a pair that starts touching or past its surface moves out freely but no further in than its floor (plane, edge)', () => {
    // plane y = 0.2, the particle 0.1 below it: floor d = −0.1 − 0.1 r̂ (touchingSlack 0.1, r̂ = 0.05)
    const xt = Float64Array.from([0, 0.1, -1, 0.2, 1, 0.2]);
    const plane = new ContactPotential();
    plane.add(KIND_PLANE, 0, -1, -1, 0, 1, 0.2, 0, 0.05, 1e3, 0, 0, 1e-3, xt);
    expect(plane.barrierKappa(0)).toBe(0);
    expect(plane.maxStep(xt, Float64Array.from([0, 0.5, 0, 0, 0, 0]))).toBe(1);
    expect(plane.maxStep(xt, Float64Array.from([0, -0.05, 0, 0, 0, 0]))).toBeCloseTo(0.9 * (0.005 / 0.05), 12);
    // the same against the edge (−1, 0.2)–(1, 0.2), kept side above (side = +1, left of a→b)
    const edge = new ContactPotential();
    edge.add(KIND_EDGE, 0, 1, 2, 0, 0, 0, 0, 0.05, 1e3, 0, 0, 1e-3, xt, 0, 1);
    expect(edge.barrierKappa(0)).toBe(0);
    expect(edge.maxStep(xt, Float64Array.from([0, 0.5, 0, 0, 0, 0]))).toBe(1);
    expect(edge.maxStep(xt, Float64Array.from([0, -0.05, 0, 0, 0, 0]))).toBeCloseTo(0.9 * (0.005 / 0.05), 12);
    // the edge moving up onto the particle counts too
    expect(edge.maxStep(xt, Float64Array.from([0, 0, 0, 0.05, 0, 0.05]))).toBeCloseTo(0.9 * (0.005 / 0.05), 12);
    // touchingSlack < 0: no limit (the behaviour before)
    const off = new ContactPotential();
    off.touchingSlack = -1;
    off.add(KIND_PLANE, 0, -1, -1, 0, 1, 0.2, 0, 0.05, 1e3, 0, 0, 1e-3, xt);
    expect(off.maxStep(xt, Float64Array.from([0, -0.05, 0, 0, 0, 0]))).toBe(1);
  });
});

/**
 * Ten jellies of 50 triangles (makeJellyPile), jelly j lifted `lift` (j + 1) m, `steps` steps:
 * the largest penetrations over all steps (see Penetration), KE / peak KE at the end, fail-safe steps.
 */
function dropPile(
  lift: number, steps: number, material?: 'corotational',
): { pen: Penetration; keRatio: number; failSafeSteps: number; radius: number; crossing: number } {
  const w = new PhysicsWorld({});
  const pile = makeJellyPile(w, 10, 50, material ? { material } : {});
  const P = w.c.Particle;
  pile.particles.forEach((ids, j) => { for (const e of ids) P.y[e] = P.y[e]! + lift * (j + 1); });
  const t = w.topology();
  const radius = P.radius[t.particleEids[0]!]!;
  const edges = boundaryEdges(w);
  let peak = 0, ke = 0;
  const pen: Penetration = { boundary: 0, folded: 0, interior: 0 };
  for (let s = 0; s < steps; s++) {
    w.step();
    expect(allFinite(w)).toBe(true);
    ke = 0;
    for (let i = 0; i < t.n; i++) ke += 0.5 * t.mass[2 * i]! * (P.vx[t.particleEids[i]!]! ** 2 + P.vy[t.particleEids[i]!]! ** 2);
    peak = Math.max(peak, ke);
    const p = penetration(w, edges);
    pen.boundary = Math.max(pen.boundary, p.boundary);
    pen.folded = Math.max(pen.folded, p.folded);
    pen.interior = Math.max(pen.interior, p.interior);
  }
  return { pen, keRatio: ke / peak, failSafeSteps: w.lastStats.failSafeSteps, radius, crossing: crossingEdges(w, edges) };
}

/** No boundary particle inside another body by its radius at any step, no crossing boundary edges at the end, no fail-safe step. */
function expectIntersectionFree(r: ReturnType<typeof dropPile>): void {
  expect(r.pen.boundary).toBeLessThan(r.radius);
  expect(r.crossing).toBe(0);
  expect(r.failSafeSteps).toBe(0);
}

/** Pairs of boundary edges of different bodies that cross (proper segment intersection). */
function crossingEdges(w: PhysicsWorld, edges: [number, number][]): number {
  const t = w.topology(), P = w.c.Particle;
  const X = (i: number): number => P.x[t.particleEids[i]!]!, Y = (i: number): number => P.y[t.particleEids[i]!]!;
  const body = (i: number): number => P.body[t.particleEids[i]!]!;
  const orient = (a: number, b: number, px: number, py: number): number => (X(b) - X(a)) * (py - Y(a)) - (Y(b) - Y(a)) * (px - X(a));
  let count = 0;
  for (let e = 0; e < edges.length; e++) {
    const [a, b] = edges[e]!;
    for (let f = e + 1; f < edges.length; f++) {
      const [c, d] = edges[f]!;
      if (body(a) === body(c)) continue;
      const o1 = orient(a, b, X(c), Y(c)), o2 = orient(a, b, X(d), Y(d));
      const o3 = orient(c, d, X(a), Y(a)), o4 = orient(c, d, X(b), Y(b));
      if (o1 * o2 < 0 && o3 * o4 < 0) count++;
    }
  }
  return count;
}

describe('candidate filter (docs/contact.md, "Candidates")', () => {
  /** A world, no gravity, contact on: triangle body B (0,0), (1,0), (0,1) and one particle of body A at (px, py), with a spare triangle. */
  function corner(px: number, py: number): { w: PhysicsWorld; ids: number[] } {
    const w = new PhysicsWorld({ gravity: null });
    w.contacts.enabled = true;
    const A = w.createBody(), B = w.createBody();
    const opt = { youngsModulus: 1e3, poissonRatio: 0.3, density: 1 };
    const b = [[0, 0], [1, 0], [0, 1]].map(([x, y]) => w.addParticle({ x: x!, y: y!, m: 0, radius: 0.025, body: B }));
    w.addTriangle(b[0]!, b[1]!, b[2]!, opt);
    const a = [[px, py], [px + 0.5, py + 0.1], [px + 0.3, py + 0.5]].map(([x, y]) => w.addParticle({ x: x!, y: y!, m: 0, radius: 0.025, body: A }));
    w.addTriangle(a[0]!, a[1]!, a[2]!, opt);
    return { w, ids: [...b, ...a] };
  }
  /** Candidates of the last step as [p, a, b] node triples (dense indices = creation order here). */
  const pairs = (w: PhysicsWorld): string[] => {
    const pot = w.contacts.potential, out: string[] = [];
    for (let k = 0; k < pot.count; k++) out.push(`${pot.node[3 * k]},${pot.node[3 * k + 1]},${pot.node[3 * k + 2]}`);
    return out;
  };

  it('a particle beyond the end of a boundary edge, on the inner side of its line, is a candidate of that edge too', () => {
    // node 3 at (1.03, 0.03): 0.042 m from corner (1, 0), 0.03 above the line of edge (0,0)–(1,0) (its
    // inner side, more than r̂) but beyond its end; it used to be dropped as "deep inside"
    const { w } = corner(1.03, 0.03);
    w.step();
    const c = pairs(w);
    expect(c).toContain('3,1,2'); // edge (1,0)–(0,1), outside
    expect(c).toContain('3,0,1'); // edge (0,0)–(1,0), beyond its end at (1, 0)
  });

  it('a boundary edge whose triangle is inverted at the start of the step is two-sided: the pair keeps its start side (barrier)', () => {
    const { w, ids } = corner(3, 3);
    w.step();
    // fold B: (0, 1) moved below the edge (0,0)–(1,0): the triangle is inverted and the edge's
    // "outside" (right of a→b at creation) now points into the folded triangle; body A moved so
    // that its node 3 is 0.06 above that edge, outside B
    const P = w.c.Particle;
    P.x[ids[2]!] = 0;
    P.y[ids[2]!] = -0.5;
    const dx = 0.5 - P.x[ids[3]!]!, dy = 0.06 - P.y[ids[3]!]!;
    for (const e of ids.slice(3)) {
      P.x[e] = P.x[e]! + dx;
      P.y[e] = P.y[e]! + dy;
    }
    P.vx.fill(0);
    P.vy.fill(0);
    w.step();
    const pot = w.contacts.potential;
    let k = -1;
    for (let j = 0; j < pot.count; j++) if (pot.node[3 * j] === 3 && pot.node[3 * j + 1] === 0 && pot.node[3 * j + 2] === 1) k = j;
    expect(k).toBeGreaterThanOrEqual(0);
    // one-sided, the node 0.06 above the edge would be "past" it: dropped as deep inside (closer
    // than r̂: a pair with no barrier, its penalty pushing the node down through the edge)
    expect(pot.barrierKappa(k)).toBeGreaterThan(0);
  });
});

describe('hard impacts', () => {
  it('ten jellies dropped from up to 5 m onto each other, three lifts: no boundary particle inside another body by its radius, no interior node inside another body and its own, no crossing edges, no NaN, at rest within 6 s', () => {
    // jelly j is lifted 0.5 (j + 1) m × f: the top one falls about 5 m and lands at ~10 m/s on the pile.
    // Measured (stop 26): boundary 0, interior 0, no crossing pair, KE/peak ≤ 6.2e-8 after 360 steps.
    // At rest within 6 s, not 5: when the pile stops is chaotic. With the lift varied by ±1 %, ±2 %,
    // −3 %, KE/peak after 300 steps was above 1e-6 in 1 of 6 drops before the swept test's t = 1
    // fallback was fixed (docs/contact.md, "What the search skips") and 2 of 6 after; after 360
    // steps 2 of 6 before (4.3e-6, 5.7e-6: a body toppling late) and 0 of 6 after (≤ 2.6e-7).
    // Folded corners (interior nodes of inverted `fosssim` corners, outside their own boundary and inside
    // a neighbour: docs/contact.md, "Folded corners") are a material limit, not asserted. Which lift folds
    // a corner into a neighbour is chance: over 12 lifts ×0.94 … ×1.05, 9 drops on the code of stop 25
    // had one deeper than the radius, up to 90 mm (this test asserted it at f = 1, where that code had none).
    for (const f of [1, 0.98, 1.02]) {
      const r = dropPile(0.5 * f, 360);
      expectIntersectionFree(r);
      expect(r.pen.interior).toBeLessThan(r.radius);
      expect(r.keRatio).toBeLessThan(1e-6);
    }
  }, 120_000);

  it('ten jellies dropped from up to 10 m: no boundary particle inside another body by its radius; deeper interior nodes are folded corners (inverted CST elements), not contact failures', () => {
    // jelly j is lifted 1 m × (j + 1): the top one falls about 10 m (~14 m/s at dt = 1/60)
    const r = dropPile(1, 300);
    // Measured (all 300 steps): boundary particles never inside another body, no crossing boundary
    // edges at the end; interior nodes up to 0.17 m inside a neighbour, every one of them outside its
    // own body's boundary polygon: the CST corner (reflection-invariant, not inversion-safe:
    // docs/materials.md) inverted at the impact and the fold lies on the neighbour. KE/peak 6.8e-7
    // after 300 steps. Not a guarantee for this material: with the lift varied (×0.94 … ×1.05) boundary
    // particles of folded bodies ended inside another body in 5 of 12 drops, up to 0.022 m
    // (docs/contact.md, "Known limit" and "Floor pairs").
    expect(r.pen.boundary).toBeLessThan(r.radius);
    expect(r.pen.interior).toBeLessThan(r.radius);
    expect(r.keRatio).toBeLessThan(1e-6);
    expect(r.failSafeSteps).toBe(0);
  }, 60_000);

  it('corotational jellies dropped from up to 10 m: no boundary particle inside another body by its radius at any step, no crossing boundary edges at the end', () => {
    // Newton's early iterates can move a particle far from its prediction xᵗ + h v: the line
    // search must keep every iterate intersection-free against all boundary edges, not only
    // the candidates (docs/contact.md, "Trust region"). Measured: boundary particles never inside
    // another body, no crossing pair at any step (before: 0.082 m, up to 10 crossing pairs, 4 at the end).
    expectIntersectionFree(dropPile(1, 360, 'corotational'));
  }, 60_000);

  it('corotational jellies dropped from 1.08 × as high: the post-solve correction of a pair that started past an edge does not push another body\'s node through', () => {
    // Before: at step 56 node 108 (jelly 4) started past jelly 3's edge 102–96 (no barrier, only its
    // floor); the response stage pushed it out and moved the edge's node 102 by 2.4 cm, through node
    // 109, which the solve had kept 6 mm outside edge 103–102 by its barrier: 0.0266 m inside. Now such
    // body-edge pairs are left to their penalty (docs/contact.md, "Floor pairs"); measured 0 at every
    // step (and 0 in 14 drops lifted ×0.9 … ×1.2, against 3 of 14 before).
    expectIntersectionFree(dropPile(1.08, 360, 'corotational'));
  }, 60_000);

  it('a kinematic circle driven into a pile of Neo-Hookean jellies yields: no boundary particle is pushed into another body', () => {
    // The bench's stirred scene with an inversion-safe material: four jellies in a box, a circle (r = 0.15 m) diving
    // through them at 1 m/s for a second, then sweeping sideways. Particles jammed between it and a neighbour end a
    // step inside its end pose (no barrier: they started the step touching or inside it). The response used to push
    // them out, through the neighbour's edges: measured 14.9 mm deep within 100 steps (115 particles inside another
    // body's triangles at step 100, 298 at step 600, down to 71 mm). A moving collider's such pairs, where the
    // particle's body touches another body, are now left to their penalty (docs/contact.md, "Driven colliders
    // yield"): measured 8.5 mm at most over 600 steps, and below a quarter of the radius in these 100.
    const { deepest, radius } = drivenPaddle((w, x, y) => w.addCircleCollider(x, y, 0.15));
    expect(deepest).toBeLessThan(0.25 * radius);
  }, 60_000);

  it('a square paddle driven into a pile of Neo-Hookean jellies yields too: its edges are one-sided, and a particle inside it is a candidate at any depth', () => {
    // The same scene with a square (side 0.3 m) for the circle. A polygon's edges were two-sided segments: a particle
    // that yielded was kept on the inner side of the edge near it, and one deeper than its reach had no candidate at
    // all, so the response pushed it out through the nearest edge and through the neighbour: measured 14–43 boundary
    // particles inside another body at these checks from step 60, up to 58.5 mm deep. Now an edge is one-sided for a
    // particle inside the polygon, and such a particle is a candidate of the nearest edge at any depth, so its penalty
    // pushes it out, and the interior pair yields as the edges' do (docs/contact.md, "Driven colliders yield").
    // Measured: 6.65 mm (8.05 mm with a first version), one particle away from the paddle: a pair between two jellies
    // that started the step touching sinks up to its floor, 0.1 r̂ deeper each step, while the pile is pressed ("Floor
    // pairs"); so the bound here is the drop tests' (the radius), not the circle's quarter.
    const H = 0.15;
    const { deepest, radius } = drivenPaddle((w, x, y) => w.addPolygonCollider([x - H, y - H, x + H, y - H, x + H, y + H, x - H, y + H]));
    expect(deepest).toBeLessThan(radius);
  }, 60_000);

  it('a body released while a driven paddle is deep in it leaves the paddle over several steps: the response does not push it out at once', () => {
    // A circle dives into the top jelly of a stack; pressed against the lower one, the top jelly yields and the paddle
    // sinks into it. Then the lower jelly is lifted away (nothing presses the top one any more) and the paddle rises
    // at 0.3 m/s. The response used to push every particle still inside the paddle out through its surface in the
    // release step: measured 58.6 mm in one step (in the stirred scene such releases ended up to 14.6 cm inside a
    // neighbour). A particle a driven collider was left inside of now keeps its pair covered while it stays inside and
    // the collider moves; its penalty pushes it out (docs/contact.md, "Releases").
    const release = 65;
    const s = pressedStack(release, (w, step, paddle, lower) => {
      if (step === release) for (const e of w.lists.particles) if (w.c.Particle.body[e] === lower) w.c.Particle.y[e] = w.c.Particle.y[e]! + 4;
      w.setColliderVelocity(paddle, 0, step < release ? -1 : 0.3);
    });
    expect(s.heldAtRelease).toBeGreaterThan(0); // the paddle had sunk into the pressed jelly
    expect(s.releaseMove).toBe(0);
    expect(s.insideAtEnd).toBe(0); // and the jelly did leave it
  });

  it('a driven paddle that stops inside a jelly it was pressed into lets it out over some steps, about half a radius a step', () => {
    // The same dive, and the paddle stops at step 50, inside the top jelly, which stays pressed on the lower one. Its
    // pairs are then a still collider's, which the response corrects: it used to push every particle inside the paddle
    // out at once, measured 44.8 mm in the stop's step. A particle the paddle held is now let out by at most half its
    // radius a step (docs/contact.md, "Releases"): 7.8 mm here, out of the paddle within 4 steps, nothing inside the
    // other jelly.
    // A square takes the same limit through its edges' pairs and its interior pair: measured 63.3 mm before, 7.8 now.
    const stop = 50;
    for (const square of [false, true]) {
      const s = pressedStack(stop, (w, step, paddle) => w.setColliderVelocity(paddle, 0, step < stop ? -1 : 0), square);
      expect(s.heldAtRelease).toBeGreaterThan(0);
      expect(s.releaseMove).toBeGreaterThan(0);
      expect(s.releaseMove).toBeLessThan(0.55 * s.radius); // half a radius along the normal, and friction's share of the slide
      expect(s.insideAtEnd).toBe(0);
      expect(s.deepest).toBeLessThan(0.25 * s.radius);
    }
  });

  it('a circle swept at 8 m/s into a free jelly does not sink into it: only a pressed body makes a driven collider yield', () => {
    // A first version of the yield covered every moving collider's pair without a barrier: the penalty alone could not
    // move the jelly's mass out of the way within a step, and the circle sank 10 cm into it (12 particles inside). The
    // jelly here touches no other body, so the response corrects those pairs as before: measured 0 inside at every step.
    const w = new PhysicsWorld({ dt: 1 / 60 });
    const pile = makeJellyPile(w, 1, 128, { material: 'neohookean', youngsModulus: 8e4, columns: 4 });
    for (let s = 0; s < 60; s++) w.step();
    const R = 0.12, bat = w.addCircleCollider(-pile.halfWidth - 0.05, 0.25, R);
    const P = w.c.Particle, K = w.c.Collider;
    let inside = 0;
    for (let s = 0; s < 30; s++) {
      w.setColliderVelocity(bat, K.px[bat]! < 0.2 ? 8 : 0, 0);
      w.step();
      for (const e of w.lists.particles) if (Math.hypot(P.x[e]! - K.px[bat]!, P.y[e]! - K.py[bat]!) < R) inside++;
    }
    expect(K.px[bat]!).toBeGreaterThan(0.2); // it did sweep through where the jelly was
    expect(inside).toBe(0);
  });

  it('a square swept at 8 m/s into a free jelly does not sink into it either (one-sided edges, the same yield rule)', () => {
    const w = new PhysicsWorld({ dt: 1 / 60 });
    const pile = makeJellyPile(w, 1, 128, { material: 'neohookean', youngsModulus: 8e4, columns: 4 });
    for (let s = 0; s < 60; s++) w.step();
    const H = 0.12, x = -pile.halfWidth - 0.05, y = 0.25;
    const bat = w.addPolygonCollider([x - H, y - H, x + H, y - H, x + H, y + H, x - H, y + H]);
    const P = w.c.Particle, K = w.c.Collider;
    let inside = 0;
    for (let s = 0; s < 30; s++) {
      w.setColliderVelocity(bat, K.px[bat]! < 0.2 ? 8 : 0, 0);
      w.step();
      for (const e of w.lists.particles) if (Math.abs(P.x[e]! - K.px[bat]!) < H && Math.abs(P.y[e]! - K.py[bat]!) < H) inside++;
    }
    expect(K.px[bat]!).toBeGreaterThan(0.2);
    expect(inside).toBe(0);
  });
});

describe('fail-safe steps (never NaN)', () => {
  it('a solve that throws keeps the start-of-step positions, damps the velocities and says so in lastStats', () => {
    const w = new PhysicsWorld({});
    const pile = makeJellyPile(w, 1, 50);
    for (let s = 0; s < 5; s++) w.step();
    const before = w.readPositions(), vBefore = w.readVelocities();
    const ws = w.workspace();
    const ldlt = ws.solver!.ldlt;
    const factor = ldlt.factor.bind(ldlt), orig = ws.solve.bind(ws);
    // the LDLᵀ factorization fails and the fallback throws, as on a singular system
    ldlt.factor = (): boolean => false;
    ws.solve = (): void => { throw new Error('the system matrix is singular (rank 0)'); };
    w.contacts.enabled = false; // the solve runs on this workspace (no contact rebuild)
    w.step();
    expect(w.lastStats.failSafe).toBe('solver-error');
    expect(w.lastStats.failSafeSteps).toBe(1);
    expect(Array.from(w.readPositions())).toEqual(Array.from(before));
    const v = w.readVelocities();
    for (let i = 0; i < v.length; i++) expect(v[i]).toBeCloseTo(0.5 * vBefore[i]!, 14);
    ws.solve = orig;
    ldlt.factor = factor;
    w.contacts.enabled = true;
    w.step();
    expect(w.lastStats.failSafe).toBe('');
    expect(allFinite(w)).toBe(true);
    void pile;
  });

  it('a non-finite state (NaN velocity from outside) fails safe: positions kept, the NaN velocity zeroed', () => {
    const w = new PhysicsWorld({});
    const pile = makeJellyPile(w, 1, 8);
    w.step();
    const before = w.readPositions();
    const e = pile.particles[0]![0]!;
    w.c.Particle.vx[e] = Number.NaN;
    w.step();
    expect(w.lastStats.failSafe).not.toBe('');
    expect(Array.from(w.readPositions())).toEqual(Array.from(before));
    expect(w.c.Particle.vx[e]).toBe(0);
    w.step();
    expect(allFinite(w)).toBe(true);
  });

  /**
   * More singular islands, far away, than the fail-safe holds (MAX_HELD_ISLANDS): a massless free
   * particle on a compressed vertical spring to a fixed one each (vertical: a guess moved by gravity stays on the
   * spring's line, whose normal row stays exactly zero), so no retry succeeds and every step puts
   * the whole world back to its start.
   */
  function singularIslands(w: PhysicsWorld): void {
    for (let k = 0; k <= MAX_HELD_ISLANDS; k++) {
      const a = w.addParticle({ x: 50 + 5 * k, y: 50, m: 1, fixed: true });
      w.addSpring(a, w.addParticle({ x: 50 + 5 * k, y: 51, m: 0 }), { alpha: 1, l0: 2 });
    }
  }

  it('a failed step reports no contact beginning or ending, so a world and its snapshot copy continue alike (fuzz seed 7602)', () => {
    // the events stage of a step whose solve threw read the pair list of the last successful step,
    // which no snapshot holds: the world and a fromSnapshot copy got different contact states
    const w = new PhysicsWorld({});
    makeJellyPile(w, 1, 8);
    for (let s = 0; s < 60 && w.contacts.active.length === 0; s++) w.step();
    w.step();
    const active = w.contacts.active.length;
    expect(active).toBeGreaterThan(0);
    singularIslands(w); // every step from now on fails and puts the whole world back
    const copy = PhysicsWorld.fromSnapshot(w.snapshot());
    for (let s = 0; s < 3; s++) {
      w.step();
      copy.step();
      expect(w.lastStats.failSafe).toBe('solver-error');
      expect(w.lastStats.failSafeHeld).toBe(0); // the whole world, not islands
      expect(w.stateHash()).toBe(copy.stateHash());
      expect(w.contacts.begin.length + w.contacts.end.length).toBe(0);
    }
  });

  it('after a topology change the contact list is forgotten also when the next step fails: sleeping islands match a snapshot copy (fuzz seeds 7604, 7605)', () => {
    // the events' reset kept the forgotten `active` list, which sleeping's islands read after a failed
    // (resting) events stage; a snapshot holds no such list, so a fromSnapshot copy built other islands
    const w = new PhysicsWorld({ sleeping: true });
    makeJellyPile(w, 2, 8, { columns: 1 });
    for (let s = 0; s < 120 && !w.contacts.active.some((e) => e.bodyB > 0); s++) w.step();
    expect(w.contacts.active.some((e) => e.bodyB > 0)).toBe(true); // the two jellies touch
    singularIslands(w); // a topology change; every step from now on fails and puts the whole world back
    const copy = PhysicsWorld.fromSnapshot(w.snapshot());
    for (let s = 0; s < 3; s++) {
      w.step();
      copy.step();
      expect(w.lastStats.failSafe).toBe('solver-error');
      expect(w.stateHash()).toBe(copy.stateHash());
      expect(w.contacts.active.length).toBe(copy.contacts.active.length);
    }
  });

  it('programming errors are not swallowed', () => {
    const w = new PhysicsWorld({});
    makeJellyPile(w, 1, 8);
    w.step();
    const ws = w.workspace();
    w.contacts.enabled = false;
    // a bug inside the linear solve (a TypeError) propagates through the fail-safe …
    ws.solver!.ldlt.solve = (): void => { throw new TypeError('bug'); };
    expect(() => w.step()).toThrow(TypeError);
    // … while a numerical failure (the factorization failing even after regularization) fails safe
    const v = new PhysicsWorld({});
    makeJellyPile(v, 1, 8);
    v.step();
    v.workspace().solver!.ldlt.factor = (): boolean => false;
    v.step();
    expect(v.lastStats.failSafe).toBe('solver-error');
  });

  it('overlapping jellies and a rope without body contact touched by a jelly: 300 steps, never NaN', () => {
    const sim = new SoftSim({ pixelsPerMetre: 100, originX: 0, originY: 600 });
    sim.bounds(0, 0, 800, 600);
    // two jellies created overlapping by a third of their width, a third one dropped on a rope
    sim.jelly(300, 400, { width: 120, height: 80, stiffness: 3e4, density: 50 });
    sim.jelly(340, 380, { width: 120, height: 80, stiffness: 3e4, density: 50 });
    sim.rope([420, 300, 700, 300], { segments: 14, clampStart: true, clampEnd: true, bodyContact: false });
    sim.jelly(560, 150, { radius: 40, stiffness: 2e4, density: 50 });
    const w = sim.world;
    for (let s = 0; s < 300; s++) {
      sim.stepOnce();
      expect(allFinite(w)).toBe(true);
    }
    const P = w.c.Particle;
    // everything stays in the box (nothing was flung out by a non-finite or singular step)
    for (const e of w.lists.particles) {
      expect(P.y[e]!).toBeGreaterThan(-0.05);
      expect(P.x[e]!).toBeGreaterThan(-0.05);
      expect(P.x[e]!).toBeLessThan(8.05);
    }
  }, 60_000);
});
