/**
 * Topology: the dense, creation-ordered view of a world that the solver uses.
 *
 * Built once per topology change (entities added or removed), never per step.
 * Particles get dense indices in creation order; elements refer to them by
 * those indices; the sparsity pattern of the system matrix and the scatter
 * maps from element Hessians to matrix slots are computed here, once.
 * Nothing here depends on bitECS query order, so results never depend on the
 * history of removals.
 */
import type { Components } from '../components';
import { InputError } from '../errors';
import { buildPattern, buildScatter, diagonalSlots, type SymPattern } from './pattern';

/** One family of elements sharing a kernel: k nodes each, p parameters each. */
export interface ElementFamily {
  count: number;
  k: number;
  /** Dense particle indices, count*k. */
  nodes: Int32Array;
  /** Parameters, count*p, layout defined by the family. */
  params: Float64Array;
  p: number;
  /** Scatter map from the local (2k)² Hessian to matrix slots (−1: upper triangle). */
  scatter: Int32Array;
}

export interface Topology {
  /** Number of particles and degrees of freedom (2 per particle). */
  n: number;
  ndof: number;
  particleEids: Int32Array;
  /**
   * Per-DOF lumped masses (x and y of a particle share its mass): the particle's own m
   * plus ρĀ/3 from each triangle with a density. Gravity and the explicit integrators
   * always use these.
   */
  mass: Float64Array;
  /**
   * 'lumped' (default, FOSSSim) or 'consistent': the implicit integrators' inertia then uses
   * M = diag(pointMass) + Σ_triangles ρĀ/12 (1 + δab) I₂ blocks (see src/solver/mass.ts).
   */
  massMatrix: 'lumped' | 'consistent';
  /** Per-DOF particle-own masses (without triangle contributions). */
  pointMass: Float64Array;
  /** ρĀ of each triangle (its total mass; 0 without density). */
  triMass: Float64Array;
  fixed: Uint8Array;
  /** Elastic-body springs: params alpha, l0. */
  springs: ElementFamily;
  /** Bending hinges: params alpha, theta0, ebSum. */
  hinges: ElementFamily;
  /** Triangles: params E, nu, area, b00, b01, b10, b11, material. */
  triangles: ElementFamily;
  /** FOSSSim damped springs: params k, l0, b. */
  dampedSprings: ElementFamily;
  /** Gravitation pairs: params G. */
  gravitation: ElementFamily;
  /** Vortex pairs: params kbs, kvc. */
  vortices: ElementFamily;
  /** Uniform forces in creation order: kind, fx, fy, b. */
  uniformCount: number;
  uniformKind: Uint8Array;
  uniform: Float64Array;
  pattern: SymPattern;
  /**
   * True when the system matrix is not symmetric (FOSSSim damped springs and
   * vortex forces have non-symmetric Jacobians). Then the scatter maps, diag and
   * fixed slots index a dense row-major ndof×ndof matrix, solved by full-pivot
   * LU as FOSSSim does; otherwise they index the lower triangle of `pattern`.
   */
  dense: boolean;
  diag: Int32Array;
  /** Matrix slots in a fixed DOF's row or column, off the diagonal. */
  fixedOffDiagSlots: Int32Array;
  /** Diagonal slots of fixed DOFs. */
  fixedDiagSlots: Int32Array;
  /** Contact node pairs added to the pattern (src/collision; 2 per pair) and their count. */
  contactPairs: Int32Array;
  contactPairCount: number;
  /** Times the pattern was built (1 + contact growths). */
  patternBuilds: number;
}

/** Creation-ordered entity ids of each kind: the solver's order, never bitECS query order. */
export interface EntityLists {
  particles: number[];
  springs: number[];
  hinges: number[];
  triangles: number[];
  dampedSprings: number[];
  gravitation: number[];
  vortices: number[];
  uniform: number[];
  edges: number[];
  halfplanes: number[];
  /** Circle, segment and polygon colliders (src/collision). */
  colliders: number[];
}

export function createEntityLists(): EntityLists {
  return {
    particles: [], springs: [], hinges: [], triangles: [], dampedSprings: [], gravitation: [], vortices: [], uniform: [],
    edges: [], halfplanes: [], colliders: [],
  };
}

function family(count: number, k: number, p: number): ElementFamily {
  return { count, k, p, nodes: new Int32Array(count * k), params: new Float64Array(count * p), scatter: new Int32Array(0) };
}

/** One element family from creation-ordered entity ids: node fields become dense particle indices, param fields are copied. */
function gatherFamily(
  ids: number[], store: Record<string, ArrayLike<number>>, nodeFields: string[], paramFields: string[], idx: (eid: number) => number,
): ElementFamily {
  const k = nodeFields.length, p = paramFields.length;
  const f = family(ids.length, k, p);
  ids.forEach((e, s) => {
    for (let a = 0; a < k; a++) f.nodes[k * s + a] = idx(store[nodeFields[a]!]![e]!);
    for (let q = 0; q < p; q++) f.params[p * s + q] = store[paramFields[q]!]![e]!;
  });
  return f;
}

