/**
 * Force accumulation over a topology: total energy, its gradient and its
 * Hessians, by family in a fixed order and by creation order within a family.
 *
 * "Gradient" follows FOSSSim's gradU convention: minus the force, including
 * velocity-dependent (damping) terms. Hessians are accumulated into the lower
 * triangle of the fixed sparse pattern through precomputed scatter maps:
 * values += cx·∂²E/∂x² + cv·∂(gradU)/∂v.
 *
 * Drivers over loop kernels; doubles cross calls only through scratch (g, h, es, res): docs/design.md,
 * "Scratch and calling convention".
 */
import { InputError } from '../errors';
import {
  springEnergy, springGradient, springHessian,
  bendingEnergy, bendingGradient, bendingHessian,
  triangleHessian,
  fsSpringEnergy, fsSpringGradient, fsSpringHessX, fsSpringHessV,
  fsGravitationEnergy, fsGravitationGradient, fsGravitationHessX,
  fsVortexGradient, fsVortexHessX, fsVortexHessV,
} from '../elements';
import {
  springHessianPSD, bendingHessianPSD, cstHessianPSDAt, fsSpringHessXPSD, fsGravitationHessXPSD,
} from '../elements/psd';
import { MAT_FOSSSIM, triangleEnergyAt, triangleGradientAt, triangleProjectedHessianAt } from '../elements/materials';
import { TRI_AREA, TRI_B00, TRI_E, TRI_MATERIAL, TRI_NU, TRI_STRIDE } from '../elements/layout';
import { UNIFORM_CONSTANT, UNIFORM_DRAG, UNIFORM_GRAVITY } from '../components';
import { scatter, type ElementFamily, type Topology } from '../solver/topology';
import type { ContactTerm, SystemModel } from '../solver/model';
import { triangleMaxStep, triangleMaxStepMin } from './inversion';

export class ForceModel implements SystemModel {
  readonly t: Topology;
  /** Scratch for one element's gradient (≤ 6) and Hessian (≤ 36). */
  private readonly g = new Float64Array(6);
  private readonly h = new Float64Array(36);
  /** Energy scratch of trianglesEnergy: ES_ELEMENT (one triangle's W), ES_SUM (the running total). */
  private readonly es = new Float64Array(2);
  /** Pointer anchors (owned by the world; null: none). */
  anchors: AnchorSet | null = null;
  /** Contact potential for this step (src/collision/implicit.ts; set by the contact system, null: none). */
  contact: ContactTerm | null = null;
  /** FOSSSim's penalty force (src/collision/penalty.ts), evaluated after every other force; null: none. */
  penalty: PenaltyForceTerm | null = null;

  /** FOSSSim's penalty force is on: any two particles may couple (the Newton solve then has no islands). */
  get pairsEverywhere(): boolean {
    return this.penalty !== null;
  }

  /** The held mask of a solve with no held island (gradient, hessianPSD): all zero, one entry per particle. */
  private readonly noneHeld: Uint8Array;

  constructor(t: Topology) {
    this.t = t;
    this.noneHeld = new Uint8Array(t.n);
  }

  /** Scratch for the number-returning wrappers energy() and maxStep(). */
  private readonly res = new Float64Array(2);

  /** Total potential energy at x (damping and vortex forces have none): what the Newton solver calls. */
  energy(x: Float64Array): number {
    this.energyTo(x, this.res);
    return this.res[0]!;
  }

