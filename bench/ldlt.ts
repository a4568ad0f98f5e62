/**
 * Micro-benchmark of the sparse symmetric solver on structured triangle grids
 * (each square split into 2 triangles, k=3 cliques, 2 dofs per node).
 * Values: random SPD 6x6 element blocks + mass diagonal.
 * Run: npx tsx bench/ldlt.ts
 */
import { performance } from 'node:perf_hooks';
import {
  fillReducingOrder,
  buildPattern,
  buildScatter,
  diagonalSlots,
  SparseLDLT,
  SymmetricSolver,
  type SymPattern,
} from '../src/solver/index.js';

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

function grid(nx: number, ny: number): { nNodes: number; tris: Int32Array } {
  const id = (i: number, j: number): number => j * (nx + 1) + i;
  const t: number[] = [];
  for (let j = 0; j < ny; j++)
    for (let i = 0; i < nx; i++) {
      t.push(id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j), id(i + 1, j + 1), id(i, j + 1));
    }
  return { nNodes: (nx + 1) * (ny + 1), tris: Int32Array.from(t) };
}

function assemble(p: SymPattern, tris: Int32Array, rng: () => number): Float64Array {
  const values = new Float64Array(p.nnz);
  const sc = buildScatter(p, tris, 3, 2);
  const ne = tris.length / 3;
  const b = new Float64Array(36);
  for (let e = 0; e < ne; e++) {
    for (let t = 0; t < 36; t++) b[t] = rng() * 2 - 1;
    for (let r = 0; r < 6; r++)
      for (let c = 0; c < 6; c++) {
        const s = sc[e * 36 + r * 6 + c];
        if (s < 0) continue;
        let v = 0;
        for (let t = 0; t < 6; t++) v += b[r * 6 + t] * b[c * 6 + t];
        values[s] += v;
      }
  }
  const d = diagonalSlots(p);
  for (let i = 0; i < p.n; i++) values[d[i]] += 0.01;
  return values;
}

function time(fn: () => void, reps: number): number {
  fn(); // warm-up
  fn();
  const t0 = performance.now();
  for (let r = 0; r < reps; r++) fn();
  return (performance.now() - t0) / reps;
}

const sizes: [string, number, number][] = [
  ['~1k tris', 22, 23],
  ['~4k tris', 45, 45],
  ['~10k tris', 71, 71],
];
console.log('mesh        tris   dofs   nnz(A)   nnz(L)  ord ms  symb ms  factor ms  solve ms  solver.solve ms (factor+solve+refine+check)');
for (const [name, nx, ny] of sizes) {
  const rng = mulberry32(1234);
  const { nNodes, tris } = grid(nx, ny);
  const p = buildPattern(nNodes, 2, [{ nodes: tris, k: 3 }]);
  const values = assemble(p, tris, rng);
  const b = Float64Array.from({ length: p.n }, () => rng() * 2 - 1);
  const x = new Float64Array(p.n);
  let perm: Int32Array = new Int32Array(0);
  const tAmd = time(() => {
    perm = fillReducingOrder(p, 2);
  }, 5);
  let f = new SparseLDLT(p, perm);
  const tSym = time(() => {
    f = new SparseLDLT(p, perm);
  }, 5);
  const reps = 30;
  const tFac = time(() => {
    if (!f.factor(values)) throw new Error('factor failed');
  }, reps);
  const tSol = time(() => f.solve(b, x), reps);
  const s = new SymmetricSolver(p, { perm });
  const tAll = time(() => s.solve(values, b, x), reps);
  console.log(
    `${name.padEnd(10)} ${String(tris.length / 3).padStart(5)} ${String(p.n).padStart(6)} ${String(p.nnz).padStart(8)} ${String(f.nnzL).padStart(8)}` +
      ` ${tAmd.toFixed(2).padStart(7)} ${tSym.toFixed(2).padStart(8)} ${tFac.toFixed(2).padStart(10)} ${tSol.toFixed(3).padStart(9)} ${tAll.toFixed(2).padStart(9)}`,
  );
}
