/**
 * Elastica as a Phaser 4 scene plugin (skeleton: the PhysicsWorld integration
 * comes once src/world.ts is in place).
 *
 * Install in the game config:
 *   plugins: { scene: [{ key: 'ElasticaPlugin', plugin: ElasticaPlugin, mapping: 'elastica' }] }
 * (or `plugins: { scene: [elasticaScenePlugin()] }`); every scene then has
 * `this.elastica`. Phaser constructs one instance per scene and calls `boot`
 * once (Scene BOOT event); `start`/`shutdown` follow the scene's START and
 * SHUTDOWN events (a scene can be restarted), `destroy` its DESTROY event.
 *
 * Each frame (scene UPDATE event) the plugin feeds Phaser's delta (ms) to a
 * fixed-timestep accumulator and runs that many `world.step()` calls, then
 * calls the after-step listeners with the interpolation alpha so views can
 * redraw. Physics is y-up in metres; the screen is y-down in pixels:
 * px = originX + x * pixelsPerMetre, py = originY - y * pixelsPerMetre.
 */
import Phaser from 'phaser';
import { FixedStepAccumulator } from './accumulator';

/** What the plugin needs from a simulation (PhysicsWorld satisfies it). */
export interface Steppable {
  readonly dt: number;
  step(): void;
}

export interface ElasticaPluginOptions {
  pixelsPerMetre?: number;
  /** Pixel position of the physics origin (default 0, 0). */
  originX?: number;
  originY?: number;
  /** Cap on physics steps per rendered frame (default 5). */
  maxStepsPerFrame?: number;
}

export type AfterStepListener = (alpha: number, stepsThisFrame: number) => void;

export class ElasticaPlugin extends Phaser.Plugins.ScenePlugin {
  static readonly KEY = 'ElasticaPlugin';
  static readonly MAPPING = 'elastica';

  pixelsPerMetre = 50;
  originX = 0;
  originY = 0;
  maxStepsPerFrame = 5;
  paused = false;
  world: Steppable | null = null;
  accumulator = new FixedStepAccumulator();
  /** Physics steps run during the last frame. */
  stepsLastFrame = 0;
  private readonly listeners = new Set<AfterStepListener>();

  constructor(scene: Phaser.Scene, pluginManager: Phaser.Plugins.PluginManager, pluginKey: string) {
    super(scene, pluginManager, pluginKey);
  }

  override boot(): void {
    const events = this.systems!.events;
    events.on(Phaser.Scenes.Events.START, this.start, this);
    events.once(Phaser.Scenes.Events.DESTROY, this.destroy, this);
  }

  /** Scene START: hook the update loop. Runs again on every scene (re)start. */
  override start(): void {
    const events = this.systems!.events;
    events.on(Phaser.Scenes.Events.UPDATE, this.update, this);
    events.once(Phaser.Scenes.Events.SHUTDOWN, this.shutdown, this);
  }

  configure(opts: ElasticaPluginOptions): this {
    if (opts.pixelsPerMetre !== undefined) {
      if (!(opts.pixelsPerMetre > 0)) throw new RangeError(`pixelsPerMetre must be > 0, got ${opts.pixelsPerMetre}`);
      this.pixelsPerMetre = opts.pixelsPerMetre;
    }
    if (opts.originX !== undefined) this.originX = opts.originX;
    if (opts.originY !== undefined) this.originY = opts.originY;
    if (opts.maxStepsPerFrame !== undefined) {
      this.maxStepsPerFrame = opts.maxStepsPerFrame;
      this.accumulator = new FixedStepAccumulator({ dt: this.accumulator.dt, maxStepsPerFrame: opts.maxStepsPerFrame });
    }
    return this;
  }

  /** Drive `world` from this scene's update loop (replaces any previous one). */
  attach(world: Steppable): this {
    this.world = world;
    this.accumulator = new FixedStepAccumulator({ dt: world.dt, maxStepsPerFrame: this.maxStepsPerFrame });
    return this;
  }

  onAfterStep(fn: AfterStepListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Scene UPDATE: run the fixed steps due for this frame. */
  update(_time: number, delta: number): void {
    let n = 0;
    if (this.world && !this.paused) {
      n = this.accumulator.advance(delta);
      for (let i = 0; i < n; i++) this.world.step();
    }
    this.stepsLastFrame = n;
    const alpha = this.paused ? 0 : this.accumulator.alpha;
    for (const fn of this.listeners) fn(alpha, n);
  }

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

  /** Scene SHUTDOWN: unhook the loop and drop the world (the scene may start again). */
  shutdown(): void {
    const events = this.systems?.events;
    if (events) {
      events.off(Phaser.Scenes.Events.UPDATE, this.update, this);
      events.off(Phaser.Scenes.Events.SHUTDOWN, this.shutdown, this);
    }
    this.world = null;
    this.listeners.clear();
    this.accumulator.reset();
  }

  /** Scene DESTROY. */
  override destroy(): void {
    this.shutdown();
    this.systems?.events.off(Phaser.Scenes.Events.START, this.start, this);
    super.destroy();
  }
}

/** The entry for `plugins: { scene: [...] }` in a Phaser game config. */
export function elasticaScenePlugin(): { key: string; plugin: typeof ElasticaPlugin; mapping: string } {
  return { key: ElasticaPlugin.KEY, plugin: ElasticaPlugin, mapping: ElasticaPlugin.MAPPING };
}
