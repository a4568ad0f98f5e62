/**
 * Body control: the engine operations a game uses to steer a soft body (SI units, y up).
 *
 * A soft body here is a creation-ordered list of particle entities plus their rest positions. Every
 * operation is a thin write to the Particle component between steps (before the sync stage and after
 * write-back the components are the state, src/systems/pipeline.ts), so the next step gathers it like
 * any other state: no topology, symbolic or pattern rebuild for a velocity, impulse or teleport.
 *
 *   setVelocity / setAngularVelocity   shift the body's centre-of-mass (angular) velocity, keep its
 *                                      internal (deformation) velocities
 *   applyImpulse(J, at?)               Δp = J exactly; with `at`, ΔL = (at − c) × J about the centre of mass
 *   applyAngularImpulse(L)             a rigid spin increment Δω = L / I about the centre of mass
 *   applyForce / applyTorque           a force over one step (or every step: persistent), applied by
 *                                      BodyForces before the sync stage as the velocity change h F / M:
 *                                      for implicit (and symplectic) Euler that is exactly the same step as
 *                                      an extra constant force in the solve (v⁺ = v + h M⁻¹(f(x⁺) + F)), so no
 *                                      per-particle force field is needed in the Particle component
 *   teleport(x, y)                     moves the centre of mass, keeps the shape and velocities
 *   setStatic / pin / unpin            the particles' `fixed` flags (PhysicsWorld.setParticleFixed)
 *   angle / angularVelocity            best-fit rotation (polar decomposition of Σ m (x − c)(X − C)ᵀ, via
 *                                      src/math atan2) and the rigid-fit angular velocity Σ m r × v / Σ m |r|²
 *   mass, centerOfMass, velocity, boundingBox
 *
 * Masses are the topology's lumped masses (particle m plus ρĀ/3 of its triangles). Fixed particles take no
 * velocity change: impulses and forces are spread over the free particles (Δp = J for the body's free part).
 * Sums run in the body's particle order, so the same calls give bit-identical states.
 */
import { atan2 } from '../math';
import { InputError } from '../errors';
import { particleIndexOf, type Topology } from '../solver/topology';
import type { Components } from '../components';
import type { StageName, SystemFn, SystemPlacement } from './pipeline';

/** What body control needs of the world (PhysicsWorld satisfies it; src/systems does not import world.ts). */
export interface BodyWorld {
  readonly c: Components;
  readonly dt: number;
  topology(): Topology;
  setParticleFixed(eid: number, fixed: boolean): void;
  addSystem(stage: StageName, fn: SystemFn, where?: SystemPlacement): void;
  /** Sleeping on (src/systems/sleep.ts), and waking `body`'s island with its still time restarted. */
  readonly sleeping: boolean;
  wake(body: number): boolean;
}

function finite(where: string, ...vals: number[]): void {
  for (const v of vals) if (!Number.isFinite(v)) throw new InputError(`${where}: arguments must be finite numbers, got ${vals.join(', ')}`);
}

/** Control of one soft body: its particle entities (local order) and rest positions (m). */
export class BodyControl {
  readonly world: BodyWorld;
  readonly eids: Int32Array;
  readonly rest: Float64Array;
  /** Local flags: pinned by creation or pin(); `fixed` = static || pinned. */
  readonly pinned: Uint8Array;
  private staticFlag = false;
  /** Per-particle lumped masses (kg), local order; refreshed when the topology changes. */
  private readonly mass: Float64Array;
  private topo: Topology | null = null;
  /** Force for the next step only, and every step (N, N·m), consumed by BodyForces. */
  fx = 0;
  fy = 0;
  torque = 0;
  persistentFx = 0;
  persistentFy = 0;
  persistentTorque = 0;
  /** Scratch of the last centre-of-mass computation: cx, cy, free mass, free cx, free cy, free inertia. */
  private readonly s = new Float64Array(6);

  constructor(world: BodyWorld, eids: ArrayLike<number>, rest: ArrayLike<number>) {
    if (rest.length !== 2 * eids.length) throw new InputError(`BodyControl: ${rest.length / 2} rest points for ${eids.length} particles`);
    this.world = world;
    this.eids = Int32Array.from(eids);
    this.rest = Float64Array.from(rest);
    this.mass = new Float64Array(eids.length);
    this.pinned = new Uint8Array(eids.length);
    const P = world.c.Particle;
    for (let k = 0; k < this.eids.length; k++) this.pinned[k] = P.fixed[this.eids[k]!]!;
  }

