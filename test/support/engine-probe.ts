/**
 * A determinism probe that runs unchanged in any JavaScript engine: it hashes
 * the outputs of src/math on seeded inputs, FOSSSim scenes on every integrator
 * path, a meshed polygon, and a game-mode pile of jellies with contact. The
 * cross-engine test bundles it and compares the hashes from Node (V8) and
 * JavaScriptCore line by line.
 */
import { atan2, cbrt, cos, exp, log, pow, Rng, sin } from '../../src/math';
import { parseSceneXml } from '../../src/scene/xml';
import { buildScene } from '../../src/scene/build';
import { PhysicsWorld } from '../../src/world';
import { makeJellyPile } from '../../src/cli/bench-jellies';
import { meshPolygon } from '../../src/mesh';

/** FNV-1a over the bytes of a Float64Array, as 8 hex digits (two 32-bit lanes folded). */
export function hashDoubles(a: Float64Array, h = 0x811c9dc5): number {
  const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  for (let i = 0; i < bytes.length; i++) {
    h ^= bytes[i]!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

const hex = (h: number) => h.toString(16).padStart(8, '0');

function mathProbe(): string {
  const rng = new Rng(12345);
  const out = new Float64Array(7 * 4000);
  for (let i = 0; i < 4000; i++) {
    const x = (rng.next() - 0.5) * 200;
    const y = (rng.next() - 0.5) * 200;
    const p = rng.next() * 50;
    out[7 * i] = sin(x);
    out[7 * i + 1] = cos(y);
    out[7 * i + 2] = exp(x / 4);
    out[7 * i + 3] = log(p + 1e-3);
    out[7 * i + 4] = atan2(y, x);
    out[7 * i + 5] = pow(p + 0.5, x / 50);
    out[7 * i + 6] = cbrt(y);
  }
  return hex(hashDoubles(out));
}

function sceneProbe(xml: string, steps: number): string {
  const { world } = buildScene(parseSceneXml(xml, 'probe.xml'));
  let h = 0x811c9dc5;
  for (let s = 0; s < steps; s++) {
    world.step();
    h = hashDoubles(world.readPositions(), h);
    h = hashDoubles(world.readVelocities(), h);
  }
  return hex(h);
}

function pileProbe(steps: number): string {
  const world = new PhysicsWorld({ dt: 1 / 60 });
  makeJellyPile(world, 4, 32, { material: 'corotational' });
  let h = 0x811c9dc5;
  for (let s = 0; s < steps; s++) {
    world.step();
    h = hashDoubles(world.readPositions(), h);
  }
  return hex(h);
}

function meshProbe(): string {
  const star: number[] = [];
  for (let k = 0; k < 10; k++) {
    const r = k % 2 === 0 ? 1 : 0.45;
    const a = (Math.PI * 2 * k) / 10;
    // Outline corners from exact-enough constants: the mesher itself is what is probed.
    star.push(Math.round(r * cos(a) * 1e6) / 1e6, Math.round(r * sin(a) * 1e6) / 1e6);
  }
  const m = meshPolygon(star, 0.12);
  return `${hex(hashDoubles(Float64Array.from(m.positions)))} ${m.triangles.length / 3}`;
}

/** One line per probe: "name hash". */
export function runProbe(scenes: Record<string, string>, steps: number): string[] {
  const lines = [`math ${mathProbe()}`, `mesh ${meshProbe()}`];
  for (const name of Object.keys(scenes).sort()) lines.push(`${name} ${sceneProbe(scenes[name]!, steps)}`);
  lines.push(`pile ${pileProbe(steps)}`);
  return lines;
}
