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
import { buildPattern, buildScatter, diagonalSlots, type SymPattern } from '../solver/pattern';

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
   * M = diag(pointMass) + Σ_triangles ρĀ/12 (1 + δab) I₂ blocks (see src/systems/mass.ts).
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
}

/** Creation-ordered entity ids per component, maintained by the world. */
export interface EntityLists {
  particles: number[];
  springs: number[];
  hinges: number[];
  triangles: number[];
  dampedSprings: number[];
  gravitation: number[];
  vortices: number[];
  uniform: number[];
}

function family(count: number, k: number, p: number): ElementFamily {
  return { count, k, p, nodes: new Int32Array(count * k), params: new Float64Array(count * p), scatter: new Int32Array(0) };
}

export interface TopologyOptions {
  /** Mass matrix of triangles with a density (default 'lumped'). */
  massMatrix?: 'lumped' | 'consistent';
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

  const S = c.ElasticSpring;
  const springs = family(lists.springs.length, 2, 2);
  lists.springs.forEach((e, s) => {
    springs.nodes[2 * s] = idx(S.a[e]!);
    springs.nodes[2 * s + 1] = idx(S.b[e]!);
    springs.params[2 * s] = S.alpha[e]!;
    springs.params[2 * s + 1] = S.l0[e]!;
  });

  const H = c.Hinge;
  const hinges = family(lists.hinges.length, 3, 3);
  lists.hinges.forEach((e, s) => {
    hinges.nodes[3 * s] = idx(H.a[e]!);
    hinges.nodes[3 * s + 1] = idx(H.b[e]!);
    hinges.nodes[3 * s + 2] = idx(H.c[e]!);
    hinges.params.set([H.alpha[e]!, H.theta0[e]!, H.ebSum[e]!], 3 * s);
  });

  const T = c.Triangle;
  const triangles = family(lists.triangles.length, 3, 8);
  const triMass = new Float64Array(lists.triangles.length);
  lists.triangles.forEach((e, s) => {
    triangles.nodes[3 * s] = idx(T.a[e]!);
    triangles.nodes[3 * s + 1] = idx(T.b[e]!);
    triangles.nodes[3 * s + 2] = idx(T.c[e]!);
    triangles.params.set(
      [T.youngsModulus[e]!, T.poissonRatio[e]!, T.area[e]!, T.b00[e]!, T.b01[e]!, T.b10[e]!, T.b11[e]!, T.material[e]!],
      8 * s,
    );
    // Lumped mass from density: each vertex gets ρA/3.
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

  const D = c.DampedSpring;
  const dampedSprings = family(lists.dampedSprings.length, 2, 3);
  lists.dampedSprings.forEach((e, s) => {
    dampedSprings.nodes[2 * s] = idx(D.a[e]!);
    dampedSprings.nodes[2 * s + 1] = idx(D.b[e]!);
    dampedSprings.params.set([D.k[e]!, D.l0[e]!, D.damping[e]!], 3 * s);
  });

  const G = c.Gravitation;
  const gravitation = family(lists.gravitation.length, 2, 1);
  lists.gravitation.forEach((e, s) => {
    gravitation.nodes[2 * s] = idx(G.a[e]!);
    gravitation.nodes[2 * s + 1] = idx(G.b[e]!);
    gravitation.params[s] = G.G[e]!;
  });

  const V = c.Vortex;
  const vortices = family(lists.vortices.length, 2, 2);
  lists.vortices.forEach((e, s) => {
    vortices.nodes[2 * s] = idx(V.a[e]!);
    vortices.nodes[2 * s + 1] = idx(V.b[e]!);
    vortices.params[2 * s] = V.kbs[e]!;
    vortices.params[2 * s + 1] = V.kvc[e]!;
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

  const fams = [springs, hinges, triangles, dampedSprings, gravitation, vortices];
  const pattern = buildPattern(n, 2, fams.map((f) => ({ nodes: f.nodes, k: f.k })));
  let dense = vortices.count > 0;
  for (let e = 0; e < dampedSprings.count; e++) if (dampedSprings.params[3 * e + 2] !== 0) dense = true;

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

  return {
    n, ndof, particleEids, mass, fixed,
    massMatrix: opts.massMatrix ?? 'lumped', pointMass, triMass,
    springs, hinges, triangles, dampedSprings, gravitation, vortices,
    uniformCount, uniformKind, uniform,
    pattern, dense, diag,
    fixedOffDiagSlots: Int32Array.from(offDiag),
    fixedDiagSlots: Int32Array.from(fixedDiag),
  };
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
