/**
 * Contact boundary of a topology (game mode): what contact needs to know about the particles and
 * their surfaces, rebuilt when the topology changes (setup rate: allocates). Per particle: inverse
 * mass, radius, body id, entity id, whether it is on a surface (interior mesh nodes take no part in
 * body–body contact) and its neighbours along the boundary. Per boundary edge (item numbers
 * [0, nE) of the broad phase): its end nodes, one-sidedness (mesh boundary: body on its left) and
 * the third node of its triangle, or a rod edge's radius. The candidate search, the post-solve
 * response and the events read it; nothing writes it after `buildBoundary`.
 */
import type { StepContext } from '../solver/context';
import { particleIndexOf, type Topology } from '../solver/topology';

export class ContactBoundary {
  /** The topology this was built for. */
  readonly topology: Topology | null;
  readonly n: number;
  readonly invMass: Float64Array;
  readonly radius: Float64Array;
  readonly bodyOf: Int32Array;
  readonly eidOf: Int32Array;
  /** Particle takes part in body–body contact (not interior to a triangle mesh). */
  readonly surface: Uint8Array;
  /** The other endpoints of the (up to two) boundary edges at each particle, −1 if none. */
  readonly nbA: Int32Array;
  readonly nbB: Int32Array;
  /** Boundary edges (mesh boundary edges, then rod edges): nodes a → b. */
  readonly nE: number;
  readonly ea: Int32Array;
  readonly eb: Int32Array;
  readonly eOneSided: Uint8Array;
  /** Per mesh boundary edge: the third node of its triangle (−1: a rod edge). */
  readonly eOpp: Int32Array;
  /** Per edge: its radius (0 on a mesh boundary). */
  readonly eRad: Float64Array;
  readonly meanEdge: number;
  /** Largest and smallest particle or edge radius (refreshed with the particles' data). */
  maxRadius: number;
  minRadius: number;

  constructor(
    topology: Topology | null, invMass: Float64Array, radius: Float64Array, bodyOf: Int32Array, eidOf: Int32Array,
    surface: Uint8Array, nbA: Int32Array, nbB: Int32Array, ea: Int32Array, eb: Int32Array, eOneSided: Uint8Array,
    eOpp: Int32Array, eRad: Float64Array, meanEdge: number, maxRadius: number, minRadius: number,
  ) {
    this.topology = topology;
    this.n = invMass.length;
    this.invMass = invMass;
    this.radius = radius;
    this.bodyOf = bodyOf;
    this.eidOf = eidOf;
    this.surface = surface;
    this.nbA = nbA;
    this.nbB = nbB;
    this.nE = ea.length;
    this.ea = ea;
    this.eb = eb;
    this.eOneSided = eOneSided;
    this.eOpp = eOpp;
    this.eRad = eRad;
    this.meanEdge = meanEdge;
    this.maxRadius = maxRadius;
    this.minRadius = minRadius;
  }

  /**
   * Particle data edited in the components since the build (ctx.paramsVersion: masses, `fixed`,
   * radii, body ids): refresh it in place. The edges and their orientation stay as built.
   */
  refreshParticles(ctx: StepContext): void {
    const t = ctx.topology, P = ctx.c.Particle;
    let maxR = 0, minR = Infinity;
    for (let i = 0; i < this.n; i++) {
      const e = t.particleEids[i]!, m = t.mass[2 * i]!;
      this.invMass[i] = t.fixed[i] === 1 || !(m > 0) ? 0 : 1 / m;
      this.radius[i] = P.radius[e]!;
      this.bodyOf[i] = P.body[e]!;
      if (this.radius[i]! > maxR) maxR = this.radius[i]!;
      if (this.radius[i]! < minR) minR = this.radius[i]!;
    }
    for (let k = 0; k < this.nE; k++) if (this.eRad[k]! > maxR) maxR = this.eRad[k]!;
    this.maxRadius = maxR;
    this.minRadius = this.n > 0 ? minR : 0;
  }

  /** Edge (a, b) is particle i's own boundary edge or one next to it (no self contact there). */
  adjacent(i: number, a: number, b: number): boolean {
    if (a === i || b === i) return true;
    const p = this.nbA[i]!, q = this.nbB[i]!;
    return a === p || b === p || a === q || b === q;
  }