  /**
   * out[0] ← total potential energy at x. The anchor and contact terms are added through `out`
   * (their number-returning energy() allocated 64 B per pile step here: docs/solver.md, part 6).
   */
  energyTo(x: Float64Array, out: Float64Array): void {
    const t = this.t;
    let E = 0;
    const s = t.springs;
    for (let e = 0; e < s.count; e++) {
      const a = 2 * s.nodes[2 * e]!, b = 2 * s.nodes[2 * e + 1]!;
      E += springEnergy(x[a]!, x[a + 1]!, x[b]!, x[b + 1]!, s.params[2 * e]!, s.params[2 * e + 1]!);
    }
    const hg = t.hinges;
    for (let e = 0; e < hg.count; e++) {
      const a = 2 * hg.nodes[3 * e]!, b = 2 * hg.nodes[3 * e + 1]!, c = 2 * hg.nodes[3 * e + 2]!, p = 3 * e;
      E += bendingEnergy(x[a]!, x[a + 1]!, x[b]!, x[b + 1]!, x[c]!, x[c + 1]!, hg.params[p]!, hg.params[p + 1]!, hg.params[p + 2]!);
    }
    if (t.triangles.count > 0) {
      const es = this.es;
      es[ES_SUM] = E;
      trianglesEnergy(t.triangles, x, es);
      E = es[ES_SUM]!;
    }
    const d = t.dampedSprings;
    for (let e = 0; e < d.count; e++) {
      const a = 2 * d.nodes[2 * e]!, b = 2 * d.nodes[2 * e + 1]!;
      E += fsSpringEnergy(x[a]!, x[a + 1]!, x[b]!, x[b + 1]!, d.params[3 * e]!, d.params[3 * e + 1]!);
    }
    const gr = t.gravitation;
    for (let e = 0; e < gr.count; e++) {
      const a = 2 * gr.nodes[2 * e]!, b = 2 * gr.nodes[2 * e + 1]!;
      E += fsGravitationEnergy(x[a]!, x[a + 1]!, x[b]!, x[b + 1]!, gr.params[e]!, t.mass[a]!, t.mass[b]!);
    }
    for (let u = 0; u < t.uniformCount; u++) {
      const kind = t.uniformKind[u]!, fx = t.uniform[3 * u]!, fy = t.uniform[3 * u + 1]!;
      if (kind === UNIFORM_GRAVITY) {
        for (let i = 0; i < t.ndof; i += 2) E -= t.mass[i]! * (fx * x[i]! + fy * x[i + 1]!);
      } else if (kind === UNIFORM_CONSTANT) {
        for (let i = 0; i < t.ndof; i += 2) E -= fx * x[i]! + fy * x[i + 1]!;
      }
    }
    if (this.anchors) {
      this.anchors.energyTo(x, out);
      E += out[0]!;
    }
    if (this.contact) {
      this.contact.energyTo(x, out);
      E += out[0]!;
    }
    if (this.penalty) {
      this.penalty.energyTo(x, out);
      E += out[0]!;
    }
    out[0] = E;
  }

  /** touched[comp[i]] ← 1 for every particle i an anchor holds (comp: flattened island labels). */
  markAnchored(comp: Int32Array, touched: Uint8Array): void {
    const a = this.anchors;
    if (a === null) return;
    for (let s = 0; s < a.count; s++) touched[comp[a.node[s]!]!] = 1;
  }

