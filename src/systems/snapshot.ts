/**
 * Snapshots: the complete state of a world as bytes, and the 64-bit state hash.
 *
 * A snapshot holds everything that determines the future of a world (docs/replay.md, "Snapshot
 * format"): the settings and step counter; bitECS's entity index (so entities created after a
 * restore get the same ids); every engine entity's component data, list by list in creation
 * order; and the state the step carries from one step to the next — contact (settings, polygon
 * vertices, the contact boundary's orientation, the pattern book, the topology's contact pairs, the
 * last step's active contacts), the pointer anchors, the LDLᵀ factor the next step reuses (PCG's
 * preconditioner, or the direct path's rest-chord factor), and sleeping's settings and state when they are not a fresh world's, and the particles a driven collider holds (src/collision/response.ts) while there are any. Derived data (topology, pattern, ordering, symbolic factorization) is rebuilt on restore
 * and comes out the same, because it is a function of what is stored.
 *
 * Not in a snapshot: user systems (code), a game's own components, and what a step recomputes
 * before reading (candidates, Newton iterates, scratch).
 *
 * Bytes: 'ELSN' magic, format version, engine version, payload length, a 64-bit checksum of the
 * payload, then the payload (little-endian). `readSnapshot` parses and checks everything before
 * `applySnapshot` touches the world, so bad bytes never leave a half-changed world.
 */
import { addComponent, removeEntity, entityExists, $internal, type World } from 'bitecs';
import type { Components } from '../components';
import { ensureCapacity, type Field } from '../components/store';
import type { ContactState } from '../collision/contact';
import { EVENT_NUMBERS } from '../collision/events';
import { COLLIDER_CIRCLE, COLLIDER_POLYGON } from '../collision/colliders';
import { CONTACT_SETTING_FIELDS, CONTACT_SETTING_RANGES } from '../collision/contact';
import { RANGES } from '../ranges';
import { InputError } from '../errors';
import type { CarriedFactor, NewtonSettings } from '../solver/newton';
import type { EntityLists } from '../solver/topology';
import { ByteFormatError, ByteReader, ByteWriter, Hash64, hashBytes } from './bytes';
import type { Pipeline } from './pipeline';
import { STORE_LISTS } from './ecs';
import type { SleepState } from './sleep';

/**
 * Snapshot format version: bump on any layout change (older snapshots are then refused with a clear message).
 * 2: the contact events carry more numbers per event (filters, sensors). 3: an optional sleep section at the end
 * (src/systems/sleep.ts), written only when the world's sleep settings or state differ from a fresh
 * world's, so a world without sleeping has the payload (and the state hash) of version 2. 4: the factor section
 * also carries the direct path's rest-chord factor and ends with the iterate the last Hessian was assembled at
 * (empty unless a rest chord may follow: src/solver/newton.ts, restChord). 5: the factor section ends with the
 * error factor a chord chain measured on it (0: none; src/solver/newton.ts, contractionMax). 6: an optional yield
 * section after the sleep section (the particles a driven collider was left inside of: src/collision/response.ts),
 * written only when a particle is marked, so other worlds keep version 5's payload and state hash.
 */
export const SNAPSHOT_FORMAT = 6;
/** Tags of the optional sections, in the order they are written. */
const SLEEP_SECTION = 1, YIELD_SECTION = 2;
const MAGIC = 0x4e534c45; // 'ELSN' little-endian
/** Largest entity id a snapshot may hold (guards allocations from corrupted bytes). */
const MAX_ENTITY_ID = 1 << 24;

const INTEGRATORS = ['explicit-euler', 'symplectic-euler', 'linearized-implicit-euler', 'implicit-euler'] as const;
const LIST_NAMES: readonly (keyof EntityLists)[] = STORE_LISTS.map(([, l]) => l);

