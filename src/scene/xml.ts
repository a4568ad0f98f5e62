/**
 * FOSSSim 2D particle scene loader: XML text -> validated SceneDescription.
 * The format is documented in docs/scene-format.md.
 *
 * All input problems throw one InputError naming the file, the tag, its index among same-name
 * tags, the attribute and what was expected. Non-fatal remarks go to `warnings`.
 *
 * Text in, description out: no file system here, so browser bundles can use it. Reading a file from
 * disk is src/scene/load.ts (Node only, exported as `elastica/node`).
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { InputError } from '../errors';
import { POSITIVE, TagReader, type SceneElement } from './attrs';
import { f as fmt, MAX_COORD, RANGES } from '../ranges';
import { polygonProblem } from '../mesh/simple-polygon';
import { checkXmlLimits, xmlParserError } from './xml-limits';
import type {
  ColliderDesc,
  CollisionDesc,
  EdgeDesc,
  ForceDesc,
  HalfplaneDesc,
  IntegratorDesc,
  IntegratorType,
  ParticleDesc,
  SceneDescription,
  TriangleMaterial,
} from './types';

const MATERIALS = ['fosssim', 'stvk', 'neohookean', 'corotational'] as const;

/** Accepted `<integrator type>` names and what they mean. */
const INTEGRATORS: Record<string, IntegratorType> = {
  'explicit-euler': 'explicit-euler',
  'symplectic-euler': 'symplectic-euler',
  'forward-backward-euler': 'symplectic-euler', // FOSSSim T2 name for the same update
  'linearized-implicit-euler': 'linearized-implicit-euler',
  'implicit-euler': 'implicit-euler',
};
const INTEGRATOR_LIST =
  'explicit-euler, symplectic-euler, forward-backward-euler (alias of symplectic-euler), ' +
  'linearized-implicit-euler, implicit-euler';

/** Tags that may appear at most once. */
const SINGLETONS = new Set([
  'simtype',
  'description',
  'duration',
  'integrator',
  'maxsimfreq',
  'viewport',
  'backgroundcolor',
  'collision',
  'collisiondetection',
  'massmatrix',
]);

const KNOWN = new Set([
  ...SINGLETONS,
  'particle',
  'edge',
  'halfplane',
  'springforce',
  'simplegravity',
  'gravitationalforce',
  'constantforce',
  'dragdamping',
  'vortexforce',
  'elasticbodyspringforce',
  'elasticbodybendingforce',
  'elasticbodycstforce',
  'particlecolor',
  'edgecolor',
  'halfplanecolor',
  'particlepath',
  'circlecollider',
  'segmentcollider',
  'polygoncollider',
]);

/** FOSSSim's `<collision type>` values Elastica does not simulate (yet). */
const UNSUPPORTED_COLLISION = ['continuous-time', 'hybrid'];
/** FOSSSim's `<collisiondetection type>` values. */
const DETECTORS = ['allpairs', 'contest'];

