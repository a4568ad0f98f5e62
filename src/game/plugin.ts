/**
 * Elastica as a Phaser 4 scene plugin.
 *
 *   plugins: { scene: [{ key: 'ElasticaPlugin', plugin: ElasticaPlugin, mapping: 'soft' }] }
 *
 * gives every scene a typed `this.soft` (module augmentation below). The
 * constructor is cheap (Phaser also builds one for its system scene); the
 * simulation (SoftSim, Phaser-free, src/game/sim.ts) is created on the scene's
 * START and dropped on SHUTDOWN, listeners are removed on SHUTDOWN / DESTROY,
 * so a restarted scene starts clean.
 *
 * Each frame (scene UPDATE) the plugin feeds Phaser's delta to SoftSim.frame,
 * which runs the due fixed steps (pointer input → forces + implicit solve →
 * collision filter) and interpolates; then views are synced once: textured
 * Mesh2D skins (WebGL), textured rope strips, or flat-shaded Graphics triangles
 * (Canvas renderer), plus an optional debug overlay.
 */
import { InputError } from '../errors';
import Phaser from 'phaser';
import { SoftSim, SoftBody, engineWarmUpOption, type ContactListener, type ContactType, type FailSafeListener, type JellyOptions, type RopeOptions, type SheetOptions, type SoftSimOptions } from './sim';
import type { SoftQueries } from './queries';
import { warmUpEngine, type PhysicsWorld, type WarmUpAsyncOptions, type WarmUpOptions, type WarmUpReport } from '../world';
import type { Collider } from './colliders';
import { Skin } from './skin';
import { mesh2dIndices, uvFromBounds } from './mesh2d';
import { refineMesh } from '../mesh';
import { TRI_AREA, TRI_STRIDE } from '../elements';
import { parseSceneXml } from '../scene/xml';

export type ElasticaPluginOptions = SoftSimOptions & {
  /** Draw the debug overlay (particles, edges, strain-coloured triangles, sleeping bodies in slate blue, contacts). */
  debug?: boolean;
  /** Draw colliders (default true). */
  drawColliders?: boolean;
  /** Pointer dragging (default true). */
  pointer?: boolean;
  /** Default Mesh2D render path of textured bodies ('triangles' unless given; a body's own `renderPath` wins). */
  renderPath?: 'triangles' | 'quads';
};

interface MeshView {
  type: 'mesh';
  mesh: Phaser.GameObjects.Mesh2D;
  verts: Float32Array;
  skin: Skin;
}
interface StripView {
  type: 'strip';
  mesh: Phaser.GameObjects.Mesh2D;
  verts: Float32Array;
  halfWidth: number;
}
interface FlatView {
  type: 'flat';
  colour: number;
}
type View = MeshView | StripView | FlatView;

const DEFAULT_JELLY_TEXTURE = '__elastica_jelly';
/** Debug overlay: sleeping bodies' triangles and particles (src/systems/sleep.ts). */
const SLEEPING_COLOUR = 0x6f86b8;
const DEFAULT_ROPE_TEXTURE = '__elastica_rope';

export class ElasticaPlugin extends Phaser.Plugins.ScenePlugin {
  static readonly KEY = 'ElasticaPlugin';
  static readonly MAPPING = 'soft';

  /** The simulation of the running scene (null between SHUTDOWN and START); `sim` throws instead. */
  private current: SoftSim | null = null;
  options: ElasticaPluginOptions = {};
  /** Whether CREATE runs the engine's JIT warm-up (options.engineWarmUp at START). */
  private warmAtCreate = true;
  debug = false;
  private debugGfx: Phaser.GameObjects.Graphics | null = null;
  private flatGfx: Phaser.GameObjects.Graphics | null = null;
  private colliderGfx: Phaser.GameObjects.Graphics | null = null;
  private colliderStamp = -1;
  private stepWindow = 0;
  private timeWindow = 0;
  /** Steps per second of wall time over the last ~0.5 s. */
  stepRate = 0;

