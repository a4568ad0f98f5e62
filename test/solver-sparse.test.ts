import { describe, expect, it } from 'vitest';
import {
  fillReducingOrder,
  buildPattern,
  buildScatter,
  DenseLU,
  detectBlockSize,
  findSlot,
  diagonalSlots,
  jacobiInverse,
  pcg,
  PcgWorkspace,
  SparseLDLT,
  symMultiply,
  SymmetricSolver,
  type CliqueGroup,
  type SymPattern,
} from '../src/solver/index.js';

// ---------------------------------------------------------------- helpers

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Dense Gaussian elimination with full pivoting (reference). a is row-major n x n (copied). */
function denseSolveRef(aIn: Float64Array, bIn: Float64Array, n: number): Float64Array {
  const a = Float64Array.from(aIn);
  const b = Float64Array.from(bIn);
  const colOf = Array.from({ length: n }, (_, i) => i);
  for (let k = 0; k < n; k++) {
    let best = -1;
    let pr = k;
    let pc = k;
    for (let i = k; i < n; i++)
      for (let j = k; j < n; j++)
        if (Math.abs(a[i * n + j]) > best) {
          best = Math.abs(a[i * n + j]);
          pr = i;
          pc = j;
        }
    if (best === 0) throw new Error('reference: singular');
    for (let j = 0; j < n; j++) [a[k * n + j], a[pr * n + j]] = [a[pr * n + j], a[k * n + j]];
    [b[k], b[pr]] = [b[pr], b[k]];
    for (let i = 0; i < n; i++) [a[i * n + k], a[i * n + pc]] = [a[i * n + pc], a[i * n + k]];
    [colOf[k], colOf[pc]] = [colOf[pc], colOf[k]];
    for (let i = k + 1; i < n; i++) {
      const l = a[i * n + k] / a[k * n + k];
      if (l === 0) continue;
      for (let j = k; j < n; j++) a[i * n + j] -= l * a[k * n + j];
      b[i] -= l * b[k];
    }
  }
  const y = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let s = b[i];
    for (let j = i + 1; j < n; j++) s -= a[i * n + j] * y[j];
    y[i] = s / a[i * n + i];
  }
  const x = new Float64Array(n);
  for (let k = 0; k < n; k++) x[colOf[k]] = y[k];
  return x;
}

/** Full dense matrix from the lower pattern. */
function toDense(p: SymPattern, values: Float64Array): Float64Array {
  const n = p.n;
  const a = new Float64Array(n * n);
  for (let j = 0; j < n; j++)
    for (let q = p.colPtr[j]; q < p.colPtr[j + 1]; q++) {
      const i = p.rowIdx[q];
      a[i * n + j] += values[q];
      if (i !== j) a[j * n + i] += values[q];
    }
  return a;
}

function denseMul(a: Float64Array, x: Float64Array, n: number): Float64Array {
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += a[i * n + j] * x[j];
    y[i] = s;
  }
  return y;
}

const normInf = (v: Float64Array): number => v.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
function denseNormInf(a: Float64Array, n: number): number {
  let m = 0;
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += Math.abs(a[i * n + j]);
    m = Math.max(m, s);
  }
  return m;
}
/** ||b - A x|| / (||A|| ||x|| + ||b||) */
function backwardError(a: Float64Array, x: Float64Array, b: Float64Array, n: number): number {
  const ax = denseMul(a, x, n);
  const r = ax.map((v, i) => b[i] - v);
  return normInf(r) / (denseNormInf(a, n) * normInf(x) + normInf(b));
}
function relDiff(x: Float64Array, y: Float64Array): number {
  let m = 0;
  for (let i = 0; i < x.length; i++) m = Math.max(m, Math.abs(x[i] - y[i]));
  return m / normInf(y);
}

interface Mesh {
  nNodes: number;
  groups: CliqueGroup[];
}

/** Structured triangle grid (nx x ny squares, 2 triangles each) with scrambled node numbering, plus random springs. */
function makeMesh(nx: number, ny: number, rng: () => number, springs = 0, withRepeated = false): Mesh {
  const nNodes = (nx + 1) * (ny + 1);
  const scramble = Array.from({ length: nNodes }, (_, i) => i);
  for (let i = nNodes - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [scramble[i], scramble[j]] = [scramble[j], scramble[i]];
  }
  const id = (i: number, j: number): number => scramble[j * (nx + 1) + i];
  const tris: number[] = [];
  for (let j = 0; j < ny; j++)
    for (let i = 0; i < nx; i++) {
      tris.push(id(i, j), id(i + 1, j), id(i + 1, j + 1));
      tris.push(id(i, j), id(i + 1, j + 1), id(i, j + 1));
    }
  if (withRepeated) tris.push(id(0, 0), id(0, 0), id(nx, ny)); // degenerate element with a repeated node
  const groups: CliqueGroup[] = [{ nodes: Int32Array.from(tris), k: 3 }];
  if (springs > 0) {
    const s: number[] = [];
    for (let t = 0; t < springs; t++) s.push(Math.floor(rng() * nNodes), Math.floor(rng() * nNodes));
    groups.push({ nodes: Int32Array.from(s), k: 2 });
  }
  return { nNodes, groups };
}

