/**
 * SoftSim: the Phaser-free core of the Elastica plugin. It owns a PhysicsWorld,
 * converts pixels (y down) to metres (y up), builds bodies from src/mesh, and
 * runs the fixed-step loop: every fixed step runs, in order,
 *   1. pointer input (anchor targets ← pointer),
 *   2. force accumulation + implicit solve + the engine's own step systems (PhysicsWorld.step),
 *   3. (contact is part of the engine's step: src/collision, colliders from src/game/colliders.ts),
 * then snapshots positions. Rendering (once per frame) reads `renderPositions`,
 * interpolated between the last two steps with the accumulator's alpha.
 * Frame deltas only decide how many steps run, so the same inputs give the same
 * state after the same number of steps at any frame rate.
 */
import { MATERIAL_NAMES, type MaterialName } from '../elements';
import { PhysicsWorld, warmUpEngine, type WarmUpAsyncOptions, type WarmUpOptions, type WarmUpReport, type WorldOptions } from '../world';
import type { CollisionFilter, FilterOptions } from '../systems/filters';
import { meshBox, meshCircle, meshPolygon, meshSheet, type MeshData } from '../mesh';
import { parseSceneXml } from '../scene/xml';
import { buildScene } from '../scene/build';
import { FixedStepAccumulator } from './accumulator';
import { ColliderSet, engineColliderOptions, type Collider, type ColliderShape, type GameColliderOptions } from './colliders';
import { BodyControl, BodyForces } from '../systems/bodies';
import { atan2 } from '../math';
import { SoftQueries, type RaycastHit as QueryHit } from './queries';
import { Recorder, applyReplayInput, readReplay, seek as seekReplay, type RecordOptions, type Replay } from '../replay';
import { InputError } from '../errors';
import { numArg, numArrayArg, objArg, oneOfArg, optNumArg, RANGES } from '../ranges';
import { ContactDispatcher, type ContactType, type SoftContact as Contact, type ContactListener as Listener } from './contacts';

export type { ContactType } from './contacts';
/** A contact event with SoftBody handles (src/game/contacts.ts). */
export type SoftContact = Contact<SoftBody>;
export type ContactListener = Listener<SoftBody>;

/**
 * A step that failed safe (SoftSim.on('failsafe', fn)): the engine's StepStats fail-safe fields with the
 * body handle. When `held` > 0 the failure was traced to an island (a body, or particles joined by
 * elements), which stayed where it was while the rest of the world stepped; when 0 the whole world kept
 * its start-of-step positions with halved velocities.
 */
export interface SoftFailSafe {
  /** The world's step count after the step. */
  step: number;
  /** 'solver-error' (a singular or non-finite system) or 'non-finite' (a NaN/∞ reached the state). */
  reason: string;
  /** In words: the solver's message or the first non-finite particle, and what was held. */
  detail: string;
  /** The SoftBody the failure was traced to, or null (a particle outside any SoftBody, or not known). */
  body: SoftBody | null;
  /** Particles held at their start positions while the rest stepped (0: the whole world was held). */
  held: number;
}
export type FailSafeListener = (e: SoftFailSafe) => void;
/** A raycast result with SoftBody handles (src/game/queries.ts). */
export type RaycastHit = QueryHit<SoftBody>;

export type BodyKind = 'jelly' | 'rope' | 'sheet' | 'scene';

export interface MaterialOptions {
  /** Young's modulus (Pa, thickness 1 m); default 2e4 (soft jelly). */
  stiffness?: number;
  poissonRatio?: number;
  /** kg/m² (default 100). */
  density?: number;
  /**
   * Triangle material (docs/materials.md; default 'fosssim', FOSSSim's CST). 'neohookean' and
   * 'corotational' resist inversion: a jelly crushed by a moving collider recovers instead of
   * folding flat (a 'fosssim' jelly of the same small-strain stiffness needs `stiffness` × 4 in them).
   */
  material?: MaterialName;
}

export interface JellyOptions extends MaterialOptions {
  shape?: 'box' | 'circle' | 'polygon';
  /** Box size (px). */
  width?: number;
  height?: number;
  /** Circle radius (px). */
  radius?: number;
  /** Polygon outline relative to (x, y), px, y down: x0, y0, x1, y1, … */
  points?: ArrayLike<number>;
  /** Target simulation edge length (px); default ~ size/5. */
  resolution?: number;
  /** Display texture key (used by the plugin). */
  texture?: string;
  /** Frame of `texture` (an atlas or spritesheet frame name / index): the skin maps onto that frame only. */
  frame?: string | number;
  /**
   * Mesh2D render path (plugin): 'triangles' (default; individual textured triangles) or 'quads' (Phaser's
   * quad pairing via buildOrderedIndices: batches with sprites; artefacts seen on deforming meshes under SwiftShader).
   */
  renderPath?: 'triangles' | 'quads';
  /** Display mesh refinement relative to the simulation mesh (default 3). */
  detail?: number;
  tint?: number;
}

export interface RopeOptions {
  /**
   * Contact with other bodies and itself (default true: the rope gets its own `createBody()` id). false: body id 0,
   * colliders only — for shapes that cross themselves at rest, like the side view of a coil spring.
   */
  bodyContact?: boolean;
  /** Segments per rope (resampled evenly along the polyline); default: one per polyline edge. */
  segments?: number;
  /** Mass per metre (kg/m, default 1); lumped on the nodes (half a segment each side). */
  linearDensity?: number;
  /**
   * Axial stiffness EA (N): the force that would double a segment's length. Default: 200 × the rope's weight at
   * 9.81 m/s², so a rope hanging from one end stretches by about 0.25 %. Engine spring alpha = EA.
   */
  stiffness?: number;
  /**
   * Flexural rigidity EI (N·m²). Engine hinge alpha = 2·EI (W = alpha θ²/(2(l1 + l2)) equals the continuum
   * EI κ²/2 over the node's Voronoi length (l1 + l2)/2 with κ = θ/((l1 + l2)/2)). A horizontal clamped
   * cantilever of length L and mass per metre ρ sags at its tip by ρ g L⁴/(8 EI); see `sag`. Default 0.025 (a
   * rope that hangs); 0 for a limp chain. Takes precedence over `sag`.
   */
  bendStiffness?: number;
  /**
   * Rod rigidity as a tip sag fraction: EI is chosen so that this rope, clamped horizontally at one end under
   * 9.81 m/s², would sag at its free end by `sag` × its length (EI = ρ g L³/(8 sag)). 0.02 gives a rod that holds
   * its shape; 0.5 a floppy one. Needs a clamp (`clampStart`) to hold a cantilever: a single pin is a free joint.
   */
  sag?: number;
  /** Rest shape keeps the initial curvature (default true: θ0 from the given points); false: straight at rest. */
  keepShape?: boolean;
  /** Pin the first / last node (a free joint: the rope can turn about it). */
  pinStart?: boolean;
  pinEnd?: boolean;
  /** Clamp the first / last segment (its two nodes fixed): the rope leaves the wall at its given angle. */
  clampStart?: boolean;
  clampEnd?: boolean;
  /** Strip width (px) and texture for rendering. */
  width?: number;
  texture?: string;
  tint?: number;
}

export interface SheetOptions extends MaterialOptions {
  width?: number;
  height?: number;
  cols?: number;
  rows?: number;
  /** Pin the top row ('top'), its two corners ('corners') or nothing. */
  pin?: 'top' | 'corners' | 'none';
  texture?: string;
  frame?: string | number;
  renderPath?: 'triangles' | 'quads';
  tint?: number;
}

/** Something an attachment moves: a Phaser Sprite / Image / Text, or any object with x, y (and rotation). */
export interface AttachTarget {
  x: number;
  y: number;
  rotation?: number;
}

export interface AttachOptions {
  /** The material point: a local particle index, or a point (px) inside the body now (default: its centroid). */
  at?: number | { x: number; y: number };
  /** Turn the target with the body's local rotation at that point (default false). */
  rotate?: boolean;
}

/** A target following a material point of a body (barycentric in one triangle, or along one rope segment). */
export class Attachment {
  readonly body: SoftBody;
  readonly target: AttachTarget;
  /** Local vertex indices and weights of the material point (weights sum to 1). */
  readonly i0: number;
  readonly i1: number;
  readonly i2: number;
  readonly w0: number;
  readonly w1: number;
  readonly w2: number;
  readonly rotate: boolean;
  /** target.rotation + the local angle at attach time. */
  private readonly base: number;