  /** Factory: `this.soft.add.jelly(x, y, opts)` etc. Pixels in, handles out. */
  readonly add = {
    jelly: (x: number, y: number, o: JellyOptions = {}): SoftBody => this.view(this.need().jelly(x, y, o)),
    rope: (points: ArrayLike<number>, o: RopeOptions = {}): SoftBody => this.view(this.need().rope(points, o)),
    sheet: (x: number, y: number, o: SheetOptions = {}): SoftBody => this.view(this.need().sheet(x, y, o)),
    /** A FOSSSim XML scene loaded with `this.load.xml(key, url)`; replaces the world. */
    fromScene: (key: string): SoftBody => {
      const doc = this.scene!.cache.xml.get(key) as Document | undefined;
      if (!doc) throw new Error(`ElasticaPlugin: no XML in the cache under '${key}' (load it with this.load.xml)`);
      return this.fromSceneText(new XMLSerializer().serializeToString(doc), key);
    },
    bounds: (x = 0, y = 0, w?: number, h?: number): Collider[] =>
      this.need().bounds(x, y, w ?? this.scene!.scale.width, h ?? this.scene!.scale.height),
    circle: (x: number, y: number, r: number): Collider => this.need().circle(x, y, r),
    segment: (x0: number, y0: number, x1: number, y1: number, thickness?: number): Collider => this.need().segment(x0, y0, x1, y1, thickness),
    polygon: (points: ArrayLike<number>): Collider => this.need().polygon(points),
  };

  constructor(scene: Phaser.Scene, pluginManager: Phaser.Plugins.PluginManager, pluginKey: string) {
    super(scene, pluginManager, pluginKey);
  }

  override boot(): void {
    const events = this.systems!.events;
    events.on(Phaser.Scenes.Events.START, this.start, this);
    events.once(Phaser.Scenes.Events.DESTROY, this.destroy, this);
  }

  /** Scene START: new simulation, hook update and input. Runs on every (re)start. */
  override start(): void {
    const events = this.systems!.events;
    // the engine's JIT warm-up waits for CREATE (below): a warmUpAsync() in the scene's create() runs it in slices
    this.warmAtCreate = engineWarmUpOption(this.options);
    this.current = new SoftSim({ ...this.options, engineWarmUp: false });
    this.debug = this.options.debug ?? false;
    this.colliderStamp = -1;
    events.on(Phaser.Scenes.Events.UPDATE, this.update, this);
    events.once(Phaser.Scenes.Events.CREATE, this.created, this);
    events.once(Phaser.Scenes.Events.SHUTDOWN, this.shutdown, this);
    const input = this.scene!.input as Phaser.Input.InputPlugin | undefined;
    if (input && this.options.pointer !== false) {
      input.on(Phaser.Input.Events.POINTER_DOWN, this.onDown, this);
      input.on(Phaser.Input.Events.POINTER_MOVE, this.onMove, this);
      input.on(Phaser.Input.Events.POINTER_UP, this.onUp, this);
      input.on(Phaser.Input.Events.POINTER_UP_OUTSIDE, this.onUp, this);
    }
  }

  /**
   * Scene CREATE (after the scene's create()): the engine's JIT warm-up, unless the scene's warmUp / warmUpAsync ran
   * or started it (once per page; `engineWarmUp: false` leaves it to the first step), and the bodies it made get
   * their topology now, at load, not in the first frame (SoftSim.prepare).
   */
  private created(): void {
    const s = this.current;
    if (!s) return;
    if (this.warmAtCreate && s.world.newton !== 'fosssim') warmUpEngine();
    s.prepare();
  }

  /**
   * Change units / loop settings (call in create() before adding bodies, or at any time for origin/gravity).
   * Gravity: `gravity` in px/s², y down, or `gravityMetric` in m/s², y up (see SoftSimOptions).
   */
  configure(opts: ElasticaPluginOptions): this {
    if (opts.gravity && opts.gravityMetric) {
      throw new InputError('configure: give either gravity (px/s², y down) or gravityMetric (m/s², y up), not both');
    }
    const merged = { ...this.options, ...opts };
    // the latest gravity wins, in whichever unit it was given
    if (opts.gravity) delete merged.gravityMetric;
    if (opts.gravityMetric) delete merged.gravity;
    this.options = merged;
    const s = this.current;
    if (s) {
      if (opts.pixelsPerMetre !== undefined) {
        if (!(opts.pixelsPerMetre > 0)) throw new InputError(`pixelsPerMetre must be > 0, got ${opts.pixelsPerMetre}`);
        s.pixelsPerMetre = opts.pixelsPerMetre;
      }
      if (opts.originX !== undefined) s.originX = opts.originX;
      if (opts.originY !== undefined) s.originY = opts.originY;
      if (opts.gravity) s.setGravity(opts.gravity[0], opts.gravity[1]);
      if (opts.gravityMetric) s.setGravityMetric(opts.gravityMetric[0], opts.gravityMetric[1]);
      if (opts.grabStiffness !== undefined) s.grabStiffness = opts.grabStiffness;
      if (opts.debug !== undefined) this.debug = opts.debug;
      if (opts.sleeping !== undefined) s.sleeping = opts.sleeping;
    }
    return this;
  }

