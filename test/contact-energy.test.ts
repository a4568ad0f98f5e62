/**
 * Energy accounting of frictionless contact in the game-mode solve (src/collision/implicit.ts):
 * contact must never add energy. Total mechanical energy = kinetic + elastic + gravity + contact
 * (the step's candidate potentials at the end-of-step positions).
 */
import { describe, expect, it } from 'vitest';
import { PhysicsWorld } from '../src/world';
import { meshBox } from '../src/mesh';

const RADIUS = 0.025;

function addJelly(w: PhysicsWorld, cx: number, cy: number, wd: number, ht: number, nx: number, ny: number, vx: number): void {
  const mesh = meshBox(wd, ht, nx, ny);
  const body = w.createBody();
  const ids: number[] = [];
  for (let v = 0; v < mesh.positions.length / 2; v++) {
    ids.push(w.addParticle({ x: cx + mesh.positions[2 * v]!, y: cy + mesh.positions[2 * v + 1]!, vx, m: 0, radius: RADIUS, body }));
  }
  for (let t = 0; t < mesh.triangles.length; t += 3) {
    w.addTriangle(ids[mesh.triangles[t]!]!, ids[mesh.triangles[t + 1]!]!, ids[mesh.triangles[t + 2]!]!, { youngsModulus: 2e4, poissonRatio: 0.3, density: 100 });
  }
}

/** Kinetic, potential without contact (elastic + gravity), contact energy at the current state. */
function energies(w: PhysicsWorld): { ke: number; ep: number; ec: number; total: number } {
  const m = w.forceModel(), t = w.topology();
  const x = w.readPositions(), v = w.readVelocities();
  const c = m.contact;
  m.contact = null;
  const ep = m.energy(x);
  m.contact = c;
  const ec = c ? c.energy(x) : 0;
  let ke = 0;
  for (let i = 0; i < t.n; i++) ke += 0.5 * t.mass[2 * i]! * (v[2 * i]! ** 2 + v[2 * i + 1]! ** 2);
  return { ke, ep, ec, total: ke + ep + ec };
}

/** Mean x velocity and mean height of particles [from, to). */
function means(w: PhysicsWorld, from: number, to: number): { vx: number; y: number } {
  const p = w.readPositions(), v = w.readVelocities();
  let vx = 0, y = 0;
  for (let i = from; i < to; i++) {
    vx += v[2 * i]! / (to - from);
    y += p[2 * i + 1]! / (to - from);
  }
  return { vx, y };
}

/**
 * A lower slab (6 m, 60 × 2 cells) on a frictionless floor moving at −0.5 m/s and an upper slab
 * (width wd) resting on it at +0.5 m/s, centred at cx; frictionless contact everywhere.
 */
function slabs(wd: number, cx: number): PhysicsWorld {
  const w = new PhysicsWorld({ dt: 1 / 60 });
  w.addHalfplane(0, 0, 0, 1);
  addJelly(w, 0, 0.1 + RADIUS, 6, 0.2, 60, 2, -0.5);
  addJelly(w, cx, 0.3 + 3 * RADIUS, wd, 0.2, Math.round(10 * wd), 2, 0.5);
  w.contacts.enabled = true;
  w.contacts.friction = 0;
  return w;
}

const LOWER = 61 * 3; // nodes of the lower slab (created first)

describe('frictionless contact adds no energy', () => {
  it('a 2 m slab sliding on a 6 m slab at a relative 1 m/s for 2.5 s keeps its speed (±0.5 m/s within 2 %) and total energy never grows by more than 0.1 %', () => {
    const w = slabs(2, -1);
    const n = w.particleCount();
    let e0 = 0, worstGain = -Infinity;
    for (let s = 1; s <= 150; s++) {
      w.step();
      const e = energies(w).total;
      if (s === 10) e0 = e; // after the initial settling onto the contact layer
      if (s > 10) worstGain = Math.max(worstGain, e - e0);
      expect(w.lastStats.failSafeSteps).toBe(0);
    }
    const lo = means(w, 0, LOWER), up = means(w, LOWER, n);
    expect(Math.abs(lo.vx + 0.5)).toBeLessThan(0.01);
    expect(Math.abs(up.vx - 0.5)).toBeLessThan(0.01);
    expect(worstGain).toBeLessThan(1e-3 * e0);
    expect(up.y).toBeGreaterThan(0.34); // still resting on the lower slab
  }, 120_000);

  it('two 6 m slabs sliding apart: the speed-up is gravity (the upper slab droops over the lower one\'s end and slides off) — total energy never exceeds its settled value by more than 0.1 %', () => {
    const w = slabs(6, 0);
    const n = w.particleCount();
    let e0 = 0, worstGain = -Infinity, y0 = 0, ep0 = 0, ke0 = 0;
    for (let s = 1; s <= 240; s++) {
      w.step();
      const e = energies(w);
      if (s === 10) {
        e0 = e.total;
        ep0 = e.ep;
        ke0 = e.ke;
        y0 = means(w, LOWER, n).y;
      }
      if (s > 10) worstGain = Math.max(worstGain, e.total - e0);
    }
    const up = means(w, LOWER, n), lo = means(w, 0, LOWER), e = energies(w);
    // the slabs sped up (|v| > 1.2 m/s from 0.5) ...
    expect(up.vx).toBeGreaterThan(1.2);
    expect(lo.vx).toBeLessThan(-1.2);
    // ... because the upper slab came down (0.35 → ~0.12 m) and gravity paid for it
    expect(y0 - up.y).toBeGreaterThan(0.15);
    // the kinetic energy gained (×~8) is less than the potential (gravity + elastic) energy lost
    expect(e.ke).toBeGreaterThan(4 * ke0);
    expect(ep0 - e.ep).toBeGreaterThan(e.ke - ke0);
    expect(worstGain).toBeLessThan(1e-3 * e0);
    expect(e.total).toBeLessThan(e0);
  }, 120_000);
});