/** Everything a snapshot holds, parsed and checked (applySnapshot writes it into a world). */
export interface SnapshotData {
  engineVersion: string;
  dt: number;
  integrator: (typeof INTEGRATORS)[number];
  newton: NewtonSettings | 'fosssim';
  massMatrix: 'lumped' | 'consistent';
  stepCount: number;
  nextBody: number;
  entityIndex: { maxId: number; aliveCount: number; dense: number[] };
  lists: EntityLists;
  pending: EntityLists;
  /** Per store, per field (spec order), the values of the store's entities in list order. */
  stores: Map<keyof Components, Map<string, Field>>;
  contact: ContactState;
  anchors: { eid: Int32Array; target: Float64Array; k: Float64Array };
  /**
   * The LDLᵀ factor the next step reuses (L values, D), or null: the PCG path's preconditioner, or the
   * direct path's rest-chord factor; `at` is the iterate the last Hessian was assembled at while the
   * next step may take a rest chord (NewtonSolver.restChord), else empty.
   */
  factor: CarriedFactor | null;
  /** Sleeping's settings and state, or null (a fresh world's: off, nothing asleep). */
  sleep: SleepState | null;
  /**
   * Per particle, the driven collider it was left inside of at the last response (its entity id + 1, 0: none;
   * src/collision/response.ts), or null: none.
   */
  yielded: Int32Array | null;
}

/** What the world adds that the pipeline does not know. */
export interface WorldExtras {
  nextBody: number;
  engineVersion: string;
}

// ---- writing ------------------------------------------------------------------------------------

export function writeSnapshot(p: Pipeline, ecs: World, extras: WorldExtras): Uint8Array {
  return wrapPayload(snapshotPayload(p, ecs, extras), extras.engineVersion);
}

/** The snapshot's payload (no header): what replays diff from step to step. */
export function snapshotPayload(p: Pipeline, ecs: World, extras: WorldExtras): Uint8Array {
  const ctx = p.ctx;
  p.ensureTopology();
  const w = new ByteWriter();
  w.f64(ctx.dt);
  w.str(ctx.integrator);
  writeNewton(w, ctx.newton);
  w.str(ctx.massMatrix);
  w.f64(ctx.stepCount);
  w.u32(extras.nextBody);
  // bitECS entity index
  const index = entityIndexOf(ecs);
  w.u32(index.maxId);
  w.u32(index.aliveCount);
  w.u32(index.dense.length);
  w.i32s(index.dense);
  // creation-ordered lists, entities created through bitECS awaiting their defaults
  for (const name of LIST_NAMES) writeIds(w, ctx.lists[name]);
  for (const name of LIST_NAMES) writeIds(w, ctx.pending[name]);
  // component data, store by store, field by field, in list order
  for (const [store, list] of STORE_LISTS) {
    const S = ctx.c[store] as unknown as Record<string, Field>;
    const ids = ctx.lists[list];
    for (const field of fieldsOf(ctx.c[store])) writeField(w, S[field]!, ids);
  }
  writeContact(w, p.contact.exportState(ctx));
  // anchors
  const A = p.anchors;
  w.u32(A.count);
  w.i32s(A.eid, A.count);
  w.f64s(A.target, 2 * A.count);
  w.f64s(A.k, A.count);
  // the factor the next step reuses (the PCG path's, or the direct path's rest-chord factor)
  // (anchors added or removed since the last solve: the next solve refreshes the solver first)
  const f = ctx.newtonSolver?.reusedFactor(ctx.workspace, p.anchors.version !== p.anchorsSeen) ?? null;
  w.u8(f ? 1 : 0);
  if (f) {
    w.u8(f.stale ? 1 : 0);
    w.u32(f.Lx.length);
    w.f64s(f.Lx);
    w.u32(f.D.length);
    w.f64s(f.D);
    w.u32(f.at.length);
    w.f64s(f.at);
    w.f64(f.contraction);
  }
  if (p.sleep.hasState()) writeSleep(w, p.sleep.exportState(ctx));
  const yielded = p.contact.yieldMarks(ctx);
  if (yielded) writeYield(w, yielded);
  return w.finish();
}

function writeYield(w: ByteWriter, yields: Int32Array): void {
  w.u8(YIELD_SECTION);
  w.u32(yields.length);
  w.i32s(yields);
}

function readYield(r: ByteReader, nParticles: number, boundaryCurrent: boolean, colliders: readonly number[]): Int32Array {
  if (!boundaryCurrent) throw new ByteFormatError('a yield section, but the contact state has no current boundary for it');
  const n = r.u32('the yield particle count');
  if (n !== nParticles) throw new ByteFormatError(`the yield section has ${n} particles, the snapshot ${nParticles}`);
  const yields = new Int32Array(n);
  r.i32s(yields, n, 'yields');
  const known = new Set(colliders); // a restore's check: one lookup per particle, not a scan of the colliders
  for (let i = 0; i < n; i++) {
    const v = yields[i]!;
    if (v !== 0 && !known.has(v - 1)) {
      throw new ByteFormatError(`yield of particle ${i} is ${v}; expected 0 or a collider's entity id + 1 (${colliders.map((e) => e + 1).join(', ') || 'no colliders'})`);
    }
  }
  return yields;
}

