/**
 * FOSSSim's PenaltyForce (`<collision type="penalty" k thickness>`) as a force term of the
 * ForceModel (its `penalty` slot, evaluated after every other force): pairs are found at each
 * evaluation, in FOSSSim's order — for each particle i: particles j > i, then edges not containing
 * i, then half-planes — and each pair with ‖n‖ < R + thickness adds ½ k (‖n‖ − R − thickness)²
 * (kernels in src/elements/penalty.ts). The same term works with every integrator: gradient for
 * explicit and symplectic Euler, exact Hessian for FOSSSim's implicit Euler, Gauss–Newton Hessian
 * for game-mode Newton. Any pair can touch, so on a sparse topology `attach` adds every possible
 * node pair to the pattern once (a dense block: meant for FOSSSim-sized scenes).
 */
import { addContactPairs, type Topology } from '../solver/topology';
import { findSlot } from '../solver/pattern';
import {
  peEnergy, peGradient, peHessian, phEnergy, phGradient, phHessian, ppEnergy, ppGradient, ppHessian,
} from '../elements/penalty';

export interface PenaltyGeometry {
  /** Radius per particle (dense = file order). */
  radius: Float64Array;
  /** Edge ends (2 per edge, dense particle indices) and radii. */
  edges: Int32Array;
  edgeRadius: Float64Array;
  /** Half-planes: point and unit normal, 4 per half-plane (px, py, nx, ny). */
  halfplanes: Float64Array;
}

export class PenaltyTerm {
  private t: Topology | null = null;
  private readonly g = new Float64Array(6);
  private readonly h = new Float64Array(36);
  private readonly nodes = new Int32Array(3);

  readonly geo: PenaltyGeometry;
  readonly k: number;
  readonly thickness: number;

  constructor(geo: PenaltyGeometry, k = 100, thickness = 0.01) {
    this.geo = geo;
    this.k = k;
    this.thickness = thickness;
  }