  /**
   * gU = dE/dx − (velocity-dependent forces), zeroed first. The terms of held islands (held[i] ≠ 0,
   * src/solver/islands.ts) are left out: they add only to held particles' rows, which the solver zeroes.
   */
  gradient(x: Float64Array, v: Float64Array, gU: Float64Array, held: Uint8Array | null = null): void {
    const t = this.t;
    const g = this.g;
    const skip = held ?? this.noneHeld;
    gU.fill(0);
    const s = t.springs;
    for (let e = 0; e < s.count; e++) {
      const a = 2 * s.nodes[2 * e]!, b = 2 * s.nodes[2 * e + 1]!;
      if (skip[a >> 1] !== 0) continue;
      springGradient(x[a]!, x[a + 1]!, x[b]!, x[b + 1]!, s.params[2 * e]!, s.params[2 * e + 1]!, g, 0);
      add2(gU, g, a, b);
    }
    const hg = t.hinges;
    for (let e = 0; e < hg.count; e++) {
      const a = 2 * hg.nodes[3 * e]!, b = 2 * hg.nodes[3 * e + 1]!, c = 2 * hg.nodes[3 * e + 2]!, p = 3 * e;
      if (skip[a >> 1] !== 0) continue;
      bendingGradient(x[a]!, x[a + 1]!, x[b]!, x[b + 1]!, x[c]!, x[c + 1]!, hg.params[p]!, hg.params[p + 1]!, hg.params[p + 2]!, g, 0);
      add3(gU, g, a, b, c);
    }
    if (t.triangles.count > 0) trianglesGradient(t.triangles, x, g, gU, skip);
    const d = t.dampedSprings;
    for (let e = 0; e < d.count; e++) {
      const a = 2 * d.nodes[2 * e]!, b = 2 * d.nodes[2 * e + 1]!, p = 3 * e;
      if (skip[a >> 1] !== 0) continue;
      fsSpringGradient(x[a]!, x[a + 1]!, x[b]!, x[b + 1]!, v[a]!, v[a + 1]!, v[b]!, v[b + 1]!, d.params[p]!, d.params[p + 1]!, d.params[p + 2]!, g, 0);
      add2(gU, g, a, b);
    }
    const gr = t.gravitation;
    for (let e = 0; e < gr.count; e++) {
      const a = 2 * gr.nodes[2 * e]!, b = 2 * gr.nodes[2 * e + 1]!;
      if (skip[a >> 1] !== 0) continue;
      fsGravitationGradient(x[a]!, x[a + 1]!, x[b]!, x[b + 1]!, gr.params[e]!, t.mass[a]!, t.mass[b]!, g, 0);
      add2(gU, g, a, b);
    }
    const vo = t.vortices;
    for (let e = 0; e < vo.count; e++) {
      const a = 2 * vo.nodes[2 * e]!, b = 2 * vo.nodes[2 * e + 1]!;
      if (skip[a >> 1] !== 0) continue;
      fsVortexGradient(x[a]!, x[a + 1]!, x[b]!, x[b + 1]!, v[a]!, v[a + 1]!, v[b]!, v[b + 1]!, vo.params[2 * e]!, vo.params[2 * e + 1]!, g, 0);
      add2(gU, g, a, b);
    }
    for (let u = 0; u < t.uniformCount; u++) {
      const kind = t.uniformKind[u]!, fx = t.uniform[3 * u]!, fy = t.uniform[3 * u + 1]!, bd = t.uniform[3 * u + 2]!;
      if (kind === UNIFORM_GRAVITY) {
        for (let i = 0; i < t.ndof; i += 2) {
          gU[i] = gU[i]! - t.mass[i]! * fx;
          gU[i + 1] = gU[i + 1]! - t.mass[i + 1]! * fy;
        }
      } else if (kind === UNIFORM_CONSTANT) {
        for (let i = 0; i < t.ndof; i += 2) {
          gU[i] = gU[i]! - fx;
          gU[i + 1] = gU[i + 1]! - fy;
        }
      } else if (kind === UNIFORM_DRAG) {
        for (let i = 0; i < t.ndof; i++) gU[i] = gU[i]! + bd * v[i]!;
      }
    }
    if (this.anchors) this.anchors.gradient(x, gU);
    if (this.contact) this.contact.gradient(x, gU, skip);
    if (this.penalty) this.penalty.gradient(x, gU);
  }

  /**
   * Line-search bound (game-mode Newton): the largest fraction α ∈ (0, 1] of the step dx from x
   * that may be tried: no Neo-Hookean triangle inverts (src/systems/inversion.ts) and no particle
   * crosses a contact surface or leaves its trust box (the contact term, src/collision/implicit.ts);
   * 1 when neither applies. Number-returning wrapper of maxStepTo (tests and tools).
   */
  maxStep(x: Float64Array, dx: Float64Array): number {
    this.maxStepTo(x, dx, this.res);
    return this.res[0]!;
  }

  /** out[0] ← maxStep(x, dx), allocation-free. */
  maxStepTo(x: Float64Array, dx: Float64Array, out: Float64Array): void {
    triangleMaxStep(this.t, x, dx, out); // Neo-Hookean triangles stay uninverted (src/systems/inversion.ts)
    // no particle crosses a contact surface (src/collision/implicit.ts): out[0] lowered to that
    // bound inside the contact kernel, as this once-per-step driver must not read a double
    if (this.contact) this.contact.maxStepMinTo(x, dx, out); // its trust region too, with no candidates
  }

  /** out[0] ← min(out[0], the Neo-Hookean inversion bound of maxStepTo), contact not included. */
  inversionMaxStepMinTo(x: Float64Array, dx: Float64Array, out: Float64Array): void {
    triangleMaxStepMin(this.t, x, dx, out);
  }


