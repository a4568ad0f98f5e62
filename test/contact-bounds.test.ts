/**
 * Far candidates (src/collision/implicit.ts, farAt; docs/contact.md, "Far candidates"): inside a
 * solve, energy, gradient, Hessian and maxStep skip a candidate whose reference distance minus a
 * bound on its nodes' motion is still beyond its reach. Their terms are exact zeros there, so every
 * result must be bit-identical to the exact loops (which run at any buffer the solver did not
 * register). Random scenes with edges (barrier and floor pairs), planes, circles and segments, with
 * and without friction, and directions from millimetres to half a metre: some candidates come into
 * reach along them, most stay out.
 */
import { describe, expect, it } from 'vitest';
import { ContactPotential, KIND_CIRCLE, KIND_EDGE, KIND_PLANE, KIND_SEGMENT } from '../src/collision/implicit';
import { G_ML, NG } from '../src/collision/candidate-kernels';
import { buildPattern } from '../src/solver/pattern';
import { Rng } from '../src/math/rng';

const N = 30;

interface Scene {
  pot: ContactPotential;
  xt: Float64Array;
  nnz: number;
}

function scene(seed: number): Scene {
  const rng = new Rng(seed);
  const xt = new Float64Array(2 * N);
  for (let i = 0; i < 2 * N; i++) xt[i] = rng.range(0, 2);
  const pot = new ContactPotential();
  const triples: number[] = [];
  const node = (): number => Math.floor(rng.range(0, N)) % N;
  for (let e = 0; e < 60; e++) {
    const p = node();
    let a = node(), b = node();
    while (a === p) a = (a + 1) % N;
    while (b === p || b === a) b = (b + 1) % N;
    if (e % 10 === 0) {
      // a particle on the edge's line (d⁰ = 0): a floor pair, no barrier (its signed distance is never skipped)
      xt[2 * p] = 0.5 * (xt[2 * a]! + xt[2 * b]!);
      xt[2 * p + 1] = 0.5 * (xt[2 * a + 1]! + xt[2 * b + 1]!);
    }
    const r = e % 3 === 0 ? 0.2 : 0.05, mu = e % 4 === 0 ? 0.5 : 0;
    pot.add(KIND_EDGE, p, a, b, 0, 0, 0, 0, r, 1e4, mu, 0, 1e-3, xt, e, e % 2 === 0 ? 1 : -1);
    triples.push(p, a, b);
  }
  for (let j = 0; j < 6; j++) {
    const th = rng.range(0, 6.283185307179586), nx = Math.cos(th), ny = Math.sin(th);
    pot.add(KIND_PLANE, node(), -1, -1, nx, ny, rng.range(-1, 2), 0, 0.1, 2e4, j % 2 === 0 ? 0.3 : 0, 0, 1e-3, xt);
    pot.add(KIND_CIRCLE, node(), -1, -1, rng.range(0, 2), rng.range(0, 2), rng.range(0.05, 0.4), 0, 0.1, 2e4, 0, 0, 1e-3, xt);
    pot.add(KIND_SEGMENT, node(), -1, -1, rng.range(0, 2), rng.range(0, 2), rng.range(0, 2), rng.range(0, 2), 0.1, 2e4, 0, 0, 1e-3, xt, 100 + j, 1);
  }
  const ones: number[] = [];
  for (let i = 0; i < N; i++) ones.push(i);
  const pattern = buildPattern(N, 2, [{ nodes: Int32Array.from(triples), k: 3 }, { nodes: Int32Array.from(ones), k: 1 }]);
  pot.computeSlots(pattern);
  return { pot, xt, nnz: pattern.nnz };
}

function expectSameBits(a: Float64Array, b: Float64Array): void {
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) expect([i, a[i]]).toEqual([i, b[i]]);
}