  private need(): SoftSim {
    if (!this.current) throw new Error('ElasticaPlugin: the scene is not running (use this.soft in create/update)');
    return this.current;
  }

  /** True between the scene's START and SHUTDOWN (while `sim` and `world` exist). */
  get running(): boolean {
    return this.current !== null;
  }

  /**
   * The scene's SoftSim: pixel-space bodies, colliders, the fixed-step loop, pointer dragging, `tie`.
   * Throws when the scene is not running (check `running`).
   */
  get sim(): SoftSim {
    return this.need();
  }

  /**
   * Contact events after every fixed step (src/game/contacts.ts): 'contactstart' | 'contactactive' |
   * 'contactend', with the SoftBody / Collider handles, point, normal, impulse and approach speed (pixels).
   * Per body: `body.on(type, fn)`. 'failsafe': a step that failed safe (SoftFailSafe: reason, detail, the body
   * held while the rest stepped). Listeners belong to the running scene's simulation (gone after a restart).
   */
  on(type: 'failsafe', fn: FailSafeListener): this;
  on(type: ContactType, fn: ContactListener): this;
  on(type: ContactType | 'failsafe', fn: ContactListener | FailSafeListener): this {
    if (type === 'failsafe') this.need().on(type, fn as FailSafeListener);
    else this.need().on(type, fn as ContactListener);
    return this;
  }

  off(type: 'failsafe', fn: FailSafeListener): this;
  off(type: ContactType, fn: ContactListener): this;
  off(type: ContactType | 'failsafe', fn: ContactListener | FailSafeListener): this {
    if (type === 'failsafe') this.current?.off(type, fn as FailSafeListener);
    else this.current?.off(type, fn as ContactListener);
    return this;
  }

  /** Point, area and ray queries in pixels: bodyAt, bodiesIn, raycast, particlesNear (src/game/queries.ts). */
  get query(): SoftQueries<SoftBody> {
    return this.need().query;
  }

  /**
   * Warm the scene up at load (after building it in create()): its own fixed steps run with
   * listeners muted and are then undone exactly (PhysicsWorld.warmUp), so the first frames do not
   * compile contact and material code. `onProgress(fraction)` feeds a loading bar.
   */
  warmUp(options: WarmUpOptions = {}): WarmUpReport {
    return this.need().warmUp(options);
  }

  /**
   * warmUp without blocking the page: slices of about `sliceMs` (default 10) with the event loop free between them,
   * on a private copy of the world, so a loading screen keeps drawing while `onProgress(fraction)` moves its bar
   * (SoftSim.warmUpAsync). Resolves with the report.
   */
  warmUpAsync(options: WarmUpAsyncOptions = {}): Promise<WarmUpReport> {
    return this.need().warmUpAsync(options);
  }

  /** The engine (PhysicsWorld, SI units, y up) the SoftSim steps: entities, components, contacts, stats. */
  get world(): PhysicsWorld {
    return this.need().world;
  }

  // ---- world controls ---------------------------------------------------------
  /** Gravity in px/s², y down (like Arcade physics): `setGravity(0, 981)` at 100 px/m is standard gravity. */
  setGravity(gx: number, gy: number): this {
    this.need().setGravity(gx, gy);
    return this;
  }
  /** Gravity in m/s², y up (the engine's units): `setGravityMetric(0, -9.81)`. */
  setGravityMetric(gx: number, gy: number): this {
    this.need().setGravityMetric(gx, gy);
    return this;
  }
  pause(): this {
    this.need().pause();
    return this;
  }
  resume(): this {
    this.need().resume();
    return this;
  }
  /** One fixed step now (works while paused). */
  step(): this {
    const s = this.need();
    s.stepOnce();
    s.interpolate(1);
    this.render();
    return this;
  }
  get timeScale(): number {
    return this.need().timeScale;
  }
  set timeScale(v: number) {
    this.need().timeScale = v;
  }

