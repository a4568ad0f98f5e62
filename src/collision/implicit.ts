/**
 * Contact inside the implicit solve (game mode): a one-sided quadratic
 * penalty and lagged, smoothed Coulomb friction per contact candidate, added
 * to the force model's potential V (the Newton solver multiplies it by h²).
 *
 * Each candidate is linearized once per step (before the solve): a particle p
 * against a surface point that is either fixed (collider: c) or the point
 * (1 − α) a + α b of a body edge, with the normal n and α frozen:
 *
 *   d(x) = Σ_j w_j n·x_j − c0,   w = (1, −(1 − α), −α)  (edge)  or (1)  (collider),
 *   E_n  = ½ κ max(0, r − d)²,
 *   u(x) = Σ_j w_j t·(x_j − xᵗ_j) − s_t     (tangential slip over the step, t = n⊥),
 *   E_f  = μ λ f₀(|u|),  λ = κ max(0, r − d(xᵗ)) lagged at the start of the step,
 *
 * with IPC's smoothed f₀ (f₀(y) = y²/ε − y³/(3ε²) + ε/3 below ε = ε_v h, y
 * above): a static friction spring that lets the contact creep at most ε_v.
 * d and u are linear in x, so gradients are exact and the exact Hessians
 * are κ g gᵀ (active) and μ λ f₀''(|u|) g_t g_tᵀ, g = ∂d/∂x, both PSD.
 *
 * Sparsity: the particle–edge coupling blocks (p, a), (p, b) are not in the
 * mesh pattern. The assembled Hessian uses the block-Jacobi majorizer
 * 2·blockdiag(G) over the groups {p} and {a, b} (the pair a–b is a mesh edge,
 * so its block exists): 2·blockdiag(ggᵀ) − ggᵀ = (g_p, −g_e)(g_p, −g_e)ᵀ ⪰ 0,
 * so the assembled matrix bounds the true Hessian from above and Newton's
 * full step never overshoots the contact (a majorization–minimization step).
 * Collider contacts (one node) get the exact Hessian. See docs/contact.md.
 */
import type { SymPattern } from '../solver/pattern';
import { findSlot } from '../solver/pattern';

function growF(a: Float64Array, n: number): Float64Array {
  if (a.length >= n) return a;
  const g = new Float64Array(Math.max(n, 2 * a.length, 64));
  g.set(a);
  return g;
}
function growI(a: Int32Array, n: number): Int32Array {
  if (a.length >= n) return a;
  const g = new Int32Array(Math.max(n, 2 * a.length, 64));
  g.set(a);
  return g;
}

/** IPC's smoothed friction primitive f₀ and its derivatives f₁ = f₀', f₀''. */
export function frictionF0(y: number, eps: number): number {
  return y < eps ? (y * y) / eps - (y * y * y) / (3 * eps * eps) + eps / 3 : y;
}
export function frictionF1(y: number, eps: number): number {
  return y < eps ? (2 * y) / eps - (y * y) / (eps * eps) : 1;
}
export function frictionF2(y: number, eps: number): number {
  return y < eps ? 2 / eps - (2 * y) / (eps * eps) : 0;
}

/** Slots per candidate: diag blocks (xx, yx, yy) of p, a, b; then the a–b block (4). */
const NS = 13;

export class ContactPotential {
  count = 0;
  /** Nodes (dense particle indices; −1: unused) and weights. */
  node: Int32Array = new Int32Array(0); // 3 per candidate
  w: Float64Array = new Float64Array(0); // 3 per candidate
  /** nx, ny, c0, r, κ, μλ, u0 (Σ w t·xᵗ + s_t), ε. */
  geo: Float64Array = new Float64Array(0); // 8 per candidate
  private slots: Int32Array = new Int32Array(0);

  clear(): void {
    this.count = 0;
  }

