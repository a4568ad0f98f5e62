/**
 * Contact inside the implicit solve (src/collision/implicit.ts): penalty, barrier and
 * lagged smoothed friction potentials, their derivatives, assembly, continuous collision
 * detection, and the scenes they exist for (slope friction, jelly pile, dropped jelly).
 */
import { describe, expect, it } from 'vitest';
import { barrierB2, ContactPotential, frictionF0, frictionF1, frictionF2, KIND_CIRCLE, KIND_EDGE, KIND_PLANE, KIND_SEGMENT } from '../src/collision/implicit';
import { buildPattern } from '../src/solver/pattern';
import { G_DB, G_K, G_KB, G_ML, NG } from '../src/collision/candidate-kernels';
import { PhysicsWorld } from '../src/world';
import { meshBox } from '../src/mesh';
import { makeJellyPile } from '../src/cli/bench-jellies';

const deg = Math.PI / 180;

/** One candidate of every kind, in a 4-node system; x a state where all of them are active. */
function fixture(): { pot: ContactPotential; x: Float64Array; pattern: ReturnType<typeof buildPattern> } {
  const pattern = buildPattern(4, 2, [{ nodes: Int32Array.from([1, 2, 0, 1, 0, 2]), k: 2 }, { nodes: Int32Array.from([3]), k: 1 }]);
  const xt = Float64Array.from([0.1, 0.52, -0.4, 0.47, 0.6, 0.55, 1.2, 0.03]);
  const pot = new ContactPotential();
  const eps = 1e-3;
  // particle 0 against body edge (1, 2) (interior region), kept on the upper side
  pot.add(KIND_EDGE, 0, 1, 2, 0, 0, 0, 0, 0.08, 3e4, 0.5, 0, eps, xt, 0, 1);
  // particle 3 against a moving half-plane, a circle, a segment (endpoint region)
  pot.add(KIND_PLANE, 3, -1, -1, 0.28, 0.96, 0.28 * 1.2 + 0.96 * 0.0, 0, 0.05, 2e4, 0.7, 2e-4, eps, xt);
  pot.add(KIND_CIRCLE, 3, -1, -1, 1.25, -0.2, 0.2, 0, 0.05, 2e4, 0.3, 0, eps, xt);
  pot.add(KIND_SEGMENT, 3, -1, -1, 1.0, -0.05, 1.15, 0.0, 0.1, 1e4, 0.4, 0, eps, xt, 0, 1);
  // particle 0 against edge (1, 2) beyond vertex 2 is covered by particle 1 vs edge (0, 2)'s endpoint region
  pot.add(KIND_EDGE, 1, 0, 2, 0, 0, 0, 0, 0.6, 1e4, 0.2, 0, eps, xt, 0, 1);
  const x = Float64Array.from([0.1004, 0.5291, -0.4, 0.471, 0.6, 0.55, 1.2 + 0.004, 0.0302]);
  pot.computeSlots(pattern);
  return { pot, x, pattern };
}