type Kind = 'spd' | 'indefinite';

/** Random symmetric element matrix (kd x kd, row-major). SPD: B B^T; indefinite: random symmetric. */
function elementMatrix(kd: number, rng: () => number, kind: Kind): Float64Array {
  const m = new Float64Array(kd * kd);
  if (kind === 'spd') {
    const b = Array.from({ length: kd * kd }, () => rng() * 2 - 1);
    for (let i = 0; i < kd; i++)
      for (let j = 0; j < kd; j++) {
        let s = 0;
        for (let t = 0; t < kd; t++) s += b[i * kd + t] * b[j * kd + t];
        m[i * kd + j] = s;
      }
  } else {
    for (let i = 0; i < kd; i++)
      for (let j = 0; j <= i; j++) {
        const v = rng() * 2 - 1;
        m[i * kd + j] = v;
        m[j * kd + i] = v;
      }
  }
  return m;
}

/** Assemble random element matrices via the scatter maps (and densely, for reference). */
function assemble(p: SymPattern, mesh: Mesh, d: number, rng: () => number, kind: Kind): { values: Float64Array; dense: Float64Array } {
  const n = p.n;
  const values = new Float64Array(p.nnz);
  const dense = new Float64Array(n * n);
  for (const g of mesh.groups) {
    const kd = g.k * d;
    const scatter = buildScatter(p, g.nodes, g.k, d);
    const ne = g.nodes.length / g.k;
    for (let e = 0; e < ne; e++) {
      const ke = elementMatrix(kd, rng, kind);
      for (let r = 0; r < kd; r++)
        for (let c = 0; c < kd; c++) {
          const s = scatter[e * kd * kd + r * kd + c];
          if (s >= 0) values[s] += ke[r * kd + c];
          const R = g.nodes[e * g.k + Math.floor(r / d)] * d + (r % d);
          const C = g.nodes[e * g.k + Math.floor(c / d)] * d + (c % d);
          dense[R * n + C] += ke[r * kd + c];
        }
    }
  }
  const diag = diagonalSlots(p);
  for (let i = 0; i < n; i++) {
    const shift = kind === 'spd' ? 0.1 + rng() : (rng() < 0.5 ? -1 : 1) * (0.5 + rng());
    values[diag[i]] += shift;
    dense[i * n + i] += shift;
  }
  return { values, dense };
}

function randomVec(n: number, rng: () => number): Float64Array {
  return Float64Array.from({ length: n }, () => rng() * 2 - 1);
}

// ---------------------------------------------------------------- pattern

