/**
 * Sleeping: islands of bodies at rest stop being simulated until something disturbs them
 * (docs/design.md, "Sleeping"). Game mode only (FOSSSim-exact scenes never sleep), off unless the
 * world's `sleeping` option is on.
 *
 * Island: particles joined by elements (springs, hinges, triangles, …, edges), particles of one body
 * id, and bodies touching in the last step (body–body contact events). An island falls asleep after
 * `time` seconds of consecutive steps in which every free particle of it moved slower than `speed`:
 * its velocities are zeroed and its particles are *frozen* — held by the solver exactly like pinned
 * particles (Topology.frozen, applyFrozen: the fixed-DOF slot lists are refreshed, nothing symbolic is
 * rebuilt). When no free particle is awake the pipeline skips the forces, solve and response stages:
 * a resting world costs the sync comparison, the gather / write-back and the checks below.
 *
 * A sleeping island wakes (before the step's solve, in the sync stage) when
 *  - its state was edited: a velocity, impulse, force or teleport (the components' x or v differ from
 *    the frozen values), a pointer anchor on one of its particles, wake(body);
 *  - a moving island comes near it: the bounds of an awake island that was not still in the last
 *    step (swept by its velocity over the step) overlap the sleeping island's, both grown by
 *    (1 + contact margin) particle radii; an awake island touches it (the last step's contacts);
 *  - a kinematic collider moves into it (a collider with a velocity, or moved since the last step,
 *    whose swept bounding circle overlaps the island's bounds); static colliders never wake;
 *  - any component edit the sync stage's diff detects (parameters, masses, radii: every island);
 *  - a topology rebuild (entities added or removed, pins) that changed anything of it (carrySleep:
 *    islands untouched by the rebuild stay asleep).
 * After the solve (events stage) an awake island touching a sleeping one wakes it too.
 *
 * Every decision is a function of the state (positions, velocities, counters, the last contact
 * events), in creation order, so it is deterministic; the state (flags, counters, frozen positions,
 * colliders' last poses) is in snapshots (exportState / importState). No allocation per step:
 * per-topology arrays are sized at a topology change, and loops are module-level kernels.
 */
import type { StepContext } from '../solver/context';
import { applyFrozen, particleIndexOf, type Topology } from '../solver/topology';
import { elementIslands, findRoot, flattenIslands, unionRoots } from '../solver/islands';
import type { ContactEvent, ContactSystem } from '../collision/contact';
import { COLLIDER_CIRCLE, COLLIDER_POLYGON, COLLIDER_SEGMENT } from '../collision/contact';
import type { AnchorSet } from './forces';

/**
 * Default speed below which a particle counts as still (m/s): Box2D v3's default body sleep threshold, which it
 * compares with the fastest point of a body, as this compares every particle (docs/design.md, "Sleeping").
 */
export const SLEEP_SPEED = 0.05;
/** Default time an island must stay still before it sleeps (s; Box2D's b2_timeToSleep). */
export const SLEEP_TIME = 0.5;

/** The sleep state a snapshot carries (src/systems/snapshot.ts). */
export interface SleepState {
  enabled: boolean;
  speed: number;
  time: number;
  /** Body ids with allowSleep off. */
  noSleep: Int32Array;
  /** Per particle (creation order): asleep, still-step counter, island label, frozen position. */
  asleep: Uint8Array;
  count: Int32Array;
  island: Int32Array;
  ref: Float64Array;
  /** Colliders' poses at the end of the last step (px, py, angle per collider, creation order). */
  poses: Float64Array;
}

export class SleepSystem {
  /** Sleeping on (world option `sleeping`). Turning it off wakes everything at the next step. */
  enabled = false;
  /** Speed threshold (m/s) and time (s) to fall asleep: created null so V8 keeps them tagged (docs/design.md). */
  speed: number = null as unknown as number;
  time: number = null as unknown as number;
  /** True while the current step skips the solve: every free particle sleeps. */
  resting = false;
  /** Sleeping and awake free particles after the last sync stage. */
  sleepingCount = 0;
  awakeCount = 0;
  /** Islands that fell asleep / woke since the world was created. */
  sleeps = 0;
  wakes = 0;

