import { fileURLToPath } from 'node:url';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors';
import { loadSceneFile } from '../src/scene/load';
import { parseSceneXml } from '../src/scene/xml';

const SCENES = fileURLToPath(new URL('../assets/scenes/fosssim', import.meta.url));

function xmlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...xmlFiles(p));
    else if (name.endsWith('.xml')) out.push(p);
  }
  return out;
}

/** A minimal valid scene with `body` inserted. */
function scene(body: string, head = '<duration time="1"/><integrator type="symplectic-euler" dt="0.01"/>'): string {
  return `<scene>\n${head}\n${body}\n</scene>`;
}

const TWO = `
<particle m="1" px="0" py="0" vx="0" vy="0" fixed="0"/>
<particle m="1" px="1" py="0" vx="0" vy="0" fixed="0"/>`;
const THREE = `${TWO}
<particle m="1" px="0" py="1" vx="0" vy="0" fixed="0"/>`;

function errorOf(text: string, source = 'bad.xml'): string {
  try {
    parseSceneXml(text, source);
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return (e as Error).message;
  }
  throw new Error('expected an InputError');
}

describe('real FOSSSim scenes', () => {
  const files = xmlFiles(SCENES);

  it('finds all 42 shared scenes', () => {
    expect(files).toHaveLength(42);
  });

  it.each(files.map((f) => [relative(SCENES, f), f]))('%s parses without warnings', (_name, file) => {
    const s = loadSceneFile(file);
    expect(s.source).toBe(file);
    expect(s.duration).toBeGreaterThan(0);
    expect(s.integrator.dt).toBeGreaterThan(0);
    expect(s.particles.length).toBeGreaterThan(0);
    expect(s.forces.length).toBeGreaterThan(0);
    expect(s.warnings).toEqual([]);
  });

  it('CSTTests/test07.xml: missing xb components default to the particle positions', () => {
    const s = loadSceneFile(join(SCENES, 't4m1/CSTTests/test07.xml'));
    expect(s.particles.map((p) => [p.px, p.py])).toEqual([
      [0, 0],
      [0.8, 0],
      [0.1, 0.8],
      [0.9, 0.8],
    ]);
    expect(s.edges).toHaveLength(5);
    expect(s.edges[4]).toEqual({ i: 3, j: 1, radius: 0.015 });
    expect(s.particles[0].radius).toBe(0.1);
    expect(s.maxsimfreq).toBe(500);
    expect(s.forces).toEqual([
      { type: 'elasticbodycstforce', i1: 0, i2: 1, i3: 2, youngsmodulus: 1, poissonratio: 0, xb: [0, 0, 0.8, 0, 0, 0.8] },
      {
        type: 'elasticbodycstforce',
        i1: 3,
        i2: 2,
        i3: 1,
        youngsmodulus: 1,
        poissonratio: 0,
        xb: [0.8, 0.8, 0, 0.8, 0.8, 0],
      },
    ]);
  });

  it('HalfplaneTests/test01.xml: forward-backward-euler is symplectic-euler; simple collision with FOSSSim\'s default COR 1', () => {
    const s = loadSceneFile(join(SCENES, 'basic/t2m1/HalfplaneTests/test01.xml'));
    expect(s.description).toBe('A spring bounces between the floor and ceiling.');
    expect(s.duration).toBe(10);
    expect(s.integrator).toEqual({ type: 'symplectic-euler', dt: 0.005 });
    expect(s.collision).toEqual({ type: 'simple', cor: 1 });
    expect(s.collisiondetection).toBeUndefined();
    expect(s.colliders).toEqual([]);
    expect(s.edges).toEqual([{ i: 0, j: 1, radius: 0.1 }]);
    expect(s.forces).toEqual([{ type: 'springforce', edge: 0, k: 100, l0: 1, b: 0 }]);
    expect(s.halfplanes).toEqual([
      { px: 0, py: -1, nx: 0, ny: 1 },
      { px: 0, py: 1, nx: 0, ny: -1 },
    ]);
    expect(s.particles[1]).toEqual({ m: 1, px: 0, py: -0.5, vx: 0, vy: -2, fixed: false, radius: 0.1 });
  });

  it('BendingTests/test07.xml: leading spaces in numbers, fixed particles, forces in file order', () => {
    const s = loadSceneFile(join(SCENES, 't4m1/BendingTests/test07.xml'));
    expect(s.particles[1]).toMatchObject({ px: 0.5, py: -0.8, fixed: true });
    expect(s.particles[5]).toMatchObject({ px: 0.5, py: 0, fixed: false });
    expect(s.particles[9]).toMatchObject({ m: 50, px: 0, py: 0.9, radius: 0.2 });
    expect(s.forces[0]).toEqual({ type: 'simplegravity', fx: 0, fy: -0.1 });
    expect(s.forces.map((f) => f.type).filter((t) => t === 'elasticbodybendingforce')).toHaveLength(8);
    expect(s.forces.find((f) => f.type === 'elasticbodyspringforce' && f.l0 === 0.509902)).toBeDefined();
  });

  it('basic scenes: colors, paths, background, damping, gravitational force', () => {
    const grav = loadSceneFile(join(SCENES, 'basic/t1m2/GravityTests/test01symplectic.xml'));
    expect(grav.forces).toEqual([{ type: 'gravitationalforce', i: 0, j: 1, G: 4 }]);
    expect(grav.particlecolors[0]).toEqual({ i: 0, color: { r: 0.96078431372549, g: 0, b: 0.47843137254902 } });
    expect(grav.particlepaths[1]).toEqual({ i: 1, duration: 20, color: { r: 0.6, g: 0, b: 0.8 } });
    const damp = loadSceneFile(join(SCENES, 'basic/t1m2/SpringDampingTests/test00symplectic.xml'));
    expect(damp.forces).toEqual([{ type: 'springforce', edge: 0, k: 1, l0: 1, b: 0.5 }]);
    const drag = loadSceneFile(join(SCENES, 'basic/t1m2/LinearDragTests/test00symplectic.xml'));
    expect(drag.forces).toEqual([{ type: 'dragdamping', b: 1 }]);
  });

  it('stiff Codio variants parse with their own parameters', () => {
    const s = loadSceneFile(join(SCENES, 't4m1_codio_stiff/BendingTests/test18.xml'));
    expect(s.integrator).toEqual({ type: 'implicit-euler', dt: 0.01 });
    expect(s.forces.find((f) => f.type === 'elasticbodyspringforce')).toMatchObject({ alpha: 100000, l0: 0.1 });
  });
});

