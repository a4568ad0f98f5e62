/**
 * bitECS as the source of truth: how entities enter and leave the simulation, and how edits to
 * component data reach the solver. docs/design.md, "Entities and components: how a game uses
 * bitECS with Elastica", is the user's view of this file.
 *
 *   entering   one bitECS onAdd observer per engine store: addComponent(world.ecs, eid, c.Triangle)
 *              grows the store to hold eid, zeroes the entity's fields of that store, appends eid to
 *              the creation-ordered list (ctx.lists) and marks the topology dirty. PhysicsWorld.add*
 *              goes through the same addEntity + addComponent, then writes its data.
 *   defaults   an entity created through bitECS (not add*) is queued in ctx.pending; at the next
 *              topology build its unset data (0) is completed from the current positions exactly as
 *              add* computes it (shared functions below), and its data is validated (InputError).
 *   leaving    one onRemove observer per store: removeEntity / removeComponent take the entity out
 *              of its list and mark the topology dirty; a particle's removal removes the elements,
 *              forces and edges that use it (bitECS removeEntity on each).
 *   edits      every step, the sync stage compares the components with the topology's copies
 *              (diffTopology: allocation-free kernels over creation order) and, when something
 *              changed, validates the edited store and refreshes the numeric derived data in place
 *              (refreshTopology): never the pattern, ordering or symbolic factorization. A node
 *              edit (an element now using another particle) is a topology change.
 *
 * Creation order is the order of addComponent calls, whatever ids bitECS hands out or recycles.
 */
import { observe, onAdd, onRemove, removeEntity, addEntity, addComponent, type World } from 'bitecs';
import { ensureCapacity, resetEntity, UNIFORM_DRAG, type Components } from '../components';
import { cstRest, MATERIAL_NAMES } from '../elements';
import { RANGES, type Range } from '../ranges';
import { InputError } from '../errors';
import { atan2 } from '../math';
import type { EntityLists } from '../solver/topology';
import {
  diffTopology, refreshTopology, DIFF_DAMPED_SPRINGS, DIFF_EDGES, DIFF_GRAVITATION, DIFF_HINGES, DIFF_PARTICLES,
  DIFF_SPRINGS, DIFF_TRIANGLES, DIFF_UNIFORM, DIFF_VORTICES, REFRESH_CONTACT, REFRESH_SOLVER, REFRESH_STRUCTURE,
} from '../solver/topology';
import type { StepContext } from '../solver/context';

type ListName = keyof EntityLists;

/** Each engine store and the creation-ordered list its entities go to. */
export const STORE_LISTS: readonly (readonly [keyof Components, ListName])[] = [
  ['Particle', 'particles'], ['ElasticSpring', 'springs'], ['Hinge', 'hinges'], ['Triangle', 'triangles'],
  ['DampedSpring', 'dampedSprings'], ['Gravitation', 'gravitation'], ['Vortex', 'vortices'], ['UniformForce', 'uniform'],
  ['Edge', 'edges'], ['Halfplane', 'halfplanes'], ['Collider', 'colliders'],
];

/** Stores whose entities refer to particles (fields a, b and maybe c), with their list. */
const USES_PARTICLES: readonly (readonly [keyof Components, ListName])[] = [
  ['ElasticSpring', 'springs'], ['Hinge', 'hinges'], ['Triangle', 'triangles'], ['DampedSpring', 'dampedSprings'],
  ['Gravitation', 'gravitation'], ['Vortex', 'vortices'], ['Edge', 'edges'],
];

/** Defaults add* uses and a bitECS-created entity gets when the field is left at 0. */
export const DEFAULT_PARTICLE_RADIUS = 0.1;
export const DEFAULT_EDGE_RADIUS = 0.015;

/**
 * The world's bitECS observers. PhysicsWorld creates one per world, before any entity; `create`
 * is how add* makes its entities (the same addEntity + addComponent a game calls).
 */
