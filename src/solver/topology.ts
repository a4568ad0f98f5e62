/**
 * Topology: the dense, creation-ordered view of a world that the solver uses.
 *
 * Built once per topology change (entities added or removed), never per step.
 * Particles get dense indices in creation order; elements refer to them by
 * those indices; the sparsity pattern of the system matrix and the scatter
 * maps from element Hessians to matrix slots are computed here, once.
 * Nothing here depends on bitECS query order, so results never depend on the
 * history of removals.
 *
 * The components stay the source of truth: `diffTopology` (every step, allocation-free loop
 * kernels over creation order) finds component data that no longer matches the topology's copies,
 * and `refreshTopology` refreshes only the numeric derived data (masses, fixed-DOF slots, element
 * parameters, uniform forces) — never the pattern, the ordering or a symbolic factorization. An
 * edited node reference (an element now using another particle) is a topology change instead.
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
  /**
   * The same map without its −1 entries, what `scatter()` runs: element e's entries are
   * [scatterStart[e], scatterStart[e + 1]), each a local index into the (2k)² Hessian (scatterLocal,
   * ascending) and its matrix slot (scatterSlot). No branch per entry, and 21 of 36 for a triangle.
   */
  scatterStart: Int32Array;
  scatterLocal: Int32Array;
  scatterSlot: Int32Array;
  /** Entity id of each element (creation order): where `diffTopology` reads the components. */
  eids: Int32Array;
}

export interface Topology {
  /** Number of particles and degrees of freedom (2 per particle). */
  n: number;
  ndof: number;
  particleEids: Int32Array;
  /**
   * The inverse of particleEids: the dense index of particle entity e at [e], −1 for an entity that is no particle
   * here; length the largest particle entity id + 1 (at least 1). Read it through particleIndexOf.
   */
  particleIndex: Int32Array;
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
  /**
   * Effective fixed flags the solver and contact read: the component's `fixed` (fixedSrc) or asleep
   * (frozen, src/systems/sleep.ts). A sleeping particle is held like a pinned one.
   */
  fixed: Uint8Array;
  /** The components' `fixed` flags (what diffTopology compares). */
  fixedSrc: Uint8Array;
  /** Sleeping particles (1), written by src/systems/sleep.ts through applyFrozen; all 0 when nothing sleeps. */
  frozen: Uint8Array;
  /** Particles' contact radius and body id (copies: contact reads them per topology; see paramsVersion). */
  radius: Float64Array;
  body: Int32Array;
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
  uniformEids: Int32Array;
  /** Drawn / rod edges (contact only, not in the pattern): params radius. */
  edges: ElementFamily;
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
  return {
    count, k, p, nodes: new Int32Array(count * k), params: new Float64Array(count * p), scatter: new Int32Array(0),
    scatterStart: new Int32Array(count + 1), scatterLocal: new Int32Array(0), scatterSlot: new Int32Array(0), eids: new Int32Array(count),
  };
}

/** One element family from creation-ordered entity ids: node fields become dense particle indices, param fields are copied. */
function gatherFamily(
  ids: number[], store: Record<string, ArrayLike<number>>, nodeFields: string[], paramFields: string[], idx: (eid: number) => number,
): ElementFamily {
  const k = nodeFields.length, p = paramFields.length;
  const f = family(ids.length, k, p);
  ids.forEach((e, s) => {
    f.eids[s] = e;
    for (let a = 0; a < k; a++) f.nodes[k * s + a] = idx(store[nodeFields[a]!]![e]!);
    for (let q = 0; q < p; q++) f.params[p * s + q] = store[paramFields[q]!]![e]!;
  });
  return f;
}