  /** Bind to a (new) topology: on a sparse pattern, add every node pair a penalty pair can couple. Returns this. */
  attach(t: Topology): this {
    this.t = t;
    if (t.dense) return this;
    const n = t.n, E = this.geo.edges, nE = E.length / 2;
    const pairs: number[] = [];
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) pairs.push(i, j);
    for (let q = 0; q < nE; q++) pairs.push(E[2 * q]!, E[2 * q + 1]!);
    if (pairs.length > 0) addContactPairs(t, Int32Array.from(pairs), pairs.length / 2);
    return this;
  }

  private get n(): number {
    return this.geo.radius.length;
  }

  energyTo(x: Float64Array, out: Float64Array): void {
    const { radius, edges, edgeRadius, halfplanes } = this.geo;
    const k = this.k, T = this.thickness, n = this.n, nE = edgeRadius.length, nH = halfplanes.length / 4;
    let E = 0;
    for (let i = 0; i < n; i++) {
      const xi = x[2 * i]!, yi = x[2 * i + 1]!, ri = radius[i]!;
      for (let j = i + 1; j < n; j++) E += ppEnergy(xi, yi, x[2 * j]!, x[2 * j + 1]!, ri + radius[j]! + T, k);
      for (let q = 0; q < nE; q++) {
        const a = edges[2 * q]!, b = edges[2 * q + 1]!;
        if (a === i || b === i) continue;
        E += peEnergy(xi, yi, x[2 * a]!, x[2 * a + 1]!, x[2 * b]!, x[2 * b + 1]!, ri + edgeRadius[q]! + T, k);
      }
      for (let p = 0; p < nH; p++) {
        E += phEnergy(xi, yi, halfplanes[4 * p]!, halfplanes[4 * p + 1]!, halfplanes[4 * p + 2]!, halfplanes[4 * p + 3]!, ri + T, k);
      }
    }
    out[0] = E;
  }

  energy(x: Float64Array): number {
    const out = new Float64Array(1);
    this.energyTo(x, out);
    return out[0]!;
  }

  /** gU += dE/dx, pairs in FOSSSim's order. */
  gradient(x: Float64Array, gU: Float64Array): void {
    const { radius, edges, edgeRadius, halfplanes } = this.geo;
    const k = this.k, T = this.thickness, n = this.n, nE = edgeRadius.length, nH = halfplanes.length / 4;
    const g = this.g;
    for (let i = 0; i < n; i++) {
      const xi = x[2 * i]!, yi = x[2 * i + 1]!, ri = radius[i]!;
      for (let j = i + 1; j < n; j++) {
        ppGradient(xi, yi, x[2 * j]!, x[2 * j + 1]!, ri + radius[j]! + T, k, g, 0);
        if (g[0] === 0 && g[1] === 0) continue;
        gU[2 * i] = gU[2 * i]! + g[0]!;
        gU[2 * i + 1] = gU[2 * i + 1]! + g[1]!;
        gU[2 * j] = gU[2 * j]! + g[2]!;
        gU[2 * j + 1] = gU[2 * j + 1]! + g[3]!;
      }
      for (let q = 0; q < nE; q++) {
        const a = edges[2 * q]!, b = edges[2 * q + 1]!;
        if (a === i || b === i) continue;
        peGradient(xi, yi, x[2 * a]!, x[2 * a + 1]!, x[2 * b]!, x[2 * b + 1]!, ri + edgeRadius[q]! + T, k, g, 0);
        if (g[0] === 0 && g[1] === 0) continue;
        gU[2 * i] = gU[2 * i]! + g[0]!;
        gU[2 * i + 1] = gU[2 * i + 1]! + g[1]!;
        gU[2 * a] = gU[2 * a]! + g[2]!;
        gU[2 * a + 1] = gU[2 * a + 1]! + g[3]!;
        gU[2 * b] = gU[2 * b]! + g[4]!;
        gU[2 * b + 1] = gU[2 * b + 1]! + g[5]!;
      }
      for (let p = 0; p < nH; p++) {
        phGradient(xi, yi, halfplanes[4 * p]!, halfplanes[4 * p + 1]!, halfplanes[4 * p + 2]!, halfplanes[4 * p + 3]!, ri + T, k, g, 0);
        gU[2 * i] = gU[2 * i]! + g[0]!;
        gU[2 * i + 1] = gU[2 * i + 1]! + g[1]!;
      }
    }
  }

  /** values += scale · (exact Hessian of every active pair). */
  hessian(x: Float64Array, scale: number, values: Float64Array): void {
    this.assemble(x, scale, values, false);
  }

  /** values += scale · (Gauss–Newton Hessian k wwᵀ of every active pair: PSD, for game-mode Newton). */
  hessianPSD(x: Float64Array, scale: number, values: Float64Array): void {
    this.assemble(x, scale, values, true);
  }

  private assemble(x: Float64Array, scale: number, values: Float64Array, gn: boolean): void {
    const { radius, edges, edgeRadius, halfplanes } = this.geo;
    const k = this.k, T = this.thickness, n = this.n, nE = edgeRadius.length, nH = halfplanes.length / 4;
    const h = this.h, nodes = this.nodes;
    for (let i = 0; i < n; i++) {
      const xi = x[2 * i]!, yi = x[2 * i + 1]!, ri = radius[i]!;
      nodes[0] = i;
      for (let j = i + 1; j < n; j++) {
        ppHessian(xi, yi, x[2 * j]!, x[2 * j + 1]!, ri + radius[j]! + T, k, gn, h, 0);
        nodes[1] = j;
        this.scatter(values, nodes, 2, h, scale);
      }
      for (let q = 0; q < nE; q++) {
        const a = edges[2 * q]!, b = edges[2 * q + 1]!;
        if (a === i || b === i) continue;
        peHessian(xi, yi, x[2 * a]!, x[2 * a + 1]!, x[2 * b]!, x[2 * b + 1]!, ri + edgeRadius[q]! + T, k, gn, h, 0);
        nodes[1] = a;
        nodes[2] = b;
        this.scatter(values, nodes, 3, h, scale);
      }
      for (let p = 0; p < nH; p++) {
        phHessian(xi, yi, halfplanes[4 * p]!, halfplanes[4 * p + 1]!, halfplanes[4 * p + 2]!, halfplanes[4 * p + 3]!, ri + T, k, h, 0);
        this.scatter(values, nodes, 1, h, scale);
      }
    }
  }

  /** values += scale · h (m = 2·count local DOFs, row-major) at the topology's slots (dense: full; sparse: lower triangle). */
  private scatter(values: Float64Array, nodes: Int32Array, count: number, h: Float64Array, scale: number): void {
    const t = this.t!;
    const m = 2 * count, ndof = t.ndof;
    for (let r = 0; r < m; r++) {
      const R = 2 * nodes[r >> 1]! + (r & 1);
      for (let c = 0; c < m; c++) {
        const C = 2 * nodes[c >> 1]! + (c & 1);
        const v = h[r * m + c]!;
        if (v === 0) continue;
        if (t.dense) values[R * ndof + C] = values[R * ndof + C]! + scale * v;
        else if (R >= C) {
          const s = findSlot(t.pattern, R, C);
          values[s] = values[s]! + scale * v;
        }
      }
    }
  }
}