/** Parse FOSSSim scene XML. `source` names the file in messages. */
export function parseSceneXml(text: string, source: string): SceneDescription {
  const warnings: string[] = [];
  const separated = separateAttributes(text.replace(/^\uFEFF/, ''));
  if (separated.line > 0) {
    warnings.push(`${source}: attributes not separated by white space (first at line ${separated.line}); accepted, as FOSSSim's parser does`);
  }
  const elements = readElements(separated.text, source);
  const reader = (el: SceneElement) => new TagReader(source, el, warnings);

  // Group by tag; report duplicates of singletons and unknown tags.
  const byTag = new Map<string, SceneElement[]>();
  for (const el of elements) {
    const list = byTag.get(el.tag) ?? [];
    list.push(el);
    byTag.set(el.tag, list);
    if (!KNOWN.has(el.tag)) reader(el).warn('unknown tag ignored');
  }
  for (const tag of SINGLETONS) {
    const list = byTag.get(tag);
    if (list && list.length > 1) {
      const first = list[0].line > 0 ? ` (first at line ${list[0].line})` : '';
      reader(list[1]).fail(`<${tag}> may appear only once${first}`);
    }
  }
  const all = (tag: string) => byTag.get(tag) ?? [];
  const one = (tag: string) => byTag.get(tag)?.[0];

  // Particles, edges and halfplanes first: other tags refer to them by index, in any file order.
  const particles = all('particle').map((el) => parseParticle(reader(el)));
  const edges = all('edge').map((el) => parseEdge(reader(el), particles.length));
  const halfplanes = all('halfplane').map((el) => parseHalfplane(reader(el)));

  const durationEl = one('duration');
  if (!durationEl) throw new InputError(`${source}: missing required tag <duration time="..."/>`);
  const integratorEl = one('integrator');
  if (!integratorEl) throw new InputError(`${source}: missing required tag <integrator type="..." dt="..."/>`);

  const scene: SceneDescription = {
    source,
    description: '',
    duration: 0,
    integrator: { type: 'symplectic-euler', dt: 0 },
    particles,
    edges,
    halfplanes,
    forces: [],
    particlecolors: [],
    edgecolors: [],
    halfplanecolors: [],
    particlepaths: [],
    colliders: [],
    warnings,
  };

  for (const el of elements) {
    const r = reader(el);
    switch (el.tag) {
      case 'particle':
      case 'edge':
      case 'halfplane':
        continue; // already parsed (and finished)
      case 'simtype':
        scene.simtype = r.str('type');
        break;
      case 'description':
        scene.description = r.str('text', '');
        break;
      case 'duration':
        scene.duration = r.num('time', RANGES.duration);
        break;
      case 'integrator':
        scene.integrator = parseIntegrator(r);
        break;
      case 'maxsimfreq':
        scene.maxsimfreq = r.num('max', POSITIVE);
        break;
      case 'viewport':
        scene.viewport = { cx: r.num('cx', RANGES.coordinate), cy: r.num('cy', RANGES.coordinate), size: r.num('size', RANGES.length) };
        break;
      case 'backgroundcolor':
        scene.backgroundcolor = r.rgb();
        break;
      case 'particlecolor':
        scene.particlecolors.push({ i: r.index('i', particles.length, 'particle'), color: r.rgb() });
        break;
      case 'edgecolor':
        scene.edgecolors.push({ e: r.index('i', edges.length, 'edge'), color: r.rgb() });
        break;
      case 'halfplanecolor':
        scene.halfplanecolors.push({ i: r.index('i', halfplanes.length, 'halfplane'), color: r.rgb() });
        break;
      case 'particlepath':
        scene.particlepaths.push({
          i: r.index('i', particles.length, 'particle'),
          duration: r.num('duration', POSITIVE),
          color: r.rgb(),
        });
        break;
      case 'collision':
        scene.collision = parseCollision(r);
        break;
      case 'collisiondetection':
        scene.collisiondetection = parseCollisionDetection(r);
        break;
      case 'circlecollider':
      case 'segmentcollider':
      case 'polygoncollider':
        scene.colliders.push(parseCollider(r));
        break;
      case 'massmatrix': {
        const type = r.str('type', 'lumped');
        if (type !== 'lumped' && type !== 'consistent') r.failAttr('type', "'lumped' or 'consistent'", type);
        scene.massmatrix = type === 'consistent' ? 'consistent' : 'lumped';
        break;
      }
      default: {
        if (!KNOWN.has(el.tag)) continue; // warned above
        scene.forces.push(parseForce(r, particles, edges.length));
      }
    }
    r.finish();
  }
  checkMassless(scene, all('particle').map(reader));
  checkColliders(scene, elements, reader);
  return scene;
}

/** Colliders act only under game contact: require `<collision type="game">` (warn under an explicit 'none'). */
function checkColliders(scene: SceneDescription, elements: SceneElement[], reader: (el: SceneElement) => TagReader): void {
  const first = elements.find((el) => el.tag === 'circlecollider' || el.tag === 'segmentcollider' || el.tag === 'polygoncollider');
  if (!first) return;
  const type = scene.collision?.type;
  if (type === 'game') return;
  if (type === 'none') {
    reader(first).warn('colliders have no effect under <collision type="none">; use type="game" for contact with them');
    return;
  }
  reader(first).fail(
    `colliders need game contact, but the scene has ${type === undefined ? 'no <collision> tag' : `<collision type="${type}">`}; ` +
      'expected <collision type="game"/> (FOSSSim\'s simple response knows only particles, edges and half-planes)',
  );
}

/** A free particle with m = 0 needs mass from a triangle with density > 0. */
function checkMassless(scene: SceneDescription, readers: TagReader[]): void {
  const massive = new Uint8Array(scene.particles.length);
  for (const f of scene.forces) {
    if (f.type === 'elasticbodycstforce' && (f.density ?? 0) > 0) massive[f.i1] = massive[f.i2] = massive[f.i3] = 1;
  }
  scene.particles.forEach((p, i) => {
    if (!p.fixed && p.m === 0 && massive[i] === 0) {
      readers[i]!.fail(
        "attribute 'm': a free particle has m=\"0\" but no <elasticbodycstforce> with density > 0 gives it mass; " +
          'expected m > 0, or a triangle with a density using this particle',
      );
    }
  });
}

