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
 * stacks), which makes the ordering a pure function of the graph. Allocates freely: it runs once
 * per topology.
 */

/**
 * Minimum-degree ordering of a symmetric graph given as full adjacency lists without self loops
 * (adjPtr of length n + 1, adjIdx the neighbours). Returns perm (new → old).
 */
export function minimumDegreeOrder(n: number, adjPtr: Int32Array, adjIdx: Int32Array): Int32Array {
  const perm = new Int32Array(n);
  if (n === 0) return perm;
  // adjacency of each node: variables (A_i) and elements (E_i); for an element: its variables (L_e)
  const vars: number[][] = new Array(n);
  const elems: number[][] = new Array(n);
  for (let i = 0; i < n; i++) {
    const a: number[] = [];
    for (let q = adjPtr[i]!; q < adjPtr[i + 1]!; q++) if (adjIdx[q] !== i) a.push(adjIdx[q]!);
    vars[i] = a;
    elems[i] = [];
  }
  const VAR = 0, ELEMENT = 1, DEAD = 2;
  const status = new Uint8Array(n);
  const deg = new Int32Array(n);
  // degree lists: head[d] → first variable of degree d, next/prev links
  const head = new Int32Array(n).fill(-1);
  const next = new Int32Array(n).fill(-1);
  const prev = new Int32Array(n).fill(-1);
  const insert = (i: number, d: number): void => {
    deg[i] = d;
    prev[i] = -1;
    next[i] = head[d]!;
    if (head[d]! >= 0) prev[head[d]!] = i;
    head[d] = i;
  };
  const remove = (i: number): void => {
    if (prev[i]! >= 0) next[prev[i]!] = next[i]!;
    else head[deg[i]!] = next[i]!;
    if (next[i]! >= 0) prev[next[i]!] = prev[i]!;
  };
  for (let i = n - 1; i >= 0; i--) insert(i, Math.min(vars[i]!.length, n - 1));
  const inLp = new Int32Array(n).fill(-1); // inLp[i] === p: i is in the current L_p
  const w = new Int32Array(n).fill(-1); // |L_e \ L_p| for elements touched this step
  const wStamp = new Int32Array(n).fill(-1);
  let minDeg = 0;
  for (let k = 0; k < n; k++) {
    while (head[minDeg]! < 0) minDeg++;
    const p = head[minDeg]!;
    remove(p);
    perm[k] = p;
    // L_p: p's variables and the variables of its elements (absorbed into p)
    const Lp: number[] = [];
    inLp[p] = p;
    for (const j of vars[p]!) {
      if (status[j] === VAR && inLp[j] !== p) {
        inLp[j] = p;
        Lp.push(j);
      }
    }
    for (const e of elems[p]!) {
      if (status[e] !== ELEMENT) continue;
      for (const j of vars[e]!) {
        if (status[j] === VAR && inLp[j] !== p) {
          inLp[j] = p;
          Lp.push(j);
        }
      }
      status[e] = DEAD;
      vars[e] = [];
    }
    status[p] = ELEMENT;
    vars[p] = Lp;
    elems[p] = [];
    // |L_e \ L_p| for every live element e adjacent to a variable of L_p
    for (const i of Lp) {
      for (const e of elems[i]!) {
        if (status[e] !== ELEMENT || e === p) continue;
        if (wStamp[e] !== p) {
          wStamp[e] = p;
          w[e] = vars[e]!.length;
        }
        w[e]!--;
      }
    }
    const remaining = n - k - 1;
    for (const i of Lp) {
      // elements of i, compacted in place: drop dead ones and those now inside L_p (absorbed),
      // then add p
      const ei = elems[i]!;
      let m = 0, ext = 0;
      for (let q = 0; q < ei.length; q++) {
        const e = ei[q]!;
        if (status[e] !== ELEMENT || e === p) continue;
        if (wStamp[e] === p && w[e] === 0) {
          status[e] = DEAD; // L_e ⊆ L_p: absorbed into p
          vars[e] = [];
          continue;
        }
        ei[m++] = e;
        ext += wStamp[e] === p ? w[e]! : vars[e]!.length;
      }
      ei[m++] = p;
      ei.length = m;
      // variables of i, compacted in place: drop p, eliminated ones and those reached through p
      const ai = vars[i]!;
      let a = 0;
      for (let q = 0; q < ai.length; q++) {
        const j = ai[q]!;
        if (status[j] === VAR && inLp[j] !== p && j !== i) ai[a++] = j;
      }
      ai.length = a;
      const d = Math.min(remaining, a + Lp.length - 1 + ext);
      remove(i);
      insert(i, d);
      if (d < minDeg) minDeg = d;
    }
  }
  return perm;
}
