/**
 * Issue 16, item 1 (XML loader): every hostile input is a located InputError — the XML parser's own
 * errors (nesting, reserved names, DOCTYPE), parse-time limits, and values whose physics cannot be
 * solved (src/ranges.ts). Each case here was an `internal error` or a silent NaN before.
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors';
import { MAX_POLYGON_POINTS, parseSceneXml } from '../src/scene/xml';
import { XML_LIMITS } from '../src/scene/xml-limits';
import { buildScene } from '../src/scene/build';

const HEAD = '<duration time="1"/><integrator type="symplectic-euler" dt="0.01"/>';
/** A free particle; `over` replaces or adds attributes. */
const P = (over: Record<string, string> = {}) =>
  `<particle ${Object.entries({ m: '1', px: '0', py: '0', vx: '0', vy: '0', fixed: '0', ...over }).map(([k, v]) => `${k}="${v}"`).join(' ')}/>`;
const scene = (body: string, head = HEAD) => `<scene>\n${head}\n${body}\n</scene>\n`;

function errorOf(text: string): string {
  try {
    parseSceneXml(text, 'h.xml');
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return (e as Error).message;
  }
  throw new Error('expected an InputError');
}

describe('XML parser errors become located InputErrors', () => {
  it('DOCTYPE declarations (and with them entity definitions) are rejected, with the line', () => {
    const doc = `<?xml version="1.0"?>\n<!DOCTYPE scene [<!ENTITY a "aaaaaaaa">]>\n${scene(P())}`;
    expect(errorOf(doc)).toBe(
      'h.xml: line 2: a <!DOCTYPE> declaration; expected none: Elastica does not read DTDs or define entities ' +
        '(FOSSSim scenes never use them); remove it',
    );
    expect(errorOf(`<!DOCTYPE a>\n<!DOCTYPE b>\n${scene(P())}`)).toMatch(/^h\.xml: line 1: a <!DOCTYPE>/); // was "Multiple DOCTYPE declarations found."
    expect(errorOf(`<!doctype x SYSTEM "file:///etc/passwd">${scene(P())}`)).toMatch(/DOCTYPE/);
  });

  it('the predefined entities are still read', () => {
    const s = parseSceneXml(scene(`<description text="a &amp; b &lt;"/>${P()}`), 'ok.xml');
    expect(s.description).toBe('a & b <');
  });

  it('deep nesting is refused at the line where it passes the limit (was "Maximum nested tags exceeded")', () => {
    const deep = `<scene>${HEAD}\n${'<a>'.repeat(200)}${'</a>'.repeat(200)}</scene>`;
    expect(errorOf(deep)).toBe(`h.xml: line 2: <a> is nested ${XML_LIMITS.maxDepth + 1} elements deep; expected at most ${XML_LIMITS.maxDepth} (a FOSSSim scene has 2)`);
    // within the limit: an unknown nested tag is ignored with a warning, as before
    expect(() => parseSceneXml(scene(`${P()}<a><b><c/></b></a>`), 'ok.xml')).not.toThrow();
  });

  it('tag and attribute names that are JavaScript object keys are refused (was a "[SECURITY]" internal error)', () => {
    expect(errorOf(scene(`${P()}\n<constructor/>`))).toBe(
      'h.xml: line 4: tag name <constructor> is reserved (a JavaScript object key); expected a scene tag',
    );
    expect(errorOf(scene(P({ __proto__x: '1' }).replace('__proto__x', '__proto__')))).toBe(
      "h.xml: line 3: <particle>: attribute name '__proto__' is reserved (a JavaScript object key); expected a scene attribute",
    );
    expect(errorOf(scene(P({ toString: '1' })))).toMatch(/attribute name 'toString' is reserved/);
    expect(errorOf(scene('<prototype a="1"/>'))).toMatch(/tag name <prototype> is reserved/);
  });

  it('attribute length and tag count limits', () => {
    const long = 'x'.repeat(XML_LIMITS.maxAttributeChars + 1);
    expect(errorOf(scene(`<description text="${long}"/>`))).toBe(
      `h.xml: line 3: an attribute value of ${XML_LIMITS.maxAttributeChars + 1} characters; expected at most ${XML_LIMITS.maxAttributeChars}`,
    );
    const many = scene('<a/>'.repeat(XML_LIMITS.maxTags));
    expect(errorOf(many)).toMatch(new RegExp(`more than ${XML_LIMITS.maxTags} tags`));
  });

  it('any other parser failure is an InputError naming the file (never an internal error)', () => {
    for (const text of ['', '<', '<scene', '<scene><a b="1></scene>', '\u0000\u0001', '<scene></scene><scene/>', '<?xml?><scene/>']) {
      expect(errorOf(text)).toMatch(/^h\.xml: /);
    }
  });
});