function writeSleep(w: ByteWriter, s: SleepState): void {
  w.u8(SLEEP_SECTION);
  w.u8(s.enabled ? 1 : 0);
  w.f64(s.speed);
  w.f64(s.time);
  w.i32Array(s.noSleep);
  w.u32(s.asleep.length);
  w.u8s(s.asleep);
  w.i32s(s.count);
  w.i32s(s.island);
  w.f64s(s.ref);
  w.f64Array(s.poses);
}

function readSleep(r: ByteReader, nParticles: number, nextBody: number): SleepState {
  const enabled = r.u8('the sleeping flag') === 1;
  const speed = r.f64('the sleep speed'), time = r.f64('the sleep time');
  if (!(speed >= 0 && Number.isFinite(speed)) || !(time >= 0 && Number.isFinite(time))) {
    throw new ByteFormatError(`sleep speed ${speed} and time ${time}: expected finite numbers >= 0`);
  }
  const noSleep = r.i32Array('the bodies that may not sleep');
  for (const b of noSleep) if (b < 1 || b >= nextBody) throw new ByteFormatError(`body ${b} that may not sleep is not a body id (1..${nextBody - 1})`);
  const n = r.u32('the sleep particle count');
  if (n !== nParticles) throw new ByteFormatError(`the sleep section has ${n} particles, the snapshot ${nParticles}`);
  const asleep = new Uint8Array(n), count = new Int32Array(n), island = new Int32Array(n), ref = new Float64Array(2 * n);
  r.u8s(asleep, n, 'sleep flags');
  r.i32s(count, n, 'sleep counters');
  r.i32s(island, n, 'sleep islands');
  r.f64s(ref, 2 * n, 'frozen positions');
  for (let i = 0; i < n; i++) {
    if (asleep[i]! > 1 || count[i]! < 0 || island[i]! < 0 || island[i]! >= n) throw new ByteFormatError(`sleep state of particle ${i} is inconsistent`);
  }
  requireFinite(ref, 'frozen positions');
  const poses = r.f64Array('collider poses');
  requireFinite(poses, 'collider poses');
  if (poses.length % 3 !== 0) throw new ByteFormatError('collider poses: expected 3 numbers per collider');
  return { enabled, speed, time, noSleep, asleep, count, island, ref, poses };
}

/** Header (magic, format version, engine version, length, checksum) + payload. */
export function wrapPayload(payload: Uint8Array, engineVersion: string): Uint8Array {
  const out = new ByteWriter();
  out.u32(MAGIC);
  out.u32(SNAPSHOT_FORMAT);
  out.str(engineVersion);
  out.u32(payload.length);
  out.str(hashBytes(payload));
  out.bytes(payload);
  return out.finish();
}

function writeNewton(w: ByteWriter, n: NewtonSettings | 'fosssim'): void {
  if (n === 'fosssim') {
    w.u8(0);
    return;
  }
  // mode 1: no step budget (the bytes of snapshots made before maxStepIters); 2: with one
  w.u8(n.maxStepIters > 0 ? 2 : 1);
  w.u32(n.maxIters);
  w.f64(n.tolerance);
  w.u8(n.lineSearch ? 1 : 0);
  w.str(n.projection);
  if (n.maxStepIters > 0) w.u32(n.maxStepIters);
}

function writeIds(w: ByteWriter, ids: readonly number[]): void {
  w.u32(ids.length);
  w.i32s(ids);
}

function writeField(w: ByteWriter, a: Field, ids: readonly number[]): void {
  for (let k = 0; k < ids.length; k++) {
    const v = a[ids[k]!]!;
    if (a instanceof Float64Array) w.f64(v);
    else if (a instanceof Int32Array) w.i32(v);
    else w.u8(v);
  }
}

function writeContact(w: ByteWriter, s: ContactState): void {
  w.u32(s.flags.length);
  w.u8s(s.flags);
  w.str(s.mode);
  w.str(s.simpleOrder);
  w.f64Array(s.settings);
  w.f64Array(s.polyLocal);
  w.f64Array(s.counters);
  w.i32Array(s.contactPairs);
  w.i32Array(s.pairSeen);
  w.i32Array(s.boundaryEdges);
  w.f64(s.meanEdge);
  w.f64Array(s.prevKeys);
  w.f64Array(s.prevEvents);
}