describe('contact potentials (exact geometry)', () => {
  it('smoothed friction f0 has derivatives f1, f2 (central differences) and is C1 at ε', () => {
    const eps = 0.01;
    for (const y of [0.001, 0.004, 0.0099, 0.012, 0.05]) {
      const hd = 1e-7;
      expect((frictionF0(y + hd, eps) - frictionF0(y - hd, eps)) / (2 * hd)).toBeCloseTo(frictionF1(y, eps), 6);
      expect((frictionF1(y + hd, eps) - frictionF1(y - hd, eps)) / (2 * hd)).toBeCloseTo(frictionF2(y, eps), 3);
    }
    expect(frictionF0(eps, eps)).toBeCloseTo(eps, 15);
    expect(frictionF1(eps, eps)).toBeCloseTo(1, 15);
  });

  it('every candidate kind is active, and the gradient matches central differences of the energy', () => {
    const { pot, x } = fixture();
    const q = new Float64Array(4);
    for (let k = 0; k < pot.count; k++) {
      pot.geom(k, x, q);
      expect(q[0]).toBeLessThan(pot.radius(k)); // active
    }
    pot.geom(4, x, q);
    expect(q[3]).toBe(0); // endpoint region of edge (0, 2)
    const n = x.length;
    const g = new Float64Array(n);
    pot.gradient(x, g);
    const hd = 1e-7;
    for (let i = 0; i < n; i++) {
      const xp = x.slice(), xm = x.slice();
      xp[i] = xp[i]! + hd;
      xm[i] = xm[i]! - hd;
      const fd = (pot.energy(xp) - pot.energy(xm)) / (2 * hd);
      expect(Math.abs(fd - g[i]!)).toBeLessThan(1e-5 * Math.max(1, Math.abs(g[i]!)));
    }
  });

  it('the local Hessian is (κ + κ_b b\'\'(d)) ∇d∇dᵀ (Gauss–Newton, ∇d by differences) plus the exact friction Hessian (differences of the friction gradient)', () => {
    const { pot, x } = fixture();
    const hd = 1e-7;
    const n = x.length;
    const H = new Float64Array(36);
    const q = new Float64Array(4);
    const G = pot.geo, K = G_K, ML = G_ML, KB = G_KB, DB = G_DB; // per-candidate layout (candidate-kernels.ts G_*)
    /** Gradient of candidate k alone (the others' κ, μλ and κ_b zeroed meanwhile). */
    const gradientOf = (k: number, xx: Float64Array): Float64Array => {
      const saved = G.slice();
      for (let j = 0; j < pot.count; j++) if (j !== k) G[NG * j + K] = G[NG * j + ML] = G[NG * j + KB] = 0;
      const g = new Float64Array(n);
      pot.gradient(xx, g);
      G.set(saved);
      return g;
    };
    for (let k = 0; k < pot.count; k++) {
      const nodes = [pot.node[3 * k]!, pot.node[3 * k + 1]!, pot.node[3 * k + 2]!];
      // ∇d by central differences
      const gd = new Float64Array(6);
      for (let c = 0; c < 6; c++) {
        const nd = nodes[c >> 1]!;
        if (nd < 0) continue;
        const dof = 2 * nd + (c & 1);
        const xp = x.slice(), xm = x.slice();
        xp[dof] = xp[dof]! + hd;
        xm[dof] = xm[dof]! - hd;
        pot.geom(k, xp, q);
        const dp = q[0]!;
        pot.geom(k, xm, q);
        gd[c] = (dp - q[0]!) / (2 * hd);
      }
      pot.geom(k, x, q);
      const kappa = G[NG * k + K]!, ml = G[NG * k + ML]!;
      const c2 = kappa + G[NG * k + KB]! * barrierB2(q[0]!, G[NG * k + DB]!);
      // the normal part: with friction switched off, H = (κ + κ_b b'') ∇d∇dᵀ
      G[NG * k + ML] = 0;
      pot.localHessian(k, x, H);
      for (let r = 0; r < 6; r++) for (let c = 0; c < 6; c++) expect(Math.abs(H[6 * r + c]! - c2 * gd[r]! * gd[c]!)).toBeLessThan(1e-5 * c2);
      G[NG * k + ML] = ml;
      // the friction part: with the normal potential switched off, H = differences of the gradient
      const kb = G[NG * k + KB]!;
      G[NG * k + K] = G[NG * k + KB] = 0;
      pot.localHessian(k, x, H);
      for (let r = 0; r < 6; r++) for (let c = 0; c < 6; c++) expect(H[6 * r + c]).toBeCloseTo(H[6 * c + r]!, 9);
      for (let c = 0; c < 6; c++) {
        const nd = nodes[c >> 1]!;
        if (nd < 0) continue;
        const dof = 2 * nd + (c & 1);
        const xp = x.slice(), xm = x.slice();
        xp[dof] = xp[dof]! + hd;
        xm[dof] = xm[dof]! - hd;
        const gp = gradientOf(k, xp), gm = gradientOf(k, xm);
        for (let r = 0; r < 6; r++) {
          const rn = nodes[r >> 1]!;
          if (rn < 0) continue;
          const fd = (gp[2 * rn + (r & 1)]! - gm[2 * rn + (r & 1)]!) / (2 * hd);
          expect(Math.abs(fd - H[6 * r + c]!)).toBeLessThan(1e-4 * Math.max(1, Math.abs(H[6 * r + c]!)));
        }
      }
      G[NG * k + K] = kappa;
      G[NG * k + KB] = kb;
    }
  });

  it('the assembled matrix equals the sum of the local Hessians (full particle–edge blocks in the pattern)', () => {
    const { pot, x, pattern } = fixture();
    const vals = new Float64Array(pattern.nnz);
    pot.hessian(x, 1, vals);
    const n = 8;
    const A = new Float64Array(n * n);
    for (let j = 0; j < n; j++) {
      for (let s = pattern.colPtr[j]!; s < pattern.colPtr[j + 1]!; s++) {
        const i = pattern.rowIdx[s]!;
        A[i * n + j] = vals[s]!;
        A[j * n + i] = vals[s]!;
      }
    }
    const E = new Float64Array(n * n), H = new Float64Array(36);
    for (let k = 0; k < pot.count; k++) {
      pot.localHessian(k, x, H);
      for (let r = 0; r < 6; r++) {
        for (let c = 0; c < 6; c++) {
          const a = pot.node[3 * k + (r >> 1)]!, b = pot.node[3 * k + (c >> 1)]!;
          if (a < 0 || b < 0) continue;
          E[(2 * a + (r & 1)) * n + 2 * b + (c & 1)] += H[6 * r + c]!;
        }
      }
    }
    for (let i = 0; i < n * n; i++) expect(Math.abs(A[i]! - E[i]!)).toBeLessThan(1e-9 * Math.max(1, Math.abs(E[i]!)));
  });

  it('maxStep stops a particle before it crosses an edge (continuous collision detection)', () => {
    const { pot } = fixture();
    const x = Float64Array.from([0.1, 0.6, -0.4, 0.47, 0.6, 0.55, 1.2, 0.5]);
    const dx = new Float64Array(8);
    dx[1] = -0.3; // particle 0 straight down through edge (1, 2)
    const a = pot.maxStep(x, dx);
    expect(a).toBeGreaterThan(0);
    expect(a).toBeLessThan(1);
    const y = x[1]! + a * dx[1]!;
    const yEdge = 0.47 + ((0.1 + 0.4) / 1.0) * (0.55 - 0.47);
    expect(y).toBeGreaterThan(yEdge);
  });
});

