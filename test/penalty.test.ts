/**
 * FOSSSim's penalty force: the kernels' gradients and Hessians against central differences
 * (particle–particle, particle–edge inside and beyond the edge's ends, particle–half-plane on both
 * sides), the Gauss–Newton variant is PSD, the term visits pairs in FOSSSim's order, and the
 * scene loader's attributes.
 */
import { describe, expect, it } from 'vitest';
import {
  peEnergy, peGradient, peHessian, phEnergy, phGradient, phHessian, ppEnergy, ppGradient, ppHessian,
} from '../src/elements/penalty';
import { PenaltyTerm } from '../src/collision/penalty';
import { parseSceneXml } from '../src/scene/xml';
import { buildScene } from '../src/scene/build';
import { fdGradient, fdJacobian, mulberry32, relErr } from './elements-helpers';

const k = 250;

function check(E: (x: Float64Array) => number, G: (x: Float64Array, g: Float64Array) => void, H: (x: Float64Array, h: Float64Array) => void, x: Float64Array) {
  const m = x.length;
  const g = new Float64Array(m);
  G(x, g);
  expect(E(x)).toBeGreaterThan(0); // active
  expect(relErr(g, fdGradient(E, x))).toBeLessThan(1e-6);
  const h = new Float64Array(m * m);
  H(x, h);
  expect(relErr(h, fdJacobian(G, m, x))).toBeLessThan(1e-6);
  for (let r = 0; r < m; r++) for (let c = 0; c < m; c++) expect(Math.abs(h[r * m + c]! - h[c * m + r]!)).toBeLessThan(1e-9 * k);
}

describe('penalty kernels', () => {
  const rnd = mulberry32(14);
  it('particle–particle: gradient and Hessian match central differences', () => {
    for (let t = 0; t < 20; t++) {
      const L = 0.5;
      const a = rnd() * 2 * Math.PI, d = 0.1 + 0.35 * rnd();
      const x = Float64Array.from([rnd(), rnd(), 0, 0]);
      x[2] = x[0]! + d * Math.cos(a);
      x[3] = x[1]! + d * Math.sin(a);
      check(
        (y) => ppEnergy(y[0]!, y[1]!, y[2]!, y[3]!, L, k),
        (y, g) => ppGradient(y[0]!, y[1]!, y[2]!, y[3]!, L, k, g, 0),
        (y, h) => ppHessian(y[0]!, y[1]!, y[2]!, y[3]!, L, k, false, h, 0),
        x,
      );
    }
  });

  it('particle–edge: inside the edge (α in (0, 1)) and beyond either end', () => {
    for (let t = 0; t < 30; t++) {
      const L = 0.3;
      const x2 = [rnd(), rnd()], ang = rnd() * 2 * Math.PI, len = 0.5 + rnd();
      const x3 = [x2[0]! + len * Math.cos(ang), x2[1]! + len * Math.sin(ang)];
      const al = t % 3 === 0 ? -0.2 : t % 3 === 1 ? 1.2 : 0.1 + 0.8 * rnd();
      const off = (0.05 + 0.2 * rnd()) * (rnd() < 0.5 ? -1 : 1);
      const px = x2[0]! + al * (x3[0]! - x2[0]!) - off * Math.sin(ang) * 0.9;
      const py = x2[1]! + al * (x3[1]! - x2[1]!) + off * Math.cos(ang) * 0.9;
      const x = Float64Array.from([px, py, x2[0]!, x2[1]!, x3[0]!, x3[1]!]);
      if (peEnergy(px, py, x2[0]!, x2[1]!, x3[0]!, x3[1]!, L, k) === 0) continue;
      check(
        (y) => peEnergy(y[0]!, y[1]!, y[2]!, y[3]!, y[4]!, y[5]!, L, k),
        (y, g) => peGradient(y[0]!, y[1]!, y[2]!, y[3]!, y[4]!, y[5]!, L, k, g, 0),
        (y, h) => peHessian(y[0]!, y[1]!, y[2]!, y[3]!, y[4]!, y[5]!, L, k, false, h, 0),
        x,
      );
    }
  });

  it('particle–half-plane: both sides of the boundary', () => {
    for (let t = 0; t < 10; t++) {
      const L = 0.2, a = rnd() * 2 * Math.PI, nx = Math.cos(a), ny = Math.sin(a);
      const s = (t % 2 === 0 ? 1 : -1) * (0.02 + 0.15 * rnd());
      const x = Float64Array.from([1 - s * nx + 0.3 * ny, 2 - s * ny - 0.3 * nx]);
      check(
        (y) => phEnergy(y[0]!, y[1]!, 1, 2, nx, ny, L, k),
        (y, g) => phGradient(y[0]!, y[1]!, 1, 2, nx, ny, L, k, g, 0),
        (y, h) => phHessian(y[0]!, y[1]!, 1, 2, nx, ny, L, k, h, 0),
        x,
      );
    }
  });

  it('zero outside R + thickness (strict) and the Gauss–Newton Hessian is PSD', () => {
    const g = new Float64Array(4);
    ppGradient(0, 0, 0.5, 0, 0.5, k, g, 0);
    expect([...g]).toEqual([0, 0, 0, 0]);
    expect(ppEnergy(0, 0, 0.5, 0, 0.5, k)).toBe(0);
    const h = new Float64Array(36);
    peHessian(0.3, 0.1, 0, 0, 1, 0, 0.3, k, true, h, 0);
    // PSD: vᵀHv ≥ 0 for random v
    for (let t = 0; t < 50; t++) {
      const v = Array.from({ length: 6 }, () => rnd() - 0.5);
      let q = 0;
      for (let r = 0; r < 6; r++) for (let c = 0; c < 6; c++) q += v[r]! * h[r * 6 + c]! * v[c]!;
      expect(q).toBeGreaterThanOrEqual(-1e-12);
    }
  });
});