function fieldsOf(store: object): string[] {
  return Object.keys((store as { __spec: Record<string, string> }).__spec);
}

interface EntityIndexLike {
  aliveCount: number;
  dense: number[];
  sparse: number[];
  maxId: number;
  versioning: boolean;
}

function entityIndexOf(ecs: World): EntityIndexLike {
  return (ecs as unknown as Record<symbol, { entityIndex: EntityIndexLike }>)[$internal]!.entityIndex;
}

// ---- reading ------------------------------------------------------------------------------------

/** Parse and check snapshot bytes (no world is touched). Bad bytes: an InputError saying what and where. */
export function readSnapshot(bytes: Uint8Array, c: Components): SnapshotData {
  if (!(bytes instanceof Uint8Array)) throw new InputError('snapshot: expected a Uint8Array of snapshot bytes');
  try {
    return parse(bytes, c);
  } catch (e) {
    if (e instanceof ByteFormatError) throw new InputError(`snapshot: ${e.message}`);
    throw e;
  }
}

function parse(bytes: Uint8Array, c: Components): SnapshotData {
  const head = new ByteReader(bytes);
  if (bytes.length < 8 || head.u32('the magic number') !== MAGIC) throw new ByteFormatError('not an Elastica snapshot (no ELSN magic number at byte 0)');
  const format = head.u32('the format version');
  if (format !== SNAPSHOT_FORMAT) {
    throw new ByteFormatError(`format version ${format}; this engine reads version ${SNAPSHOT_FORMAT} (take the snapshot again with this version)`);
  }
  const engineVersion = head.str('the engine version');
  const len = head.u32('the payload length');
  const sum = head.str('the checksum');
  if (head.remaining !== len) throw new ByteFormatError(`the payload should be ${len} bytes, ${head.remaining} follow (truncated or padded)`);
  const payload = bytes.subarray(head.pos);
  const actual = hashBytes(payload);
  if (actual !== sum) throw new ByteFormatError(`checksum mismatch (stored ${sum}, computed ${actual}): the bytes are corrupted`);
  const r = new ByteReader(payload);
  const dt = r.f64('dt');
  if (!(dt > 0) || !Number.isFinite(dt)) throw new ByteFormatError(`dt is ${dt}, expected a finite number > 0`);
  const integrator = r.str('the integrator');
  if (!(INTEGRATORS as readonly string[]).includes(integrator)) throw new ByteFormatError(`unknown integrator '${integrator}'`);
  const newton = readNewton(r);
  const massMatrix = r.str('the mass matrix');
  if (massMatrix !== 'lumped' && massMatrix !== 'consistent') throw new ByteFormatError(`unknown mass matrix '${massMatrix}'`);
  const stepCount = r.f64('the step count');
  if (!Number.isSafeInteger(stepCount) || stepCount < 0) throw new ByteFormatError(`the step count is ${stepCount}, expected a whole number >= 0`);
  if (!Number.isInteger(stepCount) || stepCount < 0) throw new ByteFormatError(`step count ${stepCount}, expected a whole number >= 0`);
  const nextBody = r.u32('the next body id');
  const maxId = r.u32('the entity index size');
  if (maxId > MAX_ENTITY_ID) throw new ByteFormatError(`entity ids up to ${maxId}: more than ${MAX_ENTITY_ID}`);
  const aliveCount = r.u32('the live entity count');
  const nDense = r.count(r.remaining / 4, 'the entity index length');
  const denseArr = new Int32Array(nDense);
  r.i32s(denseArr, nDense, 'the entity index');
  const dense = Array.from(denseArr);
  if (aliveCount > nDense || dense.some((id) => id < 1 || id > maxId)) throw new ByteFormatError('the entity index is inconsistent');
  const alive = new Set(dense.slice(0, aliveCount));
  const lists = readLists(r, 'list', maxId);
  const pending = readLists(r, 'pending list', maxId);
  for (const name of LIST_NAMES) {
    for (const e of lists[name]) if (!alive.has(e)) throw new ByteFormatError(`entity ${e} of list '${name}' is not alive in the entity index`);
  }
  const stores = new Map<keyof Components, Map<string, Field>>();
  for (const [store, list] of STORE_LISTS) {
    const S = c[store] as unknown as Record<string, Field>;
    const n = lists[list].length;
    const fields = new Map<string, Field>();
    for (const field of fieldsOf(c[store])) {
      const proto = S[field]!;
      const a = proto instanceof Float64Array ? new Float64Array(n) : proto instanceof Int32Array ? new Int32Array(n) : new Uint8Array(n);
      if (a instanceof Float64Array) r.f64s(a, n, `${store}.${field}`);
      else if (a instanceof Int32Array) r.i32s(a, n, `${store}.${field}`);
      else r.u8s(a, n, `${store}.${field}`);
      fields.set(field, a);
    }
    stores.set(store, fields);
  }
  // the step takes the stored numbers as they are: a NaN or ∞ would be a silent NaN in the restored world
  for (const [store, fields] of stores) for (const [field, a] of fields) if (a instanceof Float64Array) requireFinite(a, `${store}.${field}`);
  const contact = readContact(r);
  checkReferences(stores, lists, contact, nextBody);
  const nA = r.count(64, 'the anchor count');
  const anchors = { eid: new Int32Array(nA), target: new Float64Array(2 * nA), k: new Float64Array(nA) };
  r.i32s(anchors.eid, nA, 'anchor entities');
  r.f64s(anchors.target, 2 * nA, 'anchor targets');
  r.f64s(anchors.k, nA, 'anchor stiffnesses');
  requireFinite(anchors.target, 'anchor targets');
  requireFinite(anchors.k, 'anchor stiffnesses');
  let factor: SnapshotData['factor'] = null;
  if (r.u8('the factor flag') === 1) {
    const stale = r.u8('the factor staleness') === 1;
    const nL = r.count(r.remaining / 8, 'the factor size');
    const Lx = new Float64Array(nL);
    r.f64s(Lx, nL, 'the factor');
    const nD = r.count(r.remaining / 8, 'the factor diagonal size');
    const D = new Float64Array(nD);
    r.f64s(D, nD, 'the factor diagonal');
    const nAt = r.count(r.remaining / 8, 'the factor point size');
    const at = new Float64Array(nAt);
    r.f64s(at, nAt, 'the factor point');
    requireFinite(at, 'the factor point');
    const contraction = r.f64('the factor contraction');
    if (!(contraction >= 0 && contraction < 1)) throw new ByteFormatError(`the factor contraction is ${contraction}; expected a number in [0, 1)`);
    factor = { Lx, D, stale, at, contraction };
  }
  // the optional sections, each at most once and in tag order
  let sleep: SleepState | null = null, yielded: Int32Array | null = null, lastTag = 0;
  while (r.remaining > 0) {
    const tag = r.u8('a section tag');
    if (tag <= lastTag || tag > YIELD_SECTION) {
      throw new ByteFormatError(`section ${tag} after ${lastTag === 0 ? 'the solver state' : `section ${lastTag}`} (expected ${lastTag < SLEEP_SECTION ? `the sleep section, ${SLEEP_SECTION}, or ` : ''}the yield section, ${YIELD_SECTION}, once each and in that order)`);
    }
    lastTag = tag;
    if (tag === SLEEP_SECTION) sleep = readSleep(r, lists.particles.length, nextBody);
    else yielded = readYield(r, lists.particles.length, contact.flags[2] === 1, lists.colliders);
  }
  return {
    engineVersion, dt, integrator: integrator as SnapshotData['integrator'], newton, massMatrix, stepCount, nextBody,
    entityIndex: { maxId, aliveCount, dense }, lists, pending, stores, contact, anchors, factor, sleep, yielded,
  };
}