  /** Body ids with allowSleep off (index: body id). */
  private noSleep = new Uint8Array(0);
  private topo: Topology | null = null;
  // per particle (dense index of `topo`)
  private asleep = new Uint8Array(0);
  private count = new Int32Array(0);
  /** Island label of a particle: the smallest dense index of its island (static or at sleep time). */
  private island = new Int32Array(0);
  /** Representative of the particle's static component (elements and body id): its smallest index. */
  private comp = new Int32Array(0);
  private parent = new Int32Array(0);
  private ref = new Float64Array(0);
  /** Per island label: bounds (min x, min y, max x, max y) and flags. */
  private box = new Float64Array(0);
  private still = new Uint8Array(0);
  /** Island labels (awake from the front, sleeping from the back). */
  private labels = new Int32Array(0);
  private minCount = new Int32Array(0);
  /** Body id → one of its particles' index (entity → index: the topology's particleIndex). */
  private bodyRep = new Int32Array(0);
  /** Colliders' poses at the end of the last step, and how many (−1: none recorded). */
  private poses = new Float64Array(0);
  private nPoses = -1;
  /** Kernel scratch: [0] speed, [1] sleep time or contact margin, [2] dt; [0..3] a collider's swept bounds. */
  private readonly sc = new Float64Array(4);

  constructor() {
    this.speed = SLEEP_SPEED;
    this.time = SLEEP_TIME;
  }

  /** Sleeping applies to this step: on, and a game-mode world. */
  active(ctx: StepContext): boolean {
    return this.enabled && ctx.newton !== 'fosssim';
  }

  // ---- the step's hooks -----------------------------------------------------------------------

  /**
   * Sync stage, after the gather: wake what was disturbed since the last step, then decide whether
   * this step rests (`resting`: the pipeline skips forces, solve and response).
   */
  beforeStep(ctx: StepContext, anchors: AnchorSet, contact: ContactSystem, edited: boolean): void {
    this.resting = false;
    const t = ctx.topology;
    if (!this.active(ctx)) {
      if (this.topo === t && this.sleepingCount > 0) this.wakeAll(ctx);
      this.sleepingCount = 0;
      this.awakeCount = t.n;
      return;
    }
    if (this.topo !== t) this.attach(ctx);
    else if (edited) {
      // this sync stage refreshed edited component data: every island wakes, the static islands are
      // rebuilt (body ids may have changed)
      this.wakeAll(ctx);
      this.buildComponents(ctx);
    }
    const n = t.n;
    let changed = false;
    if (this.sleepingCount > 0) {
      const margin = contact.margin, polyLocal = contact.polyLocal;
      // state edits: velocity, impulse, force, teleport, or a user system's write
      for (let i = editedParticle(n, 0, this.asleep, ctx.x, ctx.v, this.ref); i >= 0; i = editedParticle(n, i + 1, this.asleep, ctx.x, ctx.v, this.ref)) {
        changed = this.wakeIsland(this.island[i]!) || changed;
      }
      for (let s = 0; s < anchors.count; s++) {
        const node = anchors.node[s]!;
        if (node >= 0 && node < n && this.asleep[node] === 1) changed = this.wakeIsland(this.island[node]!) || changed;
      }
      changed = this.wakeByColliders(ctx, margin, polyLocal) || changed;
      changed = this.wakeByProximity(ctx, margin) || changed;
    }
    if (changed) this.applyFrozen(ctx);
    let sleeping = 0, awake = 0;
    for (let i = 0; i < n; i++) {
      if (this.asleep[i] === 1) sleeping++;
      else if (t.fixedSrc[i] === 0) awake++;
    }
    this.sleepingCount = sleeping;
    this.awakeCount = awake;
    this.resting = sleeping > 0 && awake === 0;
  }