  /**
   * Append a candidate. b < 0 for colliders (then a < 0 too). `xt` are the
   * start-of-step positions; `st` the surface's tangential displacement over the step.
   * Returns false (and adds nothing) when a needed matrix slot is not in the pattern.
   */
  add(
    pattern: SymPattern, xt: Float64Array, p: number, a: number, b: number, alpha: number,
    nx: number, ny: number, c0: number, r: number, kappa: number, mu: number, st: number, eps: number,
  ): boolean {
    const k = this.count;
    this.node = growI(this.node, 3 * (k + 1));
    this.w = growF(this.w, 3 * (k + 1));
    this.geo = growF(this.geo, 8 * (k + 1));
    this.slots = growI(this.slots, NS * (k + 1));
    const nd = this.node, w = this.w, g = this.geo, s = this.slots;
    nd[3 * k] = p;
    nd[3 * k + 1] = a;
    nd[3 * k + 2] = b;
    w[3 * k] = 1;
    w[3 * k + 1] = a >= 0 ? -(1 - alpha) : 0;
    w[3 * k + 2] = b >= 0 ? -alpha : 0;
    for (let j = 0; j < 3; j++) {
      const i = nd[3 * k + j]!;
      const o = NS * k + 3 * j;
      if (i < 0) {
        s[o] = s[o + 1] = s[o + 2] = -1;
        continue;
      }
      s[o] = findSlot(pattern, 2 * i, 2 * i);
      s[o + 1] = findSlot(pattern, 2 * i + 1, 2 * i);
      s[o + 2] = findSlot(pattern, 2 * i + 1, 2 * i + 1);
      if (s[o + 1]! < 0) return false;
    }
    const o = NS * k + 9;
    if (a >= 0 && b >= 0) {
      // lower triangle: rows of the larger node, columns of the smaller
      const hi = a > b ? a : b, lo = a > b ? b : a;
      s[o] = findSlot(pattern, 2 * hi, 2 * lo);
      s[o + 1] = findSlot(pattern, 2 * hi, 2 * lo + 1);
      s[o + 2] = findSlot(pattern, 2 * hi + 1, 2 * lo);
      s[o + 3] = findSlot(pattern, 2 * hi + 1, 2 * lo + 1);
      if (s[o]! < 0 || s[o + 1]! < 0 || s[o + 2]! < 0 || s[o + 3]! < 0) return false;
    } else {
      s[o] = s[o + 1] = s[o + 2] = s[o + 3] = -1;
    }
    const tx = -ny, ty = nx;
    let dt = -c0, ut = -st;
    for (let j = 0; j < 3; j++) {
      const i = nd[3 * k + j]!;
      if (i < 0) continue;
      const wj = w[3 * k + j]!;
      dt += wj * (nx * xt[2 * i]! + ny * xt[2 * i + 1]!);
      ut += wj * (tx * xt[2 * i]! + ty * xt[2 * i + 1]!);
    }
    const lambda = kappa * Math.max(0, r - dt);
    g[8 * k] = nx;
    g[8 * k + 1] = ny;
    g[8 * k + 2] = c0;
    g[8 * k + 3] = r;
    g[8 * k + 4] = kappa;
    g[8 * k + 5] = mu * lambda;
    g[8 * k + 6] = ut;
    g[8 * k + 7] = eps;
    this.count = k + 1;
    return true;
  }

  /** Normal distance d and slip u of candidate k at x. */
  private du(k: number, x: Float64Array, out: Float64Array): void {
    const nd = this.node, w = this.w, g = this.geo;
    const nx = g[8 * k]!, ny = g[8 * k + 1]!;
    let d = -g[8 * k + 2]!, u = -g[8 * k + 6]!;
    for (let j = 0; j < 3; j++) {
      const i = nd[3 * k + j]!;
      if (i < 0) continue;
      const wj = w[3 * k + j]!, X = x[2 * i]!, Y = x[2 * i + 1]!;
      d += wj * (nx * X + ny * Y);
      u += wj * (-ny * X + nx * Y);
    }
    out[0] = d;
    out[1] = u;
  }

  private readonly tmp = new Float64Array(2);

  /** Normal force κ·max(0, r − d(x)) of candidate k at x (the contact force after a solve). */
  normalForce(k: number, x: Float64Array): number {
    this.du(k, x, this.tmp);
    const gap = this.geo[8 * k + 3]! - this.tmp[0]!;
    return gap > 0 ? this.geo[8 * k + 4]! * gap : 0;
  }

  energy(x: Float64Array): number {
    let E = 0;
    const g = this.geo, t = this.tmp;
    for (let k = 0; k < this.count; k++) {
      this.du(k, x, t);
      const gap = g[8 * k + 3]! - t[0]!;
      if (gap > 0) E += 0.5 * g[8 * k + 4]! * gap * gap;
      const ml = g[8 * k + 5]!;
      if (ml > 0) E += ml * frictionF0(Math.abs(t[1]!), g[8 * k + 7]!);
    }
    return E;
  }

