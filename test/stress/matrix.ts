/**
 * The game-mode stress matrix of issue 16, item 4 ("Game mode stays sane under abuse"): one jelly
 * of 200 triangles (a 0.5 m square, 10 × 10 cells, 100 kg/m²) dropped on a floor half-plane in the
 * default PhysicsWorld (game-mode Newton, contact on), for every
 *
 *   material × E × dt × ν × start = 4 × 4 × 3 × 4 × 4 = 768 runs of 300 steps,
 *
 * starts: 'rest' (the rest shape, its bottom 0.1 m above the floor), 'squashed' (squashed to 10 %
 * of its height about its bottom row), 'mirrored' (x mirrored about the centre: every triangle
 * inverted, J = −1), 'scrambled' (every node uniform in the rest bounding box, seeded).
 *
 * runCell() runs one cell and measures what the issue asks: NaN or an exception, explosion
 * (|x| > 100 m at any step), below the floor at the end (a node deeper than 5 cm), frozen (no node
 * moved 1 mm over the run: a dropped jelly must move; or it hung in the air, lowest node above 5 cm,
 * without moving for the last 50 steps), triangles still inverted at the end, fail-safe
 * steps and their reasons, Newton iterations (mean, max) and ms per step (mean, max; machine-dependent).
 *
 * Used by `npm run stress` (test/stress/main.ts, the whole matrix: minutes, not in CI) and by
 * test/stress-slice.test.ts (the worst cells).
 */
import { PhysicsWorld } from '../../src/world';
import { meshBox } from '../../src/mesh';
import { Rng } from '../../src/math/rng';
import { MATERIAL_NAMES, type MaterialName } from '../../src/elements';
import type { NewtonSettings } from '../../src/solver/newton';

export const MATERIALS: readonly MaterialName[] = MATERIAL_NAMES;
export const MODULI = [1e2, 1e4, 1e6, 1e8] as const;
export const TIME_STEPS = [1 / 240, 1 / 60, 1 / 30] as const;
export const POISSON = [0, 0.3, 0.45, 0.49] as const;
export const STARTS = ['rest', 'squashed', 'mirrored', 'scrambled'] as const;
export type Start = (typeof STARTS)[number];

/** Materials that docs/materials.md calls inversion-safe (a mirrored start must recover). */
export const INVERSION_SAFE: readonly MaterialName[] = ['stvk', 'neohookean', 'corotational'];

export interface Cell {
  material: MaterialName;
  E: number;
  dt: number;
  nu: number;
  start: Start;
}

export interface CellResult extends Cell {
  steps: number;
  /** An exception escaped step() (its message), or ''. */
  exception: string;
  /** A non-finite position or velocity was read after some step. */
  nan: boolean;
  /** max |x| or |y| over the run > EXPLOSION_M. */
  exploded: boolean;
  maxAbs: number;
  /** A node ended deeper than BELOW_GROUND_M under the floor. */
  belowGround: boolean;
  minY: number;
  /**
   * No node moved more than FROZEN_M from its start over the run, or the jelly hung in the air (lowest
   * node above HUNG_M) without moving (no node more than 1e-9 m a step) for the last HUNG_STEPS steps.
   */
  frozen: boolean;
  /** Triangles with det F ≤ 0 at the end. */
  invertedEnd: number;
  failSafeSteps: number;
  /** Fail-safe reasons seen (StepStats.failSafe, distinct, with counts). */
  failSafeReasons: Record<string, number>;
  itersMean: number;
  itersMax: number;
  msMean: number;
  msMax: number;
}

export const EXPLOSION_M = 100;
export const BELOW_GROUND_M = 0.05;
export const FROZEN_M = 1e-3;
export const HUNG_M = 0.05;
export const HUNG_STEPS = 50;
export const STEPS = 300;

const SIZE = 0.5, CELLS = 10, DENSITY = 100, LIFT = 0.1;

/**
 * Every cell of the matrix, in a fixed order (E, dt, ν, start, material: every material of a setting
 * in a row, so the first part of an interrupted run covers all four alike).
 */