  get stats(): { msPerStep: number; stepRate: number; triangles: number; particles: number; steps: number } {
    const s = this.need();
    return { msPerStep: s.msPerStep, stepRate: this.stepRate, triangles: s.triangleCount, particles: s.world.particleCount(), steps: s.world.stepCount };
  }

  fromSceneText(xml: string, source = 'scene.xml'): SoftBody {
    const s = this.need();
    for (const b of s.bodies) this.dropView(b);
    parseSceneXml(xml, source); // validate first (throws InputError with a line)
    return this.view(s.fromSceneText(xml, source));
  }

  /** Remove a body and its display objects. */
  remove(b: SoftBody): void {
    this.dropView(b);
    b.destroy();
  }

  // ---- input ------------------------------------------------------------------
  private onDown(p: Phaser.Input.Pointer): void {
    this.current?.pointerDown(p.worldX, p.worldY);
  }
  private onMove(p: Phaser.Input.Pointer): void {
    this.current?.pointerMove(p.worldX, p.worldY);
  }
  private onUp(): void {
    this.current?.pointerUp();
  }

  // ---- loop -------------------------------------------------------------------
  /** Scene UPDATE: fixed steps due for this frame, then one render sync. */
  update(_time: number, delta: number): void {
    const s = this.current;
    if (!s) return;
    const n = s.frame(delta);
    this.stepWindow += n;
    this.timeWindow += delta;
    if (this.timeWindow >= 500) {
      this.stepRate = (1000 * this.stepWindow) / this.timeWindow;
      this.stepWindow = 0;
      this.timeWindow = 0;
    }
    this.render();
  }

  private isWebGL(): boolean {
    return this.game!.renderer.type === Phaser.WEBGL;
  }

  private ensureTextures(): void {
    const tm = this.scene!.textures;
    if (!tm.exists(DEFAULT_JELLY_TEXTURE)) {
      const t = tm.createCanvas(DEFAULT_JELLY_TEXTURE, 128, 128)!;
      const ctx = t.getContext();
      const g = ctx.createLinearGradient(0, 0, 0, 128);
      g.addColorStop(0, '#8fe3b0');
      g.addColorStop(1, '#2f9e6a');
      ctx.fillStyle = g;
      ctx.fillRect(0, 0, 128, 128);
      ctx.fillStyle = 'rgba(255,255,255,0.25)';
      for (let j = 0; j < 4; j++) for (let i = 0; i < 4; i++) if ((i + j) % 2 === 0) ctx.fillRect(i * 32, j * 32, 32, 32);
      t.refresh();
    }
    if (!tm.exists(DEFAULT_ROPE_TEXTURE)) {
      const t = tm.createCanvas(DEFAULT_ROPE_TEXTURE, 64, 16)!;
      const ctx = t.getContext();
      ctx.fillStyle = '#c8a26b';
      ctx.fillRect(0, 0, 64, 16);
      ctx.strokeStyle = '#7a5a2e';
      ctx.lineWidth = 3;
      for (let i = -16; i < 64; i += 8) {
        ctx.beginPath();
        ctx.moveTo(i, 16);
        ctx.lineTo(i + 16, 0);
        ctx.stroke();
      }
      t.refresh();
    }
  }

  /**
   * Give a body made through `this.soft.sim` (or game code working on a SoftSim) its display objects, as
   * `add.*` does; `display` overrides the body's texture, frame, tint, render path. Replaces an existing view.
   */
  adopt(b: SoftBody, display: Pick<JellyOptions, 'texture' | 'frame' | 'tint' | 'renderPath' | 'detail'> & { width?: number } = {}): SoftBody {
    this.dropView(b);
    return this.view(b, display);
  }