  /**
   * Events stage (after the write-back and the contact events): form this step's islands, count
   * still steps, put islands to sleep (velocities zeroed in ctx.v and the components) and wake
   * sleeping islands an awake one touched.
   */
  afterStep(ctx: StepContext, active: readonly ContactEvent[], anchors: AnchorSet): void {
    if (!this.active(ctx) || this.topo !== ctx.topology) return;
    this.recordPoses(ctx);
    if (this.resting) return;
    const t = ctx.topology, n = t.n, parent = this.parent;
    for (let i = 0; i < n; i++) parent[i] = this.comp[i]!;
    let changed = false;
    // islands joined by contact; an awake body touching a sleeping one wakes it
    for (let k = 0; k < active.length; k++) {
      const ev = active[k]!;
      if (ev.collider !== -1 || ev.bodyB <= 0 || ev.bodyB >= this.bodyRep.length) continue;
      const i = particleIndexOf(t.particleIndex, ev.particle), j = this.bodyRep[ev.bodyB]!;
      if (i < 0 || j < 0) continue;
      const si = this.asleep[i] === 1, sj = this.asleep[j] === 1;
      if (si && sj) continue;
      if (si) changed = this.wakeIsland(this.island[i]!) || changed;
      if (sj) changed = this.wakeIsland(this.island[j]!) || changed;
      unionRoots(parent, i, j);
    }
    for (let i = 0; i < n; i++) this.island[i] = this.asleep[i] === 1 ? this.island[i]! : findRoot(parent, i);
    // per island: every free particle still, no pointer anchor, every body allowed to sleep
    const sc = this.sc;
    sc[0] = this.speed; // doubles move through the scratch (docs/design.md, "Scratch and calling convention")
    sc[1] = this.time;
    sc[2] = ctx.dt;
    islandStill(n, this.asleep, this.island, t.fixedSrc, ctx.v, this.count, this.still, this.minCount, sc);
    for (let s = 0; s < anchors.count; s++) {
      const node = anchors.node[s]!;
      if (node >= 0 && node < n) this.still[this.island[node]!] = 0;
    }
    const nb = this.noSleep.length;
    for (let i = 0; i < n; i++) {
      const b = t.body[i]!;
      if (b > 0 && b < nb && this.noSleep[b] === 1) this.still[this.island[i]!] = 0;
    }
    const fell = countAndSleep(n, this.asleep, this.island, this.count, this.still, this.minCount, sc, ctx.x, ctx.v, this.ref);
    if (fell > 0) {
      this.sleeps += fell;
      let sleeping = 0;
      for (let i = 0; i < n; i++) sleeping += this.asleep[i]!;
      this.sleepingCount = sleeping; // the next sync checks them for edits
      const P = ctx.c.Particle;
      zeroSleepingVelocities(n, this.asleep, t.particleEids, P.vx, P.vy);
      changed = true;
    }
    if (changed) this.applyFrozen(ctx);
  }

  // ---- the API ------------------------------------------------------------------------------------

  /** Whether every particle of `body` sleeps (false for a body without particles). */
  isSleeping(ctx: StepContext, body: number): boolean {
    if (this.topo !== ctx.topology) return false;
    const t = ctx.topology;
    let any = false;
    for (let i = 0; i < t.n; i++) {
      if (t.body[i] !== body) continue;
      if (this.asleep[i] !== 1) return false;
      any = true;
    }
    return any;
  }

  /** Whether a particle (entity) sleeps. */
  isParticleSleeping(ctx: StepContext, eid: number): boolean {
    if (this.topo !== ctx.topology) return false;
    const i = particleIndexOf(ctx.topology.particleIndex, eid);
    return i >= 0 && this.asleep[i] === 1;
  }

  /** Wake `body`'s island (and restart its still counter); returns whether it slept. */
  wakeBody(ctx: StepContext, body: number): boolean {
    if (this.topo !== ctx.topology) return false;
    const t = ctx.topology;
    let changed = false;
    for (let i = 0; i < t.n; i++) {
      if (t.body[i] === body) {
        this.count[i] = 0;
        if (this.asleep[i] === 1) changed = this.wakeIsland(this.island[i]!) || changed;
      }
    }
    if (changed) this.applyFrozen(ctx);
    return changed;
  }

  /** Wake the island of a particle (entity): an API edit of its data (a collision filter, sensor flag). */
  wakeParticle(ctx: StepContext, eid: number): void {
    if (this.topo !== ctx.topology) return;
    const i = particleIndexOf(ctx.topology.particleIndex, eid);
    if (i >= 0 && this.asleep[i] === 1 && this.wakeIsland(this.island[i]!)) this.applyFrozen(ctx);
  }

  /** Wake every island (an edit that may change what touches anything: a collider's filter). */
  wakeEverything(ctx: StepContext): void {
    if (this.topo === ctx.topology) this.wakeAll(ctx);
  }

  /** Allow or forbid `body` to sleep (forbidding wakes it). */
  setAllowSleep(ctx: StepContext, body: number, allow: boolean): void {
    if (body >= this.noSleep.length) {
      if (allow) return;
      const g = new Uint8Array(Math.max(body + 1, 2 * this.noSleep.length));
      g.set(this.noSleep);
      this.noSleep = g;
    }
    this.noSleep[body] = allow ? 0 : 1;
    if (!allow) this.wakeBody(ctx, body);
  }

  allowsSleep(body: number): boolean {
    return !(body < this.noSleep.length && this.noSleep[body] === 1);
  }

  /** Per-particle sleep flags in creation order (1: asleep) into out (a view is returned when omitted: do not keep). */
  sleepFlags(ctx: StepContext): Uint8Array {
    if (this.topo !== ctx.topology) return new Uint8Array(ctx.topology.n);
    return this.asleep.subarray(0, ctx.topology.n);
  }