  constructor(body: SoftBody, target: AttachTarget, i: [number, number, number], w: [number, number, number], rotate: boolean) {
    this.body = body;
    this.target = target;
    [this.i0, this.i1, this.i2] = i;
    [this.w0, this.w1, this.w2] = w;
    this.rotate = rotate;
    this.base = (target.rotation ?? 0) - this.localAngle(body.local);
  }

  /** Rotation (rad, clockwise on screen) of the triangle / segment at the point, relative to rest. */
  private localAngle(p: Float64Array): number {
    const r = this.body.rest, a = this.i0, b = this.i1, c = this.i2;
    if (a === b) return 0;
    if (b === c) {
      const ex = p[2 * b]! - p[2 * a]!, ey = p[2 * b + 1]! - p[2 * a + 1]!;
      const Ex = r[2 * b]! - r[2 * a]!, Ey = r[2 * b + 1]! - r[2 * a + 1]!;
      return -atan2(Ex * ey - Ey * ex, Ex * ex + Ey * ey);
    }
    // F = Ds Dm⁻¹; its polar rotation angle is atan2(F10 − F01, F00 + F11) (Dm⁻¹'s determinant > 0 scale is irrelevant)
    const d00 = p[2 * b]! - p[2 * a]!, d01 = p[2 * c]! - p[2 * a]!, d10 = p[2 * b + 1]! - p[2 * a + 1]!, d11 = p[2 * c + 1]! - p[2 * a + 1]!;
    const m00 = r[2 * b]! - r[2 * a]!, m01 = r[2 * c]! - r[2 * a]!, m10 = r[2 * b + 1]! - r[2 * a + 1]!, m11 = r[2 * c + 1]! - r[2 * a + 1]!;
    const det = m00 * m11 - m01 * m10;
    const sg = det < 0 ? -1 : 1;
    // adj(Dm) = [m11, −m01; −m10, m00]; F ∝ Ds · adj(Dm) · sign(det)
    const f00 = sg * (d00 * m11 - d01 * m10), f01 = sg * (-d00 * m01 + d01 * m00);
    const f10 = sg * (d10 * m11 - d11 * m10), f11 = sg * (-d10 * m01 + d11 * m00);
    return -atan2(f10 - f01, f00 + f11);
  }

  /** Move the target to the interpolated material point (px); called by SoftSim after every interpolation. */
  update(): void {
    const b = this.body, p = b.local, s = b.sim;
    const x = this.w0 * p[2 * this.i0]! + this.w1 * p[2 * this.i1]! + this.w2 * p[2 * this.i2]!;
    const y = this.w0 * p[2 * this.i0 + 1]! + this.w1 * p[2 * this.i1 + 1]! + this.w2 * p[2 * this.i2 + 1]!;
    this.target.x = s.toPixelX(x);
    this.target.y = s.toPixelY(y);
    if (this.rotate) this.target.rotation = this.base + this.localAngle(p);
  }

  detach(): void {
    const list = this.body.attachments, k = list.indexOf(this);
    if (k >= 0) list.splice(k, 1);
  }
}

/** A handle on a body: particle entity ids plus views; never a copy of the state. */
export class SoftBody {
  /** Dense indices into the world state (refreshed when the topology changes). */
  index: Int32Array;
  /** Interpolated positions of this body's particles (m), for views. */
  readonly local: Float64Array;
  /** Renderer-owned data (the plugin's view; the plugin's typed `mesh` reads it). */
  view: unknown = null;
  destroyed = false;
  readonly sim: SoftSim;
  readonly kind: BodyKind;
  /** Particle entity ids, in the body's local vertex order. */
  readonly particles: readonly number[];
  /** Triangles in local vertex indices (jelly, sheet, scene). */
  readonly triangles: Uint32Array;
  /** Rest positions (m, y up), local order. */
  readonly rest: Float64Array;
  /** Other entities owned by the body (triangles, springs, hinges). */
  readonly elements: readonly number[];
  readonly options: Readonly<JellyOptions & RopeOptions & SheetOptions>;
  /** The engine's contact body id (world.createBody(); 0: colliders only). */
  readonly bodyId: number;
  /** Engine body control (SI units, y up): src/systems/bodies.ts. */
  readonly control: BodyControl;
  /** Sprites and other objects following material points (see `attach`). */
  readonly attachments: Attachment[] = [];
  /** Contact listeners on this body (see `on`). */
  readonly listeners: Partial<Record<ContactType, ContactListener[]>> = {};
  /** Any listener in `listeners`. */
  listenerCount = 0;
  private readonly tmp = new Float64Array(4);

  constructor(
    sim: SoftSim,
    kind: BodyKind,
    particles: readonly number[],
    triangles: Uint32Array,
    rest: Float64Array,
    elements: readonly number[],
    options: Readonly<JellyOptions & RopeOptions & SheetOptions>,
    bodyId = 0,
  ) {
    this.sim = sim;
    this.kind = kind;
    this.particles = particles;
    this.triangles = triangles;
    this.rest = rest;
    this.elements = elements;
    this.options = options;
    this.bodyId = bodyId;
    this.index = new Int32Array(particles.length);
    this.local = new Float64Array(2 * particles.length);
    this.control = new BodyControl(sim.world, particles, rest);
  }

  /** The body's collision filter and sensor flag as last set (setCollisionFilter / setSensor; {} = the default). */
  get collisionFilter(): Readonly<FilterOptions> {
    return this.filterState;
  }
  private filterState: FilterOptions = {};

  /**
   * Phaser Matter's `collisionFilter` for the whole body ({ category, mask, group }; omitted fields: 1,
   * 0xFFFFFFFF, 0): from the next step this body collides only with bodies and colliders the rule allows
   * (docs/plugin.md, "Collision filters"). The sensor flag is kept.
   */
  setCollisionFilter(f: CollisionFilter = {}): this {
    this.applyFilter({ ...f, sensor: this.filterState.sensor });
    return this;
  }

  /** Make the body a sensor (true: it reports overlaps as contacts with `sensor: true` and pushes nothing, not even the bounds). */
  setSensor(sensor = true): this {
    this.applyFilter({ ...this.filterState, sensor });
    return this;
  }

  private applyFilter(f: FilterOptions): void {
    this.live('setCollisionFilter / setSensor');
    const w = this.sim.world;
    if (this.bodyId > 0) w.setBodyFilter(this.bodyId, f);
    else for (const e of this.particles) w.setParticleFilter(e, f);
    this.filterState = f;
  }

  /** Centroid (pixels) of the current state: the plain mean of the particles (see `centerOfMass`). */
  get centroid(): { x: number; y: number } {
    this.live('centroid');
    const P = this.sim.world.c.Particle;
    let sx = 0, sy = 0;
    for (const e of this.particles) {
      sx += P.x[e]!;
      sy += P.y[e]!;
    }
    const n = this.particles.length || 1;
    return { x: this.sim.toPixelX(sx / n), y: this.sim.toPixelY(sy / n) };
  }

  /** Same as `centroid`. */
  get position(): { x: number; y: number } {
    this.live('position');
    return this.centroid;
  }

  /** Centre of mass (pixels). */
  get centerOfMass(): { x: number; y: number } {
    this.live('centerOfMass');
    this.control.centerOfMass(this.tmp);
    return { x: this.sim.toPixelX(this.tmp[0]!), y: this.sim.toPixelY(this.tmp[1]!) };
  }

  /** Centre-of-mass velocity of the free particles (px/s, y down). */
  get velocity(): { x: number; y: number } {
    this.live('velocity');
    this.control.velocity(this.tmp);
    const ppm = this.sim.pixelsPerMetre;
    return { x: this.tmp[0]! * ppm, y: -this.tmp[1]! * ppm + 0 };
  }

  /** Linear momentum (kg·px/s, y down): applyImpulse changes it by exactly the impulse. */
  get momentum(): { x: number; y: number } {
    this.live('momentum');
    this.control.momentum(this.tmp);
    const ppm = this.sim.pixelsPerMetre;
    return { x: this.tmp[0]! * ppm, y: -this.tmp[1]! * ppm + 0 };
  }

  /** Total mass (kg). */
  get mass(): number {
    this.live('mass');
    return this.control.totalMass;
  }

  /** Best-fit rotation from the rest shape (rad, clockwise on screen like Phaser's `rotation`, in [−π, π)). */
  get angle(): number {
    this.live('angle');
    return -this.control.angle + 0;
  }

  /** Rigid-fit angular velocity (rad/s, clockwise on screen). */
  get angularVelocity(): number {
    this.live('angularVelocity');
    return -this.control.angularVelocity + 0;
  }

