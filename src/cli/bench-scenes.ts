/**
 * Game-scene benchmarks (`elastica bench --cases page,pile20,stirred`): what a game does, from the
 * first step, measured per time window after spawn, cold (the first scene of a fresh process) and
 * warm (the same scene built again after one run in the process), side by side with Rapier 2D's
 * soft bodies on the same meshes, masses and colliders: its default constraints solver and its
 * FEM solver, each with sleeping off and on.
 *
 * Scenes:
 * - page: the gallery's jelly page (gallery/pages/jelly.ts) rebuilt headless with SoftSim: four
 *   jellies (box, disc, star, small box; 188 triangles) over two circles, a slanted segment and a
 *   triangle, in an 8 × 5 m box;
 * - pile20: 20 jellies (boxes of 72 and discs of 96 triangles, 1,680 in all) dropped from staggered
 *   heights into a 5 × 10 m box;
 * - stirred: makeJellyPile (4 jellies × 256 triangles) with a kinematic circle (r = 0.15 m) sweeping
 *   back and forth through it (setColliderVelocity each step), as a game's paddle would;
 * - row20: the pile20 jellies in one row on the ground, 1 m apart; from 5 s a kinematic circle
 *   (r = 0.15 m) rolls along the row at 1 m/s through the jellies' tops, so with sleeping on one or
 *   two jellies are awake at a time beside sleeping ones (a level where the player disturbs one body).
 *
 * Elastica also runs warm with sleeping on (mode 'sleeping', src/systems/sleep.ts), and cold as a game
 * starts a level with the game layer's defaults (mode 'game': a fresh process, sleeping on, the scene
 * warmed up at load by world.warmUp, as the gallery's jelly page does); their windows count the steps
 * that rested (every body asleep, no solve).
 *
 * Windows (s after spawn): 0–1, 1–2, 2–5, 5–10 (stirred: blocks of `block` steps). Each row: median,
 * p95, p99 and max ms per step and Newton iterations (mean, max) per window, the largest single
 * step, and for Elastica the scene's build time, the JIT warm-up its load paid (the engine's, once a process,
 * and the scene's own in the cold-warmup and game rows), and at each window's end the inverted triangles and the
 * smallest body's area ratio.
 */
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { PhysicsWorld, warmUpEngine } from '../world';
import { SoftSim } from '../game/sim';
import { makeJellyPile } from './bench-jellies';
import { meshBox, meshCircle } from '../mesh';
import { COLLIDER_CIRCLE, COLLIDER_POLYGON, COLLIDER_SEGMENT } from '../collision/contact';
import { triangleJ } from '../elements';
import { TRI_AREA, TRI_B00, TRI_STRIDE } from '../elements/layout';

export const SCENES = ['page', 'pile20', 'stirred', 'row20'] as const;
/** Elastica runs: cold, cold with the scene's own warm-up, warm, and warm with sleeping on (src/systems/sleep.ts). */
export const SCENE_MODES = ['cold', 'cold-warmup', 'game', 'warm', 'sleeping'] as const;
export type SceneMode = (typeof SCENE_MODES)[number];
export type SceneName = (typeof SCENES)[number];

export interface SceneWindow {
  /** Window start and end (s after spawn; stirred: steps). */
  from: number;
  to: number;
  steps: number;
  median: number;
  p95: number;
  p99: number;
  max: number;
  newtonMean?: number;
  newtonMax?: number;
  failSafeSteps?: number;
  touching?: number;
  /** Elastica with sleeping on: steps in the window that rested (every body asleep: no solve; StepStats.resting). */
  restingSteps?: number;
  /**
   * Elastica, at the window's last step (read outside the timed steps): triangles inverted (det F ≤ 0), and the
   * smallest body's area over its rest area (each triangle's det F × rest area, summed per body). What the solves
   * of the window were solving: a crushed or folded pile costs iterations and touching pairs an upright one does not.
   */
  inverted?: number;
  areaMin?: number;
}

