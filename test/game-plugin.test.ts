/**
 * ElasticaPlugin's scene lifecycle in Node, with a fake scene: Phaser itself
 * needs a browser (it reads `navigator` at import), so the 'phaser' module is
 * replaced by the few pieces the plugin touches — a ScenePlugin base that does
 * what Phaser 4.2's does (BasePlugin + ScenePlugin constructors, `destroy`), the
 * scene / input event names, the renderer constants and Vector2. The plugin
 * class, SoftSim and the physics are the real ones.
 */
import { describe, expect, it, vi } from 'vitest';
import { engineWarmedUp } from '../src/warmup';

vi.mock('phaser', () => {
  class ScenePlugin {
    pluginManager: unknown;
    game: unknown;
    scene: unknown;
    systems: unknown;
    pluginKey: string;
    constructor(scene: { sys: { events: { once(e: string, f: () => void, c: unknown): void } } }, pluginManager: { game: unknown }, pluginKey: string) {
      this.pluginManager = pluginManager;
      this.game = pluginManager.game;
      this.scene = scene;
      this.systems = scene.sys;
      this.pluginKey = pluginKey;
      scene.sys.events.once('boot', (this as unknown as { boot(): void }).boot, this);
    }
    boot(): void {}
    start(): void {}
    destroy(): void {
      this.pluginManager = this.game = this.scene = this.systems = null;
    }
  }
  class Vector2 {
    constructor(public x = 0, public y = 0) {}
  }
  const Phaser = {
    WEBGL: 2,
    CANVAS: 1,
    Plugins: { ScenePlugin },
    Math: { Vector2 },
    Scenes: { Events: { BOOT: 'boot', START: 'start', CREATE: 'create', UPDATE: 'update', SHUTDOWN: 'shutdown', DESTROY: 'destroy' } },
    Input: { Events: { POINTER_DOWN: 'pointerdown', POINTER_MOVE: 'pointermove', POINTER_UP: 'pointerup', POINTER_UP_OUTSIDE: 'pointerupoutside' } },
  };
  return { default: Phaser };
});

const { ElasticaPlugin } = await import('../src/game/plugin');
const { SoftSim } = await import('../src/game/sim');
const { PhysicsWorld } = await import('../src/world');

type Fn = (...args: unknown[]) => void;

/** eventemitter3-like: on / once / off(event, fn, context) / emit / listenerCount. */
class Emitter {
  private ls = new Map<string, { fn: Fn; ctx: unknown; once: boolean }[]>();
  on(e: string, fn: Fn, ctx?: unknown): this {
    this.list(e).push({ fn, ctx, once: false });
    return this;
  }
  once(e: string, fn: Fn, ctx?: unknown): this {
    this.list(e).push({ fn, ctx, once: true });
    return this;
  }
  off(e: string, fn?: Fn, ctx?: unknown): this {
    this.ls.set(e, this.list(e).filter((l) => !(fn === undefined || (l.fn === fn && (ctx === undefined || l.ctx === ctx)))));
    return this;
  }
  emit(e: string, ...args: unknown[]): boolean {
    const l = this.list(e).slice();
    this.ls.set(e, this.list(e).filter((x) => !x.once));
    for (const x of l) x.fn.apply(x.ctx, args);
    return l.length > 0;
  }
  listenerCount(e: string): number {
    return this.list(e).length;
  }
  total(): number {
    let n = 0;
    for (const v of this.ls.values()) n += v.length;
    return n;
  }
  private list(e: string): { fn: Fn; ctx: unknown; once: boolean }[] {
    let l = this.ls.get(e);
    if (!l) this.ls.set(e, (l = []));
    return l;
  }
}

/** A Graphics stand-in: every method returns itself. */
function fakeGraphics(): unknown {
  const g: Record<string, unknown> = {};
  const proxy: unknown = new Proxy(g, {
    get: (t, k: string) => (k in t ? t[k] : (t[k] = (): unknown => proxy)),
  });
  return proxy;
}

