/**
 * The components of an Elastica world: data only.
 *
 * Every physical quantity is a Float64Array field indexed by entity id.
 * Element components refer to particles by entity id; the topology system
 * turns these into dense, creation-ordered indices for the solver.
 */
import { defineStore, type StoreOf } from './store';

export { ensureCapacity, defineStore, resetEntity } from './store';

const particleSpec = {
  x: 'f64', y: 'f64', vx: 'f64', vy: 'f64',
  /** Mass of the particle itself (kg); triangles with a density add to it. */
  m: 'f64',
  radius: 'f64',
  fixed: 'u8',
  /** Body id for contact (src/collision): 0 = none; particles of one body share an id from world.createBody(). */
  body: 'i32',
  /**
   * Collision filter (src/collision/filter.ts): `filter` bit 1 = category / mask / group below are set (else the
   * default filter: category 1, mask all, group 0), bit 2 = sensor (reports overlaps, never pushes). Zero: default.
   */
  filter: 'u8',
  category: 'i32',
  mask: 'i32',
  group: 'i32',
} as const;

/** FOSSSim T4M1 elastic-body spring: W = α/(2 l0) (|xb − xa| − l0)². */
const elasticSpringSpec = { a: 'i32', b: 'i32', alpha: 'f64', l0: 'f64' } as const;

/** Bending hinge at b between edges a→b and b→c: W = α (θ − θ0)² / (2 (ē1 + ē2)). */
const hingeSpec = { a: 'i32', b: 'i32', c: 'i32', alpha: 'f64', theta0: 'f64', ebSum: 'f64' } as const;

/**
 * Triangle element. Rest shape is stored as its area and the inverse of the
 * rest edge matrix [x̄b − x̄a, x̄c − x̄a] (row-major b00 b01 b10 b11).
 */
const triangleSpec = {
  a: 'i32', b: 'i32', c: 'i32',
  youngsModulus: 'f64', poissonRatio: 'f64', density: 'f64',
  area: 'f64', b00: 'f64', b01: 'f64', b10: 'f64', b11: 'f64',
  /** Material id (see src/elements/materials); 0 = FOSSSim CST. */
  material: 'u8',
} as const;

/** FOSSSim `springforce`: E = ½ k (l − l0)², damping b along the spring. */
const dampedSpringSpec = { a: 'i32', b: 'i32', k: 'f64', l0: 'f64', damping: 'f64' } as const;

/** FOSSSim `gravitationalforce`: E = −G ma mb / r. */
const gravitationSpec = { a: 'i32', b: 'i32', G: 'f64' } as const;

/** FOSSSim `vortexforce` of particle a acting on particle b. */
const vortexSpec = { a: 'i32', b: 'i32', kbs: 'f64', kvc: 'f64' } as const;

/** Forces on every particle: kind 0 gravity (f is an acceleration), 1 constant force, 2 linear drag b. */
const uniformForceSpec = { kind: 'u8', fx: 'f64', fy: 'f64', b: 'f64' } as const;

/** A drawn (and later colliding) edge between two particles. */
const edgeSpec = { a: 'i32', b: 'i32', radius: 'f64' } as const;

/** A static half-plane collider: point p and normal n pointing into free space. */
const halfplaneSpec = { px: 'f64', py: 'f64', nx: 'f64', ny: 'f64' } as const;

/**
 * A static or kinematic collider (src/collision): kind 1 circle (radius), 2 segment
 * (local ends x1 y1 x2 y2, thickness radius), 3 closed polygon (local vertices
 * polyStart..polyStart+polyCount in the contact system's vertex buffer).
 * Pose (px, py, angle) about its pivot; velocity (vx, vy, omega); friction/cor < 0: the world's.
 */
const colliderSpec = {
  kind: 'u8', px: 'f64', py: 'f64', angle: 'f64', vx: 'f64', vy: 'f64', omega: 'f64',
  radius: 'f64', x1: 'f64', y1: 'f64', x2: 'f64', y2: 'f64', polyStart: 'i32', polyCount: 'i32',
  friction: 'f64', cor: 'f64',
  /**
   * Collision filter (src/collision/filter.ts): `filter` bit 1 = category / mask / group set, bit 2 = sensor,
   * bit 4 = one-way (bodies pass in the direction oneWayX, oneWayY: a unit vector). Zero: the default filter.
   */
  filter: 'u8', category: 'i32', mask: 'i32', group: 'i32', oneWayX: 'f64', oneWayY: 'f64',
} as const;

export const UNIFORM_GRAVITY = 0;
export const UNIFORM_CONSTANT = 1;
export const UNIFORM_DRAG = 2;

export interface Components {
  Particle: StoreOf<typeof particleSpec>;
  ElasticSpring: StoreOf<typeof elasticSpringSpec>;
  Hinge: StoreOf<typeof hingeSpec>;
  Triangle: StoreOf<typeof triangleSpec>;
  DampedSpring: StoreOf<typeof dampedSpringSpec>;
  Gravitation: StoreOf<typeof gravitationSpec>;
  Vortex: StoreOf<typeof vortexSpec>;
  UniformForce: StoreOf<typeof uniformForceSpec>;
  Edge: StoreOf<typeof edgeSpec>;
  Halfplane: StoreOf<typeof halfplaneSpec>;
  Collider: StoreOf<typeof colliderSpec>;
}

/** Fresh component stores for one world (stores are per world, so worlds never share state). */
export function createComponents(capacity = 64): Components {
  return {
    Particle: defineStore(particleSpec, capacity),
    ElasticSpring: defineStore(elasticSpringSpec, capacity),
    Hinge: defineStore(hingeSpec, capacity),
    Triangle: defineStore(triangleSpec, capacity),
    DampedSpring: defineStore(dampedSpringSpec, capacity),
    Gravitation: defineStore(gravitationSpec, capacity),
    Vortex: defineStore(vortexSpec, capacity),
    UniformForce: defineStore(uniformForceSpec, capacity),
    Edge: defineStore(edgeSpec, capacity),
    Halfplane: defineStore(halfplaneSpec, capacity),
    Collider: defineStore(colliderSpec, capacity),
  };
}
