/**
 * Game-mode backward Euler as optimization (the "incremental potential"):
 *
 *   x_{t+1} = argmin Φ(x),  Φ(x) = ½ (x − x̃)ᵀ M (x − x̃) + h² V(x) + h³ R((x − xᵗ)/h),
 *   x̃ = xᵗ + h vᵗ,  v_{t+1} = (x_{t+1} − xᵗ)/h,
 *
 * V the potential energy of the force model (gravity included), R the Rayleigh
 * dissipation of the velocity-dependent forces that have one: drag ½ b ‖v‖²
 * (exact) and spring damping ½ b (n̂·(vⱼ − vᵢ))² with n̂ frozen at the start of
 * the step. The vortex force has neither potential nor dissipation and is
 * rejected (InputError). Fixed particles move as FOSSSim moves them
 * (x += h v, v unchanged) and are not unknowns.
 *
 * Newton's method with per-element PSD-projected Hessians (every direction a
 * descent direction) and a backtracking line search (α₀ = min(1, maxStep),
 * halving, Armijo constant 1e-8 on Φ; maxStep, the force model's maxStepTo,
 * keeps Neo-Hookean triangles from inverting and particles from crossing
 * contact surfaces). Stops when the Newton step is below `tolerance` times the size of
 * the body (the bounding-box diagonal at the start of the step), or after
 * `maxIters` iterations. All assembly goes through the ForceModel, so other
 * potentials (contact, hyperelastic materials) enter Φ there.
 *
 * Linear solves: sparse LDLᵀ (symbolic analysis shared with the FOSSSim path)
 * for small systems; above `pcgMinDofs`, PCG preconditioned by an LDLᵀ factor
 * reused over steps and refactored when PCG needs more than `refactorIters`
 * iterations. An iteration that follows a small full Newton step (accepted at α = 1,
 * within `chordWithin` step tolerances) may be a chord iteration: no Hessian assembly,
 * the direction is the factor's solve −M⁻¹∇Φ (docs/solver.md, "Chord iterations"). A step
 * may start with a chord on the last solve's factor (a rest chord, `restChord`), followed
 * by more while they contract (`chordChain`; docs/solver.md, "Rest chords", "Chord chains";
 * with contact on the direct path since stop 30). On the direct path, iterations in a solve's slow tail (full steps
 * shrinking by less than `slowChord`, after the stick predictions) reuse the solve's last factor
 * the same way (docs/solver.md, "Stop 23"), and so does the iteration after a step the line search cut to a
 * quarter or less far from the tolerance (`cutChord`; docs/solver.md, "Cut chords"). No allocation per step.
 *
 * Loop-free driver over module kernels; doubles through sc, hs (HS_*), ph, dp, en: docs/design.md,
 * "Scratch and calling convention".
 */
import { InputError } from '../errors';
import type { ContactTerm, SystemModel as ForceModel } from './model';
import { scatter, type ElementFamily, type Topology } from './topology';
import { UNIFORM_CONSTANT, UNIFORM_DRAG, UNIFORM_GRAVITY } from '../components';
import { writePairBlocks } from '../elements';
import { applyFixedToMatrix, zeroFixed, type Workspace } from './workspace';
import { elementIslands, flattenIslands, freeIslands, keepConvergedIslands, keepStillIslands, markHeldIslands } from './islands';
import { dotTo, PcgWorkspace, pcg, stepXR } from './cg';
import { KEEP_ROWS } from './ldlt';
import { addMassMatrix, massMatVec } from './mass';

/** Offsets in NewtonSolver's step constants `hs`: h², h·b (b the uniform drag), h. */
const HS_H2 = 0, HS_HB = 1, HS_H = 2;

export interface NewtonSettings {
  /** Newton iteration cap per step (game default 5). */
  maxIters: number;
  /** Relative tolerance: stop when ‖Δx‖∞ ≤ tolerance · (body size). Default 1e-6. */
  tolerance: number;
  /** Backtracking line search on the incremental potential (default true). */
  lineSearch: boolean;
  /** 'psd': element Hessians projected to PSD (default); 'none': exact Hessians. */
  projection: 'psd' | 'none';
  /**
   * Newton iterations per fixed step at most, over all of the step's solves (contact raises a solve's
   * cap to 20 and may solve up to 3 more times: without a budget a step can take 80 iterations).
   * 0 (default): no budget beyond those caps. When the budget is used up the step keeps the last
   * accepted iterate (every one lowered the incremental potential, kept uninverted Neo-Hookean
   * triangles uninverted and was intersection-free against the step's contact candidates), skips
   * further contact refinement and sets StepStats.newtonCapped; the response stage's safety net
   * still runs.
   */
  maxStepIters: number;
}

export const GAME_NEWTON_DEFAULTS: Readonly<NewtonSettings> = Object.freeze({
  maxIters: 5, tolerance: 1e-6, lineSearch: true, projection: 'psd', maxStepIters: 0,
});

export const ARMIJO_C = 1e-8;
/** Line-search halvings before the step is given up (α = 2⁻³⁰). */
export const MAX_HALVINGS = 30;
/**
 * Friction stick predictions (ContactTerm.stickMark, docs/contact.md "Stick prediction") are made
 * in a solve's first 8 iterations only: a solve still running after that is left to Φ's own model
 * (corotational 10 m drops at 8 nearby tolerances: without the limit 2 ended with a boundary particle
 * 0.05–0.06 m inside a neighbour, with it none of 16; pile20's landing second: 9.1 → 8.0 iterations).
 */
export const STICK_PREDICTION_ITERS = 8;

/**
 * A carried contraction estimate (NewtonSolver.contractionMax) grows by this factor on each step it is
 * carried: the factor ages as the bodies move (on hanging spring sheets θ rose 10–15 % a step between
 * measurements), and an estimate grown to 1 is dropped, so a chain measures θ again.
 */
export const CONTRACTION_GROWTH = 1.1;

/** Relative diagonal shifts tried, in turn, when the LDLᵀ of a game-mode system fails (factorRegularized). */
const REGULARIZATION = [1e-10, 1e-6, 1e-2];

/** values[diag[i]] *= 1 + eps for every dof; false when a diagonal entry is not finite. */
function scaleDiagonal(diag: Int32Array, values: Float64Array, eps: number): boolean {
  let finite = true;
  for (let i = 0; i < diag.length; i++) {
    const a = values[diag[i]!]!;
    if (!Number.isFinite(a)) finite = false;
    values[diag[i]!] = a + eps * (a < 0 ? -a : a);
  }
  return finite;
}

/** Profile phases (NewtonSolver.lap). */
const LAP_NONE = 0, LAP_ASSEMBLY = 1, LAP_FACTOR = 2, LAP_SOLVE = 3;

/**
 * The solver's tuning fields (NewtonSolver.tuning): what a game or a test sets on world.newtonSolver().
 * A contact-pattern growth or a topology change replaces the solver; the new one takes these.
 */
export interface NewtonTuning {
  pcgMinDofs: number;
  refactorIters: number;
  cgTolerance: number;
  cgMaxIters: number;
  profile: boolean;
  chordWithin: number;
  slowChord: number;
  restChord: boolean;
  chordChain: number;
  contractionMax: number;
  skipHeldIslands: boolean;
  islandConvergence: boolean;
  contactChords: boolean;
  cutChord: number;
  majorCg: number;
  majorCgTol: number;
  constantGuess: boolean;
  guessStop: boolean;
}

/**
 * The factor one step carries to the next (NewtonSolver.reusedFactor; snapshots): L's values and D, its
 * staleness (PCG path), the iterate it was assembled at while a rest chord may follow (else empty), and
 * the error factor a chain measured on it (0: none).
 */
export interface CarriedFactor {
  Lx: Float64Array;
  D: Float64Array;
  stale: boolean;
  at: Float64Array;
  contraction: number;
}

/** Per-step timings (ms) when `profile` is on; accumulated over the step. */
export interface NewtonProfile {
  msAssembly: number;
  msFactor: number;
  msSolve: number;
}