export interface SceneResult {
  name: SceneName;
  engine: string;
  /**
   * 'cold': first scene of a fresh process; 'cold-warmup': the same, the scene warmed up at load
   * (PhysicsWorld.warmUp: 60 steps run and undone); 'game': cold-warmup with sleeping on (the game layer's
   * default); 'warm': built again after one run in the process (the 'sleeping' runs report 'warm').
   */
  mode: SceneMode;
  sleeping?: boolean;
  triangles: number;
  /** Building the scene (ms), its own warm-up included (cold-warmup and game rows), the engine's not. */
  buildMs: number;
  /**
   * Elastica: the JIT warm-up a scene's load pays (ms): the engine's (`warmUpEngine`, once a process: 0 in a warm
   * row) plus the scene's own (`world.warmUp()`'s steps: cold-warmup and game rows).
   */
  warmupMs?: number;
  engineWarmupMs?: number;
  sceneWarmupMs?: number;
  maxStepMs: number;
  /** Index of the largest step. */
  maxStepAt: number;
  windows: SceneWindow[];
  /**
   * Contact-pattern rebuilds, fail-safe steps, external (array buffer) memory at the start and end (MB; the
   * stirred scene's after a full garbage collection, as retainedMB); memoryMB is absent where the runtime does not
   * report it (a browser: bench/browser.ts).
   */
  rebuilds?: number;
  failSafeSteps?: number;
  memoryMB?: [number, number];
  /**
   * Stirred, Elastica: array buffer memory still held after a full garbage collection (MB), at the start and after
   * each block (the collections run outside the timed steps). Without them the figure counts garbage not collected
   * yet too (a contact-pattern rebuild leaves its old solver's arrays to the collector): what the world keeps is
   * this. Absent where Node cannot collect on demand.
   */
  retainedMB?: number[];
  error?: string;
  note?: string;
  /** Where the row was measured when not in Node: the browser, its version and the cores it ran on (bench/browser.ts). */
  runtime?: string;
}

/**
 * Elastica's warm row over Rapier's default (constraints) solver with sleeping off, window by window, from the same
 * bench run: the figures a script can compare when the machine's speed changes between runs (each engine's own rows
 * move with it). `kind: 'ratio'` tells these rows from the scene rows.
 */
export interface SceneRatio {
  name: SceneName;
  kind: 'ratio';
  engine: string;
  windows: { from: number; to: number; median: number; p99: number }[];
}

/** The ratio row of two scene rows (same windows matched by their bounds), or null when either row has no figures. */
export function ratioToRapier(elastica: SceneResult, rapier: SceneResult): SceneRatio | null {
  if (elastica.error || rapier.error) return null;
  const windows: SceneRatio['windows'] = [];
  for (const w of elastica.windows) {
    const r = rapier.windows.find((q) => q.from === w.from && q.to === w.to);
    if (!r || !(r.median > 0) || !(r.p99 > 0)) continue;
    windows.push({ from: w.from, to: w.to, median: r3(w.median / r.median), p99: r3(w.p99 / r.p99) });
  }
  if (windows.length === 0) return null;
  return { name: elastica.name, kind: 'ratio', engine: 'elastica warm / rapier constraints', windows };
}

/**
 * The row of a run that failed: the scene row's fields with no figures and `error` (the message's first line, then
 * `more`, e.g. a page's errors), so that a script reading the rows meets one shape (bench.ts, bench/browser.ts).
 */
export function failedSceneRow(name: SceneName, engine: string, mode: SceneMode, e: unknown, more: string[] = []): SceneResult {
  const msg = (e instanceof Error ? e.message : String(e)).split('\n')[0]!;
  return { name, engine, mode, triangles: 0, buildMs: 0, maxStepMs: 0, maxStepAt: 0, windows: [], error: [msg, ...more].join('; ') };
}