export function allCells(): Cell[] {
  const out: Cell[] = [];
  for (const E of MODULI) {
    for (const dt of TIME_STEPS) {
      for (const nu of POISSON) {
        for (const start of STARTS) for (const material of MATERIALS) out.push({ material, E, dt, nu, start });
      }
    }
  }
  return out;
}

/** A short stable name of a cell: "neohookean E=1e2 dt=1/60 nu=0.3 mirrored". */
export function cellName(c: Cell): string {
  return `${c.material} E=${c.E.toExponential(0).replace('+', '')} dt=1/${Math.round(1 / c.dt)} nu=${c.nu} ${c.start}`;
}

/** Seed of a cell's scrambled start: fixed per (material, E, dt, ν) so reruns see the same start. */
function seedOf(c: Cell): number {
  return (MATERIALS.indexOf(c.material) * 1000 + MODULI.indexOf(c.E as never) * 100 + TIME_STEPS.indexOf(c.dt as never) * 10 + POISSON.indexOf(c.nu as never)) >>> 0;
}

export interface StressWorld {
  world: PhysicsWorld;
  /** Particle entities, creation order. */
  ids: number[];
  /** Rest positions, x y per node. */
  rest: Float64Array;
  triangles: Uint32Array;
}

/** The cell's world: the jelly at its start positions (rest shape as given), floor at y = 0, contact on. */
export function buildCell(c: Cell, newton?: Partial<NewtonSettings>): StressWorld {
  const world = new PhysicsWorld({ dt: c.dt, ...(newton ? { newton } : {}) });
  world.addHalfplane(0, 0, 0, 1);
  const mesh = meshBox(SIZE, SIZE, CELLS, CELLS);
  const nv = mesh.positions.length / 2;
  const rest = new Float64Array(mesh.positions.length);
  const cy = LIFT + SIZE / 2;
  for (let v = 0; v < nv; v++) {
    rest[2 * v] = mesh.positions[2 * v]!;
    rest[2 * v + 1] = cy + mesh.positions[2 * v + 1]!;
  }
  const start = startPositions(c, rest);
  const body = world.createBody();
  const radius = (0.5 * SIZE) / 2 / CELLS;
  const ids: number[] = [];
  for (let v = 0; v < nv; v++) ids.push(world.addParticle({ x: start[2 * v]!, y: start[2 * v + 1]!, m: 0, radius, body }));
  const tri = mesh.triangles;
  for (let t = 0; t < tri.length; t += 3) {
    const a = tri[t]!, b = tri[t + 1]!, d = tri[t + 2]!;
    world.addTriangle(ids[a]!, ids[b]!, ids[d]!, {
      youngsModulus: c.E, poissonRatio: c.nu, density: DENSITY, material: c.material,
      rest: [rest[2 * a]!, rest[2 * a + 1]!, rest[2 * b]!, rest[2 * b + 1]!, rest[2 * d]!, rest[2 * d + 1]!],
    });
  }
  world.contacts.enabled = true;
  return { world, ids, rest, triangles: tri };
}

function startPositions(c: Cell, rest: Float64Array): Float64Array {
  const x = rest.slice();
  const bottom = LIFT;
  if (c.start === 'squashed') {
    for (let i = 1; i < x.length; i += 2) x[i] = bottom + 0.1 * (rest[i]! - bottom);
  } else if (c.start === 'mirrored') {
    for (let i = 0; i < x.length; i += 2) x[i] = -rest[i]!; // the jelly is centred on x = 0
  } else if (c.start === 'scrambled') {
    const rng = new Rng(seedOf(c) + 12345);
    for (let i = 0; i < x.length; i += 2) {
      x[i] = rng.range(-SIZE / 2, SIZE / 2);
      x[i + 1] = rng.range(bottom, bottom + SIZE);
    }
  }
  return x;
}