describe('validity ranges (src/ranges.ts): finite values whose physics cannot be solved are bad input', () => {
  const TRI = `${P()}\n${P({ px: '1' })}\n${P({ py: '1' })}`;
  const cases: [string, string, RegExp][] = [
    ['a denormal mass', scene(P({ m: '5e-324' })), /<particle> #0: attribute 'm': expected 0 or a number in \[1e-12, 1e12\] \(kg\)/],
    ['an absurd coordinate', scene(P({ px: '1e17' })), /attribute 'px': expected a number with \|x\| <= 1e9 \(m\), got "1e17"/],
    ['G = 1e308', scene(`${P()}${P({ px: '1' })}<gravitationalforce i="0" j="1" G="1e308"/>`), /attribute 'G': expected 0 or a number in \[1e-30, 1e13\]/],
    ['kvc = -1e20', scene(`${P()}${P({ px: '1' })}<vortexforce i="0" j="1" kbs="1" kvc="-1e20"/>`), /attribute 'kvc': expected 0 or a number with 1e-30 <= \|x\| <= 1e13/],
    ['dt = 1e300', scene(P(), '<duration time="1"/><integrator type="implicit-euler" dt="1e300"/>'), /attribute 'dt': expected a number in \[1e-9, 10\] \(s\)/],
    ['dt = 1e-320', scene(P(), '<duration time="1"/><integrator type="implicit-euler" dt="1e-320"/>'), /attribute 'dt'/],
    ['duration = 1e300', scene(P(), '<duration time="1e300"/><integrator type="implicit-euler" dt="0.1"/>'), /<duration> #0: attribute 'time': expected a number in \[0, 1e9\] \(s\)/],
    ['ν = 0.9999999999999999', scene(`${TRI}<elasticbodycstforce i1="0" i2="1" i3="2" youngsmodulus="1" poissonratio="0.9999999999999999"/>`), /attribute 'poissonratio': expected a number in \[-0.999, 0.999\]/],
    ['a half-plane normal that overflows when normalized', scene(`${P()}<halfplane px="0" py="0" nx="0" ny="1e200"/>`), /<halfplane> #0: attribute 'ny': expected a number with \|x\| <= 1e9/],
    ['a half-plane normal that underflows when normalized', scene(`${P()}<halfplane px="0" py="0" nx="1e-200" ny="0"/>`), /<halfplane> #0: attributes 'nx', 'ny': expected a non-zero normal, got \(1e-200, 0\)/],
    ['maxiters = 65', scene(P(), '<duration time="1"/><integrator type="implicit-euler" dt="0.1" maxiters="65"/>'), /attribute 'maxiters': expected an integer in \[1, 64\], got "65"/],
    ['a collider of absurd size', scene(`${P()}<collision type="game"/><polygoncollider points="0 0 1e+300 0 0 1e+300"/>`), /<polygoncollider> #0: attribute 'points': expected .* \|x\| <= 1e9.*got the value "1e\+300"/],
    ['a huge circle', scene(`${P()}<collision type="game"/><circlecollider cx="0" cy="0" radius="1e160"/>`), /<circlecollider> #0: attribute 'radius': expected a number in \[1e-9, 1e9\] \(m\)/],
    ['a huge theta0', scene(`${TRI}<elasticbodybendingforce i1="0" i2="1" i3="2" alpha="1" theta0="1e300"/>`), /attribute 'theta0': expected a number with \|θ\| <= 1000 \(rad\)/],
  ];
  for (const [what, text, re] of cases) {
    it(what, () => {
      expect(errorOf(text)).toMatch(re);
    });
  }

  it('a polygon collider has at most MAX_POLYGON_POINTS points; 30,000 validate in well under a second (the O(N²) check took 33 s)', () => {
    const ring = (n: number) => Array.from({ length: n }, (_, i) => `${Math.cos((2 * Math.PI * i) / n)} ${Math.sin((2 * Math.PI * i) / n)}`).join(' ');
    // short tokens so the attribute stays under its length limit: a zigzag strip of n points
    const strip = (n: number) => Array.from({ length: n }, (_, i) => (i < n - 2 ? `${i >> 1} ${i & 1}` : `${n} ${i === n - 2 ? -1 : -2}`)).join(' ');
    expect(MAX_POLYGON_POINTS).toBeGreaterThanOrEqual(30000);
    expect(errorOf(scene(`${P()}<collision type="game"/><polygoncollider points="${strip(MAX_POLYGON_POINTS + 1)}"/>`))).toMatch(
      new RegExp(`<polygoncollider> #0: attribute 'points': expected .*at most ${MAX_POLYGON_POINTS} points.*got ${MAX_POLYGON_POINTS + 1} point`),
    );
    const text = scene(`${P()}<collision type="game"/><polygoncollider points="${ring(30000)}"/>`);
    const t0 = performance.now();
    const s = parseSceneXml(text, 'ok.xml');
    expect(s.colliders[0]!.type).toBe('polygon');
    expect(performance.now() - t0).toBeLessThan(2000); // parse + sweep; the sweep alone is timed in test/simple-polygon
  });

  it('every bundled-scene value is inside the ranges (the bounds are wide)', () => {
    expect(() => parseSceneXml(scene(`${TRI}<elasticbodycstforce i1="0" i2="1" i3="2" youngsmodulus="2e11" poissonratio="0.5"/>`), 'ok.xml')).not.toThrow();
  });
});

describe('checks of the engine that the parser does not repeat are located too', () => {
  it('a bending hinge whose three particles coincide names the file and the tag (was "elastica: addHinge: …"; fuzz, CLI runs seed 7303)', () => {
    const text = scene(`${P()}${P()}${P({ px: '0.6' })}${P()}\n<elasticbodybendingforce i1="0" i2="1" i3="3" alpha="0.01" theta0="0"/>`);
    const build = () => buildScene(parseSceneXml(text, 'h.xml'));
    expect(build).toThrow(InputError);
    expect(build).toThrow(/^h\.xml: <elasticbodybendingforce> #0: addHinge: the rest edges a–b and b–c have zero total length/);
    // a second one, after a good one, is #1
    const two = scene(`${P()}${P({ px: '1' })}${P({ py: '1' })}${P()}\n<elasticbodybendingforce i1="0" i2="1" i3="2" alpha="1" theta0="0"/>\n<elasticbodybendingforce i1="0" i2="3" i3="0" alpha="1" theta0="0"/>`);
    expect(() => buildScene(parseSceneXml(two, 'h.xml'))).toThrow(/^h\.xml: <elasticbodybendingforce> #1: /);
  });
});