export interface TopologyOptions {
  /** Mass matrix of triangles with a density (default 'lumped'). */
  massMatrix?: 'lumped' | 'consistent';
  /**
   * Contact node pairs of the topology this one replaces, as particle entity ids (2 per pair): kept in the new
   * pattern where both particles are still in the world (src/systems/pipeline.ts, rebuildTopology).
   */
  contactPairEids?: Int32Array;
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

/** The dense index of particle entity `eid` in a topology's particleIndex, −1 when it is no particle there. */
export function particleIndexOf(particleIndex: Int32Array, eid: number): number {
  return eid >= 0 && eid < particleIndex.length ? particleIndex[eid]! : -1;
}

export function buildTopology(c: Components, lists: EntityLists, opts: TopologyOptions = {}): Topology {
  const n = lists.particles.length;
  const ndof = 2 * n;
  const P = c.Particle;
  const particleEids = Int32Array.from(lists.particles);
  let maxEid = 0;
  for (let i = 0; i < n; i++) if (particleEids[i]! > maxEid) maxEid = particleEids[i]!;
  const particleIndex = new Int32Array(maxEid + 1).fill(-1);
  for (let i = 0; i < n; i++) particleIndex[particleEids[i]!] = i;
  const idx = (eid: number): number => {
    const i = particleIndexOf(particleIndex, eid);
    if (i < 0) throw new InputError(`an element refers to entity ${eid}, which is not a particle of this world`);
    return i;
  };

  const pointMass = new Float64Array(ndof);
  const fixed = new Uint8Array(n);
  const radius = new Float64Array(n);
  const body = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const e = particleEids[i]!;
    pointMass[2 * i] = pointMass[2 * i + 1] = P.m[e]!;
    fixed[i] = P.fixed[e]!;
    radius[i] = P.radius[e]!;
    body[i] = P.body[e]!;
  }

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

  const edges = gather(lists.edges, c.Edge, ['a', 'b'], ['radius']);
  const triMass = new Float64Array(lists.triangles.length);
  for (let s = 0; s < triMass.length; s++) triMass[s] = T.density[triangles.eids[s]!]! * T.area[triangles.eids[s]!]!;

  const U = c.UniformForce;
  const uniformCount = lists.uniform.length;
  const uniformKind = new Uint8Array(uniformCount);
  const uniform = new Float64Array(3 * uniformCount);
  const uniformEids = Int32Array.from(lists.uniform);
  lists.uniform.forEach((e, s) => {
    uniformKind[s] = U.kind[e]!;
    uniform[3 * s] = U.fx[e]!;
    uniform[3 * s + 1] = U.fy[e]!;
    uniform[3 * s + 2] = U.b[e]!;
  });

  const dense = needsDense(vortices, dampedSprings);
  if (dense && ndof > DENSE_MAX_DOFS) throw denseTooLarge(n);

  const t: Topology = {
    n, ndof, particleEids, particleIndex, mass: new Float64Array(ndof), fixed, fixedSrc: fixed.slice(), frozen: new Uint8Array(n), radius, body,
    massMatrix: opts.massMatrix ?? 'lumped', pointMass, triMass,
    springs, hinges, triangles, dampedSprings, gravitation, vortices,
    uniformCount, uniformKind, uniform, uniformEids, edges,
    pattern: { n: 0, colPtr: new Int32Array(1), rowIdx: new Int32Array(0), nnz: 0 }, dense,
    diag: new Int32Array(0), fixedOffDiagSlots: new Int32Array(0), fixedDiagSlots: new Int32Array(0),
    contactPairs: new Int32Array(0), contactPairCount: 0, patternBuilds: 0,
  };
  if (opts.contactPairEids && !dense) keepContactPairs(t, opts.contactPairEids);
  lumpMasses(t);
  assignPattern(t);
  return t;
}

/** The pairs of entity ids whose particles are both in t, in their order, as t's contact pairs (before its pattern is made). */
function keepContactPairs(t: Topology, eids: Int32Array): void {
  const pairs = new Int32Array(eids.length);
  let count = 0;
  for (let k = 0; k + 1 < eids.length; k += 2) {
    const i = particleIndexOf(t.particleIndex, eids[k]!), j = particleIndexOf(t.particleIndex, eids[k + 1]!);
    if (i < 0 || j < 0) continue;
    pairs[2 * count] = i;
    pairs[2 * count + 1] = j;
    count++;
  }
  t.contactPairs = pairs;
  t.contactPairCount = count;
}

/** FOSSSim's non-symmetric Jacobians (vortices, damped springs with damping) need the dense LU. */
function needsDense(vortices: ElementFamily, dampedSprings: ElementFamily): boolean {
  let dense = vortices.count > 0;
  for (let e = 0; e < dampedSprings.count; e++) if (dampedSprings.params[3 * e + 2] !== 0) dense = true;
  return dense;
}

/**
 * Per-DOF lumped masses: the particles' own masses, then ρĀ/3 from each triangle with a density
 * added to its vertices in creation order (the consistent blocks use triMass). Used by the build
 * and by a refresh, so both give the same bits.
 */