describe('far candidates: skipped terms are exact zeros', () => {
  it('energy, gradient, Hessian and maxStep inside a solve are bit-identical to the exact loops, and most candidates are skipped', () => {
    let far = 0, near = 0, reached = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const { pot, xt, nnz } = scene(seed);
      const rng = new Rng(1000 + seed);
      const x = new Float64Array(2 * N), trial = new Float64Array(2 * N), copy = new Float64Array(2 * N);
      for (let i = 0; i < 2 * N; i++) x[i] = xt[i]! + rng.range(-0.01, 0.01);
      const out = new Float64Array(1), ref = new Float64Array(1);
      const al = new Float64Array(1);
      pot.boundsBegin(x, trial, al);
      copy.set(x);
      pot.energyTo(x, out);
      pot.energyTo(copy, ref);
      expect(Object.is(out[0], ref[0])).toBe(true);
      const dir = new Float64Array(2 * N), dirCopy = new Float64Array(2 * N);
      for (let it = 0; it < 6; it++) {
        copy.set(x);
        const g = new Float64Array(2 * N), gRef = new Float64Array(2 * N);
        pot.gradient(x, g);
        pot.gradient(copy, gRef);
        expectSameBits(g, gRef);
        const H = new Float64Array(nnz), HRef = new Float64Array(nnz);
        pot.hessian(x, 0.7, H);
        pot.hessian(copy, 0.7, HRef);
        expectSameBits(H, HRef);
        for (let k = 0; k < pot.total; k++) if (pot.isFar(k, 0)) far++; else near++;
        // directions from a millimetre to half a metre per node
        const scale = [0.002, 0.5, 0.05, 0.5, 0.2, 1][it]!;
        // in odd iterations only a third of the nodes move (an edge with one end still, the other sweeping)
        for (let i = 0; i < N; i++) {
          const moves = it % 2 === 0 || rng.next() < 0.33;
          dir[2 * i] = moves ? rng.range(-scale, scale) : 0;
          dir[2 * i + 1] = moves ? rng.range(-scale, scale) : 0;
        }
        dirCopy.set(dir);
        pot.boundsDirection(dir);
        // the solver without a line search calls no maxStep: the trials then test each candidate themselves
        if (it !== 3) {
          const ms = new Float64Array(1), msRef = new Float64Array(1);
          pot.maxStepTo(x, dir, ms);
          pot.maxStepTo(copy, dirCopy, msRef);
          expect(Object.is(ms[0], msRef[0])).toBe(true);
        }
        for (const alpha of [1, 0.5, 0.25, 0.125, 1 / 64]) {
          for (let i = 0; i < 2 * N; i++) trial[i] = x[i]! + alpha * dir[i]!;
          al[0] = alpha;
          copy.set(trial);
          pot.energyTo(trial, out);
          pot.energyTo(copy, ref);
          expect(Object.is(out[0], ref[0])).toBe(true);
          if (ref[0]! > 0) reached++;
        }
        // accept α = 1/4 (the line search's trial buffer becomes the iterate)
        for (let i = 0; i < 2 * N; i++) trial[i] = x[i]! + 0.25 * dir[i]!;
        x.set(trial);
        pot.boundsAccept(Float64Array.of(0.25));
      }
      pot.boundsEnd();
      // after the solve, the iterate's buffer is any point again: moved, it is computed exactly
      for (let i = 0; i < 2 * N; i++) x[i] = x[i]! + 0.3;
      copy.set(x);
      pot.energyTo(x, out);
      pot.energyTo(copy, ref);
      expect(Object.is(out[0], ref[0])).toBe(true);
    }
    // not vacuous: most candidates were skipped, some were not, and trials reached some
    expect(far).toBeGreaterThan(near);
    expect(near).toBeGreaterThan(0);
    expect(reached).toBeGreaterThan(20);
  });

  it('floor pairs (signed distance to an edge line) and pairs with friction are never skipped', () => {
    const { pot, xt } = scene(3);
    const x = Float64Array.from(xt), trial = new Float64Array(2 * N);
    pot.boundsBegin(x, trial, new Float64Array(1));
    pot.energyTo(x, new Float64Array(1));
    let floors = 0, frictional = 0;
    for (let k = 0; k < pot.total; k++) {
      if (pot.hasFloor(k) && pot.kind[k] === KIND_EDGE) {
        floors++;
        expect(pot.isFar(k, 0)).toBe(false);
      }
      if (pot.geo[NG * k + G_ML]! > 0) {
        frictional++;
        expect(pot.isFar(k, 0)).toBe(false);
      }
    }
    expect(floors).toBeGreaterThan(0);
    expect(frictional).toBeGreaterThan(0);
    pot.boundsEnd();
    // outside a solve nothing is skipped
    for (let k = 0; k < pot.total; k++) expect(pot.isFar(k, 0)).toBe(false);
  });
});