  /** Axis-aligned bounds (px): x, y (top left), width, height. */
  get boundingBox(): { x: number; y: number; width: number; height: number } {
    this.live('boundingBox');
    this.control.boundingBox(this.tmp);
    const s = this.sim, t = this.tmp;
    return { x: s.toPixelX(t[0]!), y: s.toPixelY(t[3]!), width: (t[2]! - t[0]!) * s.pixelsPerMetre, height: (t[3]! - t[1]!) * s.pixelsPerMetre };
  }

  get isStatic(): boolean {
    this.live('isStatic');
    return this.control.isStatic;
  }

  /** Centre-of-mass velocity (px/s, y down); internal wobble is kept. */
  setVelocity(vx: number, vy: number): this {
    this.live('setVelocity');
    const ppm = this.sim.pixelsPerMetre;
    this.control.setVelocity(vx / ppm, -vy / ppm + 0);
    return this;
  }

  /** Rigid-fit angular velocity (rad/s, clockwise on screen). */
  setAngularVelocity(omega: number): this {
    this.live('setAngularVelocity');
    this.control.setAngularVelocity(-omega + 0);
    return this;
  }

  /** Impulse (kg·px/s, y down), optionally at a point (px): momentum changes by exactly (ix, iy). */
  applyImpulse(ix: number, iy: number, at?: { x: number; y: number }): this {
    this.live('applyImpulse');
    const s = this.sim, ppm = s.pixelsPerMetre;
    if (at) this.control.applyImpulse(ix / ppm, -iy / ppm + 0, s.toMetreX(at.x), s.toMetreY(at.y));
    else this.control.applyImpulse(ix / ppm, -iy / ppm + 0);
    return this;
  }

  /** Force (kg·px/s², y down) over the next fixed step, or every step with `persistent`. */
  applyForce(fx: number, fy: number, persistent = false): this {
    this.live('applyForce');
    const ppm = this.sim.pixelsPerMetre;
    this.control.applyForce(fx / ppm, -fy / ppm + 0, persistent);
    return this;
  }

  /** Torque (kg·px²/s², clockwise on screen) over the next fixed step, or every step with `persistent`. */
  applyTorque(torque: number, persistent = false): this {
    this.live('applyTorque');
    const ppm = this.sim.pixelsPerMetre;
    this.control.applyTorque(-torque / (ppm * ppm) + 0, persistent);
    return this;
  }

  /** Angular impulse (kg·px²/s, clockwise on screen): a spin about the centre of mass. */
  applyAngularImpulse(L: number): this {
    this.live('applyAngularImpulse');
    const ppm = this.sim.pixelsPerMetre;
    this.control.applyAngularImpulse(-L / (ppm * ppm) + 0);
    return this;
  }

  /** Drop persistent forces and torques. */
  clearForces(): this {
    this.live('clearForces');
    this.control.clearForces();
    return this;
  }

  /** Static: every particle fixed in place (others rest on it); false: only the pinned ones. */
  setStatic(on = true): this {
    this.live('setStatic');
    this.control.setStatic(on);
    return this;
  }

  /** Pin local particle i in place. */
  pin(i: number): this {
    this.live('pin');
    this.control.pin(i);
    return this;
  }

  unpin(i: number): this {
    this.live('unpin');
    this.control.unpin(i);
    return this;
  }

  /** Whether the body sleeps (at rest, not solved until something disturbs it: src/systems/sleep.ts). */
  get isSleeping(): boolean {
    return this.bodyId > 0 && this.sim.world.isSleeping(this.bodyId);
  }

  /** Wake the body (and the bodies it rests on or under); its still time starts again. */
  wake(): this {
    if (this.bodyId > 0) this.sim.world.wake(this.bodyId);
    return this;
  }

  /** Whether the body may sleep (default true); false keeps it awake. */
  get allowSleep(): boolean {
    return this.bodyId <= 0 || this.sim.world.allowsSleep(this.bodyId);
  }
  set allowSleep(allow: boolean) {
    if (this.bodyId > 0) this.sim.world.setAllowSleep(this.bodyId, allow);
  }

  /** Move the centre of mass to (x, y) px; shape and velocities kept; no interpolation streak. */
  teleport(x: number, y: number): this {
    this.live('teleport');
    this.control.teleport(this.sim.toMetreX(x), this.sim.toMetreY(y));
    this.sim.snapshot();
    return this;
  }

  /** Contact events of this body (same events as `SoftSim.on`, filtered to pairs with this body). */
  on(type: ContactType, fn: ContactListener): this {
    this.live('on');
    (this.listeners[type] ??= []).push(fn);
    this.listenerCount++;
    this.sim.contactListenersChanged();
    return this;
  }

  off(type: ContactType, fn: ContactListener): this {
    const l = this.listeners[type];
    const k = l ? l.indexOf(fn) : -1;
    if (l && k >= 0) {
      l.splice(k, 1);
      this.listenerCount--;
      this.sim.contactListenersChanged();
    }
    return this;
  }

  /**
   * Make `target` (a Sprite, Image, …) follow a material point of this body at the interpolated render
   * positions; with `rotate` it also turns with the body's local rotation there.
   */
  attach(target: AttachTarget, o: AttachOptions = {}): Attachment {
    this.live('attach');
    const s = this.sim;
    s.interpolate(s.alpha);
    const p = this.local, n = this.particles.length;
    let i: [number, number, number], w: [number, number, number];
    if (typeof o.at === 'number') {
      if (!Number.isInteger(o.at) || o.at < 0 || o.at >= n) throw new InputError(`attach: particle index must be in [0, ${n - 1}], got ${o.at}`);
      const j = o.at, t = this.triangles;
      let k = 0;
      while (k < t.length && t[k] !== j && t[k + 1] !== j && t[k + 2] !== j) k += 3;
      if (k < t.length) {
        i = [t[k]!, t[k + 1]!, t[k + 2]!];
        w = [t[k] === j ? 1 : 0, t[k + 1] === j ? 1 : 0, t[k + 2] === j ? 1 : 0];
      } else {
        const q = j + 1 < n ? j + 1 : j - 1;
        i = [j, q, q];
        w = [1, 0, 0];
      }
    } else {
      let x: number, y: number;
      if (o.at) {
        x = s.toMetreX(o.at.x);
        y = s.toMetreY(o.at.y);
      } else {
        x = 0;
        y = 0;
        for (let k = 0; k < n; k++) {
          x += p[2 * k]! / n;
          y += p[2 * k + 1]! / n;
        }
      }
      [i, w] = materialPoint(p, this.triangles, n, x, y);
    }
    const a = new Attachment(this, target, i, w, o.rotate === true);
    a.update();
    this.attachments.push(a);
    return a;
  }

  destroy(): void {
    this.sim.removeBody(this);
  }

  /**
   * Refuse a stale handle: after destroy() / removeBody the body's particle ids may already belong
   * to another body (bitECS recycles ids), so a late call would move or read someone else's
   * particles. docs/design.md, "Stale handles".
   */
  private live(call: string): void {
    if (this.destroyed) {
      throw new InputError(`SoftBody.${call}: this body was removed (destroy() or removeBody()); its handle is stale (its particle ids may now belong to another body)`);
    }
  }
}

/**
 * The material coordinates of point (x, y) (m) in positions p: the triangle containing it (or, outside
 * every triangle, the one with the least negative barycentric coordinate, extrapolated) or, without
 * triangles, the nearest segment of the polyline.
 */
function materialPoint(p: Float64Array, tris: Uint32Array, n: number, x: number, y: number): [[number, number, number], [number, number, number]] {
  if (tris.length > 0) {
    let best = -Infinity, bi: [number, number, number] = [0, 0, 0], bw: [number, number, number] = [1, 0, 0];
    for (let k = 0; k < tris.length; k += 3) {
      const a = tris[k]!, b = tris[k + 1]!, c = tris[k + 2]!;
      const ax = p[2 * a]!, ay = p[2 * a + 1]!;
      const d00 = p[2 * b]! - ax, d01 = p[2 * c]! - ax, d10 = p[2 * b + 1]! - ay, d11 = p[2 * c + 1]! - ay;
      const det = d00 * d11 - d01 * d10;
      if (det === 0) continue;
      const u = ((x - ax) * d11 - d01 * (y - ay)) / det, v = (d00 * (y - ay) - d10 * (x - ax)) / det;
      const score = Math.min(1 - u - v, u, v);
      if (score > best) {
        best = score;
        bi = [a, b, c];
        bw = [1 - u - v, u, v];
      }
      if (score >= 0) break;
    }
    return [bi, bw];
  }
  let best = Infinity, bi: [number, number, number] = [0, 0, 0], bw: [number, number, number] = [1, 0, 0];
  for (let k = 0; k + 1 < n; k++) {
    const ax = p[2 * k]!, ay = p[2 * k + 1]!, dx = p[2 * k + 2]! - ax, dy = p[2 * k + 3]! - ay;
    const l2 = dx * dx + dy * dy;
    const t = l2 > 0 ? Math.min(1, Math.max(0, ((x - ax) * dx + (y - ay) * dy) / l2)) : 0;
    const ex = ax + t * dx - x, ey = ay + t * dy - y, d = ex * ex + ey * ey;
    if (d < best) {
      best = d;
      bi = [k, k + 1, k + 1];
      bw = [1 - t, t, 0];
    }
  }
  return [bi, bw];
}