export class NewtonSolver {
  readonly t: Topology;
  /** Systems with at least this many dofs use PCG with a reused factor (sparse only). */
  pcgMinDofs = 8000;
  /** Refactor the preconditioner when PCG took more iterations than this. */
  refactorIters = 12;
  /**
   * Relative residual of the inner PCG solves. Kept as a number object behind an accessor (the
   * field starts as null, so V8 stores it as a tagged pointer): solve() passes the same object to
   * pcg() every call instead of boxing a copy of a double field.
   */
  get cgTolerance(): number {
    return this.cgTol!;
  }
  set cgTolerance(v: number) {
    this.cgTol = v;
  }
  private cgTol: number | null = null;
  cgMaxIters = 200;
  profile = false;
  readonly timing: NewtonProfile = { msAssembly: 0, msFactor: 0, msSolve: 0 };
  /** Incremental potential at each accepted iterate of the last step (for tests); length = iters + 1. */
  readonly phiHistory: Float64Array;
  phiCount = 0;
  /** Steps since the preconditioner was refactored; total refactorizations. */
  refactors = 0;
  lastCgIters = 0;
  /** PCG iterations since creation (all solves). */
  cgItersTotal = 0;
  /**
   * A Newton iteration that follows a full Newton step accepted at α = 1 with ‖Δx‖∞ ≤ chordWithin ×
   * the step tolerance (and, after the first iteration, chordWithin times smaller than the step before
   * it) is a chord iteration, at most one per step: no assembly, direction −M⁻¹∇Φ with the reused
   * factor M (linearPath 'chord-ldlt'): on the PCG path its reused factor, on the direct path the factor
   * that Newton step was solved with (since stop 30: docs/solver.md, "Stop 30"). 0 turns them off.
   */
  chordWithin = 100;
  /**
   * Direct path: in a solve's slow tail — past the stick-prediction iterations, the last step
   * taken whole and shrinking by less than this factor on the step before — the next iteration is a
   * chord iteration with this solve's last factor (no assembly, no factorization), and so are the
   * ones after it while they stay whole and slow; any other step goes back to Newton. Landing piles
   * spend most of their iterations there, converging linearly, with friction or without (docs/solver.md, "Stop 23").
   * 0 turns it off.
   */
  slowChord = 0.5;
  /** Chord iterations since creation. */
  chordIters = 0;
  /**
   * Rest chords, across steps: when the last solve converged with its last step taken whole and every
   * particle's initial guess (and that solve's result) is within `chordWithin` step tolerances of
   * where that solve last assembled its Hessian (not asked where chord chains run: `chordChain`), the
   * step's first iteration is a chord iteration on the solve's factor (the direct path's last one, or
   * the PCG path's reused one while not stale): no
   * assembly, factorization or PCG. A chord step not taken whole or not within the tolerance is
   * followed by Newton's iterations (docs/solver.md, "Rest chords"). False turns it off.
   */
  restChord = true;
  /** Rest chord iterations since creation, those not taken included (counted in chordIters too). */
  restChordIters = 0;
  /**
   * Chord chains, on the PCG path and on the direct path of a world without contact (with contact there, see
   * contactChords): after a rest chord
   * taken whole but not within the tolerance, up to this many more chord iterations on the same factor,
   * while each is taken whole and at most half the step before it (the factor converges on its own,
   * linearly); any other outcome goes back to Newton's iterations. There a rest chord is not bound to
   * the last assembly's iterate (chainFactor), and a chord step whose whole length is within the
   * tolerance ends the solve even when the line search cut it (docs/solver.md, "Chord chains").
   * 0 turns chains off and restores the rest chords of before (bit for bit).
   */
  chordChain = 3;
  /** Chained chord iterations since creation (counted in chordIters too). */
  chainedChordIters = 0;
  /**
   * Predicted-error stops, where chains run: a chain's first chord measures its factor's contraction
   * θ (its step over the rest chord's); while that θ is at most this, later rest chords on the same
   * factor end the solve when the error they leave, predicted as θ/(1 − θ) × their step, is within the
   * tolerance (Hairer and Wanner's stopping test for simplified Newton iterations, with θ carried
   * across steps as their RADAU5 carries it). The carried estimate grows by CONTRACTION_GROWTH a solve (one a
   * step without contact) and is dropped with its factor, by a new measurement above this, or once it reaches 1
   * (docs/solver.md, "Predicted-error stops"). 0 turns them off and restores chains as before, bit for bit.
   */
  contractionMax = 0.05;
  /** Line-search trials (Φ evaluations at a trial point) since creation. */
  lineSearchTrials = 0;
  /** Solves ended by a predicted-error stop since creation. */
  predictedStops = 0;
  /**
   * The carried error factor η = θ/(1 − θ) of the last chain (0: none), valid while the factor it was
   * measured on is the current one (contractionFactor = factorCount then). State: snapshots carry it.
   */
  private contraction = 0;
  private contractionFactor = -1;
  /** Factorizations since creation (numeric ones, and factors restored from snapshots). */
  private factorCount = 0;
  /** The last solve qualifies the next step for a rest chord (its factor and xFactor are current). */
  private restReady = false;
  /**
   * The iterate at which the last Hessian was assembled (on the direct path, that of the current
   * factor), and that step's h² (a tagged number, as h2).
   */
  private readonly xFactor: Float64Array;
  private hFactor: number | null = null;

  private readonly xt: Float64Array;
  private readonly xtil: Float64Array;
  private readonly g: Float64Array;
  private readonly dir: Float64Array;
  private readonly trial: Float64Array;
  private readonly zero: Float64Array;
  private readonly nhat: Float64Array;
  private readonly cg: PcgWorkspace | null;
  private precondValid = false;
  private precondStale = true;
  private readonly h16 = new Float64Array(16);
  /** Doubles passed to and from the loop kernels below (not as arguments: V8 would box them). */
  private readonly sc = new Float64Array(4);
  /** Step constants for the kernels (HS_H2, HS_HB, HS_H: h², h b with b the uniform drag, h); set by step(). */
  private readonly hs = new Float64Array(3);
  /** Parts of Φ (phiParts): inertia and drag sums, damping sum, potential energy. */
  private readonly ph = new Float64Array(2);
  private readonly dp = new Float64Array(1);
  private readonly en = new Float64Array(2);
  /**
   * h² for ForceModel.hessianPSD's scale argument, recomputed only when h changes. The fields
   * start as null so V8 keeps them as tagged pointers to immutable number objects: assemble()
   * passes the same object every iteration. (A double computed in the caller, or read from a
   * double-typed field outside optimized code, is boxed anew for every call.)
   */
  private h2: number | null = null;
  private hPrev: number | null = null;
  /** ForceModel.maxStepTo / ContactTerm.maxStepTo result. */
  private readonly ms = new Float64Array(2);
  private dragB = 0;
  private lastLap = 0;
  /** Profile clock reads so far (see lap()). */
  clockReads = 0;
  private readonly md: Float64Array;
  private readonly mdOut: Float64Array;
  /**
   * Held islands (src/solver/islands.ts): islands of the system with no free particle (every
   * particle pinned or asleep) are left out of the gradient, the Hessian assembly, the factorization
   * and the backward solve. Off: every island is computed (tests compare the two; the results are
   * bit-identical).
   */
  skipHeldIslands = true;
  /** Particles of held islands in the last solve (0 when none were left out). */
  heldParticles = 0;
  /**
   * Island convergence: within a solve, an island of the system (src/solver/islands.ts) whose whole
   * Newton step is within the step tolerance, taken with no stick prediction, has converged and
   * stops iterating for the rest of the solve: its rows are left out of the gradient, the assembly
   * and the factorization (which keeps its last factored rows, for the next step's rest chord), and
   * its direction is zero. The other islands go on as they would alone. Direct path only (as held
   * islands); false: every island iterates until the whole solve stops (docs/solver.md, "Island
   * convergence").
   */
  islandConvergence = true;
  /**
   * Chords with contact on the direct path (since stop 30; docs/solver.md, "Stop 30"): a chord iteration
   * after a small full Newton step (chordWithin, as on the PCG path), and chains after a rest chord
   * (chordChain; the rest chord keeps its distance test there). A settling pile's second iteration
   * was an assembly and a factorization to confirm a step the first one's factor gives as well. False:
   * as before, bit for bit.
   */
  contactChords = true;
  /**
   * Cut chords (docs/solver.md, "Cut chords"; direct path): after a Newton step that Φ's Armijo test cut by this many
   * halvings or more (to a quarter or less of what its bounds allowed) while the step is still more than chordWithin tolerances, the
   * next iteration is a chord on the same factor. In a landing pile most such cuts come from friction's kink at the
   * smoothing width ε (the quadratic model is wrong there, not the matrix), and the iterate moved a fraction of the
   * step: a new assembly and factorization bought little. 0 turns them off (the solver before, bit for bit).
   */
  cutChord = 2;
  /**
   * Contact candidates whose coupling blocks are not in the pattern yet (rebuilds rate-limited) are
   * assembled with a diagonal-block majorizer, which is larger than their Hessian: a chord on such a
   * factor converges linearly, and a landing's solve could end at the iteration cap (the jelly page:
   * 5 of 600 steps, 20 iterations each). A chord on this solve's factor is corrected by PCG towards the
   * exact Hessian's direction when the rank bound of the majorizers' excess (2 per particle of theirs)
   * is at most `majorCg`, the PCG iteration cap: exactDirection. 0 turns it off (the solver before, bit for bit).
   */
  majorCg = 6;
  /** Relative residual (of ‖rhs‖) that ends exactDirection's PCG; not reached within majorCg iterations, the chord stays as it was. */
  majorCgTol = 1e-3;
  /**
   * The initial guess of an island in free flight (no fixed particle, anchor or contact candidate) is x̃ + h² a, a
   * the uniform accelerations (gravity, constant forces over mass); false: x̃.
   */
  constantGuess = true;
  /**
   * A solve whose gradient at its initial guess bounds the Newton step within the tolerance ends there, with no
   * iteration: ‖d‖₂ ≤ ‖g‖₂ / m_min, as H ≽ M under PSD projection (lumped mass). With `constantGuess`, islands
   * moved by that guess stop there one by one (docs/solver.md, "Free flight"). Not with linearized implicit Euler
   * (one Newton step from x̃ a step, however small). false: every solve iterates.
   */
  guessStop = true;
  /** exactDirection's PCG iterations, calls and calls that kept the uncorrected chord, since creation. */
  majorCgIters = 0;
  majorCgCalls = 0;
  majorCgGaveUp = 0;
  private readonly dirSave: Float64Array;
  private readonly dirAp: Float64Array;
  /** Chord iterations taken after cut steps (cutChord), since creation. */
  cutChordIters = 0;
  /** Particles of islands that converged before their solve ended, summed over solves since creation. */
  convergedIslandParticles = 0;
  /** Particles of this solve's converged islands (held code KEEP_ROWS). */
  private keptParticles = 0;
  /** The element components of the topology (a union–find forest, made once), this solve's island labels, held particles, which islands have a free particle. */
  private readonly elementComp: Int32Array;
  /** constantGuess: which islands are held up: a fixed particle, an anchor or a contact candidate (by root). */
  private readonly guessTouched: Uint8Array;
  /** label holds this solve's island labels (labelIslands), and islandCount their number. */
  private labelsFresh = false;
  private islandCount = 0;
  /** The smallest free particle mass with a lumped mass matrix (0: none or consistent): H ≽ massMin I under PSD projection. */
  private massMin: number;
  /** Particles the last constantGuessInto moved (0: none, or no guess this step). */
  private guessed = 0;
  /** keepStill's bound on an island's Σ g² ((massMin · step tolerance)²): a double in an array is not boxed in a call. */
  private readonly guessTol = new Float64Array(1);
  private readonly label: Int32Array;
  private readonly held: Uint8Array;
  private readonly islandScratch: Uint8Array;
  /** `held` when this solve holds an island, else null: what the model and the factorization are passed. */
  private heldMask: Uint8Array | null = null;
  /** This solve's island labels are set (more than one island, direct paired path). */
  private islandsLabelled = false;
  /** Per island label: its largest |Δx| component in the last direction (scratch of convergedIslands). */
  private readonly islandStep: Float64Array;

