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
import type { Topology } from '../solver/topology';

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
  const tr = t.triangles;
  const use = new Map<number, number>();
  const key = (a: number, b: number): number => (a < b ? a * n + b : b * n + a);
  for (let e = 0; e < tr.count; e++) {
    for (let k = 0; k < 3; k++) {
      const a = tr.nodes[3 * e + k]!, b = tr.nodes[3 * e + ((k + 1) % 3)]!;
      const kk = key(a, b);
      use.set(kk, (use.get(kk) ?? 0) + 1);
    }
  }
  const ea: number[] = [], eb: number[] = [], one: number[] = [], rad: number[] = [], opp: number[] = [];
  const inMesh = new Uint8Array(n);
  const px = (i: number): number => P.x[t.particleEids[i]!]!;
  const py = (i: number): number => P.y[t.particleEids[i]!]!;
  for (let e = 0; e < tr.count; e++) {
    const A = tr.nodes[3 * e]!, B = tr.nodes[3 * e + 1]!, C = tr.nodes[3 * e + 2]!;
    inMesh[A] = inMesh[B] = inMesh[C] = 1;
    const ccw = (px(B) - px(A)) * (py(C) - py(A)) - (py(B) - py(A)) * (px(C) - px(A)) > 0;
    for (let k = 0; k < 3; k++) {
      let a = tr.nodes[3 * e + k]!, b = tr.nodes[3 * e + ((k + 1) % 3)]!;
      if (use.get(key(a, b)) !== 1) continue;
      if (!ccw) [a, b] = [b, a];
      ea.push(a);
      eb.push(b);
      one.push(1);
      rad.push(0);
      opp.push(tr.nodes[3 * e + ((k + 2) % 3)]!);
    }
  }
  // Rod edges (ctx.lists.edges) not on a triangle: two-sided, with their radius.
  const E = ctx.c.Edge;
  const dense = new Map<number, number>();
  for (let i = 0; i < n; i++) dense.set(t.particleEids[i]!, i);
  for (const e of ctx.lists.edges) {
    const a = dense.get(E.a[e]!), b = dense.get(E.b[e]!);
    if (a === undefined || b === undefined || use.has(key(a, b))) continue;
    ea.push(a);
    eb.push(b);
    one.push(0);
    rad.push(E.radius[e]!);
    opp.push(-1);
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
  for (let k = 0; k < ea.length; k++) {
    onBoundary[ea[k]!] = onBoundary[eb[k]!] = 1;
    for (const [u, w] of [[ea[k]!, eb[k]!], [eb[k]!, ea[k]!]] as const) {
      if (nbA[u] === -1) nbA[u] = w;
      else if (nbB[u] === -1) nbB[u] = w;
    }
  }
  for (let i = 0; i < n; i++) surface[i] = inMesh[i] === 1 && onBoundary[i] === 0 ? 0 : 1;
  let sum = 0;
  for (let k = 0; k < ea.length; k++) {
    sum += Math.sqrt((px(eb[k]!) - px(ea[k]!)) ** 2 + (py(eb[k]!) - py(ea[k]!)) ** 2);
    if (rad[k]! > maxR) maxR = rad[k]!;
  }
  let minR = Infinity;
  for (let i = 0; i < n; i++) if (radius[i]! < minR) minR = radius[i]!;
  return new ContactBoundary(
    t, invMass, radius, bodyOf, eidOf, surface, nbA, nbB, Int32Array.from(ea), Int32Array.from(eb),
    Uint8Array.from(one), Int32Array.from(opp), Float64Array.from(rad),
    savedMean >= 0 ? savedMean : ea.length > 0 ? sum / ea.length : 0, maxR, n > 0 ? minR : 0,
  );
}