/** A scene row as the bench's text output prints it: a heading line, then one line per time window. */
export function sceneRowLines(r: SceneResult): string[] {
  const out = [`${r.name} ${r.engine} ${r.mode}: ${r.triangles} triangles, build ${r.buildMs} ms` +
    (r.warmupMs !== undefined ? `, JIT warm-up ${r.warmupMs} ms (engine ${r.engineWarmupMs}, scene ${r.sceneWarmupMs})` : '') + `, largest step ${r.maxStepMs} ms at step ${r.maxStepAt}` +
    (r.rebuilds !== undefined ? `, rebuilds ${r.rebuilds}, fail-safe ${r.failSafeSteps}` : '') + (r.error ? `  error: ${r.error}` : '')];
  for (const w of r.windows) {
    out.push(`  ${String(w.from).padStart(5)}–${String(w.to).padEnd(5)} median ${w.median.toFixed(3)}  p95 ${w.p95.toFixed(3)}  p99 ${w.p99.toFixed(3)}  max ${w.max.toFixed(3)} ms` +
      (w.newtonMean !== undefined ? `  newton ${w.newtonMean} / ${w.newtonMax}` : '') +
      (w.restingSteps !== undefined ? `  resting ${w.restingSteps} of ${w.steps}` : '') +
      (w.inverted !== undefined ? `  inverted ${w.inverted}, area ≥ ${w.areaMin}` : ''));
  }
  return out;
}

/** A ratio row as the bench's text output prints it. */
export function ratioLines(ratio: SceneRatio): string[] {
  return [`${ratio.name} ${ratio.engine} (same run):`,
    ...ratio.windows.map((w) => `  ${String(w.from).padStart(5)}–${String(w.to).padEnd(5)} median ${w.median.toFixed(2)}×  p99 ${w.p99.toFixed(2)}×`)];
}

export interface SceneOptions {
  /** Steps to run (default: 600 = 10 s at 60 Hz; stirred 2,000). */
  steps?: number;
  /** Stirred: steps per window (default 500). */
  block?: number;
}

/** Windows after spawn (s) the scene rows report (bench/ab.ts uses them too). */
export const WINDOWS: readonly [number, number][] = [[0, 1], [1, 2], [2, 5], [5, 10]];

// ---- the scenes (Elastica) -----------------------------------------------------------------

export interface Built {
  world: PhysicsWorld;
  /** Called before each step (the stirred scene's paddle). */
  drive?: (step: number) => void;
}

/** The gallery's jelly page (pixels, y down, 100 px/m, 800 × 500), as gallery/pages/jelly.ts builds it. */
function buildPage(): Built {
  const sim = new SoftSim({ pixelsPerMetre: 100, originX: 0, originY: 500 });
  sim.bounds(0, 0, 800, 500);
  sim.circle(180, 430, 60);
  sim.circle(330, 470, 45);
  sim.segment(470, 260, 780, 380, 10);
  sim.polygon([520, 500, 640, 430, 760, 500]);
  sim.jelly(200, 200, { width: 110, height: 80, stiffness: 2e5, density: 20 });
  sim.jelly(350, 160, { radius: 42, stiffness: 6e4, density: 20 });
  sim.jelly(620, 120, {
    points: [0, -60, 18, -18, 60, -14, 28, 12, 38, 56, 0, 32, -38, 56, -28, 12, -60, -14, -18, -18],
    resolution: 18, stiffness: 8e4, density: 20,
  });
  sim.jelly(200, 80, { width: 60, height: 60, stiffness: 2e5, density: 20 });
  sim.prepare(); // as the plugin does after the scene's create(): the topology is built at load
  return { world: sim.world };
}

/** 20 jellies of 72 or 96 triangles (boxes and discs, alternating) dropped from staggered heights into a 5 × 10 m box. */
function buildPile20(): Built {
  const world = contactWorld([[0, 0, 0, 1], [-2.5, 0, 1, 0], [2.5, 0, -1, 0], [0, 10, 0, -1]]);
  for (let j = 0; j < 20; j++) {
    const col = j % 5, row = Math.floor(j / 5);
    addJelly20(world, j, -2 + col + (row % 2 === 1 ? 0.15 : -0.15), 0.8 + 1.6 * row + 0.12 * col);
  }
  return { world };
}