  /** gU += ∂E/∂x. */
  gradient(x: Float64Array, gU: Float64Array): void {
    const g = this.geo, t = this.tmp, nd = this.node, w = this.w;
    for (let k = 0; k < this.count; k++) {
      this.du(k, x, t);
      const gap = g[8 * k + 3]! - t[0]!;
      const fn = gap > 0 ? -g[8 * k + 4]! * gap : 0; // ∂E/∂d
      const ml = g[8 * k + 5]!;
      const u = t[1]!;
      const ft = ml > 0 ? ml * frictionF1(Math.abs(u), g[8 * k + 7]!) * (u > 0 ? 1 : u < 0 ? -1 : 0) : 0; // ∂E/∂u
      if (fn === 0 && ft === 0) continue;
      const nx = g[8 * k]!, ny = g[8 * k + 1]!;
      const gx = fn * nx - ft * ny, gy = fn * ny + ft * nx;
      for (let j = 0; j < 3; j++) {
        const i = nd[3 * k + j]!;
        if (i < 0) continue;
        const wj = w[3 * k + j]!;
        gU[2 * i] = gU[2 * i]! + wj * gx;
        gU[2 * i + 1] = gU[2 * i + 1]! + wj * gy;
      }
    }
  }

  /** Second derivatives of E along d and u at x: (∂²E/∂d², ∂²E/∂u²). */
  private curv(k: number, x: Float64Array, out: Float64Array): void {
    const g = this.geo;
    this.du(k, x, out);
    const gap = g[8 * k + 3]! - out[0]!;
    const ml = g[8 * k + 5]!;
    const cu = ml > 0 ? ml * frictionF2(Math.abs(out[1]!), g[8 * k + 7]!) : 0;
    out[0] = gap > 0 ? g[8 * k + 4]! : 0;
    out[1] = cu;
  }

  /**
   * Exact local Hessian of candidate k (6×6 over nodes p, a, b, row-major; for tests):
   * cn·(w_i w_j) n nᵀ + cu·(w_i w_j) t tᵀ.
   */
  localHessian(k: number, x: Float64Array, out: Float64Array): void {
    const t = this.tmp;
    this.curv(k, x, t);
    const nx = this.geo[8 * k]!, ny = this.geo[8 * k + 1]!;
    const B = [t[0]! * nx * nx + t[1]! * ny * ny, t[0]! * nx * ny - t[1]! * nx * ny, t[0]! * ny * ny + t[1]! * nx * nx];
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        const ww = this.node[3 * k + i]! >= 0 && this.node[3 * k + j]! >= 0 ? this.w[3 * k + i]! * this.w[3 * k + j]! : 0;
        out[(2 * i) * 6 + 2 * j] = ww * B[0]!;
        out[(2 * i) * 6 + 2 * j + 1] = ww * B[1]!;
        out[(2 * i + 1) * 6 + 2 * j] = ww * B[1]!;
        out[(2 * i + 1) * 6 + 2 * j + 1] = ww * B[2]!;
      }
    }
  }

  /** values += scale · (assembled PSD Hessian: exact for colliders, the 2·blockdiag majorizer for edges). */
  hessian(x: Float64Array, scale: number, values: Float64Array): void {
    const t = this.tmp, s = this.slots, w = this.w, g = this.geo;
    for (let k = 0; k < this.count; k++) {
      this.curv(k, x, t);
      const cn = t[0]!, cu = t[1]!;
      if (cn === 0 && cu === 0) continue;
      const nx = g[8 * k]!, ny = g[8 * k + 1]!;
      const edge = this.node[3 * k + 1]! >= 0;
      const f = edge ? 2 * scale : scale;
      const bxx = f * (cn * nx * nx + cu * ny * ny);
      const bxy = f * (cn - cu) * nx * ny;
      const byy = f * (cn * ny * ny + cu * nx * nx);
      for (let j = 0; j < 3; j++) {
        const o = NS * k + 3 * j;
        if (s[o]! < 0) continue;
        const ww = w[3 * k + j]! * w[3 * k + j]!;
        values[s[o]!] = values[s[o]!]! + ww * bxx;
        values[s[o + 1]!] = values[s[o + 1]!]! + ww * bxy;
        values[s[o + 2]!] = values[s[o + 2]!]! + ww * byy;
      }
      if (edge) {
        const o = NS * k + 9;
        const ww = w[3 * k + 1]! * w[3 * k + 2]!;
        // (hi, lo) block rows x,y × cols x,y; the block is symmetric (n nᵀ, t tᵀ)
        values[s[o]!] = values[s[o]!]! + ww * bxx;
        values[s[o + 1]!] = values[s[o + 1]!]! + ww * bxy;
        values[s[o + 2]!] = values[s[o + 2]!]! + ww * bxy;
        values[s[o + 3]!] = values[s[o + 3]!]! + ww * byy;
      }
    }
  }
}