  /** Contact actor of a particle: its body id, or a unique negative id when it has none. */
  actor(i: number): number {
    const b = this.bodyOf[i]!;
    return b > 0 ? b : -(i + 1);
  }
}

/** The boundary of no topology (before the first step). */
export function emptyBoundary(): ContactBoundary {
  const f = new Float64Array(0), i = new Int32Array(0), u = new Uint8Array(0);
  return new ContactBoundary(null, f, f, i, i, u, i, i, i, i, u, i, f, 0, 0, 0);
}

/**
 * How a boundary was oriented when it was built (positions at that time): the mesh and rod edges'
 * end nodes and the mean edge length. A snapshot keeps it, so a restored world's boundary is the one
 * the original world built, whatever the positions at the restore.
 */
export interface BoundaryOrientation {
  ea: Int32Array;
  eb: Int32Array;
  meanEdge: number;
}

/**
 * The contact boundary of ctx.topology (positions from the components, for orientation and edge
 * lengths), or with a saved orientation (snapshots) when its edges match.
 */
export function buildBoundary(ctx: StepContext, saved: BoundaryOrientation | null = null): ContactBoundary {
  const t = ctx.topology;
  const n = t.n;
  const P = ctx.c.Particle;
  const invMass = new Float64Array(n);
  const radius = new Float64Array(n);
  const bodyOf = new Int32Array(n);
  const eidOf = Int32Array.from(t.particleEids);
  const surface = new Uint8Array(n).fill(1);
  const nbA = new Int32Array(n).fill(-1);
  const nbB = new Int32Array(n).fill(-1);
  let maxR = 0;
  for (let i = 0; i < n; i++) {
    const e = t.particleEids[i]!;
    const m = t.mass[2 * i]!;
    invMass[i] = t.fixed[i] === 1 || !(m > 0) ? 0 : 1 / m;
    radius[i] = P.radius[e]!;
    bodyOf[i] = P.body[e]!;
    if (radius[i]! > maxR) maxR = radius[i]!;
  }
  // Boundary edges of triangle meshes: edges used by exactly one triangle, oriented with the body on their left.
  // Typed arrays, no map (it runs at every topology change, the first time in the interpreter: a spawn's step).
  const tr = t.triangles, tn = tr.nodes, nt = tr.count;
  const edgeList = triangleEdgesByNode(n, tn, nt);
  const inMesh = new Uint8Array(n);
  const P_x = P.x, P_y = P.y, pe = t.particleEids;
  // per triangle side (3e + k): 1 when on the boundary; the boundary edges are then laid out in the same order
  const side = new Uint8Array(3 * nt);
  let nMesh = 0;
  for (let e = 0; e < nt; e++) {
    for (let k = 0; k < 3; k++) {
      const a = tn[3 * e + k]!, b = tn[3 * e + ((k + 1) % 3)]!;
      if (edgeUses(edgeList, a, b) === 1) {
        side[3 * e + k] = 1;
        nMesh++;
      }
    }
  }
  // Rod edges (ctx.lists.edges) not on a triangle: two-sided, with their radius.
  const E = ctx.c.Edge, rods = ctx.lists.edges, pi = t.particleIndex;
  const dense = (eid: number): number => particleIndexOf(pi, eid);
  let nRod = 0;
  for (const e of rods) {
    const a = dense(E.a[e]!), b = dense(E.b[e]!);
    if (a >= 0 && b >= 0 && edgeUses(edgeList, a, b) === 0) nRod++;
  }
  const nB = nMesh + nRod;
  const ea = new Int32Array(nB), eb = new Int32Array(nB), one = new Uint8Array(nB), rad = new Float64Array(nB), opp = new Int32Array(nB);
  let m = 0;
  for (let e = 0; e < nt; e++) {
    const A = tn[3 * e]!, B = tn[3 * e + 1]!, C = tn[3 * e + 2]!;
    inMesh[A] = inMesh[B] = inMesh[C] = 1;
    if (side[3 * e]! + side[3 * e + 1]! + side[3 * e + 2]! === 0) continue;
    const ax = P_x[pe[A]!]!, ay = P_y[pe[A]!]!;
    const ccw = (P_x[pe[B]!]! - ax) * (P_y[pe[C]!]! - ay) - (P_y[pe[B]!]! - ay) * (P_x[pe[C]!]! - ax) > 0;
    for (let k = 0; k < 3; k++) {
      if (side[3 * e + k] === 0) continue;
      const a = tn[3 * e + k]!, b = tn[3 * e + ((k + 1) % 3)]!;
      ea[m] = ccw ? a : b;
      eb[m] = ccw ? b : a;
      one[m] = 1;
      opp[m] = tn[3 * e + ((k + 2) % 3)]!;
      m++;
    }
  }
  for (const e of rods) {
    const a = dense(E.a[e]!), b = dense(E.b[e]!);
    if (a < 0 || b < 0 || edgeUses(edgeList, a, b) !== 0) continue;
    ea[m] = a;
    eb[m] = b;
    rad[m] = E.radius[e]!;
    opp[m] = -1;
    m++;
  }
  let savedMean = -1;
  if (saved && saved.ea.length === ea.length && saved.eb.length === ea.length) {
    let same = true;
    for (let k = 0; k < ea.length && same; k++) {
      const a = saved.ea[k]!, b = saved.eb[k]!;
      same = (a === ea[k] && b === eb[k]) || (a === eb[k] && b === ea[k]);
    }
    if (same) {
      for (let k = 0; k < ea.length; k++) {
        ea[k] = saved.ea[k]!;
        eb[k] = saved.eb[k]!;
      }
      savedMean = saved.meanEdge;
    }
  }
  // Interior mesh nodes do not take part in body–body contact.
  const onBoundary = new Uint8Array(n);
  for (let k = 0; k < nB; k++) {
    const a = ea[k]!, b = eb[k]!;
    onBoundary[a] = onBoundary[b] = 1;
    if (nbA[a] === -1) nbA[a] = b;
    else if (nbB[a] === -1) nbB[a] = b;
    if (nbA[b] === -1) nbA[b] = a;
    else if (nbB[b] === -1) nbB[b] = a;
  }
  for (let i = 0; i < n; i++) surface[i] = inMesh[i] === 1 && onBoundary[i] === 0 ? 0 : 1;
  let sum = 0;
  for (let k = 0; k < nB; k++) {
    const dx = P_x[pe[eb[k]!]!]! - P_x[pe[ea[k]!]!]!, dy = P_y[pe[eb[k]!]!]! - P_y[pe[ea[k]!]!]!;
    sum += Math.sqrt(dx * dx + dy * dy);
    if (rad[k]! > maxR) maxR = rad[k]!;
  }
  let minR = Infinity;
  for (let i = 0; i < n; i++) if (radius[i]! < minR) minR = radius[i]!;
  return new ContactBoundary(
    t, invMass, radius, bodyOf, eidOf, surface, nbA, nbB, ea, eb, one, opp, rad,
    savedMean >= 0 ? savedMean : nB > 0 ? sum / nB : 0, maxR, n > 0 ? minR : 0,
  );
}