/**
 * makeJellyPile(4 × 256: two rows of two 0.5 m jellies in a 1.1 m wide box) and a kinematic circle
 * (r = 0.15 m) that starts above the pile, dives into it for a second, then sweeps back and forth
 * at 1.5 m/s between the walls while bobbing ±0.2 m/s (period 4 s).
 */
function buildStirred(): Built {
  const world = new PhysicsWorld({ dt: 1 / 60 });
  const pile = makeJellyPile(world, 4, 256);
  const left = -pile.halfWidth + 0.2, right = pile.halfWidth - 0.2;
  const paddle = world.addCircleCollider(left, 1.4, 0.15);
  const K = world.c.Collider;
  const drive = (step: number): void => {
    if (step < 60) {
      world.setColliderVelocity(paddle, 0, -1);
      return;
    }
    const x = K.px[paddle]!;
    let vx = K.vx[paddle]!;
    if (vx === 0) vx = 1.5;
    if (x > right && vx > 0) vx = -1.5;
    if (x < left && vx < 0) vx = 1.5;
    world.setColliderVelocity(paddle, vx, (step - 60) % 240 < 120 ? 0.2 : -0.2);
  };
  return { world, drive };
}

/**
 * The pile20 jellies (boxes of 72 and discs of 96 triangles, alternating) on the ground of a 22 m wide
 * box, centres 1 m apart; a kinematic circle (r = 0.15 m) waits beside the row at height 0.5 m and from
 * 5 s rolls along it at 1 m/s, through the top of each jelly in turn.
 */
function buildRow20(): Built {
  const world = contactWorld([[0, 0, 0, 1], [-11, 0, 1, 0], [11, 0, -1, 0]]);
  for (let j = 0; j < 20; j++) addJelly20(world, j, -9.5 + j, 0.36);
  const paddle = world.addCircleCollider(-10.5, 0.5, 0.15);
  const drive = (step: number): void => world.setColliderVelocity(paddle, step < 300 ? 0 : 1, 0);
  return { world, drive };
}

/** A game-mode world at 60 Hz with contact (friction 0.5) and the half-planes given as (px, py, nx, ny). */
export function contactWorld(halfplanes: [number, number, number, number][]): PhysicsWorld {
  const world = new PhysicsWorld({ dt: 1 / 60 });
  world.contacts.enabled = true;
  world.contacts.friction = 0.5;
  for (const [px, py, nx, ny] of halfplanes) world.addHalfplane(px, py, nx, ny);
  return world;
}

/** Jelly j of pile20 and row20 at (cx, cy): a box meshBox(0.6, 0.6, 6, 6) of 72 triangles (even j) or a disc meshCircle(0.33, 4) of 96. */
export function addJelly20(world: PhysicsWorld, j: number, cx: number, cy: number): void {
  const mesh = j % 2 === 0 ? meshBox(0.6, 0.6, 6, 6) : meshCircle(0.33, 4);
  addBody(world, mesh.positions, mesh.triangles, cx, cy, { youngsModulus: 5e4, poissonRatio: 0.3, density: 40 });
}

function addBody(
  world: PhysicsWorld, pos: ArrayLike<number>, tris: ArrayLike<number>, cx: number, cy: number,
  mat: { youngsModulus: number; poissonRatio: number; density: number },
): void {
  const body = world.createBody();
  const ids: number[] = [];
  for (let v = 0; v < pos.length / 2; v++) ids.push(world.addParticle({ x: cx + pos[2 * v]!, y: cy + pos[2 * v + 1]!, m: 0, radius: 0.02, body }));
  for (let t = 0; t < tris.length; t += 3) world.addTriangle(ids[tris[t]!]!, ids[tris[t + 1]!]!, ids[tris[t + 2]!]!, mat);
}

