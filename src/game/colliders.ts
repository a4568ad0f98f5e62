/**
 * The game layer's record of static colliders (metres, y up). Contact itself is
 * the engine's (src/collision: `PhysicsWorld.addHalfplane / addCircleCollider /
 * addSegmentCollider / addPolygonCollider`, part of every `world.step()`); this
 * set only creates those entities and keeps each shape for drawing.
 * A segment with a thickness becomes a polygon collider (the segment's
 * rectangle), a zero-thickness one an engine segment.
 */
import type { ColliderOptions, PhysicsWorld } from '../world';
import type { CollisionFilter } from '../systems/filters';
import { InputError } from '../errors';
import { cos, sin } from '../math';

export type ColliderShape =
  | { kind: 'halfplane'; px: number; py: number; nx: number; ny: number }
  | { kind: 'circle'; cx: number; cy: number; r: number }
  /** r: half the thickness (drawing; the collider is the rectangle around the segment, or the bare segment when 0). */
  | { kind: 'segment'; ax: number; ay: number; bx: number; by: number; r: number }
  /** Simple polygon outline x0, y0, x1, y1, … (either orientation). */
  | { kind: 'polygon'; points: Float64Array };

/**
 * Collider options of the game layer (pixels, y down): Matter's `collisionFilter`, `isSensor`-like `sensor`,
 * one-way platforms and the contact material.
 */
export interface GameColliderOptions {
  collisionFilter?: CollisionFilter;
  /** Report overlaps as contact events (`sensor: true`), never push (coins, goal zones). */
  sensor?: boolean;
  /** One-way: true lets bodies through from below (moving up the screen); a direction {x, y} (px axes, y down) is the pass direction. */
  oneWay?: boolean | { x: number; y: number };
  friction?: number;
  cor?: number;
}

/** Engine collider options (y up) from the game layer's (y down). */
export function engineColliderOptions(o: GameColliderOptions): ColliderOptions {
  const out: ColliderOptions = {};
  if (o.collisionFilter !== undefined) out.collisionFilter = o.collisionFilter;
  if (o.sensor !== undefined) out.sensor = o.sensor;
  if (o.oneWay !== undefined) out.oneWay = typeof o.oneWay === 'object' && o.oneWay !== null ? { x: o.oneWay.x, y: -o.oneWay.y } : o.oneWay;
  if (o.friction !== undefined) out.friction = o.friction;
  if (o.cor !== undefined) out.cor = o.cor;
  return out;
}

/** What a collider handle needs from its owner (SoftSim): the current world and the pixel units. */
export interface ColliderHost {
  readonly world: PhysicsWorld;
  readonly pixelsPerMetre: number;
  toMetreX(px: number): number;
  toMetreY(py: number): number;
  toPixelX(x: number): number;
  toPixelY(y: number): number;
}

/**
 * A collider handle (pixels, y down, angles in radians clockwise on screen as Phaser's `rotation`).
 * Circles, segments and polygons are kinematic: `setVelocity` moves them every step and they carry what
 * rests on them (contact friction sees their velocity); `moveTo` (and the tweenable `x`, `y`, `rotation`
 * setters) sets the velocity that brings the collider to a pose in the next step, after which it stops;
 * `setPosition` / `setAngle` teleport (nothing is carried). Half-planes do not move.
 */
export class Collider {
  /** Entity id of the engine collider / half-plane. */
  readonly id: number;
  /** The shape as created (metres, y up); the current pose is `pivot` moved by `x`, `y`, `rotation`. */
  readonly shape: ColliderShape;
  /** The engine pivot at creation (m): circle centre, segment midpoint, polygon vertex mean. */
  readonly pivotX: number;
  readonly pivotY: number;
  /** Pending `moveTo` target (m, rad counter-clockwise), consumed after the next step. */
  target: Float64Array | null = null;
  /**
   * Removed (removeCollider, or the world was replaced): the handle is stale, and every use of it is
   * an InputError — its entity id may already belong to another collider (bitECS recycles ids).
   */
  removed = false;
  private readonly host: ColliderHost;
  private readonly owner: ColliderSet;

  constructor(host: ColliderHost, owner: ColliderSet, id: number, shape: ColliderShape) {
    this.host = host;
    this.owner = owner;
    this.id = id;
    this.shape = shape;
    if (shape.kind === 'halfplane') {
      this.pivotX = shape.px;
      this.pivotY = shape.py;
    } else {
      const K = host.world.c.Collider;
      this.pivotX = K.px[id]!;
      this.pivotY = K.py[id]!;
    }
  }