/**
 * References that size arrays or bound loops, checked against what the snapshot holds: a particle's
 * body id (the sleep and contact systems size per-body tables by it) and a collider's kind and
 * polygon vertex range (an out-of-range count made a 2^31-vertex allocation, a huge body id a hang).
 */
function checkReferences(stores: Map<keyof Components, Map<string, Field>>, lists: EntityLists, contact: ContactState, nextBody: number): void {
  const P = stores.get('Particle')!, K = stores.get('Collider')!;
  const body = P.get('body')!;
  for (let k = 0; k < body.length; k++) {
    if (body[k]! < 0 || body[k]! >= nextBody) throw new ByteFormatError(`particle ${lists.particles[k]} has body ${body[k]}, expected 0 or a body id below ${nextBody}`);
  }
  const kind = K.get('kind')!, start = K.get('polyStart')!, count = K.get('polyCount')!, vertices = contact.polyLocal.length / 2;
  for (let k = 0; k < kind.length; k++) {
    const e = lists.colliders[k];
    if (kind[k]! < COLLIDER_CIRCLE || kind[k]! > COLLIDER_POLYGON) throw new ByteFormatError(`collider ${e} has kind ${kind[k]}, expected 1 (circle), 2 (segment) or 3 (polygon)`);
    if (kind[k] === COLLIDER_POLYGON && !(start[k]! >= 0 && count[k]! >= 3 && start[k]! + count[k]! <= vertices)) {
      throw new ByteFormatError(`polygon collider ${e} has vertices ${start[k]}..${start[k]! + count[k]! - 1}, expected at least 3 of the ${vertices} stored`);
    }
  }
}