describe('buildPattern / buildScatter', () => {
  for (const d of [1, 2, 3]) {
    it(`pattern invariants and exact coupling set (d=${d})`, () => {
      const rng = mulberry32(11 + d);
      const mesh = makeMesh(5, 4, rng, 7, true);
      const nIso = 2; // isolated nodes still get diagonals
      const p = buildPattern(mesh.nNodes + nIso, d, mesh.groups);
      const n = (mesh.nNodes + nIso) * d;
      expect(p.n).toBe(n);
      expect(p.colPtr.length).toBe(n + 1);
      expect(p.colPtr[0]).toBe(0);
      expect(p.colPtr[n]).toBe(p.nnz);
      expect(p.rowIdx.length).toBe(p.nnz);
      // expected coupling set from the elements
      const want = new Uint8Array(n * n);
      // every node gets its full (lower) d x d diagonal block, isolated nodes included
      for (let i = 0; i < n; i++) for (let j = i - (i % d); j <= i; j++) want[i * n + j] = 1;
      for (const g of mesh.groups)
        for (let e = 0; e < g.nodes.length / g.k; e++)
          for (let a = 0; a < g.k; a++)
            for (let b = 0; b < g.k; b++)
              for (let ca = 0; ca < d; ca++)
                for (let cb = 0; cb < d; cb++) {
                  const R = g.nodes[e * g.k + a] * d + ca;
                  const C = g.nodes[e * g.k + b] * d + cb;
                  if (R >= C) want[R * n + C] = 1;
                }
      const got = new Uint8Array(n * n);
      for (let j = 0; j < n; j++) {
        expect(p.rowIdx[p.colPtr[j]]).toBe(j); // diagonal first
        for (let q = p.colPtr[j]; q < p.colPtr[j + 1]; q++) {
          const i = p.rowIdx[q];
          expect(i).toBeGreaterThanOrEqual(j);
          if (q > p.colPtr[j]) expect(i).toBeGreaterThan(p.rowIdx[q - 1]); // strictly ascending
          got[i * n + j] = 1;
        }
      }
      expect(Array.from(got)).toEqual(Array.from(want));
      expect(diagonalSlots(p)).toEqual(p.colPtr.subarray(0, n));
    });
  }

  it('scatter assembly equals dense assembly (SPD and indefinite, repeated nodes, k=2 and k=3)', () => {
    for (const d of [2, 3]) {
      for (const kind of ['spd', 'indefinite'] as Kind[]) {
        const rng = mulberry32(100 + d);
        const mesh = makeMesh(4, 3, rng, 5, true);
        const p = buildPattern(mesh.nNodes, d, mesh.groups);
        const { values, dense } = assemble(p, mesh, d, rng, kind);
        const fromPattern = toDense(p, values);
        for (let t = 0; t < dense.length; t++) expect(fromPattern[t]).toBeCloseTo(dense[t], 12);
      }
    }
  });

  it('scatter marks upper entries -1 and lower entries with valid slots', () => {
    const p = buildPattern(3, 2, [{ nodes: Int32Array.from([2, 0, 1]), k: 3 }]);
    const s = buildScatter(p, Int32Array.from([2, 0, 1]), 3, 2);
    expect(s.length).toBe(36);
    const nodes = [2, 0, 1];
    for (let r = 0; r < 6; r++)
      for (let c = 0; c < 6; c++) {
        const R = nodes[r >> 1] * 2 + (r & 1);
        const C = nodes[c >> 1] * 2 + (c & 1);
        const slot = s[r * 6 + c];
        if (R < C) expect(slot).toBe(-1);
        else {
          expect(p.rowIdx[slot]).toBe(R);
          expect(slot).toBeGreaterThanOrEqual(p.colPtr[C]);
          expect(slot).toBeLessThan(p.colPtr[C + 1]);
        }
      }
  });

  it('the two-dof scatter map (by node blocks) holds findSlot\'s slot for every lower entry, on any pattern that has them', () => {
    const rng = mulberry32(2024);
    const mesh = makeMesh(6, 5, rng, 9, true);
    const tris = mesh.groups[0]!.nodes;
    // the element pattern; one with contact-like node pairs added; and a scalar pattern over the dofs with extra
    // single-dof couplings, where columns 2C and 2C + 1 differ by more than row 2C (the derived slots miss there)
    const dofPairs: number[] = [];
    for (let t = 0; t < tris.length; t++) for (let u = 0; u < tris.length && u < 3; u++) dofPairs.push(2 * tris[t]!, 2 * tris[u]! + 1);
    for (let q = 0; q < 30; q++) dofPairs.push(Math.floor(rng() * 2 * mesh.nNodes), Math.floor(rng() * 2 * mesh.nNodes));
    const dofCliques = mesh.groups.map((g) => ({ nodes: Int32Array.from(Array.from(g.nodes).flatMap((v) => [2 * v, 2 * v + 1])), k: 2 * g.k }));
    const patterns = [
      buildPattern(mesh.nNodes, 2, mesh.groups),
      buildPattern(mesh.nNodes, 2, [...mesh.groups, { nodes: Int32Array.from({ length: 40 }, () => Math.floor(rng() * mesh.nNodes)), k: 2 }]),
      buildPattern(2 * mesh.nNodes, 1, [...dofCliques, { nodes: Int32Array.from(dofPairs), k: 2 }]),
    ];
    for (const p of patterns) {
      for (const g of mesh.groups) {
        const kd = 2 * g.k, map = buildScatter(p, g.nodes, g.k, 2);
        for (let e = 0; e < g.nodes.length / g.k; e++) {
          for (let r = 0; r < kd; r++) {
            for (let c = 0; c < kd; c++) {
              const R = 2 * g.nodes[e * g.k + (r >> 1)]! + (r & 1), C = 2 * g.nodes[e * g.k + (c >> 1)]! + (c & 1);
              expect(map[e * kd * kd + r * kd + c]).toBe(R >= C ? findSlot(p, R, C) : -1);
            }
          }
        }
      }
    }
    expect(() => buildScatter(patterns[0]!, Int32Array.from([tris[0]!, tris[1]!, 999]), 3, 2)).toThrow(/outside the pattern/);
    expect(() => buildScatter(patterns[0]!, Int32Array.from([tris[0]!, -1]), 2, 2)).toThrow(/outside the pattern/);
  });

  it('rejects bad input', () => {
    expect(() => buildPattern(3, 2, [{ nodes: Int32Array.from([0, 1, 5]), k: 3 }])).toThrow(/outside/);
    expect(() => buildPattern(3, 2, [{ nodes: Int32Array.from([0, 1]), k: 3 }])).toThrow(/multiple/);
  });

  it('symMultiply matches dense multiply', () => {
    const rng = mulberry32(5);
    const mesh = makeMesh(6, 5, rng, 4);
    const p = buildPattern(mesh.nNodes, 2, mesh.groups);
    const { values, dense } = assemble(p, mesh, 2, rng, 'indefinite');
    const x = randomVec(p.n, rng);
    const y = new Float64Array(p.n);
    symMultiply(p, values, x, y);
    const yr = denseMul(dense, x, p.n);
    expect(relDiff(y, yr)).toBeLessThan(1e-14);
  });
});

// ---------------------------------------------------------------- ordering