export interface TopologyOptions {
  /** Mass matrix of triangles with a density (default 'lumped'). */
  massMatrix?: 'lumped' | 'consistent';
}

/**
 * Most DOFs of a dense (non-symmetric) system: FOSSSim's damped springs (b ≠ 0) and vortices are
 * solved by a dense ndof × ndof LU with full pivoting, O(ndof³) per factorization and 8·ndof² bytes
 * (1024 DOFs: 8 MiB and ~2 s per factorization on the test machine; 20 000 particles would need
 * 12.8 GB). Above this the world refuses the topology with an InputError (docs/scene-format.md).
 */
export const DENSE_MAX_DOFS = 1024;

function denseTooLarge(n: number): InputError {
  return new InputError(
    `${n} particles with a damped spring (b ≠ 0: <springforce b>, addDampedSpring) or a vortex (<vortexforce>, addVortex): ` +
      'these non-symmetric forces are solved ' +
      `by a dense LU of ${2 * n} × ${2 * n} (${((8 * 4 * n * n) / 1024 ** 2).toFixed(0)} MiB, O(n³) per step); ` +
      `expected at most ${DENSE_MAX_DOFS / 2} particles in such a scene, or b = 0 and no vortices`,
  );
}

export function buildTopology(c: Components, lists: EntityLists, opts: TopologyOptions = {}): Topology {
  const n = lists.particles.length;
  const ndof = 2 * n;
  const P = c.Particle;
  const particleEids = Int32Array.from(lists.particles);
  const denseIndex = new Map<number, number>();
  for (let i = 0; i < n; i++) denseIndex.set(particleEids[i]!, i);
  const idx = (eid: number): number => {
    const i = denseIndex.get(eid);
    if (i === undefined) throw new Error(`element refers to particle entity ${eid}, which is not in the world`);
    return i;
  };

  const mass = new Float64Array(ndof);
  const fixed = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const e = particleEids[i]!;
    mass[2 * i] = mass[2 * i + 1] = P.m[e]!;
    fixed[i] = P.fixed[e]!;
  }
  const pointMass = Float64Array.from(mass);

  const gather = <S extends object>(ids: number[], store: S, nodeFields: (keyof S)[], paramFields: (keyof S)[]) =>
    gatherFamily(ids, store as unknown as Record<string, ArrayLike<number>>, nodeFields as string[], paramFields as string[], idx);
  const springs = gather(lists.springs, c.ElasticSpring, ['a', 'b'], ['alpha', 'l0']);
  const hinges = gather(lists.hinges, c.Hinge, ['a', 'b', 'c'], ['alpha', 'theta0', 'ebSum']);
  const T = c.Triangle;
  const triangles = gather(lists.triangles, T, ['a', 'b', 'c'],
    ['youngsModulus', 'poissonRatio', 'area', 'b00', 'b01', 'b10', 'b11', 'material']);
  const dampedSprings = gather(lists.dampedSprings, c.DampedSpring, ['a', 'b'], ['k', 'l0', 'damping']);
  const gravitation = gather(lists.gravitation, c.Gravitation, ['a', 'b'], ['G']);
  const vortices = gather(lists.vortices, c.Vortex, ['a', 'b'], ['kbs', 'kvc']);

  // Lumped mass from density: each vertex gets ρA/3 (the consistent blocks use triMass).
  const triMass = new Float64Array(lists.triangles.length);
  lists.triangles.forEach((e, s) => {
    triMass[s] = T.density[e]! * T.area[e]!;
    const lump = triMass[s]! / 3;
    if (lump > 0) {
      for (let a = 0; a < 3; a++) {
        const i = triangles.nodes[3 * s + a]!;
        mass[2 * i] = mass[2 * i]! + lump;
        mass[2 * i + 1] = mass[2 * i + 1]! + lump;
      }
    }
  });

  const U = c.UniformForce;
  const uniformCount = lists.uniform.length;
  const uniformKind = new Uint8Array(uniformCount);
  const uniform = new Float64Array(3 * uniformCount);
  lists.uniform.forEach((e, s) => {
    uniformKind[s] = U.kind[e]!;
    uniform[3 * s] = U.fx[e]!;
    uniform[3 * s + 1] = U.fy[e]!;
    uniform[3 * s + 2] = U.b[e]!;
  });

  let dense = vortices.count > 0;
  for (let e = 0; e < dampedSprings.count; e++) if (dampedSprings.params[3 * e + 2] !== 0) dense = true;
  if (dense && ndof > DENSE_MAX_DOFS) throw denseTooLarge(n);

  const t: Topology = {
    n, ndof, particleEids, mass, fixed,
    massMatrix: opts.massMatrix ?? 'lumped', pointMass, triMass,
    springs, hinges, triangles, dampedSprings, gravitation, vortices,
    uniformCount, uniformKind, uniform,
    pattern: { n: 0, colPtr: new Int32Array(1), rowIdx: new Int32Array(0), nnz: 0 }, dense, diag: new Int32Array(0),
    fixedOffDiagSlots: new Int32Array(0), fixedDiagSlots: new Int32Array(0),
    contactPairs: new Int32Array(0), contactPairCount: 0, patternBuilds: 0,
  };
  assignPattern(t);
  return t;
}