/** Refuse a non-finite number where the state holds finite ones (a forged payload: its checksum matches). */
function requireFinite(a: Float64Array, what: string): void {
  for (let k = 0; k < a.length; k++) {
    if (!Number.isFinite(a[k]!)) throw new ByteFormatError(`${what}: number ${k} is ${a[k]}, expected a finite number`);
  }
}

function readNewton(r: ByteReader): NewtonSettings | 'fosssim' {
  const mode = r.u8('the Newton mode');
  if (mode === 0) return 'fosssim';
  const maxIters = r.u32('newton.maxIters');
  const tolerance = r.f64('newton.tolerance');
  const lineSearch = r.u8('newton.lineSearch') === 1;
  const projection = r.str('newton.projection');
  if (projection !== 'psd' && projection !== 'none') throw new ByteFormatError(`unknown projection '${projection}'`);
  const maxStepIters = mode === 2 ? r.u32('newton.maxStepIters') : 0;
  // the ranges WorldOptions.newton is checked with (resolveNewton): a forged maxIters of 2^32 − 1 never ends a step
  if (!RANGES.newtonIters.ok(maxIters)) throw new ByteFormatError(`newton.maxIters is ${maxIters}, expected ${RANGES.newtonIters.what}`);
  if (!RANGES.tolerance.ok(tolerance)) throw new ByteFormatError(`newton.tolerance is ${tolerance}, expected ${RANGES.tolerance.what}`);
  if (maxStepIters > 1000) throw new ByteFormatError(`newton.maxStepIters is ${maxStepIters}, expected a whole number in [0, 1000]`);
  return { maxIters, tolerance, lineSearch, projection, maxStepIters };
}

function readLists(r: ByteReader, what: string, maxId: number): EntityLists {
  const out = {} as Record<keyof EntityLists, number[]>;
  for (const name of LIST_NAMES) {
    const n = r.count(r.remaining / 4, `the ${what} '${name}'`);
    const a = new Int32Array(n);
    r.i32s(a, n, `the ${what} '${name}'`);
    for (let k = 0; k < n; k++) if (a[k]! < 1 || a[k]! > maxId) throw new ByteFormatError(`the ${what} '${name}' holds entity ${a[k]}, outside 1..${maxId}`);
    out[name] = Array.from(a);
  }
  return out as EntityLists;
}

function readContact(r: ByteReader): ContactState {
  const nFlags = r.count(16, 'contact flags');
  const flags = new Uint8Array(nFlags);
  r.u8s(flags, nFlags, 'contact flags');
  const mode = r.str('contact mode');
  if (mode !== 'game' && mode !== 'simple') throw new ByteFormatError(`unknown contact mode '${mode}'`);
  const simpleOrder = r.str('contact pair order');
  if (simpleOrder !== 'allpairs' && simpleOrder !== 'contest') throw new ByteFormatError(`unknown contact pair order '${simpleOrder}'`);
  const settings = r.f64Array('contact settings');
  // checked as their setters check them: a forged iterations = 1e39 made the next step endless
  if (settings.length !== CONTACT_SETTING_FIELDS.length) throw new ByteFormatError(`contact settings: ${settings.length} numbers, expected ${CONTACT_SETTING_FIELDS.length}`);
  CONTACT_SETTING_FIELDS.forEach((name, k) => {
    const range = CONTACT_SETTING_RANGES[name];
    if (!range.ok(settings[k]!)) throw new ByteFormatError(`contact setting '${name}' is ${settings[k]}, expected ${range.what}`);
  });
  const polyLocal = r.f64Array('polygon vertices');
  const counters = r.f64Array('contact counters');
  const contactPairs = r.i32Array('contact pattern pairs');
  const pairSeen = r.i32Array('contact pair stamps');
  const boundaryEdges = r.i32Array('contact boundary edges');
  const meanEdge = r.f64('the mean boundary edge');
  const prevKeys = r.f64Array('last step contact keys');
  const prevEvents = r.f64Array('last step contact events');
  if (prevEvents.length !== EVENT_NUMBERS * prevKeys.length) {
    throw new ByteFormatError(`${prevKeys.length} last-step contacts need ${EVENT_NUMBERS * prevKeys.length} event numbers, got ${prevEvents.length}`);
  }
  return { flags, mode, simpleOrder, settings, polyLocal, counters, contactPairs, pairSeen, boundaryEdges, meanEdge, prevKeys, prevEvents };
}