  // ---- snapshots ----------------------------------------------------------------------------------

  /** True when the state differs from a fresh world's (snapshots write the section only then). */
  hasState(): boolean {
    return this.enabled || this.speed !== SLEEP_SPEED || this.time !== SLEEP_TIME || this.noSleep.some((f) => f === 1);
  }

  exportState(ctx: StepContext): SleepState {
    if (this.topo !== ctx.topology && this.active(ctx)) this.attach(ctx); // as the next sync stage would
    const t = ctx.topology, n = t.n, cur = this.topo === t;
    const noSleep: number[] = [];
    for (let b = 0; b < this.noSleep.length; b++) if (this.noSleep[b] === 1) noSleep.push(b);
    return {
      enabled: this.enabled, speed: this.speed, time: this.time, noSleep: Int32Array.from(noSleep),
      asleep: cur ? this.asleep.slice(0, n) : new Uint8Array(n),
      count: cur ? this.count.slice(0, n) : new Int32Array(n),
      island: cur ? this.island.slice(0, n) : Int32Array.from({ length: n }, (_, i) => i),
      ref: cur ? this.ref.slice(0, 2 * n) : new Float64Array(2 * n),
      poses: this.nPoses >= 0 ? this.poses.slice(0, 3 * this.nPoses) : new Float64Array(0),
    };
  }

  /** Put a snapshot's sleep state back, after the topology was rebuilt (or kept) from the restored entities. */
  importState(ctx: StepContext, s: SleepState | null): void {
    // What holds its value already is not written again, and arrays are refilled, not replaced: a store to a
    // field V8 tracks as constant deoptimizes the code optimized against it (ContactSystem.importState)
    const enabled = s?.enabled ?? false, speed = s?.speed ?? SLEEP_SPEED, time = s?.time ?? SLEEP_TIME;
    if (this.enabled !== enabled) this.enabled = enabled;
    if (!Object.is(this.speed, speed)) this.speed = speed;
    if (!Object.is(this.time, time)) this.time = time;
    this.noSleep.fill(0); // every body may sleep (a longer array of zeros says the same as an empty one)
    if (s) for (const b of s.noSleep) this.setAllowSleep(ctx, b, false);
    this.attach(ctx);
    const n = ctx.topology.n;
    if (s && s.asleep.length === n) {
      this.asleep.set(s.asleep);
      this.count.set(s.count);
      this.island.set(s.island);
      this.ref.set(s.ref);
      let sleeping = 0;
      for (let i = 0; i < n; i++) sleeping += this.asleep[i]!;
      this.sleepingCount = sleeping;
    }
    if (s && s.poses.length > 0) {
      if (this.poses.length < s.poses.length) this.poses = new Float64Array(s.poses.length);
      this.poses.set(s.poses);
      this.nPoses = s.poses.length / 3;
    } else {
      this.nPoses = -1; // the snapshot's world had recorded none: poses of steps run since then must not count as moves
    }
    this.applyFrozen(ctx);
  }

  // ---- internals ----------------------------------------------------------------------------------

  /**
   * A new topology: size the arrays, find the static islands, and carry the sleeping islands over from
   * the previous topology when nothing of theirs changed (carrySleep); everything else starts awake.
   * A pure function of the old sleep state and the two topologies, so it gives the same result whether
   * the sync stage or a snapshot (exportState) runs it first.
   */
  private attach(ctx: StepContext): void {
    const t = ctx.topology, n = t.n;
    const old = this.topo !== t && this.topo !== null && this.sleepingCount > 0 ? this.topo : null;
    const prev = { asleep: this.asleep, count: this.count, island: this.island, ref: this.ref };
    this.topo = t;
    this.asleep = new Uint8Array(n);
    this.count = new Int32Array(n);
    this.island = new Int32Array(n);
    this.comp = new Int32Array(n);
    this.parent = new Int32Array(n);
    this.ref = new Float64Array(2 * n);
    this.box = new Float64Array(4 * n);
    this.still = new Uint8Array(n);
    this.labels = new Int32Array(n);
    this.minCount = new Int32Array(n);
    this.sleepingCount = 0;
    if (t.frozen.some((f) => f === 1)) {
      t.frozen.fill(0);
      applyFrozen(t);
    }
    this.buildComponents(ctx);
    if (old !== null && this.active(ctx)) {
      const carried = carrySleep(old, prev, t, this.comp, this.asleep, this.count, this.island, this.ref);
      if (carried > 0) {
        this.sleepingCount = carried;
        this.applyFrozen(ctx);
      }
    }
  }

