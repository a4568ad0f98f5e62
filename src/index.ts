/**
 * `elastica`: the public API of the engine. Browser- and Node-safe: nothing here imports Phaser or node:*.
 *
 * - The engine: PhysicsWorld (SI units: m, kg, s; y up) and its option types.
 * - FOSSSim XML scenes from text: parseSceneXml → SceneDescription → buildScene (a ready PhysicsWorld).
 *   Reading a scene file from disk is `elastica/node`.
 * - Meshing helpers (box, sheet, circle, polygon, rope polylines, display refinement).
 * - The Phaser-free game core (SoftSim: pixel units, fixed-step loop, bodies, colliders), which
 *   `elastica/phaser` drives from a Phaser scene; usable headless, e.g. in game logic tests.
 * - InputError, the error every bad input throws; SimulationError, a FOSSSim-exact run that failed; `math`, the deterministic math the engine uses.
 *
 * Anything not exported here, from `elastica/phaser` or from `elastica/node` is internal and may change
 * in any release. docs/api.md lists the public API.
 */
export { PhysicsWorld, warmUpEngine, MAX_WARMUP_STEPS } from './world';
export type { WarmUpAsyncOptions, WarmUpOptions, WarmUpReport } from './world';
export type { WorldOptions, ParticleOptions, TriangleOptions, ColliderOptions } from './world';
// the fixed step's stages and user systems (world.addSystem), the step context they receive, the last step's stats
export { STAGES, SystemError } from './systems/pipeline';
export type { StageName, SystemFn, SystemPlacement } from './systems/pipeline';
export type { StepContext } from './solver/context';
export type { StepStats } from './solver/stats';
export type { NewtonSettings } from './solver/newton';
export type { ContactEvent } from './collision/contact';
// snapshots (world.snapshot / restore / stateHash), recording and replay, deterministic-test helpers (docs/replay.md)
export { SNAPSHOT_FORMAT } from './systems/snapshot';
export { Recorder, readReplay, replay, seek, REPLAY_FORMAT } from './replay';
export type { RecordOptions, Replay, ReplayHeader, ReplayResult } from './replay';
export { simulateTwiceAndCompare, expectReplayMatches } from './testing';
export type { TwiceResult } from './testing';

export { InputError, SimulationError } from './errors';

export { parseSceneXml } from './scene/xml';
export { buildScene, sceneSteps } from './scene/build';
export type { BuiltScene } from './scene/build';
export type {
  SceneDescription, IntegratorType, IntegratorDesc, ParticleDesc, EdgeDesc, HalfplaneDesc, ForceDesc,
  TriangleMaterial, CollisionDesc, ColliderDesc, ColliderMaterial, Rgb,
} from './scene/types';

export {
  meshBox, meshSheet, meshCircle, meshPolygon, ropePoints, refineMesh, triangulate, meshReport, uniqueEdges,
  normalizeOutline, polygonArea, pointInPolygon,
} from './mesh';
export type { MeshData, SheetData, PolygonMeshOptions, MeshReport } from './mesh';

export { SoftSim, SoftBody, ropeParameters, ROPE_REFERENCE_GRAVITY } from './game/sim';
export type {
  SoftSimOptions, JellyOptions, RopeOptions, SheetOptions, MaterialOptions, BodyKind, StepListener,
} from './game/sim';
export { Collider } from './game/colliders';
export type { ColliderShape, GameColliderOptions } from './game/colliders';
export type { CollisionFilter, FilterOptions, OneWay } from './systems/filters';
export type { SoftContact, ContactType, ContactListener, RaycastHit, SoftFailSafe, FailSafeListener } from './game/sim';
export type { SoftQueries } from './game/queries';
export { Attachment } from './game/sim';
export type { AttachTarget, AttachOptions } from './game/sim';
export { BodyControl, BodyForces } from './systems/bodies';
export { FixedStepAccumulator } from './game/accumulator';
export type { AccumulatorOptions } from './game/accumulator';

/**
 * Deterministic math (bit-identical across JavaScript engines): sin, cos, sincos, atan, atan2, exp, log, pow, cbrt,
 * and the seeded PRNG (Rng, mulberry32). Use these instead of Math.* in code whose results must replay exactly.
 */
export * as math from './math';