function lumpMasses(t: Topology): void {
  const mass = t.mass, pm = t.pointMass, tr = t.triangles;
  for (let i = 0; i < t.ndof; i++) mass[i] = pm[i]!;
  for (let s = 0; s < tr.count; s++) {
    const lump = t.triMass[s]! / 3;
    if (lump > 0) {
      for (let a = 0; a < 3; a++) {
        const i = tr.nodes[3 * s + a]!;
        mass[2 * i] = mass[2 * i]! + lump;
        mass[2 * i + 1] = mass[2 * i + 1]! + lump;
      }
    }
  }
}

/**
 * (Re)build the sparsity pattern (element cliques plus the contact node pairs), the scatter
 * maps, the diagonal and the fixed-DOF slots. Called by buildTopology and when contact
 * grows the pattern (addContactPairs).
 */
function assignPattern(t: Topology): void {
  const { n, ndof, dense } = t;
  const fams = [t.springs, t.hinges, t.triangles, t.dampedSprings, t.gravitation, t.vortices];
  const groups = fams.map((f) => ({ nodes: f.nodes, k: f.k }));
  if (t.contactPairCount > 0) groups.push({ nodes: t.contactPairs.subarray(0, 2 * t.contactPairCount), k: 2 });
  const pattern = buildPattern(n, 2, groups);

  let diag: Int32Array;
  if (dense) {
    for (const f of fams) f.scatter = denseScatter(ndof, f.nodes, f.k);
    diag = new Int32Array(ndof);
    for (let i = 0; i < ndof; i++) diag[i] = i * ndof + i;
  } else {
    for (const f of fams) f.scatter = buildScatter(pattern, f.nodes, f.k, 2);
    diag = diagonalSlots(pattern);
  }
  for (const f of fams) compactScatter(f);
  t.pattern = pattern;
  t.diag = diag;
  assignFixedSlots(t);
  t.patternBuilds++;
}

