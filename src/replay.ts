/**
 * Recording and replay (docs/replay.md): what a player did, as bytes that re-simulate bit for bit
 * in any JavaScript engine, and their verification.
 *
 * Recording captures inputs by their effect on the state, whatever path they took (the plugin's
 * drag, the game API, a game's own writes to components): before each step's `sync` stage it takes
 * the world's snapshot payload and compares it with the payload the previous step ended with; the
 * bytes that differ are the step's input (a delta), and a payload of another length (entities
 * added or removed) is stored whole. After each step (every `hashEvery` steps) it keeps the state
 * hash. So a replay needs no list of input kinds, and anything that changes the simulation between
 * steps is in it. User systems are code, not data: a world replaying a game that registered systems
 * which change the state inside a step (ctx.x / ctx.v) must register the same systems.
 *
 * File: 'ELRP' magic, a JSON header (format, engine version, steps, dt, hashEvery, snapshotEvery),
 * then the binary body: the initial snapshot, per step its input (none / delta / whole payload),
 * the hashes, and periodic snapshots for seeking. Bad bytes: InputError, nothing replayed.
 */
import { InputError } from './errors';
import { ByteFormatError, ByteReader, ByteWriter, Hash64, hashBytes } from './systems/bytes';
import { STAGES } from './systems/pipeline';
import { wrapPayload } from './systems/snapshot';
import { ENGINE_VERSION } from './version';
import { PhysicsWorld } from './world';
import type { StepContext } from './solver/context';

export const REPLAY_FORMAT = 1;
const MAGIC = 0x50524c45; // 'ELRP' little-endian
const INPUT_NONE = 0, INPUT_DELTA = 1, INPUT_WHOLE = 2;
/** Equal bytes that may separate two changed runs and still be stored in one run. */
const RUN_GAP = 16;

export interface RecordOptions {
  /** Keep the state hash every this many steps (default 1: every step). */
  hashEvery?: number;
  /** Keep a whole snapshot every this many steps, for seeking (default 600: every 10 s at 60 Hz). */
  snapshotEvery?: number;
  /**
   * Also keep, every step, a hash of the dense state (ctx.x, ctx.v) after each pipeline stage, so a
   * verification names the stage that first differed (debugging a divergence; costs a hash per stage).
   */
  stageHashes?: boolean;
}

export interface ReplayHeader {
  format: string;
  version: number;
  engine: string;
  steps: number;
  dt: number;
  hashEvery: number;
  snapshotEvery: number;
  /** Per-stage hashes kept (RecordOptions.stageHashes). */
  stageHashes?: boolean;
}

/** A parsed replay. */
export interface Replay {
  header: ReplayHeader;
  /** The world's snapshot when recording began. */
  initial: Uint8Array;
  /** Per step: its input (null: none; kind INPUT_DELTA runs or INPUT_WHOLE payload). */
  inputs: (Uint8Array | null)[];
  inputKinds: Uint8Array;
  /** State hash after step k (k = hashEvery − 1, 2 hashEvery − 1, …), indexed by step; '' where none was kept. */
  hashes: string[];
  /** Whole snapshots after step k, for seeking. */
  snapshots: Map<number, Uint8Array>;
  /** Per step, the dense state's hash after each stage (STAGES order), when recorded. */
  stageHashes: string[][] | null;
}

/**
 * Records a world from now on. Call `stop()` for the replay bytes. Registers a system before the
 * sync stage (after any already there) and one after the render stage.
 */
export class Recorder {
  private readonly world: PhysicsWorld;
  private readonly hashEvery: number;
  private readonly snapshotEvery: number;
  private readonly initial: Uint8Array;
  private endPayload: Uint8Array;
  private readonly inputs: ByteWriter = new ByteWriter();
  private readonly hashes: string[] = [];
  private readonly snapshots: [number, Uint8Array][] = [];
  private steps = 0;
  private stopped = false;
  private readonly stageLog: string[][] | null;
  private readonly stageTracker: StageTracker | null;
  private readonly before = (_ctx: StepContext): void => this.captureInput();
  private readonly after = (_ctx: StepContext): void => this.captureEnd();

  constructor(world: PhysicsWorld, opts: RecordOptions = {}) {
    this.world = world;
    this.hashEvery = opts.hashEvery ?? 1;
    this.snapshotEvery = opts.snapshotEvery ?? 600;
    for (const [k, v] of [['hashEvery', this.hashEvery], ['snapshotEvery', this.snapshotEvery]] as const) {
      if (!Number.isInteger(v) || v < 1) throw new InputError(`record: '${k}' must be a whole number >= 1, got ${v}`);
    }
    this.initial = world.snapshot();
    this.endPayload = world.snapshotPayload();
    // the stage hashes first: their render-stage system must run before captureEnd takes them
    this.stageLog = opts.stageHashes ? [] : null;
    this.stageTracker = opts.stageHashes ? new StageTracker(world) : null;
    world.addSystem('sync', this.before, { before: true });
    world.addSystem('render', this.after);
  }