export function buildScene(name: SceneName): Built {
  if (name === 'page') return buildPage();
  if (name === 'pile20') return buildPile20();
  if (name === 'row20') return buildRow20();
  return buildStirred();
}

// ---- measurement ----------------------------------------------------------------------------

function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

const r3 = (x: number): number => Math.round(x * 1000) / 1000;

function windowOf(times: Float64Array, iters: Int32Array | null, a: number, b: number, from: number, to: number): SceneWindow {
  const s = Array.from(times.subarray(a, b)).sort((p, q) => p - q);
  const w: SceneWindow = {
    from, to, steps: b - a, median: r3(quantile(s, 0.5)), p95: r3(quantile(s, 0.95)), p99: r3(quantile(s, 0.99)), max: r3(s[s.length - 1] ?? 0),
  };
  if (iters) {
    let sum = 0, max = 0;
    for (let k = a; k < b; k++) {
      sum += iters[k]!;
      if (iters[k]! > max) max = iters[k]!;
    }
    w.newtonMean = Math.round((sum / Math.max(1, b - a)) * 100) / 100;
    w.newtonMax = max;
  }
  return w;
}

/** The windows' step ranges [a, b) and their reported bounds (s after spawn; stirred: steps). */
function windowBounds(name: SceneName, steps: number, block: number): [number, number, number, number][] {
  const out: [number, number, number, number][] = [];
  if (name === 'stirred') {
    for (let a = 0; a < steps; a += block) out.push([a, Math.min(steps, a + block), a, Math.min(steps, a + block)]);
    return out;
  }
  for (const [f, t] of WINDOWS) {
    const a = Math.round(f * 60), b = Math.min(steps, Math.round(t * 60));
    if (a < b) out.push([a, b, f, t]);
  }
  return out;
}

function windowsFor(
  bounds: [number, number, number, number][], times: Float64Array, iters: Int32Array | null, resting: Uint8Array | null = null,
  shapes: Map<number, Shape> | null = null,
): SceneWindow[] {
  return bounds.map(([a, b, from, to]) => {
    const w = windowOf(times, iters, a, b, from, to);
    if (resting) {
      let r = 0;
      for (let k = a; k < b; k++) r += resting[k]!;
      w.restingSteps = r;
    }
    const shape = shapes?.get(b);
    if (shape) {
      w.inverted = shape.inverted;
      w.areaMin = shape.areaMin;
    }
    return w;
  });
}

interface Shape {
  inverted: number;
  areaMin: number;
}

/** Triangles inverted (det F ≤ 0) and the smallest body's area over its rest area (see SceneWindow). */
export function shapeOf(world: PhysicsWorld): Shape {
  const t = world.topology(), tr = t.triangles, P = world.c.Particle, pe = t.particleEids;
  const area = new Map<number, [number, number]>();
  let inverted = 0;
  for (let e = 0; e < tr.count; e++) {
    const a = pe[tr.nodes[3 * e]!]!, b = pe[tr.nodes[3 * e + 1]!]!, c = pe[tr.nodes[3 * e + 2]!]!, q = TRI_STRIDE * e;
    const J = triangleJ(P.x[a]!, P.y[a]!, P.x[b]!, P.y[b]!, P.x[c]!, P.y[c]!,
      tr.params[q + TRI_B00]!, tr.params[q + TRI_B00 + 1]!, tr.params[q + TRI_B00 + 2]!, tr.params[q + TRI_B00 + 3]!);
    if (J <= 0) inverted++;
    const rest = tr.params[q + TRI_AREA]!, body = P.body[a]!;
    const sum = area.get(body) ?? [0, 0];
    sum[0] += J * rest;
    sum[1] += rest;
    area.set(body, sum);
  }
  let areaMin = Infinity;
  for (const [cur, rest] of area.values()) areaMin = Math.min(areaMin, cur / rest);
  return { inverted, areaMin: area.size > 0 ? r3(areaMin) : 1 };
}