export interface SoftSimOptions {
  pixelsPerMetre?: number;
  originX?: number;
  originY?: number;
  maxStepsPerFrame?: number;
  /**
   * Gravity in pixels/s², y down (the plugin's convention, like Phaser's Arcade physics): [0, 981] at 100 px/m is
   * standard gravity. Default: standard gravity, 9.81 m/s² down, whatever `pixelsPerMetre` is.
   */
  gravity?: [number, number];
  /** Gravity in the engine's SI units instead: m/s², y up (default [0, −9.81]). Give `gravity` or this, not both. */
  gravityMetric?: [number, number];
  dt?: number;
  integrator?: WorldOptions['integrator'];
  /** Pointer spring stiffness per kg of grabbed particle mass (1/s², default 2000). */
  grabStiffness?: number;
  /** Newton settings (default: the engine's game mode, WorldOptions.newton). */
  newton?: WorldOptions['newton'];
  /** Contact friction coefficient (default 0.5) and restitution (default 0). */
  friction?: number;
  restitution?: number;
  /** Contact radius of body particles and rope edges (m, default 0.02). */
  contactRadius?: number;
  /** Contact in the implicit solve (`world.contacts.implicit`, default true). */
  implicitContact?: boolean;
  /**
   * Sleeping (default true in the game layer; the engine's PhysicsWorld defaults to off): bodies at rest
   * stop being solved until something disturbs them (src/systems/sleep.ts, docs/plugin.md).
   */
  sleeping?: boolean;
  /**
   * Run the engine's JIT warm-up (src/warmup.ts, once per page, about half a second on one core) when the SoftSim is
   * made (default true). false leaves it to `warmUpAsync()` at load, which spreads it over the event loop with the
   * scene's own warm-up, or else to the first step.
   */
  engineWarmUp?: boolean;
}

/** SoftSimOptions.engineWarmUp, checked (default true): the SoftSim's and the plugin's. */
export function engineWarmUpOption(opts: SoftSimOptions): boolean {
  const on = opts.engineWarmUp ?? true;
  if (typeof on !== 'boolean') throw new InputError(`SoftSim: 'engineWarmUp' must be true or false, got ${String(on)}`);
  return on;
}

export type StepListener = (sim: SoftSim) => void;

export class SoftSim {
  world: PhysicsWorld;
  accumulator: FixedStepAccumulator;
  readonly colliders: ColliderSet = new ColliderSet(this);
  /** Contact events for game code (`on` / `off`; src/game/contacts.ts). */
  readonly contacts: ContactDispatcher<SoftBody> = new ContactDispatcher<SoftBody>(this);
  /** Point, area and ray queries (src/game/queries.ts). */
  readonly query: SoftQueries<SoftBody> = new SoftQueries<SoftBody>(this);
  /** Per-step body forces (applyForce / applyTorque), registered on the world's pipeline. */
  bodyForces!: BodyForces;
  private bodiesById: (SoftBody | undefined)[] = [];
  private bodiesByParticle: (SoftBody | undefined)[] = [];
  readonly bodies: SoftBody[] = [];
  pixelsPerMetre: number;
  originX: number;
  originY: number;
  maxStepsPerFrame: number;
  paused = false;
  timeScale = 1;
  grabStiffness: number;
  /** Contact radius of body particles and rope edges (m). */
  contactRadius: number;
  /** Interpolated positions (m) of all particles, dense order; valid after `frame`. */
  renderPositions = new Float64Array(0);
  /** Positions after the previous and the last step. */
  prev = new Float64Array(0);
  curr = new Float64Array(0);
  alpha = 0;
  stepsLastFrame = 0;
  /** Mean wall-clock ms per step over the last frame that stepped. */
  msPerStep = 0;
  private gravityEid = -1;
  private gx: number;
  private gy: number;
  private topo: unknown = null;
  private readonly stepListeners: StepListener[] = [];
  // pointer state (metres)
  private pointerX = 0;
  private pointerY = 0;
  private grabbing = false;
  private grabOffset = new Float64Array(2 * 64);
  private grabCount = 0;
  /** Body under the pointer while grabbing. */
  grabbed: SoftBody | null = null;

  constructor(opts: SoftSimOptions = {}) {
    opts = objArg('SoftSim', 'options', opts, true);
    this.pixelsPerMetre = optNumArg('SoftSim', 'pixelsPerMetre', opts.pixelsPerMetre, PIXELS_PER_METRE, 50);
    this.originX = optNumArg('SoftSim', 'originX', opts.originX, RANGES.coordinate, 0);
    this.originY = optNumArg('SoftSim', 'originY', opts.originY, RANGES.coordinate, 0);
    this.maxStepsPerFrame = opts.maxStepsPerFrame ?? 5;
    this.grabStiffness = optNumArg('SoftSim', 'grabStiffness', opts.grabStiffness, RANGES.coefficient, 2000);
    optNumArg('SoftSim', 'contactRadius', opts.contactRadius, RANGES.radius, 0);
    if (opts.gravity) numArrayArg('SoftSim', 'gravity', opts.gravity, RANGES.force, { length: 2 });
    if (opts.gravityMetric) numArrayArg('SoftSim', 'gravityMetric', opts.gravityMetric, RANGES.force, { length: 2 });
    const g = metricGravity(opts, this.pixelsPerMetre);
    this.gx = g[0];
    this.gy = g[1];
    this.contactRadius = opts.contactRadius ?? 0.02;
    this.world = new PhysicsWorld({ dt: opts.dt ?? 1 / 60, gravity: null, integrator: opts.integrator, newton: opts.newton, sleeping: opts.sleeping ?? true });
    this.world.contacts.enabled = true;
    this.world.contacts.friction = optNumArg('SoftSim', 'friction', opts.friction, RANGES.friction, 0.5);
    this.world.contacts.cor = optNumArg('SoftSim', 'restitution', opts.restitution, RANGES.cor, 0);
    // Contact inside the game-mode Newton solve (docs/contact.md): the velocity filter alone inverts soft bodies
    // dropped from a metre at 60 Hz.
    this.world.contacts.implicit = opts.implicitContact ?? true;
    if (this.gx !== 0 || this.gy !== 0) this.gravityEid = this.world.addGravity(this.gx, this.gy);
    this.attach(this.world);
    this.accumulator = new FixedStepAccumulator({ dt: this.world.dt, maxStepsPerFrame: this.maxStepsPerFrame });
    // JIT warm-up (src/warmup.ts, once per page) at scene start rather than in the first frame's step
    if (engineWarmUpOption(opts) && this.world.newton !== 'fosssim') warmUpEngine();
  }

  // ---- units ----------------------------------------------------------------
  toPixelX(x: number): number {
    return this.originX + x * this.pixelsPerMetre;
  }
  toPixelY(y: number): number {
    return this.originY - y * this.pixelsPerMetre;
  }
  toMetreX(px: number): number {
    return (px - this.originX) / this.pixelsPerMetre;
  }
  toMetreY(py: number): number {
    return (this.originY - py) / this.pixelsPerMetre;
  }

  // ---- world controls -------------------------------------------------------
  /** Gravity in pixels/s², y down (the plugin's convention, like Arcade physics); `setGravityMetric` takes m/s², y up. */
  setGravity(gxPx: number, gyPx: number): this {
    return this.setGravityMetric(gxPx / this.pixelsPerMetre + 0, -gyPx / this.pixelsPerMetre + 0);
  }

  /** Gravity in the engine's units: m/s², y up ([0, −9.81] is standard gravity). */
  setGravityMetric(gx: number, gy: number): this {
    numArg('setGravityMetric', 'gx', gx, RANGES.force);
    numArg('setGravityMetric', 'gy', gy, RANGES.force);
    if (this.gravityEid >= 0) this.world.removeEntity(this.gravityEid);
    this.gravityEid = gx !== 0 || gy !== 0 ? this.world.addGravity(gx, gy) : -1;
    this.gx = gx;
    this.gy = gy;
    return this;
  }