  /** Create the display objects of a body. */
  private view(b: SoftBody, overrides: Partial<JellyOptions & RopeOptions> = {}): SoftBody {
    const scene = this.scene!;
    const o = { ...b.options, ...overrides };
    if (b.kind === 'scene' || !this.isWebGL()) {
      b.view = { type: 'flat', colour: o.tint ?? (b.kind === 'rope' ? 0xc8a26b : 0x5fc48f) } satisfies FlatView;
      return b;
    }
    this.ensureTextures();
    const s = this.need();
    if (b.kind === 'rope') {
      const n = b.particles.length;
      const verts = new Float32Array(8 * n);
      let len = 0;
      for (let i = 0; i < n; i++) {
        if (i > 0) len += Math.hypot(b.rest[2 * i]! - b.rest[2 * i - 2]!, b.rest[2 * i + 1]! - b.rest[2 * i - 1]!);
        const u = (len * s.pixelsPerMetre) / 64;
        verts[8 * i + 2] = u;
        verts[8 * i + 3] = 1;
        verts[8 * i + 6] = u;
        verts[8 * i + 7] = 0;
      }
      const idx: number[] = [];
      for (let i = 0; i + 1 < n; i++) {
        const a = 2 * i, c = 2 * i + 2;
        idx.push(a, a + 1, c + 1, 0, a, c + 1, c, 0);
      }
      const mesh = scene.add.mesh2d(0, 0, o.texture ?? DEFAULT_ROPE_TEXTURE, verts as unknown as number[], idx);
      if (o.tint !== undefined) tintMesh(mesh, o.tint);
      b.view = { type: 'strip', mesh, verts, halfWidth: (o.width ?? 10) / 2 } satisfies StripView;
      return b;
    }
    const display = refineMesh({ positions: b.rest, triangles: b.triangles }, o.detail ?? 3);
    const uv = uvFromBounds(display.positions);
    const key = o.texture ?? DEFAULT_JELLY_TEXTURE;
    if (o.frame !== undefined) frameUVs(scene, key, o.frame, uv);
    const nv = display.positions.length / 2;
    const verts = new Float32Array(4 * nv);
    for (let i = 0; i < nv; i++) {
      verts[4 * i + 2] = uv[2 * i]!;
      verts[4 * i + 3] = uv[2 * i + 1]!;
    }
    const skin = new Skin(b.rest, b.triangles, display.positions).setOutput({
      stride: 4, scaleX: s.pixelsPerMetre, scaleY: -s.pixelsPerMetre, translateX: s.originX, translateY: s.originY,
    });
    skin.update(b.rest, verts);
    const mesh = scene.add.mesh2d(0, 0, key, verts as unknown as number[], mesh2dIndices(display.triangles));
    // Render path per body (docs/plugin.md, "Render path"): individual triangles by default; the quad-pairing
    // path ('quads') batches with sprites but showed black scratches on deforming jellies under SwiftShader.
    if ((o.renderPath ?? this.options.renderPath ?? 'triangles') === 'quads') mesh.buildOrderedIndices(2, true);
    else mesh.setRenderAsTriangles(true);
    if (o.tint !== undefined) tintMesh(mesh, o.tint);
    b.view = { type: 'mesh', mesh, verts, skin } satisfies MeshView;
    return b;
  }

  private dropView(b: SoftBody): void {
    const v = b.view as View | null;
    if (v && v.type !== 'flat') v.mesh.destroy();
    b.view = null;
  }

  /** Render sync: once per frame, from the interpolated positions; no allocation for skins and strips. */
  render(): void {
    const s = this.current;
    if (!s) return;
    const ppm = s.pixelsPerMetre, ox = s.originX, oy = s.originY;
    let flat = this.flatGfx;
    let anyFlat = false;
    for (const b of s.bodies) {
      const v = b.view as View | null;
      if (!v) continue;
      if (v.type === 'mesh') {
        v.skin.update(b.local, v.verts);
      } else if (v.type === 'strip') {
        const p = b.local, n = b.particles.length, w = v.halfWidth, out = v.verts;
        for (let i = 0; i < n; i++) {
          const i0 = i > 0 ? i - 1 : i, i1 = i < n - 1 ? i + 1 : i;
          let tx = p[2 * i1]! - p[2 * i0]!, ty = p[2 * i1 + 1]! - p[2 * i0 + 1]!;
          const l = Math.hypot(tx, ty) || 1;
          tx /= l;
          ty /= l;
          const x = ox + p[2 * i]! * ppm, y = oy - p[2 * i + 1]! * ppm;
          // normal in pixel space (y down): (ty, tx) for tangent (tx, -ty)
          out[8 * i] = x + ty * w;
          out[8 * i + 1] = y + tx * w;
          out[8 * i + 4] = x - ty * w;
          out[8 * i + 5] = y - tx * w;
        }
      } else {
        anyFlat = true;
      }
    }
    if (anyFlat) {
      if (!flat) flat = this.flatGfx = this.scene!.add.graphics();
      flat.clear();
      for (const b of s.bodies) {
        const v = b.view as View | null;
        if (!v || v.type !== 'flat') continue;
        this.drawFlat(flat, b, v.colour);
      }
    } else if (flat) flat.clear();
    this.drawColliders();
    this.drawDebug();
  }