  /**
   * values += scale · (PSD projection of each element's potential Hessian),
   * element by element (game-mode Newton). Velocity-dependent terms are not
   * included: the Newton solver adds its dissipation potentials itself.
   */
  hessianPSD(x: Float64Array, scale: number, values: Float64Array, held: Uint8Array | null = null): void {
    const t = this.t;
    const h = this.h;
    // every element's nodes lie in one island (src/solver/islands.ts): its first node says whether it is held
    const skip = held ?? this.noneHeld;
    const s = t.springs;
    for (let e = 0; e < s.count; e++) {
      const a = 2 * s.nodes[2 * e]!, b = 2 * s.nodes[2 * e + 1]!;
      if (skip[a >> 1] !== 0) continue;
      springHessianPSD(x[a]!, x[a + 1]!, x[b]!, x[b + 1]!, s.params[2 * e]!, s.params[2 * e + 1]!, h, 0);
      scatter(values, s, e, h, scale);
    }
    const hg = t.hinges;
    for (let e = 0; e < hg.count; e++) {
      const a = 2 * hg.nodes[3 * e]!, b = 2 * hg.nodes[3 * e + 1]!, c = 2 * hg.nodes[3 * e + 2]!, p = 3 * e;
      if (skip[a >> 1] !== 0) continue;
      bendingHessianPSD(x[a]!, x[a + 1]!, x[b]!, x[b + 1]!, x[c]!, x[c + 1]!, hg.params[p]!, hg.params[p + 1]!, hg.params[p + 2]!, h, 0);
      scatter(values, hg, e, h, scale);
    }
    if (t.triangles.count > 0) trianglesHessianPSD(t.triangles, x, h, scale, values, skip);
    const d = t.dampedSprings;
    for (let e = 0; e < d.count; e++) {
      const a = 2 * d.nodes[2 * e]!, b = 2 * d.nodes[2 * e + 1]!, p = 3 * e;
      if (skip[a >> 1] !== 0) continue;
      fsSpringHessXPSD(x[a]!, x[a + 1]!, x[b]!, x[b + 1]!, d.params[p]!, d.params[p + 1]!, h, 0);
      scatter(values, d, e, h, scale);
    }
    const gr = t.gravitation;
    for (let e = 0; e < gr.count; e++) {
      const a = 2 * gr.nodes[2 * e]!, b = 2 * gr.nodes[2 * e + 1]!;
      if (skip[a >> 1] !== 0) continue;
      fsGravitationHessXPSD(x[a]!, x[a + 1]!, x[b]!, x[b + 1]!, gr.params[e]!, t.mass[a]!, t.mass[b]!, h, 0);
      scatter(values, gr, e, h, scale);
    }
    if (this.anchors) this.anchors.hessian(t.diag, scale, values);
    if (this.contact) this.contact.hessian(x, scale, values, skip);
    if (this.penalty) this.penalty.hessianPSD(x, scale, values);
  }