  /** Static islands (staticIslands); awake particles take their island's label. */
  private buildComponents(ctx: StepContext): void {
    const n = ctx.topology.n, p = this.comp;
    this.bodyRep = staticIslands(ctx.topology, p);
    for (let i = 0; i < n; i++) if (this.asleep[i] === 0) this.island[i] = p[i]!;
  }

  /** Wake every particle labelled `label`; returns whether any slept. */
  private wakeIsland(label: number): boolean {
    const n = this.topo ? this.topo.n : 0;
    let any = false;
    for (let i = 0; i < n; i++) {
      if (this.island[i] === label && this.asleep[i] === 1) {
        this.asleep[i] = 0;
        this.count[i] = 0;
        any = true;
      }
    }
    if (any) this.wakes++;
    return any;
  }

  private wakeAll(ctx: StepContext): void {
    const n = this.topo === ctx.topology ? ctx.topology.n : 0;
    let any = false;
    for (let i = 0; i < n; i++) {
      if (this.asleep[i] === 1) any = true;
      this.asleep[i] = 0;
      this.count[i] = 0;
    }
    if (any) {
      this.wakes++;
      this.applyFrozen(ctx);
    }
    this.sleepingCount = 0;
  }

  /** frozen ← asleep; on a change the fixed-DOF slots are refreshed, the solver refactors, contact rereads. */
  private applyFrozen(ctx: StepContext): void {
    const t = ctx.topology;
    for (let i = 0; i < t.n; i++) t.frozen[i] = this.asleep[i]!;
    refreshFrozen(ctx);
  }

  /** Bounds of every island label over its particles (awake ones swept by v·dt), grown by (1 + margin) radii. */
  private islandBounds(ctx: StepContext, margin: number): void {
    const t = ctx.topology, sc = this.sc;
    sc[1] = margin;
    sc[2] = ctx.dt;
    boundsKernel(t.n, this.island, this.asleep, ctx.x, ctx.v, t.radius, this.box, sc);
  }

  /**
   * Moving awake islands (not still in the last step) whose swept bounds overlap a sleeping island's
   * wake it. A still awake island does not: two neighbours settling side by side would otherwise wake
   * each other in turn forever; if it creeps into a sleeping one, their contact wakes it (afterStep).
   */
  private wakeByProximity(ctx: StepContext, margin: number): boolean {
    const n = ctx.topology.n, labels = this.labels;
    let nAwake = 0, nAsleep = 0;
    for (let i = 0; i < n; i++) {
      if (this.island[i] !== i) continue;
      if (this.asleep[i] === 1) labels[n - 1 - nAsleep++] = i;
      else if (this.count[i] === 0) labels[nAwake++] = i; // moving: not still in the last step (or just woken)
    }
    if (nAwake === 0 || nAsleep === 0) return false;
    this.islandBounds(ctx, margin);
    let changed = false;
    for (let a = 0; a < nAwake; a++) {
      for (let b = n - nAsleep; b < n; b++) {
        if (overlaps(this.box, labels[a]!, labels[b]!)) changed = this.wakeIsland(labels[b]!) || changed;
      }
    }
    return changed;
  }

  /** Colliders that move this step (a velocity, or moved since the last step) wake the sleeping islands their swept bounds reach. */
  private wakeByColliders(ctx: StepContext, margin: number, polyLocal: Float64Array): boolean {
    const ids = ctx.lists.colliders, K = ctx.c.Collider;
    if (ids.length === 0) return false;
    let boxes = false, changed = false;
    const sc = this.sc, dt = ctx.dt;
    for (let k = 0; k < ids.length; k++) {
      const e = ids[k]!;
      const teleported = this.nPoses === ids.length &&
        (this.poses[3 * k] !== K.px[e] || this.poses[3 * k + 1] !== K.py[e] || this.poses[3 * k + 2] !== K.angle[e]);
      if (!teleported && K.vx[e] === 0 && K.vy[e] === 0 && K.omega[e] === 0) continue;
      if (!boxes) {
        this.islandBounds(ctx, margin);
        boxes = true;
      }
      const r = colliderReach(ctx, e, polyLocal);
      const x0 = this.nPoses === ids.length ? this.poses[3 * k]! : K.px[e]!, y0 = this.nPoses === ids.length ? this.poses[3 * k + 1]! : K.py[e]!;
      const x1 = K.px[e]! + K.vx[e]! * dt, y1 = K.py[e]! + K.vy[e]! * dt;
      sc[0] = Math.min(x0, K.px[e]!, x1) - r;
      sc[1] = Math.min(y0, K.py[e]!, y1) - r;
      sc[2] = Math.max(x0, K.px[e]!, x1) + r;
      sc[3] = Math.max(y0, K.py[e]!, y1) + r;
      const n = ctx.topology.n, box = this.box;
      for (let b = 0; b < n; b++) {
        if (this.island[b] !== b || this.asleep[b] === 0) continue;
        if (box[4 * b]! <= sc[2]! && sc[0]! <= box[4 * b + 2]! && box[4 * b + 1]! <= sc[3]! && sc[1]! <= box[4 * b + 3]!) {
          changed = this.wakeIsland(b) || changed;
        }
      }
    }
    return changed;
  }

