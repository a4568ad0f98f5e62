/**
 * Benchmark fixtures of `elastica bench` (src/cli/bench.ts, bench-scenes.ts), shared with the tests:
 * none of this is engine code, and nothing under src/ outside the bench imports it.
 *
 *   buildJelly      the bench's square jelly (1k/4k/10k cases): a structured grid of CST triangles
 *                   on the unit square, bottom row fixed (jellyGrid, jellyMesh, jellyModulus, JELLY)
 *   makeJellyPile   the bench's contact case: a box of half-planes with `count` square jellies of
 *                   about `trianglesEach` triangles stacked above its floor, contact on
 *
 * Why here and not in bench/ (the stand-alone scripts): the bench is a command of the `elastica`
 * CLI, and the package build compiles the CLI from src/ only (tsconfig.build.json: rootDir src, the
 * declarations follow src/node.ts → cli/main.ts → bench.ts), so the command's fixtures live beside it.
 */
import { PhysicsWorld } from '../world';
import { meshBox } from '../mesh';
import type { MaterialName } from '../elements';

/**
 * Jelly material: a 1 m square of soft gel, 1000 kg/m². FOSSSim's CST strain
 * ε = FᵀF − I has no ½, so its small-strain stiffness is that of a linear
 * material of modulus 4E: Rapier gets 4E to model the same jelly.
 */
export const JELLY = { size: 1, youngsModulus: 5e4, poissonRatio: 0.35, density: 1000 } as const;

/** Grid cells (nx, ny) with 2·nx·ny ≈ target triangles on the unit square. */
export function jellyGrid(target: number): { nx: number; ny: number } {
  const nx = Math.max(1, Math.round(Math.sqrt(target / 2)));
  const ny = Math.max(1, Math.round(target / (2 * nx)));
  return { nx, ny };
}

/** Node positions (row-major from the bottom row) and triangles of the jelly. */
export function jellyMesh(target: number): { nx: number; ny: number; pos: Float64Array; tris: Int32Array } {
  const { nx, ny } = jellyGrid(target);
  const L = JELLY.size;
  const pos = new Float64Array(2 * (nx + 1) * (ny + 1));
  for (let j = 0; j <= ny; j++) {
    for (let i = 0; i <= nx; i++) {
      const k = j * (nx + 1) + i;
      pos[2 * k] = (i / nx) * L - L / 2;
      pos[2 * k + 1] = (j / ny) * L;
    }
  }
  const tris = new Int32Array(6 * nx * ny);
  let t = 0;
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      const a = j * (nx + 1) + i, b = a + 1, c = a + nx + 2, d = a + nx + 1;
      if ((i + j) % 2 === 0) tris.set([a, b, c, a, c, d], t);
      else tris.set([a, b, d, b, c, d], t);
      t += 6;
    }
  }
  return { nx, ny, pos, tris };
}

/** Young's modulus that gives material `m` the jelly's small-strain stiffness (FOSSSim CST: E; others: 4E). */
export function jellyModulus(m: MaterialName): number {
  return m === 'fosssim' ? JELLY.youngsModulus : 4 * JELLY.youngsModulus;
}

export function buildJelly(
  target: number, world = new PhysicsWorld(), material: MaterialName = 'fosssim',
): { world: PhysicsWorld; top: number[]; nx: number; ny: number } {
  const { nx, ny, pos, tris } = jellyMesh(target);
  const ids: number[] = [];
  for (let k = 0; k < pos.length / 2; k++) {
    ids.push(world.addParticle({ x: pos[2 * k]!, y: pos[2 * k + 1]!, m: 0, fixed: k <= nx }));
  }
  for (let e = 0; e < tris.length; e += 3) {
    world.addTriangle(ids[tris[e]!]!, ids[tris[e + 1]!]!, ids[tris[e + 2]!]!, {
      youngsModulus: jellyModulus(material), poissonRatio: JELLY.poissonRatio, density: JELLY.density, material,
    });
  }
  const top: number[] = [];
  for (let i = 0; i <= nx; i++) top.push(world.particleIndex(ids[ny * (nx + 1) + i]!));
  return { world, top, nx, ny };
}

export interface JellyPile {
  /** Body id of each jelly. */
  bodies: number[];
  /** Particle entity ids of each jelly. */
  particles: number[][];
  /** Inner box: x in [-halfWidth, halfWidth], y >= 0. */
  halfWidth: number;
  /** Half the jelly side (m). */
  radius: number;
}

export interface JellyPileOptions {
  radius?: number;
  youngsModulus?: number;
  poissonRatio?: number;
  density?: number;
  /** Element material (default 'fosssim', FOSSSim's CST). */
  material?: MaterialName;
  /** Columns of jellies per row; default ceil(sqrt(count)). */
  columns?: number;
}

export function makeJellyPile(world: PhysicsWorld, count: number, trianglesEach: number, opts: JellyPileOptions = {}): JellyPile {
  const R = opts.radius ?? 0.25;
  const cols = opts.columns ?? Math.max(1, Math.ceil(Math.sqrt(count)));
  // meshBox(2R, 2R, k, k) has 2k² triangles.
  const rings = Math.max(1, Math.round(Math.sqrt(trianglesEach / 2)));
  const mesh = meshBox(2 * R, 2 * R, rings, rings);
  const spacing = 2.2 * R;
  const halfWidth = (cols * spacing) / 2 + 0.05 * R;
  world.addHalfplane(0, 0, 0, 1);
  world.addHalfplane(-halfWidth, 0, 1, 0);
  world.addHalfplane(halfWidth, 0, -1, 0);
  const nodeRadius = (0.5 * R) / rings;
  const bodies: number[] = [];
  const particles: number[][] = [];
  const nv = mesh.positions.length / 2;
  for (let j = 0; j < count; j++) {
    const row = Math.floor(j / cols), col = j % cols;
    // Alternate rows are offset by a quarter spacing so the pile is not a perfect lattice.
    const cx = -halfWidth + 0.05 * R + spacing * (col + 0.5) + (row % 2 === 1 ? 0.1 * R : -0.1 * R);
    const cy = R * 1.1 + row * spacing;
    const body = world.createBody();
    const ids: number[] = [];
    for (let v = 0; v < nv; v++) {
      ids.push(world.addParticle({ x: cx + mesh.positions[2 * v]!, y: cy + mesh.positions[2 * v + 1]!, m: 0, radius: nodeRadius, body }));
    }
    for (let t = 0; t < mesh.triangles.length; t += 3) {
      world.addTriangle(ids[mesh.triangles[t]!]!, ids[mesh.triangles[t + 1]!]!, ids[mesh.triangles[t + 2]!]!, {
        youngsModulus: opts.youngsModulus ?? 2e4, poissonRatio: opts.poissonRatio ?? 0.3, density: opts.density ?? 100,
        ...(opts.material ? { material: opts.material } : {}),
      });
    }
    bodies.push(body);
    particles.push(ids);
  }
  world.contacts.enabled = true;
  return { bodies, particles, halfWidth, radius: R };
}
