/**
 * Growth of the contact parts' typed buffers (setup rate: a buffer only grows, by at least 2×, so
 * after warm-up no step allocates). Contents up to the old length are kept.
 */

/** `a` if it holds n values, else a copy grown to max(n, 2 × its length, min). */
export function growF(a: Float64Array, n: number, min = 16): Float64Array {
  if (a.length >= n) return a;
  const g = new Float64Array(Math.max(n, 2 * a.length, min));
  g.set(a);
  return g;
}

/** growF for Int32Array. */
export function growI(a: Int32Array, n: number, min = 16): Int32Array {
  if (a.length >= n) return a;
  const g = new Int32Array(Math.max(n, 2 * a.length, min));
  g.set(a);
  return g;
}

/** growF for Uint8Array. */
export function growU8(a: Uint8Array, n: number, min = 16): Uint8Array {
  if (a.length >= n) return a;
  const g = new Uint8Array(Math.max(n, 2 * a.length, min));
  g.set(a);
  return g;
}
