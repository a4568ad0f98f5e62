/**
 * `mode = 'simple'`: FOSSSim's SimpleCollisionHandler for XML scenes. After the step,
 * particle–particle, particle–edge and particle–half-plane pairs that overlap and approach get
 * their velocities reflected by the COR (no friction, no position change). Sources in
 * docs/scene-format.md (Contact).
 */
import type { StepContext } from '../solver/context';
import { growI } from './buffers';
import { particleIndexOf } from '../solver/topology';

/** Record types of FOSSSim's collision list (the state file, docs/scene-format.md). */
export const RECORD_PARTICLE_PARTICLE = 0;
export const RECORD_PARTICLE_EDGE = 1;
export const RECORD_PARTICLE_HALFPLANE = 2;

/**
 * FOSSSim's collision list of one step: per detected collision (before its response) the type,
 * the particle, the other object (particle, edge or half-plane index), the raw detection vector n
 * and the time (0 for simple). Preallocated; grows by doubling (rare: the first steps with many hits).
 */
export class CollisionRecorder {
  count = 0;
  type = new Int32Array(16);
  first = new Int32Array(16);
  second = new Int32Array(16);
  /** n: nx0, ny0, nx1, ny1, … */
  n = new Float64Array(32);

  clear(): void {
    this.count = 0;
  }

  push(type: number, first: number, second: number, nx: number, ny: number): void {
    if (this.count === this.type.length) this.grow();
    const k = this.count++;
    this.type[k] = type;
    this.first[k] = first;
    this.second[k] = second;
    this.n[2 * k] = nx;
    this.n[2 * k + 1] = ny;
  }

  private grow(): void {
    const cap = 2 * this.type.length;
    const t = new Int32Array(cap), f = new Int32Array(cap), s = new Int32Array(cap), n = new Float64Array(2 * cap);
    t.set(this.type);
    f.set(this.first);
    s.set(this.second);
    n.set(this.n);
    this.type = t;
    this.first = f;
    this.second = s;
    this.n = n;
  }
}

export class SimpleCollisionHandler {
  /** Particle radii (dense order) and count: the contact system's, set before each solve. */
  radius: Float64Array = new Float64Array(0);
  n = 0;
  /** Coefficient of restitution. */
  cor = 0;
  /** Pair order (see ContactSystem.simpleOrder). */
  simpleOrder: 'allpairs' | 'contest' = 'allpairs';
  /** When set, every detected collision is appended here (cleared at the start of each solve). */
  recorder: CollisionRecorder | null = null;
  private simpleEA: Int32Array = new Int32Array(0);
  private simpleEB: Int32Array = new Int32Array(0);

