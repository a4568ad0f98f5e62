/**
 * Ropes and rods in SoftSim: physical options (linearDensity, stiffness = EA, bendStiffness = EI, sag) mapped to the
 * engine's elastic-body springs (W = α/(2 l0)(l − l0)², α = EA) and hinges (W = α(θ − θ0)²/(2(l1 + l2)), α = 2 EI),
 * clamped cantilevers against beam theory, and a coil spring that keeps its shape and bobs a weight. Game-mode Newton
 * at 60 Hz throughout.
 */
import { InputError } from '../src/errors';
import { describe, expect, it } from 'vitest';
import { SoftSim, ropeParameters, type RopeOptions, type SoftBody } from '../src/game/sim';

const G = 9.81;

function cantilever(o: RopeOptions): { sim: SoftSim; rod: SoftBody; length: number } {
  const sim = new SoftSim({ pixelsPerMetre: 100, originX: 0, originY: 500 });
  const rod = sim.rope([60, 120, 330, 120], { segments: 16, clampStart: true, linearDensity: 2, ...o });
  return { sim, rod, length: 2.7 };
}

/** Runs `steps` steps; returns the tip's largest and final drop below its rest height (m), finiteness and max KE. */
function runRod(sim: SoftSim, rod: SoftBody, steps: number): { maxDrop: number; finalDrop: number; finite: boolean; maxKE: number } {
  const P = sim.world.c.Particle;
  const tip = rod.particles[rod.particles.length - 1]!;
  const y0 = P.y[tip]!;
  let maxDrop = 0, finite = true, maxKE = 0;
  for (let s = 0; s < steps; s++) {
    sim.stepOnce();
    let ke = 0;
    for (const e of rod.particles) {
      if (![P.x[e], P.y[e], P.vx[e], P.vy[e]].every((v) => Number.isFinite(v))) finite = false;
      ke += 0.5 * P.m[e]! * (P.vx[e]! ** 2 + P.vy[e]! ** 2);
    }
    maxKE = Math.max(maxKE, ke);
    maxDrop = Math.max(maxDrop, y0 - P.y[tip]!);
  }
  return { maxDrop, finalDrop: y0 - P.y[tip]!, finite, maxKE };
}

describe('rope options in physical units', () => {
  it('lumps ρ·l/2 on each end of every segment; spring α = EA, hinge α = 2·EI, sag → EI = ρ g L³/(8 sag)', () => {
    const pts = [0, 0, 1, 0, 3, 0];
    const p = ropeParameters(pts, { linearDensity: 2, stiffness: 5e3, bendStiffness: 7 });
    expect(Array.from(p.mass)).toEqual([1, 3, 2]);
    expect(p.length).toBe(3);
    expect(p.springAlpha).toBe(5e3);
    expect(p.hingeAlpha).toBe(14);
    const s = ropeParameters(pts, { linearDensity: 2, sag: 0.05 });
    expect(s.EI).toBeCloseTo((2 * G * 27) / (8 * 0.05), 9);
    // defaults: EA = 200 × weight (hanging strain ≈ 0.25 %), EI 0.025 N·m²
    const d = ropeParameters(pts);
    expect(d.EA).toBeCloseTo(200 * G * 3, 9);
    expect(d.EI).toBe(0.025);
    expect(() => ropeParameters(pts, { sag: 0 })).toThrow(InputError);
    expect(() => ropeParameters(pts, { linearDensity: -1 })).toThrow(InputError);
  });

  it('the world gets exactly those masses, spring and hinge alphas; clampStart fixes the first two nodes', () => {
    const sim = new SoftSim({ pixelsPerMetre: 100, originX: 0, originY: 500 });
    const r = sim.rope([0, 400, 100, 400, 300, 400], { linearDensity: 2, stiffness: 5e3, bendStiffness: 7, clampStart: true });
    const w = sim.world;
    expect(r.particles.map((e) => w.c.Particle.m[e])).toEqual([1, 3, 2]);
    expect(r.particles.map((e) => w.c.Particle.fixed[e])).toEqual([1, 1, 0]);
    expect(w.lists.springs.map((e) => w.c.ElasticSpring.alpha[e])).toEqual([5e3, 5e3]);
    expect(w.lists.hinges.map((e) => w.c.Hinge.alpha[e])).toEqual([14]);
  });
});