  private drawFlat(g: Phaser.GameObjects.Graphics, b: SoftBody, colour: number): void {
    const s = this.current!;
    const p = b.local, t = b.triangles, ppm = s.pixelsPerMetre, ox = s.originX, oy = s.originY;
    for (let k = 0; k < t.length; k += 3) {
      const a = t[k]!, c = t[k + 1]!, d = t[k + 2]!;
      // flat shading: lighter for triangles facing "up" in rest order
      const shade = 0.8 + 0.2 * ((k / 3) % 2);
      g.fillStyle(scaleColour(colour, shade), 1);
      g.fillTriangle(ox + p[2 * a]! * ppm, oy - p[2 * a + 1]! * ppm, ox + p[2 * c]! * ppm, oy - p[2 * c + 1]! * ppm, ox + p[2 * d]! * ppm, oy - p[2 * d + 1]! * ppm);
    }
    if (b.kind === 'rope' || b.kind === 'scene') {
      g.lineStyle(b.kind === 'rope' ? (b.options.width ?? 8) : 3, colour, 1);
      const edges = b.kind === 'scene' ? s.sceneEdges : null;
      if (edges) {
        for (const [i, j] of edges) g.lineBetween(ox + p[2 * i]! * ppm, oy - p[2 * i + 1]! * ppm, ox + p[2 * j]! * ppm, oy - p[2 * j + 1]! * ppm);
        g.fillStyle(0xf2c14e, 1);
        for (let i = 0; i < b.particles.length; i++) g.fillCircle(ox + p[2 * i]! * ppm, oy - p[2 * i + 1]! * ppm, 5);
      } else {
        for (let i = 0; i + 1 < b.particles.length; i++) {
          g.lineBetween(ox + p[2 * i]! * ppm, oy - p[2 * i + 1]! * ppm, ox + p[2 * i + 2]! * ppm, oy - p[2 * i + 3]! * ppm);
        }
      }
    }
  }

  private drawColliders(): void {
    const s = this.current!;
    if (this.options.drawColliders === false) return;
    const stamp = s.colliders.version;
    if (stamp === this.colliderStamp) return;
    this.colliderStamp = stamp;
    const g = this.colliderGfx ?? (this.colliderGfx = this.scene!.add.graphics().setDepth(-1));
    g.clear();
    const ppm = s.pixelsPerMetre, X = (x: number): number => s.toPixelX(x), Y = (y: number): number => s.toPixelY(y);
    g.fillStyle(0x39435a, 1);
    g.lineStyle(2, 0x8a96b8, 1);
    const q = new Float64Array(2), q2 = new Float64Array(2);
    for (const c of s.colliders.list) {
      const sh = c.shape;
      if (sh.kind === 'circle') {
        c.posePoint(sh.cx, sh.cy, q);
        g.fillCircle(X(q[0]!), Y(q[1]!), sh.r * ppm);
        g.strokeCircle(X(q[0]!), Y(q[1]!), sh.r * ppm);
      } else if (sh.kind === 'segment') {
        c.posePoint(sh.ax, sh.ay, q);
        c.posePoint(sh.bx, sh.by, q2);
        g.lineStyle(Math.max(2, 2 * sh.r * ppm), 0x8a96b8, 1);
        g.lineBetween(X(q[0]!), Y(q[1]!), X(q2[0]!), Y(q2[1]!));
        g.lineStyle(2, 0x8a96b8, 1);
      } else if (sh.kind === 'polygon') {
        const pts: Phaser.Math.Vector2[] = [];
        for (let i = 0; i < sh.points.length; i += 2) {
          c.posePoint(sh.points[i]!, sh.points[i + 1]!, q);
          pts.push(new Phaser.Math.Vector2(X(q[0]!), Y(q[1]!)));
        }
        g.fillPoints(pts, true);
        g.strokePoints(pts, true);
      } else {
        // half-plane: a long line along the boundary
        const tx = -sh.ny, ty = sh.nx, L = 1e4 / ppm;
        g.lineBetween(X(sh.px - tx * L), Y(sh.py - ty * L), X(sh.px + tx * L), Y(sh.py + ty * L));
      }
    }
  }