  get kinematic(): boolean {
    return this.shape.kind !== 'halfplane';
  }

  /**
   * Change the collision filter, sensor flag and one-way direction (from the next step; omitted: the
   * default — category 1, mask all, group 0, solid, two-way). Not for half-planes.
   */
  setCollisionFilter(o: Omit<GameColliderOptions, 'friction' | 'cor'> = {}): this {
    this.need('setCollisionFilter');
    const e = engineColliderOptions(o);
    this.host.world.setColliderFilter(this.id, { ...e.collisionFilter, sensor: e.sensor, oneWay: e.oneWay });
    return this;
  }

  /** Refuse a stale handle (see `removed`). */
  private live(where: string): void {
    if (this.removed) {
      throw new InputError(`Collider.${where}: this collider was removed (removeCollider, or its world was replaced); its handle is stale (entity ${this.id} may now be another collider)`);
    }
  }

  private need(where: string): void {
    this.live(where);
    if (!this.kinematic) throw new InputError(`Collider.${where}: a half-plane (bounds) cannot move; use a polygon or segment collider`);
  }

  /** Pivot x (px). Setting it moves the collider there in the next step (kinematic, carries bodies). */
  get x(): number {
    this.live('x');
    return this.kinematic ? this.host.toPixelX(this.host.world.c.Collider.px[this.id]!) : this.host.toPixelX(this.pivotX);
  }
  set x(px: number) {
    this.moveTo(px, this.targetY());
  }
  /** Pivot y (px). */
  get y(): number {
    this.live('y');
    return this.kinematic ? this.host.toPixelY(this.host.world.c.Collider.py[this.id]!) : this.host.toPixelY(this.pivotY);
  }
  set y(py: number) {
    this.moveTo(this.targetX(), py);
  }
  /** Rotation (rad, clockwise on screen) about the pivot. */
  get rotation(): number {
    this.live('rotation');
    return this.kinematic ? -this.host.world.c.Collider.angle[this.id]! + 0 : 0;
  }
  set rotation(r: number) {
    this.moveTo(this.targetX(), this.targetY(), r);
  }

  private targetX(): number {
    return this.target ? this.host.toPixelX(this.target[0]!) : this.x;
  }
  private targetY(): number {
    return this.target ? this.host.toPixelY(this.target[1]!) : this.y;
  }

  /** Kinematic move: over the next fixed step to pivot (x, y) px and `rotation` (rad, clockwise), then stop. */
  moveTo(x: number, y: number, rotation?: number): this {
    this.need('moveTo');
    rotation ??= this.target ? -this.target[2]! : this.rotation;
    if (![x, y, rotation].every(Number.isFinite)) throw new InputError(`Collider.moveTo: arguments must be finite numbers, got ${x}, ${y}, ${rotation}`);
    const h = this.host;
    const t = this.target ?? (this.target = new Float64Array(3));
    t[0] = h.toMetreX(x);
    t[1] = h.toMetreY(y);
    t[2] = -rotation + 0;
    h.world.moveColliderTo(this.id, t[0], t[1], t[2]);
    this.owner.moving(this);
    return this;
  }

  /** Teleport the pivot to (x, y) px (no velocity: bodies are pushed, not carried). */
  setPosition(x: number, y: number): this {
    this.need('setPosition');
    const h = this.host;
    h.world.setColliderPose(this.id, h.toMetreX(x), h.toMetreY(y));
    this.owner.version++;
    return this;
  }

  /** Teleport the rotation (rad, clockwise on screen). */
  setAngle(rotation: number): this {
    this.need('setAngle');
    const K = this.host.world.c.Collider;
    this.host.world.setColliderPose(this.id, K.px[this.id]!, K.py[this.id]!, -rotation + 0);
    this.owner.version++;
    return this;
  }

  /** Kinematic velocity (px/s, y down; rad/s clockwise): the collider moves every step and carries bodies. */
  setVelocity(vx: number, vy: number, angularVelocity = 0): this {
    this.need('setVelocity');
    const ppm = this.host.pixelsPerMetre;
    this.target = null;
    this.host.world.setColliderVelocity(this.id, vx / ppm, -vy / ppm + 0, -angularVelocity + 0);
    this.owner.moving(this);
    return this;
  }

