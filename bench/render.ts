/**
 * Frame-rendering benchmark (issue 14): a FOSSSim scene of a 23×23-node sheet (968 CST triangles,
 * 529 particles, edges on the boundary) shearing and spinning above a half-plane, rendered at 800×600 with
 * `elastica render` for 25 s of simulated time at 24 fps (601 frames) to PNG frames, a GIF and an mp4.
 *
 *   npx tsx bench/render.ts [outdir]
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../src/cli/main';
import { ffmpegAvailable } from '../src/render/output';
import { sheetScene } from './sheet-scene';

async function timed(label: string, args: string[]): Promise<void> {
  const t0 = performance.now();
  const code = await main(args);
  console.log(`${label}: ${((performance.now() - t0) / 1000).toFixed(2)} s (exit ${code})`);
}

{
  const dir = process.argv[2] ?? mkdtempSync(join(tmpdir(), 'elastica-render-bench-'));
  mkdirSync(dir, { recursive: true });
  const scene = join(dir, 'sheet.xml');
  writeFileSync(scene, sheetScene());
  await timed('simulation only (5000 steps)', ['run', scene, '--quiet']);
  await timed('601 PNG frames 800x600', ['render', scene, '--frames', join(dir, 'frames'), '--quiet']);
  await timed('601 SVG frames', ['render', scene, '--frames', join(dir, 'svg'), '--format', 'svg', '--quiet']);
  await timed('GIF (601 frames)', ['render', scene, '--gif', join(dir, 'out.gif'), '--quiet']);
  if (ffmpegAvailable()) await timed('mp4 (601 frames, ffmpeg libx264)', ['render', scene, '--mp4', join(dir, 'out.mp4'), '--quiet']);
  else console.log('mp4: skipped (no ffmpeg)');
  console.log(`output in ${dir}`);
}