  /** values += cx·Hx + cv·Hv on the topology's pattern (lower triangle). */
  hessian(x: Float64Array, v: Float64Array, cx: number, cv: number, values: Float64Array): void {
    const t = this.t;
    const h = this.h;
    if (cx !== 0) {
      const s = t.springs;
      for (let e = 0; e < s.count; e++) {
        const a = 2 * s.nodes[2 * e]!, b = 2 * s.nodes[2 * e + 1]!;
        springHessian(x[a]!, x[a + 1]!, x[b]!, x[b + 1]!, s.params[2 * e]!, s.params[2 * e + 1]!, h, 0);
        scatter(values, s, e, h, cx);
      }
      const hg = t.hinges;
      for (let e = 0; e < hg.count; e++) {
        const a = 2 * hg.nodes[3 * e]!, b = 2 * hg.nodes[3 * e + 1]!, c = 2 * hg.nodes[3 * e + 2]!, p = 3 * e;
        bendingHessian(x[a]!, x[a + 1]!, x[b]!, x[b + 1]!, x[c]!, x[c + 1]!, hg.params[p]!, hg.params[p + 1]!, hg.params[p + 2]!, h, 0);
        scatter(values, hg, e, h, cx);
      }
      const tr = t.triangles;
      for (let e = 0; e < tr.count; e++) {
        const a = 2 * tr.nodes[3 * e]!, b = 2 * tr.nodes[3 * e + 1]!, c = 2 * tr.nodes[3 * e + 2]!, p = TRI_STRIDE * e;
        const q = tr.params;
        triangleHessian(
          q[p + TRI_MATERIAL]!, x[a]!, x[a + 1]!, x[b]!, x[b + 1]!, x[c]!, x[c + 1]!, q[p + TRI_E]!, q[p + TRI_NU]!, q[p + TRI_AREA]!,
          q[p + TRI_B00]!, q[p + TRI_B00 + 1]!, q[p + TRI_B00 + 2]!, q[p + TRI_B00 + 3]!, h, 0,
        );
        scatter(values, tr, e, h, cx);
      }
      const d = t.dampedSprings;
      for (let e = 0; e < d.count; e++) {
        const a = 2 * d.nodes[2 * e]!, b = 2 * d.nodes[2 * e + 1]!, p = 3 * e;
        fsSpringHessX(x[a]!, x[a + 1]!, x[b]!, x[b + 1]!, v[a]!, v[a + 1]!, v[b]!, v[b + 1]!, d.params[p]!, d.params[p + 1]!, d.params[p + 2]!, h, 0);
        scatter(values, d, e, h, cx);
      }
      const gr = t.gravitation;
      for (let e = 0; e < gr.count; e++) {
        const a = 2 * gr.nodes[2 * e]!, b = 2 * gr.nodes[2 * e + 1]!;
        fsGravitationHessX(x[a]!, x[a + 1]!, x[b]!, x[b + 1]!, gr.params[e]!, t.mass[a]!, t.mass[b]!, h, 0);
        scatter(values, gr, e, h, cx);
      }
      const vo = t.vortices;
      for (let e = 0; e < vo.count; e++) {
        const a = 2 * vo.nodes[2 * e]!, b = 2 * vo.nodes[2 * e + 1]!;
        fsVortexHessX(x[a]!, x[a + 1]!, x[b]!, x[b + 1]!, v[a]!, v[a + 1]!, v[b]!, v[b + 1]!, vo.params[2 * e]!, vo.params[2 * e + 1]!, h, 0);
        scatter(values, vo, e, h, cx);
      }
      if (this.anchors) this.anchors.hessian(t.diag, cx, values);
      if (this.contact) this.contact.hessian(x, cx, values);
      if (this.penalty) this.penalty.hessian(x, cx, values);
    }
    if (cv !== 0) {
      const d = t.dampedSprings;
      for (let e = 0; e < d.count; e++) {
        if (d.params[3 * e + 2] === 0) continue;
        const a = 2 * d.nodes[2 * e]!, b = 2 * d.nodes[2 * e + 1]!, p = 3 * e;
        fsSpringHessV(x[a]!, x[a + 1]!, x[b]!, x[b + 1]!, d.params[p + 2]!, h, 0);
        scatter(values, d, e, h, cv);
      }
      const vo = t.vortices;
      for (let e = 0; e < vo.count; e++) {
        const a = 2 * vo.nodes[2 * e]!, b = 2 * vo.nodes[2 * e + 1]!;
        fsVortexHessV(x[a]!, x[a + 1]!, x[b]!, x[b + 1]!, vo.params[2 * e + 1]!, h, 0);
        scatter(values, vo, e, h, cv);
      }
      for (let u = 0; u < t.uniformCount; u++) {
        if (t.uniformKind[u] !== UNIFORM_DRAG) continue;
        const bd = cv * t.uniform[3 * u + 2]!;
        for (let i = 0; i < t.ndof; i++) values[t.diag[i]!] = values[t.diag[i]!]! + bd;
      }
    }
  }
}


function add2(gU: Float64Array, g: Float64Array, a: number, b: number): void {
  gU[a] = gU[a]! + g[0]!;
  gU[a + 1] = gU[a + 1]! + g[1]!;
  gU[b] = gU[b]! + g[2]!;
  gU[b + 1] = gU[b + 1]! + g[3]!;
}