describe('fillReducingOrder', () => {
  it('is a node-block permutation and reduces fill vs natural order on a scrambled grid', () => {
    const rng = mulberry32(3);
    const mesh = makeMesh(20, 20, rng);
    const p = buildPattern(mesh.nNodes, 2, mesh.groups);
    expect(detectBlockSize(p)).toBe(2);
    const perm = fillReducingOrder(p, 2);
    expect(perm.length).toBe(p.n);
    expect(Array.from(perm).sort((a, b) => a - b)).toEqual(Array.from({ length: p.n }, (_, i) => i));
    for (let K = 0; K < p.n / 2; K++) {
      expect(perm[2 * K] % 2).toBe(0);
      expect(perm[2 * K + 1]).toBe(perm[2 * K] + 1);
    }
    expect(fillReducingOrder(p)).toEqual(perm); // detected block size gives the same ordering
    const natural = new SparseLDLT(p);
    const md = new SparseLDLT(p, perm);
    // 21x21 grid: natural (scrambled) order fills almost completely; minimum degree far below.
    expect(md.nnzL).toBeLessThan(natural.nnzL / 4);
    // nested-dissection-quality bound for a 2D grid: O(n log n); generous constant
    expect(md.nnzL).toBeLessThan(30 * p.n);
  });

  it('handles empty, single-node and disconnected graphs', () => {
    expect(fillReducingOrder(buildPattern(0, 2, []), 2).length).toBe(0);
    expect(Array.from(fillReducingOrder(buildPattern(1, 2, []), 2))).toEqual([0, 1]);
    const p = buildPattern(5, 1, [{ nodes: Int32Array.from([0, 3, 1, 4]), k: 2 }]);
    expect(Array.from(fillReducingOrder(p, 1)).sort()).toEqual([0, 1, 2, 3, 4]);
  });
});

// ---------------------------------------------------------------- LDL^T

