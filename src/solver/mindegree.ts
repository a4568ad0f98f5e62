/**
 * Fill-reducing ordering: minimum degree on the quotient graph, with the approximate external
 * degree of Amestoy, Davis and Duff (SIAM J. Matrix Anal. Appl. 17(4), 1996) and element
 * absorption (George & Liu, SIAM Review 31(1), 1989). Written for Elastica from those papers.
 *
 * Eliminating a variable p turns it into an element whose variable list Lp is the union of p's
 * variable neighbours and the variable lists of p's elements (which p absorbs). A variable i then
 * reaches everything in Lp through element p, so entries of Lp are dropped from i's own variable
 * list, and its degree is bounded by
 *   d(i) ≈ |A_i| + |Lp \ i| + Σ_{e ∋ i, e ≠ p} |Le \ Lp|,
 * where |Le \ Lp| is counted for all elements at once by one pass over Lp (an element with
 * |Le \ Lp| = 0 lies inside Lp and is absorbed too). The next pivot is a variable of least
 * approximate degree; ties go to the one that reached that degree first (degree lists are LIFO
 * stacks), which makes the ordering a pure function of the graph.
 *
 * Lists live in typed arrays (it runs at every contact-pattern rebuild, docs/solver.md "Stop 30"):
 * - a variable's own variable list A_i: its slice of a copy of the adjacency, compacted in place;
 * - an element's variable list L_e: appended to a pool when the element is made, never changed (its
 *   length, stale entries included, is what |L_e \ L_p| starts from);
 * - a variable's element list E_i: a slice of a second pool, compacted in place, moved to the pool's end
 *   with twice the room when an element is added to a full one.
 */

/**
 * Minimum-degree ordering of a symmetric graph given as full adjacency lists without self loops
 * (adjPtr of length n + 1, adjIdx the neighbours). Returns perm (new → old).
 */