function jellyOnSlope(angleDeg: number, mu: number): { settleSlide: number; slid: number } {
  const w = new PhysicsWorld({});
  w.contacts.enabled = true;
  w.contacts.implicit = true;
  w.contacts.friction = mu;
  const a = angleDeg * deg;
  w.addHalfplane(0, 0, -Math.sin(a), Math.cos(a));
  const mesh = meshBox(0.4, 0.4, 4, 4);
  const body = w.createBody();
  const ids: number[] = [];
  const c = Math.cos(a), s = Math.sin(a);
  for (let v = 0; v < mesh.positions.length / 2; v++) {
    const lx = mesh.positions[2 * v]!, ly = mesh.positions[2 * v + 1]! + 0.2 + 0.021;
    ids.push(w.addParticle({ x: c * lx - s * ly, y: s * lx + c * ly, m: 0, radius: 0.02, body }));
  }
  for (let t = 0; t < mesh.triangles.length; t += 3) {
    w.addTriangle(ids[mesh.triangles[t]!]!, ids[mesh.triangles[t + 1]!]!, ids[mesh.triangles[t + 2]!]!, { youngsModulus: 2e4, poissonRatio: 0.3, density: 100 });
  }
  const P = w.c.Particle;
  const along = (): number => { let m = 0; for (const e of ids) m += (c * P.x[e]! + s * P.y[e]!) / ids.length; return m; };
  const x0 = along();
  for (let k = 0; k < 30; k++) w.step(); // settle: 0.5 s
  const x1 = along();
  for (let k = 0; k < 120; k++) w.step(); // 2 s
  return { settleSlide: x0 - x1, slid: x1 - along() };
}