/**
 * (Re)build the sparsity pattern (element cliques plus the contact node pairs), the scatter
 * maps, the diagonal and the fixed-DOF slots. Called by buildTopology and when contact
 * grows the pattern (addContactPairs).
 */
function assignPattern(t: Topology): void {
  const { n, ndof, fixed, dense } = t;
  const fams = [t.springs, t.hinges, t.triangles, t.dampedSprings, t.gravitation, t.vortices];
  const groups = fams.map((f) => ({ nodes: f.nodes, k: f.k }));
  if (t.contactPairCount > 0) groups.push({ nodes: t.contactPairs.subarray(0, 2 * t.contactPairCount), k: 2 });
  const pattern = buildPattern(n, 2, groups);

  const offDiag: number[] = [];
  const fixedDiag: number[] = [];
  let diag: Int32Array;
  if (dense) {
    for (const f of fams) f.scatter = denseScatter(ndof, f.nodes, f.k);
    diag = new Int32Array(ndof);
    for (let i = 0; i < ndof; i++) diag[i] = i * ndof + i;
    for (let i = 0; i < ndof; i++) {
      for (let j = 0; j < ndof; j++) {
        if (i === j) {
          if (fixed[i >> 1] === 1) fixedDiag.push(diag[i]!);
        } else if (fixed[i >> 1] === 1 || fixed[j >> 1] === 1) {
          offDiag.push(i * ndof + j);
        }
      }
    }
  } else {
    for (const f of fams) f.scatter = buildScatter(pattern, f.nodes, f.k, 2);
    diag = diagonalSlots(pattern);
  }
  for (let col = 0; col < ndof && !dense; col++) {
    for (let s = pattern.colPtr[col]!; s < pattern.colPtr[col + 1]!; s++) {
      const row = pattern.rowIdx[s]!;
      const rowFixed = fixed[row >> 1] === 1;
      const colFixed = fixed[col >> 1] === 1;
      if (row === col) {
        if (rowFixed) fixedDiag.push(s);
      } else if (rowFixed || colFixed) {
        offDiag.push(s);
      }
    }
  }

  t.pattern = pattern;
  t.diag = diag;
  t.fixedOffDiagSlots = Int32Array.from(offDiag);
  t.fixedDiagSlots = Int32Array.from(fixedDiag);
  t.patternBuilds++;
}

/**
 * Contact (src/collision): add node pairs (i, j) to the pattern — the union of the element
 * pattern and every pair ever added is kept (monotone) — and rebuild the pattern, scatter maps
 * and slots. The caller must rebuild the linear solver's symbolic analysis (world.rebuildSolver).
 * Setup-rate only: allocates.
 */
export function addContactPairs(t: Topology, pairs: Int32Array, count: number): void {
  if (count === 0 || t.dense) return;
  const old = t.contactPairCount;
  if (2 * (old + count) > t.contactPairs.length) {
    const g = new Int32Array(Math.max(2 * (old + count), 2 * t.contactPairs.length));
    g.set(t.contactPairs.subarray(0, 2 * old));
    t.contactPairs = g;
  }
  t.contactPairs.set(pairs.subarray(0, 2 * count), 2 * old);
  t.contactPairCount = old + count;
  assignPattern(t);
}

/**
 * Contact (src/collision): replace the contact node pairs by `pairs` (count pairs; the caller has
 * dropped stale ones and merged duplicates) and rebuild the pattern, scatter maps and slots. The
 * caller must rebuild the linear solver (world.rebuildSolver). Setup-rate only: allocates.
 */
export function setContactPairs(t: Topology, pairs: Int32Array, count: number): void {
  if (t.dense) return;
  if (2 * count > t.contactPairs.length) t.contactPairs = new Int32Array(2 * count);
  t.contactPairs.set(pairs.subarray(0, 2 * count));
  t.contactPairCount = count;
  assignPattern(t);
}

/** Scatter map into a dense row-major ndof×ndof matrix: every local entry has a slot. */
function denseScatter(ndof: number, nodes: Int32Array, k: number): Int32Array {
  const m = 2 * k;
  const count = nodes.length / k;
  const map = new Int32Array(count * m * m);
  for (let e = 0; e < count; e++) {
    for (let r = 0; r < m; r++) {
      const gr = 2 * nodes[e * k + (r >> 1)]! + (r & 1);
      for (let c = 0; c < m; c++) {
        const gc = 2 * nodes[e * k + (c >> 1)]! + (c & 1);
        map[e * m * m + r * m + c] = gr * ndof + gc;
      }
    }
  }
  return map;
}

/** Add scale·h (element e's local Hessian) into values through the family's scatter map. */
export function scatter(values: Float64Array, f: ElementFamily, e: number, h: Float64Array, scale: number): void {
  const m = 2 * f.k;
  const mm = m * m;
  const map = f.scatter;
  const base = e * mm;
  for (let r = 0; r < mm; r++) {
    const slot = map[base + r]!;
    if (slot >= 0) values[slot] = values[slot]! + scale * h[r]!;
  }
}