export class EcsBridge {
  private readonly ecs: World;
  private readonly ctx: StepContext;
  /** True while add* creates an entity: it computes and validates its data itself, so nothing is queued. */
  private internal = false;
  /** True while a snapshot is restored: it sets the lists itself (src/systems/snapshot.ts). */
  suspended = false;

  constructor(ecs: World, ctx: StepContext) {
    this.ecs = ecs;
    this.ctx = ctx;
    for (const [name, list] of STORE_LISTS) {
      const store = ctx.c[name];
      observe(ecs, onAdd(store), (eid: number) => this.added(store, list, eid));
      observe(ecs, onRemove(store), (eid: number) => this.removed(list, eid));
    }
  }

  /** A new entity with one engine component, through bitECS (add*): write its fields after this. */
  create(store: object): number {
    const eid = addEntity(this.ecs);
    this.internal = true;
    try {
      addComponent(this.ecs, eid, store);
    } finally {
      this.internal = false;
    }
    return eid;
  }

  private added(store: object, list: ListName, eid: number): void {
    ensureCapacity(store, eid + 1);
    if (this.suspended) return;
    resetEntity(store, eid);
    this.ctx.lists[list].push(eid);
    if (!this.internal) this.ctx.pending[list].push(eid);
    this.ctx.topologyDirty = true;
  }

  private removed(list: ListName, eid: number): void {
    if (this.suspended) return;
    const ctx = this.ctx;
    dropFrom(ctx.lists[list], eid);
    dropFrom(ctx.pending[list], eid);
    ctx.topologyDirty = true;
    if (list !== 'particles') return;
    // the elements, forces and edges that use the particle leave with it
    for (const [name, users] of USES_PARTICLES) {
      const S = ctx.c[name] as unknown as { a: Int32Array; b: Int32Array; c?: Int32Array };
      for (const e of ctx.lists[users].slice()) {
        if (S.a[e] === eid || S.b[e] === eid || (S.c !== undefined && S.c[e] === eid)) removeEntity(this.ecs, e);
      }
    }
  }
}

function dropFrom(ids: number[], eid: number): void {
  const k = ids.indexOf(eid);
  if (k >= 0) ids.splice(k, 1);
}

// ---- the sync stage: component edits → topology -------------------------------------------------

/**
 * Sync stage, every step while the topology is current: refresh the topology's numeric data from
 * edited components. Allocation-free when nothing changed (the usual step).
 */
export function syncParams(ctx: StepContext): void {
  const mask = diffTopology(ctx.topology, ctx.c);
  if (mask !== 0) applyEdits(ctx, mask);
}

/** Validate the edited stores, refresh the topology in place, tell the Newton solver and contact. */
function applyEdits(ctx: StepContext, mask: number): void {
  validateEdited(ctx, mask);
  const r = refreshTopology(ctx.topology, ctx.c, mask);
  if ((r & REFRESH_STRUCTURE) !== 0) {
    ctx.topologyDirty = true;
    return;
  }
  if ((r & REFRESH_SOLVER) !== 0 && ctx.newtonSolver !== null) ctx.newtonSolver.refreshParams();
  if ((r & REFRESH_CONTACT) !== 0) ctx.paramsVersion++;
  ctx.stats.paramRefreshes++;
}

const DIFF_OF: Partial<Record<ListName, number>> = {
  particles: DIFF_PARTICLES, springs: DIFF_SPRINGS, hinges: DIFF_HINGES, triangles: DIFF_TRIANGLES,
  dampedSprings: DIFF_DAMPED_SPRINGS, gravitation: DIFF_GRAVITATION, vortices: DIFF_VORTICES, uniform: DIFF_UNIFORM,
  edges: DIFF_EDGES,
};

function validateEdited(ctx: StepContext, mask: number): void {
  for (const [, list] of STORE_LISTS) {
    const bit = DIFF_OF[list];
    if (bit !== undefined && (mask & bit) !== 0) for (const e of ctx.lists[list]) validateEntity(ctx.c, list, e, null);
  }
}

// ---- topology builds: complete and validate ------------------------------------------------------