  /** Lumped masses of this body's particles (kg), local order (a view: do not keep). */
  masses(): Float64Array {
    const t = this.world.topology();
    if (t !== this.topo) {
      for (let k = 0; k < this.eids.length; k++) {
        const i = particleIndexOf(t.particleIndex, this.eids[k]!);
        this.mass[k] = i >= 0 ? t.mass[2 * i]! : 0;
      }
      this.topo = t;
    }
    return this.mass;
  }

  /** Total mass (kg), fixed particles included. */
  get totalMass(): number {
    const m = this.masses();
    let s = 0;
    for (let k = 0; k < m.length; k++) s += m[k]!;
    return s;
  }

  /** Fills s: centre of mass of all particles, and free mass, free centre of mass and free inertia about it. */
  private centre(): Float64Array {
    const m = this.masses(), P = this.world.c.Particle, e = this.eids, s = this.s;
    let M = 0, X = 0, Y = 0, Mf = 0, Xf = 0, Yf = 0;
    for (let k = 0; k < e.length; k++) {
      const id = e[k]!, mk = m[k]!, x = P.x[id]!, y = P.y[id]!;
      M += mk;
      X += mk * x;
      Y += mk * y;
      if (P.fixed[id] === 0) {
        Mf += mk;
        Xf += mk * x;
        Yf += mk * y;
      }
    }
    s[0] = M > 0 ? X / M : 0;
    s[1] = M > 0 ? Y / M : 0;
    s[2] = Mf;
    s[3] = Mf > 0 ? Xf / Mf : 0;
    s[4] = Mf > 0 ? Yf / Mf : 0;
    let I = 0;
    for (let k = 0; k < e.length; k++) {
      const id = e[k]!;
      if (P.fixed[id] !== 0) continue;
      const rx = P.x[id]! - s[3]!, ry = P.y[id]! - s[4]!;
      I += m[k]! * (rx * rx + ry * ry);
    }
    s[5] = I;
    return s;
  }

  /** Centre of mass (m) into out[0], out[1]. */
  centerOfMass(out: Float64Array | number[]): void {
    const s = this.centre();
    out[0] = s[0]!;
    out[1] = s[1]!;
  }

  /** Mass-weighted mean velocity of the free particles (m/s) into out. */
  velocity(out: Float64Array | number[]): void {
    const m = this.masses(), P = this.world.c.Particle, e = this.eids;
    let M = 0, X = 0, Y = 0;
    for (let k = 0; k < e.length; k++) {
      const id = e[k]!;
      if (P.fixed[id] !== 0) continue;
      M += m[k]!;
      X += m[k]! * P.vx[id]!;
      Y += m[k]! * P.vy[id]!;
    }
    out[0] = M > 0 ? X / M : 0;
    out[1] = M > 0 ? Y / M : 0;
  }

  /** Linear momentum of the body (kg·m/s) into out. */
  momentum(out: Float64Array | number[]): void {
    const m = this.masses(), P = this.world.c.Particle, e = this.eids;
    let X = 0, Y = 0;
    for (let k = 0; k < e.length; k++) {
      const id = e[k]!;
      X += m[k]! * P.vx[id]!;
      Y += m[k]! * P.vy[id]!;
    }
    out[0] = X;
    out[1] = Y;
  }

  /** Rigid-fit angular velocity (rad/s, counter-clockwise) about the free centre of mass. */
  get angularVelocity(): number {
    const s = this.centre(), m = this.masses(), P = this.world.c.Particle, e = this.eids;
    if (!(s[5]! > 0)) return 0;
    let L = 0;
    for (let k = 0; k < e.length; k++) {
      const id = e[k]!;
      if (P.fixed[id] !== 0) continue;
      const rx = P.x[id]! - s[3]!, ry = P.y[id]! - s[4]!;
      L += m[k]! * (rx * P.vy[id]! - ry * P.vx[id]!);
    }
    return L / s[5]!;
  }

