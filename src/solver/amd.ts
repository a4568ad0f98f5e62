/**
 * Fill-reducing ordering: approximate minimum degree (AMD).
 *
 * Algorithm: P. R. Amestoy, T. A. Davis, I. S. Duff, "An approximate minimum
 * degree ordering algorithm", SIAM J. Matrix Anal. Appl. 17(4), 1996 —
 * quotient graph, approximate external degrees, element absorption
 * (including aggressive absorption), mass elimination, supervariable
 * detection by hashing, dense-row removal and a final postorder of the
 * assembly tree. The control flow follows the textbook presentation in
 * T. A. Davis, "Direct Methods for Sparse Linear Systems" (SIAM 2006), ch. 7.
 *
 * The ordering is computed on the NODE graph (dofs of a node share one
 * adjacency set in FEM matrices) and expanded to dofs keeping the dofs of a
 * node consecutive: d^2 times less work and 2x2 (3x3) blocks stay together.
 * Fully deterministic (no randomness, fixed tie-breaking).
 *
 * Provenance and licence: `amdGraph` follows CSparse's cs_amd (Copyright (c) 2006-2022,
 * Timothy A. Davis; LGPL-2.1-or-later) closely — the same workspace layout, constants (dense
 * threshold max(16, 10√n), elbow room |A|/5 + 2n) and control flow — so treat that function as a
 * derived work under LGPL-2.1-or-later, not under the package's MIT licence (docs/solver.md,
 * "Provenance of the AMD ordering"). The node-graph helpers below it are our own.
 */
import type { SymPattern } from './pattern.js';

const flip = (i: number): number => -i - 2;

/**
 * AMD on a symmetric graph given as full adjacency lists WITHOUT self loops
 * (adjPtr length n+1, adjIdx the neighbours). Returns perm (new -> old).
 */