  private captureInput(): void {
    const now = this.world.snapshotPayload();
    const w = this.inputs;
    if (now.length !== this.endPayload.length) {
      w.u8(INPUT_WHOLE);
      w.u32(now.length);
      w.bytes(now);
      return;
    }
    const runs = diffRuns(this.endPayload, now);
    if (runs.length === 0) {
      w.u8(INPUT_NONE);
      return;
    }
    w.u8(INPUT_DELTA);
    w.u32(runs.length / 2);
    for (let k = 0; k < runs.length; k += 2) {
      const a = runs[k]!, b = runs[k + 1]!;
      w.u32(a);
      w.u32(b - a);
      w.bytes(now.subarray(a, b));
    }
  }

  private captureEnd(): void {
    this.endPayload = this.world.snapshotPayload();
    const k = this.steps++;
    if (this.stageTracker) this.stageLog!.push(this.stageTracker.take());
    this.hashes.push((k + 1) % this.hashEvery === 0 ? hashBytes(this.endPayload) : '');
    if ((k + 1) % this.snapshotEvery === 0) this.snapshots.push([k, wrapPayload(this.endPayload, ENGINE_VERSION)]);
  }

  /** Stop recording (the systems are removed) and return the replay bytes. */
  stop(): Uint8Array {
    if (!this.stopped) {
      this.world.removeSystem(this.before);
      this.world.removeSystem(this.after);
      this.stageTracker?.detach();
      this.stopped = true;
    }
    const header: ReplayHeader = {
      format: 'elastica-replay', version: REPLAY_FORMAT, engine: ENGINE_VERSION, steps: this.steps,
      dt: this.world.dt, hashEvery: this.hashEvery, snapshotEvery: this.snapshotEvery, stageHashes: this.stageLog !== null,
    };
    const w = new ByteWriter();
    w.u32(MAGIC);
    w.str(JSON.stringify(header));
    w.u32(this.initial.length);
    w.bytes(this.initial);
    const inputs = this.inputs.finish();
    w.u32(inputs.length);
    w.bytes(inputs);
    for (const h of this.hashes) w.str(h);
    if (this.stageLog) for (const hs of this.stageLog) w.str(hs.join(','));
    w.u32(this.snapshots.length);
    for (const [k, s] of this.snapshots) {
      w.u32(k);
      w.u32(s.length);
      w.bytes(s);
    }
    return w.finish();
  }
}

/** The dense state's hash after each stage of a step (per-stage hashes: which stage first differed). */
class StageTracker {
  private readonly world: PhysicsWorld;
  private readonly current: string[] = STAGES.map(() => '');
  private readonly fns: ((ctx: StepContext) => void)[];

  constructor(world: PhysicsWorld) {
    this.world = world;
    this.fns = STAGES.map((_s, i) => (ctx: StepContext): void => {
      const h = new Hash64();
      h.f64s(ctx.x);
      h.f64s(ctx.v);
      this.current[i] = h.hex();
    });
    STAGES.forEach((stage, i) => world.addSystem(stage, this.fns[i]!));
  }

  /** This step's stage hashes (and reset). */
  take(): string[] {
    const out = this.current.slice();
    this.current.fill('');
    return out;
  }

  detach(): void {
    for (const f of this.fns) this.world.removeSystem(f);
  }
}

/** Changed byte runs [a, b) of two equal-length payloads, merged across gaps of fewer than RUN_GAP equal bytes. */
function diffRuns(prev: Uint8Array, now: Uint8Array): number[] {
  const runs: number[] = [];
  const n = now.length;
  let i = 0;
  while (i < n) {
    if (prev[i] === now[i]) {
      i++;
      continue;
    }
    const a = i;
    let b = i + 1, same = 0;
    for (let j = i + 1; j < n && same < RUN_GAP; j++) {
      if (prev[j] === now[j]) same++;
      else {
        same = 0;
        b = j + 1;
      }
    }
    runs.push(a, b);
    i = b;
  }
  return runs;
}