  /**
   * Best-fit rotation (rad, counter-clockwise, in (−π, π]) from the rest shape: the rotation of the polar
   * decomposition of A = Σ m (x − c)(X − C)ᵀ, which in 2D is atan2(A₁₀ − A₀₁, A₀₀ + A₁₁).
   */
  get angle(): number {
    const m = this.masses(), P = this.world.c.Particle, e = this.eids, R = this.rest;
    let M = 0, cx = 0, cy = 0, Cx = 0, Cy = 0;
    for (let k = 0; k < e.length; k++) {
      const mk = m[k]!;
      M += mk;
      cx += mk * P.x[e[k]!]!;
      cy += mk * P.y[e[k]!]!;
      Cx += mk * R[2 * k]!;
      Cy += mk * R[2 * k + 1]!;
    }
    if (!(M > 0)) return 0;
    cx /= M;
    cy /= M;
    Cx /= M;
    Cy /= M;
    let a00 = 0, a01 = 0, a10 = 0, a11 = 0;
    for (let k = 0; k < e.length; k++) {
      const mk = m[k]!, rx = P.x[e[k]!]! - cx, ry = P.y[e[k]!]! - cy, Rx = R[2 * k]! - Cx, Ry = R[2 * k + 1]! - Cy;
      a00 += mk * rx * Rx;
      a01 += mk * rx * Ry;
      a10 += mk * ry * Rx;
      a11 += mk * ry * Ry;
    }
    return atan2(a10 - a01, a00 + a11);
  }

