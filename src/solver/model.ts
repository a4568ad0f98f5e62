/**
 * What the solvers (integrators.ts, newton.ts) need of a force model, declared here so that the
 * solver layer does not import the systems that implement it (src/systems/forces.ts: ForceModel).
 * "Gradient" follows FOSSSim's gradU convention: minus the force.
 */
import type { Topology } from './topology';

/** A potential term with its own assembly (contact): energy, gradient (+=) and a PSD Hessian (values += scale·H). */
export interface ContactTerm {
  /** Number of contact candidates this step. */
  count: number;
  /**
   * Initial guess of the solve instead of x̃ (null: x̃ pulled back by CCD): a refinement after a
   * solve that stopped on its trust region continues from that result (src/collision/contact.ts).
   */
  warmStart: Float64Array | null;
  /** Newton iteration cap while the term has candidates (the solver uses max(settings, this)). */
  maxIters: number;
  /** Energy at x (tests, tools). */
  energy(x: Float64Array): number;
  /** out[0] ← energy(x): the allocation-free form the solver calls every iterate. */
  energyTo(x: Float64Array, out: Float64Array): void;
  /** gU += ∇E over the candidates, but those of held or converged particles (held[p] ≠ 0). */
  gradient(x: Float64Array, gU: Float64Array, held?: Uint8Array | null): void;
  /** values += scale·H over the candidates, but those of held or converged particles (held[p] ≠ 0; src/solver/islands.ts). */
  hessian(x: Float64Array, scale: number, values: Float64Array, held?: Uint8Array | null): void;
  /** Candidates the last hessian() assembled with the diagonal-block majorizer (their blocks are missing from the pattern). */
  majorAssembled: number;
  /** A bound on the rank of their excess: 2 per particle of theirs (normal and tangent). */
  majorRank: number;
  /** out −= Σ scale · (majorizer − exact local Hessian) · v over those candidates: the assembled matrix times v, minus this, is the exact Hessian's product. */
  majorCorrection(v: Float64Array, out: Float64Array): void;
  /** Join, in the union–find forest comp (src/solver/islands.ts), the particles each candidate and guard couples. */
  joinIslands(comp: Int32Array): void;
  /** Largest fraction of the step dx from x before a particle crosses a contact surface into it (CCD: initial guess and line search), ≤ 1. */
  maxStep(x: Float64Array, dx: Float64Array): number;
  /** out[0] ← maxStep(x, dx), allocation-free. */
  maxStepTo(x: Float64Array, dx: Float64Array, out: Float64Array): void;
  /** out[0] ← min(out[0], maxStep(x, dx)) (out[0] kept when the bound is not smaller, or NaN). */
  maxStepMinTo(x: Float64Array, dx: Float64Array, out: Float64Array): void;
  /** touched[comp[i]] ← 1 for every node i of a contact candidate, guards left out (comp: flattened island labels). */
  markIslands(comp: Int32Array, touched: Uint8Array): void;
  /**
   * Friction stick prediction (src/collision/implicit.ts, docs/contact.md): stickKeep(false) drops
   * every prediction; stickRefresh drops those of pairs whose slip at x is within ε and returns how
   * many are left; stickAddRhs turns rhs = −g into the right-hand side of the predicted model (scale:
   * the factor of the energy in Φ, h²); stickMark predicts that a pair sticks when dx carries its
   * slip through zero.
   */
  /**
   * Drop every prediction unless `keep`: a loop with no branch, so that the solver calls it on every
   * iteration and its call sites never first run late in a game (a call site without type feedback
   * deoptimizes the Newton step; src/solver/newton.ts).
   */
  stickKeep(keep: boolean): void;
  stickRefresh(x: Float64Array): number;
  stickAddRhs(x: Float64Array, scale: number, rhs: Float64Array): void;
  stickMark(x: Float64Array, dx: Float64Array): void;
  /**
   * Far candidates (src/collision/implicit.ts, docs/contact.md): the solver registers its iterate and
   * trial buffers and the array whose [0] holds a trial's α while the trial is evaluated, at a
   * solve's start (boundsBegin), each line search's direction (boundsDirection) and each accepted α
   * (boundsAccept, α in [0]: a double argument would be boxed), and ends with boundsEnd. Energy,
   * gradient, Hessian and maxStep then skip the candidates whose terms are certainly zero there
   * (bit-identical results); at any other point they compute every candidate.
   */
  boundsBegin(x: Float64Array, trial: Float64Array, alpha: Float64Array): void;
  boundsDirection(dir: Float64Array): void;
  boundsAccept(alpha: Float64Array): void;
  boundsEnd(): void;
}

/** The force model of one topology: energy, gradient and Hessians of every element, anchor and contact term. */
export interface SystemModel {
  readonly t: Topology;
  /** Contact potential of this step (src/collision), null: none. */
  contact: ContactTerm | null;
  /** Total potential energy at x. */
  energy(x: Float64Array): number;
  /** gU ← ∇E(x, v) (minus the force, damping included); terms of held or converged islands (held[i] ≠ 0) left out. */
  gradient(x: Float64Array, v: Float64Array, gU: Float64Array, held?: Uint8Array | null): void;
  /** values += cx·∂²E/∂x² + cv·∂(gradU)/∂v (exact element Hessians). */
  hessian(x: Float64Array, v: Float64Array, cx: number, cv: number, values: Float64Array): void;
  /**
   * values += scale·(PSD-projected ∂²E/∂x²), leaving out the terms of held islands (held[i] = 1 for
   * their particles; src/solver/islands.ts) and converged ones (KEEP_ROWS), whose rows the solver does not factor.
   */
  hessianPSD(x: Float64Array, scale: number, values: Float64Array, held?: Uint8Array | null): void;
  /** FOSSSim's penalty force is on: any two particles may couple (no islands). */
  readonly pairsEverywhere: boolean;
  /** touched[comp[i]] ← 1 for every particle i an anchor holds (comp: flattened island labels). */
  markAnchored(comp: Int32Array, touched: Uint8Array): void;
  /** out[0] ← largest α ∈ (0, 1] such that x + α dx keeps every guarded element valid. */
  maxStepTo(x: Float64Array, dx: Float64Array, out: Float64Array): void;
  /**
   * out[0] ← min(out[0], largest α such that x + α dx keeps every element that is valid at x valid):
   * the element part of maxStepTo without contact (the game-mode Newton's initial guess).
   */
  inversionMaxStepMinTo(x: Float64Array, dx: Float64Array, out: Float64Array): void;
}