export function amdGraph(n: number, adjPtr: Int32Array, adjIdx: Int32Array): Int32Array {
  const perm = new Int32Array(n);
  if (n === 0) return perm;
  if (n === 1) return perm;
  let dense = Math.max(16, 10 * Math.sqrt(n)) | 0;
  dense = Math.min(n - 2, dense);
  let cnz = adjPtr[n];
  const nzmax = cnz + ((cnz / 5) | 0) + 2 * n + 16; // elbow room for new elements
  const iw = new Int32Array(nzmax);
  iw.set(adjIdx.subarray(0, cnz));
  const pe = new Int32Array(n + 1);
  const len = new Int32Array(n + 1);
  const nv = new Int32Array(n + 1);
  const next = new Int32Array(n + 1);
  const last = new Int32Array(n + 1);
  const head = new Int32Array(n + 1);
  const elen = new Int32Array(n + 1);
  const degree = new Int32Array(n + 1);
  const w = new Int32Array(n + 1);
  const hhead = new Int32Array(n + 1);
  for (let k = 0; k < n; k++) {
    pe[k] = adjPtr[k];
    len[k] = adjPtr[k + 1] - adjPtr[k];
  }
  len[n] = 0;
  for (let i = 0; i <= n; i++) {
    head[i] = -1;
    last[i] = -1;
    next[i] = -1;
    hhead[i] = -1;
    nv[i] = 1;
    w[i] = 1;
    elen[i] = 0;
    degree[i] = len[i];
  }
  // w[] values < mark are "unmarked"; resetting keeps mark + lemax from overflowing.
  const wclear = (mark: number, lemax: number): number => {
    if (mark < 2 || mark + lemax > 0x3fffffff) {
      for (let k = 0; k < n; k++) if (w[k] !== 0) w[k] = 1;
      mark = 2;
    }
    return mark;
  };
  let mark = wclear(0, 0);
  elen[n] = -2; // n is the root of the dense rows
  pe[n] = -1;
  w[n] = 0;
  let nel = 0;
  // Degree lists; empty rows become elements, dense rows go to the root.
  for (let i = 0; i < n; i++) {
    const d = degree[i];
    if (d === 0) {
      elen[i] = -2;
      nel++;
      pe[i] = -1;
      w[i] = 0;
    } else if (d > dense) {
      nv[i] = 0;
      elen[i] = -1;
      nel++;
      pe[i] = flip(n);
      nv[n]++;
    } else {
      if (head[d] !== -1) last[head[d]] = i;
      next[i] = head[d];
      head[d] = i;
    }
  }
  let mindeg = 0;
  let lemax = 0;
  while (nel < n) {
    // --- select the pivot: a variable of minimum approximate degree
    let k = -1;
    for (; mindeg < n && (k = head[mindeg]) === -1; mindeg++);
    if (next[k] !== -1) last[next[k]] = -1;
    head[mindeg] = next[k];
    const elenk = elen[k];
    let nvk = nv[k];
    nel += nvk;
    // --- garbage collection when the new element may not fit
    if (elenk > 0 && cnz + mindeg >= nzmax) {
      for (let j = 0; j < n; j++) {
        const p = pe[j];
        if (p >= 0) {
          pe[j] = iw[p];
          iw[p] = flip(j);
        }
      }
      let q = 0;
      for (let p = 0; p < cnz; ) {
        const j = flip(iw[p++]);
        if (j >= 0) {
          iw[q] = pe[j];
          pe[j] = q++;
          for (let k3 = 0; k3 < len[j] - 1; k3++) iw[q++] = iw[p++];
        }
      }
      cnz = q;
    }
    // --- construct the new element Lk
    let dk = 0;
    nv[k] = -nvk; // k is in Lk
    let p = pe[k];
    const pk1 = elenk === 0 ? p : cnz;
    let pk2 = pk1;
    for (let k1 = 1; k1 <= elenk + 1; k1++) {
      let e: number;
      let pj: number;
      let ln: number;
      if (k1 > elenk) {
        e = k; // the variables adjacent to k
        pj = p;
        ln = len[k] - elenk;
      } else {
        e = iw[p++]; // an element adjacent to k
        pj = pe[e];
        ln = len[e];
      }
      for (let k2 = 1; k2 <= ln; k2++) {
        const i = iw[pj++];
        const nvi = nv[i];
        if (nvi <= 0) continue; // already in Lk, or dead
        dk += nvi;
        nv[i] = -nvi;
        iw[pk2++] = i;
        if (next[i] !== -1) last[next[i]] = last[i];
        if (last[i] !== -1) next[last[i]] = next[i];
        else head[degree[i]] = next[i];
      }
      if (e !== k) {
        pe[e] = flip(k); // absorb e into k
        w[e] = 0;
      }
    }
    if (elenk !== 0) cnz = pk2;
    degree[k] = dk;
    pe[k] = pk1;
    len[k] = pk2 - pk1;
    elen[k] = -2; // k is now an element
    // --- |Le \ Lk| for every element e adjacent to a variable of Lk
    mark = wclear(mark, lemax);
    for (let pk = pk1; pk < pk2; pk++) {
      const i = iw[pk];
      const eln = elen[i];
      if (eln <= 0) continue;
      const nvi = -nv[i];
      const wnvi = mark - nvi;
      for (let q = pe[i], qe = pe[i] + eln; q < qe; q++) {
        const e = iw[q];
        if (w[e] >= mark) w[e] -= nvi;
        else if (w[e] !== 0) w[e] = degree[e] + wnvi;
      }
    }
    // --- approximate degree update
    for (let pk = pk1; pk < pk2; pk++) {
      const i = iw[pk];
      const p1 = pe[i];
      const p2 = p1 + elen[i] - 1;
      let pn = p1;
      let h = 0;
      let d = 0;
      for (let q = p1; q <= p2; q++) {
        const e = iw[q];
        if (w[e] !== 0) {
          const dext = w[e] - mark;
          if (dext > 0) {
            d += dext;
            iw[pn++] = e;
            h += e;
          } else {
            pe[e] = flip(k); // aggressive absorption: Le is a subset of Lk
            w[e] = 0;
          }
        }
      }
      elen[i] = pn - p1 + 1;
      const p3 = pn;
      const p4 = p1 + len[i];
      for (let q = p2 + 1; q < p4; q++) {
        const j = iw[q];
        const nvj = nv[j];
        if (nvj <= 0) continue;
        d += nvj;
        iw[pn++] = j;
        h += j;
      }
      if (d === 0) {
        // mass elimination: i is indistinguishable from k
        pe[i] = flip(k);
        const nvi = -nv[i];
        dk -= nvi;
        nvk += nvi;
        nel += nvi;
        nv[i] = 0;
        elen[i] = -1;
      } else {
        if (d < degree[i]) degree[i] = d;
        iw[pn] = iw[p3]; // first variable to the end
        iw[p3] = iw[p1]; // first element to the start of the variables
        iw[p1] = k; // new element first
        len[i] = pn - p1 + 1;
        h %= n;
        next[i] = hhead[h]; // hash bucket of i
        hhead[h] = i;
        last[i] = h;
      }
    }
    degree[k] = dk;
    if (dk > lemax) lemax = dk;
    mark = wclear(mark + lemax, lemax);
    // --- supervariable detection
    for (let pk = pk1; pk < pk2; pk++) {
      let i = iw[pk];
      if (nv[i] >= 0) continue;
      const h = last[i];
      i = hhead[h];
      hhead[h] = -1;
      for (; i !== -1 && next[i] !== -1; i = next[i], mark++) {
        const ln = len[i];
        const eln = elen[i];
        for (let q = pe[i] + 1; q <= pe[i] + ln - 1; q++) w[iw[q]] = mark;
        let jlast = i;
        for (let j = next[i]; j !== -1; ) {
          let ok = len[j] === ln && elen[j] === eln;
          for (let q = pe[j] + 1; ok && q <= pe[j] + ln - 1; q++) {
            if (w[iw[q]] !== mark) ok = false;
          }
          if (ok) {
            pe[j] = flip(i); // absorb j into i
            nv[i] += nv[j];
            nv[j] = 0;
            elen[j] = -1;
            j = next[j];
            next[jlast] = j;
          } else {
            jlast = j;
            j = next[j];
          }
        }
      }
    }
    // --- finalize the new element, put its variables back in the degree lists
    p = pk1;
    for (let pk = pk1; pk < pk2; pk++) {
      const i = iw[pk];
      const nvi = -nv[i];
      if (nvi <= 0) continue;
      nv[i] = nvi;
      let d = degree[i] + dk - nvi;
      const dmax = n - nel - nvi;
      if (d > dmax) d = dmax;
      if (head[d] !== -1) last[head[d]] = i;
      next[i] = head[d];
      last[i] = -1;
      head[d] = i;
      if (d < mindeg) mindeg = d;
      degree[i] = d;
      iw[p++] = i;
    }
    nv[k] = nvk;
    len[k] = p - pk1;
    if (len[k] === 0) {
      pe[k] = -1;
      w[k] = 0;
    }
    if (elenk !== 0) cnz = p;
  }
  // --- postorder the assembly tree
  for (let i = 0; i < n; i++) pe[i] = flip(pe[i]);
  for (let j = 0; j <= n; j++) head[j] = -1;
  for (let j = n; j >= 0; j--) {
    if (nv[j] > 0) continue; // variables absorbed into j's principal
    next[j] = head[pe[j]];
    head[pe[j]] = j;
  }
  for (let e = n; e >= 0; e--) {
    if (nv[e] <= 0) continue;
    if (pe[e] !== -1) {
      next[e] = head[pe[e]];
      head[pe[e]] = e;
    }
  }
  const post = new Int32Array(n + 1);
  const stack = w;
  let kk = 0;
  for (let i = 0; i <= n; i++) {
    if (pe[i] !== -1) continue;
    // depth-first search from root i
    let top = 0;
    stack[0] = i;
    while (top >= 0) {
      const q = stack[top];
      const c = head[q];
      if (c === -1) {
        top--;
        post[kk++] = q;
      } else {
        head[q] = next[c];
        stack[++top] = c;
      }
    }
  }
  // drop the dense-row root n
  let t = 0;
  for (let s = 0; s < kk; s++) if (post[s] !== n) perm[t++] = post[s];
  if (t !== n) throw new Error(`amdGraph: internal error, ordered ${t} of ${n} nodes`);
  return perm;
}