/** Triangles with det F ≤ 0 (signed area of the current triangle against its rest orientation). */
export function countInverted(pos: Float64Array, rest: Float64Array, tri: Uint32Array): number {
  let n = 0;
  for (let t = 0; t < tri.length; t += 3) {
    const a = 2 * tri[t]!, b = 2 * tri[t + 1]!, d = 2 * tri[t + 2]!;
    const cur = (pos[b]! - pos[a]!) * (pos[d + 1]! - pos[a + 1]!) - (pos[d]! - pos[a]!) * (pos[b + 1]! - pos[a + 1]!);
    const ref = (rest[b]! - rest[a]!) * (rest[d + 1]! - rest[a + 1]!) - (rest[d]! - rest[a]!) * (rest[b + 1]! - rest[a + 1]!);
    if (!(cur * ref > 0)) n++;
  }
  return n;
}

/** Run one cell for `steps` steps and measure it. */
export function runCell(c: Cell, steps = STEPS, newton?: Partial<NewtonSettings>): CellResult {
  const r: CellResult = {
    ...c, steps: 0, exception: '', nan: false, exploded: false, maxAbs: 0, belowGround: false, minY: Infinity,
    frozen: false, invertedEnd: 0, failSafeSteps: 0, failSafeReasons: {}, itersMean: 0, itersMax: 0, msMean: 0, msMax: 0,
  };
  let sw: StressWorld;
  try {
    sw = buildCell(c, newton);
  } catch (e) {
    r.exception = `build: ${e instanceof Error ? e.message : String(e)}`;
    return r;
  }
  const { world, rest, triangles } = sw;
  const start = world.readPositions();
  const pos = new Float64Array(start.length), vel = new Float64Array(start.length), prev = start.slice();
  let moved = 0, iters = 0, ms = 0, still = 0;
  for (let s = 0; s < steps; s++) {
    const t0 = performance.now();
    try {
      world.step();
    } catch (e) {
      r.exception = `step ${s + 1}: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`;
      break;
    }
    const dtMs = performance.now() - t0;
    ms += dtMs;
    if (dtMs > r.msMax) r.msMax = dtMs;
    r.steps++;
    const st = world.lastStats;
    iters += st.newtonIters;
    if (st.newtonIters > r.itersMax) r.itersMax = st.newtonIters;
    if (st.failSafe !== '') r.failSafeReasons[st.failSafe] = (r.failSafeReasons[st.failSafe] ?? 0) + 1;
    world.readPositions(pos);
    world.readVelocities(vel);
    let stepMove = 0, low = Infinity;
    for (let i = 0; i < pos.length; i++) {
      const p = pos[i]!;
      if (!Number.isFinite(p) || !Number.isFinite(vel[i]!)) r.nan = true;
      const a = Math.abs(p);
      if (a > r.maxAbs) r.maxAbs = a;
      const d = Math.abs(p - start[i]!);
      if (d > moved) moved = d;
      const m = Math.abs(p - prev[i]!);
      if (m > stepMove) stepMove = m;
      if (i % 2 === 1 && p < low) low = p;
    }
    prev.set(pos);
    still = stepMove <= 1e-9 && low > HUNG_M ? still + 1 : 0;
    r.failSafeSteps = st.failSafeSteps;
    if (r.nan) break;
  }
  r.exploded = r.maxAbs > EXPLOSION_M;
  for (let i = 1; i < pos.length; i += 2) if (pos[i]! < r.minY) r.minY = pos[i]!;
  r.belowGround = r.minY < -BELOW_GROUND_M;
  r.frozen = moved < FROZEN_M || still >= HUNG_STEPS;
  r.invertedEnd = countInverted(pos, rest, triangles);
  r.itersMean = r.steps > 0 ? iters / r.steps : 0;
  r.msMean = r.steps > 0 ? ms / r.steps : 0;
  return r;
}

/** The judging target's defects of one result (empty: the cell is sane). */
export function defects(r: CellResult): string[] {
  const out: string[] = [];
  if (r.exception !== '') out.push(`exception (${r.exception})`);
  if (r.nan) out.push('NaN');
  if (r.exploded) out.push(`exploded (|x| ${r.maxAbs.toExponential(2)} m)`);
  if (r.belowGround) out.push(`below ground (y ${r.minY.toFixed(3)} m)`);
  if (r.frozen) out.push('frozen');
  if (r.start === 'mirrored' && INVERSION_SAFE.includes(r.material) && r.invertedEnd > 0) out.push(`${r.invertedEnd} inverted at the end`);
  return out;
}
