/** Materials, density and the mass matrix: XML parsing, API, topology and mass-matrix helpers. */
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors';
import { parseSceneXml } from '../src/scene/xml';
import { buildScene } from '../src/scene/build';
import { PhysicsWorld } from '../src/world';
import { MAT_COROTATIONAL, MAT_FOSSSIM, MAT_NEOHOOKEAN, MAT_STVK } from '../src/elements';
import { addMassMatrix, massMatVec } from '../src/solver/mass';
import { mulberry32 } from './elements-helpers';

const HEAD = '<duration time="1"/><integrator type="implicit-euler" dt="0.01"/>';
const tri = (m: string, extra = '') => `<scene>${HEAD}
<particle m="${m}" px="0" py="0" vx="0" vy="0" fixed="0"/>
<particle m="${m}" px="1" py="0" vx="0" vy="0" fixed="0"/>
<particle m="${m}" px="0" py="1" vx="0" vy="0" fixed="0"/>
<elasticbodycstforce i1="0" i2="1" i3="2" youngsmodulus="100" poissonratio="0.3" ${extra}/>
</scene>`;

function errorOf(text: string): string {
  try {
    parseSceneXml(text, 'bad.xml');
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return (e as Error).message;
  }
  throw new Error('expected an InputError');
}

describe('XML: material, density, massmatrix', () => {
  it('reads material and density; absent means fosssim / 0 (and the description is unchanged)', () => {
    const plain = parseSceneXml(tri('1'), 'a.xml').forces[0]!;
    expect(plain).not.toHaveProperty('material');
    expect(plain).not.toHaveProperty('density');
    for (const m of ['fosssim', 'stvk', 'neohookean', 'corotational']) {
      const f = parseSceneXml(tri('1', `material="${m}" density="2.5"`), 'a.xml').forces[0]!;
      expect(f).toMatchObject({ type: 'elasticbodycstforce', material: m, density: 2.5 });
    }
  });

  it('rejects unknown materials and negative densities, naming tag, attribute and line', () => {
    expect(errorOf(tri('1', 'material="rubber"'))).toBe(
      `bad.xml: <elasticbodycstforce> #0: attribute 'material': expected fosssim, stvk, neohookean, corotational, got "rubber" (line 5)`,
    );
    expect(errorOf(tri('1', 'density="-1"'))).toMatch(/<elasticbodycstforce> #0: attribute 'density': expected 0 or a number in \[1e-30, 1e13\], got "-1"/);
  });

  it('massmatrix: lumped | consistent, default absent; anything else is an error', () => {
    expect(parseSceneXml(tri('1'), 'a.xml').massmatrix).toBeUndefined();
    const s = tri('1').replace('<particle', '<massmatrix type="consistent"/>\n<particle');
    expect(parseSceneXml(s, 'a.xml').massmatrix).toBe('consistent');
    expect(errorOf(tri('1').replace('<particle', '<massmatrix type="diagonal"/>\n<particle'))).toMatch(
      /<massmatrix> #0: attribute 'type': expected 'lumped' or 'consistent', got "diagonal"/,
    );
  });

  it('free particles may have m=0 only when a triangle with density gives them mass', () => {
    expect(errorOf(tri('0'))).toMatch(/<particle> #0: attribute 'm': a free particle has m="0" but no <elasticbodycstforce> with density > 0/);
    expect(errorOf(tri('0', 'density="0"'))).toMatch(/<particle> #0/);
    const d = parseSceneXml(tri('0', 'density="3" material="neohookean"'), 'ok.xml');
    const { world } = buildScene(d);
    const t = world.topology();
    // lumped: each vertex gets ρĀ/3 = 3 · 0.5 / 3
    for (let i = 0; i < t.ndof; i++) expect(t.mass[i]).toBeCloseTo(0.5, 14);
    expect(t.triangles.params[7]).toBe(MAT_NEOHOOKEAN);
    expect(t.massMatrix).toBe('lumped');
    const c = buildScene(parseSceneXml(tri('0', 'density="3"').replace('<particle', '<massmatrix type="consistent"/>\n<particle'), 'ok.xml'));
    expect(c.world.topology().massMatrix).toBe('consistent');
    expect(c.world.topology().triangles.params[7]).toBe(MAT_FOSSSIM);
  });
});

describe('API and mass matrix', () => {
  it('addTriangle material option maps to ids and rejects unknown names', () => {
    const w = new PhysicsWorld({ gravity: null });
    const a = w.addParticle({ x: 0, y: 0, m: 1 }), b = w.addParticle({ x: 1, y: 0, m: 1 }), c = w.addParticle({ x: 0, y: 1, m: 1 });
    w.addTriangle(a, b, c, { youngsModulus: 1, poissonRatio: 0.3 });
    w.addTriangle(a, b, c, { youngsModulus: 1, poissonRatio: 0.3, material: 'stvk' });
    w.addTriangle(a, b, c, { youngsModulus: 1, poissonRatio: 0.3, material: 'corotational' });
    const q = w.topology().triangles.params;
    expect([q[7], q[15], q[23]]).toEqual([MAT_FOSSSIM, MAT_STVK, MAT_COROTATIONAL]);
    expect(() => w.addTriangle(a, b, c, { youngsModulus: 1, poissonRatio: 0.3, material: 'jelly' as never })).toThrow(/addTriangle: 'material': expected one of 'fosssim', 'stvk', 'neohookean', 'corotational', got "jelly"/);
  });

  it('consistent mass: ρĀ/12 (1 + δab) blocks, same row sums as lumped; product equals the assembled matrix', () => {
    const rnd = mulberry32(9);
    const w = new PhysicsWorld({ gravity: null, massMatrix: 'consistent' });
    const ids: number[] = [];
    for (let j = 0; j < 3; j++) for (let i = 0; i < 3; i++) ids.push(w.addParticle({ x: i + 0.1 * rnd(), y: j + 0.1 * rnd(), m: j === 0 ? 0.25 : 0 }));
    for (let j = 0; j < 2; j++) {
      for (let i = 0; i < 2; i++) {
        const k = 3 * j + i;
        w.addTriangle(ids[k]!, ids[k + 1]!, ids[k + 4]!, { youngsModulus: 1, poissonRatio: 0.3, density: 2 + rnd() });
        w.addTriangle(ids[k]!, ids[k + 4]!, ids[k + 3]!, { youngsModulus: 1, poissonRatio: 0.3, density: 2 + rnd() });
      }
    }
    const t = w.topology();
    const n = t.ndof;
    // dense M from the product with unit vectors
    const e = new Float64Array(n), col = new Float64Array(n);
    const M = new Float64Array(n * n);
    for (let j = 0; j < n; j++) {
      e.fill(0);
      e[j] = 1;
      massMatVec(t, e, col);
      for (let i = 0; i < n; i++) M[i * n + j] = col[i]!;
    }
    // symmetric, row sums = lumped masses, x and y decoupled
    for (let i = 0; i < n; i++) {
      let row = 0;
      for (let j = 0; j < n; j++) {
        expect(M[i * n + j]).toBeCloseTo(M[j * n + i]!, 14);
        if ((i & 1) !== (j & 1)) expect(M[i * n + j]).toBe(0);
        row += M[i * n + j]!;
      }
      expect(row).toBeCloseTo(t.mass[i]!, 12);
    }
    // one triangle's block: diagonal ρĀ/6, off-diagonal ρĀ/12
    const tr = t.triangles;
    // assembled lower-triangle values reproduce M
    const values = new Float64Array(t.pattern.nnz);
    addMassMatrix(t, values);
    const p = t.pattern;
    for (let c = 0; c < n; c++) {
      for (let s = p.colPtr[c]!; s < p.colPtr[c + 1]!; s++) expect(values[s]).toBeCloseTo(M[p.rowIdx[s]! * n + c]!, 13);
    }
    let total = 0;
    for (let i = 0; i < n; i += 2) for (let j = 0; j < n; j += 2) total += M[i * n + j]!;
    let expected = 0.25 * 3;
    for (let k = 0; k < tr.count; k++) expected += t.triMass[k]!;
    expect(total).toBeCloseTo(expected, 12);
  });
});