describe('SparseLDLT', () => {
  it('factors an SPD system whose rows differ in scale by more than 1/pivot tolerance (no dense fallback)', () => {
    // regression: the pivot test was relative to max |A_ii|, so diag(1e14, 5) counted as singular and
    // game-mode Newton fell back to a dense LU (5 s per solve on a 1,152-dof stirred pile)
    for (const paired of [true, false]) {
      const mesh = { nNodes: 3, groups: [{ nodes: Int32Array.from([0, 1, 1, 2]), k: 2 }] as CliqueGroup[] };
      const p = buildPattern(mesh.nNodes, 2, mesh.groups);
      const values = new Float64Array(p.nnz);
      const diag = diagonalSlots(p);
      const scale = [1e14, 1e14, 5, 5, 7, 7];
      for (let i = 0; i < p.n; i++) values[diag[i]!] = scale[i]!;
      const perm = paired ? Int32Array.from([0, 1, 2, 3, 4, 5]) : Int32Array.from([1, 2, 3, 4, 5, 0]); // the second splits node pairs
      const f = new SparseLDLT(p, perm);
      expect(f.paired).toBe(paired);
      expect(f.factor(values)).toBe(true);
      const x = new Float64Array(p.n);
      f.solve(Float64Array.from([1e14, 0, 5, 10, 7, 0]), x);
      expect(Array.from(x)).toEqual([1, 0, 1, 2, 1, 0]);
      const s = new SymmetricSolver(p);
      expect(s.factor(values)).toBe('ldlt');
      // a pivot that cancels to round-off against its own diagonal still fails
      values[diag[2]!] = 1;
      values[diag[4]!] = 1;
      const off = findSlot(p, 4, 2); // couples node 1 and node 2: [[1, 1], [1, 1]] is singular
      expect(off).toBeGreaterThanOrEqual(0);
      values[off] = 1;
      expect(f.factor(values)).toBe(false);
    }
  });

  const cases: [string, number, number, number][] = [
    ['small', 3, 2, 1],
    ['medium', 8, 6, 2],
    ['larger', 14, 11, 3],
  ];
  for (const [name, nx, ny, seed] of cases) {
    it(`SPD ${name}: matches dense reference`, () => {
      const rng = mulberry32(seed);
      const mesh = makeMesh(nx, ny, rng, 6);
      const p = buildPattern(mesh.nNodes, 2, mesh.groups);
      const { values, dense } = assemble(p, mesh, 2, rng, 'spd');
      const f = new SparseLDLT(p, fillReducingOrder(p, 2));
      expect(f.factor(values)).toBe(true);
      const b = randomVec(p.n, rng);
      const x = new Float64Array(p.n);
      f.solve(b, x);
      const xr = denseSolveRef(dense, b, p.n);
      expect(backwardError(dense, x, b, p.n)).toBeLessThan(1e-14);
      expect(relDiff(x, xr)).toBeLessThan(1e-10);
      expect(f.inertia()).toEqual({ positive: p.n, negative: 0, zero: 0 });
      expect(f.paired).toBe(true); // 2x2 node-block kernel
      // scalar kernel (a permutation that splits node pairs) agrees with the block kernel
      const split = fillReducingOrder(p, 2).slice(1);
      const perm = Int32Array.from([...split, fillReducingOrder(p, 2)[0]]);
      const g = new SparseLDLT(p, perm);
      expect(g.paired).toBe(false);
      expect(g.factor(values)).toBe(true);
      const x2 = new Float64Array(p.n);
      g.solve(b, x2);
      expect(relDiff(x2, x)).toBeLessThan(1e-11);
      expect(backwardError(dense, x2, b, p.n)).toBeLessThan(1e-14);
      // the paired triangular solves do the scalar solves' operations in the same order: bit-for-bit
      const fx = f as unknown as { paired: boolean };
      const b0 = Float64Array.from(b);
      b0[0] = 0; // exercise the zero-skips of the forward solve
      b0[3] = 0;
      const xp = new Float64Array(p.n), xs = new Float64Array(p.n);
      f.solve(b0, xp);
      fx.paired = false;
      f.solve(b0, xs);
      fx.paired = true;
      expect(Array.from(xp)).toEqual(Array.from(xs));
    });

    it(`indefinite ${name}: matches dense reference, inertia consistent`, () => {
      const rng = mulberry32(seed + 1000);
      const mesh = makeMesh(nx, ny, rng, 6);
      const p = buildPattern(mesh.nNodes, 2, mesh.groups);
      const { values, dense } = assemble(p, mesh, 2, rng, 'indefinite');
      const f = new SparseLDLT(p, fillReducingOrder(p, 2));
      expect(f.factor(values)).toBe(true);
      const b = randomVec(p.n, rng);
      const x = new Float64Array(p.n);
      f.solve(b, x);
      const xr = denseSolveRef(dense, b, p.n);
      expect(backwardError(dense, x, b, p.n)).toBeLessThan(1e-12);
      expect(relDiff(x, xr)).toBeLessThan(1e-8);
      const nat = new SparseLDLT(p); // a different elimination order: same Sylvester inertia
      expect(nat.factor(values)).toBe(true);
      const i1 = f.inertia();
      expect(i1.positive + i1.negative).toBe(p.n);
      expect(i1.negative).toBeGreaterThan(0);
      expect(nat.inertia()).toEqual(i1);
    });
  }

  it('symbolic reuse gives bit-identical results to a fresh factorization', () => {
    const rng = mulberry32(77);
    const mesh = makeMesh(9, 7, rng, 3);
    const p = buildPattern(mesh.nNodes, 2, mesh.groups);
    const perm = fillReducingOrder(p, 2);
    const reused = new SparseLDLT(p, perm);
    const b = randomVec(p.n, rng);
    const x1 = new Float64Array(p.n);
    const x2 = new Float64Array(p.n);
    for (const kind of ['spd', 'indefinite', 'spd'] as Kind[]) {
      const { values } = assemble(p, mesh, 2, rng, kind);
      expect(reused.factor(values)).toBe(true);
      reused.solve(b, x1);
      const fresh = new SparseLDLT(p, perm);
      expect(fresh.factor(values)).toBe(true);
      fresh.solve(b, x2);
      expect(Array.from(x1)).toEqual(Array.from(x2));
      expect(Array.from(reused.D)).toEqual(Array.from(fresh.D));
    }
  });

  it('supernode pairs (Nfuse) give the factor of the node-by-node kernel bit for bit, held and kept rows too', () => {
    const rng = mulberry32(91);
    const mesh = makeMesh(12, 10, rng, 3);
    const p = buildPattern(mesh.nNodes, 2, mesh.groups);
    const perm = fillReducingOrder(p, 2);
    const fused = new SparseLDLT(p, perm);
    const plain = new SparseLDLT(p, perm);
    const fuse = (fused as unknown as { Nfuse: Uint8Array }).Nfuse;
    // the mesh's minimum-degree factor has supernode pairs (the fused branch runs), and the plain one has none
    expect(fuse.reduce((a, b) => a + b, 0)).toBeGreaterThan(20);
    (plain as unknown as { Nfuse: Uint8Array }).Nfuse.fill(0);
    expect(fused.paired && plain.paired).toBe(true);
    // held: node 3 held (identity rows), nodes 10 and 11 left as the last factorization made them
    const held = new Uint8Array(mesh.nNodes);
    held[3] = 1;
    held[10] = 2;
    held[11] = 2;
    for (const mask of [null, held]) {
      for (const kind of ['spd', 'spd'] as Kind[]) {
        const { values } = assemble(p, mesh, 2, rng, kind);
        expect(fused.factor(values, mask)).toBe(true);
        expect(plain.factor(values, mask)).toBe(true);
        expect(Array.from(fused.Lx)).toEqual(Array.from(plain.Lx));
        expect(Array.from(fused.D)).toEqual(Array.from(plain.D));
      }
    }
  });

  it('the node-level symbolic analysis finds the structure of the single-row one, so the same factor bit for bit', () => {
    type Structure = { Cp: Int32Array; Ci: Int32Array; Csrc: Int32Array; parent: Int32Array; Lp: Int32Array; Li: Int32Array; Np: Int32Array; Nj: Int32Array; Nend: Int32Array; Nfuse: Uint8Array; Rj: Int32Array };
    const rng = mulberry32(123);
    // a grid with contact-like node pairs (k = 2 cliques), on the fill-reducing order and on a random node order
    for (const [nx, ny, pairs] of [[12, 10, 40], [7, 9, 0], [16, 3, 25]] as const) {
      const mesh = makeMesh(nx, ny, rng, pairs);
      const p = buildPattern(mesh.nNodes, 2, mesh.groups);
      const shuffled = Array.from({ length: mesh.nNodes }, (_, i) => i);
      for (let i = shuffled.length - 1; i > 0; i--) {
        const j = Math.floor(rng() * (i + 1));
        [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
      }
      const randomPerm = Int32Array.from(shuffled.flatMap((v) => [2 * v, 2 * v + 1]));
      for (const perm of [fillReducingOrder(p, 2), randomPerm]) {
        const byNodes = new SparseLDLT(p, perm);
        const byDofs = new SparseLDLT(p, perm, 'dofs');
        const a = byNodes as unknown as Structure, b = byDofs as unknown as Structure;
        expect(a.Rj.length).toBe(0); // the node-level analysis ran
        expect(b.Rj.length).toBe(b.Lp[p.n]);
        expect(byNodes.paired && byDofs.paired).toBe(true);
        expect(byNodes.nnzL).toBe(byDofs.nnzL);
        for (const k of ['parent', 'Lp', 'Li', 'Np', 'Nj', 'Nend', 'Nfuse', 'Cp'] as const) expect(Array.from(a[k]), k).toEqual(Array.from(b[k]));
        // the permuted upper triangle: the same entries (row and source slot) in every column, in another order
        const entries = (f: Structure, col: number): string[] =>
          Array.from({ length: f.Cp[col + 1]! - f.Cp[col]! }, (_, q) => `${f.Ci[f.Cp[col]! + q]}:${f.Csrc[f.Cp[col]! + q]}`).sort();
        for (let col = 0; col < p.n; col++) expect(entries(a, col)).toEqual(entries(b, col));
        expect(a.Nfuse.reduce((s, v) => s + v, 0)).toBeGreaterThan(0);
        const { values } = assemble(p, mesh, 2, rng, 'spd');
        expect(byNodes.factor(values)).toBe(true);
        expect(byDofs.factor(values)).toBe(true);
        expect(Array.from(byNodes.Lx)).toEqual(Array.from(byDofs.Lx));
        expect(Array.from(byNodes.D)).toEqual(Array.from(byDofs.D));
      }
    }
    // not node-blocked (one dof per node, or a permutation that splits a node's dofs): the single-row analysis
    const mesh = makeMesh(5, 4, rng, 3);
    const scalar = buildPattern(mesh.nNodes, 1, mesh.groups);
    expect((new SparseLDLT(scalar, fillReducingOrder(scalar, 1)) as unknown as Structure).Rj.length).toBeGreaterThan(0);
    const p2 = buildPattern(mesh.nNodes, 2, mesh.groups);
    const split = Int32Array.from({ length: p2.n }, (_, i) => (i === 0 ? 1 : i === 1 ? 0 : i));
    const f = new SparseLDLT(p2, split);
    expect((f as unknown as Structure).Rj.length).toBeGreaterThan(0);
    const { values } = assemble(p2, mesh, 2, rng, 'spd');
    expect(f.factor(values)).toBe(true);
  });

  it('solve allows b and x to alias', () => {
    const rng = mulberry32(8);
    const mesh = makeMesh(4, 4, rng);
    const p = buildPattern(mesh.nNodes, 2, mesh.groups);
    const { values } = assemble(p, mesh, 2, rng, 'spd');
    const f = new SparseLDLT(p, fillReducingOrder(p));
    f.factor(values);
    const b = randomVec(p.n, rng);
    const x = new Float64Array(p.n);
    f.solve(b, x);
    const y = Float64Array.from(b);
    f.solve(y, y);
    expect(Array.from(y)).toEqual(Array.from(x));
  });

  it('reports failure on a zero pivot and on non-finite values', () => {
    const p = buildPattern(1, 2, []); // a node's whole diagonal block is in the pattern
    const p2 = buildPattern(1, 2, [{ nodes: Int32Array.from([0]), k: 1 }]);
    expect(p2.nnz).toBe(3);
    const f = new SparseLDLT(p2);
    expect(f.factor(Float64Array.from([0, 1, 0]))).toBe(false);
    expect(f.failedAt).toBe(0);
    expect(() => f.solve(new Float64Array(2), new Float64Array(2))).toThrow(/factor/);
    expect(f.factor(Float64Array.from([1, 2, NaN]))).toBe(false);
    expect(f.factor(Float64Array.from([1, 1, 1]))).toBe(false); // singular: d2 = 0
    expect(f.factor(Float64Array.from([2, 1, 1]))).toBe(true);
    expect(p.nnz).toBe(3);
  });
});

// ---------------------------------------------------------------- dense LU

describe('DenseLU', () => {
  it('matches the reference on random nonsymmetric matrices and detects singularity', () => {
    const rng = mulberry32(21);
    for (const n of [1, 2, 5, 17, 40]) {
      const a = randomVec(n * n, rng);
      const b = randomVec(n, rng);
      const lu = new DenseLU(n);
      expect(lu.factor(a)).toBe(true);
      const x = new Float64Array(n);
      lu.solve(b, x);
      expect(backwardError(a, x, b, n)).toBeLessThan(1e-14);
      expect(relDiff(x, denseSolveRef(a, b, n))).toBeLessThan(1e-9);
    }
    const s = new DenseLU(3);
    expect(s.factor(Float64Array.from([1, 2, 3, 2, 4, 6, 1, 0, 1]))).toBe(false);
    expect(s.rank).toBe(2);
  });
});

// ---------------------------------------------------------------- SymmetricSolver

describe('SymmetricSolver', () => {
  it('uses LDL^T on SPD and random indefinite systems; relative residual ~1e-12 or better', () => {
    for (const kind of ['spd', 'indefinite'] as Kind[]) {
      const rng = mulberry32(kind === 'spd' ? 31 : 32);
      const mesh = makeMesh(12, 10, rng, 5);
      const p = buildPattern(mesh.nNodes, 2, mesh.groups);
      const { values, dense } = assemble(p, mesh, 2, rng, kind);
      const s = new SymmetricSolver(p);
      const b = randomVec(p.n, rng);
      const x = new Float64Array(p.n);
      s.solve(values, b, x);
      expect(s.lastPath).toBe('ldlt');
      const r = denseMul(dense, x, p.n).map((v, i) => b[i] - v);
      expect(normInf(r) / normInf(b)).toBeLessThan(1e-12);
      expect(relDiff(x, denseSolveRef(dense, b, p.n))).toBeLessThan(1e-9);
      expect(s.lastBackwardError).toBeLessThan(1e-15);
    }
  });

  it('handles 3 dofs per node (detected block size, scalar kernel)', () => {
    const rng = mulberry32(33);
    const mesh = makeMesh(6, 5, rng, 3);
    const p = buildPattern(mesh.nNodes, 3, mesh.groups);
    expect(detectBlockSize(p)).toBe(3);
    const { values, dense } = assemble(p, mesh, 3, rng, 'indefinite');
    const s = new SymmetricSolver(p);
    const b = randomVec(p.n, rng);
    const x = new Float64Array(p.n);
    s.solve(values, b, x);
    expect(s.lastPath).toBe('ldlt');
    expect(backwardError(dense, x, b, p.n)).toBeLessThan(1e-15);
    expect(relDiff(x, denseSolveRef(dense, b, p.n))).toBeLessThan(1e-9);
  });

  it('falls back to dense LU on [[0,1],[1,0]]', () => {
    const p = buildPattern(1, 2, [{ nodes: Int32Array.from([0]), k: 1 }]);
    const s = new SymmetricSolver(p);
    const x = new Float64Array(2);
    s.solve(Float64Array.from([0, 1, 0]), Float64Array.from([3, 5]), x);
    expect(s.lastPath).toBe('dense-lu');
    expect(Array.from(x)).toEqual([5, 3]);
    // back to LDL^T when the next matrix is fine
    s.solve(Float64Array.from([2, 1, 2]), Float64Array.from([3, 3]), x);
    expect(s.lastPath).toBe('ldlt');
    expect(x[0]).toBeCloseTo(1, 14);
    expect(x[1]).toBeCloseTo(1, 14);
  });

  it('falls back on larger saddle-point systems with zero diagonal blocks', () => {
    const rng = mulberry32(41);
    const mesh = makeMesh(7, 6, rng, 4);
    const p = buildPattern(mesh.nNodes, 2, mesh.groups);
    const { values, dense } = assemble(p, mesh, 2, rng, 'indefinite');
    // zero out the whole diagonal: every pivot order starts with a 0 pivot
    const diag = diagonalSlots(p);
    for (let i = 0; i < p.n; i++) {
      dense[i * p.n + i] -= values[diag[i]];
      values[diag[i]] = 0;
    }
    const s = new SymmetricSolver(p);
    const b = randomVec(p.n, rng);
    const x = new Float64Array(p.n);
    s.solve(values, b, x);
    expect(s.lastPath).toBe('dense-lu');
    expect(backwardError(dense, x, b, p.n)).toBeLessThan(1e-14);
    expect(relDiff(x, denseSolveRef(dense, b, p.n))).toBeLessThan(1e-8);
  });

  it('rejects an LDL^T solution ruined by a tiny pivot (growth) and falls back', () => {
    // [[e, 1], [1, 1]] is well conditioned, but LDL^T without pivoting has growth 1/e.
    const p = buildPattern(1, 2, [{ nodes: Int32Array.from([0]), k: 1 }]);
    const e = 1e-11; // above the pivot tolerance 1e-13 * max|diag|
    const vals = Float64Array.from([e, 1, 1]);
    const b = Float64Array.from([1, 2]);
    const a = toDense(p, vals);
    const ref = denseSolveRef(a, b, 2);
    // what plain LDL^T gives: poor
    const f = new SparseLDLT(p);
    expect(f.factor(vals)).toBe(true);
    const xl = new Float64Array(2);
    f.solve(b, xl);
    expect(backwardError(a, xl, b, 2)).toBeGreaterThan(1e-10);
    // the solver detects it and falls back
    const s = new SymmetricSolver(p, { ordering: 'natural', refineSteps: 0 });
    const x = new Float64Array(2);
    s.solve(vals, b, x);
    expect(s.lastPath).toBe('dense-lu');
    expect(backwardError(a, x, b, 2)).toBeLessThan(1e-15);
    expect(relDiff(x, ref)).toBeLessThan(1e-14);
  });

  it('throws clearly on singular matrices and beyond the dense limit', () => {
    const p = buildPattern(1, 2, [{ nodes: Int32Array.from([0]), k: 1 }]);
    const s = new SymmetricSolver(p);
    expect(() => s.solve(Float64Array.from([0, 0, 0]), Float64Array.from([1, 1]), new Float64Array(2))).toThrow(/singular/);
    const small = new SymmetricSolver(p, { denseLimit: 1 });
    expect(() => small.solve(Float64Array.from([0, 1, 0]), Float64Array.from([1, 1]), new Float64Array(2))).toThrow(
      /dense LU fallback limit/,
    );
  });

  it('factor once, solve many right-hand sides; rhs and out may alias', () => {
    const rng = mulberry32(51);
    const mesh = makeMesh(6, 6, rng);
    const p = buildPattern(mesh.nNodes, 2, mesh.groups);
    const { values, dense } = assemble(p, mesh, 2, rng, 'spd');
    const s = new SymmetricSolver(p, { refineSteps: 0 });
    expect(s.factor(values)).toBe('ldlt');
    for (let t = 0; t < 3; t++) {
      const b = randomVec(p.n, rng);
      const x = Float64Array.from(b);
      s.solveFactored(x, x);
      expect(backwardError(dense, x, b, p.n)).toBeLessThan(1e-14);
    }
  });
});

// ---------------------------------------------------------------- PCG

describe('pcg', () => {
  it('converges with Jacobi, with the exact factor, and with a stale factor', () => {
    const rng = mulberry32(61);
    const mesh = makeMesh(15, 12, rng, 10);
    const p = buildPattern(mesh.nNodes, 2, mesh.groups);
    const { values, dense } = assemble(p, mesh, 2, rng, 'spd');
    const b = randomVec(p.n, rng);
    const xr = denseSolveRef(dense, b, p.n);
    const ws = new PcgWorkspace(p.n);

    const jac = new Float64Array(p.n);
    jacobiInverse(p, values, jac);
    const x = new Float64Array(p.n);
    const itJ = pcg(p, values, b, x, jac, ws, 1e-12);
    expect(ws.converged).toBe(true);
    expect(ws.relResidual).toBeLessThanOrEqual(1e-12);
    expect(relDiff(x, xr)).toBeLessThan(1e-8);

    const f = new SparseLDLT(p, fillReducingOrder(p));
    f.factor(values);
    x.fill(0);
    const itExact = pcg(p, values, b, x, f, ws, 1e-12);
    expect(ws.converged).toBe(true);
    expect(itExact).toBeLessThanOrEqual(2);

    // stale preconditioner: factor of a matrix perturbed by ~5%
    const old = values.map((v) => v * (1 + 0.05 * (rng() * 2 - 1)));
    // keep the perturbed matrix SPD: strengthen the diagonal a little
    const dslots = diagonalSlots(p);
    for (let i = 0; i < p.n; i++) old[dslots[i]] += 0.05;
    expect(f.factor(old)).toBe(true);
    x.fill(0);
    const itStale = pcg(p, values, b, x, f, ws, 1e-12);
    expect(ws.converged).toBe(true);
    expect(itStale).toBeLessThan(itJ);
    expect(relDiff(x, xr)).toBeLessThan(1e-8);

    // no preconditioner
    x.fill(0);
    pcg(p, values, b, x, null, ws, 1e-10, 10 * p.n);
    expect(ws.converged).toBe(true);
    // warm start at the solution: zero iterations
    x.set(xr);
    expect(pcg(p, values, b, x, jac, ws, 1e-8)).toBe(0);
  });

  it('reports breakdown on an indefinite matrix instead of looping', () => {
    const p = buildPattern(1, 2, [{ nodes: Int32Array.from([0]), k: 1 }]);
    const ws = new PcgWorkspace(2);
    const x = new Float64Array(2);
    pcg(p, Float64Array.from([1, 0, -1]), Float64Array.from([1, 1]), x, null, ws);
    expect(ws.breakdown).toBe(true);
    expect(ws.converged).toBe(false);
  });
});