  constructor(t: Topology) {
    this.cgTol = 1e-4;
    this.h2 = NaN; // number objects from the start (see h2), so optimized code never meets null here
    this.hPrev = NaN;
    this.t = t;
    const n = t.ndof;
    this.xt = new Float64Array(n);
    this.xtil = new Float64Array(n);
    this.g = new Float64Array(n);
    this.dir = new Float64Array(n);
    this.dirSave = new Float64Array(n);
    this.dirAp = new Float64Array(n);
    this.trial = new Float64Array(n);
    this.xFactor = new Float64Array(n);
    this.zero = new Float64Array(n);
    this.md = new Float64Array(t.massMatrix === 'consistent' ? n : 0);
    this.mdOut = new Float64Array(t.massMatrix === 'consistent' ? n : 0);
    this.nhat = new Float64Array(2 * t.dampedSprings.count);
    this.cg = t.dense ? null : new PcgWorkspace(n);
    this.phiHistory = new Float64Array(65);
    this.elementComp = new Int32Array(t.n);
    elementIslands(t, this.elementComp);
    this.label = new Int32Array(t.n);
    this.held = new Uint8Array(t.n);
    this.islandScratch = new Uint8Array(t.n);
    this.guessTouched = new Uint8Array(t.n);
    this.massMin = smallestFreeMass(t);
    this.islandStep = new Float64Array(t.n);
    this.refreshParams();
  }

  /** This solver's tuning fields (a copy). */
  tuning(): NewtonTuning {
    return {
      pcgMinDofs: this.pcgMinDofs, refactorIters: this.refactorIters, cgTolerance: this.cgTolerance, cgMaxIters: this.cgMaxIters,
      profile: this.profile, chordWithin: this.chordWithin, slowChord: this.slowChord, restChord: this.restChord,
      chordChain: this.chordChain, contractionMax: this.contractionMax, skipHeldIslands: this.skipHeldIslands, islandConvergence: this.islandConvergence,
      contactChords: this.contactChords, cutChord: this.cutChord, majorCg: this.majorCg, majorCgTol: this.majorCgTol, constantGuess: this.constantGuess, guessStop: this.guessStop,
    };
  }

  /** Set the tuning fields from `t` (a replaced solver's, see NewtonTuning). */
  applyTuning(t: NewtonTuning): void {
    this.pcgMinDofs = t.pcgMinDofs;
    this.refactorIters = t.refactorIters;
    this.cgTolerance = t.cgTolerance;
    this.cgMaxIters = t.cgMaxIters;
    this.profile = t.profile;
    this.chordWithin = t.chordWithin;
    this.slowChord = t.slowChord;
    this.restChord = t.restChord;
    this.chordChain = t.chordChain;
    this.contractionMax = t.contractionMax;
    this.skipHeldIslands = t.skipHeldIslands;
    this.islandConvergence = t.islandConvergence;
    this.contactChords = t.contactChords;
    this.cutChord = t.cutChord;
    this.majorCg = t.majorCg;
    this.majorCgTol = t.majorCgTol;
    this.constantGuess = t.constantGuess;
    this.guessStop = t.guessStop;
  }

  /**
   * The islands of this solve (src/solver/islands.ts): the element components joined by the contact
   * candidates and guards, labelled when there are several (islandsLabelled) and held islands or
   * island convergence are on; those with no free particle are held (held[i] = 1, heldParticles
   * counts them). Only on the direct sparse path with node-paired factors (the PCG path reuses its
   * factor across steps whole) and when no term couples every pair of particles.
   */
  private findIslands(model: ForceModel, ws: Workspace): void {
    this.heldParticles = 0;
    this.heldMask = null;
    this.islandsLabelled = false;
    this.keptParticles = 0;
    const t = this.t;
    if (!(this.skipHeldIslands || this.islandConvergence) || model.pairsEverywhere || !ws.solver || ws.lu || t.ndof >= this.pcgMinDofs || !ws.solver.ldlt.paired) return;
    // held islands need a particle pinned or asleep (the slot lists follow Topology.fixed)
    const holds = this.skipHeldIslands && t.fixedDiagSlots.length > 0;
    if (!holds && !this.islandConvergence) return;
    if (this.labelIslands(model.contact) <= 1) return;
    this.islandsLabelled = true;
    // islandScratch: which islands have a free particle (freeIslands), for held and converged islands both
    if (holds) this.heldParticles = markHeldIslands(t.n, this.label, t.fixed, this.held, this.islandScratch);
    else {
      this.held.fill(0);
      freeIslands(t.n, this.label, t.fixed, this.islandScratch);
    }
    if (this.heldParticles > 0) this.heldMask = this.held;
  }

  /**
   * label ← this solve's islands (elements joined by its contact candidates; union–find roots), made once a solve for
   * the constant guess and findIslands both; returns their number.
   */
  private labelIslands(contact: ContactTerm | undefined | null): number {
    if (!this.labelsFresh) {
      this.label.set(this.elementComp);
      if (contact) contact.joinIslands(this.label);
      this.islandCount = flattenIslands(this.t.n, this.label);
      this.labelsFresh = true;
    }
    return this.islandCount;
  }

  /**
   * Islands whose gradient at the initial guess bounds their Newton step within the tolerance (‖g_I‖₂² ≤ guessTol[0])
   * stop before any assembly, as converged islands do (KEEP_ROWS). True when no free island is left.
   */
  private keepStill(ws: Workspace, g: Float64Array): boolean {
    const t = this.t;
    const kept = keepStillIslands(t.n, this.label, this.islandScratch, this.held, g, this.guessTol, this.islandStep, this.sc);
    const left = this.sc[0]!;
    if (kept === 0) return false;
    this.keptParticles += kept;
    this.convergedIslandParticles += kept;
    this.heldMask = this.held;
    ws.solver!.ldlt.isolateKeptRows(this.held, this.label);
    return left === 0;
  }

  /**
   * x += h² a on the free particles of islands (elements joined by contact candidates) in free flight: no fixed
   * particle, anchor or contact candidate holds them (NewtonSolver.constantGuess). a: the uniform constant
   * accelerations (gravity, and constant forces over the particle's mass). A falling body's Newton step from x̃ is
   * that displacement.
   */
  private constantGuessInto(model: ForceModel, contact: ContactTerm | undefined | null, x: Float64Array): void {
    const t = this.t, lab = this.label, touched = this.guessTouched;
    this.labelIslands(contact);
    touched.fill(0);
    // held up: a fixed particle (a clamp, or a spring to one), an anchor, a contact candidate
    markFixedIslands(t, lab, touched);
    model.markAnchored(lab, touched);
    if (contact) contact.markIslands(lab, touched);
    this.guessed = addConstantAccelerations(t, this.hs, lab, touched, x);
  }

  /**
   * Island convergence (islandConvergence): after an accepted iteration whose direction had no stick
   * prediction, the islands with a free particle whose whole step was within stepTol stop iterating
   * (held code KEEP_ROWS), and their factor rows are cut from other islands' columns.
   */
  private convergeIslands(ws: Workspace, dir: Float64Array, stepTol: number): void {
    const t = this.t;
    const kept = keepConvergedIslands(t.n, this.label, this.islandScratch, this.held, dir, stepTol, this.islandStep);
    if (kept === 0) return;
    this.keptParticles += kept;
    this.convergedIslandParticles += kept;
    this.heldMask = this.held;
    ws.solver!.ldlt.isolateKeptRows(this.held, this.label);
  }

  /**
   * The topology's numeric data changed in place (src/solver/topology.ts refreshTopology: masses,
   * fixed DOFs, element parameters, uniform forces): take the drag coefficient afresh and refactor
   * the PCG preconditioner at the next solve. Nothing symbolic is redone.
   */
  refreshParams(): void {
    const t = this.t;
    let b = 0;
    for (let u = 0; u < t.uniformCount; u++) if (t.uniformKind[u] === UNIFORM_DRAG) b += t.uniform[3 * u + 2]!;
    this.dragB = b;
    this.massMin = smallestFreeMass(t);
    this.precondStale = true;
    this.restReady = false;
    this.contraction = 0;
  }

  /**
   * The parts of Φ(x) into scratch: ph = (Σ m‖x − x̃‖² or dᵀMd, Σ‖x − xᵗ‖²), dp[0] = damping
   * dissipation sum, en[0] = V(x). No double is read or computed here: this driver runs a few
   * times per step and may stay in V8's baseline tier, where every double is boxed; step()
   * combines the parts itself, in optimized code (as phiOf does for phi()).
   */
  private phiParts(model: ForceModel, x: Float64Array): void {
    const t = this.t;
    const ph = this.ph, dp = this.dp;
    inertiaSums(t.ndof, t.fixed, t.mass, x, this.xt, this.xtil, ph);
    dp[0] = 0;
    const ds = t.dampedSprings;
    if (ds.count > 0) dampingDissipation(ds.count, ds.nodes, ds.params, this.nhat, x, this.xt, dp);
    // issue 4: consistent triangle mass replaces ph[0]
    if (t.massMatrix === 'consistent') consistentInertia(t, x, this.xtil, this.md, this.mdOut, null, ph);
    // a number-returning call: measured not to allocate here (docs/solver.md, part 6), unlike the
    // contact term's energy inside ForceModel.energyTo, which keeps its scratch form
    this.en[0] = model.energy(x);
  }

  /** Φ from phiParts (same operations in the same order as ½ inertia + h² V + ½ h (b drag + damp)). */
  private phiOf(h: number): number {
    const ph = this.ph;
    return 0.5 * ph[0]! + h * h * this.en[0]! + 0.5 * h * (this.dragB * ph[1]! + this.dp[0]!);
  }