  private drawDebug(): void {
    const s = this.current!;
    if (!this.debug) {
      this.debugGfx?.clear();
      return;
    }
    const g = this.debugGfx ?? (this.debugGfx = this.scene!.add.graphics().setDepth(1000));
    g.clear();
    const ppm = s.pixelsPerMetre, ox = s.originX, oy = s.originY;
    const r = s.renderPositions;
    const X = (i: number): number => ox + r[2 * i]! * ppm, Y = (i: number): number => oy - r[2 * i + 1]! * ppm;
    const t = s.world.topology();
    // triangles coloured by strain: relative area change |A/A0 − 1|; sleeping ones (t.frozen) slate blue
    const tr = t.triangles, z = t.frozen;
    for (let e = 0; e < tr.count; e++) {
      const a = tr.nodes[3 * e]!, b = tr.nodes[3 * e + 1]!, c = tr.nodes[3 * e + 2]!;
      const A = 0.5 * ((r[2 * b]! - r[2 * a]!) * (r[2 * c + 1]! - r[2 * a + 1]!) - (r[2 * c]! - r[2 * a]!) * (r[2 * b + 1]! - r[2 * a + 1]!));
      const strain = Math.min(1, Math.abs(A / tr.params[TRI_STRIDE * e + TRI_AREA]! - 1) * 5);
      const asleep = z[a] === 1 && z[b] === 1 && z[c] === 1;
      g.lineStyle(1, asleep ? SLEEPING_COLOUR : lerpColour(0x40e070, 0xff3030, strain), asleep ? 0.6 : 0.9);
      g.strokeTriangle(X(a), Y(a), X(b), Y(b), X(c), Y(c));
    }
    g.lineStyle(1, 0x9fd0ff, 0.9);
    const sp = t.springs;
    for (let e = 0; e < sp.count; e++) g.lineBetween(X(sp.nodes[2 * e]!), Y(sp.nodes[2 * e]!), X(sp.nodes[2 * e + 1]!), Y(sp.nodes[2 * e + 1]!));
    const ds = t.dampedSprings;
    for (let e = 0; e < ds.count; e++) g.lineBetween(X(ds.nodes[2 * e]!), Y(ds.nodes[2 * e]!), X(ds.nodes[2 * e + 1]!), Y(ds.nodes[2 * e + 1]!));
    for (let i = 0; i < t.n; i++) {
      g.fillStyle(t.fixedSrc[i] === 1 ? 0xff5c5c : z[i] === 1 ? SLEEPING_COLOUR : 0xffffff, 1);
      g.fillCircle(X(i), Y(i), 2.5);
    }
    // the engine's active contacts of the last step: normal ticks at the contact points
    g.lineStyle(2, 0xffd24a, 1);
    for (const c of s.world.contacts.active) {
      const cx = ox + c.x * ppm, cy = oy - c.y * ppm;
      g.lineBetween(cx, cy, cx + c.nx * 10, cy - c.ny * 10);
    }
    // pointer anchors
    const A = s.world.anchors;
    g.lineStyle(1, 0xff66ff, 1);
    for (let k = 0; k < A.count; k++) {
      const i = A.node[k]!;
      g.lineBetween(X(i), Y(i), ox + A.target[2 * k]! * ppm, oy - A.target[2 * k + 1]! * ppm);
    }
  }