/**
 * Before a topology build: fill the unset data of entities created through bitECS since the last
 * build (ctx.pending) from the current positions, exactly as add* computes it, then validate every
 * entity's data (an InputError names the store, the entity and the field). Setup rate.
 */
export function admitEntities(ctx: StepContext): void {
  const c = ctx.c, pending = ctx.pending;
  for (const [, list] of STORE_LISTS) for (const e of pending[list]) fillDefaults(c, list, e);
  const particles = new Set(ctx.lists.particles);
  for (const [, list] of STORE_LISTS) {
    for (const e of ctx.lists[list]) validateEntity(c, list, e, particles);
  }
  for (const [, list] of STORE_LISTS) for (const e of pending[list]) validateNew(c, list, e);
  for (const [, list] of STORE_LISTS) pending[list].length = 0;
}

const REST = new Float64Array(5);

/** Unset (0) data of a bitECS-created entity, as add* would have computed it. */
function fillDefaults(c: Components, list: ListName, e: number): void {
  const P = c.Particle;
  switch (list) {
    case 'particles':
      if (P.radius[e] === 0) P.radius[e] = DEFAULT_PARTICLE_RADIUS;
      break;
    case 'springs': {
      const S = c.ElasticSpring;
      if (S.l0[e] === 0 && isParticlePair(c, S.a[e]!, S.b[e]!)) S.l0[e] = restLength(c, S.a[e]!, S.b[e]!);
      break;
    }
    case 'hinges': {
      const H = c.Hinge;
      if (H.ebSum[e] === 0 && isParticlePair(c, H.a[e]!, H.b[e]!) && isParticlePair(c, H.b[e]!, H.c[e]!)) {
        hingeRest(c, H.a[e]!, H.b[e]!, H.c[e]!, REST);
        H.ebSum[e] = REST[0]!;
        if (H.theta0[e] === 0) H.theta0[e] = REST[1]!;
      }
      break;
    }
    case 'triangles': {
      const T = c.Triangle;
      const a = T.a[e]!, b = T.b[e]!, cc = T.c[e]!;
      if (T.area[e] === 0 && isParticlePair(c, a, b) && isParticlePair(c, b, cc)) {
        cstRest(P.x[a]!, P.y[a]!, P.x[b]!, P.y[b]!, P.x[cc]!, P.y[cc]!, REST);
        T.area[e] = REST[0]!;
        T.b00[e] = REST[1]!;
        T.b01[e] = REST[2]!;
        T.b10[e] = REST[3]!;
        T.b11[e] = REST[4]!;
      }
      break;
    }
    case 'edges':
      if (c.Edge.radius[e] === 0) c.Edge.radius[e] = DEFAULT_EDGE_RADIUS;
      break;
    case 'halfplanes': {
      const H = c.Halfplane, len = Math.sqrt(H.nx[e]! * H.nx[e]! + H.ny[e]! * H.ny[e]!);
      if (len > 0 && Number.isFinite(len)) {
        H.nx[e] = H.nx[e]! / len;
        H.ny[e] = H.ny[e]! / len;
      }
      break;
    }
    default:
      break;
  }
}

/** Both ids lie inside the particle store (reading their positions is safe; membership is validated later). */
function isParticlePair(c: Components, a: number, b: number): boolean {
  const n = c.Particle.x.length;
  return a > 0 && b > 0 && a < n && b < n;
}

/** Current distance between particles a and b: ElasticSpring's default l0 (addSpring and bitECS alike). */
export function restLength(c: Components, a: number, b: number): number {
  const P = c.Particle;
  return Math.sqrt((P.x[b]! - P.x[a]!) ** 2 + (P.y[b]! - P.y[a]!) ** 2);
}

/** A hinge's rest data from the current positions: out[0] = ē1 + ē2, out[1] = θ (addHinge and bitECS alike). */
export function hingeRest(c: Components, a: number, b: number, cc: number, out: Float64Array): void {
  const P = c.Particle;
  const e1x = P.x[b]! - P.x[a]!, e1y = P.y[b]! - P.y[a]!;
  const e2x = P.x[cc]! - P.x[b]!, e2y = P.y[cc]! - P.y[b]!;
  out[0] = Math.sqrt(e1x * e1x + e1y * e1y) + Math.sqrt(e2x * e2x + e2y * e2y);
  out[1] = atan2(e1x * e2y - e1y * e2x, e1x * e2x + e1y * e2y);
}