describe('contact in the implicit solve (default in game mode)', () => {
  it('friction stops a jelly on a 15° slope (μ = 0.5): < 1 mm in 2 s after settling; at 40° it slides', () => {
    const held = jellyOnSlope(15, 0.5);
    const sliding = jellyOnSlope(40, 0.5);
    expect(Math.abs(held.slid)).toBeLessThan(1e-3);
    expect(Math.abs(held.settleSlide)).toBeLessThan(1e-2);
    expect(sliding.slid).toBeGreaterThan(3);
  });

  it('ten jellies dropped into a box pile up and come to rest: KE < 1e-6 of peak, no particle inside another body by its radius, all inside the box', () => {
    const w = new PhysicsWorld({});
    const pile = makeJellyPile(w, 10, 50);
    const P = w.c.Particle;
    // rows fall 0.1 m further each: the top row lands about 1 m lower than it starts
    pile.particles.forEach((ids, j) => { for (const e of ids) P.y[e] = P.y[e]! + 0.1 * Math.floor(j / 4); });
    const t = w.topology();
    const tr = t.triangles;
    const body = Int32Array.from(t.particleEids, (e) => P.body[e]!);
    const radius = P.radius[t.particleEids[0]!]!;
    const X = (i: number): number => P.x[t.particleEids[i]!]!, Y = (i: number): number => P.y[t.particleEids[i]!]!;
    /** Deepest particle inside another body's triangle (depth: distance to that triangle's nearest edge). */
    const worst = (): number => {
      let m = 0;
      for (let i = 0; i < t.n; i++) {
        const px = X(i), py = Y(i);
        for (let e = 0; e < tr.count; e++) {
          const a = tr.nodes[3 * e]!, b = tr.nodes[3 * e + 1]!, c = tr.nodes[3 * e + 2]!;
          if (body[a] === body[i]) continue;
          const s1 = (X(b) - X(a)) * (py - Y(a)) - (Y(b) - Y(a)) * (px - X(a));
          const s2 = (X(c) - X(b)) * (py - Y(b)) - (Y(c) - Y(b)) * (px - X(b));
          const s3 = (X(a) - X(c)) * (py - Y(c)) - (Y(a) - Y(c)) * (px - X(c));
          if (!((s1 > 0 && s2 > 0 && s3 > 0) || (s1 < 0 && s2 < 0 && s3 < 0))) continue;
          const l1 = Math.sqrt((X(b) - X(a)) ** 2 + (Y(b) - Y(a)) ** 2), l2 = Math.sqrt((X(c) - X(b)) ** 2 + (Y(c) - Y(b)) ** 2);
          const l3 = Math.sqrt((X(a) - X(c)) ** 2 + (Y(a) - Y(c)) ** 2);
          m = Math.max(m, Math.min(Math.abs(s1) / l1, Math.abs(s2) / l2, Math.abs(s3) / l3));
        }
      }
      return m;
    };
    let peak = 0, ke = 0, pen = 0;
    for (let s = 0; s < 300; s++) {
      w.step();
      ke = 0;
      for (let i = 0; i < t.n; i++) ke += 0.5 * t.mass[2 * i]! * (P.vx[t.particleEids[i]!]! ** 2 + P.vy[t.particleEids[i]!]! ** 2);
      peak = Math.max(peak, ke);
      if (s % 20 === 19) pen = Math.max(pen, worst());
      for (let i = 0; i < t.n; i++) {
        expect(Y(i)).toBeGreaterThan(0);
        expect(Math.abs(X(i))).toBeLessThan(pile.halfWidth);
      }
    }
    // Measured: KE/peak 2e-7 after 300 steps (5 s); no particle inside another body.
    expect(ke / peak).toBeLessThan(1e-6);
    expect(pen).toBeLessThan(radius);
    expect(w.contacts.patternGrowths).toBeGreaterThan(0);
    expect(w.lastStats.contactRebuildsTotal).toBe(w.contacts.patternGrowths);
    expect(w.lastStats.contactCandidates).toBe(w.contacts.potential.count);
  });

  it('a jelly dropped 1.5 m onto the floor comes to rest (KE < 1e-6 of its peak) without collapsing', () => {
    const w = new PhysicsWorld({});
    const pile = makeJellyPile(w, 1, 50);
    const P = w.c.Particle;
    for (const e of pile.particles[0]!) P.y[e] = P.y[e]! + 1.5;
    const t = w.topology();
    let peak = 0, ke = 0;
    for (let s = 0; s < 200; s++) {
      w.step();
      ke = 0;
      for (let i = 0; i < t.n; i++) ke += 0.5 * t.mass[2 * i]! * (P.vx[t.particleEids[i]!]! ** 2 + P.vy[t.particleEids[i]!]! ** 2);
      peak = Math.max(peak, ke);
    }
    expect(ke / peak).toBeLessThan(1e-6);
    let maxy = 0, miny = Infinity;
    for (const e of pile.particles[0]!) {
      maxy = Math.max(maxy, P.y[e]!);
      miny = Math.min(miny, P.y[e]!);
    }
    expect(maxy).toBeGreaterThan(0.45);
    expect(miny).toBeGreaterThan(0);
  });
});