function fakeScene() {
  const events = new Emitter();
  const input = new Emitter();
  const created: unknown[] = [];
  const scene = {
    sys: { events },
    input,
    scale: { width: 800, height: 500 },
    add: {
      graphics: () => {
        const g = fakeGraphics();
        created.push(g);
        return g;
      },
    },
    textures: { exists: () => true },
    cache: { xml: { get: () => undefined } },
  };
  const game = { renderer: { type: 1 /* CANVAS: flat Graphics views */ } };
  return { scene, events, input, created, pluginManager: { game } };
}

function makePlugin() {
  const f = fakeScene();
  const plugin = new ElasticaPlugin(f.scene as never, f.pluginManager as never, 'soft');
  return { ...f, plugin };
}

describe('ElasticaPlugin lifecycle (fake scene)', () => {
  // first in the file: the engine's warm-up is once per process
  it('the engine\'s JIT warm-up runs at CREATE, after the scene\'s create() (where a warmUpAsync may start it), not at START', () => {
    expect(engineWarmedUp()).toBe(false);
    const { plugin, events } = makePlugin();
    events.emit('boot');
    events.emit('start');
    plugin.add.bounds();
    expect(engineWarmedUp()).toBe(false);
    events.emit('create');
    expect(engineWarmedUp()).toBe(true);
  });

  it('a bad engineWarmUp option is an InputError at START, before a simulation is made', () => {
    const { plugin, events } = makePlugin();
    events.emit('boot');
    plugin.configure({ engineWarmUp: 'yes' as unknown as boolean });
    expect(() => events.emit('start')).toThrow(/SoftSim: 'engineWarmUp' must be true or false/);
    expect(plugin.running).toBe(false);
  });

  it('the constructor is cheap: no world, only the base class BOOT subscription', () => {
    const { plugin, events, input } = makePlugin();
    expect(plugin.running).toBe(false);
    expect(events.total()).toBe(1);
    expect(events.listenerCount('boot')).toBe(1);
    expect(input.total()).toBe(0);
    expect(() => plugin.add.jelly(0, 0)).toThrow(/not running/);
  });

  it('boot subscribes START and DESTROY; start creates the sim and hooks update, shutdown and the pointer', () => {
    const { plugin, events, input } = makePlugin();
    events.emit('boot');
    expect(events.listenerCount('start')).toBe(1);
    expect(events.listenerCount('destroy')).toBe(1);
    expect(events.total()).toBe(2);
    expect(plugin.running).toBe(false);
    events.emit('start');
    expect(plugin.running).toBe(true);
    expect(events.listenerCount('update')).toBe(1);
    expect(events.listenerCount('shutdown')).toBe(1);
    expect(input.listenerCount('pointerdown')).toBe(1);
    expect(input.listenerCount('pointermove')).toBe(1);
    expect(input.listenerCount('pointerup')).toBe(1);
    expect(input.listenerCount('pointerupoutside')).toBe(1);
  });

  it('update steps the simulation: a jelly falls onto the bounds floor and stays above it', () => {
    const { plugin, events } = makePlugin();
    events.emit('boot');
    events.emit('start');
    plugin.configure({ pixelsPerMetre: 100, originX: 0, originY: 500 });
    plugin.add.bounds();
    const jelly = plugin.add.jelly(400, 200, { width: 80, height: 60, stiffness: 1e5, density: 20 });
    const y0 = jelly.centroid.y;
    for (let k = 0; k < 120; k++) events.emit('update', k * 16.667, 1000 / 60);
    const s = plugin.sim;
    expect(s.world.stepCount).toBe(120);
    expect(plugin.stats.steps).toBe(120);
    const c = jelly.centroid;
    expect(c.y).toBeGreaterThan(y0 + 100); // fell (pixels, y down)
    expect(c.y).toBeLessThan(500); // above the floor
    expect(s.world.contacts.active.length).toBeGreaterThan(0); // resting on the engine's half-plane
  });

  it('after the scene\'s create() the world\'s topology is built (at load): the first frame builds none', () => {
    const { plugin, events } = makePlugin();
    events.emit('boot');
    events.emit('start');
    expect(events.listenerCount('create')).toBe(1);
    plugin.configure({ pixelsPerMetre: 100, originX: 0, originY: 500 });
    plugin.add.bounds();
    plugin.add.jelly(400, 200, { width: 80, height: 60 });
    const world = plugin.world;
    const builds = (): number => world.lastStats.topologyBuilds;
    const before = builds();
    events.emit('create'); // Phaser emits it after the scene's create()
    expect(builds()).toBe(before + 1);
    expect(events.listenerCount('create')).toBe(0);
    events.emit('update', 0, 1000 / 60);
    expect(world.stepCount).toBe(1);
    expect(builds()).toBe(before + 1);
    // a body added later is taken in at the next frame, as before
    plugin.add.jelly(200, 200, { radius: 30 });
    events.emit('update', 16.7, 1000 / 60);
    expect(builds()).toBe(before + 2);
  });

  it('shutdown removes every listener it added and drops the world; a restart works without double subscription', () => {
    const { plugin, events, input } = makePlugin();
    events.emit('boot');
    events.emit('start');
    const first = plugin.sim;
    plugin.add.jelly(100, 100);
    events.emit('update', 0, 16.7);
    events.emit('shutdown');
    expect(plugin.running).toBe(false);
    expect(events.total()).toBe(2); // start + destroy only
    expect(events.listenerCount('update')).toBe(0);
    expect(events.listenerCount('shutdown')).toBe(0);
    expect(input.total()).toBe(0);

    events.emit('start');
    const second = plugin.sim;
    expect(second).not.toBeNull();
    expect(second).not.toBe(first);
    expect(second.bodies.length).toBe(0);
    expect(events.listenerCount('update')).toBe(1);
    expect(events.listenerCount('shutdown')).toBe(1);
    expect(events.listenerCount('start')).toBe(1);
    expect(input.listenerCount('pointerdown')).toBe(1);
    events.emit('update', 0, 1000 / 60);
    expect(second.world.stepCount).toBe(1); // one subscription: one step per 1/60 s frame
    expect(first.world.stepCount).toBe(1); // the dropped world is not stepped any more
  });

  it('destroy (while running) cleans everything', () => {
    const { plugin, events, input } = makePlugin();
    events.emit('boot');
    events.emit('start');
    plugin.add.jelly(100, 100);
    events.emit('update', 0, 16.7);
    events.emit('destroy');
    expect(plugin.running).toBe(false);
    expect(events.total()).toBe(0);
    expect(input.total()).toBe(0);
    const base = plugin as unknown as { scene: unknown; systems: unknown; game: unknown };
    expect(base.scene).toBeNull();
    expect(base.systems).toBeNull();
    expect(base.game).toBeNull();
  });

  it('names: this.soft.sim is the SoftSim, this.soft.world the engine; both throw when the scene is not running', () => {
    const { plugin, events } = makePlugin();
    events.emit('boot');
    expect(() => plugin.sim).toThrow(/not running/);
    expect(() => plugin.world).toThrow(/not running/);
    events.emit('start');
    expect(plugin.sim).toBeInstanceOf(SoftSim);
    expect(plugin.world).toBeInstanceOf(PhysicsWorld);
    expect(plugin.world).toBe(plugin.sim.world);
  });

  it('gravity: configure({ gravity }) and setGravity take px/s² y down, the Metric variants m/s² y up', () => {
    const { plugin, events } = makePlugin();
    events.emit('boot');
    plugin.configure({ pixelsPerMetre: 100, gravity: [0, 490.5] });
    events.emit('start');
    expect(plugin.sim.gravityMetric).toEqual([0, -4.905]);
    plugin.configure({ gravityMetric: [0, -9.81] });
    expect(plugin.sim.gravity).toEqual([0, 981]);
    plugin.setGravity(0, 0);
    expect(plugin.sim.gravityMetric).toEqual([0, 0]);
    plugin.setGravityMetric(0, -1);
    expect(plugin.sim.gravity).toEqual([0, 100]);
    expect(() => plugin.configure({ gravity: [0, 1], gravityMetric: [0, -1] })).toThrow(/not both/);
    // the last configured unit wins at the next start
    events.emit('shutdown');
    events.emit('start');
    expect(plugin.sim.gravityMetric).toEqual([0, -9.81]);
  });
});