/** Parse replay bytes (checked; InputError naming what is wrong). */
export function readReplay(bytes: Uint8Array): Replay {
  if (!(bytes instanceof Uint8Array)) throw new InputError('replay: expected a Uint8Array of replay bytes');
  try {
    const r = new ByteReader(bytes);
    if (bytes.length < 4 || r.u32('the magic number') !== MAGIC) throw new ByteFormatError('not an Elastica replay (no ELRP magic number at byte 0)');
    let header: ReplayHeader;
    try {
      header = JSON.parse(r.str('the header')) as ReplayHeader;
    } catch (e) {
      if (e instanceof ByteFormatError) throw e;
      throw new ByteFormatError('the header is not valid JSON');
    }
    if (typeof header !== 'object' || header === null || Array.isArray(header)) throw new ByteFormatError('the header is not a JSON object');
    if (header.format !== 'elastica-replay' || header.version !== REPLAY_FORMAT) {
      throw new ByteFormatError(`format '${String(header.format)}' version ${String(header.version)}; this engine reads elastica-replay version ${REPLAY_FORMAT}`);
    }
    for (const k of ['steps', 'hashEvery', 'snapshotEvery'] as const) {
      if (!Number.isInteger(header[k]) || header[k] < 0) throw new ByteFormatError(`header '${k}' must be a whole number, got ${String(header[k])}`);
    }
    // every step takes at least one input byte: a larger count is not this file's (and would size arrays)
    if (header.steps > r.remaining) throw new ByteFormatError(`header 'steps' is ${header.steps}, more than the ${r.remaining} bytes after the header can hold`);
    const nInit = r.count(r.remaining, 'the initial snapshot length');
    const initial = bytes.slice(r.pos, r.pos + nInit);
    r.pos += nInit;
    const nIn = r.count(r.remaining, 'the inputs length');
    const inputsBytes = bytes.subarray(r.pos, r.pos + nIn);
    r.pos += nIn;
    const inputs: (Uint8Array | null)[] = [];
    const kinds = new Uint8Array(header.steps);
    const ir = new ByteReader(inputsBytes);
    for (let k = 0; k < header.steps; k++) {
      const start = ir.pos;
      const kind = ir.u8(`step ${k}'s input kind`);
      kinds[k] = kind;
      if (kind === INPUT_NONE) {
        inputs.push(null);
        continue;
      }
      if (kind === INPUT_WHOLE) {
        const n = ir.count(ir.remaining, `step ${k}'s payload length`);
        ir.pos += n;
      } else if (kind === INPUT_DELTA) {
        const runs = ir.count(ir.remaining / 8, `step ${k}'s run count`);
        for (let q = 0; q < runs; q++) {
          ir.u32(`step ${k}'s run offset`);
          const len = ir.count(ir.remaining, `step ${k}'s run length`);
          ir.pos += len;
        }
      } else throw new ByteFormatError(`step ${k}: unknown input kind ${kind}`);
      inputs.push(inputsBytes.subarray(start + 1, ir.pos));
    }
    if (ir.remaining !== 0) throw new ByteFormatError(`${ir.remaining} input bytes left after step ${header.steps}`);
    const hashes: string[] = [];
    for (let k = 0; k < header.steps; k++) {
      const h = r.str(`step ${k}'s hash`);
      if (h !== '' && !/^[0-9a-f]{16}$/.test(h)) throw new ByteFormatError(`step ${k}'s hash '${h}' is not 16 hex digits`);
      hashes.push(h);
    }
    let stageHashes: string[][] | null = null;
    if (header.stageHashes === true) {
      stageHashes = [];
      for (let k = 0; k < header.steps; k++) {
        const hs = r.str(`step ${k}'s stage hashes`).split(',');
        if (hs.length !== STAGES.length || hs.some((h) => !/^[0-9a-f]{16}$/.test(h))) throw new ByteFormatError(`step ${k}'s stage hashes are not ${STAGES.length} hashes`);
        stageHashes.push(hs);
      }
    }
    const nSnap = r.count(r.remaining / 8, 'the snapshot count');
    const snapshots = new Map<number, Uint8Array>();
    for (let q = 0; q < nSnap; q++) {
      const k = r.u32('a snapshot step');
      const n = r.count(r.remaining, 'a snapshot length');
      snapshots.set(k, bytes.slice(r.pos, r.pos + n));
      r.pos += n;
    }
    if (r.remaining !== 0) throw new ByteFormatError(`${r.remaining} bytes left after the replay's last section`);
    return { header, initial, inputs, inputKinds: kinds, hashes, snapshots, stageHashes };
  } catch (e) {
    if (e instanceof ByteFormatError) throw new InputError(`replay: ${e.message}`);
    throw e;
  }
}