  /** Sleeping on or off (default on in the game layer; SoftSimOptions.sleeping). */
  get sleeping(): boolean {
    return this.world.sleeping;
  }
  set sleeping(on: boolean) {
    this.world.sleeping = on;
  }

  /** Gravity in pixels/s², y down (see `setGravity`). */
  get gravity(): [number, number] {
    return [this.gx * this.pixelsPerMetre + 0, -this.gy * this.pixelsPerMetre + 0];
  }

  /** Gravity in m/s², y up (see `setGravityMetric`). */
  get gravityMetric(): [number, number] {
    return [this.gx, this.gy];
  }

  pause(): this {
    this.paused = true;
    return this;
  }
  resume(): this {
    this.paused = false;
    return this;
  }

  /**
   * Warm the scene up at load (PhysicsWorld.warmUp): `steps` fixed steps of this world (default 60)
   * run with user systems and step listeners muted and then undone exactly, so the first frames
   * do not compile contact, material and collider code. Call it after building the scene;
   * `onProgress(fraction)` feeds a loading bar.
   */
  warmUp(options: WarmUpOptions = {}): WarmUpReport {
    const report = this.world.warmUp(options);
    this.query.invalidate(); // the warm-up's steps are undone: the step counter comes back, the query index must not
    return report;
  }

  /**
   * warmUp without blocking the page (PhysicsWorld.warmUpAsync): the work runs in slices of about `sliceMs` with the
   * event loop free between them, on a private copy of the world, so a loading screen keeps drawing and
   * `onProgress(fraction)` can move its bar. The scene is not touched and may run meanwhile.
   */
  warmUpAsync(options: WarmUpAsyncOptions = {}): Promise<WarmUpReport> {
    return this.world.warmUpAsync(options);
  }

  /** Run after every fixed step (after collisions). */
  onStep(fn: StepListener): () => void {
    this.stepListeners.push(fn);
    return () => {
      const i = this.stepListeners.indexOf(fn);
      if (i >= 0) this.stepListeners.splice(i, 1);
    };
  }

  // ---- stepping -------------------------------------------------------------
  /**
   * Build the world's topology (the solver's pattern, ordering and symbolic factorization) and the bodies' indices
   * now, as the first frame would: the plugin calls it after the scene's create(), so that a level's first frame
   * does not pay it (the jelly page's first frame: 13–27 ms after it, 25–36 ms without; one core). Bodies added
   * later are taken in at the next frame, as before. The same world either way: only the time of the build changes.
   */
  prepare(): void {
    this.sync();
  }

  /** Re-index bodies and resize snapshots after the world's topology changed. */
  private sync(): void {
    const t = this.world.topology();
    if (t === this.topo) return;
    this.topo = t;
    const eids = t.particleEids;
    const dense = new Map<number, number>();
    for (let i = 0; i < eids.length; i++) dense.set(eids[i]!, i);
    for (const b of this.bodies) for (let k = 0; k < b.particles.length; k++) b.index[k] = dense.get(b.particles[k]!) ?? -1;
    this.seedPositions(2 * t.n);
    this.renderPositions.set(this.curr);
    if (this.grabbing) this.rebuildGrab();
  }

  /**
   * One fixed step: the engine's pipeline (src/systems/pipeline.ts), with the game layer's two
   * stages registered on it by attach(): pointer input before kinematics, render sync at render.
   */
  stepOnce(): void {
    this.sync();
    const pb = this.playback;
    if (pb && pb.step < pb.rep.header.steps) applyReplayInput(this.world, pb.rep, pb.step);
    this.world.step();
    if (pb) this.checkPlayback(pb);
    this.colliders.afterStep(this.world);
    this.contacts.dispatch();
    this.dispatchFailSafe();
  }

  // ---- recording and replay (src/replay.ts, docs/replay.md) -----------------------------------------

  private recorder: Recorder | null = null;
  private playback: { rep: Replay; step: number; compared: number; mismatch: number } | null = null;

  /** Record every fixed step from now on (inputs, hashes; docs/replay.md). */
  record(opts: RecordOptions = {}): this {
    if (this.recorder) throw new InputError('record: already recording (stopRecording() first)');
    if (this.playback) throw new InputError('record: a replay is playing (stopReplay() first)');
    this.recorder = new Recorder(this.world, opts);
    return this;
  }

  get recording(): boolean {
    return this.recorder !== null;
  }

  /** Stop recording; the replay bytes (save them as a .replay file, verify with `elastica replay --verify`). */
  stopRecording(): Uint8Array {
    if (!this.recorder) throw new InputError('stopRecording: not recording');
    const bytes = this.recorder.stop();
    this.recorder = null;
    return bytes;
  }

  /**
   * Play a replay in this game: the world goes back to the recording's start and each fixed step
   * applies the recorded input instead of the pointer and body forces, comparing every recorded
   * state hash (replayStatus). The bodies shown are those this SoftSim knows.
   */
  replay(bytes: Uint8Array): this {
    const rep = readReplay(bytes);
    if (this.recorder) this.stopRecording();
    this.world.restore(rep.initial);
    this.playback = { rep, step: 0, compared: 0, mismatch: -1 };
    this.bodyForces.muted = true;
    this.snapshot();
    return this;
  }

  /** Go to the state after step k of the playing replay (through its nearest periodic snapshot). */
  seekReplay(k: number): this {
    const pb = this.playback;
    if (!pb) throw new InputError('seekReplay: no replay is playing');
    seekReplay(pb.rep, k, this.world);
    pb.step = k + 1;
    this.snapshot();
    return this;
  }

  /** Stop the replay: the game goes on live from where it is. */
  stopReplay(): void {
    this.playback = null;
    this.bodyForces.muted = false;
  }

  /**
   * The playing (or last) replay: steps played of all, hashes compared, and `verified` — true when
   * every hash so far matched, false from the first mismatch (`mismatchStep`).
   */
  get replayStatus(): { playing: boolean; step: number; steps: number; compared: number; verified: boolean; mismatchStep: number } | null {
    const pb = this.playback ?? this.lastPlayback;
    if (!pb) return null;
    return {
      playing: this.playback !== null, step: pb.step, steps: pb.rep.header.steps, compared: pb.compared,
      verified: pb.mismatch < 0, mismatchStep: pb.mismatch,
    };
  }

  private lastPlayback: { rep: Replay; step: number; compared: number; mismatch: number } | null = null;

  private checkPlayback(pb: { rep: Replay; step: number; compared: number; mismatch: number }): void {
    const k = pb.step++;
    const expected = pb.rep.hashes[k];
    if (expected && pb.mismatch < 0) {
      pb.compared++;
      if (this.world.stateHash() !== expected) pb.mismatch = k;
    }
    if (pb.step >= pb.rep.header.steps) {
      this.lastPlayback = pb;
      this.stopReplay();
    }
  }

  /**
   * Contact events after every fixed step: 'contactstart' | 'contactactive' | 'contactend' (src/game/contacts.ts);
   * 'failsafe' after a step that failed safe (SoftFailSafe).
   */
  on(type: 'failsafe', fn: FailSafeListener): this;
  on(type: ContactType, fn: ContactListener): this;
  on(type: ContactType | 'failsafe', fn: ContactListener | FailSafeListener): this {
    if (type === 'failsafe') {
      if (typeof fn !== 'function') throw new InputError(`on: 'fn': expected a function, got ${typeof fn}`);
      this.failSafeListeners.push(fn as FailSafeListener);
      return this;
    }
    const l = this.contacts.listeners[type];
    if (!l) throw new InputError(`on: unknown event '${String(type)}' (expected contactstart, contactactive, contactend or failsafe)`);
    l.push(fn as ContactListener);
    this.contacts.recount();
    return this;
  }

  off(type: 'failsafe', fn: FailSafeListener): this;
  off(type: ContactType, fn: ContactListener): this;
  off(type: ContactType | 'failsafe', fn: ContactListener | FailSafeListener): this {
    if (type === 'failsafe') {
      const k = this.failSafeListeners.indexOf(fn as FailSafeListener);
      if (k >= 0) this.failSafeListeners.splice(k, 1);
      return this;
    }
    const l = this.contacts.listeners[type];
    const k = l ? l.indexOf(fn as ContactListener) : -1;
    if (l && k >= 0) l.splice(k, 1);
    this.contacts.recount();
    return this;
  }

  private readonly failSafeListeners: FailSafeListener[] = [];

