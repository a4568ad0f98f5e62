/**
 * The post-solve contact pairs of a step (game mode): written by the response's detection
 * (response.ts: particle, item, hit, covered, impulse, contact point and normal), read by the
 * events (events.ts) and the step statistics. Pairs are in detection order: particles in creation
 * order; per particle, half-planes, then items ascending (item numbers of broadphase.ts; half-plane q
 * is item −(q + 1)).
 */
import { growF, growI, growU8 } from './buffers';

export class ContactPairs {
  count = 0;
  p: Int32Array = new Int32Array(0);
  item: Int32Array = new Int32Array(0);
  /** 1 when the pair touched this step (the narrow phase found contact). */
  hit: Uint8Array = new Uint8Array(0);
  /** 1 when the solve covered the pair (a barrier candidate or, with the trust region, a non-candidate): no correction. */
  covered: Uint8Array = new Uint8Array(0);
  /** 1 for a sensor overlap (sensors.ts): reported, never pushed. */
  sensor: Uint8Array = new Uint8Array(0);
  /** The solve's candidate (or guard) of the pair, index into the potential; −1: none. */
  cand: Int32Array = new Int32Array(0);
  /** Normal impulse summed over the step (N·s). */
  imp: Float64Array = new Float64Array(0);
  /** 4 per pair: contact point x, y and normal nx, ny (from B towards the particle). */
  geo: Float64Array = new Float64Array(0);

  /** Append pair (p, item), not hit, not covered, no impulse. */
  add(p: number, item: number): void {
    const k = this.count++;
    if (k >= this.p.length) {
      const m = Math.max(64, 2 * this.p.length);
      this.p = growI(this.p, m);
      this.item = growI(this.item, m);
      this.hit = growU8(this.hit, m);
      this.covered = growU8(this.covered, m);
      this.sensor = growU8(this.sensor, m);
      this.cand = growI(this.cand, m);
      this.imp = growF(this.imp, m);
      this.geo = growF(this.geo, 4 * m);
    }
    this.p[k] = p;
    this.item[k] = item;
    this.hit[k] = 0;
    this.covered[k] = 0;
    this.sensor[k] = 0;
    this.cand[k] = -1;
    this.imp[k] = 0;
  }

  /** Pairs that touched this step. */
  touching(): number {
    let n = 0;
    for (let k = 0; k < this.count; k++) n += this.hit[k]!;
    return n;
  }
}