  private recordPoses(ctx: StepContext): void {
    const ids = ctx.lists.colliders, K = ctx.c.Collider;
    if (this.poses.length < 3 * ids.length) this.poses = new Float64Array(3 * ids.length);
    for (let k = 0; k < ids.length; k++) {
      const e = ids[k]!;
      this.poses[3 * k] = K.px[e]!;
      this.poses[3 * k + 1] = K.py[e]!;
      this.poses[3 * k + 2] = K.angle[e]!;
    }
    this.nPoses = ids.length;
  }
}

/** The sleep arrays of the previous topology (dense indices of that topology). */
interface PrevSleep {
  asleep: Uint8Array;
  count: Int32Array;
  island: Int32Array;
  ref: Float64Array;
}

const FAMILIES = ['springs', 'hinges', 'triangles', 'dampedSprings', 'gravitation', 'vortices', 'edges'] as const;

/**
 * After a topology rebuild (entities added or removed, a node reference or `fixed` edited): a sleeping
 * island of the old topology stays asleep when all of its particles survive with the same mass, `fixed`,
 * radius and body id, every element on them survives with the same nodes and parameters (and density),
 * no new element or particle joins its static island, and the uniform forces are unchanged. Its
 * particles keep their counters and frozen positions; labels become the smallest new index of each
 * island. Writes asleep, count, island (sleeping particles only), ref; returns the particles carried.
 * Rebuild rate: allocates (maps by entity id).
 */
function carrySleep(
  old: Topology, prev: PrevSleep, t: Topology, comp: Int32Array,
  asleep: Uint8Array, count: Int32Array, island: Int32Array, ref: Float64Array,
): number {
  const n = t.n;
  const oldIndex = (eid: number): number => particleIndexOf(old.particleIndex, eid);
  const ok = new Uint8Array(old.n); // per old island label: may stay asleep
  for (let j = 0; j < old.n; j++) if (prev.asleep[j] === 1) ok[prev.island[j]!] = 1;
  const spoil = (j: number): void => {
    if (j >= 0 && prev.asleep[j] === 1) ok[prev.island[j]!] = 0;
  };
  // uniform forces (gravity, drag, constant) act on every island
  let uniformSame = old.uniformCount === t.uniformCount;
  for (let u = 0; uniformSame && u < t.uniformCount; u++) {
    uniformSame = old.uniformKind[u] === t.uniformKind[u] && old.uniform[3 * u] === t.uniform[3 * u] &&
      old.uniform[3 * u + 1] === t.uniform[3 * u + 1] && old.uniform[3 * u + 2] === t.uniform[3 * u + 2];
  }
  if (!uniformSame) return 0;
  // particles: survive with the same data
  for (let j = 0; j < old.n; j++) {
    if (prev.asleep[j] !== 1) continue;
    const i = particleIndexOf(t.particleIndex, old.particleEids[j]!);
    if (i < 0 || old.fixedSrc[j] !== t.fixedSrc[i] || old.pointMass[2 * j] !== t.pointMass[2 * i] ||
      old.radius[j] !== t.radius[i] || old.body[j] !== t.body[i]) spoil(j);
  }
  // elements: on a sleeping particle, each must be an old element with the same nodes and parameters
  for (const name of FAMILIES) {
    const fo = old[name], fn = t[name], k = fn.k, p = fn.p;
    const byEid = new Map<number, number>();
    for (let s = 0; s < fo.count; s++) byEid.set(fo.eids[s]!, s);
    const seen = new Uint8Array(fo.count);
    for (let s = 0; s < fn.count; s++) {
      const os = byEid.get(fn.eids[s]!);
      let same = os !== undefined;
      if (os !== undefined) {
        seen[os] = 1;
        for (let a = 0; same && a < k; a++) same = old.particleEids[fo.nodes[k * os + a]!] === t.particleEids[fn.nodes[k * s + a]!];
        for (let q = 0; same && q < p; q++) same = Object.is(fo.params[p * os + q], fn.params[p * s + q]);
        if (same && name === 'triangles') same = old.triMass[os] === t.triMass[s];
      }
      if (!same) for (let a = 0; a < k; a++) spoil(oldIndex(t.particleEids[fn.nodes[k * s + a]!]!));
    }
    for (let s = 0; s < fo.count; s++) if (seen[s] === 0) for (let a = 0; a < k; a++) spoil(fo.nodes[k * s + a]!);
  }
  // a static island holding a particle that was not asleep (new, or awake before) spoils its sleeping ones
  const mixed = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const j = oldIndex(t.particleEids[i]!);
    if (j < 0 || prev.asleep[j] !== 1) mixed[comp[i]!] = 1;
  }
  for (let i = 0; i < n; i++) if (mixed[comp[i]!] === 1) spoil(oldIndex(t.particleEids[i]!));
  // carry: old label → the smallest new index of its particles
  const label = new Int32Array(old.n).fill(-1);
  let carried = 0;
  for (let i = 0; i < n; i++) {
    const j = oldIndex(t.particleEids[i]!);
    if (j < 0 || prev.asleep[j] !== 1 || ok[prev.island[j]!] !== 1) continue;
    const l = prev.island[j]!;
    if (label[l]! < 0) label[l] = i;
    asleep[i] = 1;
    count[i] = prev.count[j]!;
    island[i] = label[l]!;
    ref[2 * i] = prev.ref[2 * j]!;
    ref[2 * i + 1] = prev.ref[2 * j + 1]!;
    carried++;
  }
  return carried;
}