  /** Φ(x) for the current step (after step() began it; tests). */
  phi(model: ForceModel, x: Float64Array, h: number): number {
    this.phiParts(model, x);
    return this.phiOf(h);
  }

  /** ∇Φ(x) into g, zero on fixed dofs. */
  private gradient(model: ForceModel, x: Float64Array, g: Float64Array): void {
    const t = this.t;
    const n = t.ndof;
    const xt = this.xt, xtil = this.xtil;
    model.gradient(x, this.zero, g, this.heldMask);
    inertiaGradient(n, t.mass, x, xt, xtil, this.hs, g);
    if (t.massMatrix === 'consistent') consistentInertia(t, x, xtil, this.md, this.mdOut, g, this.sc); // replaces the lumped M (x − x̃) above
    const ds = t.dampedSprings;
    if (ds.count > 0) dampingGradient(ds.count, ds.nodes, ds.params, this.nhat, x, xt, this.hs, g);
    zeroFixed(t, g);
    if (this.keptParticles > 0) zeroKept(t.n, this.held, g);
  }

  /** ∇²Φ (projected when settings.projection = 'psd') into ws.values, fixed rows identity. */
  private assemble(model: ForceModel, x: Float64Array, projection: 'psd' | 'none', ws: Workspace): void {
    const t = this.t;
    const values = ws.values;
    values.fill(0);
    const h2 = this.h2; // a number object made once per time-step size (see h2 above): passing it boxes nothing
    if (projection === 'psd') model.hessianPSD(x, h2!, values, this.heldMask);
    else model.hessian(x, this.zero, h2!, 0, values);
    addToDiagonal(t.ndof, t.diag, this.hs, values); // h b (uniform drag)
    addMassMatrix(t, values); // lumped diag(mass), or the consistent triangle mass (src/solver/mass.ts)
    const ds = t.dampedSprings;
    if (ds.count > 0) dampingHessian(ds, this.nhat, this.h16, this.hs, values);
    applyFixedToMatrix(t, values);
  }

  /**
   * d ← PCG on the exact Hessian H = A − C, with A the assembled matrix (majorized contact candidates)
   * and C their excess over the exact local Hessians (ContactTerm.majorCorrection), preconditioned by
   * this factor of A and started at its solution d = A⁻¹ rhs. A ≽ H (Cauchy–Schwarz), so A is an SPD
   * preconditioner whose error has the rank of the candidates' terms. With A as the preconditioner no
   * product with A is needed: r₀ = rhs − H d = C d, and A p follows p's own recurrence (A z = r), so an
   * iteration is one solve with the factor and a product with C. Within majorCg iterations the residual
   * gets within majorCgTol of ‖rhs‖, or d stays A⁻¹ rhs (a partial correction mixes the two models).
   * Rows of fixed particles and of held islands stay zero.
   */
  private exactDirection(ws: Workspace, contact: ContactTerm, rhs: Float64Array, d: Float64Array, go: boolean): void {
    if (!go) return;
    const t = this.t, n = t.ndof, cg = this.cg!, sc = cg.sc;
    const ldlt = ws.solver!.ldlt;
    const { r, z, p, q } = cg;
    const ap = this.dirAp, d0 = this.dirSave;
    const mask = this.heldMask;
    // r = C d (rhs − A d is round-off)
    r.fill(0);
    contact.majorCorrection(d, r);
    negateMasked(t, mask, r);
    dotTo(rhs, rhs, n, sc);
    const target = this.majorCgTol * Math.sqrt(sc[1]!);
    dotTo(r, r, n, sc);
    if (!(Math.sqrt(sc[1]!) > target)) return;
    this.majorCgCalls++;
    d0.set(d);
    ldlt.solve(r, z);
    maskRows(t, mask, z);
    p.set(z);
    ap.set(r);
    dotTo(r, z, n, sc);
    let rz = sc[1]!;
    let met = false;
    for (let it = 0; it < this.majorCg; it++) {
      // q = H p = A p − C p
      q.set(ap);
      contact.majorCorrection(p, q);
      maskRows(t, mask, q);
      dotTo(p, q, n, sc);
      const pq = sc[1]!;
      if (!(pq > 0) || !(rz > 0)) break;
      sc[0] = rz / pq;
      stepXR(sc, p, q, d, r, n);
      this.majorCgIters++;
      dotTo(r, r, n, sc);
      // (a NaN residual is not within the target: the chord keeps its own direction)
      if (Math.sqrt(sc[1]!) <= target) {
        met = true;
        break;
      }
      ldlt.solve(r, z);
      maskRows(t, mask, z);
      dotTo(r, z, n, sc);
      sc[0] = sc[1]! / rz;
      rz = sc[1]!;
      nextConjugate(n, sc, z, r, p, ap);
    }
    if (!met) {
      d.set(d0);
      this.majorCgGaveUp++;
    }
  }

  /** Solve ws.values · out = rhs; returns false if the system could not be solved. */
  private solve(ws: Workspace, rhs: Float64Array, out: Float64Array): void {
    const stats = ws.stats;
    const prof = this.profile;
    if (ws.lu || !ws.solver || this.t.ndof < this.pcgMinDofs) {
      if (ws.solver && !ws.lu) {
        this.factorRegularized(ws);
        if (prof) this.lap(LAP_FACTOR);
        ws.solver.ldlt.solve(rhs, out);
        stats.linearPath = 'ldlt';
      } else {
        ws.solve(rhs, out);
      }
      if (prof) this.lap(LAP_SOLVE);
      this.lastCgIters = 0;
      return;
    }
    // large sparse system: PCG with a reused LDLᵀ preconditioner
    const ldlt = ws.solver.ldlt;
    const cg = this.cg!;
    if (this.precondStale || !this.precondValid) {
      this.precondValid = false;
      this.precondStale = false;
      this.refactors++;
      this.factorRegularized(ws);
      this.precondValid = true;
      if (prof) this.lap(LAP_FACTOR);
      ldlt.solve(rhs, out);
      if (prof) this.lap(LAP_SOLVE);
      stats.linearPath = 'ldlt';
      this.lastCgIters = 0;
      return;
    }
    out.fill(0);
    pcg(ws.solver.pattern, ws.values, rhs, out, ldlt, cg, this.cgTol!, this.cgMaxIters);
    if (prof) this.lap(LAP_SOLVE);
    this.lastCgIters = cg.iterations;
    this.cgItersTotal += cg.iterations;
    stats.linearPath = 'pcg-ldlt';
    if (cg.iterations > this.refactorIters) this.precondStale = true;
    if (!cg.converged || cg.breakdown) {
      // the old factor is too far off: refactor now and solve directly
      this.precondStale = true;
      this.solve(ws, rhs, out);
    }
  }

  /** Whether the next direction may be a chord direction: the PCG path with a valid, fresh-enough reused factor. */
  private chordReady(ws: Workspace): boolean {
    return this.precondValid && !this.precondStale && ws.solver !== null && !ws.lu && this.t.ndof >= this.pcgMinDofs && ws.solver.ldlt.factored;
  }

  /** The direct sparse path (below pcgMinDofs) holds a factor: the last one its solves made. */
  private directFactored(ws: Workspace): boolean {
    return ws.solver !== null && !ws.lu && this.t.ndof < this.pcgMinDofs && ws.solver.ldlt.factored;
  }

  /** A factor a rest chord may use: the direct path's last one (of the last assembled Hessian), or the PCG path's reused one while not stale. */
  private restFactor(ws: Workspace): boolean {
    return this.directFactored(ws) || this.chordReady(ws);
  }

  /**
   * Chord chains may run on this factor (chordChain): the PCG path's reused one while not stale (made
   * wherever PCG last needed one, so the distance to the last assembly says nothing of it; PCG's
   * iteration count does), or the direct path's last one in a world without contact, whose Hessian
   * changes only with the elastic terms' strain. With contact, barrier Hessians change by orders of
   * magnitude within micrometres, and rest chords there keep the distance test (docs/solver.md,
   * "Chord chains": waiving it too made the jelly page's landing second slower).
   */
  private chainFactor(ws: Workspace, contact: ContactTerm | null): boolean {
    // both calls on every step: a call first reached late in a game deoptimizes the driver (the 1k bench's
    // direct path without contact, after a warm-up whose contact-free jelly is on the PCG path: 17 kB a step)
    const pcg = this.chordReady(ws);
    const direct = this.directFactored(ws);
    return this.chainPath(ws, contact) && (pcg || direct);
  }

  /**
   * Chords with contact on the direct sparse path (contactChords): chord iterations after a small full Newton
   * step on the factor it was solved with, and chains after a rest chord. There the rest chord keeps its
   * distance test and nothing else of chainFactor applies: a chained chord ends the solve by the chain's own
   * test (its step and θ/(1 − θ) × its step within the tolerance) and goes back to Newton's iterations when
   * cut or not halving.
   */
  private contactChordPath(ws: Workspace, contact: ContactTerm | null): boolean {
    const direct = ws.solver !== null && !ws.lu && this.t.ndof < this.pcgMinDofs;
    return this.contactChords && contact !== null && this.chordWithin > 0 && direct;
  }

  /**
   * The path where chains run (chainFactor: this path holding its factor), whether or not it holds one yet: the PCG
   * path, or the direct sparse path of a world without contact. Decisions that need no factor (roundOff) are taken
   * on the path alone, so a world's first solve takes them as its later ones do.
   */
  private chainPath(ws: Workspace, contact: ContactTerm | null): boolean {
    const sparse = ws.solver !== null && !ws.lu;
    const pcgPath = sparse && this.t.ndof >= this.pcgMinDofs;
    return this.chordChain > 0 && this.chordWithin > 0 && (pcgPath || (contact === null && sparse));
  }

  /** Chord direction: out = M⁻¹ rhs with the reused factor M (no assembly, no PCG). */
  private chordSolve(ws: Workspace, rhs: Float64Array, out: Float64Array): void {
    ws.solver!.ldlt.solve(rhs, out);
    if (this.profile) this.lap(LAP_SOLVE);
    this.chordIters++;
    this.lastCgIters = 0;
    ws.stats.linearPath = 'chord-ldlt';
  }