describe('penalty term and scene', () => {
  it('<collision type="penalty"> defaults k = 100, thickness = 0.01; bad values are input errors', () => {
    const base = (c: string) => `<scene><duration time="1"/><integrator type="symplectic-euler" dt="0.01"/>${c}<particle m="1" px="0" py="0" vx="0" vy="0" fixed="0"/></scene>`;
    expect(parseSceneXml(base('<collision type="penalty"/>'), 's.xml').collision).toEqual({ type: 'penalty', k: 100, thickness: 0.01 });
    expect(parseSceneXml(base('<collision type="penalty" k="5" thickness="0.2"/>'), 's.xml').collision).toEqual({ type: 'penalty', k: 5, thickness: 0.2 });
    expect(() => parseSceneXml(base('<collision type="penalty" k="-1"/>'), 's.xml')).toThrow(/'k'/);
    expect(() => parseSceneXml(base('<collision type="penalty" friction="1"/>'), 's.xml')).toThrow(/friction/);
    expect(() => parseSceneXml(base('<collision type="hybrid"/>'), 's.xml')).toThrow(/not supported yet/);
  });

  it('the term gradient is the sum of its pairs and matches central differences of its energy', () => {
    const term = new PenaltyTerm({
      radius: Float64Array.from([0.2, 0.15, 0.1, 0.1]),
      edges: Int32Array.from([2, 3]),
      edgeRadius: Float64Array.from([0.05]),
      halfplanes: Float64Array.from([0, -0.1, 0, 1]),
    }, 300, 0.02);
    const x = Float64Array.from([0, 0.05, 0.3, 0.02, -0.5, 0.2, 0.5, 0.25]);
    const g = new Float64Array(8);
    term.gradient(x, g);
    expect(term.energy(x)).toBeGreaterThan(0);
    expect(relErr(g, fdGradient((y) => term.energy(y), x))).toBeLessThan(1e-6);
  });

  it('a penalty scene runs under every integrator; contact pushes the balls apart', () => {
    for (const it of ['explicit-euler', 'symplectic-euler', 'linearized-implicit-euler', 'implicit-euler', 'implicit-euler" maxiters="20']) {
      const xml = `<scene><duration time="1"/><integrator type="${it}" dt="0.002"/><collision type="penalty" k="2000"/>
        <particle m="1" px="-0.5" py="0" vx="1" vy="0" fixed="0" radius="0.2"/>
        <particle m="1" px="0.5" py="0" vx="-1" vy="0" fixed="0" radius="0.2"/></scene>`;
      const { world, steps } = buildScene(parseSceneXml(xml, "penalty.xml"));
      for (let s = 0; s < steps; s++) world.step();
      const v = world.readVelocities();
      expect(v[0]).toBeLessThan(0); // bounced back
      expect(v[2]).toBeGreaterThan(0);
    }
  });
});