// Triangle loops, each in its own function: array-offset kernels (no boxed double arguments,
// src/elements/materials.ts), and a hot loop that V8 optimizes as a whole function rather than
// through on-stack replacement of the caller (whose OSR code deoptimized on every call after the loop).
// Nothing runs before a loop (the family's arrays are read inside it): a long first call ran such
// statements before V8 allocated the feedback vector, so the optimized code deoptimized there on
// the next call and the function then lived on OSR code entered from the interpreter on every call.

/** Offsets in ForceModel's energy scratch `es`: one triangle's energy, and the running total. */
const ES_ELEMENT = 0, ES_SUM = 1;

/**
 * s[ES_SUM] += each triangle's energy in turn (same summation order as before; s[ES_ELEMENT] is
 * the kernel's output). The sum lives in the scratch and nothing follows the loop: code compiled
 * on stack replacement at the loop has type feedback for all of it (src/solver/newton.ts, inertiaSums).
 */
function trianglesEnergy(tr: ElementFamily, x: Float64Array, s: Float64Array): void {
  for (let e = 0; e < tr.count; e++) {
    const q = tr.params, nodes = tr.nodes;
    triangleEnergyAt(x, 2 * nodes[3 * e]!, 2 * nodes[3 * e + 1]!, 2 * nodes[3 * e + 2]!, q, TRI_STRIDE * e, s, ES_ELEMENT);
    s[ES_SUM] = s[ES_SUM]! + s[ES_ELEMENT]!;
  }
}

function trianglesGradient(tr: ElementFamily, x: Float64Array, g: Float64Array, gU: Float64Array, held: Uint8Array): void {
  for (let e = 0; e < tr.count; e++) {
    const q = tr.params, nodes = tr.nodes;
    const a = 2 * nodes[3 * e]!, b = 2 * nodes[3 * e + 1]!, c = 2 * nodes[3 * e + 2]!;
    if (held[a >> 1] !== 0) continue;
    triangleGradientAt(x, a, b, c, q, TRI_STRIDE * e, g, 0);
    add3(gU, g, a, b, c);
  }
}

function trianglesHessianPSD(
  tr: ElementFamily, x: Float64Array, h: Float64Array, scale: number, values: Float64Array, held: Uint8Array,
): void {
  for (let e = 0; e < tr.count; e++) {
    const q = tr.params, nodes = tr.nodes;
    const a = 2 * nodes[3 * e]!, b = 2 * nodes[3 * e + 1]!, c = 2 * nodes[3 * e + 2]!, p = TRI_STRIDE * e;
    if (held[a >> 1] !== 0) continue;
    if (q[p + TRI_MATERIAL] === MAT_FOSSSIM) cstHessianPSDAt(x, a, b, c, q, p, h, 0);
    else triangleProjectedHessianAt(x, a, b, c, q, p, h, 0);
    scatter(values, tr, e, h, scale);
  }
}

function add3(gU: Float64Array, g: Float64Array, a: number, b: number, c: number): void {
  gU[a] = gU[a]! + g[0]!;
  gU[a + 1] = gU[a + 1]! + g[1]!;
  gU[b] = gU[b]! + g[2]!;
  gU[b + 1] = gU[b + 1]! + g[3]!;
  gU[c] = gU[c]! + g[4]!;
  gU[c + 1] = gU[c + 1]! + g[5]!;
}


/**
 * Anchor springs (pointer dragging): E = ½ k ‖x_i − p‖² per anchor, target p set
 * each step. Preallocated, so grabbing, moving and releasing never rebuild the
 * topology; anchors are evaluated in slot order (deterministic). The Hessian k·I
 * goes on the particle's diagonal slots only (no pattern change).
 */
export class AnchorSet {
  readonly capacity: number;
  count = 0;
  /** Particle entity of each anchor. */
  readonly eid: Int32Array;
  /** Dense particle index of each anchor (resolved against the current topology). */
  readonly node: Int32Array;
  /** Targets x0, y0, x1, y1, … (m). */
  readonly target: Float64Array;
  /** Stiffness (N/m). */
  readonly k: Float64Array;
  /** Bumped when anchors are added or removed (the system matrix changed: src/systems/pipeline.ts, solveStage). */
  version = 0;