  /**
   * The factor a step carries to the next (snapshots: it changes the next solves), or null: the PCG
   * path's reused factor, or the direct path's last factor while the next step may take a rest chord;
   * `at` is the iterate the last Hessian was assembled at while it may (else empty); `contraction` the
   * carried error factor measured on it (0: none; contractionMax). refreshPending: as refreshParams at
   * the next solve will leave it.
   */
  reusedFactor(ws: Workspace, refreshPending = false): CarriedFactor | null {
    const solver = ws.solver;
    if (!solver || ws.lu || !solver.ldlt.factored) return null;
    // refreshPending: the next solve begins with refreshParams (an anchor set or cleared since the last
    // solve: src/systems/pipeline.ts, solveStage), so the factor goes as that refresh will leave it
    const rest = this.restReady && !refreshPending;
    const pcgPath = this.t.ndof >= this.pcgMinDofs;
    if (pcgPath ? !this.precondValid : !rest) return null;
    const ldlt = solver.ldlt;
    return {
      Lx: ldlt.Lx.slice(0, ldlt.nnzL), D: ldlt.D.slice(), stale: pcgPath && (this.precondStale || refreshPending),
      at: rest ? this.xFactor.slice() : new Float64Array(0),
      contraction: this.contractionFactor === this.factorCount && !refreshPending ? this.contraction : 0,
    };
  }

  /** Forget the carried factor (snapshots of a world that had none): the next solve factors anew. */
  dropReusedFactor(): void {
    this.precondValid = false;
    this.precondStale = true;
    this.restReady = false;
    this.contraction = 0;
  }

  /** Put a carried factor back (snapshots; h: the world's step); false when it does not fit this topology's factor. */
  restoreFactor(ws: Workspace, f: CarriedFactor, h: number): boolean {
    this.dropReusedFactor();
    if (f.at.length !== 0 && f.at.length !== this.t.ndof) return false;
    if (!ws.solver || !ws.solver.ldlt.loadFactor(f.Lx, f.D)) return false;
    this.factorCount++;
    this.contraction = f.contraction;
    this.contractionFactor = this.factorCount;
    if (this.t.ndof >= this.pcgMinDofs) {
      this.precondValid = true;
      this.precondStale = f.stale;
    }
    if (f.at.length !== 0) {
      this.xFactor.set(f.at);
      this.hFactor = h * h; // as step() computes h2
      this.restReady = true;
    }
    return true;
  }

  /**
   * LDLᵀ of ws.values. The game-mode system M + h²∇²Φ is positive definite by construction (PSD-
   * projected Hessians, positive masses), so a failed pivot is round-off on a badly scaled system,
   * not indefiniteness: retry with the diagonal raised by a relative REGULARIZATION[k] (a Levenberg–
   * Marquardt shift: the direction stays a descent direction, the line search does the rest). No
   * dense fallback: a dense LU of a game's system takes seconds. Throws (the pipeline's fail-safe
   * takes the step) when the matrix is not finite or stays singular.
   */
  private factorRegularized(ws: Workspace): void {
    const ldlt = ws.solver!.ldlt;
    const held = this.heldMask;
    this.factorCount++;
    if (ldlt.factor(ws.values, held)) return;
    const diag = this.t.diag, values = ws.values;
    for (let k = 0; k < REGULARIZATION.length; k++) {
      if (!scaleDiagonal(diag, values, REGULARIZATION[k]!)) break; // not finite: no shift helps
      if (ldlt.factor(values, held)) return;
    }
    const dof = ldlt.failedAt >= 0 && ldlt.failedAt < ldlt.perm.length ? ldlt.perm[ldlt.failedAt]! : -1;
    throw Object.assign(
      new Error(`game-mode Newton: the system matrix is singular or not finite (LDLᵀ pivot ${ldlt.failedAt}${dof >= 0 ? `, particle ${dof >> 1}` : ''})`),
      { particle: dof >= 0 ? dof >> 1 : -1 },
    );
  }

  /**
   * Profile timer: adds the time since the previous lap to the given phase. One clock read per
   * phase boundary (each read allocates a 16-byte heap number in Node 20's performance.now();
   * `clockReads` counts them so the bench can calibrate them out like its own sampler).
   */
  private lap(phase: number): void {
    const now = performance.now();
    const dt = now - this.lastLap;
    this.lastLap = now;
    this.clockReads++;
    if (phase === LAP_ASSEMBLY) this.timing.msAssembly += dt;
    else if (phase === LAP_FACTOR) this.timing.msFactor += dt;
    else if (phase === LAP_SOLVE) this.timing.msSolve += dt;
  }