/** Radius of a collider's bounding circle about its pivot (any rotation), plus its thickness. */
function colliderReach(ctx: StepContext, e: number, poly: Float64Array): number {
  const K = ctx.c.Collider, kind = K.kind[e]!;
  if (kind === COLLIDER_CIRCLE) return K.radius[e]!;
  let r = 0;
  if (kind === COLLIDER_SEGMENT) {
    const a = Math.sqrt(K.x1[e]! * K.x1[e]! + K.y1[e]! * K.y1[e]!), b = Math.sqrt(K.x2[e]! * K.x2[e]! + K.y2[e]! * K.y2[e]!);
    r = a > b ? a : b;
  } else if (kind === COLLIDER_POLYGON) {
    const s = K.polyStart[e]!, cnt = K.polyCount[e]!;
    for (let q = s; q < s + cnt && 2 * q + 1 < poly.length; q++) {
      const d = Math.sqrt(poly[2 * q]! * poly[2 * q]! + poly[2 * q + 1]! * poly[2 * q + 1]!);
      if (d > r) r = d;
    }
  }
  return r + K.radius[e]!;
}

// ---- kernels (loops over typed arrays; docs/design.md, "Scratch and calling convention") ------------

/**
 * fixed ← fixedSrc | frozen after Topology.frozen changed (sleeping, the fail-safe's held islands): on a
 * change the Newton solver refreshes its fixed rows and contact rereads (ctx.paramsVersion).
 */
export function refreshFrozen(ctx: StepContext): void {
  if (applyFrozen(ctx.topology)) {
    if (ctx.newtonSolver !== null) ctx.newtonSolver.refreshParams();
    ctx.paramsVersion++;
  }
}

/**
 * comp[i] ← the label of particle i's static island (its smallest dense index): particles joined by
 * elements (springs, hinges, triangles, damped springs, gravitation, vortices, edges) or sharing a
 * body id > 0. Returns each body id's first particle (−1: none). Used by sleeping and by the
 * pipeline's fail-safe (the island a failure is held in). Allocates (topology changes, failures).
 */
export function staticIslands(t: Topology, comp: Int32Array): Int32Array<ArrayBuffer> {
  const n = t.n;
  elementIslands(t, comp);
  let maxBody = 0;
  for (let i = 0; i < n; i++) if (t.body[i]! > maxBody) maxBody = t.body[i]!;
  const bodyRep = new Int32Array(maxBody + 1).fill(-1);
  for (let i = 0; i < n; i++) {
    const b = t.body[i]!;
    if (b <= 0) continue;
    if (bodyRep[b]! < 0) bodyRep[b] = i;
    else unionRoots(comp, bodyRep[b]!, i);
  }
  flattenIslands(n, comp);
  return bodyRep;
}