describe('format features', () => {
  it('keeps document order across different tag names and allows any tag order', () => {
    const s = parseSceneXml(
      `<scene>
        <constantforce fx="1" fy="2"/>
        <springforce edge="0" k="3" l0="1"/>
        <edge i="1" j="0" radius="0.5"/>
        <simplegravity fx="0" fy="-9.81"/>
        ${TWO}
        <dragdamping b="0.1"/>
        <springforce edge="0" k="4" l0="2" b="0.2"/>
        <integrator type="explicit-euler" dt="0.1"/>
        <duration time="0"/>
      </scene>`,
      'order.xml',
    );
    expect(s.forces.map((f) => f.type)).toEqual([
      'constantforce',
      'springforce',
      'simplegravity',
      'dragdamping',
      'springforce',
    ]);
    expect(s.forces[4]).toEqual({ type: 'springforce', edge: 0, k: 4, l0: 2, b: 0.2 });
    expect(s.edges).toEqual([{ i: 1, j: 0, radius: 0.5 }]);
    expect(s.duration).toBe(0);
    expect(s.description).toBe('');
  });

  it('reads a single particle (not an array) and all optional scene tags', () => {
    const s = parseSceneXml(
      scene(`
        <simtype type="particle-system"/>
        <description text="one &amp; only"/>
        <maxsimfreq max="100"/>
        <viewport cx="1" cy="2" size="3"/>
        <backgroundcolor r="0.1" g="0.2" b="0.3"/>
        <particle m="0" px="+1e-1" py="-.5" vx="3." vy="0" fixed="true" radius="0" tag="anchor"/>
        <halfplane px="0" py="0" nx="0" ny="2"/>
        <halfplanecolor i="0" r="1" g="1" b="1"/>
        <collisiondetection type="contest"/>`),
      'one.xml',
    );
    expect(s.simtype).toBe('particle-system');
    expect(s.description).toBe('one & only');
    expect(s.maxsimfreq).toBe(100);
    expect(s.viewport).toEqual({ cx: 1, cy: 2, size: 3 });
    expect(s.backgroundcolor).toEqual({ r: 0.1, g: 0.2, b: 0.3 });
    expect(s.particles).toEqual([{ m: 0, px: 0.1, py: -0.5, vx: 3, vy: 0, fixed: true, radius: 0, tag: 'anchor' }]);
    expect(s.halfplanecolors).toEqual([{ i: 0, color: { r: 1, g: 1, b: 1 } }]);
    expect(s.collisiondetection).toEqual({ type: 'contest' });
    expect(s.warnings).toEqual([]);
  });

  it('reads every force type', () => {
    const s = parseSceneXml(
      scene(`${THREE}
        <edge i="0" j="1"/>
        <gravitationalforce i="0" j="2" G="1"/>
        <vortexforce i="1" j="2" kbs="-1" kvc="2"/>
        <elasticbodyspringforce i1="0" i2="1" alpha="5" l0="1"/>
        <elasticbodybendingforce i1="0" i2="1" i3="2" alpha="2" theta0="-0.5"/>
        <elasticbodycstforce i1="0" i2="1" i3="2" youngsmodulus="10" poissonratio="-0.3" xb1x="0.5" xb3y="2"/>
        <edgecolor i="0" r="0" g="0.5" b="1"/>`),
      'forces.xml',
    );
    expect(s.forces).toEqual([
      { type: 'gravitationalforce', i: 0, j: 2, G: 1 },
      { type: 'vortexforce', i: 1, j: 2, kbs: -1, kvc: 2 },
      { type: 'elasticbodyspringforce', i1: 0, i2: 1, alpha: 5, l0: 1 },
      { type: 'elasticbodybendingforce', i1: 0, i2: 1, i3: 2, alpha: 2, theta0: -0.5 },
      {
        type: 'elasticbodycstforce',
        i1: 0,
        i2: 1,
        i3: 2,
        youngsmodulus: 10,
        poissonratio: -0.3,
        xb: [0.5, 0, 1, 0, 0, 2],
      },
    ]);
    expect(s.edgecolors).toEqual([{ e: 0, color: { r: 0, g: 0.5, b: 1 } }]);
  });

  it('reads the game-mode integrator attributes', () => {
    const s = parseSceneXml(
      scene(
        TWO,
        `<duration time="1"/><integrator type="implicit-euler" dt="0.02" maxiters="20" tolerance="1e-8" linesearch="1" projection="psd"/>`,
      ),
      'game.xml',
    );
    expect(s.integrator).toEqual({
      type: 'implicit-euler',
      dt: 0.02,
      maxiters: 20,
      tolerance: 1e-8,
      linesearch: true,
      projection: 'psd',
    });
  });

  it('accepts the alhpa misspelling with a warning naming file and tag', () => {
    const s = parseSceneXml(
      scene(`${THREE}
        <elasticbodyspringforce i1="0" i2="1" alpha="1" l0="1"/>
        <elasticbodybendingforce i1="0" i2="1" i3="2" alhpa="7" theta0="0"/>`),
      'typo.xml',
    );
    expect(s.forces[1]).toMatchObject({ type: 'elasticbodybendingforce', alpha: 7 });
    expect(s.warnings).toHaveLength(1);
    expect(s.warnings[0]).toMatch(/^typo\.xml: <elasticbodybendingforce> #0: .*'alhpa'.*'alpha'/);
  });

  it('warns about unknown tags and unknown attributes, naming file, tag and line', () => {
    const s = parseSceneXml(
      scene(`${TWO}
<rigidbody m="1"/>
<edge i="0" j="1" colour="red"/>
<!-- a comment -->`),
      'extra.xml',
    );
    expect(s.warnings).toEqual([
      'extra.xml: <rigidbody> #0: unknown tag ignored (line 6)',
      "extra.xml: <edge> #0: unknown attribute 'colour' ignored (line 7)",
    ]);
  });
});

describe('errors', () => {
  it('missing file', () => {
    expect(() => loadSceneFile('/nonexistent/dir/scene.xml')).toThrow(InputError);
    expect(() => loadSceneFile('/nonexistent/dir/scene.xml')).toThrow(
      "cannot read scene file '/nonexistent/dir/scene.xml': no such file or directory",
    );
  });

  it('malformed XML, with line and column', () => {
    const msg = errorOf('<scene>\n<duration time="1">\n</scene>', 'broken.xml');
    expect(msg).toMatch(/^broken\.xml: malformed XML at line 3, column \d+: /);
    expect(errorOf('<scene><particle m="1"m="2"/></scene>')).toMatch(/^bad\.xml: malformed XML at line 1/);
    expect(errorOf('')).toMatch(/^bad\.xml: malformed XML/);
  });

  it('wrong root element, several roots', () => {
    expect(errorOf('<world/>')).toBe('bad.xml: root element is <world>, expected <scene>');
    expect(errorOf('<scene/><scene/>')).toMatch(/^bad\.xml: expected exactly one root element <scene>, found 2/);
  });

  it('missing required tags', () => {
    expect(errorOf('<scene><integrator type="explicit-euler" dt="1"/></scene>')).toBe(
      'bad.xml: missing required tag <duration time="..."/>',
    );
    expect(errorOf('<scene><duration time="1"/></scene>')).toBe(
      'bad.xml: missing required tag <integrator type="..." dt="..."/>',
    );
  });

  it('duplicate singleton tag', () => {
    expect(errorOf(scene('<duration time="2"/>'))).toMatch(
      /^bad\.xml: <duration> #1: <duration> may appear only once \(first at line 2\)/,
    );
  });

  it('missing required attribute', () => {
    expect(errorOf(scene('<particle m="1" px="0" py="0" vy="0" fixed="0"/>'))).toBe(
      "bad.xml: <particle> #0: missing required attribute 'vx' (expected a number with |v| <= 1e9 (m/s)) (line 3)",
    );
  });

  it('non-numeric and non-finite numbers', () => {
    const p = (px: string) => scene(`${TWO}\n<particle m="1" px="${px}" py="0" vx="0" vy="0" fixed="0"/>`);
    expect(errorOf(p('abc'))).toBe(
      `bad.xml: <particle> #2: attribute 'px': expected a number with |x| <= 1e9 (m), got "abc" (line 6)`,
    );
    expect(errorOf(p(''))).toMatch(/<particle> #2: attribute 'px': expected a number with \|x\| <= 1e9 \(m\), got ""/);
    expect(errorOf(p('  '))).toMatch(/<particle> #2: attribute 'px': expected a number with \|x\| <= 1e9 \(m\), got " {2}"/);
    expect(errorOf(p('1e999'))).toMatch(/<particle> #2: attribute 'px': expected a number with \|x\| <= 1e9 \(m\), got "1e999"/);
    expect(errorOf(p('Infinity'))).toMatch(/attribute 'px': expected a number with \|x\| <= 1e9 \(m\), got "Infinity"/);
    expect(errorOf(p('NaN'))).toMatch(/attribute 'px': expected a number with \|x\| <= 1e9 \(m\), got "NaN"/);
    expect(errorOf(p('0x10'))).toMatch(/attribute 'px': expected a number with \|x\| <= 1e9 \(m\), got "0x10"/);
    expect(errorOf(p('1.5.2'))).toMatch(/attribute 'px': expected a number with \|x\| <= 1e9 \(m\), got "1.5.2"/);
  });

  it('unknown integrator type lists the accepted ones', () => {
    const msg = errorOf(scene('', '<duration time="1"/><integrator type="rk4" dt="0.1"/>'));
    expect(msg).toMatch(/^bad\.xml: <integrator> #0: attribute 'type': unknown integrator type "rk4"; expected one of /);
    for (const t of [
      'explicit-euler',
      'symplectic-euler',
      'forward-backward-euler',
      'linearized-implicit-euler',
      'implicit-euler',
    ]) {
      expect(msg).toContain(t);
    }
    expect(errorOf(scene('', '<duration time="1"/><integrator type="toString" dt="0.1"/>'))).toMatch(
      /unknown integrator type "toString"/,
    );
  });

  it('bad game-mode integrator attributes', () => {
    const integ = (extra: string) =>
      errorOf(scene('', `<duration time="1"/><integrator type="implicit-euler" dt="0.1" ${extra}/>`));
    expect(integ('maxiters="0"')).toMatch(/<integrator> #0: attribute 'maxiters': expected an integer in \[1, 64\], got "0"/);
    expect(integ('maxiters="2.5"')).toMatch(/attribute 'maxiters': expected an integer in \[1, 64\], got "2.5"/);
    expect(integ('tolerance="0"')).toMatch(/attribute 'tolerance': expected a number in \(0, 1\], got "0"/);
    expect(integ('linesearch="yes"')).toMatch(/attribute 'linesearch': expected 0, 1, true or false, got "yes"/);
    expect(integ('projection="abs"')).toMatch(/attribute 'projection': expected none or psd, got "abs"/);
  });

  it('particle or edge index out of range or not an integer', () => {
    expect(errorOf(scene(`${TWO}\n<edge i="0" j="2"/>`))).toBe(
      `bad.xml: <edge> #0: attribute 'j': expected a particle index (an integer from 0 to 1), got "2" (line 6)`,
    );
    expect(errorOf(scene(`${TWO}\n<edge i="0.5" j="1"/>`))).toMatch(
      /<edge> #0: attribute 'i': expected a particle index \(an integer from 0 to 1\), got "0.5"/,
    );
    expect(errorOf(scene(`${TWO}\n<edge i="-1" j="1"/>`))).toMatch(/<edge> #0: attribute 'i'.*got "-1"/);
    expect(errorOf(scene(`${TWO}\n<edge i="0" j="1"/>\n<springforce edge="1" k="1" l0="1"/>`))).toMatch(
      /^bad\.xml: <springforce> #0: attribute 'edge': expected an edge index \(an integer from 0 to 0\), got "1"/,
    );
    expect(errorOf(scene('<particlecolor i="0" r="1" g="1" b="1"/>'))).toMatch(
      /<particlecolor> #0: attribute 'i': expected a particle index, but the scene has no <particle> tags, got "0"/,
    );
    expect(errorOf(scene(`${TWO}\n<elasticbodycstforce i1="0" i2="1" i3="3" youngsmodulus="1" poissonratio="0"/>`)))
      .toMatch(/<elasticbodycstforce> #0: attribute 'i3': expected a particle index/);
  });

  it('m <= 0 for a free particle; m >= 0 for a fixed one', () => {
    const p = (m: string, fixed: string) =>
      scene(`${TWO}\n${TWO}\n<particle m="${m}" px="0" py="0" vx="0" vy="0" fixed="${fixed}"/>`);
    expect(errorOf(p('0', '0'), 'scene.xml')).toBe(
      `scene.xml: <particle> #4: attribute 'm': a free particle has m="0" but no <elasticbodycstforce> with density > 0 gives it mass; ` +
        'expected m > 0, or a triangle with a density using this particle (line 9)',
    );
    expect(errorOf(p('-1', '1'))).toMatch(
      /<particle> #4: attribute 'm': expected 0 or a number in \[1e-12, 1e12\] \(kg\) for a fixed particle, got "-1"/,
    );
    expect(parseSceneXml(p('0', '1'), 'ok.xml').particles[4]).toMatchObject({ m: 0, fixed: true });
  });

  it('fixed must be 0/1/true/false', () => {
    expect(errorOf(scene('<particle m="1" px="0" py="0" vx="0" vy="0" fixed="2"/>'))).toMatch(
      /<particle> #0: attribute 'fixed': expected 0, 1, true or false, got "2"/,
    );
  });

  it('l0 <= 0 for elastic springs, l0 < 0 for plain (damped) springs (a zero-length spring is valid, as in addDampedSpring)', () => {
    expect(errorOf(scene(`${TWO}\n<elasticbodyspringforce i1="0" i2="1" alpha="1" l0="0"/>`))).toMatch(
      /^bad\.xml: <elasticbodyspringforce> #0: attribute 'l0': expected a number in \[1e-9, 1e9\] \(m\), got "0"/,
    );
    expect(errorOf(scene(`${TWO}\n<edge i="0" j="1"/>\n<springforce edge="0" k="1" l0="-1"/>`))).toMatch(
      /^bad\.xml: <springforce> #0: attribute 'l0': expected 0 or a number in \[1e-9, 1e9\] \(m\), got "-1"/,
    );
  });

  it('zero-area CST rest triangle (rest positions, not current ones)', () => {
    const msg = errorOf(
      scene(`${THREE}\n<elasticbodycstforce i1="0" i2="1" i3="2" youngsmodulus="1" poissonratio="0" xb3x="2" xb3y="0"/>`),
    );
    expect(msg).toMatch(/^bad\.xml: <elasticbodycstforce> #0: rest triangle has zero area: rest positions \(0, 0\), \(1, 0\), \(2, 0\)/);
    // Collinear current positions but a proper rest triangle: fine.
    const collinear = `
      <particle m="1" px="0" py="0" vx="0" vy="0" fixed="0"/>
      <particle m="1" px="1" py="0" vx="0" vy="0" fixed="0"/>
      <particle m="1" px="2" py="0" vx="0" vy="0" fixed="0"/>
      <elasticbodycstforce i1="0" i2="1" i3="2" youngsmodulus="1" poissonratio="0" xb3x="0" xb3y="1"/>`;
    expect(parseSceneXml(scene(collinear), 'ok.xml').forces).toHaveLength(1);
  });

  it("Poisson ratio outside (-1, 1), Young's modulus <= 0", () => {
    const cst = (e: string, nu: string) =>
      errorOf(scene(`${THREE}\n<elasticbodycstforce i1="0" i2="1" i3="2" youngsmodulus="${e}" poissonratio="${nu}"/>`));
    expect(cst('1', '1')).toMatch(/<elasticbodycstforce> #0: attribute 'poissonratio': expected a number in \[-0.999, 0.999\], got "1"/);
    expect(cst('1', '-1')).toMatch(/attribute 'poissonratio': expected a number in \[-0.999, 0.999\], got "-1"/);
    expect(cst('0', '0.3')).toMatch(/<elasticbodycstforce> #0: attribute 'youngsmodulus': expected a number in \[1e-30, 1e13\], got "0"/);
  });

  it('dt <= 0, duration < 0, radius < 0', () => {
    expect(errorOf(scene('', '<duration time="1"/><integrator type="explicit-euler" dt="0"/>'))).toMatch(
      /^bad\.xml: <integrator> #0: attribute 'dt': expected a number in \[1e-9, 10\] \(s\), got "0"/,
    );
    expect(errorOf(scene('', '<duration time="-1"/><integrator type="explicit-euler" dt="1"/>'))).toMatch(
      /^bad\.xml: <duration> #0: attribute 'time': expected a number in \[0, 1e9\] \(s\), got "-1"/,
    );
    expect(errorOf(scene('<particle m="1" px="0" py="0" vx="0" vy="0" fixed="0" radius="-0.1"/>'))).toMatch(
      /<particle> #0: attribute 'radius': expected 0 or a number in \[1e-9, 1e9\] \(m\), got "-0.1"/,
    );
    expect(errorOf(scene(`${TWO}\n<edge i="0" j="1" radius="-1"/>`))).toMatch(
      /<edge> #0: attribute 'radius': expected 0 or a number in \[1e-9, 1e9\] \(m\), got "-1"/,
    );
  });

  it('halfplane normal of zero length', () => {
    expect(errorOf(scene('<halfplane px="0" py="0" nx="0" ny="0"/>\n<halfplane px="0" py="0" nx="0.0" ny="-0"/>'))).toBe(
      "bad.xml: <halfplane> #0: attributes 'nx', 'ny': expected a non-zero normal, got (0, 0) (line 3)",
    );
  });

  it('the same particle where distinct particles are needed', () => {
    expect(errorOf(scene(`${TWO}\n<edge i="1" j="1"/>`))).toBe(
      "bad.xml: <edge> #0: attributes 'i' and 'j' both name particle 1; expected distinct particles (line 6)",
    );
    expect(errorOf(scene(`${THREE}\n<elasticbodybendingforce i1="0" i2="1" i3="0" alpha="1" theta0="0"/>`))).toMatch(
      /<elasticbodybendingforce> #0: attributes 'i1' and 'i3' both name particle 0; expected distinct particles/,
    );
    expect(errorOf(scene(`${TWO}\n<gravitationalforce i="0" j="0" G="1"/>`))).toMatch(
      /<gravitationalforce> #0: attributes 'i' and 'j' both name particle 0/,
    );
  });

  it('colors outside [0, 1]', () => {
    expect(errorOf(scene(`${TWO}\n<particlecolor i="1" r="255" g="0" b="0"/>`))).toMatch(
      /<particlecolor> #0: attribute 'r': expected a number in \[0, 1\], got "255"/,
    );
  });

  it('alpha and alhpa together', () => {
    expect(errorOf(scene(`${TWO}\n<elasticbodyspringforce i1="0" i2="1" alpha="1" alhpa="2" l0="1"/>`))).toMatch(
      /<elasticbodyspringforce> #0: both 'alpha' and its misspelling 'alhpa' are given/,
    );
  });
});

describe('rapidxml leniency', () => {
  it('accepts attributes run together (vx="0"vy="0") with a warning naming the line', () => {
    const text = `<scene>
  <duration time="1"/>
  <integrator type="symplectic-euler" dt="0.1"/>
  <particle m="1" px="0.5" py="0" vx="0"vy="2" fixed="0"/>
</scene>`;
    const d = parseSceneXml(text, 'run-together.xml');
    expect(d.particles[0]!.vy).toBe(2);
    expect(d.particles[0]!.px).toBe(0.5);
    expect(d.warnings.join('\n')).toMatch(/run-together\.xml: attributes not separated.*line 4/);
  });

  it('leaves quotes inside values, comments and well-formed files alone', () => {
    const text = `<scene><!-- a "quoted"comment --><description text="it's a 'test'"/>
  <duration time="1"/><integrator type="symplectic-euler" dt="0.1"/></scene>`;
    const d = parseSceneXml(text, 'ok.xml');
    expect(d.description).toBe("it's a 'test'");
    expect(d.warnings).toEqual([]);
  });
});

describe('collision and colliders', () => {
  const err = (body: string) => {
    try {
      parseSceneXml(scene(body), 'c.xml');
    } catch (e) {
      expect(e).toBeInstanceOf(InputError);
      return (e as Error).message;
    }
    throw new Error('expected an InputError');
  };

  it('collision types: none, simple (COR default 1), game (COR 0, friction 0.5 by default)', () => {
    expect(parseSceneXml(scene('<collision type="none"/>'), 'c.xml').collision).toEqual({ type: 'none' });
    expect(parseSceneXml(scene('<collision type=" simple " COR="0.25"/>'), 'c.xml').collision).toEqual({ type: 'simple', cor: 0.25 });
    expect(parseSceneXml(scene('<collision type="game"/>'), 'c.xml').collision).toEqual({ type: 'game', cor: 0, friction: 0.5 });
    expect(parseSceneXml(scene('<collision type="game" COR="1" friction="0"/>'), 'c.xml').collision).toEqual({ type: 'game', cor: 1, friction: 0 });
    expect(parseSceneXml(scene(''), 'c.xml').collision).toBeUndefined();
  });

  it('unsupported and unknown collision types, bad COR and friction', () => {
    expect(err('<collision type="continuous-time"/>')).toBe(
      'c.xml: <collision> #0: attribute \'type\': FOSSSim collision type "continuous-time" is not supported yet; expected none, simple, penalty or game (line 3)',
    );
    expect(err('<collision type="hybrid"/>')).toMatch(/"hybrid" is not supported yet/);
    expect(err('<collision type="bouncy"/>')).toBe(
      'c.xml: <collision> #0: attribute \'type\': expected none, simple, penalty or game, got "bouncy" (line 3)',
    );
    expect(err('<collision type="simple" COR="1.5"/>')).toBe(
      'c.xml: <collision> #0: attribute \'COR\': expected a number in [0, 1] (coefficient of restitution), got "1.5" (line 3)',
    );
    expect(err('<collision type="simple" COR="x"/>')).toMatch(/attribute 'COR': expected a number in \[0, 1\]/);
    expect(err('<collision type="simple" friction="0.3"/>')).toBe(
      'c.xml: <collision> #0: attribute \'friction\' applies only to <collision type="game">, got type="simple" (line 3)',
    );
    expect(err('<collision type="game" friction="-1"/>')).toMatch(/<collision> #0: attribute 'friction': expected a number in \[0, 1000\], got "-1"/);
    expect(err('<collision COR="1"/>')).toMatch(/<collision> #0: missing required attribute 'type'/);
  });

  it('collisiondetection: allpairs and contest accepted, unknown types warned about', () => {
    for (const type of ['allpairs', 'contest']) {
      const s = parseSceneXml(scene(`<collisiondetection type="${type}"/>`), 'c.xml');
      expect(s.collisiondetection).toEqual({ type });
      expect(s.warnings).toEqual([]);
    }
    const s = parseSceneXml(scene('<collisiondetection type="hash"/>'), 'c.xml');
    expect(s.collisiondetection).toEqual({ type: 'hash' });
    expect(s.warnings).toEqual([
      'c.xml: <collisiondetection> #0: unknown collision detection type "hash" (FOSSSim knows allpairs, contest); running as allpairs (line 3)',
    ]);
  });

  it('reads circle, segment and polygon colliders in file order, with optional COR and friction', () => {
    const s = parseSceneXml(
      scene(`<collision type="game" COR="0.2" friction="0.7"/>
        <segmentcollider x1="-1" y1="0" x2="1" y2="0.5"/>
        <circlecollider cx="0" cy="2" radius="0.5" COR="0.9" friction="0"/>
        <polygoncollider points="0 0, 2 0, 2 1  0 1"/>`),
      'c.xml',
    );
    expect(s.colliders).toEqual([
      { type: 'segment', x1: -1, y1: 0, x2: 1, y2: 0.5 },
      { type: 'circle', cx: 0, cy: 2, radius: 0.5, cor: 0.9, friction: 0 },
      { type: 'polygon', points: [0, 0, 2, 0, 2, 1, 0, 1] },
    ]);
    expect(s.warnings).toEqual([]);
  });

  it('bad colliders: radius, equal segment ends, polygon count/parity/numbers/area/self-intersection', () => {
    const game = '<collision type="game"/>';
    expect(err(`${game}<circlecollider cx="0" cy="0" radius="0"/>`)).toBe(
      'c.xml: <circlecollider> #0: attribute \'radius\': expected a number in [1e-9, 1e9] (m), got "0" (line 3)',
    );
    expect(err(`${game}<circlecollider cx="0" radius="1"/>`)).toMatch(/<circlecollider> #0: missing required attribute 'cy'/);
    expect(err(`${game}<segmentcollider x1="1" y1="2" x2="1" y2="2"/>`)).toMatch(
      /<segmentcollider> #0: attributes 'x1', 'y1', 'x2', 'y2': expected two different end points, got \(1, 2\) twice/,
    );
    expect(err(`${game}<segmentcollider x1="0" y1="0" x2="1e999" y2="0"/>`)).toMatch(/attribute 'x2': expected a number with \|x\| <= 1e9/);
    const poly = (pts: string) => err(`${game}<polygoncollider points="${pts}"/>`);
    expect(poly('0 0 1 0 1')).toMatch(/<polygoncollider> #0: attribute 'points': expected .*, got an odd count of 5 numbers/);
    expect(poly('0 0 1 0')).toMatch(/got 2 point\(s\)/);
    expect(poly('0 0 1 0 1 NaN')).toMatch(/got the value "NaN"/);
    expect(poly('0 0 1 0 2 0')).toMatch(/edges 1 and 2 fold back onto each other at point 2/); // collinear
    expect(poly('0 0 1 0 1 0 0 1')).toMatch(/points 1 and 2 coincide/);
    expect(poly('0 0 2 2 2 0 0 1')).toMatch(/edges 0 and 2 intersect \(the polygon is not simple\)/); // bow tie
    expect(poly('0 0 2 0 1 0 1 1')).toMatch(/fold back/);
    expect(poly('0 0 4 0 4 4 2 0 0 4')).toMatch(/intersect/); // vertex touching another edge
    expect(err('<polygoncollider/>')).toMatch(/missing required attribute 'points'/);
  });

  it('colliders need <collision type="game">; under "none" they are warned about', () => {
    const c = '<circlecollider cx="0" cy="0" radius="1"/>';
    expect(err(c)).toBe(
      'c.xml: <circlecollider> #0: colliders need game contact, but the scene has no <collision> tag; expected <collision type="game"/> ' +
        "(FOSSSim's simple response knows only particles, edges and half-planes) (line 3)",
    );
    expect(err(`<collision type="simple"/>${c}`)).toMatch(/but the scene has <collision type="simple">/);
    const s = parseSceneXml(scene(`<collision type="none"/>\n${c}`), 'c.xml');
    expect(s.colliders).toHaveLength(1);
    expect(s.warnings).toEqual([
      'c.xml: <circlecollider> #0: colliders have no effect under <collision type="none">; use type="game" for contact with them (line 4)',
    ]);
  });
});
