/**
 * Contact events for game code (pixels, y down): the engine's per-step contact lists
 * (`world.contacts.begin / active / end`, aggregated per body–body and body–collider pair, sorted by
 * pair: src/collision/events.ts) mapped to SoftBody and Collider handles after each fixed step.
 *
 * Order, once per fixed step after the step (and after `onStep` listeners): every 'contactstart', then
 * every 'contactactive', then every 'contactend', each in the engine's deterministic pair order; for each
 * event the SoftSim listeners first, then body A's, then body B's.
 *
 * Nothing runs when nobody listens: the velocity snapshot (a system before the sync stage) and the
 * dispatch both return at once while the listener count is 0.
 *
 * The event object is pooled: read it inside the listener, do not keep it.
 * `relativeSpeed` is not in the engine's events: it is computed here from the velocities at the start of
 * the step (the snapshot), as the approach speed along the normal of A's contact particle against B's
 * mean velocity (a body) or the collider's velocity. `impulse` is the engine's normal impulse summed over
 * the pair's contacts in the step (kg·px/s here: N·s × pixels per metre).
 */
import type { PhysicsWorld } from '../world';
import type { Collider } from './colliders';

/** What the dispatcher reads of a body (SoftBody satisfies it). */
export interface ContactBody {
  readonly particles: readonly number[];
  readonly listenerCount: number;
  readonly listeners: Partial<Record<ContactType, ((e: never) => void)[]>>;
}

/** What the dispatcher reads of the simulation (SoftSim satisfies it). */
export interface ContactHost<B extends ContactBody> {
  readonly world: PhysicsWorld;
  readonly pixelsPerMetre: number;
  readonly bodies: readonly B[];
  toPixelX(x: number): number;
  toPixelY(y: number): number;
  bodyOfParticle(eid: number): B | null;
  bodyById(id: number): B | null;
  colliderById(eid: number): Collider | null;
}

/** One engine contact event (src/collision: world.contacts.begin / active / end). */
type ContactEvent = PhysicsWorld['contacts']['begin'][number];

export type ContactType = 'contactstart' | 'contactactive' | 'contactend';

export interface SoftContact<B = ContactBody> {
  type: ContactType;
  /** The body of the contact particle (null: a particle outside any SoftBody). */
  bodyA: B | null;
  /** Local index in bodyA of one particle in the contact (−1 when unknown). */
  particleA: number;
  /** The other body, or null for a collider contact. */
  bodyB: B | null;
  /** The collider (half-planes from `bounds` included), or null for a body–body contact. */
  collider: Collider | null;
  /** Contact point (px), on the surface of B / the collider. */
  x: number;
  y: number;
  /** Unit normal from B (or the collider) towards A, pixel axes (y down). */
  normalX: number;
  normalY: number;
  /** Normal impulse over the step (kg·px/s): what the contact applied (0 for a sensor overlap). */
  impulse: number;
  /** A sensor overlap (a sensor collider or body): reported, never pushed. */
  sensor: boolean;
  /** Approach speed along the normal at the start of the step (px/s, > 0 when closing). */
  relativeSpeed: number;
}

export type ContactListener<B = ContactBody> = (e: SoftContact<B>) => void;

function newContact<B>(): SoftContact<B> {
  return {
    type: 'contactstart', bodyA: null, particleA: -1, bodyB: null, collider: null, x: 0, y: 0, normalX: 0, normalY: 0, impulse: 0, sensor: false, relativeSpeed: 0,
  };
}

export class ContactDispatcher<B extends ContactBody> {
  readonly listeners: Record<ContactType, ContactListener<B>[]> = { contactstart: [], contactactive: [], contactend: [] };
  private readonly sim: ContactHost<B>;
  private count = 0;
  private vx0 = new Float64Array(0);
  private vy0 = new Float64Array(0);
  private readonly ev = newContact<B>();

  constructor(sim: ContactHost<B>) {
    this.sim = sim;
  }