/** State a new bitECS-created particle must hold too (add* checks it at once). */
function validateNew(c: Components, list: ListName, e: number): void {
  if (list !== 'particles') return;
  const P = c.Particle;
  inRange(P.x[e]!, RANGES.coordinate, 'Particle', e, 'x');
  inRange(P.y[e]!, RANGES.coordinate, 'Particle', e, 'y');
  inRange(P.vx[e]!, RANGES.velocity, 'Particle', e, 'vx');
  inRange(P.vy[e]!, RANGES.velocity, 'Particle', e, 'vy');
}

/**
 * The rules add* applies to its arguments (the ranges of src/ranges.ts, shared with the XML loader
 * and PhysicsWorld), applied to the components' data: at topology builds
 * (`particles`: the particle ids, to check element references) and to a store edited since the
 * last step (`particles` null: references are checked by the diff, a changed one rebuilds).
 */
function validateEntity(c: Components, list: ListName, e: number, particles: Set<number> | null): void {
  switch (list) {
    case 'particles': {
      const P = c.Particle;
      inRange(P.m[e]!, RANGES.mass, 'Particle', e, 'm');
      inRange(P.radius[e]!, RANGES.radius, 'Particle', e, 'radius');
      if (P.fixed[e]! > 1) bad('Particle', e, 'fixed', '0 or 1', P.fixed[e]!);
      if (P.body[e]! < 0) bad('Particle', e, 'body', '0 or an id from createBody()', P.body[e]!);
      break;
    }
    case 'springs': {
      const S = c.ElasticSpring;
      nodes(particles, 'ElasticSpring', e, S.a[e]!, S.b[e]!);
      inRange(S.alpha[e]!, RANGES.coefficient, 'ElasticSpring', e, 'alpha');
      inRange(S.l0[e]!, RANGES.length, 'ElasticSpring', e, 'l0');
      break;
    }
    case 'hinges': {
      const H = c.Hinge;
      nodes(particles, 'Hinge', e, H.a[e]!, H.b[e]!, H.c[e]!);
      inRange(H.alpha[e]!, RANGES.coefficient, 'Hinge', e, 'alpha');
      inRange(H.theta0[e]!, RANGES.angle, 'Hinge', e, 'theta0');
      if (!(H.ebSum[e]! > 0) || !Number.isFinite(H.ebSum[e]!)) bad('Hinge', e, 'ebSum', 'a finite number > 0 (the rest edges have zero total length?)', H.ebSum[e]!);
      break;
    }
    case 'triangles': {
      const T = c.Triangle;
      nodes(particles, 'Triangle', e, T.a[e]!, T.b[e]!, T.c[e]!);
      inRange(T.youngsModulus[e]!, RANGES.positiveCoefficient, 'Triangle', e, 'youngsModulus');
      inRange(T.poissonRatio[e]!, RANGES.poisson, 'Triangle', e, 'poissonRatio');
      inRange(T.density[e]!, RANGES.coefficient, 'Triangle', e, 'density');
      if (!(T.material[e]! < MATERIAL_NAMES.length)) bad('Triangle', e, 'material', `an id in [0, ${MATERIAL_NAMES.length})`, T.material[e]!);
      if (!(T.area[e]! > 0) || !Number.isFinite(T.area[e]!)) bad('Triangle', e, 'area', 'a finite number > 0 (the rest triangle has zero area?)', T.area[e]!);
      finite(T.b00[e]!, 'Triangle', e, 'b00');
      finite(T.b01[e]!, 'Triangle', e, 'b01');
      finite(T.b10[e]!, 'Triangle', e, 'b10');
      finite(T.b11[e]!, 'Triangle', e, 'b11');
      break;
    }
    case 'dampedSprings': {
      const D = c.DampedSpring;
      nodes(particles, 'DampedSpring', e, D.a[e]!, D.b[e]!);
      inRange(D.k[e]!, RANGES.coefficient, 'DampedSpring', e, 'k');
      inRange(D.l0[e]!, RANGES.restLength, 'DampedSpring', e, 'l0');
      inRange(D.damping[e]!, RANGES.coefficient, 'DampedSpring', e, 'damping');
      break;
    }
    case 'gravitation':
      nodes(particles, 'Gravitation', e, c.Gravitation.a[e]!, c.Gravitation.b[e]!);
      inRange(c.Gravitation.G[e]!, RANGES.coefficient, 'Gravitation', e, 'G');
      break;
    case 'vortices':
      nodes(particles, 'Vortex', e, c.Vortex.a[e]!, c.Vortex.b[e]!);
      inRange(c.Vortex.kbs[e]!, RANGES.signedCoefficient, 'Vortex', e, 'kbs');
      inRange(c.Vortex.kvc[e]!, RANGES.signedCoefficient, 'Vortex', e, 'kvc');
      break;
    case 'uniform': {
      const U = c.UniformForce;
      if (U.kind[e]! > UNIFORM_DRAG) bad('UniformForce', e, 'kind', '0 (gravity), 1 (constant force) or 2 (drag)', U.kind[e]!);
      inRange(U.fx[e]!, RANGES.force, 'UniformForce', e, 'fx');
      inRange(U.fy[e]!, RANGES.force, 'UniformForce', e, 'fy');
      inRange(U.b[e]!, RANGES.coefficient, 'UniformForce', e, 'b');
      break;
    }
    case 'edges': {
      const E = c.Edge;
      if (particles !== null) {
        for (const f of ['a', 'b'] as const) {
          if (!particles.has(E[f][e]!)) bad('Edge', e, f, 'a particle entity of this world', E[f][e]!);
        }
      }
      if (particles !== null && E.a[e] === E.b[e]) bad('Edge', e, 'a, b', 'two different particles', E.a[e]!);
      inRange(E.radius[e]!, RANGES.radius, 'Edge', e, 'radius');
      break;
    }
    case 'halfplanes': {
      const H = c.Halfplane;
      for (const f of ['px', 'py', 'nx', 'ny'] as const) inRange(H[f][e]!, RANGES.coordinate, 'Halfplane', e, f);
      if (H.nx[e] === 0 && H.ny[e] === 0) bad('Halfplane', e, 'nx, ny', 'a non-zero normal', 0);
      break;
    }
    default:
      break; // colliders: made by add*Collider (a polygon needs contact's vertex buffer); taken as written
  }
}

