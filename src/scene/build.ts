/**
 * Scene description → entities in a PhysicsWorld, with FOSSSim's semantics:
 * no implicit gravity, forces exactly as listed, particle i is the i-th tag.
 */
import { PhysicsWorld } from '../world';
import type { SceneDescription } from './types';
import { InputError } from '../errors';
import { PenaltyTerm } from '../collision/penalty';

export interface BuiltScene {
  world: PhysicsWorld;
  /** Entity id of the i-th particle of the file. */
  particles: number[];
  steps: number;
}

/** Number of steps FOSSSim takes for a scene: ceil(duration / dt). */
export function sceneSteps(desc: SceneDescription): number {
  return Math.ceil(desc.duration / desc.integrator.dt);
}

export function buildScene(desc: SceneDescription): BuiltScene {
  const it = desc.integrator;
  // Game-mode Newton only when the scene asks for it with any of its attributes.
  const game = it.maxiters !== undefined || it.tolerance !== undefined || it.linesearch !== undefined || it.projection !== undefined;
  const newton = game
    ? {
        ...(it.maxiters !== undefined ? { maxIters: it.maxiters } : {}),
        ...(it.tolerance !== undefined ? { tolerance: it.tolerance } : {}),
        ...(it.linesearch !== undefined ? { lineSearch: it.linesearch } : {}),
        ...(it.projection !== undefined ? { projection: it.projection } : {}),
      }
    : ('fosssim' as const);
  if (game && (it.type === 'implicit-euler' || it.type === 'linearized-implicit-euler') && desc.forces.some((f) => f.type === 'vortexforce')) {
    throw new InputError(
      `${desc.source}: <integrator> with game-mode attributes (maxiters/tolerance/linesearch/projection) cannot simulate ` +
        '<vortexforce>: it has no potential or dissipation function; remove those attributes for FOSSSim semantics',
    );
  }
  const world = new PhysicsWorld({ dt: it.dt, gravity: null, integrator: it.type, newton, massMatrix: desc.massmatrix ?? 'lumped' });
  const at = located(desc);
  const particles = desc.particles.map((p) =>
    at('particle', () => world.addParticle({ x: p.px, y: p.py, vx: p.vx, vy: p.vy, m: p.m, fixed: p.fixed, radius: p.radius })),
  );
  const edgeEnds = desc.edges.map((e) => [particles[e.i]!, particles[e.j]!] as const);
  desc.edges.forEach((e, k) => at('edge', () => world.addEdge(edgeEnds[k]![0], edgeEnds[k]![1], e.radius)));
  for (const h of desc.halfplanes) at('halfplane', () => world.addHalfplane(h.px, h.py, h.nx, h.ny));
  buildContact(world, desc, at);
  for (const f of desc.forces) at(f.type, () => addForce(world, f, particles, edgeEnds));
  return { world, particles, steps: sceneSteps(desc) };
}

/**
 * The scene's n-th tag of a name (counted as the parser counts them, from 0) made by an entity
 * call: an InputError of the call (a check the parser does not repeat, e.g. a hinge whose three
 * particles coincide) names the file and the tag, as the parser's own messages do.
 */
function located(desc: SceneDescription): <T>(tag: string, make: () => T) => T {
  const counts = new Map<string, number>();
  return (tag, make) => {
    const n = counts.get(tag) ?? 0;
    counts.set(tag, n + 1);
    try {
      return make();
    } catch (e) {
      if (e instanceof InputError) throw new InputError(`${desc.source}: <${tag}> #${n}: ${e.message}`);
      throw e;
    }
  };
}

/** One `forces` entry of the description as an engine entity. */
function addForce(world: PhysicsWorld, f: SceneDescription['forces'][number], particles: number[], edgeEnds: (readonly [number, number])[]): void {
  switch (f.type) {
    case 'springforce':
      world.addDampedSpring(edgeEnds[f.edge]![0], edgeEnds[f.edge]![1], { k: f.k, l0: f.l0, b: f.b });
      break;
    case 'simplegravity':
      world.addGravity(f.fx, f.fy);
      break;
    case 'gravitationalforce':
      world.addGravitation(particles[f.i]!, particles[f.j]!, f.G);
      break;
    case 'constantforce':
      world.addConstantForce(f.fx, f.fy);
      break;
    case 'dragdamping':
      world.addDrag(f.b);
      break;
    case 'vortexforce':
      world.addVortex(particles[f.i]!, particles[f.j]!, f.kbs, f.kvc);
      break;
    case 'elasticbodyspringforce':
      world.addSpring(particles[f.i1]!, particles[f.i2]!, { alpha: f.alpha, l0: f.l0 });
      break;
    case 'elasticbodybendingforce':
      world.addHinge(particles[f.i1]!, particles[f.i2]!, particles[f.i3]!, { alpha: f.alpha, theta0: f.theta0 });
      break;
    case 'elasticbodycstforce':
      world.addTriangle(particles[f.i1]!, particles[f.i2]!, particles[f.i3]!, {
        youngsModulus: f.youngsmodulus, poissonRatio: f.poissonratio, rest: f.xb,
        material: f.material, density: f.density,
      });
      break;
  }
}

/**
 * `<collision>` and colliders. 'simple': FOSSSim's SimpleCollisionHandler after every step, pairs
 * in the order of `<collisiondetection type>`; 'game': the engine's contact (src/collision).
 */
function buildContact(world: PhysicsWorld, desc: SceneDescription, at: ReturnType<typeof located>): void {
  const c = desc.collision;
  if (c === undefined || c.type === 'none') return;
  if (c.type === 'penalty') {
    world.penalty = penaltyTerm(desc, c.k, c.thickness);
    return;
  }
  const contacts = world.contacts;
  contacts.enabled = true;
  contacts.cor = c.cor;
  if (c.type === 'simple') {
    contacts.mode = 'simple';
    contacts.simpleOrder = desc.collisiondetection?.type === 'contest' ? 'contest' : 'allpairs';
    return;
  }
  contacts.mode = 'game';
  contacts.friction = c.friction;
  for (const k of desc.colliders) {
    const opts = { ...(k.cor !== undefined ? { cor: k.cor } : {}), ...(k.friction !== undefined ? { friction: k.friction } : {}) };
    if (k.type === 'circle') at('circlecollider', () => world.addCircleCollider(k.cx, k.cy, k.radius, opts));
    else if (k.type === 'segment') at('segmentcollider', () => world.addSegmentCollider(k.x1, k.y1, k.x2, k.y2, opts));
    else at('polygoncollider', () => world.addPolygonCollider(k.points, opts));
  }
}

/** FOSSSim's penalty force over the scene's particles, edges and half-planes (indices = file order). */
function penaltyTerm(desc: SceneDescription, k: number, thickness: number): PenaltyTerm {
  const hp = new Float64Array(4 * desc.halfplanes.length);
  desc.halfplanes.forEach((h, i) => {
    const len = Math.sqrt(h.nx * h.nx + h.ny * h.ny);
    hp.set([h.px, h.py, h.nx / len, h.ny / len], 4 * i);
  });
  return new PenaltyTerm({
    radius: Float64Array.from(desc.particles, (p) => p.radius),
    edges: Int32Array.from(desc.edges.flatMap((e) => [e.i, e.j])),
    edgeRadius: Float64Array.from(desc.edges, (e) => e.radius),
    halfplanes: hp,
  }, k, thickness);
}