  /** Scene SHUTDOWN: unhook, drop the simulation (the scene may start again). */
  shutdown(): void {
    const events = this.systems?.events;
    if (events) {
      events.off(Phaser.Scenes.Events.UPDATE, this.update, this);
      events.off(Phaser.Scenes.Events.CREATE, this.created, this);
      events.off(Phaser.Scenes.Events.SHUTDOWN, this.shutdown, this);
    }
    const input = this.scene?.input as Phaser.Input.InputPlugin | undefined;
    if (input) {
      input.off(Phaser.Input.Events.POINTER_DOWN, this.onDown, this);
      input.off(Phaser.Input.Events.POINTER_MOVE, this.onMove, this);
      input.off(Phaser.Input.Events.POINTER_UP, this.onUp, this);
      input.off(Phaser.Input.Events.POINTER_UP_OUTSIDE, this.onUp, this);
    }
    if (this.current) for (const b of this.current.bodies) this.dropView(b);
    // Graphics belong to the display list, which the scene destroys on shutdown.
    this.debugGfx = this.flatGfx = this.colliderGfx = null;
    this.current = null;
    this.stepWindow = this.timeWindow = this.stepRate = 0;
  }

  /** Scene DESTROY. */
  override destroy(): void {
    this.shutdown();
    this.systems?.events.off(Phaser.Scenes.Events.START, this.start, this);
    super.destroy();
  }
}

/**
 * Map u, v in [0, 1]² (GL bottom-up, see uvFromBounds) into a frame of an atlas or spritesheet, in
 * place: the frame's cut rectangle within its texture source.
 */
function frameUVs(scene: Phaser.Scene, key: string, frameName: string | number, uv: Float32Array): void {
  const f = scene.textures.getFrame(key, frameName) as Phaser.Textures.Frame | null;
  if (!f || (f.name !== frameName && String(frameName) !== f.name)) {
    throw new InputError(`ElasticaPlugin: texture '${key}' has no frame '${String(frameName)}'`);
  }
  const W = f.source.width, H = f.source.height;
  for (let i = 0; i < uv.length; i += 2) {
    uv[i] = (f.cutX + uv[i]! * f.cutWidth) / W;
    uv[i + 1] = 1 - (f.cutY + (1 - uv[i + 1]!) * f.cutHeight) / H;
  }
}

/** Mesh2D has setTint at run time (4.2.1) but its .d.ts lacks it. */
function tintMesh(mesh: Phaser.GameObjects.Mesh2D, tint: number): void {
  (mesh as unknown as { setTint(c: number): unknown }).setTint(tint);
}

function scaleColour(c: number, s: number): number {
  const r = Math.min(255, ((c >> 16) & 255) * s) | 0, g = Math.min(255, ((c >> 8) & 255) * s) | 0, b = Math.min(255, (c & 255) * s) | 0;
  return (r << 16) | (g << 8) | b;
}

function lerpColour(a: number, b: number, t: number): number {
  const r = ((a >> 16) & 255) + (((b >> 16) & 255) - ((a >> 16) & 255)) * t;
  const g = ((a >> 8) & 255) + (((b >> 8) & 255) - ((a >> 8) & 255)) * t;
  const bl = (a & 255) + ((b & 255) - (a & 255)) * t;
  return ((r | 0) << 16) | ((g | 0) << 8) | (bl | 0);
}

/** The entry for `plugins: { scene: [...] }` in a Phaser game config. */
export function elasticaScenePlugin(): { key: string; plugin: typeof ElasticaPlugin; mapping: string } {
  return { key: ElasticaPlugin.KEY, plugin: ElasticaPlugin, mapping: ElasticaPlugin.MAPPING };
}

// ---- typed display of a body ------------------------------------------------------------------

declare module './sim' {
  interface SoftBody {
    /**
     * The body's Mesh2D (WebGL: textured jelly / sheet skin or rope strip), for setDepth, setAlpha,
     * setBlendMode, setVisible, …; null for flat-shaded bodies (Canvas renderer, FOSSSim scenes).
     */
    readonly mesh: Phaser.GameObjects.Mesh2D | null;
  }
}

Object.defineProperty(SoftBody.prototype, 'mesh', {
  get(this: SoftBody): Phaser.GameObjects.Mesh2D | null {
    const v = this.view as View | null;
    return v && v.type !== 'flat' ? v.mesh : null;
  },
  configurable: true,
});

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Phaser {
    interface Scene {
      /** Elastica soft-body physics (scene plugin mapping 'soft'). */
      soft: ElasticaPlugin;
    }
  }
}

export { SoftSim, SoftBody };
export type { JellyOptions, RopeOptions, SheetOptions, SoftSimOptions };