/** The matrix slots of fixed DOFs (diagonal, and off the diagonal in their rows and columns), from the pattern and `fixed`. */
function assignFixedSlots(t: Topology): void {
  const { ndof, fixed, dense, pattern } = t;
  const offDiag: number[] = [];
  const fixedDiag: number[] = [];
  if (dense) {
    for (let i = 0; i < ndof; i++) {
      for (let j = 0; j < ndof; j++) {
        if (i === j) {
          if (fixed[i >> 1] === 1) fixedDiag.push(t.diag[i]!);
        } else if (fixed[i >> 1] === 1 || fixed[j >> 1] === 1) {
          offDiag.push(i * ndof + j);
        }
      }
    }
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

  t.fixedOffDiagSlots = Int32Array.from(offDiag);
  t.fixedDiagSlots = Int32Array.from(fixedDiag);
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

/** The family's compact scatter map (scatterStart, scatterLocal, scatterSlot) from its scatter map. */
function compactScatter(f: ElementFamily): void {
  const mm = 4 * f.k * f.k, map = f.scatter;
  let total = 0;
  for (let q = 0; q < f.count * mm; q++) if (map[q]! >= 0) total++;
  const start = new Int32Array(f.count + 1), local = new Int32Array(total), slot = new Int32Array(total);
  let w = 0;
  for (let e = 0; e < f.count; e++) {
    start[e] = w;
    for (let r = 0; r < mm; r++) {
      const sl = map[e * mm + r]!;
      if (sl < 0) continue;
      local[w] = r;
      slot[w] = sl;
      w++;
    }
  }
  start[f.count] = w;
  f.scatterStart = start;
  f.scatterLocal = local;
  f.scatterSlot = slot;
}

/**
 * Add scale·h (element e's local Hessian) into values through the family's scatter map: the
 * entries of its lower triangle in ascending local order, as the full map's loop added them.
 */
export function scatter(values: Float64Array, f: ElementFamily, e: number, h: Float64Array, scale: number): void {
  const local = f.scatterLocal, slots = f.scatterSlot;
  for (let q = f.scatterStart[e]!, end = f.scatterStart[e + 1]!; q < end; q++) {
    const slot = slots[q]!;
    values[slot] = values[slot]! + scale * h[local[q]!]!;
  }
}

/**
 * Sleeping (src/systems/sleep.ts): make `fixed` = fixedSrc | frozen and refresh the fixed-DOF slot
 * lists (never the pattern or a symbolic factorization). Returns whether a flag changed; the caller
 * tells the Newton solver (refreshParams) and contact (ctx.paramsVersion). Transition rate: allocates.
 */
export function applyFrozen(t: Topology): boolean {
  let changed = false;
  for (let i = 0; i < t.n; i++) {
    const eff = t.fixedSrc[i]! | t.frozen[i]!;
    if (eff !== t.fixed[i]) {
      t.fixed[i] = eff;
      changed = true;
    }
  }
  if (changed) assignFixedSlots(t);
  return changed;
}

// ---- components → topology: change detection and numeric refresh ------------------------------

/** `diffTopology` bits: which stores hold data that differs from the topology's copies. */
export const DIFF_PARTICLES = 1;
export const DIFF_SPRINGS = 2;
export const DIFF_HINGES = 4;
export const DIFF_TRIANGLES = 8;
export const DIFF_DAMPED_SPRINGS = 16;
export const DIFF_GRAVITATION = 32;
export const DIFF_VORTICES = 64;
export const DIFF_UNIFORM = 128;
export const DIFF_EDGES = 256;

/** `refreshTopology` result bits. */
/** Numeric data the solver reads changed (masses, fixed DOFs, element parameters, uniform forces). */
export const REFRESH_SOLVER = 1;
/** Data contact reads per topology changed (masses, fixed, radii, body ids): see StepContext.paramsVersion. */
export const REFRESH_CONTACT = 2;
/** An element now uses other particles, or the matrix became (non-)symmetric: rebuild the topology. */
export const REFRESH_STRUCTURE = 4;

/**
 * Which component stores differ from the topology's copies (DIFF_* bits; 0: none). Every step,
 * before the solve: allocation-free loop kernels over creation order, one per family, each
 * returning the first differing element (−1: none). Reads the stores' fields afresh (they grow).
 */
export function diffTopology(t: Topology, c: Components): number {
  const pe = t.particleEids;
  const P = c.Particle, S = c.ElasticSpring, H = c.Hinge, T = c.Triangle, D = c.DampedSpring;
  const G = c.Gravitation, V = c.Vortex, U = c.UniformForce, E = c.Edge;
  let mask = 0;
  if (diffParticles(t.n, pe, P.m, P.fixed, P.radius, P.body, t.pointMass, t.fixedSrc, t.radius, t.body) >= 0) mask |= DIFF_PARTICLES;
  const s = t.springs, h = t.hinges, tr = t.triangles, d = t.dampedSprings, g = t.gravitation, v = t.vortices, e = t.edges;
  if (diffFamily2x2(s.count, s.eids, s.nodes, pe, S.a, S.b, S.alpha, S.l0, s.params) >= 0) mask |= DIFF_SPRINGS;
  if (diffFamily3x3(h.count, h.eids, h.nodes, pe, H.a, H.b, H.c, H.alpha, H.theta0, H.ebSum, h.params) >= 0) mask |= DIFF_HINGES;
  if (diffTriangles(tr.count, tr.eids, tr.nodes, pe, T.a, T.b, T.c, T.youngsModulus, T.poissonRatio, T.area,
    T.b00, T.b01, T.b10, T.b11, T.material, T.density, tr.params, t.triMass) >= 0) mask |= DIFF_TRIANGLES;
  if (diffFamily2x3(d.count, d.eids, d.nodes, pe, D.a, D.b, D.k, D.l0, D.damping, d.params) >= 0) mask |= DIFF_DAMPED_SPRINGS;
  if (diffFamily2x1(g.count, g.eids, g.nodes, pe, G.a, G.b, G.G, g.params) >= 0) mask |= DIFF_GRAVITATION;
  if (diffFamily2x2(v.count, v.eids, v.nodes, pe, V.a, V.b, V.kbs, V.kvc, v.params) >= 0) mask |= DIFF_VORTICES;
  if (diffUniform(t.uniformCount, t.uniformEids, U.kind, U.fx, U.fy, U.b, t.uniformKind, t.uniform) >= 0) mask |= DIFF_UNIFORM;
  if (diffFamily2x1(e.count, e.eids, e.nodes, pe, E.a, E.b, E.radius, e.params) >= 0) mask |= DIFF_EDGES;
  return mask;
}

function diffParticles(
  n: number, pe: Int32Array, m: Float64Array, fixed: Uint8Array, radius: Float64Array, body: Int32Array,
  tm: Float64Array, tf: Uint8Array, tr: Float64Array, tb: Int32Array,
): number {
  for (let i = 0; i < n; i++) {
    const e = pe[i]!;
    if (m[e] !== tm[2 * i] || fixed[e] !== tf[i] || radius[e] !== tr[i] || body[e] !== tb[i]) return i;
  }
  return -1;
}

function diffFamily2x1(
  count: number, eids: Int32Array, nodes: Int32Array, pe: Int32Array, a: Int32Array, b: Int32Array,
  p0: Float64Array, q: Float64Array,
): number {
  for (let s = 0; s < count; s++) {
    const e = eids[s]!;
    if (pe[nodes[2 * s]!] !== a[e] || pe[nodes[2 * s + 1]!] !== b[e] || p0[e] !== q[s]) return s;
  }
  return -1;
}

function diffFamily2x2(
  count: number, eids: Int32Array, nodes: Int32Array, pe: Int32Array, a: Int32Array, b: Int32Array,
  p0: Float64Array, p1: Float64Array, q: Float64Array,
): number {
  for (let s = 0; s < count; s++) {
    const e = eids[s]!;
    if (pe[nodes[2 * s]!] !== a[e] || pe[nodes[2 * s + 1]!] !== b[e] || p0[e] !== q[2 * s] || p1[e] !== q[2 * s + 1]) return s;
  }
  return -1;
}

function diffFamily2x3(
  count: number, eids: Int32Array, nodes: Int32Array, pe: Int32Array, a: Int32Array, b: Int32Array,
  p0: Float64Array, p1: Float64Array, p2: Float64Array, q: Float64Array,
): number {
  for (let s = 0; s < count; s++) {
    const e = eids[s]!;
    if (pe[nodes[2 * s]!] !== a[e] || pe[nodes[2 * s + 1]!] !== b[e] ||
      p0[e] !== q[3 * s] || p1[e] !== q[3 * s + 1] || p2[e] !== q[3 * s + 2]) return s;
  }
  return -1;
}

function diffFamily3x3(
  count: number, eids: Int32Array, nodes: Int32Array, pe: Int32Array, a: Int32Array, b: Int32Array, c: Int32Array,
  p0: Float64Array, p1: Float64Array, p2: Float64Array, q: Float64Array,
): number {
  for (let s = 0; s < count; s++) {
    const e = eids[s]!;
    if (pe[nodes[3 * s]!] !== a[e] || pe[nodes[3 * s + 1]!] !== b[e] || pe[nodes[3 * s + 2]!] !== c[e] ||
      p0[e] !== q[3 * s] || p1[e] !== q[3 * s + 1] || p2[e] !== q[3 * s + 2]) return s;
  }
  return -1;
}

/**
 * Triangles: nodes, params E, nu, area, b00, b01, b10, b11, material (8 per triangle), and ρĀ
 * against triMass (a density edit changes it).
 */
function diffTriangles(
  count: number, eids: Int32Array, nodes: Int32Array, pe: Int32Array, a: Int32Array, b: Int32Array, c: Int32Array,
  E: Float64Array, nu: Float64Array, area: Float64Array, b00: Float64Array, b01: Float64Array, b10: Float64Array,
  b11: Float64Array, mat: Uint8Array, density: Float64Array, q: Float64Array, triMass: Float64Array,
): number {
  for (let s = 0; s < count; s++) {
    const e = eids[s]!, p = 8 * s;
    if (pe[nodes[3 * s]!] !== a[e] || pe[nodes[3 * s + 1]!] !== b[e] || pe[nodes[3 * s + 2]!] !== c[e] ||
      E[e] !== q[p] || nu[e] !== q[p + 1] || area[e] !== q[p + 2] || b00[e] !== q[p + 3] || b01[e] !== q[p + 4] ||
      b10[e] !== q[p + 5] || b11[e] !== q[p + 6] || mat[e] !== q[p + 7] || density[e]! * area[e]! !== triMass[s]) return s;
  }
  return -1;
}

function diffUniform(
  count: number, eids: Int32Array, kind: Uint8Array, fx: Float64Array, fy: Float64Array, b: Float64Array,
  tk: Uint8Array, q: Float64Array,
): number {
  for (let s = 0; s < count; s++) {
    const e = eids[s]!;
    if (kind[e] !== tk[s] || fx[e] !== q[3 * s] || fy[e] !== q[3 * s + 1] || b[e] !== q[3 * s + 2]) return s;
  }
  return -1;
}

/** Node and parameter fields of each element family, in the topology's parameter layout. */
const FAMILY_FIELDS: [number, keyof Topology, keyof Components, string[], string[]][] = [
  [DIFF_SPRINGS, 'springs', 'ElasticSpring', ['a', 'b'], ['alpha', 'l0']],
  [DIFF_HINGES, 'hinges', 'Hinge', ['a', 'b', 'c'], ['alpha', 'theta0', 'ebSum']],
  [DIFF_TRIANGLES, 'triangles', 'Triangle', ['a', 'b', 'c'], ['youngsModulus', 'poissonRatio', 'area', 'b00', 'b01', 'b10', 'b11', 'material']],
  [DIFF_DAMPED_SPRINGS, 'dampedSprings', 'DampedSpring', ['a', 'b'], ['k', 'l0', 'damping']],
  [DIFF_GRAVITATION, 'gravitation', 'Gravitation', ['a', 'b'], ['G']],
  [DIFF_VORTICES, 'vortices', 'Vortex', ['a', 'b'], ['kbs', 'kvc']],
  [DIFF_EDGES, 'edges', 'Edge', ['a', 'b'], ['radius']],
];

/**
 * Copy the stores flagged in `mask` (a diffTopology result; the caller has validated the data)
 * into the topology and refresh what is derived from them: lumped masses, the fixed-DOF slot
 * lists, element parameters, uniform forces. Never the pattern, scatter maps, ordering or a
 * symbolic factorization. Returns REFRESH_* bits; with REFRESH_STRUCTURE (an element's node
 * changed, or a damping edit changed the matrix's symmetry) nothing is guaranteed copied and the
 * caller rebuilds the topology. Runs only when something changed: may allocate.
 */
export function refreshTopology(t: Topology, c: Components, mask: number): number {
  const pe = t.particleEids;
  // node edits are topology changes: check them all before copying anything
  for (const [bit, name, store, nodeFields] of FAMILY_FIELDS) {
    if ((mask & bit) === 0) continue;
    const f = t[name] as ElementFamily, S = c[store] as unknown as Record<string, ArrayLike<number>>;
    for (let s = 0; s < f.count; s++) {
      for (let a = 0; a < f.k; a++) if (pe[f.nodes[f.k * s + a]!] !== S[nodeFields[a]!]![f.eids[s]!]) return REFRESH_STRUCTURE;
    }
  }
  let out = 0, massChanged = false, fixedChanged = false;
  if ((mask & DIFF_PARTICLES) !== 0) {
    const P = c.Particle;
    for (let i = 0; i < t.n; i++) {
      const e = pe[i]!;
      if (P.m[e] !== t.pointMass[2 * i]) massChanged = true;
      const eff = P.fixed[e]! | t.frozen[i]!;
      if (eff !== t.fixed[i]) fixedChanged = true;
      t.pointMass[2 * i] = t.pointMass[2 * i + 1] = P.m[e]!;
      t.fixedSrc[i] = P.fixed[e]!;
      t.fixed[i] = eff;
      t.radius[i] = P.radius[e]!;
      t.body[i] = P.body[e]!;
    }
    out |= REFRESH_CONTACT;
  }
  for (const [bit, name, store, , paramFields] of FAMILY_FIELDS) {
    if ((mask & bit) === 0) continue;
    const f = t[name] as ElementFamily, S = c[store] as unknown as Record<string, ArrayLike<number>>;
    for (let s = 0; s < f.count; s++) {
      for (let q = 0; q < f.p; q++) f.params[f.p * s + q] = S[paramFields[q]!]![f.eids[s]!]!;
    }
    out |= bit === DIFF_EDGES ? REFRESH_CONTACT : REFRESH_SOLVER;
  }
  if ((mask & DIFF_TRIANGLES) !== 0) {
    const T = c.Triangle, tr = t.triangles;
    for (let s = 0; s < tr.count; s++) {
      const m = T.density[tr.eids[s]!]! * T.area[tr.eids[s]!]!;
      if (m !== t.triMass[s]) massChanged = true;
      t.triMass[s] = m;
    }
  }
  if ((mask & DIFF_DAMPED_SPRINGS) !== 0 && needsDense(t.vortices, t.dampedSprings) !== t.dense) return REFRESH_STRUCTURE;
  if ((mask & DIFF_UNIFORM) !== 0) {
    const U = c.UniformForce;
    for (let s = 0; s < t.uniformCount; s++) {
      const e = t.uniformEids[s]!;
      t.uniformKind[s] = U.kind[e]!;
      t.uniform[3 * s] = U.fx[e]!;
      t.uniform[3 * s + 1] = U.fy[e]!;
      t.uniform[3 * s + 2] = U.b[e]!;
    }
    out |= REFRESH_SOLVER;
  }
  if (massChanged) {
    lumpMasses(t);
    out |= REFRESH_SOLVER | REFRESH_CONTACT;
  }
  if (fixedChanged) {
    assignFixedSlots(t);
    out |= REFRESH_SOLVER | REFRESH_CONTACT;
  }
  return out;
}