/** The first sleeping particle from `from` whose gathered state differs from its frozen state (x = ref, v = 0); −1: none. */
function editedParticle(n: number, from: number, asleep: Uint8Array, x: Float64Array, v: Float64Array, ref: Float64Array): number {
  for (let i = from; i < n; i++) {
    if (asleep[i] === 1 && (v[2 * i] !== 0 || v[2 * i + 1] !== 0 || x[2 * i] !== ref[2 * i] || x[2 * i + 1] !== ref[2 * i + 1])) return i;
  }
  return -1;
}

/** Per awake island label: still (every free particle below sc[0] m/s) and the smallest still counter. */
function islandStill(
  n: number, asleep: Uint8Array, island: Int32Array, fixed: Uint8Array, v: Float64Array, count: Int32Array,
  still: Uint8Array, minCount: Int32Array, sc: Float64Array,
): void {
  const s2 = sc[0]! * sc[0]!;
  for (let i = 0; i < n; i++) {
    const l = island[i]!;
    still[l] = 1;
    minCount[l] = 2147483647;
  }
  for (let i = 0; i < n; i++) {
    if (asleep[i] === 1) continue;
    const l = island[i]!;
    const vx = v[2 * i]!, vy = v[2 * i + 1]!;
    if (fixed[i] === 0 && !(vx * vx + vy * vy < s2)) still[l] = 0;
    if (count[i]! < minCount[l]!) minCount[l] = count[i]!;
  }
}

/**
 * Counters of awake particles (island still: its smallest counter + 1, else 0); islands at
 * ceil(sc[1] / sc[2]) steps (sleep time / dt, at least 1) fall asleep. Returns islands that fell asleep.
 */
function countAndSleep(
  n: number, asleep: Uint8Array, island: Int32Array, count: Int32Array, still: Uint8Array, minCount: Int32Array, sc: Float64Array,
  x: Float64Array, v: Float64Array, ref: Float64Array,
): number {
  const k = Math.ceil(sc[1]! / sc[2]!), steps = k > 1 ? k : 1;
  let fell = 0;
  for (let i = 0; i < n; i++) {
    if (asleep[i] === 1) continue;
    const l = island[i]!;
    const c = still[l] === 1 ? minCount[l]! + 1 : 0;
    count[i] = c;
    if (c >= steps) {
      if (l === i) fell++;
      asleep[i] = 1;
      v[2 * i] = 0;
      v[2 * i + 1] = 0;
      ref[2 * i] = x[2 * i]!;
      ref[2 * i + 1] = x[2 * i + 1]!;
    }
  }
  return fell;
}

function zeroSleepingVelocities(n: number, asleep: Uint8Array, eids: Int32Array, vx: Float64Array, vy: Float64Array): void {
  for (let i = 0; i < n; i++) {
    if (asleep[i] === 1) {
      vx[eids[i]!] = 0;
      vy[eids[i]!] = 0;
    }
  }
}

/** box[4l …] = bounds of island l's particles (awake: x and x + v·dt), grown by radius·(1 + sc[1]); sc[2] = dt. */
function boundsKernel(
  n: number, island: Int32Array, asleep: Uint8Array, x: Float64Array, v: Float64Array, radius: Float64Array, box: Float64Array, sc: Float64Array,
): void {
  const grow = 1 + sc[1]!, dt = sc[2]!;
  for (let i = 0; i < n; i++) {
    const l = 4 * island[i]!;
    box[l] = Infinity;
    box[l + 1] = Infinity;
    box[l + 2] = -Infinity;
    box[l + 3] = -Infinity;
  }
  for (let i = 0; i < n; i++) {
    const l = 4 * island[i]!, r = radius[i]! * grow;
    const s = asleep[i] === 1 ? 0 : dt;
    const x0 = x[2 * i]!, y0 = x[2 * i + 1]!, x1 = x0 + s * v[2 * i]!, y1 = y0 + s * v[2 * i + 1]!;
    const lx = (x0 < x1 ? x0 : x1) - r, hx = (x0 > x1 ? x0 : x1) + r, ly = (y0 < y1 ? y0 : y1) - r, hy = (y0 > y1 ? y0 : y1) + r;
    if (lx < box[l]!) box[l] = lx;
    if (ly < box[l + 1]!) box[l + 1] = ly;
    if (hx > box[l + 2]!) box[l + 2] = hx;
    if (hy > box[l + 3]!) box[l + 3] = hy;
  }
}

function overlaps(box: Float64Array, a: number, b: number): boolean {
  const p = 4 * a, q = 4 * b;
  return box[p]! <= box[q + 2]! && box[q]! <= box[p + 2]! && box[p + 1]! <= box[q + 3]! && box[q + 1]! <= box[p + 3]!;
}