  /** After a step: tell the 'failsafe' listeners when it failed safe. */
  private dispatchFailSafe(): void {
    if (this.failSafeListeners.length === 0) return;
    const st = this.world.lastStats;
    if (st.failSafe === '') return;
    const e: SoftFailSafe = {
      step: this.world.stepCount, reason: st.failSafe, detail: st.failSafeDetail,
      body: st.failSafeBody > 0 ? this.bodyById(st.failSafeBody) : null, held: st.failSafeHeld,
    };
    for (const fn of this.failSafeListeners.slice()) fn(e);
  }

  /** Called by SoftBody.on / off. */
  contactListenersChanged(): void {
    this.contacts.recount();
  }

  /** The SoftBody owning particle entity `eid`, or null. */
  bodyOfParticle(eid: number): SoftBody | null {
    return (eid >= 0 ? this.bodiesByParticle[eid] : undefined) ?? null;
  }

  /** The SoftBody with engine body id `id` (SoftBody.bodyId), or null. */
  bodyById(id: number): SoftBody | null {
    return (id > 0 ? this.bodiesById[id] : undefined) ?? null;
  }

  /** The Collider handle of engine entity `eid`, or null. */
  colliderById(eid: number): Collider | null {
    const list = this.colliders.list;
    for (let k = 0; k < list.length; k++) if (list[k]!.id === eid) return list[k]!;
    return null;
  }

  /** Record a new body: lookup tables, body forces. */
  private register(b: SoftBody): SoftBody {
    this.bodies.push(b);
    this.query.invalidate();
    if (b.bodyId > 0) this.bodiesById[b.bodyId] = b;
    for (const e of b.particles) this.bodiesByParticle[e] = b;
    this.bodyForces.add(b.control);
    return b;
  }

  /** After a teleport: the last two snapshots become the current state (no interpolation streak). */
  snapshot(): void {
    this.query.invalidate();
    this.sync();
    this.world.readPositions(this.curr);
    this.prev.set(this.curr);
    this.interpolate(this.alpha);
  }

  /** Register the game layer's systems on a (new) world's pipeline. */
  private attach(world: PhysicsWorld): void {
    this.bodyForces = new BodyForces(world);
    this.contacts.attach(world);
    world.addSystem('sync', this.pointerInput, { before: true });
    world.addSystem('render', this.renderSync);
  }

  /**
   * Pointer input (before sync, with the other inputs, so a recording sees it in the step it acts in):
   * the grabbed particles' anchors follow the pointer.
   */
  private readonly pointerInput = (): void => {
    if (!this.grabbing || this.playback) return;
    const A = this.world.anchors;
    for (let s = 0; s < A.count && s < this.grabCount; s++) {
      A.setTarget(s, this.pointerX + this.grabOffset[2 * s]!, this.pointerY + this.grabOffset[2 * s + 1]!);
    }
  };

  /** Position buffers for n coordinates (new ones when the count changed), with the current positions in curr and prev. */
  private seedPositions(n: number): void {
    if (this.curr.length !== n) {
      this.curr = new Float64Array(n);
      this.prev = new Float64Array(n);
      this.renderPositions = new Float64Array(n);
    }
    this.world.readPositions(this.curr);
    this.prev.set(this.curr);
  }

  /** Render sync (render stage): keep this step's and the previous step's positions for interpolation, then the step listeners. */
  private readonly renderSync = (): void => {
    const n = 2 * this.world.particleCount();
    if (this.curr.length !== n) {
      // particles made or removed on the world directly (not through SoftSim): resize, at setup rate
      // (readPositions refuses a short array; it used to drop the new particles silently)
      this.seedPositions(n);
    } else {
      const t = this.prev;
      this.prev = this.curr;
      this.curr = t;
      this.world.readPositions(this.curr);
    }
    for (const fn of this.stepListeners) fn(this);
  };

  /** Feed one rendered frame's delta (ms); runs the due fixed steps and interpolates. Returns steps run. */
  frame(deltaMs: number): number {
    this.sync();
    let n = 0;
    if (!this.paused) {
      n = this.accumulator.advance(deltaMs * this.timeScale);
      if (n > 0) {
        const t0 = performance.now();
        for (let i = 0; i < n; i++) this.stepOnce();
        this.msPerStep = (performance.now() - t0) / n;
      }
    }
    this.stepsLastFrame = n;
    this.alpha = this.paused ? 0 : this.accumulator.alpha;
    this.interpolate(this.alpha);
    return n;
  }

  /** renderPositions = lerp(prev, curr, alpha); refreshes each body's `local` positions. */
  interpolate(alpha: number): void {
    this.sync();
    const p = this.prev, c = this.curr, r = this.renderPositions;
    for (let i = 0; i < r.length; i++) r[i] = p[i]! + (c[i]! - p[i]!) * alpha;
    for (const b of this.bodies) {
      const idx = b.index, out = b.local;
      for (let k = 0; k < idx.length; k++) {
        const i = idx[k]!;
        out[2 * k] = r[2 * i]!;
        out[2 * k + 1] = r[2 * i + 1]!;
      }
      const at = b.attachments;
      for (let k = 0; k < at.length; k++) at[k]!.update();
    }
  }

  // ---- pointer --------------------------------------------------------------
  /**
   * Press at (px, py) pixels: grabs up to `maxParticles` free particles of the
   * nearest body within `radiusPx`; they follow the pointer through stiff
   * zero-rest-length springs solved implicitly. Returns the body or null.
   */
  pointerDown(px: number, py: number, radiusPx = 40, maxParticles = 6): SoftBody | null {
    this.pointerUp();
    this.sync();
    const x = this.toMetreX(px), y = this.toMetreY(py);
    const r = radiusPx / this.pixelsPerMetre;
    const P = this.world.c.Particle;
    let best: SoftBody | null = null, bestD = r * r;
    for (const b of this.bodies) {
      for (const e of b.particles) {
        if (P.fixed[e] === 1) continue;
        const dx = P.x[e]! - x, dy = P.y[e]! - y, d = dx * dx + dy * dy;
        if (d < bestD) {
          bestD = d;
          best = b;
        }
      }
    }
    if (!best) return null;
    // nearest free particles of that body, deterministic tie order (local index)
    const cand: { e: number; d: number }[] = [];
    for (const e of best.particles) {
      if (P.fixed[e] === 1) continue;
      const dx = P.x[e]! - x, dy = P.y[e]! - y;
      cand.push({ e, d: dx * dx + dy * dy });
    }
    cand.sort((a, b) => a.d - b.d);
    const take = cand.slice(0, Math.min(maxParticles, 64, this.world.anchors.capacity));
    const lim = Math.max(take[0]!.d * 4, r * r);
    this.grabList = take.filter((c) => c.d <= lim).map((c) => c.e);
    this.pointerX = x;
    this.pointerY = y;
    this.grabbing = true;
    this.grabbed = best;
    this.rebuildGrab();
    return best;
  }

  private grabList: number[] = [];

  private rebuildGrab(): void {
    const w = this.world;
    w.clearAnchors();
    const t = w.topology();
    const P = w.c.Particle;
    this.grabCount = 0;
    for (const e of this.grabList) {
      const node = this.grabNode(t.particleEids, e);
      if (node < 0) continue;
      const m = t.mass[2 * node]! > 0 ? t.mass[2 * node]! : 1;
      const ox = P.x[e]! - this.pointerX, oy = P.y[e]! - this.pointerY;
      const s = w.anchors.add(e, node, this.pointerX + ox, this.pointerY + oy, this.grabStiffness * m);
      if (s < 0) break;
      this.grabOffset[2 * s] = ox;
      this.grabOffset[2 * s + 1] = oy;
      this.grabCount++;
    }
  }

  private grabNode(eids: Int32Array, e: number): number {
    for (let i = 0; i < eids.length; i++) if (eids[i] === e) return i;
    return -1;
  }

  /** Move the pointer (pixels); applied at the start of the next fixed step. */
  pointerMove(px: number, py: number): void {
    this.pointerX = this.toMetreX(px);
    this.pointerY = this.toMetreY(py);
  }

  pointerUp(): void {
    if (this.grabbing) this.world.clearAnchors();
    this.grabbing = false;
    this.grabbed = null;
    this.grabCount = 0;
    this.grabList = [];
  }

  get isGrabbing(): boolean {
    return this.grabbing;
  }

  // ---- factory --------------------------------------------------------------
  /** A body's material options as addTriangle takes them, checked with addTriangle's ranges under the option names. */
  private material(o: MaterialOptions, call: string): { youngsModulus: number; poissonRatio: number; density: number; material?: MaterialName } {
    const m = {
      youngsModulus: optNumArg(call, 'stiffness', o.stiffness, RANGES.positiveCoefficient, 2e4),
      poissonRatio: optNumArg(call, 'poissonRatio', o.poissonRatio, RANGES.poisson, 0.3),
      density: optNumArg(call, 'density', o.density, RANGES.coefficient, 100),
    };
    return o.material === undefined ? m : { ...m, material: oneOfArg(call, 'material', o.material, MATERIAL_NAMES) };
  }