/**
 * Compress a dof pattern to its node graph (full adjacency, no self loops):
 * node I ~ node J when any dof of I couples to any dof of J.
 */
export function patternNodeGraph(p: SymPattern, dofsPerNode: number): { nNodes: number; adjPtr: Int32Array; adjIdx: Int32Array } {
  const d = dofsPerNode;
  const nNodes = (p.n / d) | 0;
  const colPtr = p.colPtr;
  const rowIdx = p.rowIdx;
  const mark = new Int32Array(nNodes).fill(-1);
  const deg = new Int32Array(nNodes + 1);
  for (let pass = 0; pass < 2; pass++) {
    if (pass === 1) {
      // prefix sums; deg[] becomes the fill pointer
      let s = 0;
      for (let J = 0; J < nNodes; J++) {
        const c = deg[J];
        deg[J] = s;
        s += c;
      }
      deg[nNodes] = s;
      mark.fill(-1);
    }
    const adjPtr = pass === 1 ? deg.slice() : deg;
    const adjIdx = pass === 1 ? new Int32Array(deg[nNodes]) : new Int32Array(0);
    for (let J = 0; J < nNodes; J++) {
      for (let j = J * d; j < J * d + d; j++) {
        for (let q = colPtr[j]; q < colPtr[j + 1]; q++) {
          const I = (rowIdx[q] / d) | 0;
          if (I === J || mark[I] === J) continue;
          mark[I] = J;
          if (pass === 0) {
            deg[I]++;
            deg[J]++;
          } else {
            adjIdx[deg[I]++] = J;
            adjIdx[deg[J]++] = I;
          }
        }
      }
    }
    if (pass === 1) return { nNodes, adjPtr, adjIdx };
  }
  throw new Error('unreachable');
}