// ---------------------------------------------------------------------------------------------
// XML -> flat list of <scene> children in document order

function readElements(text: string, source: string): SceneElement[] {
  checkXmlLimits(text, source); // size, depth, tag count, attribute length, DOCTYPE, reserved names
  let valid: ReturnType<typeof XMLValidator.validate>;
  try {
    valid = XMLValidator.validate(text);
  } catch (e) {
    throw xmlParserError(e, source);
  }
  if (valid !== true) {
    const { line, col, msg } = valid.err;
    const at = col !== undefined ? `line ${line}, column ${col}` : `line ${line}`;
    throw new InputError(`${source}: malformed XML at ${at}: ${msg}`);
  }
  const parser = new XMLParser({
    preserveOrder: true, // keeps document order across different tag names
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseAttributeValue: false,
    parseTagValue: false,
    trimValues: false, // numbers are trimmed by the reader; description text kept as written
    captureMetaData: true,
  });
  const meta = XMLParser.getMetaDataSymbol() as unknown as string;
  const lineOf = lineIndex(text);
  let parsed: Node[];
  try {
    parsed = parser.parse(text) as Node[];
  } catch (e) {
    throw xmlParserError(e, source);
  }
  const top = parsed.filter(isElement);
  if (top.length !== 1) {
    throw new InputError(`${source}: expected exactly one root element <scene>, found ${top.length} root elements`);
  }
  const root = top[0];
  const rootName = elementName(root);
  if (rootName !== 'scene') throw new InputError(`${source}: root element is <${rootName}>, expected <scene>`);

  const counts = new Map<string, number>();
  const out: SceneElement[] = [];
  for (const node of (root.scene ?? []) as Node[]) {
    if (!isElement(node)) continue;
    const tag = elementName(node);
    const n = counts.get(tag) ?? 0;
    counts.set(tag, n + 1);
    const start = (node as Record<string, unknown>)[meta] as { startIndex?: number } | undefined;
    const line = start?.startIndex !== undefined ? lineOf(start.startIndex) : 0;
    const attrs: Record<string, string> = Object.create(null);
    const raw = node[':@'] as Record<string, unknown> | undefined;
    if (raw) for (const [k, v] of Object.entries(raw)) attrs[k] = String(v);
    out.push({ tag, n, line, attrs });
  }
  return out;
}

type Node = Record<string, unknown>;

function isElement(node: Node): boolean {
  const name = elementName(node);
  return name !== '' && name !== '#text' && name !== '#comment' && !name.startsWith('?') && !name.startsWith('!');
}

function elementName(node: Node): string {
  return Object.keys(node).find((k) => k !== ':@') ?? '';
}