  /**
   * One backward-Euler step of size h: x, v updated in place.
   * maxIters overrides settings.maxIters (1 for linearized implicit Euler).
   */
  step(model: ForceModel, x: Float64Array, v: Float64Array, h: number, settings: NewtonSettings, maxIters: number, ws: Workspace): void {
    const t = this.t;
    if (t.vortices.count > 0) {
      throw new InputError(
        'game-mode implicit Euler: vortex forces have no potential or dissipation function; ' +
          "use FOSSSim semantics (WorldOptions.newton = 'fosssim', or no maxiters/tolerance/linesearch/projection attributes in the scene)",
      );
    }
    const n = t.ndof;
    const { xt, xtil, g, dir, trial, sc } = this;
    const stats = ws.stats;
    const prof = this.profile;
    if (prof) {
      this.timing.msAssembly = 0;
      this.timing.msFactor = 0;
      this.timing.msSolve = 0;
      this.lap(LAP_NONE);
    }
    // All loops over the dofs are module functions of typed arrays (below), doubles come back
    // through sc: this method is only the driver, so a deopt in it never runs an O(n) loop in
    // the interpreter (that cost MBs of heap numbers per deopt at 10k).
    if (h !== this.hPrev) {
      this.hPrev = h;
      this.h2 = h * h;
    }
    const hs = this.hs;
    hs[HS_H2] = h * h;
    hs[HS_HB] = h * this.dragB;
    hs[HS_H] = h;
    beginStep(n, t.fixed, x, v, h, xt, xtil, sc);
    const minX = sc[0]!, maxX = sc[1]!, minY = sc[2]!, maxY = sc[3]!;
    const size = maxX >= minX ? Math.sqrt((maxX - minX) ** 2 + (maxY - minY) ** 2) : 0;
    const stepTol = settings.tolerance * (size > 0 ? size : 1);
    const ds = t.dampedSprings;
    if (ds.count > 0) springDirections(ds.count, ds.nodes, x, this.nhat);
    // initial guess x̃ (fixed particles stay there)
    x.set(xtil);
    const contact = model.contact;
    const warm = contact ? contact.warmStart : null;
    this.guessed = 0;
    this.labelsFresh = false;
    if (warm) {
      // contact refinement after a solve that stopped on its trust region: continue from its result
      // (intersection-free: every iterate was), with the candidates searched around it
      x.set(warm);
      if (maxIters > 1 && contact!.maxIters > maxIters) maxIters = contact!.maxIters;
    } else {
      // Start no further along xᵗ → x̃ than (a) continuous collision detection allows (contact,
      // src/collision) and (b) keeps every uninverted Neo-Hookean triangle uninverted
      // (src/systems/inversion.ts): the line search keeps them so from there on, and a ballistic
      // guess that inverted a soft triangle let the solve release its extension energy (issue 16).
      if (this.constantGuess && maxIters > 1 && t.uniformCount > 0 && !model.pairsEverywhere) this.constantGuessInto(model, contact, x);
      subtractInto(n, x, xt, dir);
      this.ms[0] = 1;
      if (contact && contact.count > 0) {
        contact.maxStepTo(xt, dir, this.ms);
        if (maxIters > 1 && contact.maxIters > maxIters) maxIters = contact.maxIters;
      }
      model.inversionMaxStepMinTo(xt, dir, this.ms);
      if (this.ms[0]! < 1) startAlong(n, xt, this.ms, dir, x);
    }
    // the step's Newton budget (settings.maxStepIters; the pipeline zeroes stats.newtonIters per step)
    const cap = settings.maxStepIters, used = stats.newtonIters;
    if (cap > 0 && maxIters > cap - used) maxIters = cap - used > 0 ? cap - used : 0;
    // Φ combined here (as in phiOf), not returned from a call: a returned double is boxed
    const ph = this.ph, en = this.en, dp = this.dp, dragB = this.dragB;
    // far contact candidates are skipped at x and its trials (bit-identical; src/collision/implicit.ts)
    if (contact) contact.boundsBegin(x, trial, sc); // sc[0] is each trial's α (trialPoint)
    this.phiParts(model, x);
    let phi = 0.5 * ph[0]! + h * h * en[0]! + 0.5 * h * (dragB * ph[1]! + dp[0]!);
    this.phiHistory[0] = phi;
    this.phiCount = 1;
    let iters = 0;
    let converged = false;
    // chord iterations (PCG path): the last iteration was a full Newton step, small and taken whole
    const chordTol = this.chordWithin * stepTol;
    let chordNext = false;
    let chordUsed = false;
    let prevStep = 0;
    // friction stick prediction (with the line search only; src/collision/implicit.ts, stickMark)
    const stick = settings.lineSearch ? contact : null;
    if (stick) stick.stickKeep(false);
    // this solve's islands: held ones (no free particle) have zero rows of g and of every direction, so are
    // neither assembled nor factored; the others may converge before the solve ends (islandConvergence)
    this.findIslands(model, ws);
    // The stop at the guess (guessStop: in the loop, for the whole solve) island by island, where the constant guess
    // moved some island (H has no block between islands): those within the bound stay at the guess, before any
    // assembly, as converged islands do; a rest chord's distance test then leaves them out.
    // (not with one iteration a step, linearized implicit Euler: that is one Newton step from x̃, whatever its size; nor
    // on the dense LU path, whose system need not be symmetric)
    const mTol = settings.projection === 'psd' && this.guessStop && maxIters > 1 && !ws.lu ? this.massMin * stepTol : 0;
    this.guessTol[0] = mTol * mTol;
    const preStill = mTol > 0 && this.islandsLabelled && this.islandConvergence && this.guessed > 0;
    if (preStill) this.gradient(model, x, g);
    const keptBefore = this.keptParticles;
    const stillAll = preStill && this.keepStill(ws, g);
    // the loop's first gradient is this one when no island was kept (kept islands' rows leave it)
    let reuseGradient = preStill && this.keptParticles === keptBefore;
    let slowNext = false;
    let cutNext = false;
    // a rest chord (restChord): the last solve converged with its last step whole, near where its factor
    // was assembled; that factor is still this pattern's, assembled with this h, and no particle's guess is
    // more than chordWithin tolerances from where it was assembled. Where chord chains run (chordChain,
    // chainFactor) that distance is not asked: the chain's contraction checks the factor instead
    // (each comparison made on every step: one first reached late in a game would deoptimize this method)
    const chains = this.chainFactor(ws, contact);
    const chainPath = this.chainPath(ws, contact);
    maxAbsDiffUnkept(t.n, this.held, this.keptParticles > 0, x, this.xFactor, sc);
    const near = sc[0]! <= chordTol;
    const nearFactor = near || chains;
    // chains after a rest chord, which with contact on the direct path keeps its distance test (nearFactor)
    const contactChords = this.contactChordPath(ws, contact);
    const chainsAfterRest = chains || contactChords;
    // chord chains: the chord iterations following a rest chord (chordChain)
    let chainNext = false;
    let chained = 0;
    let newtonCount = 0;
    const sameH = this.hFactor === this.h2;
    let restNext = this.restChord && this.restReady && sameH && maxIters > 1 && this.restFactor(ws) && nearFactor;
    this.restReady = false;
    let lastFull = false;
    // chords on an earlier factor count against maxIters only under a step budget (maxStepIters)
    const freeChord = chains && cap === 0;
    let freeChords = 0;
    // the carried error factor η = θ/(1 − θ) for this solve's rest chord (0: none), then grown for the next
    const eta = this.contractionMax > 0 && this.contractionFactor === this.factorCount ? this.contraction : 0;
    const grown = eta * CONTRACTION_GROWTH;
    this.contraction = grown < 1 ? grown : 0;
    while (iters - freeChords < maxIters) {
      if (!reuseGradient) this.gradient(model, x, g);
      reuseGradient = false;
      sumSquares(n, g, sc);
      // ‖d‖∞ ≤ ‖d‖₂ ≤ ‖g‖₂ / λmin(H) and H ≽ M ≽ massMin·I with PSD-projected terms: no Newton step from the guess can
      // leave the tolerance (guessTol[0] = (massMin · stepTol)², 0 without guessStop). A solve ended at its guess leaves
      // the factor as it was: a rest chord may follow where it is still near
      const atGuess = iters === 0 && sc[0]! <= this.guessTol[0]!;
      if (sc[0] === 0 || atGuess) {
        converged = true;
        lastFull = lastFull || atGuess;
        break;
      }
      if (stillAll) {
        converged = true;
        break;
      }
      // pairs predicted to stick whose slip is still outside ε: this direction is the predicted model's
      let predicted = stick ? stick.stickRefresh(x) : 0;
      // The direct path factors on every iteration but chords (a slow tail, a small full step: chordNext),
      // so its factor is this solve's, or a rest chord's from the last solve. Read on every
      // iteration, not only in a slow tail: a first read late in a game deoptimized this method (no
      // type feedback; the allocation gate's pile, step 9).
      const directReady = this.directFactored(ws);
      const pcgReady = this.chordReady(ws);
      let chord: boolean = predicted === 0 && ((chordNext && (pcgReady || (contactChords && directReady))) || ((slowNext || cutNext) && directReady) || restNext || chainNext);
      const cutIter: boolean = chord && cutNext && !slowNext;
      const restIter: boolean = chord && restNext;
      const chainIter: boolean = chord && chainNext;
      restNext = false;
      chainNext = false;
      // The direction. When the predicted model gives no descent direction, Newton's own instead:
      // a second pass through the same calls, not a branch of its own (a branch first taken late in
      // a game deoptimized this method: the allocation gate's pile, step 19).
      for (;;) {
        if (!chord) {
          this.assemble(model, x, settings.projection, ws);
          // a converged island's factor rows stay those assembled at its own earlier iterate
          if (this.keptParticles > 0) copyUnkept(t.n, this.held, x, this.xFactor);
          else this.xFactor.set(x);
          this.hFactor = this.h2;
          if (prof) this.lap(LAP_ASSEMBLY);
        }
        negateInto(n, g, trial);
        if (predicted > 0) {
          stick!.stickAddRhs(x, this.h2!, trial);
          zeroFixed(t, trial);
          if (this.keptParticles > 0) zeroKept(t.n, this.held, trial);
        }
        if (chord) this.chordSolve(ws, trial, dir);
        else this.solve(ws, trial, dir);
        // a chord on this solve's factor (ws.values is its matrix, from this solve's last assembly) is corrected to
        // the exact Hessian where majorized candidates made that matrix larger (exactDirection). Every operand is
        // read on every iteration and the call made on each (it returns at once unless `go`): a read or call first
        // made late in a game deoptimizes this method (the jelly page after world.warmUp, test/late-branches).
        const ownFactor: boolean = chord && !restIter && !chainIter;
        if (contact !== null) {
          const majorized = contact.majorAssembled, rank = contact.majorRank, cap = this.majorCg, cgIters = this.lastCgIters;
          const some = majorized > 0, fits = rank <= cap, noCg = cgIters === 0, direct = ws.solver !== null && !ws.lu;
          this.exactDirection(ws, contact, trial, dir, ownFactor && some && fits && noCg && direct);
        }
        // zero already but for a factor's rows from an earlier step (a rest chord) coupling islands
        if (this.keptParticles > 0) zeroKept(t.n, this.held, dir);
        slopeAndMax(n, g, dir, sc);
        const descent = sc[0]! < 0;
        const retry = predicted > 0 && !descent;
        if (stick) stick.stickKeep(!retry);
        if (!retry) break;
        predicted = 0;
        chord = false;
      }
      iters++;
      const slope = sc[0]!, dmax = sc[1]!;
      // a rest chord taken far from its factor's iterate (chains waived the distance) whose step is longer
      // than chordWithin tolerances is not taken (still counted in newtonIters, chordIters and restChordIters):
      // a long step on a factor from elsewhere decreased Φ as its model predicted and still left Newton
      // further from the solution (a swinging rope of springs and hinges: 0 → 12 unconverged steps in 600)
      if (restIter && !near && dmax > chordTol) {
        freeChords += freeChord ? 1 : 0;
        this.restChordIters++;
        continue;
      }
      if (contact) contact.boundsDirection(dir);
      if (stick && iters < STICK_PREDICTION_ITERS) stick.stickMark(x, dir);
      if (settings.lineSearch && (!(slope < 0) || !Number.isFinite(slope))) break; // not a descent direction (projection 'none' on an indefinite system)
      // line search. Every arithmetic operation of a trial is done on every trial (the next α,
      // the next k), so the rejection path has none of its own: a first halving late in a run
      // then finds type feedback and does not deoptimize this method.
      let alpha = 1;
      if (settings.lineSearch) {
        model.maxStepTo(x, dir, this.ms);
        alpha = Math.min(1, this.ms[0]!);
      }
      let accepted = false;
      let phiTrial = phi;
      let k = 0;
      // Where chains run, a step of Φ's own model whose whole length is within the tolerance ends the solve
      // whatever the line search finds (within, below). Near the minimum Φ's decrease along it is round-off, and
      // halving it only looks for a point rounding cannot tell from x (12–23 Φ evaluations on a settled 1k
      // jelly's rest chords, its p95 steps): such a step is tried whole only, and if rejected the iterate stays.
      const roundOff = chainPath && predicted === 0 && dmax <= stepTol;
      for (;;) {
        const nextAlpha = alpha * 0.5;
        const kNext = k + 1;
        const more = k < MAX_HALVINGS && !roundOff;
        sc[0] = alpha;
        trialPoint(n, x, sc, dir, trial);
        // without line search the full step is taken as it is (no Armijo test)
        this.phiParts(model, trial);
        this.lineSearchTrials++;
        phiTrial = 0.5 * ph[0]! + h * h * en[0]! + 0.5 * h * (dragB * ph[1]! + dp[0]!);
        if (!settings.lineSearch || phiTrial <= phi + ARMIJO_C * alpha * slope) {
          accepted = true;
          break;
        }
        if (!more) break;
        alpha = nextAlpha;
        k = kNext;
      }
      if (prof) this.lap(LAP_ASSEMBLY);
      // The step was taken whole. One comparison, made on every iteration: a comparison reached
      // only with contact predictions had seen α = 1 alone when the method was optimized, and the
      // first fractional α there deoptimized it in a game's first contact steps (pile bench, step 8).
      const full = alpha === 1;
      // no decrease along the predicted model's direction: Newton's own next
      const dropPredictions = !accepted && predicted > 0;
      if (stick) stick.stickKeep(!dropPredictions);
      if (dropPredictions) continue;
      if (!accepted) {
        // no decrease representable: the iterate is as good as rounding allows (a rejected roundOff step counts
        // as whole for the next step's rest chord, as a cut one within the tolerance does: within, below)
        converged = dmax <= stepTol;
        lastFull = roundOff || lastFull;
        break;
      }
      x.set(trial);
      phi = phiTrial;
      if (contact) {
        sc[0] = alpha;
        contact.boundsAccept(sc);
      }
      // The predictions end after a full step of the predicted model, which brought every predicted
      // pair to that model's solution: a pair still outside ε there slips (its load exceeds the stick
      // model's hold), so the next direction is Φ's own (kept till the slip is within ε, pile20 took 1.4
      // times the iterations in its landing second, and corotational drops ended with particles
      // inside). They also end after a small step: only a step of Φ's own model ends the solve.
      const small = alpha * dmax <= stepTol;
      // a chord on a factor from an earlier step (a rest chord or its chain)
      const earlierFactor: boolean = restIter || chainIter;
      // Where chains run (chainFactor) a chord step whose whole length was within the tolerance ends the
      // solve even when the line search cut it: at the minimum Φ's decrease is round-off (without this, a
      // settled 10k jelly alternated chord, Newton, Newton)
      const within = chains && dmax <= stepTol;
      if (stick) stick.stickKeep(!(predicted > 0 && (full || small)));
      if (this.phiCount < this.phiHistory.length) this.phiHistory[this.phiCount++] = phi;
      lastFull = full || within;
      if (this.islandConvergence && this.islandsLabelled && predicted === 0 && !small) this.convergeIslands(ws, dir, stepTol);
      this.restChordIters += restIter ? 1 : 0;
      this.cutChordIters += cutIter ? 1 : 0;
      this.chainedChordIters += chainIter ? 1 : 0;
      // a chained chord converges linearly, at the rate θ = its step ÷ the step before: the error left is
      // about θ/(1 − θ) × its step, so it ends the solve only when that is within the tolerance. The chain's
      // arithmetic is done on every iteration: the first chain of a world with contact comes late in a game
      // (a landing pile's settling) and its first operation without type feedback deoptimized this method
      const chainError = dmax * dmax <= stepTol * (prevStep - dmax);
      const chainClose = !chainIter || (dmax < prevStep && chainError);
      // the chain's first chord measures its factor's contraction θ = its step ÷ the rest chord's; a θ above
      // contractionMax (or a cut step) drops the carried estimate, and so does one of 1/2 or more whatever
      // contractionMax is (η = θ/(1 − θ) ≥ 1 would stop nothing; snapshots carry η in [0, 1))
      const measured = chainIter && chained === 1;
      const theta = prevStep > 0 ? dmax / prevStep : 1;
      const kept = full && theta <= this.contractionMax && theta < 0.5;
      const etaMeasured = theta / (1 - theta);
      this.contraction = measured ? (kept ? etaMeasured : 0) : this.contraction;
      this.contractionFactor = measured ? this.factorCount : this.contractionFactor;
      // a rest chord taken whole ends the solve when the error it leaves, η × its step, is within the tolerance
      const predictedClose = chains && restIter && full && eta > 0 && dmax * eta <= stepTol;
      const predictedStop = predictedClose && predicted === 0 && !small;
      this.predictedStops += predictedStop ? 1 : 0;
      // a rest chord (or its chain) ends the solve only when taken whole (a cut chord step says the old
      // factor is off), or where chains run when its whole step was within the tolerance
      if ((small && predicted === 0 && (full || !earlierFactor || within) && chainClose) || predictedStop) {
        converged = true;
        break;
      }
      // a chord iteration only where Newton is about to stop: a full step taken whole, within
      // chordWithin tolerances, and (after the first iteration) contracting at least as fast
      newtonCount += chord ? 0 : 1;
      chordNext = !chord && !chordUsed && full && dmax <= chordTol && ((chains ? newtonCount : iters) === 1 || dmax * this.chordWithin <= prevStep);
      const slowStep = dmax > this.slowChord * prevStep; // on every iteration (type feedback, as above)
      slowNext = this.slowChord > 0 && iters >= STICK_PREDICTION_ITERS && full && predicted === 0 && slowStep;
      // a cut step (cutChord): Φ's Armijo test halved a Newton step cutChord times or more, and the step is still
      // more than chordWithin tolerances: the next iteration is a chord on this factor (the iterate moved a quarter
      // of a step or less, so its Hessian is nearly the one factored; the cut is the model's, not the matrix's)
      cutNext = this.cutChord > 0 && !chord && k >= this.cutChord && dmax > chordTol;
      // the chain goes on while its steps are whole, near, and contracting (at least halving after the rest chord)
      const halving = dmax <= 0.5 * prevStep;
      chainNext = chainsAfterRest && earlierFactor && chained < this.chordChain && full && dmax <= chordTol && (restIter || halving);
      chained += chainNext ? 1 : 0;
      freeChords += freeChord && earlierFactor ? 1 : 0;
      chordUsed = chordUsed || (chord && !(chains && earlierFactor));
      prevStep = dmax;
    }
    // v = (x − xᵗ)/h, kept in this method on purpose: the only loop over the dofs left here, it
    // uses up V8's interrupt budget so the driver is optimized within a few steps (without it,
    // this loop-free method was still interpreted after 360 steps, boxing every double). It is
    // the last statement, so code compiled on stack replacement at it has all feedback. Known
    // limit: after a deopt of the driver, later calls enter that OSR code at this loop, so the
    // interpreter sees no back edges and the driver may stay unoptimized (a few hundred B/step).
    if (contact) contact.boundsEnd();
    maxAbsDiff(n, x, this.xFactor, sc);
    // chainFactor on every step, not only when the distance test fails: a call first reached late in a game
    // deoptimizes this method (the jelly page, step ~120 after world.warmUp: docs/solver.md, "Stop 29")
    const endChains = this.chainFactor(ws, contact);
    const endNear = sc[0]! <= chordTol || endChains;
    this.restReady = converged && lastFull && this.restFactor(ws) && endNear;
    const fixed = t.fixed;
    for (let i = 0; i < n; i++) {
      const vi = (x[i]! - xt[i]!) / h;
      v[i] = fixed[i >> 1] === 0 ? vi : v[i]!;
    }
    stats.newtonIters = used + iters;
    stats.newtonCapped = cap > 0 && used + iters >= cap;
    stats.converged = converged;
  }
}