// ---- applying -----------------------------------------------------------------------------------

/**
 * Make the world hold exactly the snapshot's state: its engine entities are replaced (a game's
 * own components on them are dropped with them) unless they are the same entities, settings,
 * counters and carried state set, the topology rebuilt when the entities changed, and the carried
 * solver and contact state put back. `data` comes from readSnapshot, so nothing here can fail on
 * bad bytes.
 */
export function applySnapshot(p: Pipeline, ecs: World, data: SnapshotData, suspendObservers: (on: boolean) => void): void {
  const ctx = p.ctx;
  // Rollback fast path: the same entities (a game restoring its own recent state) keep their
  // topology, pattern and symbolic factorization; only data and carried state are written.
  const sameEntities = !ctx.topologyDirty && ctx.massMatrix === data.massMatrix && sameIndex(ecs, data) &&
    LIST_NAMES.every((l) => sameIds(ctx.lists[l], data.lists[l]) && ctx.pending[l].length === 0 && data.pending[l].length === 0);
  if (sameEntities) writeComponentData(ctx.c, data);
  else replaceEntities(p, ecs, data, suspendObservers);
  // Only what differs is written (V8's constant-field tracking: see ContactSystem.importState): rewriting
  // dt or the Newton settings with the values they hold deoptimized the pipeline's and the Newton step.
  if (!Object.is(ctx.dt, data.dt)) ctx.dt = data.dt;
  if (ctx.integrator !== data.integrator) ctx.integrator = data.integrator;
  if (!sameNewton(ctx.newton, data.newton)) ctx.newton = data.newton === 'fosssim' ? 'fosssim' : { ...data.newton };
  if (ctx.massMatrix !== data.massMatrix) ctx.massMatrix = data.massMatrix;
  ctx.stepCount = data.stepCount;
  p.ensureTopology(); // rebuilt from scratch when the entities were replaced
  p.contact.importState(ctx, data.contact);
  p.contact.importYieldMarks(data.yielded);
  const A = p.anchors;
  A.clear();
  for (let s = 0; s < data.anchors.eid.length; s++) {
    const eid = data.anchors.eid[s]!;
    A.add(eid, ctx.lists.particles.indexOf(eid), data.anchors.target[2 * s]!, data.anchors.target[2 * s + 1]!, data.anchors.k[s]!);
  }
  p.anchorsSeen = A.version; // the snapshot's world had solved with these anchors
  p.sleep.importState(ctx, data.sleep); // frozen particles before the factor: applying them marks it stale
  if (data.factor) p.restoreFactor(data.factor);
  else ctx.newtonSolver?.dropReusedFactor(); // as the snapshot's world had none: the next solve factors anew
}