/** Map a character offset to a 1-based line number. */
function lineIndex(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

// ---------------------------------------------------------------------------------------------
// Tags

function parseParticle(r: TagReader): ParticleDesc {
  const fixed = r.bool('fixed');
  const m = fixed
    ? r.num('m', { what: `${RANGES.mass.what} for a fixed particle`, ok: RANGES.mass.ok })
    : r.num('m', { what: `${RANGES.mass.what} for a free particle (0 only if triangles with a density give it mass)`, ok: RANGES.mass.ok });
  const p: ParticleDesc = {
    m,
    px: r.num('px', RANGES.coordinate),
    py: r.num('py', RANGES.coordinate),
    vx: r.num('vx', RANGES.velocity),
    vy: r.num('vy', RANGES.velocity),
    fixed,
    radius: r.num('radius', RANGES.radius, 0.1),
  };
  const tag = r.raw('tag');
  if (tag !== undefined) p.tag = tag;
  r.finish();
  return p;
}

function parseEdge(r: TagReader, nParticles: number): EdgeDesc {
  const i = r.index('i', nParticles, 'particle');
  const j = r.index('j', nParticles, 'particle');
  r.distinct(['i', 'j'], [i, j]);
  const e: EdgeDesc = { i, j, radius: r.num('radius', RANGES.radius, 0.015) };
  r.finish();
  return e;
}

function parseHalfplane(r: TagReader): HalfplaneDesc {
  const C = RANGES.coordinate;
  const h: HalfplaneDesc = { px: r.num('px', C), py: r.num('py', C), nx: r.num('nx', C), ny: r.num('ny', C) };
  // The normal is normalized: its squared length must be a normal, non-zero double (ny="1e-200" squares to 0).
  if (!(h.nx * h.nx + h.ny * h.ny >= 1e-300)) r.fail(`attributes 'nx', 'ny': expected a non-zero normal, got (${h.nx}, ${h.ny})`);
  r.finish();
  return h;
}

function parseIntegrator(r: TagReader): IntegratorDesc {
  const rawType = r.str('type');
  const type = INTEGRATORS[rawType.trim()];
  if (type === undefined || !Object.prototype.hasOwnProperty.call(INTEGRATORS, rawType.trim())) {
    r.fail(`attribute 'type': unknown integrator type ${JSON.stringify(rawType)}; expected one of ${INTEGRATOR_LIST}`);
  }
  const desc: IntegratorDesc = { type, dt: r.num('dt', RANGES.dt) };
  // Game-mode Newton settings; absent means FOSSSim semantics.
  if (r.has('maxiters')) desc.maxiters = r.num('maxiters', RANGES.newtonIters);
  if (r.has('tolerance')) desc.tolerance = r.num('tolerance', RANGES.tolerance);
  if (r.has('linesearch')) desc.linesearch = r.bool('linesearch');
  if (r.has('projection')) {
    const raw = r.str('projection');
    const t = raw.trim();
    if (t !== 'none' && t !== 'psd') r.failAttr('projection', 'none or psd', raw);
    desc.projection = t;
  }
  return desc;
}

/** COR as a coefficient of restitution: a number in [0, 1]. */
const COR_RANGE = RANGES.cor;

function parseCollision(r: TagReader): CollisionDesc {
  const raw = r.str('type');
  const type = raw.trim();
  const gameOnly = (name: string) => {
    if (r.has(name)) r.fail(`attribute '${name}' applies only to <collision type="game">, got type="${type}"`);
  };
  switch (type) {
    case 'none':
      gameOnly('friction');
      r.num('COR', COR_RANGE, 1); // FOSSSim reads COR before the type; validated, then unused
      return { type: 'none' };
    case 'simple':
      gameOnly('friction');
      return { type: 'simple', cor: r.num('COR', COR_RANGE, 1) }; // FOSSSim's default COR is 1
    case 'penalty':
      // FOSSSim's PenaltyForce: k 100, thickness 0.01 by default; COR is read (as FOSSSim) and unused
      gameOnly('friction');
      r.num('COR', COR_RANGE, 1);
      return { type: 'penalty', k: r.num('k', RANGES.coefficient, 100), thickness: r.num('thickness', RANGES.radius, 0.01) };
    case 'game':
      return { type: 'game', cor: r.num('COR', COR_RANGE, 0), friction: r.num('friction', RANGES.friction, 0.5) };
    default:
      if (UNSUPPORTED_COLLISION.includes(type)) {
        r.fail(`attribute 'type': FOSSSim collision type "${type}" is not supported yet; expected none, simple, penalty or game`);
      }
      r.failAttr('type', 'none, simple, penalty or game', raw);
  }
}

function parseCollisionDetection(r: TagReader): { type: string } {
  const type = r.str('type').trim();
  if (!DETECTORS.includes(type)) {
    r.warn(`unknown collision detection type ${JSON.stringify(type)} (FOSSSim knows ${DETECTORS.join(', ')}); running as allpairs`);
  }
  return { type };
}

/** Optional per-collider `COR` / `friction`. */
function colliderMaterial<T extends ColliderDesc>(r: TagReader, c: T): T {
  if (r.has('COR')) c.cor = r.num('COR', COR_RANGE);
  if (r.has('friction')) c.friction = r.num('friction', RANGES.friction);
  return c;
}

function parseCollider(r: TagReader): ColliderDesc {
  const C = RANGES.coordinate;
  switch (r.el.tag) {
    case 'circlecollider':
      return colliderMaterial(r, { type: 'circle', cx: r.num('cx', C), cy: r.num('cy', C), radius: r.num('radius', RANGES.length) });
    case 'segmentcollider': {
      const c = { type: 'segment' as const, x1: r.num('x1', C), y1: r.num('y1', C), x2: r.num('x2', C), y2: r.num('y2', C) };
      if (c.x1 === c.x2 && c.y1 === c.y2) r.fail(`attributes 'x1', 'y1', 'x2', 'y2': expected two different end points, got (${c.x1}, ${c.y1}) twice`);
      return colliderMaterial(r, c);
    }
    case 'polygoncollider':
      return colliderMaterial(r, { type: 'polygon', points: parsePolygonPoints(r) });
    default:
      throw new Error(`unreachable: collider tag <${r.el.tag}>`);
  }
}

/**
 * Most points of a `<polygoncollider>`. Its simplicity check is an O(N log N) sweep
 * (src/mesh/simple-polygon.ts; measured here, machine shared: 30,000 points 0.14 s, 200,000 points
 * 1.2 s; the O(N²) check it replaced took 33 s at 30,000), so the bound only caps one attribute's
 * work at about a second. The attribute-length limit of src/scene/xml-limits.ts (4 M characters)
 * usually stops a longer list first.
 */
export const MAX_POLYGON_POINTS = 200_000;

const NUMBER_TOKEN = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** `points="x0 y0 x1 y1 ..."` (white space and/or commas): a simple polygon of at least 3 distinct vertices. */
function parsePolygonPoints(r: TagReader): number[] {
  const raw = r.str('points');
  const tokens = raw.split(/[\s,]+/).filter((t) => t !== '');
  const expected = `x y pairs of numbers with |x| <= ${fmt(MAX_COORD)} (at least 3, at most ${MAX_POLYGON_POINTS} points) of a simple polygon`;
  const bad = tokens.find((t) => !NUMBER_TOKEN.test(t) || !Number.isFinite(Number(t)) || !RANGES.coordinate.ok(Number(t)));
  if (bad !== undefined) r.fail(`attribute 'points': expected ${expected}, got the value ${JSON.stringify(bad)}`);
  if (tokens.length % 2 !== 0) r.fail(`attribute 'points': expected ${expected}, got an odd count of ${tokens.length} numbers`);
  if (tokens.length < 6 || tokens.length > 2 * MAX_POLYGON_POINTS) {
    r.fail(`attribute 'points': expected ${expected}, got ${tokens.length / 2} point(s)`);
  }
  const p = tokens.map(Number);
  const problem = polygonProblem(p);
  if (problem) r.fail(`attribute 'points': expected ${expected}; ${problem}`);
  return p;
}

/** `alpha`, or its misspelling `alhpa` (seen in the course text) with a warning. */
function readAlpha(r: TagReader): number {
  if (!r.has('alpha') && r.has('alhpa')) {
    r.warn(`attribute 'alhpa' is a misspelling of 'alpha'; accepted as 'alpha'`);
    return r.num('alhpa', RANGES.coefficient);
  }
  if (r.has('alpha') && r.has('alhpa')) {
    r.fail(`both 'alpha' and its misspelling 'alhpa' are given; keep only 'alpha'`);
  }
  return r.num('alpha', RANGES.coefficient);
}

function parseForce(r: TagReader, particles: ParticleDesc[], nEdges: number): ForceDesc {
  const np = particles.length;
  const pIndex = (name: string) => r.index(name, np, 'particle');
  switch (r.el.tag) {
    case 'springforce':
      return {
        type: 'springforce',
        edge: r.index('edge', nEdges, 'edge'),
        k: r.num('k', RANGES.coefficient),
        l0: r.num('l0', RANGES.restLength), // 0: a zero-length spring (addDampedSpring takes the same range)
        b: r.num('b', RANGES.coefficient, 0),
      };
    case 'simplegravity':
      return { type: 'simplegravity', fx: r.num('fx', RANGES.force), fy: r.num('fy', RANGES.force) };
    case 'constantforce':
      return { type: 'constantforce', fx: r.num('fx', RANGES.force), fy: r.num('fy', RANGES.force) };
    case 'dragdamping':
      return { type: 'dragdamping', b: r.num('b', RANGES.coefficient) };
    case 'gravitationalforce': {
      const i = pIndex('i');
      const j = pIndex('j');
      r.distinct(['i', 'j'], [i, j]);
      return { type: 'gravitationalforce', i, j, G: r.num('G', RANGES.coefficient) };
    }
    case 'vortexforce': {
      const i = pIndex('i');
      const j = pIndex('j');
      r.distinct(['i', 'j'], [i, j]);
      return { type: 'vortexforce', i, j, kbs: r.num('kbs', RANGES.signedCoefficient), kvc: r.num('kvc', RANGES.signedCoefficient) };
    }
    case 'elasticbodyspringforce': {
      const i1 = pIndex('i1');
      const i2 = pIndex('i2');
      r.distinct(['i1', 'i2'], [i1, i2]);
      return { type: 'elasticbodyspringforce', i1, i2, alpha: readAlpha(r), l0: r.num('l0', RANGES.length) };
    }
    case 'elasticbodybendingforce': {
      const i1 = pIndex('i1');
      const i2 = pIndex('i2');
      const i3 = pIndex('i3');
      r.distinct(['i1', 'i2', 'i3'], [i1, i2, i3]);
      return { type: 'elasticbodybendingforce', i1, i2, i3, alpha: readAlpha(r), theta0: r.num('theta0', RANGES.angle) };
    }
    case 'elasticbodycstforce': {
      const i1 = pIndex('i1');
      const i2 = pIndex('i2');
      const i3 = pIndex('i3');
      r.distinct(['i1', 'i2', 'i3'], [i1, i2, i3]);
      const youngsmodulus = r.num('youngsmodulus', RANGES.positiveCoefficient);
      const poissonratio = r.num('poissonratio', RANGES.poisson);
      const p = [particles[i1], particles[i2], particles[i3]];
      const xb: [number, number, number, number, number, number] = [
        r.num('xb1x', RANGES.coordinate, p[0].px),
        r.num('xb1y', RANGES.coordinate, p[0].py),
        r.num('xb2x', RANGES.coordinate, p[1].px),
        r.num('xb2y', RANGES.coordinate, p[1].py),
        r.num('xb3x', RANGES.coordinate, p[2].px),
        r.num('xb3y', RANGES.coordinate, p[2].py),
      ];
      const ax = xb[2] - xb[0];
      const ay = xb[3] - xb[1];
      const bx = xb[4] - xb[0];
      const by = xb[5] - xb[1];
      const cross = ax * by - ay * bx;
      const scale = ax * ax + ay * ay + bx * bx + by * by;
      if (!(Math.abs(cross) > 1e-12 * scale)) {
        const pts = `(${xb[0]}, ${xb[1]}), (${xb[2]}, ${xb[3]}), (${xb[4]}, ${xb[5]})`;
        r.fail(
          `rest triangle has zero area: rest positions ${pts} (from xb1x..xb3y, defaulting to the particles' ` +
            `initial positions) are collinear or coincide; expected a non-degenerate triangle`,
        );
      }
      const f: ForceDesc = { type: 'elasticbodycstforce', i1, i2, i3, youngsmodulus, poissonratio, xb };
      const material = r.raw('material');
      if (material !== undefined) {
        if (!(MATERIALS as readonly string[]).includes(material)) r.failAttr('material', MATERIALS.join(', '), material);
        f.material = material as TriangleMaterial;
      }
      if (r.has('density')) f.density = r.num('density', RANGES.coefficient);
      return f;
    }
    default:
      throw new Error(`unreachable: force tag <${r.el.tag}>`);
  }
}

/**
 * FOSSSim reads scenes with the lenient rapidxml, which accepts attributes run
 * together (`vx="0"vy="0"`, as in an official FOSSSim scene). Insert the missing
 * space after a closing quote that is directly followed by a name; report the
 * line of the first such place (0 when there was none). Comments, CDATA and
 * processing instructions are left alone.
 */
export function separateAttributes(text: string): { text: string; line: number } {
  let out = '';
  let firstLine = 0;
  let line = 1;
  let i = 0;
  let last = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === '\n') line++;
    if (c !== '<') {
      i++;
      continue;
    }
    const skipTo = text.startsWith('<!--', i) ? '-->' : text.startsWith('<![CDATA[', i) ? ']]>' : text.startsWith('<?', i) || text.startsWith('<!', i) ? '>' : '';
    if (skipTo) {
      const end = text.indexOf(skipTo, i);
      const stop = end < 0 ? n : end + skipTo.length;
      for (let k = i; k < stop; k++) if (text[k] === '\n') line++;
      i = stop;
      continue;
    }
    // Inside a tag: walk attribute values.
    i++;
    while (i < n && text[i] !== '>') {
      const q = text[i];
      if (q === '\n') line++;
      if (q === '"' || q === "'") {
        const end = text.indexOf(q, i + 1);
        if (end < 0) return { text: out + text.slice(last), line: firstLine };
        for (let k = i + 1; k < end; k++) if (text[k] === '\n') line++;
        i = end + 1;
        if (i < n && /[A-Za-z_:]/.test(text[i]!)) {
          out += text.slice(last, i) + ' ';
          last = i;
          if (firstLine === 0) firstLine = line;
        }
        continue;
      }
      i++;
    }
  }
  return { text: out + text.slice(last), line: firstLine };
}