  constructor(capacity = 64) {
    this.capacity = capacity;
    this.eid = new Int32Array(capacity);
    this.node = new Int32Array(capacity);
    this.target = new Float64Array(2 * capacity);
    this.k = new Float64Array(capacity);
  }

  /** Adds an anchor; returns its slot, or −1 when full. */
  add(eid: number, node: number, px: number, py: number, k: number): number {
    if (this.count >= this.capacity || node < 0 || !(k >= 0) || !Number.isFinite(px) || !Number.isFinite(py)) return -1;
    const s = this.count++;
    this.version++;
    this.eid[s] = eid;
    this.node[s] = node;
    this.target[2 * s] = px;
    this.target[2 * s + 1] = py;
    this.k[s] = k;
    return s;
  }

  /** Move anchor `slot`'s target (m); a slot that holds no anchor or a non-finite target is an InputError. */
  setTarget(slot: number, px: number, py: number): void {
    if (!(slot >= 0 && slot < this.count && slot === (slot | 0)) || !Number.isFinite(px) || !Number.isFinite(py)) {
      throw new InputError(`anchors.setTarget: expected a slot in [0, ${this.count}) and a finite target, got slot ${slot}, (${px}, ${py})`);
    }
    this.target[2 * slot] = px;
    this.target[2 * slot + 1] = py;
  }

  clear(): void {
    if (this.count > 0) this.version++;
    this.count = 0;
  }

  /** Re-resolve dense indices after a topology rebuild; anchors on removed particles are dropped (order kept). */
  remap(particleEids: Int32Array): void {
    let w = 0;
    for (let s = 0; s < this.count; s++) {
      const node = particleEids.indexOf(this.eid[s]!);
      if (node < 0) continue;
      this.eid[w] = this.eid[s]!;
      this.node[w] = node;
      this.target[2 * w] = this.target[2 * s]!;
      this.target[2 * w + 1] = this.target[2 * s + 1]!;
      this.k[w] = this.k[s]!;
      w++;
    }
    if (w !== this.count) this.version++;
    this.count = w;
  }

  energy(x: Float64Array): number {
    const out = new Float64Array(1);
    this.energyTo(x, out);
    return out[0]!;
  }

  /** out[0] ← Σ ½ k ‖x_i − p‖². */
  energyTo(x: Float64Array, out: Float64Array): void {
    let E = 0;
    for (let s = 0; s < this.count; s++) {
      const i = 2 * this.node[s]!;
      const dx = x[i]! - this.target[2 * s]!, dy = x[i + 1]! - this.target[2 * s + 1]!;
      E += 0.5 * this.k[s]! * (dx * dx + dy * dy);
    }
    out[0] = E;
  }

  /** gU += k (x_i − p). */
  gradient(x: Float64Array, gU: Float64Array): void {
    for (let s = 0; s < this.count; s++) {
      const i = 2 * this.node[s]!, k = this.k[s]!;
      gU[i] = gU[i]! + k * (x[i]! - this.target[2 * s]!);
      gU[i + 1] = gU[i + 1]! + k * (x[i + 1]! - this.target[2 * s + 1]!);
    }
  }

  /** values += cx·k on the particle's two diagonal slots. */
  hessian(diag: Int32Array, cx: number, values: Float64Array): void {
    for (let s = 0; s < this.count; s++) {
      const i = 2 * this.node[s]!, a = cx * this.k[s]!;
      values[diag[i]!] = values[diag[i]!]! + a;
      values[diag[i + 1]!] = values[diag[i + 1]!]! + a;
    }
  }
}

/** A force term with its own pair search and assembly (FOSSSim's penalty force): exact and PSD Hessians. */
export interface PenaltyForceTerm {
  energyTo(x: Float64Array, out: Float64Array): void;
  gradient(x: Float64Array, gU: Float64Array): void;
  hessian(x: Float64Array, scale: number, values: Float64Array): void;
  hessianPSD(x: Float64Array, scale: number, values: Float64Array): void;
}
