/** Deterministic seeded PRNG (mulberry32): 32-bit state, doubles in [0, 1). */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Next 32-bit unsigned integer. */
  nextUint32(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Next double in [0, 1) (multiples of 2^-32). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform double in [lo, hi). */
  range(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }
}

/** Functional form: returns a generator of doubles in [0, 1) from the given seed. */
export function mulberry32(seed: number): () => number {
  const rng = new Rng(seed);
  return () => rng.next();
}