  /** Register the velocity snapshot on a (new) world's pipeline. */
  attach(world: PhysicsWorld): void {
    world.addSystem('sync', this.snapshot, { before: true });
  }

  /** Total listeners (SoftSim's and every body's); recount after any on / off. */
  recount(): void {
    let n = this.listeners.contactstart.length + this.listeners.contactactive.length + this.listeners.contactend.length;
    for (const b of this.sim.bodies) n += b.listenerCount;
    this.count = n;
  }

  get listening(): boolean {
    return this.count > 0;
  }

  private readonly snapshot = (): void => {
    if (this.count === 0) return;
    const P = this.sim.world.c.Particle;
    if (this.vx0.length < P.vx.length) {
      this.vx0 = new Float64Array(P.vx.length);
      this.vy0 = new Float64Array(P.vy.length);
    }
    const ids = this.sim.world.lists.particles;
    for (let k = 0; k < ids.length; k++) {
      const e = ids[k]!;
      this.vx0[e] = P.vx[e]!;
      this.vy0[e] = P.vy[e]!;
    }
  };

  /** After a fixed step: deliver the step's events (nothing when nobody listens). */
  dispatch(): void {
    if (this.count === 0) return;
    const c = this.sim.world.contacts;
    this.emitList('contactstart', c.begin);
    this.emitList('contactactive', c.active);
    this.emitList('contactend', c.end);
  }

  private emitList(type: ContactType, list: readonly ContactEvent[]): void {
    for (let k = 0; k < list.length; k++) {
      const ev = this.fill(type, list[k]!);
      this.emit(this.listeners[type], ev);
      const a = ev.bodyA, b = ev.bodyB;
      if (a && a.listenerCount > 0) this.emit(a.listeners[type] as ContactListener<B>[] | undefined, ev);
      if (b && b !== a && b.listenerCount > 0) this.emit(b.listeners[type] as ContactListener<B>[] | undefined, ev);
    }
  }

  private emit(fns: ContactListener<B>[] | undefined, ev: SoftContact<B>): void {
    if (!fns) return;
    for (let k = 0; k < fns.length; k++) fns[k]!(ev);
  }

  private fill(type: ContactType, e: ContactEvent): SoftContact<B> {
    const s = this.sim, ppm = s.pixelsPerMetre, ev = this.ev;
    const a = s.bodyOfParticle(e.particle);
    ev.type = type;
    ev.bodyA = a;
    ev.particleA = a ? a.particles.indexOf(e.particle) : -1;
    ev.bodyB = e.collider < 0 ? s.bodyById(e.bodyB) : null;
    ev.collider = e.collider >= 0 ? s.colliderById(e.collider) : null;
    ev.x = s.toPixelX(e.x);
    ev.y = s.toPixelY(e.y);
    ev.normalX = e.nx;
    ev.normalY = -e.ny + 0;
    ev.impulse = e.impulse * ppm;
    ev.sensor = e.sensor;
    // approach speed: −(vA − vB)·n at the start of the step
    const vax = e.particle < this.vx0.length ? this.vx0[e.particle]! : 0, vay = e.particle < this.vy0.length ? this.vy0[e.particle]! : 0;
    let vbx = 0, vby = 0;
    const B = ev.bodyB;
    if (B) {
      const ids = B.particles;
      for (let k = 0; k < ids.length; k++) {
        const f = ids[k]!;
        if (f < this.vx0.length) {
          vbx += this.vx0[f]!;
          vby += this.vy0[f]!;
        }
      }
      vbx /= ids.length || 1;
      vby /= ids.length || 1;
    } else if (ev.collider && ev.collider.kinematic) {
      const K = s.world.c.Collider;
      vbx = K.vx[e.collider]!;
      vby = K.vy[e.collider]!;
    }
    ev.relativeSpeed = (-((vax - vbx) * e.nx + (vay - vby) * e.ny) + 0) * ppm;
    return ev;
  }
}
