/**
 * makeJellyPile: a box of half-planes with `count` soft jellies (square CST
 * meshes of about `trianglesEach` triangles each) stacked above its floor,
 * contact on. Used by the contact tests and the solver benchmark.
 */
import type { PhysicsWorld } from '../world';
import { meshBox } from '../mesh';
import type { MaterialName } from '../elements';

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