// Loops of phi() and gradient() as module functions of typed arrays: optimized as whole
// functions, not through on-stack replacement of their callers (which deoptimized after the loop).

/**
 * sc[0] = Σ m (x − x̃)², sc[1] = Σ (x − xᵗ)² over the free dofs.
 * Loop kernels here keep their accumulators in sc and have no code after the loop: V8 may compile
 * a long first call on stack replacement at the loop, and OSR code is re-entered on later calls
 * (it deoptimized after the loop on every call when code there had no type feedback yet). Every
 * operation with type feedback is done on every iteration (fixed dofs only select the old value).
 */
function inertiaSums(
  n: number, fixed: Uint8Array, mass: Float64Array, x: Float64Array, xt: Float64Array, xtil: Float64Array, sc: Float64Array,
): void {
  sc[0] = 0;
  sc[1] = 0;
  for (let i = 0; i < n; i++) {
    const d = x[i]! - xtil[i]!;
    const s = x[i]! - xt[i]!;
    const i0 = sc[0]!, d0 = sc[1]!;
    const i1 = i0 + mass[i]! * d * d, d1 = d0 + s * s;
    const free = fixed[i >> 1] === 0;
    sc[0] = free ? i1 : i0;
    sc[1] = free ? d1 : d0;
  }
}

/** g = h² g + M (x − x̃) + h b (x − xᵗ), with h², h b from the step constants hs. */
function inertiaGradient(
  n: number, mass: Float64Array, x: Float64Array, xt: Float64Array, xtil: Float64Array, hs: Float64Array, g: Float64Array,
): void {
  const h2 = hs[HS_H2]!, hb = hs[HS_HB]!;
  for (let i = 0; i < n; i++) g[i] = h2 * g[i]! + mass[i]! * (x[i]! - xtil[i]!) + hb * (x[i]! - xt[i]!);
}

/**
 * Start of a step: xᵗ = x, x̃ = x + h v; sc[0..3] = min x, max x, min y, max y over the free
 * particles at x (min > max when there are none).
 */
function beginStep(
  n: number, fixed: Uint8Array, x: Float64Array, v: Float64Array, h: number, xt: Float64Array, xtil: Float64Array, sc: Float64Array,
): void {
  sc[0] = Infinity;
  sc[1] = -Infinity;
  sc[2] = Infinity;
  sc[3] = -Infinity;
  for (let i = 0; i < n; i += 2) {
    const px = x[i]!, py = x[i + 1]!;
    xt[i] = px;
    xt[i + 1] = py;
    xtil[i] = px + h * v[i]!;
    xtil[i + 1] = py + h * v[i + 1]!;
    const free = fixed[i >> 1] === 0;
    const minX = sc[0]!, maxX = sc[1]!, minY = sc[2]!, maxY = sc[3]!;
    sc[0] = px < minX && free ? px : minX;
    sc[1] = px > maxX && free ? px : maxX;
    sc[2] = py < minY && free ? py : minY;
    sc[3] = py > maxY && free ? py : maxY;
  }
}

/** Unit direction n̂ of each damped spring at x (frozen for the step's dissipation). */
function springDirections(count: number, nodes: Int32Array, x: Float64Array, nh: Float64Array): void {
  for (let e = 0; e < count; e++) {
    const a = 2 * nodes[2 * e]!, c = 2 * nodes[2 * e + 1]!;
    const dx = x[c]! - x[a]!, dy = x[c + 1]! - x[a + 1]!;
    const l = Math.sqrt(dx * dx + dy * dy);
    nh[2 * e] = l > 0 ? dx / l : 0;
    nh[2 * e + 1] = l > 0 ? dy / l : 0;
  }
}

/** sc[0] = max |a − b|. */
function maxAbsDiff(n: number, a: Float64Array, b: Float64Array, sc: Float64Array): void {
  sc[0] = 0;
  for (let i = 0; i < n; i++) {
    const d = Math.abs(a[i]! - b[i]!), m = sc[0]!;
    sc[0] = d > m ? d : m;
  }
}

/** touched[lab[i]] ← 1 for every fixed particle i: its island is held up. */
function markFixedIslands(t: Topology, lab: Int32Array, touched: Uint8Array): void {
  for (let i = 0; i < t.n; i++) if (t.fixed[i] !== 0) touched[lab[i]!] = 1;
}