/** The same Newton settings ('fosssim', or every field equal). */
function sameNewton(a: NewtonSettings | 'fosssim', b: NewtonSettings | 'fosssim'): boolean {
  if (a === 'fosssim' || b === 'fosssim') return a === b;
  return a.maxIters === b.maxIters && Object.is(a.tolerance, b.tolerance) && a.lineSearch === b.lineSearch &&
    a.projection === b.projection && a.maxStepIters === b.maxStepIters;
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

function sameIndex(ecs: World, data: SnapshotData): boolean {
  const index = entityIndexOf(ecs);
  return index.maxId === data.entityIndex.maxId && index.aliveCount === data.entityIndex.aliveCount &&
    sameIds(index.dense, data.entityIndex.dense);
}

/** Component data of the snapshot's entities into the stores (the entities exist, in the same lists). */
function writeComponentData(c: Components, data: SnapshotData): void {
  for (const [store, list] of STORE_LISTS) {
    const ids = data.lists[list];
    const fields = c[store] as unknown as Record<string, Field>;
    for (const [field, values] of data.stores.get(store)!) {
      const a = fields[field]!;
      for (let k = 0; k < ids.length; k++) a[ids[k]!] = values[k]!;
    }
  }
}

/** The engine's entities replaced by the snapshot's: bitECS's index, components, lists; topology to rebuild. */
function replaceEntities(p: Pipeline, ecs: World, data: SnapshotData, suspendObservers: (on: boolean) => void): void {
  const ctx = p.ctx;
  suspendObservers(true);
  try {
    // the engine's entities leave (in reverse creation order), without cascades
    for (let k = LIST_NAMES.length - 1; k >= 0; k--) {
      const ids = ctx.lists[LIST_NAMES[k]!];
      for (let i = ids.length - 1; i >= 0; i--) if (entityExists(ecs, ids[i]!)) removeEntity(ecs, ids[i]!);
    }
    // bitECS's entity index as it was
    const index = entityIndexOf(ecs);
    index.maxId = data.entityIndex.maxId;
    index.aliveCount = data.entityIndex.aliveCount;
    index.dense = data.entityIndex.dense.slice();
    index.sparse = [];
    for (let i = 0; i < index.dense.length; i++) index.sparse[index.dense[i]!] = i;
    // what addEntity does besides the index (bitECS 0.4): an empty component set per live entity
    const internal = (ecs as unknown as Record<symbol, { entityComponents: Map<number, Set<unknown>> }>)[$internal]!;
    for (let i = 0; i < index.aliveCount; i++) internal.entityComponents.set(index.dense[i]!, new Set());
    // entities in creation order, then their data
    for (const [store, list] of STORE_LISTS) {
      const S = ctx.c[store];
      const ids = data.lists[list];
      let maxEid = 0;
      for (const e of ids) if (e > maxEid) maxEid = e;
      ensureCapacity(S, maxEid + 1);
      for (const e of ids) addComponent(ecs, e, S);
      ctx.lists[list].length = 0;
      ctx.lists[list].push(...ids);
      ctx.pending[list].length = 0;
      ctx.pending[list].push(...data.pending[list]);
    }
    writeComponentData(ctx.c, data);
  } finally {
    suspendObservers(false);
  }
  ctx.topologyDirty = true;
}

// ---- the state hash ---------------------------------------------------------------------------

/**
 * 64-bit hash (16 hex digits) of the exact bits of everything that determines the future: the
 * same bytes a snapshot holds, less its header (engine version) — so two worlds with equal hashes
 * continue identically. Per-part hashes (`stateHashes`) point at what differs first.
 */
export function stateHash(p: Pipeline, ecs: World, extras: WorldExtras): string {
  return hashBytes(snapshotPayload(p, ecs, extras));
}

/** Hashes of the parts of the state: positions, velocities, other component data, contact, anchors and solver. */
export function stateHashes(p: Pipeline): Record<string, string> {
  const ctx = p.ctx;
  const P = ctx.c.Particle;
  const ids = ctx.lists.particles;
  const hx = new Hash64(), hv = new Hash64(), hc = new Hash64();
  for (const e of ids) {
    hx.f64(P.x[e]!);
    hx.f64(P.y[e]!);
    hv.f64(P.vx[e]!);
    hv.f64(P.vy[e]!);
  }
  for (const [store, list] of STORE_LISTS) {
    const S = ctx.c[store] as unknown as Record<string, Field>;
    for (const field of fieldsOf(ctx.c[store])) {
      if (store === 'Particle' && (field === 'x' || field === 'y' || field === 'vx' || field === 'vy')) continue;
      for (const e of ctx.lists[list]) hc.f64(S[field]![e]!);
    }
  }
  const w = new ByteWriter();
  writeContact(w, p.contact.exportState(ctx));
  const yielded = p.contact.yieldMarks(ctx);
  if (yielded) writeYield(w, yielded);
  const hk = new Hash64();
  hk.bytes(w.finish());
  return { positions: hx.hex(), velocities: hv.hex(), components: hc.hex(), contact: hk.hex(), step: String(ctx.stepCount) };
}
