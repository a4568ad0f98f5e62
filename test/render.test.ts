/**
 * Frames and movies: a rendered frame of a small scene against a committed reference image (pixel
 * tolerance), deterministic bytes, FOSSSim's -g 1 / -m layouts, --fps sampling, the GIF's frame
 * count, the mp4's frame count and size (ffprobe; skipped with a message when ffmpeg is absent),
 * bad input (exit 2, nothing left behind) and the run summary line.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rasterize } from '../src/render/raster';
import { FrameClock, ffmpegAvailable } from '../src/render/output';
import { FrameDrawer } from '../src/render/svg';
import { loadSceneFile } from '../src/scene/load';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'elastica.mjs');
const SMALL = join(ROOT, 'test/render/small.xml');
const REFERENCE = join(ROOT, 'test/render/small-frame00008.png');
const SPRING = join(ROOT, 'assets/scenes/fosssim/basic/t1m2/SpringTests/test00symplectic.xml');

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env: { ...process.env, ...env } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** RGBA pixels of a PNG file, decoded by the same rasterizer (an <image> at 1:1). */
function decodePng(file: string, w: number, h: number): Buffer {
  const b64 = readFileSync(file).toString('base64');
  return rasterize(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><image width="${w}" height="${h}" href="data:image/png;base64,${b64}"/></svg>`).rgba();
}

/** Number of images in a GIF, walking its block structure (header, colour tables, extensions, images, trailer). */
function gifFrameCount(buf: Buffer): { frames: number; width: number; height: number } {
  expect(buf.subarray(0, 6).toString('latin1')).toBe('GIF89a');
  const width = buf.readUInt16LE(6), height = buf.readUInt16LE(8);
  let o = 13;
  if (buf[10]! & 0x80) o += 3 * (1 << ((buf[10]! & 7) + 1));
  const skipSub = () => {
    while (buf[o] !== 0) o += buf[o]! + 1;
    o++;
  };
  let frames = 0;
  for (;;) {
    const b = buf[o++];
    if (b === 0x3b) break;
    if (b === 0x21) {
      o++;
      skipSub();
    } else if (b === 0x2c) {
      const flags = buf[o + 8]!;
      o += 9;
      if (flags & 0x80) o += 3 * (1 << ((flags & 7) + 1));
      o++; // LZW minimum code size
      skipSub();
      frames++;
    } else throw new Error(`GIF: unexpected block 0x${b?.toString(16)} at ${o - 1}`);
  }
  return { frames, width, height };
}

describe('frame drawing', () => {
  it('frame 8 of the small scene matches the committed reference image', () => {
    const dir = mkdtempSync(join(tmpdir(), 'elastica-render-'));
    const r = run(['render', SMALL, '--frames', 'fr', '--size', '160x120', '--fps', '20', '--quiet'], dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readdirSync(join(dir, 'fr')).length).toBe(11); // t = 0, 0.05, …, 0.5
    const got = decodePng(join(dir, 'fr', 'frame00008.png'), 160, 120);
    const want = decodePng(REFERENCE, 160, 120);
    expect(got.length).toBe(160 * 120 * 4);
    let sum = 0, bad = 0;
    for (let p = 0; p < got.length; p += 4) {
      let d = 0;
      for (let c = 0; c < 3; c++) d = Math.max(d, Math.abs(got[p + c]! - want[p + c]!));
      sum += d;
      if (d > 24) bad++;
    }
    expect(sum / (160 * 120)).toBeLessThan(1); // mean max-channel difference < 1/255
    expect(bad).toBeLessThan(0.005 * 160 * 120);
    // the reference is not blank: it has the scene's colours (background, red particle, half-plane)
    const colours = new Set<number>();
    for (let p = 0; p < want.length; p += 4) colours.add((want[p]! << 16) | (want[p + 1]! << 8) | want[p + 2]!);
    expect(colours.size).toBeGreaterThan(20);
  });

  it('a different frame does not match the reference (the comparison can fail)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'elastica-render-'));
    expect(run(['render', SMALL, '--frames', 'fr', '--size', '160x120', '--fps', '20', '--quiet'], dir).code).toBe(0);
    const a = decodePng(join(dir, 'fr', 'frame00002.png'), 160, 120), b = decodePng(REFERENCE, 160, 120);
    let bad = 0;
    for (let p = 0; p < a.length; p += 4) if (Math.abs(a[p]! - b[p]!) > 24) bad++;
    expect(bad).toBeGreaterThan(0.005 * 160 * 120);
  });

  it('is deterministic: the same input gives the same SVG and PNG bytes', () => {
    const desc = loadSceneFile(SMALL);
    const x = Float64Array.from(desc.particles.flatMap((p) => [p.px, p.py]));
    const one = new FrameDrawer(desc, { size: { width: 200, height: 150 }, strain: true });
    const two = new FrameDrawer(desc, { size: { width: 200, height: 150 }, strain: true });
    one.record(x);
    two.record(x);
    expect(one.svg(x)).toBe(two.svg(x));
    expect(Buffer.compare(rasterize(one.svg(x)).png(), rasterize(two.svg(x)).png())).toBe(0);
  });

  it('--fps sampling takes the first step at or after each 1/fps', () => {
    const c = new FrameClock(0.01, 24, true);
    const taken: number[] = [];
    for (let s = 0; s <= 100; s++) if (c.take(s)) taken.push(s);
    expect(taken.slice(0, 5)).toEqual([0, 5, 9, 13, 17]); // ceil(f / 2.4)
    expect(taken.length).toBe(25); // t = 0 … 1 s at 24 fps
    const every = new FrameClock(0.01, undefined, false);
    expect([0, 1, 2, 3].filter((s) => every.take(s))).toEqual([1, 2, 3]);
    // dt coarser than the frame period: one frame per step
    const coarse = new FrameClock(0.1, 24, true);
    expect([0, 1, 2, 3].filter((s) => coarse.take(s))).toEqual([0, 1, 2, 3]);
  });
});

describe('FOSSSim frame options and movies', () => {
  it('-g 1 writes pngs/frame%05d.png, one per step, and needs pngs/ to exist (as FOSSSim)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'elastica-g-'));
    const missing = run(['-s', SPRING, '-d', '0', '-g', '1', '--steps', '5'], dir);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/-g 1: folder 'pngs' does not exist; create it first \(mkdir pngs\)/);
    expect(existsSync(join(dir, 'pngs'))).toBe(false);
    mkdirSync(join(dir, 'pngs'));
    const r = run(['-s', SPRING, '-d', '0', '-g', '1', '--steps', '5', '-o', 'out.bin'], dir);
    expect(r.code).toBe(0);
    expect(readdirSync(join(dir, 'pngs')).sort()).toEqual(['frame00001.png', 'frame00002.png', 'frame00003.png', 'frame00004.png', 'frame00005.png']);
    expect(readFileSync(join(dir, 'pngs', 'frame00001.png')).subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(r.stdout).toMatch(/5 steps, 0\.05 s simulated in [\d.]+ s wall time, 5 frames; wrote out\.bin \(384 B\), pngs\/frame%05d\.png/);
  });

  it('-m <dir> writes one SVG per step (--format png for PNGs); --fps samples', () => {
    const dir = mkdtempSync(join(tmpdir(), 'elastica-m-'));
    expect(run(['-s', SPRING, '-d', '0', '-m', 'movie', '--steps', '4', '-q'], dir).code).toBe(0);
    const files = readdirSync(join(dir, 'movie')).sort();
    expect(files).toEqual(['frame00001.svg', 'frame00002.svg', 'frame00003.svg', 'frame00004.svg']);
    expect(readFileSync(join(dir, 'movie', files[0]!), 'utf8')).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="800" height="600"/);
    // dt = 0.01: 1 s at 10 fps is steps 10, 20, …, 100
    expect(run(['-s', SPRING, '-d', '0', '-m', 'm10', '--steps', '100', '--fps', '10', '--format', 'png', '-q'], dir).code).toBe(0);
    expect(readdirSync(join(dir, 'm10')).length).toBe(10);
  });

  it('render --gif writes an animated GIF with one image per sampled frame', () => {
    const dir = mkdtempSync(join(tmpdir(), 'elastica-gif-'));
    const r = run(['render', SMALL, '--gif', 'a.gif', '--size', '120x90', '--fps', '10'], dir);
    expect(r.code).toBe(0);
    expect(gifFrameCount(readFileSync(join(dir, 'a.gif')))).toEqual({ frames: 6, width: 120, height: 90 }); // t = 0, 0.1, …, 0.5
    expect(r.stdout).toMatch(/6 frames; wrote a\.gif/);
  });

  it('render --mp4 plays: ffprobe reports the frame count and size (skipped without ffmpeg)', (ctx) => {
    if (!ffmpegAvailable()) {
      process.stderr.write('render.test: ffmpeg is not installed (Debian: apt-get install ffmpeg); the mp4 test is skipped\n');
      ctx.skip();
    }
    const dir = mkdtempSync(join(tmpdir(), 'elastica-mp4-'));
    const r = run(['render', SMALL, '--mp4', 'a.mp4', '--size', '160x120', '--fps', '20', '-q'], dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const p = spawnSync('ffprobe', ['-v', 'error', '-count_frames', '-select_streams', 'v:0', '-show_entries', 'stream=nb_read_frames,width,height,codec_name', '-of', 'json', 'a.mp4'], { cwd: dir, encoding: 'utf8' });
    const s = JSON.parse(p.stdout).streams[0];
    expect(s).toEqual({ codec_name: 'h264', width: 160, height: 120, nb_read_frames: '11' });
    expect(readdirSync(dir)).toEqual(['a.mp4']);
  });

  it('bad input: exit 2, one clear message, nothing left behind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'elastica-bad-'));
    const g = run(['-s', SPRING, '-d', '0', '-g', '2'], dir);
    expect(g.code).toBe(2);
    expect(g.stderr).toMatch(/^elastica: -g: expected 0 \(no PNG frames\) or 1 \(write pngs\/frame%05d\.png\), got "2"\n$/);
    writeFileSync(join(dir, 'afile'), 'x');
    const nd = run(['render', SPRING, '--frames', 'afile/sub', '--out', 'o.bin'], dir);
    expect(nd.code).toBe(2);
    expect(nd.stderr).toMatch(/frame folder 'afile\/sub': cannot create it \(ENOTDIR\)/);
    const nf = run(['-s', SPRING, '-d', '0', '-m', 'afile'], dir);
    expect(nf.code).toBe(2);
    expect(nf.stderr).toMatch(/-m: folder 'afile' is not a folder/);
    const ff = run(['render', SPRING, '--mp4', 'x.mp4', '--frames', 'fr', '--out', 'o.bin'], dir, { ELASTICA_FFMPEG: '/nonexistent/ffmpeg' });
    expect(ff.code).toBe(2);
    expect(ff.stderr).toMatch(/--mp4 needs ffmpeg, which was not found on the PATH: install Debian's ffmpeg package \(apt-get install ffmpeg\)/);
    expect(run(['render', SPRING, '--size', '800x60x'], dir).stderr).toMatch(/nothing to write/);
    expect(run(['render', SPRING, '--gif', 'a.gif', '--size', '800x60x'], dir).stderr).toMatch(/--size: expected WIDTHxHEIGHT/);
    expect(run(['render', SPRING, '--mp4', 'a.mp4', '--size', '801x600'], dir).stderr).toMatch(/must be even/);
    expect(run(['render', SPRING, '--gif', 'a.gif', '--fps', '0'], dir).stderr).toMatch(/--fps: expected/);
    expect(readdirSync(dir)).toEqual(['afile']);
  });

  it('a run that fails midway removes the frames it wrote and a folder it created', () => {
    const dir = mkdtempSync(join(tmpdir(), 'elastica-div-'));
    writeFileSync(join(dir, 'div.xml'), '<scene><duration time="1"/><integrator type="explicit-euler" dt="0.5"/>' +
      '<particle m="1" px="0" py="0" vx="0" vy="0" fixed="1"/><particle m="1" px="1" py="0" vx="0" vy="0" fixed="0"/>' +
      '<edge i="0" j="1"/><springforce edge="0" k="1e13" l0="0.5"/></scene>'); // k at the top of its validity range
    const r = run(['-s', 'div.xml', '-d', '0', '-m', 'mv', '-o', 'o.bin', '--steps', '50'], dir);
    expect(r.code).toBe(3); // the simulation failed (SimulationError)
    expect(r.stderr).toMatch(/the simulation failed at step \d+ .*non-finite/);
    expect(readdirSync(dir)).toEqual(['div.xml']);
  });

  it('run prints a one-line summary, says when nothing was written, and is silent with --quiet', () => {
    const dir = mkdtempSync(join(tmpdir(), 'elastica-sum-'));
    const a = run(['run', SPRING, '--steps', '3'], dir);
    expect(a.stdout).toMatch(/^elastica: 3 steps, 0\.03 s simulated in [\d.]+ s wall time; nothing written \(no --out given\)\n$/);
    const b = run(['run', SPRING, '--steps', '3', '--out', 'o.bin'], dir);
    expect(b.stdout).toMatch(/; wrote o\.bin \(256 B\)\n$/);
    expect(run(['run', SPRING, '--steps', '3', '--quiet'], dir).stdout).toBe('');
    const png = run(['run', SPRING, '--png', 'frames'], dir);
    expect(png.code).toBe(2);
    expect(png.stderr).toMatch(/run: unknown option '--png' \(known: [^)]*\)\nfor pictures use: elastica render <scene\.xml> --frames <dir>/);
  });
});