export function minimumDegreeOrder(n: number, adjPtr: Int32Array, adjIdx: Int32Array): Int32Array {
  const perm = new Int32Array(n);
  if (n === 0) return perm;
  // A_i: variables adjacent to variable i (self loops dropped)
  const aIdx = new Int32Array(adjPtr[n]!);
  const aStart = new Int32Array(n), aLen = new Int32Array(n);
  let top = 0;
  for (let i = 0; i < n; i++) {
    aStart[i] = top;
    for (let q = adjPtr[i]!; q < adjPtr[i + 1]!; q++) if (adjIdx[q] !== i) aIdx[top++] = adjIdx[q]!;
    aLen[i] = top - aStart[i]!;
  }
  // L_e: variables of element e (pool, append only)
  let lPool = new Int32Array(Math.max(16, 2 * top));
  let lTop = 0;
  const lStart = new Int32Array(n), lLen = new Int32Array(n);
  // E_i: elements adjacent to variable i (pool with room per list)
  const ROOM = 4;
  let ePool = new Int32Array(Math.max(16, ROOM * n));
  let eTop = 0;
  const eStart = new Int32Array(n), eLen = new Int32Array(n), eCap = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    eStart[i] = eTop;
    eCap[i] = ROOM;
    eTop += ROOM;
  }
  const VAR = 0, ELEMENT = 1, DEAD = 2;
  const status = new Uint8Array(n);
  const deg = new Int32Array(n);
  // degree lists: head[d] → first variable of degree d, next/prev links
  const head = new Int32Array(n).fill(-1);
  const next = new Int32Array(n).fill(-1);
  const prev = new Int32Array(n).fill(-1);
  for (let i = n - 1; i >= 0; i--) {
    const a = aLen[i]!;
    insertDegree(head, next, prev, deg, i, a < n - 1 ? a : n - 1);
  }
  const inLp = new Int32Array(n).fill(-1); // inLp[i] === p: i is in the current L_p
  const w = new Int32Array(n).fill(-1); // |L_e \ L_p| for elements touched this step
  const wStamp = new Int32Array(n).fill(-1);
  let minDeg = 0;
  for (let k = 0; k < n; k++) {
    while (head[minDeg]! < 0) minDeg++;
    const p = head[minDeg]!;
    removeDegree(head, next, prev, deg, p);
    perm[k] = p;
    // L_p: p's variables and the variables of its elements (absorbed into p), appended to the pool
    if (lTop + n > lPool.length) {
      const grown = new Int32Array(2 * lPool.length + n);
      grown.set(lPool.subarray(0, lTop));
      lPool = grown;
    }
    const lp0 = lTop;
    inLp[p] = p;
    for (let q = aStart[p]!, q1 = q + aLen[p]!; q < q1; q++) {
      const j = aIdx[q]!;
      if (status[j] === VAR && inLp[j] !== p) {
        inLp[j] = p;
        lPool[lTop++] = j;
      }
    }
    for (let q = eStart[p]!, q1 = q + eLen[p]!; q < q1; q++) {
      const e = ePool[q]!;
      if (status[e] !== ELEMENT) continue;
      for (let r = lStart[e]!, r1 = r + lLen[e]!; r < r1; r++) {
        const j = lPool[r]!;
        if (status[j] === VAR && inLp[j] !== p) {
          inLp[j] = p;
          lPool[lTop++] = j;
        }
      }
      status[e] = DEAD;
      lLen[e] = 0;
    }
    status[p] = ELEMENT;
    lStart[p] = lp0;
    lLen[p] = lTop - lp0;
    aLen[p] = 0;
    eLen[p] = 0;
    const lp1 = lTop, lpCount = lp1 - lp0;
    // |L_e \ L_p| for every live element e adjacent to a variable of L_p
    for (let t = lp0; t < lp1; t++) {
      const i = lPool[t]!;
      for (let q = eStart[i]!, q1 = q + eLen[i]!; q < q1; q++) {
        const e = ePool[q]!;
        if (status[e] !== ELEMENT || e === p) continue;
        if (wStamp[e] !== p) {
          wStamp[e] = p;
          w[e] = lLen[e]!;
        }
        w[e] = w[e]! - 1;
      }
    }
    const remaining = n - k - 1;
    for (let t = lp0; t < lp1; t++) {
      const i = lPool[t]!;
      // elements of i, compacted in place: drop dead ones and those now inside L_p (absorbed), then add p
      const e0 = eStart[i]!;
      let m = 0, ext = 0;
      for (let q = e0, q1 = e0 + eLen[i]!; q < q1; q++) {
        const e = ePool[q]!;
        if (status[e] !== ELEMENT || e === p) continue;
        if (wStamp[e] === p && w[e] === 0) {
          status[e] = DEAD; // L_e ⊆ L_p: absorbed into p
          lLen[e] = 0;
          continue;
        }
        ePool[e0 + m++] = e;
        ext += wStamp[e] === p ? w[e]! : lLen[e]!;
      }
      if (m === eCap[i]) {
        // full: move the list to the pool's end with twice the room
        const cap = 2 * eCap[i]!;
        if (eTop + cap > ePool.length) {
          const grown = new Int32Array(2 * ePool.length + cap);
          grown.set(ePool.subarray(0, eTop));
          ePool = grown;
        }
        ePool.copyWithin(eTop, e0, e0 + m);
        eStart[i] = eTop;
        eCap[i] = cap;
        eTop += cap;
      }
      ePool[eStart[i]! + m] = p;
      eLen[i] = m + 1;
      // variables of i, compacted in place: drop p, eliminated ones and those reached through p
      const a0 = aStart[i]!;
      let a = 0;
      for (let q = a0, q1 = a0 + aLen[i]!; q < q1; q++) {
        const j = aIdx[q]!;
        if (status[j] === VAR && inLp[j] !== p && j !== i) aIdx[a0 + a++] = j;
      }
      aLen[i] = a;
      const total = a + lpCount - 1 + ext;
      const d = remaining < total ? remaining : total;
      removeDegree(head, next, prev, deg, i);
      insertDegree(head, next, prev, deg, i, d);
      if (d < minDeg) minDeg = d;
    }
  }
  return perm;
}

/** Push variable i on the degree-d list. */
function insertDegree(head: Int32Array, next: Int32Array, prev: Int32Array, deg: Int32Array, i: number, d: number): void {
  deg[i] = d;
  prev[i] = -1;
  next[i] = head[d]!;
  if (head[d]! >= 0) prev[head[d]!] = i;
  head[d] = i;
}

/** Unlink variable i from its degree list. */
function removeDegree(head: Int32Array, next: Int32Array, prev: Int32Array, deg: Int32Array, i: number): void {
  if (prev[i]! >= 0) next[prev[i]!] = next[i]!;
  else head[deg[i]!] = next[i]!;
  if (next[i]! >= 0) prev[next[i]!] = prev[i]!;
}