  /** Velocity (px/s, y down). */
  get velocityX(): number {
    return this.kinematic ? this.host.world.c.Collider.vx[this.id]! * this.host.pixelsPerMetre : 0;
  }
  get velocityY(): number {
    return this.kinematic ? -this.host.world.c.Collider.vy[this.id]! * this.host.pixelsPerMetre + 0 : 0;
  }

  /** Current pose transform of a creation-time point (m) into out (m): R(angle)(p − pivot₀) + pivot. */
  posePoint(x: number, y: number, out: Float64Array): void {
    if (!this.kinematic) {
      out[0] = x;
      out[1] = y;
      return;
    }
    const K = this.host.world.c.Collider, a = K.angle[this.id]!;
    const c = a === 0 ? 1 : cos(a), s = a === 0 ? 0 : sin(a);
    const dx = x - this.pivotX, dy = y - this.pivotY;
    out[0] = K.px[this.id]! + c * dx - s * dy;
    out[1] = K.py[this.id]! + s * dx + c * dy;
  }
}

export class ColliderSet {
  readonly list: Collider[] = [];
  /** Bumped on every change (the plugin redraws colliders when it moves). */
  version = 0;
  /** Colliders with a velocity or a pending moveTo (redrawn every frame; targets cleared after a step). */
  readonly moved: Collider[] = [];
  private readonly host: ColliderHost;

  constructor(host: ColliderHost) {
    this.host = host;
  }

  /** Note a collider that moves (idempotent). */
  moving(c: Collider): void {
    if (!this.moved.includes(c)) this.moved.push(c);
    this.version++;
  }

  /**
   * After a fixed step: colliders that reached their moveTo target stop; those without velocity leave the
   * moving list. Bumps `version` while anything moves.
   */
  afterStep(world: PhysicsWorld): void {
    if (this.moved.length === 0) return;
    const K = world.c.Collider;
    for (let k = this.moved.length - 1; k >= 0; k--) {
      const c = this.moved[k]!;
      const t = c.target;
      if (t) {
        c.target = null;
        world.setColliderVelocity(c.id, 0, 0, 0);
        // land exactly on the target (the step moved it by velocity·dt, equal up to rounding)
        world.setColliderPose(c.id, t[0]!, t[1]!, t[2]!);
      }
      if (K.vx[c.id] === 0 && K.vy[c.id] === 0 && K.omega[c.id] === 0) this.moved.splice(k, 1);
    }
    this.version++;
  }

  /** Creates the engine entity for `shape` in `world` and records it. */
  add(world: PhysicsWorld, shape: ColliderShape, opts: ColliderOptions = {}): Collider {
    let id: number;
    switch (shape.kind) {
      case 'halfplane': {
        const l = Math.sqrt(shape.nx * shape.nx + shape.ny * shape.ny);
        shape = { ...shape, nx: shape.nx / l, ny: shape.ny / l };
        id = world.addHalfplane(shape.px, shape.py, shape.nx, shape.ny);
        break;
      }
      case 'circle':
        id = world.addCircleCollider(shape.cx, shape.cy, shape.r, opts);
        break;
      case 'segment': {
        const dx = shape.bx - shape.ax, dy = shape.by - shape.ay, l = Math.sqrt(dx * dx + dy * dy);
        if (shape.r > 0 && l > 0) {
          const nx = (-dy / l) * shape.r, ny = (dx / l) * shape.r;
          id = world.addPolygonCollider([shape.ax - nx, shape.ay - ny, shape.bx - nx, shape.by - ny, shape.bx + nx, shape.by + ny, shape.ax + nx, shape.ay + ny], opts);
        } else id = world.addSegmentCollider(shape.ax, shape.ay, shape.bx, shape.by, opts);
        break;
      }
      case 'polygon':
        id = world.addPolygonCollider(shape.points, opts);
        break;
    }
    return this.record(id, shape);
  }

  /** Record an entity the world already has (e.g. a scene file's half-planes). */
  record(id: number, shape: ColliderShape): Collider {
    const c = new Collider(this.host, this, id, shape);
    this.list.push(c);
    this.version++;
    return c;
  }

  remove(world: PhysicsWorld, c: Collider): void {
    const i = this.list.indexOf(c);
    if (i < 0) return;
    this.list.splice(i, 1);
    const m = this.moved.indexOf(c);
    if (m >= 0) this.moved.splice(m, 1);
    world.removeEntity(c.id);
    c.removed = true;
    this.version++;
  }

  /** Forget every record (the world was replaced). */
  clear(): void {
    for (const c of this.list) c.removed = true;
    this.list.length = 0;
    this.moved.length = 0;
    this.version++;
  }
}