/**
 * The triangles' sides grouped by their lower node (CSR: sides of node a at [start[a], start[a + 1]) of `hi`,
 * each side once per triangle that has it), for edgeUses.
 */
function triangleEdgesByNode(n: number, tn: Int32Array, nt: number): { start: Int32Array; hi: Int32Array } {
  const start = new Int32Array(n + 1);
  for (let q = 0; q < 3 * nt; q++) {
    const e = (q / 3) | 0, k = q - 3 * e;
    const a = tn[q]!, b = tn[3 * e + ((k + 1) % 3)]!;
    start[(a < b ? a : b) + 1]++;
  }
  for (let i = 0; i < n; i++) start[i + 1] += start[i]!;
  const fill = start.slice(0, n);
  const hi = new Int32Array(3 * nt);
  for (let q = 0; q < 3 * nt; q++) {
    const e = (q / 3) | 0, k = q - 3 * e;
    const a = tn[q]!, b = tn[3 * e + ((k + 1) % 3)]!;
    hi[fill[a < b ? a : b]!++] = a < b ? b : a;
  }
  return { start, hi };
}

/** How many triangles have the side (a, b). */
function edgeUses(list: { start: Int32Array; hi: Int32Array }, a: number, b: number): number {
  const lo = a < b ? a : b, h = a < b ? b : a;
  let c = 0;
  for (let q = list.start[lo]!; q < list.start[lo + 1]!; q++) if (list.hi[q] === h) c++;
  return c;
}