/** The smallest mass of a free particle with a lumped mass matrix; 0 with a consistent one, or none free. */
function smallestFreeMass(t: Topology): number {
  let m = Infinity;
  for (let i = 0; i < t.n; i++) if (t.fixed[i] === 0 && t.mass[2 * i]! < m) m = t.mass[2 * i]!;
  return t.massMatrix === 'lumped' && m > 0 && m < Infinity ? m : 0;
}

/**
 * x_i += h² · a_i (h² = hs[HS_H2]) on free particles whose island (lab) is untouched, a the uniform gravity and
 * constant force / mass.
 * Returns how many displacements it added (a particle once per such force; 0: none).
 */
function addConstantAccelerations(t: Topology, hs: Float64Array, lab: Int32Array, touched: Uint8Array, x: Float64Array): number {
  const h2 = hs[HS_H2]!; // in an array: a double argument of a call that is not inlined is boxed
  let moved = 0;
  for (let u = 0; u < t.uniformCount; u++) {
    const kind = t.uniformKind[u]!, fx = t.uniform[3 * u]!, fy = t.uniform[3 * u + 1]!;
    const gravity = kind === UNIFORM_GRAVITY, constant = kind === UNIFORM_CONSTANT;
    if (!gravity && !constant) continue;
    for (let i = 0; i < t.n; i++) {
      if (t.fixed[i] !== 0 || touched[lab[i]!] !== 0) continue;
      const m = t.mass[2 * i]!;
      const s = gravity ? h2 : m > 0 ? h2 / m : 0;
      x[2 * i] = x[2 * i]! + s * fx;
      x[2 * i + 1] = x[2 * i + 1]! + s * fy;
      moved++;
    }
  }
  return moved;
}

/** sc[0] = Σ g². */
function sumSquares(n: number, g: Float64Array, sc: Float64Array): void {
  sc[0] = 0;
  for (let i = 0; i < n; i++) sc[0] = sc[0]! + g[i]! * g[i]!;
}

function negateInto(n: number, g: Float64Array, out: Float64Array): void {
  for (let i = 0; i < n; i++) out[i] = -g[i]!;
}

/** sc[0] = gᵀ d (the slope), sc[1] = ‖d‖∞. */
function slopeAndMax(n: number, g: Float64Array, d: Float64Array, sc: Float64Array): void {
  sc[0] = 0;
  sc[1] = 0;
  for (let i = 0; i < n; i++) {
    sc[0] = sc[0]! + g[i]! * d[i]!;
    const a = Math.abs(d[i]!), m = sc[1]!;
    sc[1] = a > m ? a : m;
  }
}

/** r ← −r, zero on fixed rows and rows of held particles (mask ≠ 0). */
function negateMasked(t: Topology, mask: Uint8Array | null, r: Float64Array): void {
  for (let i = 0; i < t.ndof; i++) r[i] = -r[i]!;
  maskRows(t, mask, r);
}

/** p ← z + sc[0] p and ap ← r + sc[0] ap (A p, as A z = r). */
function nextConjugate(n: number, sc: Float64Array, z: Float64Array, r: Float64Array, p: Float64Array, ap: Float64Array): void {
  const beta = sc[0]!;
  for (let i = 0; i < n; i++) {
    p[i] = z[i]! + beta * p[i]!;
    ap[i] = r[i]! + beta * ap[i]!;
  }
}

/** Zero r on fixed dofs and on the rows of held particles (mask ≠ 0). */
function maskRows(t: Topology, mask: Uint8Array | null, r: Float64Array): void {
  zeroFixed(t, r);
  if (mask === null) return;
  for (let i = 0; i < t.n; i++) {
    if (mask[i] !== 0) {
      r[2 * i] = 0;
      r[2 * i + 1] = 0;
    }
  }
}

/** Rows (2i, 2i+1) of r ← 0 for the particles of converged islands (held[i] = KEEP_ROWS). */
function zeroKept(np: number, held: Uint8Array, r: Float64Array): void {
  for (let i = 0; i < np; i++) {
    if (held[i] === KEEP_ROWS) {
      r[2 * i] = 0;
      r[2 * i + 1] = 0;
    }
  }
}

/** sc[0] = max |a − b| over the dofs, leaving out particles of converged islands when `masked`. */
function maxAbsDiffUnkept(np: number, held: Uint8Array, masked: boolean, a: Float64Array, b: Float64Array, sc: Float64Array): void {
  let m = 0;
  for (let i = 0; i < np; i++) {
    const kept = held[i] === KEEP_ROWS; // read on every particle: a read first made late deoptimizes the loop
    if (masked && kept) continue;
    const dx = Math.abs(a[2 * i]! - b[2 * i]!), dy = Math.abs(a[2 * i + 1]! - b[2 * i + 1]!);
    m = dx > m ? dx : m;
    m = dy > m ? dy : m;
  }
  sc[0] = m;
}

/** out ← x on the rows of particles not in a converged island. */
function copyUnkept(np: number, held: Uint8Array, x: Float64Array, out: Float64Array): void {
  for (let i = 0; i < np; i++) {
    if (held[i] !== KEEP_ROWS) {
      out[2 * i] = x[2 * i]!;
      out[2 * i + 1] = x[2 * i + 1]!;
    }
  }
}

/** out = a − b. */
function subtractInto(n: number, a: Float64Array, b: Float64Array, out: Float64Array): void {
  for (let i = 0; i < n; i++) out[i] = a[i]! - b[i]!;
}

/** x = xᵗ + α d with α = sc[0] (the pulled-back initial guess). */
function startAlong(n: number, xt: Float64Array, sc: Float64Array, d: Float64Array, x: Float64Array): void {
  const alpha = sc[0]!;
  for (let i = 0; i < n; i++) x[i] = xt[i]! + alpha * d[i]!;
}

/** trial = x + α d with α = sc[0]. */
function trialPoint(n: number, x: Float64Array, sc: Float64Array, d: Float64Array, trial: Float64Array): void {
  const alpha = sc[0]!;
  for (let i = 0; i < n; i++) trial[i] = x[i]! + alpha * d[i]!;
}

/** sc[0] = Σ b (n̂·(Δxⱼ − Δxᵢ))² over the damped springs (Δx = x − xᵗ, n̂ frozen at the step start). */
function dampingDissipation(
  count: number, nodes: Int32Array, params: Float64Array, nh: Float64Array, x: Float64Array, xt: Float64Array, sc: Float64Array,
): void {
  sc[0] = 0;
  for (let e = 0; e < count; e++) {
    const b = params[3 * e + 2]!;
    if (b === 0) continue;
    const a = 2 * nodes[2 * e]!, c = 2 * nodes[2 * e + 1]!;
    const rel = nh[2 * e]! * (x[c]! - xt[c]! - x[a]! + xt[a]!) + nh[2 * e + 1]! * (x[c + 1]! - xt[c + 1]! - x[a + 1]! + xt[a + 1]!);
    sc[0] = sc[0]! + b * rel * rel;
  }
}

/** g += its gradient (h b (n̂·(Δxⱼ − Δxᵢ)) n̂ on j, minus on i), h = hs[HS_H]. */
function dampingGradient(
  count: number, nodes: Int32Array, params: Float64Array, nh: Float64Array, x: Float64Array, xt: Float64Array, hs: Float64Array, g: Float64Array,
): void {
  const h = hs[HS_H]!;
  for (let e = 0; e < count; e++) {
    const b = params[3 * e + 2]!;
    if (b === 0) continue;
    const a = 2 * nodes[2 * e]!, c = 2 * nodes[2 * e + 1]!;
    const nx = nh[2 * e]!, ny = nh[2 * e + 1]!;
    const rel = nx * (x[c]! - xt[c]! - x[a]! + xt[a]!) + ny * (x[c + 1]! - xt[c + 1]! - x[a + 1]! + xt[a + 1]!);
    const f = h * b * rel;
    g[a] = g[a]! - f * nx;
    g[a + 1] = g[a + 1]! - f * ny;
    g[c] = g[c]! + f * nx;
    g[c + 1] = g[c + 1]! + f * ny;
  }
}

/** values += h b n̂ n̂ᵀ pair blocks of each damped spring, h = hs[HS_H]. */
function dampingHessian(ds: ElementFamily, nh: Float64Array, H: Float64Array, hs: Float64Array, values: Float64Array): void {
  const h = hs[HS_H]!;
  for (let e = 0; e < ds.count; e++) {
    const b = ds.params[3 * e + 2]!;
    if (b === 0) continue;
    const nx = nh[2 * e]!, ny = nh[2 * e + 1]!;
    writePairBlocks(nx * nx, nx * ny, nx * ny, ny * ny, H, 0);
    scatter(values, ds, e, H, h * b);
  }
}

/** values[diag[i]] += hs[HS_HB] for every dof. */
function addToDiagonal(n: number, diag: Int32Array, hs: Float64Array, values: Float64Array): void {
  const a = hs[HS_HB]!;
  for (let i = 0; i < n; i++) values[diag[i]!] = values[diag[i]!]! + a;
}

/**
 * Consistent mass (src/solver/mass.ts): with d = x − x̃ (0 on fixed dofs), sc[0] = dᵀ M d;
 * with g given, also swaps the lumped inertia gradient in g for M d: g += M d − diag(mass) d.
 */
function consistentInertia(
  t: Topology, x: Float64Array, xtil: Float64Array, d: Float64Array, md: Float64Array, g: Float64Array | null, sc: Float64Array,
): void {
  for (let i = 0; i < t.ndof; i++) d[i] = t.fixed[i >> 1] === 1 ? 0 : x[i]! - xtil[i]!;
  massMatVec(t, d, md);
  sc[0] = 0;
  for (let i = 0; i < t.ndof; i++) {
    sc[0] = sc[0]! + d[i]! * md[i]!;
    if (g) g[i] = g[i]! + md[i]! - t.mass[i]! * d[i]!;
  }
}
