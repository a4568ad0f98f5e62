/**
 * "Jelly run": the level and rules of the playable gallery game, Phaser-free (a SoftSim in pixels, y down),
 * so the page (jelly-run.ts) and a headless test (test/game-level.test.ts) run the same logic.
 *
 * Everything the game decides happens once per fixed step (`step`, called from SoftSim.onStep) from the
 * held inputs, so the same inputs per step replay bit-identically:
 *   - the player is a soft disc: left / right roll it (torque plus a push, capped speed), jump is an impulse
 *     when it touched ground in the last step (contact events with an upward normal);
 *   - a kinematic platform ferries it over the first pit (collider.setVelocity, reversed at its ends);
 *   - a rope swing over the second pit: `grab` while touching the rope ties the player to it, jump lets go;
 *   - coins are sensor circles (they report the player's overlap as a contact with `sensor: true` and never
 *     push); their collision filter (mask = the player's category) keeps the rope from picking them up;
 *   - a one-way ledge over the start (soft.segment with `oneWay: true`): the player jumps up through it from
 *     below and lands on it, to reach the bonus coin above it;
 *   - the flag's area (query bodiesIn) wins; falling below the level loses; the page restarts the scene.
 */
import type { Collider, SoftBody, SoftContact, SoftSim } from '../../src/phaser';

export const LEVEL_WIDTH = 800;
export const LEVEL_HEIGHT = 500;

export interface RunInput {
  left: boolean;
  right: boolean;
  jump: boolean;
  grab: boolean;
}

export interface Coin {
  x: number;
  y: number;
  taken: boolean;
  /** The sensor collider (made by JellyRun). */
  sensor?: Collider;
}

/** Collision categories: the player, the coins (sensors that see the player only). */
export const CAT_PLAYER = 2, CAT_COIN = 4;
/** The one-way ledge over the start: x from, x to, y (px). */
export const LEDGE = { x0: 90, x1: 210, y: 370 };

/** Platform travel (pivot x, px), speed (px/s) and dwell at each end (steps). */
export const PLAT_MIN = 300, PLAT_MAX = 450;
const PLAT_SPEED = 70, PLAT_DWELL = 75;
const GROUND_Y = 440;
/** Jump: an impulse of mass × this speed (px/s), enough to rise through the ledge. */
const JUMP_SPEED = 420;

export class JellyRun {
  readonly sim: SoftSim;
  readonly player: SoftBody;
  readonly platform: Collider;
  readonly rope: SoftBody;
  readonly coins: Coin[] = [
    { x: 140, y: 405, taken: false },
    { x: 560, y: 405, taken: false },
    { x: 700, y: 405, taken: false },
    { x: 150, y: 345, taken: false }, // the bonus coin on the one-way ledge
  ];
  readonly goal = { x: 740, y: 360, width: 60, height: 80 };
  readonly input: RunInput = { left: false, right: false, jump: false, grab: false };
  score = 0;
  state: 'playing' | 'won' | 'lost' = 'playing';
  steps = 0;
  /** Steps since the player last touched something from above (0: this step). */
  private airSteps = 99;
  private touchingRope = false;
  private tie = -1;
  private jumpHeld = false;
  /** Steps left in the ferry's stop at an end, and the direction it leaves in. */
  private dwell = PLAT_DWELL;
  private nextDir = 1;
  private readonly inGoal: SoftBody[] = [];

  constructor(sim: SoftSim) {
    this.sim = sim;
    // walls and ground (static polygons), two pits
    sim.polygon([-40, -400, 0, -400, 0, 500, -40, 500]);
    sim.polygon([800, -400, 840, -400, 840, 500, 800, 500]);
    sim.polygon([0, GROUND_Y, 240, GROUND_Y, 240, 500, 0, 500]);
    sim.polygon([500, GROUND_Y, 600, GROUND_Y, 600, 500, 500, 500]);
    sim.polygon([690, GROUND_Y, 800, GROUND_Y, 800, 500, 690, 500]);
    // the ferry over the first pit: a kinematic polygon, top flush with the ground
    this.platform = sim.polygon([PLAT_MIN - 60, GROUND_Y, PLAT_MIN + 60, GROUND_Y, PLAT_MIN + 60, GROUND_Y + 16, PLAT_MIN - 60, GROUND_Y + 16]);
    // the rope swing over the second pit
    this.rope = sim.rope([645, 150, 645, 330], { segments: 12, pinStart: true, linearDensity: 0.6, width: 8 });
    // the one-way ledge: up through it from below, land on it from above
    sim.segment(LEDGE.x0, LEDGE.y, LEDGE.x1, LEDGE.y, 8, { oneWay: true });
    this.player = sim.jelly(60, 400, { radius: 20, stiffness: 3e4, density: 30, resolution: 7 });
    this.player.setCollisionFilter({ category: CAT_PLAYER });
    for (const c of this.coins) c.sensor = sim.circle(c.x, c.y, 14, { sensor: true, collisionFilter: { category: CAT_COIN, mask: CAT_PLAYER } });
    this.player.on('contactactive', this.onContact);
    this.player.on('contactstart', this.onContact);
    sim.onStep(() => this.step());
  }