/** Largest block size d in {3, 2} such that the pattern is exactly the d-expansion of a node graph, else 1. */
export function detectBlockSize(p: SymPattern): number {
  for (const d of [3, 2]) {
    if (p.n % d !== 0 || p.n === 0) continue;
    const g = patternNodeGraph(p, d);
    // exact expansion: d(d+1)/2 per node diagonal block plus d^2 per lower edge
    const edges = g.adjPtr[g.nNodes] / 2;
    if (g.nNodes * ((d * (d + 1)) / 2) + edges * d * d === p.nnz) return d;
  }
  return 1;
}

/**
 * AMD ordering of a symmetric dof pattern, computed on the node graph
 * (dofsPerNode consecutive dofs per node; detected when omitted) and expanded
 * to dofs. Returns perm (new -> old), length p.n.
 */
export function amdOrder(p: SymPattern, dofsPerNode?: number): Int32Array {
  const d = dofsPerNode ?? detectBlockSize(p);
  if (!Number.isInteger(d) || d < 1 || p.n % d !== 0) {
    throw new RangeError(`amdOrder: dofsPerNode ${d} does not divide n = ${p.n}`);
  }
  const g = patternNodeGraph(p, d);
  const nodePerm = amdGraph(g.nNodes, g.adjPtr, g.adjIdx);
  if (d === 1) return nodePerm;
  const perm = new Int32Array(p.n);
  for (let K = 0; K < g.nNodes; K++) {
    const J = nodePerm[K];
    for (let c = 0; c < d; c++) perm[K * d + c] = J * d + c;
  }
  return perm;
}

/** Inverse permutation: pinv[perm[k]] = k. Throws if perm is not a permutation of 0..n-1. */
export function invertPermutation(perm: Int32Array): Int32Array {
  const n = perm.length;
  const pinv = new Int32Array(n).fill(-1);
  for (let k = 0; k < n; k++) {
    const i = perm[k];
    if (i < 0 || i >= n || pinv[i] !== -1) throw new RangeError(`invalid permutation: entry ${k} = ${i}`);
    pinv[i] = k;
  }
  return pinv;
}