/**
 * An element's nodes: distinct particle entities of this world (checked at topology builds, once per element:
 * no arrays or closures, which a spawn's topology build made thousands of).
 */
function nodes(particles: Set<number> | null, store: string, e: number, a: number, b: number, cc?: number): void {
  if (particles === null) return;
  const three = cc !== undefined;
  if (!particles.has(a)) bad(store, e, 'a', 'a particle entity of this world', a);
  if (!particles.has(b)) bad(store, e, 'b', 'a particle entity of this world', b);
  if (three && !particles.has(cc)) bad(store, e, 'c', 'a particle entity of this world', cc);
  if (a === b || b === cc || a === cc) {
    throw new InputError(`${store} entity ${e}: its particles (c.${store}.${three ? 'a, b, c' : 'a, b'}) must differ, got ${three ? `${a}, ${b}, ${cc}` : `${a}, ${b}`}`);
  }
}

function finite(v: number, store: string, e: number, field: string): void {
  if (!Number.isFinite(v)) bad(store, e, field, 'a finite number', v);
}

function inRange(v: number, range: Range, store: string, e: number, field: string): void {
  if (!Number.isFinite(v) || !range.ok(v)) bad(store, e, field, range.what, v);
}

function bad(store: string, e: number, field: string, expected: string, got: number): never {
  throw new InputError(`${store} entity ${e}: c.${store}.${field}[${e}] must be ${expected}, got ${got}`);
}