describe('clamped cantilever rods (game mode, 60 Hz)', () => {
  it('a stiff rod (sag 1 %) droops less than 5 % of its length and stays finite with bounded energy for 600 steps', () => {
    const { sim, rod, length } = cantilever({ sag: 0.01 });
    const r = runRod(sim, rod, 600);
    expect(r.finite).toBe(true);
    expect(r.maxDrop).toBeLessThan(0.05 * length);
    expect(r.finalDrop).toBeGreaterThan(0);
    // released from rest: the kinetic energy can never exceed the gravitational energy available to the drop
    const mass = 2 * length;
    expect(r.maxKE).toBeLessThan(mass * G * r.maxDrop);
  });

  it('the settled sag follows beam theory ρ g L⁴/(8 EI) within the discretisation (about `sag` × L)', () => {
    for (const sag of [0.005, 0.02]) {
      const { sim, rod, length } = cantilever({ sag });
      const r = runRod(sim, rod, 600);
      expect(r.finite).toBe(true);
      // the clamp is the first segment, so the free span is 15/16 of L: (15/16)⁴ ≈ 0.77 of the continuum sag
      expect(r.finalDrop).toBeGreaterThan(0.5 * sag * length);
      expect(r.finalDrop).toBeLessThan(1.2 * sag * length);
    }
  });

  it('extremely stiff (EI = 1e6 N·m², EA = 1e8 N) still steps: finite, no measurable droop', () => {
    const { sim, rod, length } = cantilever({ bendStiffness: 1e6, stiffness: 1e8 });
    const r = runRod(sim, rod, 600);
    expect(r.finite).toBe(true);
    expect(r.maxDrop).toBeLessThan(1e-3 * length);
  });

  it('the old rods-page rod (hinge α = 6, i.e. EI = 3) folds down: beam theory says ρgL⁴/(8EI) ≈ 43 m ≫ L', () => {
    const { sim, rod, length } = cantilever({ bendStiffness: 3 });
    const r = runRod(sim, rod, 600);
    expect(r.finite).toBe(true);
    expect(r.finalDrop).toBeGreaterThan(0.5 * length);
  });
});

/** Side view of a helix (pixels, y down), as on the gallery's rods page. */
function coilPoints(x0: number, y0: number, radius: number, pitch: number, turns: number, perTurn: number): number[] {
  const pts: number[] = [];
  const n = Math.round(turns * perTurn);
  for (let k = 0; k <= n; k++) {
    const t = (k / perTurn) * Math.PI * 2;
    pts.push(x0 + radius * Math.sin(t), y0 + (pitch * t) / (Math.PI * 2) + 0.35 * radius * (1 - Math.cos(t)));
  }
  return pts;
}

describe('coil spring', () => {
  it('a clamped coil with a 1 kg weight keeps its loops, stretches moderately and bobs (finite for 600 steps)', () => {
    const sim = new SoftSim({ pixelsPerMetre: 100, originX: 0, originY: 500 });
    const pts = coilPoints(400, 40, 30, 22, 7, 18);
    const coil = sim.rope(pts, { bendStiffness: 12, linearDensity: 0.3, clampStart: true, bodyContact: false });
    let lowest = 0;
    for (let i = 1; i < pts.length; i += 2) lowest = Math.max(lowest, pts[i]!);
    const weight = sim.jelly(pts[pts.length - 2]!, lowest + 30, { width: 56, height: 44, resolution: 14, stiffness: 3e5, density: 4 });
    sim.tie(coil, coil.particles.length - 1, weight);
    const w = sim.world, P = w.c.Particle, H = w.c.Hinge;
    const coilLength = (pts[pts.length - 1]! - pts[1]!) / 100;
    const y0 = weight.centroid.y;
    const ys: number[] = [];
    let maxBend = 0;
    for (let s = 0; s < 600; s++) {
      sim.stepOnce();
      ys.push(weight.centroid.y);
      for (const h of w.lists.hinges) {
        const a = H.a[h]!, b = H.b[h]!, c = H.c[h]!;
        const e1x = P.x[b]! - P.x[a]!, e1y = P.y[b]! - P.y[a]!, e2x = P.x[c]! - P.x[b]!, e2y = P.y[c]! - P.y[b]!;
        const th = Math.atan2(e1x * e2y - e1y * e2x, e1x * e2x + e1y * e2y);
        maxBend = Math.max(maxBend, Math.abs(th - H.theta0[h]!));
      }
    }
    expect(ys.every(Number.isFinite)).toBe(true);
    // each hinge turns ~20° at rest (18 per loop); the loops keep their shape: no hinge leaves its rest angle by > 12°
    expect(maxBend).toBeLessThan((12 * Math.PI) / 180);
    const ext = ys.map((y) => (y - y0) / 100);
    const mean = ext.slice(300).reduce((s, v) => s + v, 0) / 300;
    // stretches under the weight, but by well under its own length (the old α = 8 coil reached the floor)
    expect(mean).toBeGreaterThan(0.1 * coilLength);
    expect(mean).toBeLessThan(0.8 * coilLength);
    // bobs: the extension crosses its late mean several times
    let crossings = 0;
    for (let i = 1; i < ext.length; i++) if ((ext[i - 1]! - mean) * (ext[i]! - mean) < 0) crossings++;
    expect(crossings).toBeGreaterThanOrEqual(4);
  });
});
