/**
 * Child process of test/late-branches.test.ts, run with --trace-opt --trace-deopt: the LDLᵀ kernel, optimized on
 * factorizations of whole systems, then factors with one island's rows held (an island asleep beside an awake one:
 * identity rows). Prints markers around the held factorizations.
 */
import { buildPattern, SparseLDLT } from '../../src/solver/index.js';

// two separate strips of triangles (two islands): nodes 0..9 and 10..19
const tris: number[] = [];
for (const o of [0, 10]) for (let k = 0; k < 8; k++) tris.push(o + k, o + k + 1, o + k + 2);
const nodes = 20;
const p = buildPattern(nodes, 2, [{ nodes: Int32Array.from(tris), k: 3 }]);
const f = new SparseLDLT(p);
const values = new Float64Array(p.nnz);
for (let j = 0; j < p.n; j++) for (let q = p.colPtr[j]!; q < p.colPtr[j + 1]!; q++) values[q] = p.rowIdx[q] === j ? 20 : -1;
for (let k = 0; k < 3000; k++) f.factor(values);
const held = new Uint8Array(nodes);
for (let i = 10; i < nodes; i++) held[i] = 1;
console.log('--held-begin');
let ok = 0;
for (let k = 0; k < 200; k++) ok += f.factor(values, held) ? 1 : 0;
console.log('--held-end');
console.log(JSON.stringify({ factored: ok }));