/** Modes whose row is a scene's second run in its process ('warm', 'sleeping'); the others are its first. */
export function runsWarm(mode: SceneMode): boolean {
  return mode === 'warm' || mode === 'sleeping';
}

/** A scene's row in `mode`, measured in this process: the warm modes run the scene once unmeasured first. */
export function measureScene(name: SceneName, mode: SceneMode, opts: SceneOptions = {}): SceneResult {
  if (runsWarm(mode)) runSceneElastica(name, mode, opts);
  return runSceneElastica(name, mode, opts);
}

/** One Elastica run of a scene in this process (`mode` says whether the process ran one before). */
export function runSceneElastica(name: SceneName, mode: SceneMode, opts: SceneOptions = {}): SceneResult {
  const steps = opts.steps ?? (name === 'stirred' ? 2000 : 600);
  const block = opts.block ?? 500;
  // The engine's warm-up (once a process) first, timed on its own: a game pays it at scene load (SoftSim's
  // constructor runs it, so the page's build would otherwise hide it; the world's first step would run it too)
  const te = performance.now();
  warmUpEngine();
  const engineWarmupMs = performance.now() - te;
  const tb = performance.now();
  const { world, drive } = buildScene(name);
  const sleeping = mode === 'sleeping' || mode === 'game';
  world.sleeping = sleeping;
  const tw = performance.now();
  // a game may also warm the scene itself up at load (world.warmUp: its first 60 steps run and undone)
  if (mode === 'cold-warmup' || mode === 'game') world.warmUp();
  const sceneWarmupMs = performance.now() - tw;
  const buildMs = performance.now() - tb;
  const times = new Float64Array(steps);
  const iters = new Int32Array(steps);
  const resting = new Uint8Array(steps);
  let touching = 0;
  const rebuilds0 = world.lastStats.contactRebuildsTotal;
  const collect = name === 'stirred' ? collector() : null;
  const retained: number[] = [];
  const bounds = windowBounds(name, steps, block);
  const ends = new Set(bounds.map((w) => w[1]));
  const shapes = new Map<number, Shape>();
  const keep = (): void => {
    if (!collect) return;
    // twice: an array buffer found dead by one collection may still be counted until the next one frees its store
    collect();
    collect();
    retained.push(r3(arrayBufferBytes() / 1048576));
  };
  keep();
  const mem0 = arrayBufferBytes();
  for (let s = 0; s < steps; s++) {
    if (drive) drive(s);
    const t0 = performance.now();
    world.step();
    times[s] = performance.now() - t0;
    iters[s] = world.lastStats.newtonIters;
    resting[s] = world.lastStats.resting ? 1 : 0;
    touching = world.lastStats.contactTouching;
    if (ends.has(s + 1)) shapes.set(s + 1, shapeOf(world));
    if ((s + 1) % block === 0 || s + 1 === steps) keep();
  }
  const mem1 = arrayBufferBytes();
  let maxAt = 0;
  for (let s = 1; s < steps; s++) if (times[s]! > times[maxAt]!) maxAt = s;
  const st = world.lastStats;
  return {
    name, engine: sleeping ? 'elastica (sleeping on)' : 'elastica', mode: mode === 'sleeping' ? 'warm' : mode, sleeping, triangles: world.lists.triangles.length,
    buildMs: r3(buildMs), warmupMs: r3(engineWarmupMs + sceneWarmupMs), engineWarmupMs: r3(engineWarmupMs), sceneWarmupMs: r3(sceneWarmupMs), maxStepMs: r3(times[maxAt] ?? 0), maxStepAt: maxAt,
    windows: windowsFor(bounds, times, iters, sleeping ? resting : null, shapes),
    rebuilds: st.contactRebuildsTotal - rebuilds0, failSafeSteps: st.failSafeSteps,
    ...(mem0 >= 0 && mem1 >= 0 ? { memoryMB: [r3(mem0 / 1048576), r3(mem1 / 1048576)] as [number, number] } : {}),
    ...(collect ? { retainedMB: retained } : {}),
    note: `touching pairs at the end: ${touching}`,
  };
}