  /** Contact listener of the player: a coin (sensor), ground under it, or the rope. */
  private readonly onContact = (e: SoftContact): void => {
    if (e.sensor) {
      if (e.type === 'contactstart' && this.state === 'playing') this.take(e.collider);
      return;
    }
    const other = e.bodyA === this.player ? e.bodyB : e.bodyA;
    if (other === this.rope) {
      this.touchingRope = true;
      return;
    }
    // the normal points from B towards A: "up" for the player is normalY < 0 when the player is A
    const up = e.bodyA === this.player ? -e.normalY : e.normalY;
    if (up > 0.5) this.airSteps = 0;
  };

  /** One fixed step of rules, after the physics step (forces apply in the next step). */
  step(): void {
    this.steps++;
    const p = this.player, inp = this.input;
    // platform ferry: stops at each end for PLAT_DWELL steps (docked flush with the ground), then crosses
    const plat = this.platform, px = plat.x;
    if (this.dwell > 0) {
      if (--this.dwell === 0) plat.setVelocity(this.nextDir * PLAT_SPEED, 0);
    } else if ((px >= PLAT_MAX && plat.velocityX > 0) || (px <= PLAT_MIN && plat.velocityX < 0)) {
      plat.moveTo(px >= PLAT_MAX ? PLAT_MAX : PLAT_MIN, plat.y); // land on the end exactly, then stop there
      this.nextDir = px >= PLAT_MAX ? -1 : 1;
      this.dwell = PLAT_DWELL;
    }
    if (this.state !== 'playing') {
      this.touchingRope = false;
      this.airSteps++;
      return;
    }
    const grounded = this.airSteps <= 1;
    const v = p.velocity;
    const dir = (inp.right ? 1 : 0) - (inp.left ? 1 : 0);
    if (dir !== 0 && dir * v.x < 260) {
      p.applyTorque(dir * 6e4);
      p.applyForce(dir * (grounded ? 600 : 350), 0);
    }
    if (inp.jump && !this.jumpHeld) {
      if (this.tie >= 0) this.release();
      else if (grounded) p.applyImpulse(0, -p.mass * JUMP_SPEED);
    }
    this.jumpHeld = inp.jump;
    if (inp.grab && this.touchingRope && this.tie < 0) {
      this.tie = this.sim.tie(this.rope, this.rope.particles.length - 1, p, 3e3, 0.02);
    }
    this.touchingRope = false;
    this.airSteps++;
    const g = this.goal;
    if (this.sim.query.bodiesIn(g.x, g.y, g.width, g.height, this.inGoal).includes(p)) {
      this.state = 'won';
      this.score += 500;
    } else if (p.centroid.y > LEVEL_HEIGHT + 80) this.state = 'lost';
  }

  /** The player overlapped coin sensor `col`: score it and switch the sensor off (mask 0: it sees nothing). */
  private take(col: Collider | null): void {
    const c = this.coins.find((k) => k.sensor === col);
    if (!c || c.taken) return;
    c.taken = true;
    this.score += 100;
    c.sensor!.setCollisionFilter({ sensor: true, collisionFilter: { mask: 0 } });
  }

  private release(): void {
    this.sim.world.removeEntity(this.tie);
    this.tie = -1;
  }

  /** The ferry is stopped at its left (−1) or right (1) end, else 0. */
  get docked(): number {
    if (this.dwell === 0) return 0;
    return this.platform.x <= PLAT_MIN + 1 ? -1 : this.platform.x >= PLAT_MAX - 1 ? 1 : 0;
  }

  get holdingRope(): boolean {
    return this.tie >= 0;
  }

  get coinsTaken(): number {
    return this.coins.filter((c) => c.taken).length;
  }
}
