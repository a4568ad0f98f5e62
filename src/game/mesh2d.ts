/**
 * Pure helpers that turn plain mesh data (metres, y-up) into the flat arrays
 * Phaser 4.2's Mesh2D game object takes:
 *   vertices: x, y, u, v per vertex (stride 4), in the object's local pixels;
 *   indices:  a, b, c, page per triangle (stride 4), page = texture source, usually 0.
 * Mesh2D reads these arrays by index at render time, so a Float32Array filled
 * in place every frame (e.g. by Skin.update with stride 4) is picked up
 * without any further call. No Phaser import here: testable in Node.
 */
import { InputError } from '../errors';

/**
 * u, v per vertex mapping the bounding box of `positions` (y-up) to [0, 1]^2,
 * v = 0 at the bottom (min y). That is the GL bottom-up convention Mesh2D
 * expects with flipV = false (checked in the browser: with v = 0 at the top the
 * image renders upside down), so the image appears upright.
 */
export function uvFromBounds(positions: ArrayLike<number>): Float32Array {
  const n = positions.length / 2;
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    const x = positions[2 * i]!, y = positions[2 * i + 1]!;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  const w = maxX - minX || 1, h = maxY - minY || 1;
  const uv = new Float32Array(2 * n);
  for (let i = 0; i < n; i++) {
    uv[2 * i] = (positions[2 * i]! - minX) / w;
    uv[2 * i + 1] = (positions[2 * i + 1]! - minY) / h;
  }
  return uv;
}

/**
 * Interleaved Mesh2D vertex buffer: x, y from `positions` (metres, y-up)
 * converted to pixels (x * ppm, -y * ppm), u, v from `uvs`.
 */
export function mesh2dVertices(positions: ArrayLike<number>, uvs: ArrayLike<number>, pixelsPerMetre: number): Float32Array {
  const n = positions.length / 2;
  if (uvs.length < 2 * n) throw new InputError(`mesh2dVertices: ${uvs.length / 2} uvs for ${n} vertices`);
  const out = new Float32Array(4 * n);
  for (let i = 0; i < n; i++) {
    out[4 * i] = positions[2 * i]! * pixelsPerMetre;
    out[4 * i + 1] = -positions[2 * i + 1]! * pixelsPerMetre;
    out[4 * i + 2] = uvs[2 * i]!;
    out[4 * i + 3] = uvs[2 * i + 1]!;
  }
  return out;
}

/** Mesh2D index list (a, b, c, page per triangle) from a plain triangle list. */
export function mesh2dIndices(triangles: ArrayLike<number>, page = 0): number[] {
  const nt = triangles.length / 3;
  const out = new Array<number>(4 * nt);
  for (let t = 0; t < nt; t++) {
    out[4 * t] = triangles[3 * t]!;
    out[4 * t + 1] = triangles[3 * t + 1]!;
    out[4 * t + 2] = triangles[3 * t + 2]!;
    out[4 * t + 3] = page;
  }
  return out;
}