/** Node's array buffer memory (bytes), or −1 where the runtime has no `process.memoryUsage` (a browser: bench/browser.ts). */
function arrayBufferBytes(): number {
  return typeof process === 'object' && typeof process.memoryUsage === 'function' ? process.memoryUsage().arrayBuffers : -1;
}

let gcFn: (() => void) | null | undefined;
/**
 * A full garbage collection on demand (the bench only: bench.ts's heap readings and the stirred scene's memory):
 * Node exposes `gc` to code compiled after the flag is set, so a new context's global has it. Null when that fails
 * (another runtime).
 */
export function collector(): (() => void) | null {
  if (gcFn !== undefined) return gcFn;
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    gcFn = typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    gcFn = null;
  }
  return gcFn;
}

// ---- the same scenes in Rapier 2D -------------------------------------------------------------

interface ExportedBody {
  pos: Float32Array;
  cells: Uint32Array;
  masses: Float32Array;
  youngsModulus: number;
  poissonRatio: number;
}

/**
 * Bodies (per contact body id) and colliders of a built world, in SI units, for Rapier; `build` makes the
 * static colliders, all but `driven` (the scene's kinematic paddle, which the run makes itself).
 */
function exportWorld(world: PhysicsWorld, driven: number): { bodies: ExportedBody[]; build: (R: any, rw: any) => void } {
  const t = world.topology();
  const P = world.c.Particle, T = world.c.Triangle;
  const byBody = new Map<number, { nodes: Map<number, number>; cells: number[]; E: number; nu: number }>();
  for (const e of world.lists.triangles) {
    const a = T.a[e]!, b = T.b[e]!, c = T.c[e]!;
    const id = P.body[a]!;
    let g = byBody.get(id);
    if (!g) {
      // FOSSSim's CST is 4× stiffer than the plane-stress material at equal E (docs/materials.md): give Rapier 4E
      g = { nodes: new Map(), cells: [], E: 4 * T.youngsModulus[e]!, nu: T.poissonRatio[e]! };
      byBody.set(id, g);
    }
    for (const p of [a, b, c]) if (!g.nodes.has(p)) g.nodes.set(p, g.nodes.size);
    g.cells.push(g.nodes.get(a)!, g.nodes.get(b)!, g.nodes.get(c)!);
  }
  const dense = new Map<number, number>();
  for (let i = 0; i < t.n; i++) dense.set(t.particleEids[i]!, i);
  const bodies: ExportedBody[] = [];
  for (const g of byBody.values()) {
    const pos = new Float32Array(2 * g.nodes.size), masses = new Float32Array(g.nodes.size);
    for (const [e, k] of g.nodes) {
      pos[2 * k] = P.x[e]!;
      pos[2 * k + 1] = P.y[e]!;
      masses[k] = t.mass[2 * dense.get(e)!]!;
    }
    bodies.push({ pos, cells: Uint32Array.from(g.cells), masses, youngsModulus: g.E, poissonRatio: g.nu });
  }
  const H = world.c.Halfplane, K = world.c.Collider;
  const buildColliders = (R: any, rw: any): void => {
    for (const e of world.halfplanes) {
      rw.createCollider(R.ColliderDesc.halfspace({ x: H.nx[e]!, y: H.ny[e]! }).setTranslation(H.px[e]!, H.py[e]!).setFriction(0.5));
    }
    for (const e of world.colliders) {
      if (e === driven) continue;
      const kind = K.kind[e]!;
      let d: any;
      if (kind === COLLIDER_CIRCLE) d = R.ColliderDesc.ball(K.radius[e]!);
      else if (kind === COLLIDER_SEGMENT) {
        const hx = K.x2[e]! - K.x1[e]!, hy = K.y2[e]! - K.y1[e]!;
        const half = Math.sqrt(hx * hx + hy * hy) / 2;
        // a capsule along y, rotated onto the segment
        d = R.ColliderDesc.capsule(half, Math.max(K.radius[e]!, 1e-3)).setRotation(Math.atan2(hy, hx) - Math.PI / 2);
      } else if (kind === COLLIDER_POLYGON) {
        const n = K.polyCount[e]!, s = K.polyStart[e]!;
        const pts = new Float32Array(2 * n);
        for (let k = 0; k < 2 * n; k++) pts[k] = world.contacts.polyLocal[2 * s + k]!;
        d = R.ColliderDesc.convexHull(pts);
      }
      if (!d) continue;
      rw.createCollider(d.setTranslation(K.px[e]!, K.py[e]!).setFriction(0.5));
    }
  };
  return { bodies, build: buildColliders };
}