/** Put step k's recorded input (if any) into the world, before its step. */
export function applyReplayInput(world: PhysicsWorld, rep: Replay, k: number): void {
  const input = rep.inputs[k];
  if (input) applyInput(world, rep.inputKinds[k]!, input);
}

function applyInput(world: PhysicsWorld, kind: number, input: Uint8Array): void {
  let payload: Uint8Array;
  const r = new ByteReader(input);
  if (kind === INPUT_WHOLE) {
    const n = r.u32();
    payload = input.slice(r.pos, r.pos + n);
  } else {
    payload = world.snapshotPayload();
    const runs = r.u32();
    for (let q = 0; q < runs; q++) {
      const at = r.u32(), len = r.u32();
      if (at + len > payload.length) throw new InputError(`replay: an input run (${at}+${len}) lies outside the state (${payload.length} bytes): the replay does not belong to this world`);
      payload.set(input.subarray(r.pos, r.pos + len), at);
      r.pos += len;
    }
  }
  world.restore(wrapPayload(payload, ENGINE_VERSION));
}

export interface ReplayResult {
  ok: boolean;
  /** Steps re-simulated and hashes compared. */
  steps: number;
  hashesCompared: number;
  /**
   * The first step whose hash differs, with both hashes and the state's part hashes after it, and —
   * when the replay kept stage hashes — the first stage of the first step whose dense state differed.
   */
  mismatch: { step: number; expected: string; actual: string; parts: Record<string, string>; stage?: { step: number; stage: string } } | null;
}

/** Options of replay() and replaySteps(). */
export interface ReplayOptions {
  world?: PhysicsWorld;
  onStep?: (k: number, w: PhysicsWorld) => void;
  systems?: (w: PhysicsWorld) => void;
}

/**
 * Re-simulate a replay in `world` (default: a fresh world from its initial snapshot), comparing
 * every recorded hash; stops at the first mismatch. `onStep(k, world)` sees each step (progress,
 * writing states); `systems` installs the game's own systems on the fresh world first.
 */
export function replay(bytes: Uint8Array | Replay, opts: ReplayOptions = {}): ReplayResult {
  const steps = replaySteps(bytes, opts);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * replay() one step at a time: yields each step's index after its hash was compared and returns
 * the result, so a caller can pause between steps (the CLI lets signal handlers run).
 */
export function* replaySteps(bytes: Uint8Array | Replay, opts: ReplayOptions = {}): Generator<number, ReplayResult, void> {
  const rep = bytes instanceof Uint8Array ? readReplay(bytes) : bytes;
  const world = opts.world ?? PhysicsWorld.fromSnapshot(rep.initial);
  if (opts.world) world.restore(rep.initial);
  opts.systems?.(world);
  const tracker = rep.stageHashes ? new StageTracker(world) : null;
  let firstStage: { step: number; stage: string } | undefined;
  let compared = 0;
  try {
    for (let k = 0; k < rep.header.steps; k++) {
      const input = rep.inputs[k];
      if (input) applyInput(world, rep.inputKinds[k]!, input);
      world.step();
      if (tracker) {
        const now = tracker.take(), want = rep.stageHashes![k]!;
        const i = now.findIndex((h, j) => h !== want[j]);
        if (i >= 0 && !firstStage) firstStage = { step: k, stage: STAGES[i]! };
      }
      opts.onStep?.(k, world);
      const expected = rep.hashes[k]!;
      if (expected === '') {
        yield k;
        continue;
      }
      compared++;
      const actual = world.stateHash();
      if (actual !== expected) {
        return { ok: false, steps: k + 1, hashesCompared: compared, mismatch: { step: k, expected, actual, parts: world.stateHashes(), ...(firstStage ? { stage: firstStage } : {}) } };
      }
      yield k;
    }
  } finally {
    tracker?.detach();
  }
  return { ok: true, steps: rep.header.steps, hashesCompared: compared, mismatch: null };
}

/**
 * Seek: the world's state after step `k` of the replay (−1: the start), re-simulated from the
 * nearest periodic snapshot at or before it.
 */
export function seek(rep: Replay, k: number, world: PhysicsWorld): void {
  if (!Number.isInteger(k) || k < -1 || k >= rep.header.steps) throw new InputError(`seek: step ${k} is outside the replay (−1 … ${rep.header.steps - 1})`);
  let from = -1;
  for (const s of rep.snapshots.keys()) if (s <= k && s > from) from = s;
  world.restore(from >= 0 ? rep.snapshots.get(from)! : rep.initial);
  for (let s = from + 1; s <= k; s++) {
    const input = rep.inputs[s];
    if (input) applyInput(world, rep.inputKinds[s]!, input);
    world.step();
  }
}
