/**
 * Static colliders for the game layer, in metres (y up), and a simple
 * position/velocity filter used after each implicit solve while the engine has
 * no contact response of its own: a particle that ends a step inside a collider
 * (inflated by `contactRadius`) is projected to its surface, its inward normal
 * velocity is removed and its tangential velocity scaled by (1 − friction).
 * Fixed order (colliders in creation order, particles in dense order), only
 * + − × ÷ and sqrt, so it is deterministic. Preallocated contact list for the
 * debug view; no allocation per step.
 */

export type ColliderShape =
  | { kind: 'halfplane'; px: number; py: number; nx: number; ny: number }
  | { kind: 'circle'; cx: number; cy: number; r: number }
  | { kind: 'segment'; ax: number; ay: number; bx: number; by: number; r: number }
  /** Simple polygon outline x0, y0, x1, y1, … (either orientation). */
  | { kind: 'polygon'; points: Float64Array };

export interface Collider {
  readonly id: number;
  readonly shape: ColliderShape;
}

export class ColliderSet {
  readonly list: Collider[] = [];
  contactRadius = 0.03;
  friction = 0.2;
  /** Contacts of the last filter pass: dense particle index, normal x, normal y. */
  readonly contactNode: Int32Array;
  readonly contactNormal: Float64Array;
  contactCount = 0;
  private nextId = 1;
  // scratch result of `closest`
  private qx = 0;
  private qy = 0;
  private qnx = 0;
  private qny = 0;

  constructor(maxContacts = 2048) {
    this.contactNode = new Int32Array(maxContacts);
    this.contactNormal = new Float64Array(2 * maxContacts);
  }

  add(shape: ColliderShape): Collider {
    if (shape.kind === 'halfplane') {
      const l = Math.sqrt(shape.nx * shape.nx + shape.ny * shape.ny);
      shape = { ...shape, nx: shape.nx / l, ny: shape.ny / l };
    }
    const c = { id: this.nextId++, shape };
    this.list.push(c);
    return c;
  }

  remove(c: Collider): void {
    const i = this.list.indexOf(c);
    if (i >= 0) this.list.splice(i, 1);
  }

  clear(): void {
    this.list.length = 0;
    this.contactCount = 0;
  }

  /**
   * Penetration of point (x, y) into shape (> 0 inside, inflated by rad); sets the
   * surface normal (qnx, qny) pointing out. Returns −Infinity when far.
   */
  private depth(s: ColliderShape, x: number, y: number, rad: number): number {
    switch (s.kind) {
      case 'halfplane': {
        this.qnx = s.nx;
        this.qny = s.ny;
        return rad - ((x - s.px) * s.nx + (y - s.py) * s.ny);
      }
      case 'circle': {
        const dx = x - s.cx, dy = y - s.cy;
        const d = Math.sqrt(dx * dx + dy * dy);
        if (d > s.r + rad) return -Infinity;
        if (d > 1e-12) {
          this.qnx = dx / d;
          this.qny = dy / d;
        } else {
          this.qnx = 0;
          this.qny = 1;
        }
        return s.r + rad - d;
      }
      case 'segment': {
        this.closestOnSegment(s.ax, s.ay, s.bx, s.by, x, y);
        const dx = x - this.qx, dy = y - this.qy;
        const d = Math.sqrt(dx * dx + dy * dy);
        const R = s.r + rad;
        if (d > R) return -Infinity;
        if (d > 1e-12) {
          this.qnx = dx / d;
          this.qny = dy / d;
        } else {
          const ex = s.bx - s.ax, ey = s.by - s.ay, l = Math.sqrt(ex * ex + ey * ey) || 1;
          this.qnx = -ey / l;
          this.qny = ex / l;
        }
        return R - d;
      }
      case 'polygon': {
        const p = s.points;
        const n = p.length / 2;
        let inside = false;
        let best = Infinity, bx = 0, by = 0, ex = 0, ey = 0;
        for (let i = 0, j = n - 1; i < n; j = i++) {
          const xi = p[2 * i]!, yi = p[2 * i + 1]!, xj = p[2 * j]!, yj = p[2 * j + 1]!;
          if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
          this.closestOnSegment(xj, yj, xi, yi, x, y);
          const dx = x - this.qx, dy = y - this.qy, d2 = dx * dx + dy * dy;
          if (d2 < best) {
            best = d2;
            bx = this.qx;
            by = this.qy;
            ex = xi - xj;
            ey = yi - yj;
          }
        }
        const d = Math.sqrt(best);
        if (!inside && d > rad) return -Infinity;
        let nx: number, ny: number;
        if (d > 1e-12) {
          nx = (x - bx) / d;
          ny = (y - by) / d;
          if (inside) {
            nx = -nx;
            ny = -ny;
          }
        } else {
          const l = Math.sqrt(ex * ex + ey * ey) || 1;
          nx = ey / l;
          ny = -ex / l;
        }
        this.qnx = nx;
        this.qny = ny;
        return inside ? rad + d : rad - d;
      }
    }
  }

  private closestOnSegment(ax: number, ay: number, bx: number, by: number, x: number, y: number): void {
    const ex = bx - ax, ey = by - ay;
    const l2 = ex * ex + ey * ey;
    let t = l2 > 0 ? ((x - ax) * ex + (y - ay) * ey) / l2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    this.qx = ax + t * ex;
    this.qy = ay + t * ey;
  }

  /**
   * Project the free particles of the given entity list out of every collider and
   * filter their velocities (the particle component arrays are edited in place).
   */
  filter(P: { x: Float64Array; y: Float64Array; vx: Float64Array; vy: Float64Array; fixed: Uint8Array }, eids: ArrayLike<number>): void {
    this.contactCount = 0;
    if (this.list.length === 0) return;
    const rad = this.contactRadius, keep = 1 - this.friction;
    const cap = this.contactNode.length;
    for (let i = 0; i < eids.length; i++) {
      const e = eids[i]!;
      if (P.fixed[e] === 1) continue;
      for (let c = 0; c < this.list.length; c++) {
        const pen = this.depth(this.list[c]!.shape, P.x[e]!, P.y[e]!, rad);
        if (!(pen > 0)) continue;
        const nx = this.qnx, ny = this.qny;
        P.x[e] = P.x[e]! + pen * nx;
        P.y[e] = P.y[e]! + pen * ny;
        const vn = P.vx[e]! * nx + P.vy[e]! * ny;
        let tx = P.vx[e]! - vn * nx, ty = P.vy[e]! - vn * ny;
        tx *= keep;
        ty *= keep;
        const vnOut = vn > 0 ? vn : 0;
        P.vx[e] = tx + vnOut * nx;
        P.vy[e] = ty + vnOut * ny;
        if (this.contactCount < cap) {
          const k = this.contactCount++;
          this.contactNode[k] = i;
          this.contactNormal[2 * k] = nx;
          this.contactNormal[2 * k + 1] = ny;
        }
      }
    }
  }
}