/** One Rapier run of a scene: `solver` 'constraints' (its default) or 'fem'; sleeping on or off. */
export async function runSceneRapier(name: SceneName, solver: 'constraints' | 'fem', sleeping: boolean, opts: SceneOptions = {}): Promise<SceneResult> {
  const steps = opts.steps ?? (name === 'stirred' ? 2000 : 600);
  const block = opts.block ?? 500;
  const engine = `rapier2d-compat soft body (${solver === 'fem' ? 'Fem' : 'Constraints, default'} solver${sleeping ? ', sleeping on' : ''})`;
  const R = (await import('@dimforge/rapier2d-compat')).default;
  await R.init();
  const built = buildScene(name);
  // the stirred and row scenes' paddle (their first collider): a kinematic ball following the same velocity rule
  const pe = built.drive ? built.world.colliders[0]! : -1;
  const ex = exportWorld(built.world, pe);
  const tb = performance.now();
  const rw = new R.World({ x: 0, y: -9.81 });
  rw.timestep = 1 / 60;
  ex.build(R, rw);
  let triangles = 0;
  for (const b of ex.bodies) {
    const m = new R.SoftBodyMaterial();
    m.youngModulus = b.youngsModulus;
    m.poissonRatio = b.poissonRatio;
    const desc = new R.SoftBodyDesc(b.pos)
      .setCells(b.cells)
      .setCellModel(R.SoftBodyCellModel.Corotational)
      .setSolver(solver === 'fem' ? R.SoftBodySolver.Fem : R.SoftBodySolver.Constraints)
      .setMasses(b.masses)
      .setParticleRadius(0.02)
      .setSelfContacts(false)
      .setCanSleep(sleeping);
    desc.setMaterial(m as never);
    rw.createSoftBody(desc);
    triangles += b.cells.length / 3;
  }
  let paddle: any = null;
  const K = built.world.c.Collider;
  if (pe >= 0) {
    paddle = rw.createRigidBody(R.RigidBodyDesc.kinematicVelocityBased().setTranslation(K.px[pe]!, K.py[pe]!));
    rw.createCollider(R.ColliderDesc.ball(K.radius[pe]!).setFriction(0.5), paddle);
  }
  const buildMs = performance.now() - tb;
  const times = new Float64Array(steps);
  for (let s = 0; s < steps; s++) {
    if (built.drive && paddle) {
      built.drive(s); // the rule reads and writes the Elastica collider; mirror its velocity
      const p = paddle.translation();
      K.px[pe] = p.x;
      K.py[pe] = p.y;
      paddle.setLinvel({ x: K.vx[pe]!, y: K.vy[pe]! }, true);
    }
    const t0 = performance.now();
    rw.step();
    times[s] = performance.now() - t0;
  }
  rw.free();
  let maxAt = 0;
  for (let s = 1; s < steps; s++) if (times[s]! > times[maxAt]!) maxAt = s;
  return {
    name, engine, mode: 'warm', sleeping, triangles, buildMs: r3(buildMs), maxStepMs: r3(times[maxAt] ?? 0), maxStepAt: maxAt,
    windows: windowsFor(windowBounds(name, steps, block), times, null),
  };
}
