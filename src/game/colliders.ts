/**
 * The game layer's record of static colliders (metres, y up). Contact itself is
 * the engine's (src/collision: `PhysicsWorld.addHalfplane / addCircleCollider /
 * addSegmentCollider / addPolygonCollider`, part of every `world.step()`); this
 * set only creates those entities and keeps each shape for drawing.
 * A segment with a thickness becomes a polygon collider (the segment's
 * rectangle), a zero-thickness one an engine segment.
 */
import type { ColliderOptions, PhysicsWorld } from '../world';

export type ColliderShape =
  | { kind: 'halfplane'; px: number; py: number; nx: number; ny: number }
  | { kind: 'circle'; cx: number; cy: number; r: number }
  /** r: half the thickness (drawing; the collider is the rectangle around the segment, or the bare segment when 0). */
  | { kind: 'segment'; ax: number; ay: number; bx: number; by: number; r: number }
  /** Simple polygon outline x0, y0, x1, y1, … (either orientation). */
  | { kind: 'polygon'; points: Float64Array };

export interface Collider {
  /** Entity id of the engine collider / half-plane. */
  readonly id: number;
  readonly shape: ColliderShape;
}

export class ColliderSet {
  readonly list: Collider[] = [];
  /** Bumped on every change (the plugin redraws colliders when it moves). */
  version = 0;

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
    const c = { id, shape };
    this.list.push(c);
    this.version++;
    return c;
  }

  remove(world: PhysicsWorld, c: Collider): void {
    const i = this.list.indexOf(c);
    if (i < 0) return;
    this.list.splice(i, 1);
    world.removeEntity(c.id);
    this.version++;
  }

  /** Forget every record (the world was replaced). */
  clear(): void {
    this.list.length = 0;
    this.version++;
  }
}