  /**
   * FOSSSim's SimpleCollisionHandler (T2M1), on the state after the integrator step:
   * every pair that overlaps and approaches gets its normal relative velocity reflected with
   * (1 + COR)/2 of a full elastic impulse, mass-weighted (fixed particles: infinite mass);
   * positions are not changed. Sources in docs/scene-format.md (Contact).
   */
  solveSimple(ctx: StepContext): void {
    const n = this.n;
    const t = ctx.topology;
    const E = ctx.c.Edge;
    const edges = ctx.lists.edges;
    const nE = edges.length;
    this.simpleEA = growI(this.simpleEA, nE);
    this.simpleEB = growI(this.simpleEB, nE);
    for (let q = 0; q < nE; q++) {
      this.simpleEA[q] = particleIndexOf(t.particleIndex, E.a[edges[q]!]!);
      this.simpleEB[q] = particleIndexOf(t.particleIndex, E.b[edges[q]!]!);
    }
    const nH = ctx.lists.halfplanes.length;
    this.recorder?.clear();
    if (this.simpleOrder === 'contest') {
      for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) this.simplePP(ctx, i, j);
      for (let i = 0; i < n; i++) for (let q = 0; q < nE; q++) this.simplePE(ctx, i, q);
      for (let i = 0; i < n; i++) for (let h = 0; h < nH; h++) this.simplePH(ctx, i, h);
      return;
    }
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) this.simplePP(ctx, i, j);
      for (let q = 0; q < nE; q++) this.simplePE(ctx, i, q);
      for (let h = 0; h < nH; h++) this.simplePH(ctx, i, h);
    }
  }

  /** Inverse mass for simple mode: 0 for a fixed particle (FOSSSim: m = ∞). */
  private simpleW(ctx: StepContext, i: number): number {
    const t = ctx.topology;
    return t.fixed[i] === 1 ? 0 : 1 / t.mass[2 * i]!;
  }

  /** Particle i against particle j (i < j): n = x_j − x_i; overlap |n| < r_i + r_j, approach (v_i − v_j)·n > 0. */
  private simplePP(ctx: StepContext, i: number, j: number): void {
    const x = ctx.x, v = ctx.v;
    const fixed = ctx.topology.fixed;
    let nx = x[2 * j]! - x[2 * i]!, ny = x[2 * j + 1]! - x[2 * i + 1]!;
    const d = Math.sqrt(nx * nx + ny * ny);
    if (!(d < this.radius[i]! + this.radius[j]!)) return;
    if (!((v[2 * i]! - v[2 * j]!) * nx + (v[2 * i + 1]! - v[2 * j + 1]!) * ny > 0)) return;
    this.recorder?.push(RECORD_PARTICLE_PARTICLE, i, j, nx, ny);
    nx /= d;
    ny /= d;
    const num = (1 + this.cor) * ((v[2 * j]! - v[2 * i]!) * nx + (v[2 * j + 1]! - v[2 * i + 1]!) * ny);
    const w1 = this.simpleW(ctx, i), w2 = this.simpleW(ctx, j);
    // FOSSSim: v1 += num/(1 + m1/m2) n̂, v2 −= num/(m2/m1 + 1) n̂, i.e. num·w/(w1 + w2).
    if (fixed[i] !== 1) {
      const s = num * (w1 / (w1 + w2));
      v[2 * i] = v[2 * i]! + s * nx;
      v[2 * i + 1] = v[2 * i + 1]! + s * ny;
    }
    if (fixed[j] !== 1) {
      const s = num * (w2 / (w1 + w2));
      v[2 * j] = v[2 * j]! - s * nx;
      v[2 * j + 1] = v[2 * j + 1]! - s * ny;
    }
  }

  /** Particle i against edge q (a, b), unless i is an endpoint; closest point at clamped α. */
  private simplePE(ctx: StepContext, i: number, q: number): void {
    const a = this.simpleEA[q]!, b = this.simpleEB[q]!;
    if (a === i || b === i) return;
    const x = ctx.x, v = ctx.v;
    const x1x = x[2 * i]!, x1y = x[2 * i + 1]!;
    const x2x = x[2 * a]!, x2y = x[2 * a + 1]!;
    const ex = x[2 * b]! - x2x, ey = x[2 * b + 1]! - x2y;
    let al = ((x1x - x2x) * ex + (x1y - x2y) * ey) / (ex * ex + ey * ey);
    al = al > 1 ? 1 : al > 0 ? al : 0; // std::min(1, std::max(0, α)): NaN (zero-length edge) → 0
    let nx = x2x + al * ex - x1x, ny = x2y + al * ey - x1y;
    const d = Math.sqrt(nx * nx + ny * ny);
    if (!(d < this.radius[i]! + ctx.c.Edge.radius[ctx.lists.edges[q]!]!)) return;
    const vex = v[2 * a]! + al * (v[2 * b]! - v[2 * a]!), vey = v[2 * a + 1]! + al * (v[2 * b + 1]! - v[2 * a + 1]!);
    if (!((v[2 * i]! - vex) * nx + (v[2 * i + 1]! - vey) * ny > 0)) return;
    this.recorder?.push(RECORD_PARTICLE_EDGE, i, q, nx, ny);
    nx /= d;
    ny /= d;
    const num = (1 + this.cor) * ((vex - v[2 * i]!) * nx + (vey - v[2 * i + 1]!) * ny);
    const w1 = this.simpleW(ctx, i), w2 = this.simpleW(ctx, a), w3 = this.simpleW(ctx, b), be = 1 - al;
    const W = w1 + be * be * w2 + al * al * w3;
    if (!(W > 0)) return;
    // FOSSSim: v1 += num/denom1 n̂, v2 −= (1−α) num/denom2 n̂, v3 −= α num/denom3 n̂ with
    // denom_k = m_k (1/m1 + (1−α)²/m2 + α²/m3), i.e. num·w_k/W.
    const s = num / W;
    v[2 * i] = v[2 * i]! + w1 * s * nx;
    v[2 * i + 1] = v[2 * i + 1]! + w1 * s * ny;
    v[2 * a] = v[2 * a]! - be * w2 * s * nx;
    v[2 * a + 1] = v[2 * a + 1]! - be * w2 * s * ny;
    v[2 * b] = v[2 * b]! - al * w3 * s * nx;
    v[2 * b + 1] = v[2 * b + 1]! - al * w3 * s * ny;
  }

  /**
   * Particle i against half-plane h (unit normal n̂): n = ((p − x)·n̂) n̂; overlap |n| < r_i,
   * approach v·n > 0 (either side, as FOSSSim); v −= (1 + COR)(v·n̂) n̂. FOSSSim applies it to
   * fixed particles too (their velocity still moves them).
   */
  private simplePH(ctx: StepContext, i: number, h: number): void {
    const x = ctx.x, v = ctx.v;
    const H = ctx.c.Halfplane;
    const e = ctx.lists.halfplanes[h]!;
    const nx = H.nx[e]!, ny = H.ny[e]!;
    const s = (H.px[e]! - x[2 * i]!) * nx + (H.py[e]! - x[2 * i + 1]!) * ny;
    if (!(Math.abs(s) < this.radius[i]!)) return;
    const vn = v[2 * i]! * nx + v[2 * i + 1]! * ny;
    if (!(vn * s > 0)) return;
    this.recorder?.push(RECORD_PARTICLE_HALFPLANE, i, h, s * nx, s * ny);
    v[2 * i] = v[2 * i]! - (1 + this.cor) * vn * nx;
    v[2 * i + 1] = v[2 * i + 1]! - (1 + this.cor) * vn * ny;
  }

}