  /** Adds particles at mesh positions (m, relative to cx, cy) and CST triangles. */
  private addMeshBody(kind: BodyKind, mesh: MeshData, cx: number, cy: number, o: MaterialOptions, opts: object): SoftBody {
    const w = this.world;
    const n = mesh.positions.length / 2;
    const ids: number[] = [];
    const rest = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) {
      rest[2 * i] = mesh.positions[2 * i]! + cx;
      rest[2 * i + 1] = mesh.positions[2 * i + 1]! + cy;
    }
    // every value checked before the first entity is made: a refused body leaves no half-built body behind
    numArrayArg(kind, 'position (m, after the pixel conversion)', rest, RANGES.coordinate, {});
    const mat = this.material(o, kind);
    const body = w.createBody();
    for (let i = 0; i < n; i++) ids.push(w.addParticle({ x: rest[2 * i]!, y: rest[2 * i + 1]!, m: 0, radius: this.contactRadius, body }));
    const elements: number[] = [];
    const t = mesh.triangles;
    for (let k = 0; k < t.length; k += 3) elements.push(w.addTriangle(ids[t[k]!]!, ids[t[k + 1]!]!, ids[t[k + 2]!]!, mat));
    return this.register(new SoftBody(this, kind, ids, Uint32Array.from(t), rest, elements, opts, body));
  }

  /** Soft body at pixel (x, y): a box, a circle or any simple polygon, meshed with CSTs. */
  jelly(x: number, y: number, o: JellyOptions = {}): SoftBody {
    const ppm = this.pixelsPerMetre;
    const shape = o.shape ?? (o.points ? 'polygon' : o.radius !== undefined ? 'circle' : 'box');
    let mesh: MeshData;
    if (shape === 'circle') {
      const r = (o.radius ?? 40) / ppm;
      const res = (o.resolution ?? (o.radius ?? 40) / 3) / ppm;
      mesh = meshCircle(r, Math.max(1, Math.round(r / res)));
    } else if (shape === 'polygon') {
      if (!o.points || o.points.length < 6) throw new InputError('jelly: a polygon needs at least 3 points');
      const pts = new Float64Array(o.points.length);
      for (let i = 0; i < pts.length; i += 2) {
        pts[i] = o.points[i]! / ppm;
        pts[i + 1] = -o.points[i + 1]! / ppm;
      }
      let minX = Infinity, maxX = -Infinity;
      for (let i = 0; i < pts.length; i += 2) {
        minX = Math.min(minX, pts[i]!);
        maxX = Math.max(maxX, pts[i]!);
      }
      mesh = meshPolygon(pts, (o.resolution ?? ((maxX - minX) * ppm) / 5) / ppm);
    } else {
      const w = (o.width ?? 80) / ppm, h = (o.height ?? 80) / ppm;
      const res = (o.resolution ?? Math.max(o.width ?? 80, o.height ?? 80) / 5) / ppm;
      mesh = meshBox(w, h, Math.max(1, Math.round(w / res)), Math.max(1, Math.round(h / res)));
    }
    return this.addMeshBody('jelly', mesh, this.toMetreX(x), this.toMetreY(y), o, { ...o, shape });
  }

  /**
   * A rope (or rod) through pixel points x0, y0, x1, y1, …: elastic springs between
   * neighbours and bending hinges on consecutive triples.
   */
  rope(points: ArrayLike<number>, o: RopeOptions = {}): SoftBody {
    if (points.length < 4) throw new InputError('rope: needs at least 2 points');
    const w = this.world;
    const src: number[] = [];
    for (let i = 0; i < points.length; i += 2) src.push(this.toMetreX(points[i]!), this.toMetreY(points[i + 1]!));
    const pts = o.segments ? resample(src, o.segments) : src;
    const n = pts.length / 2;
    numArrayArg('rope', 'points (m, after the pixel conversion)', pts, RANGES.coordinate, {});
    const p = ropeParameters(pts, o); // checks the options: nothing is made before both pass
    const ids: number[] = [];
    const body = o.bodyContact === false ? 0 : w.createBody();
    const last = n - 1;
    for (let i = 0; i < n; i++) {
      const fixed = (i === 0 && (o.pinStart === true || o.clampStart === true)) || (i === 1 && o.clampStart === true)
        || (i === last && (o.pinEnd === true || o.clampEnd === true)) || (i === last - 1 && o.clampEnd === true);
      ids.push(w.addParticle({ x: pts[2 * i]!, y: pts[2 * i + 1]!, m: p.mass[i]!, fixed, radius: this.contactRadius, body }));
    }
    const elements: number[] = [];
    if (body !== 0) for (let i = 0; i + 1 < n; i++) elements.push(w.addEdge(ids[i]!, ids[i + 1]!, this.contactRadius));
    for (let i = 0; i + 1 < n; i++) elements.push(w.addSpring(ids[i]!, ids[i + 1]!, { alpha: p.springAlpha }));
    if (p.hingeAlpha > 0) {
      for (let i = 0; i + 2 < n; i++) {
        elements.push(w.addHinge(ids[i]!, ids[i + 1]!, ids[i + 2]!, o.keepShape === false ? { alpha: p.hingeAlpha, theta0: 0 } : { alpha: p.hingeAlpha }));
      }
    }
    return this.register(new SoftBody(this, 'rope', ids, new Uint32Array(0), Float64Array.from(pts), elements, o, body));
  }

  /**
   * Tie node `ai` (local index) of body `a` to the nearest node of body `b` with a short stiff spring (axial
   * stiffness `stiffness`, N; rest length = their current distance, at least `minLength` m). For hanging a weight
   * on a rope's end or a flower head on its stem. `rank` 1 ties to the second-nearest node instead (two ties from
   * one node to b's two nearest nodes fix b's rotation about it). Returns the spring entity.
   */
  tie(a: SoftBody, ai: number, b: SoftBody, stiffness = 2e4, minLength = 0.02, rank = 0): number {
    const P = this.world.c.Particle;
    const e = a.particles[ai];
    if (e === undefined) throw new InputError(`tie: body a has no node ${ai}`);
    const byDistance = b.particles
      .map((f, k) => ({ f, k, d: (P.x[f]! - P.x[e]!) ** 2 + (P.y[f]! - P.y[e]!) ** 2 }))
      .sort((p, q) => p.d - q.d || p.k - q.k);
    const pick = byDistance[rank];
    if (!pick) throw new InputError(`tie: body b has no node of rank ${rank}`);
    return this.world.addSpring(e, pick.f, { alpha: stiffness, l0: Math.max(minLength, Math.sqrt(pick.d)) });
  }

  /** A cloth-like membrane hanging from pixel (x, y) (top centre), pinnable. */
  sheet(x: number, y: number, o: SheetOptions = {}): SoftBody {
    const ppm = this.pixelsPerMetre;
    const cols = o.cols ?? 12, rows = o.rows ?? 8;
    const mesh = meshSheet((o.width ?? 240) / ppm, (o.height ?? 160) / ppm, cols, rows);
    const b = this.addMeshBody('sheet', mesh, this.toMetreX(x), this.toMetreY(y), {
      stiffness: o.stiffness ?? 5e3, poissonRatio: o.poissonRatio ?? 0.3, density: o.density ?? 2,
    }, o);
    const pin = o.pin ?? 'top';
    const pins = pin === 'top' ? Array.from(mesh.top) : pin === 'corners' ? [mesh.top[0]!, mesh.top[cols]!] : [];
    for (const i of pins) b.control.pin(i);
    return b;
  }

  /**
   * Replace the world with a FOSSSim XML scene (its dt, integrator, forces and
   * particles; no implicit gravity). Returns one body holding every particle, with
   * triangles from its CST forces and edges from its edge list.
   */
  fromSceneText(xml: string, source = 'scene.xml'): SoftBody {
    const desc = parseSceneXml(xml, source);
    const built = buildScene(desc);
    this.pointerUp();
    this.world = built.world;
    this.attach(this.world);
    this.colliders.clear();
    this.gravityEid = -1;
    this.gx = 0;
    this.gy = 0;
    this.bodies.length = 0;
    this.bodiesById = [];
    this.bodiesByParticle = [];
    this.topo = null;
    this.accumulator = new FixedStepAccumulator({ dt: this.world.dt, maxStepsPerFrame: this.maxStepsPerFrame });
    const tris: number[] = [];
    for (const f of desc.forces) if (f.type === 'elasticbodycstforce') tris.push(f.i1, f.i2, f.i3);
    const rest = new Float64Array(2 * desc.particles.length);
    desc.particles.forEach((p, i) => {
      rest[2 * i] = p.px;
      rest[2 * i + 1] = p.py;
    });
    const b = this.register(new SoftBody(this, 'scene', built.particles, Uint32Array.from(tris), rest, [], {}));
    this.sceneEdges = desc.edges.map((e) => [e.i, e.j] as [number, number]);
    // The game view keeps bodies out of the scene's half-planes even when the file has no <collision> element.
    if (this.world.halfplanes.length > 0) this.world.contacts.enabled = true;
    const H = this.world.c.Halfplane;
    for (const e of this.world.halfplanes) this.colliders.record(e, { kind: 'halfplane', px: H.px[e]!, py: H.py[e]!, nx: H.nx[e]!, ny: H.ny[e]! });
    return b;
  }

  /** Edges of the last loaded FOSSSim scene (local particle indices). */
  sceneEdges: [number, number][] = [];

  /** Remove a body and its entities. */
  removeBody(b: SoftBody): void {
    if (b.destroyed) return;
    const i = this.bodies.indexOf(b);
    if (i >= 0) this.bodies.splice(i, 1);
    if (this.grabbed === b) this.pointerUp();
    this.bodyForces.remove(b.control);
    if (b.bodyId > 0 && this.bodiesById[b.bodyId] === b) this.bodiesById[b.bodyId] = undefined;
    for (const e of b.particles) if (this.bodiesByParticle[e] === b) this.bodiesByParticle[e] = undefined;
    b.attachments.length = 0;
    for (const e of b.particles) this.world.removeEntity(e);
    b.destroyed = true;
    this.query.invalidate();
    this.contacts.recount();
  }

  // ---- colliders (pixels) ---------------------------------------------------
  private collider(shape: ColliderShape, o: GameColliderOptions = {}): Collider {
    return this.colliders.add(this.world, shape, engineColliderOptions(o));
  }

  /** Remove a collider made by bounds / circle / segment / polygon. */
  removeCollider(c: Collider): void {
    this.colliders.remove(this.world, c);
  }

  /** Floor, walls and ceiling around the pixel rectangle (x, y, w, h). */
  bounds(x: number, y: number, w: number, h: number): Collider[] {
    const l = this.toMetreX(x), r = this.toMetreX(x + w), top = this.toMetreY(y), bottom = this.toMetreY(y + h);
    return [
      this.collider({ kind: 'halfplane', px: 0, py: bottom, nx: 0, ny: 1 }),
      this.collider({ kind: 'halfplane', px: l, py: 0, nx: 1, ny: 0 }),
      this.collider({ kind: 'halfplane', px: r, py: 0, nx: -1, ny: 0 }),
      this.collider({ kind: 'halfplane', px: 0, py: top, nx: 0, ny: -1 }),
    ];
  }

  /** A circle collider (options: collision filter, sensor, one-way, material). */
  circle(x: number, y: number, radius: number, o: GameColliderOptions = {}): Collider {
    return this.collider({ kind: 'circle', cx: this.toMetreX(x), cy: this.toMetreY(y), r: radius / this.pixelsPerMetre }, o);
  }

  /** A segment collider of a thickness (px; a box around the segment, or the bare segment when 0). */
  segment(x0: number, y0: number, x1: number, y1: number, thickness = 4, o: GameColliderOptions = {}): Collider {
    return this.collider({
      kind: 'segment', ax: this.toMetreX(x0), ay: this.toMetreY(y0), bx: this.toMetreX(x1), by: this.toMetreY(y1),
      r: thickness / 2 / this.pixelsPerMetre,
    }, o);
  }

  /** A static polygon collider, absolute pixel outline x0, y0, … */
  polygon(points: ArrayLike<number>, o: GameColliderOptions = {}): Collider {
    const p = new Float64Array(points.length);
    for (let i = 0; i < p.length; i += 2) {
      p[i] = this.toMetreX(points[i]!);
      p[i + 1] = this.toMetreY(points[i + 1]!);
    }
    return this.collider({ kind: 'polygon', points: p }, o);
  }

  /** Number of CST triangles in the world. */
  get triangleCount(): number {
    return this.world.lists.triangles.length;
  }

  /** Reset the loop (keeps the world). */
  resetClock(): void {
    this.accumulator.reset();
  }
}

