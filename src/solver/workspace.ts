/**
 * The linear-algebra workspace of one topology: preallocated buffers, the sparse LDLᵀ solver
 * (or dense LU for non-symmetric systems) and the fixed-DOF matrix edits shared by every
 * integrator. Rebuilt when the topology's pattern changes, never per step.
 */
import type { Topology } from './topology';
import { SymmetricSolver } from './linear';
import { DenseLU } from './dense';
import { createStepStats, type StepStats } from './stats';

/** Preallocated buffers for one topology; reused every step. */
export class Workspace {
  readonly g: Float64Array;
  readonly dx: Float64Array;
  readonly dv: Float64Array;
  readonly xe: Float64Array;
  readonly ve: Float64Array;
  readonly rhs: Float64Array;
  readonly delta: Float64Array;
  readonly values: Float64Array;
  /** Sparse symmetric solver, or null when the topology is dense (non-symmetric). */
  readonly solver: SymmetricSolver | null;
  readonly lu: DenseLU | null;
  readonly t: Topology;
  /** The world's step statistics (shared: a rebuilt workspace keeps counting into the same object). */
  readonly stats: StepStats;

  constructor(t: Topology, stats: StepStats = createStepStats()) {
    this.t = t;
    this.stats = stats;
    const n = t.ndof;
    this.g = new Float64Array(n);
    this.dx = new Float64Array(n);
    this.dv = new Float64Array(n);
    this.xe = new Float64Array(n);
    this.ve = new Float64Array(n);
    this.rhs = new Float64Array(n);
    this.delta = new Float64Array(n);
    this.values = new Float64Array(t.dense ? n * n : t.pattern.nnz);
    this.solver = t.dense ? null : new SymmetricSolver(t.pattern);
    this.lu = t.dense ? new DenseLU(n) : null;
    stats.symbolicBuilds++;
  }

  /** Solve ws.values · out = rhs with the topology's solver. */
  solve(rhs: Float64Array, out: Float64Array): void {
    if (this.lu) {
      if (!this.lu.factor(this.values)) throw new Error('the system matrix is singular');
      this.lu.solve(rhs, out);
      this.stats.linearPath = 'dense-lu';
    } else {
      this.solver!.solve(this.values, rhs, out);
      this.stats.linearPath = this.solver!.lastPath;
    }
  }
}

export function applyFixedToMatrix(t: Topology, values: Float64Array): void {
  const off = t.fixedOffDiagSlots;
  for (let s = 0; s < off.length; s++) values[off[s]!] = 0;
  const d = t.fixedDiagSlots;
  for (let s = 0; s < d.length; s++) values[d[s]!] = 1;
}

export function zeroFixed(t: Topology, r: Float64Array): void {
  for (let i = 0; i < t.n; i++) {
    if (t.fixed[i] === 1) {
      r[2 * i] = 0;
      r[2 * i + 1] = 0;
    }
  }
}