  /** Axis-aligned bounds of the particles (m): out = [minX, minY, maxX, maxY]. */
  boundingBox(out: Float64Array | number[]): void {
    const P = this.world.c.Particle, e = this.eids;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (let k = 0; k < e.length; k++) {
      const x = P.x[e[k]!]!, y = P.y[e[k]!]!;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
    out[0] = x0;
    out[1] = y0;
    out[2] = x1;
    out[3] = y1;
  }

  /** Add (dvx, dvy) plus a rigid spin dω about the free centre of mass to every free particle. */
  private addVelocity(dvx: number, dvy: number, dw: number, cx: number, cy: number): void {
    const P = this.world.c.Particle, e = this.eids;
    for (let k = 0; k < e.length; k++) {
      const id = e[k]!;
      if (P.fixed[id] !== 0) continue;
      P.vx[id] = P.vx[id]! + dvx - dw * (P.y[id]! - cy);
      P.vy[id] = P.vy[id]! + dvy + dw * (P.x[id]! - cx);
    }
  }

  /** The centre-of-mass velocity becomes (vx, vy) m/s; internal (deformation) velocities are kept. */
  setVelocity(vx: number, vy: number): void {
    finite('setVelocity', vx, vy);
    const v = this.s;
    this.velocity(v);
    const dx = vx - v[0]!, dy = vy - v[1]!;
    this.addVelocity(dx, dy, 0, 0, 0);
  }

  /** The rigid-fit angular velocity becomes ω (rad/s, counter-clockwise). */
  setAngularVelocity(omega: number): void {
    finite('setAngularVelocity', omega);
    const dw = omega - this.angularVelocity;
    const s = this.centre();
    this.addVelocity(0, 0, dw, s[3]!, s[4]!);
  }

  /**
   * Impulse (N·s) on the body: its free particles' momentum changes by exactly (jx, jy); with a point
   * (atX, atY) (m) the angular momentum about the centre of mass also changes by (at − c) × J.
   */
  applyImpulse(jx: number, jy: number, atX?: number, atY?: number): void {
    finite('applyImpulse', jx, jy, atX ?? 0, atY ?? 0);
    const s = this.centre();
    const Mf = s[2]!;
    if (!(Mf > 0)) return;
    let dw = 0;
    if (atX !== undefined && atY !== undefined && s[5]! > 0) dw = ((atX - s[3]!) * jy - (atY - s[4]!) * jx) / s[5]!;
    this.addVelocity(jx / Mf, jy / Mf, dw, s[3]!, s[4]!);
  }

  /** Angular impulse (N·m·s, counter-clockwise): a rigid spin increment L / I about the centre of mass. */
  applyAngularImpulse(L: number): void {
    finite('applyAngularImpulse', L);
    const s = this.centre();
    if (!(s[5]! > 0)) return;
    this.addVelocity(0, 0, L / s[5]!, s[3]!, s[4]!);
  }

  /** A force (N) over the next step, or every step when `persistent` (added to earlier calls). */
  applyForce(fx: number, fy: number, persistent = false): void {
    finite('applyForce', fx, fy);
    if (persistent) {
      this.persistentFx += fx;
      this.persistentFy += fy;
    } else {
      this.fx += fx;
      this.fy += fy;
    }
  }

  /** A torque (N·m, counter-clockwise) over the next step, or every step when `persistent`. */
  applyTorque(t: number, persistent = false): void {
    finite('applyTorque', t);
    if (persistent) this.persistentTorque += t;
    else this.torque += t;
  }

  /** Drop the persistent force and torque (and any force pending for the next step). */
  clearForces(): void {
    this.fx = this.fy = this.torque = this.persistentFx = this.persistentFy = this.persistentTorque = 0;
  }

  /**
   * Apply this step's forces as the velocity change h F / M (and h τ / I); clears the one-step part. Returns
   * whether a force or torque acted.
   */
  applyStepForces(h: number): boolean {
    const fx = this.fx + this.persistentFx, fy = this.fy + this.persistentFy, t = this.torque + this.persistentTorque;
    this.fx = this.fy = this.torque = 0;
    if (fx === 0 && fy === 0 && t === 0) return false;
    if (fx !== 0 || fy !== 0) this.applyImpulse(h * fx, h * fy);
    if (t !== 0) this.applyAngularImpulse(h * t);
    return true;
  }

  /** The body id of this body's particles (that of its first; 0: none). */
  get bodyId(): number {
    return this.eids.length > 0 ? this.world.c.Particle.body[this.eids[0]!]! : 0;
  }

  /** Move the body so its centre of mass is at (x, y) (m); shape and velocities are kept. */
  teleport(x: number, y: number): void {
    finite('teleport', x, y);
    const s = this.centre();
    const dx = x - s[0]!, dy = y - s[1]!;
    const P = this.world.c.Particle, e = this.eids;
    for (let k = 0; k < e.length; k++) {
      const id = e[k]!;
      P.x[id] = P.x[id]! + dx;
      P.y[id] = P.y[id]! + dy;
    }
  }

  get isStatic(): boolean {
    return this.staticFlag;
  }

  /** Static: every particle fixed (velocities zeroed); false: back to the pinned particles only. */
  setStatic(on: boolean): void {
    this.staticFlag = on;
    this.refreshFixed();
  }

  /** Pin local particle i (fixed in place, velocity zeroed). */
  pin(i: number): void {
    this.local(i, 'pin');
    this.pinned[i] = 1;
    this.refreshFixed();
  }

  /** Release local particle i (unless the body is static). */
  unpin(i: number): void {
    this.local(i, 'unpin');
    this.pinned[i] = 0;
    this.refreshFixed();
  }

  private local(i: number, where: string): void {
    if (!Number.isInteger(i) || i < 0 || i >= this.eids.length) throw new InputError(`${where}: particle index must be a whole number in [0, ${this.eids.length - 1}], got ${i}`);
  }

  private refreshFixed(): void {
    const P = this.world.c.Particle, e = this.eids;
    for (let k = 0; k < e.length; k++) {
      const want = this.staticFlag || this.pinned[k] === 1;
      const id = e[k]!;
      if (want) {
        P.vx[id] = 0;
        P.vy[id] = 0;
      }
      if ((P.fixed[id] === 1) !== want) this.world.setParticleFixed(id, want);
    }
  }
}

/**
 * The pipeline hook of body forces: a system before the sync stage that applies every registered body's
 * one-step and persistent forces, in registration order. A body a force acted on is woken and its still time
 * restarted, as Box2D's ApplyForce with wake does: a body under a persistent force that stays below the sleep
 * speed for a while keeps accelerating instead of falling asleep and losing its velocity (docs/design.md,
 * "Sleeping"). Costs one loop over the list per step, and one over the particles per body a force acted on
 * while sleeping is on.
 */
export class BodyForces {
  readonly bodies: BodyControl[] = [];
  /** While true the forces are not applied (a replay plays recorded inputs instead). */
  muted = false;
  private readonly world: BodyWorld;

  constructor(world: BodyWorld) {
    this.world = world;
    world.addSystem('sync', this.system, { before: true });
  }

  add(b: BodyControl): void {
    this.bodies.push(b);
  }

  remove(b: BodyControl): void {
    const i = this.bodies.indexOf(b);
    if (i >= 0) this.bodies.splice(i, 1);
  }

  private readonly system = (): void => {
    if (this.muted) return;
    const list = this.bodies, h = this.world.dt;
    for (let k = 0; k < list.length; k++) {
      const b = list[k]!;
      if (b.applyStepForces(h) && this.world.sleeping && b.bodyId > 0) this.world.wake(b.bodyId);
    }
  };
}