/** Pixels per metre: a scale whose products with coordinates stay in range. */
const PIXELS_PER_METRE = { what: 'a number in [1e-6, 1e6] (px/m)', ok: (x: number) => x >= 1e-6 && x <= 1e6 };

/** SoftSimOptions' gravity as m/s², y up: `gravityMetric`, or `gravity` (px/s², y down) converted, or standard gravity. */
function metricGravity(o: SoftSimOptions, pixelsPerMetre: number): [number, number] {
  if (o.gravity && o.gravityMetric) throw new InputError('gravity: give either gravity (px/s², y down) or gravityMetric (m/s², y up), not both');
  const g = o.gravityMetric ?? (o.gravity ? [o.gravity[0] / pixelsPerMetre + 0, -o.gravity[1] / pixelsPerMetre + 0] : [0, -9.81]);
  if (!Number.isFinite(g[0]) || !Number.isFinite(g[1])) throw new InputError(`gravity must be two finite numbers, got [${g[0]}, ${g[1]}]`);
  return [g[0], g[1]];
}

/** Standard gravity used by the rope defaults (`stiffness`, `sag`), independent of the world's gravity. */
export const ROPE_REFERENCE_GRAVITY = 9.81;

/**
 * Engine parameters of a rope through `pts` (m): lumped node masses (kg), spring alpha (= EA, N) and hinge alpha
 * (= 2 EI, N·m²), from RopeOptions' physical `linearDensity`, `stiffness`, `bendStiffness` / `sag`.
 */
export function ropeParameters(pts: ArrayLike<number>, o: RopeOptions = {}): { mass: Float64Array; length: number; EA: number; EI: number; springAlpha: number; hingeAlpha: number } {
  const n = pts.length / 2;
  const rho = o.linearDensity ?? 1;
  if (!(rho > 0) || !Number.isFinite(rho)) throw new InputError(`rope: linearDensity must be a finite number > 0, got ${rho}`);
  const mass = new Float64Array(n);
  let length = 0;
  for (let i = 1; i < n; i++) {
    const l = Math.hypot(pts[2 * i]! - pts[2 * i - 2]!, pts[2 * i + 1]! - pts[2 * i - 1]!);
    length += l;
    mass[i - 1]! += (rho * l) / 2;
    mass[i]! += (rho * l) / 2;
  }
  const g = ROPE_REFERENCE_GRAVITY;
  const EA = o.stiffness ?? 200 * rho * g * length;
  if (!(EA > 0) || !Number.isFinite(EA)) throw new InputError(`rope: stiffness must be a finite number > 0, got ${EA}`);
  let EI: number;
  if (o.bendStiffness !== undefined) EI = o.bendStiffness;
  else if (o.sag !== undefined) {
    if (!(o.sag > 0) || !Number.isFinite(o.sag)) throw new InputError(`rope: sag must be a finite number > 0, got ${o.sag}`);
    EI = (rho * g * length ** 3) / (8 * o.sag);
  } else EI = 0.025;
  if (!(EI >= 0) || !Number.isFinite(EI)) throw new InputError(`rope: bendStiffness must be a finite number ≥ 0, got ${EI}`);
  return { mass, length, EA, EI, springAlpha: EA, hingeAlpha: 2 * EI };
}

/** Evenly resample a polyline (m) to `segments` segments. */
function resample(src: number[], segments: number): number[] {
  const n = src.length / 2;
  const cum = [0];
  for (let i = 1; i < n; i++) cum.push(cum[i - 1]! + Math.hypot(src[2 * i]! - src[2 * i - 2]!, src[2 * i + 1]! - src[2 * i - 1]!));
  const total = cum[n - 1]!;
  const out: number[] = [];
  let j = 0;
  for (let k = 0; k <= segments; k++) {
    const s = (total * k) / segments;
    while (j < n - 2 && cum[j + 1]! < s) j++;
    const seg = cum[j + 1]! - cum[j]! || 1;
    const t = Math.min(1, Math.max(0, (s - cum[j]!) / seg));
    out.push(src[2 * j]! + t * (src[2 * j + 2]! - src[2 * j]!), src[2 * j + 1]! + t * (src[2 * j + 3]! - src[2 * j + 1]!));
  }
  return out;
}

