/**
 * The slot look-ups and the compact scatter map that the per-step code uses instead of the plain
 * forms (src/solver/pattern.ts findDiagonalSlot / findSlotAfter, src/solver/topology.ts scatter, and
 * the contact potential's slots kept from the last look-up, src/collision/implicit.ts computeSlots):
 * each must give exactly what the plain form gives (contact's slots; the assembled matrix, bit for bit).
 */
import { describe, expect, it } from 'vitest';
import { buildPattern, findDiagonalSlot, findSlot, findSlotAfter } from '../src/solver/pattern';
import { scatter } from '../src/solver/topology';
import { PhysicsWorld } from '../src/world';
import { meshBox } from '../src/mesh';
import { Rng } from '../src/math/rng';
import { makeJellyPile } from '../src/cli/bench-jellies';
import type { SymPattern } from '../src/solver/pattern';

describe('slot look-ups', () => {
  it('findDiagonalSlot and findSlotAfter agree with findSlot on every entry, present or not', () => {
    const rng = new Rng(7);
    const nNodes = 40, pairs: number[] = [];
    for (let k = 0; k < 60; k++) pairs.push(Math.floor(rng.range(0, nNodes)), Math.floor(rng.range(0, nNodes)));
    const p = buildPattern(nNodes, 2, [{ nodes: Int32Array.from(pairs), k: 2 }]);
    let present = 0;
    for (let j = 0; j < p.n; j++) {
      expect(findDiagonalSlot(p, j)).toBe(findSlot(p, j, j));
      for (let i = j + 1; i < p.n; i++) {
        const want = findSlot(p, i, j);
        if (want >= 0) present++;
        expect(findSlotAfter(p, findSlot(p, i - 1, j), i, j)).toBe(want);
      }
    }
    expect(present).toBeGreaterThan(100);
  });
});

describe('compact scatter map', () => {
  it('assembles every element Hessian exactly as the full (2k)² map with its −1 entries did', () => {
    const w = new PhysicsWorld({});
    const m = meshBox(1, 1, 4, 4);
    const ids: number[] = [];
    for (let v = 0; v < m.positions.length / 2; v++) ids.push(w.addParticle({ x: m.positions[2 * v]!, y: m.positions[2 * v + 1]!, m: 0.1 }));
    for (let t = 0; t < m.triangles.length; t += 3) w.addTriangle(ids[m.triangles[t]!]!, ids[m.triangles[t + 1]!]!, ids[m.triangles[t + 2]!]!, { youngsModulus: 1e3, poissonRatio: 0.3 });
    for (let k = 0; k + 1 < ids.length; k += 3) w.addSpring(ids[k]!, ids[k + 1]!, { alpha: 10 });
    w.step();
    const t = w.topology();
    const rng = new Rng(11);
    for (const f of [t.triangles, t.springs]) {
      expect(f.count).toBeGreaterThan(0);
      const mm = 4 * f.k * f.k;
      const got = new Float64Array(t.pattern.nnz), want = new Float64Array(t.pattern.nnz);
      const h = new Float64Array(mm);
      for (let e = 0; e < f.count; e++) {
        for (let r = 0; r < mm; r++) h[r] = rng.range(-1, 1);
        const scale = rng.range(0.5, 2);
        scatter(got, f, e, h, scale);
        for (let r = 0; r < mm; r++) {
          const slot = f.scatter[e * mm + r]!;
          if (slot >= 0) want[slot] = want[slot]! + scale * h[r]!;
        }
      }
      expect(Array.from(got)).toEqual(Array.from(want));
    }
  });
});

/** The contact potential's private slot state, as computeSlots keeps it. */
interface SlotState {
  total: number;
  slots: Int32Array;
  slotNodes: Int32Array;
  computeSlots(p: SymPattern): void;
  majorized: number;
  isMajorized(k: number): boolean;
}

describe('contact slots kept over searches', () => {
  it('equal a fresh look-up after every step of a landing pile (pattern growths included)', () => {
    const w = new PhysicsWorld({});
    makeJellyPile(w, 6, 50);
    const pot = w.contacts.potential as unknown as SlotState;
    let compared = 0;
    const builds0 = w.lastStats.contactRebuildsTotal;
    for (let step = 0; step < 150; step++) {
      w.step();
      const n = 21 * pot.total;
      const kept = pot.slots.slice(0, n), keptMajor = pot.majorized;
      const majors = Array.from({ length: pot.total }, (_, k) => pot.isMajorized(k));
      pot.slotNodes.fill(-2); // forget every earlier look-up
      pot.computeSlots(w.topology().pattern);
      expect(Array.from(pot.slots.slice(0, n))).toEqual(Array.from(kept));
      expect(pot.majorized).toBe(keptMajor);
      expect(Array.from({ length: pot.total }, (_, k) => pot.isMajorized(k))).toEqual(majors);
      compared += pot.total;
    }
    expect(compared).toBeGreaterThan(1000);
    expect(w.lastStats.contactRebuildsTotal).toBeGreaterThan(builds0); // the pattern grew on the way
  });
});
