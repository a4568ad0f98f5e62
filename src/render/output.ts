/**
 * Frame and movie output of a run (CLI only): a folder of numbered PNG or SVG frames, an animated
 * GIF (gifenc, pure JS) and an mp4 (the system's ffmpeg, fed raw RGBA frames on stdin).
 * Everything is checked before the simulation starts (folder present and writable, ffmpeg on the
 * PATH), and a failed run removes what it wrote: the frames of this run, a folder it created,
 * the temporary GIF / mp4 files (renamed into place only at the end). docs/cli.md.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, renameSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { InputError } from '../errors';
import type { SceneDescription } from '../scene/types';
import { rasterize } from './raster';
import { FrameDrawer, type FrameSize } from './svg';

export interface FrameTargets {
  /** Folder of frame<NNNNN>.<format> files. */
  dir?: string;
  /** Create `dir` when missing (render --frames, -m); FOSSSim's -g 1 requires pngs/ to exist. */
  createDir?: boolean;
  /** What to call the folder in messages (e.g. "-g 1: folder 'pngs'"). */
  dirLabel?: string;
  format?: 'png' | 'svg';
  gif?: string;
  mp4?: string;
  /** Frames per second of simulated time; undefined: one frame per step. */
  fps?: number;
  /** Number of the first frame file (FOSSSim's forms: 1, the state after the first step). */
  firstIndex: number;
  /** Draw the initial state as the first frame (render), or start after the first step (FOSSSim). */
  includeInitial: boolean;
  size: FrameSize;
  strain?: boolean;
}

/** Steps at which frames are taken: every step, or the first step at or after each 1/fps of simulated time. */
export class FrameClock {
  private f: number;
  private nextStep: number;
  private readonly dt: number;
  private readonly fps: number | undefined;
  constructor(dt: number, fps: number | undefined, includeInitial: boolean) {
    this.dt = dt;
    this.fps = fps;
    this.f = includeInitial ? 0 : 1;
    this.nextStep = this.stepOf(this.f);
  }

  private stepOf(f: number): number {
    if (this.fps === undefined) return f;
    return Math.max(0, Math.ceil(f / (this.fps * this.dt) - 1e-9));
  }

  /** True when step s (0: the initial state) is drawn; call once per step, in order. */
  take(s: number): boolean {
    if (s < this.nextStep) return false;
    while (this.stepOf(this.f) <= s) this.f++;
    this.nextStep = this.stepOf(this.f);
    return true;
  }
}

/** True when an ffmpeg executable runs. */
export function ffmpegAvailable(): boolean {
  const r = spawnSync(process.env.ELASTICA_FFMPEG ?? 'ffmpeg', ['-version'], { stdio: 'ignore' });
  return r.error === undefined && r.status === 0;
}

function tmpBeside(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
}

function probeWritable(dir: string, label: string): void {
  const probe = join(dir, `.elastica-probe.${process.pid}`);
  try {
    writeFileSync(probe, '');
    unlinkSync(probe);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? String(e);
    throw new InputError(`${label}: cannot write there (${code})`);
  }
}

export class FrameOutput {
  readonly drawer: FrameDrawer;
  readonly clock: FrameClock;
  frames = 0;
  /** Bytes of the frame files written. */
  frameBytes = 0;
  private readonly written: string[] = [];
  private createdDir = false;
  private gif: { enc: GifEncoder; lib: GifLib; tmp: string; delay: number; sample?: Uint8Array } | null = null;
  private mp4: { proc: ChildProcess; tmp: string; done: Promise<number | null>; err: string[] } | null = null;

  readonly desc: SceneDescription;
  readonly t: FrameTargets;

  private constructor(desc: SceneDescription, t: FrameTargets) {
    this.desc = desc;
    this.t = t;
    this.drawer = new FrameDrawer(desc, { size: t.size, strain: t.strain });
    this.clock = new FrameClock(desc.integrator.dt, t.fps, t.includeInitial);
  }

  /** Check every target and open the movie encoders; throws InputError before anything is simulated. */
  static async open(desc: SceneDescription, t: FrameTargets): Promise<FrameOutput> {
    const out = new FrameOutput(desc, t);
    try {
      await out.prepare();
    } catch (e) {
      out.abort();
      throw e;
    }
    return out;
  }

  private async prepare(): Promise<void> {
    const t = this.t;
    const { width, height } = t.size;
    if (t.dir !== undefined) {
      const label = t.dirLabel ?? `frame folder '${t.dir}'`;
      if (!existsSync(t.dir)) {
        if (!t.createDir) throw new InputError(`${label} does not exist; create it first (mkdir ${t.dir}), as FOSSSim requires`);
        try {
          mkdirSync(t.dir);
          this.createdDir = true;
        } catch (e) {
          throw new InputError(`${label}: cannot create it (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
        }
      } else if (!statSync(t.dir).isDirectory()) {
        throw new InputError(`${label} is not a folder`);
      }
      probeWritable(t.dir, label);
      if ((t.format ?? 'png') === 'png') rasterize('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'); // the rasterizer loads
    }
    if (t.mp4 !== undefined) {
      if (width % 2 !== 0 || height % 2 !== 0) throw new InputError(`--mp4: the frame size must be even for H.264 (yuv420p), got ${width}x${height}`);
      if (!ffmpegAvailable()) {
        throw new InputError('--mp4 needs ffmpeg, which was not found on the PATH: install Debian\'s ffmpeg package (apt-get install ffmpeg), or write an animated GIF with --gif instead');
      }
      const tmp = tmpBeside(t.mp4) + '.mp4';
      probeWritable(dirname(t.mp4), `--mp4 '${t.mp4}'`);
      const fps = t.fps ?? 1 / this.desc.integrator.dt;
      const err: string[] = [];
      const proc = spawn(process.env.ELASTICA_FFMPEG ?? 'ffmpeg', [
        '-loglevel', 'error', '-y', '-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', `${width}x${height}`, '-r', String(fps),
        '-i', '-', '-vcodec', 'libx264', '-pix_fmt', 'yuv420p', '-f', 'mp4', tmp,
      ], { stdio: ['pipe', 'ignore', 'pipe'] });
      proc.stderr!.on('data', (d: Buffer) => err.push(d.toString()));
      const done = new Promise<number | null>((resolve) => {
        proc.on('close', (code) => resolve(code));
        proc.on('error', () => resolve(-1));
      });
      proc.stdin!.on('error', () => { /* reported through the exit code */ });
      this.mp4 = { proc, tmp, done, err };
    }
    if (t.gif !== undefined) {
      probeWritable(dirname(t.gif), `--gif '${t.gif}'`);
      const lib = loadGif();
      const fps = t.fps ?? 1 / this.desc.integrator.dt;
      this.gif = { enc: lib.GIFEncoder(), lib, tmp: tmpBeside(t.gif), delay: Math.max(10, Math.round(1000 / fps)) };
    }
    if (t.dir === undefined && t.gif === undefined && t.mp4 === undefined) throw new InputError('render: nothing to write; give --frames <dir>, --gif <file> or --mp4 <file>');
  }

  /** Call for the initial state (s = 0) and after every step s; draws and writes when the clock says so. */
  async step(s: number, x: Float64Array): Promise<void> {
    this.drawer.record(x);
    if (!this.clock.take(s)) return;
    const svg = this.drawer.svg(x);
    const index = this.t.firstIndex + this.frames;
    this.frames++;
    const needPixels = this.gif !== null || this.mp4 !== null;
    const format = this.t.format ?? 'png';
    const raster = needPixels || (this.t.dir !== undefined && format === 'png') ? rasterize(svg) : null;
    if (this.t.dir !== undefined) {
      const file = join(this.t.dir, `frame${String(index).padStart(5, '0')}.${format}`);
      this.written.push(file);
      const data = format === 'png' ? raster!.png() : svg;
      writeFileSync(file, data);
      this.frameBytes += typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    }
    if (needPixels) {
      const rgba = raster!.rgba();
      if (this.gif) {
        const { lib, enc } = this.gif;
        const data = new Uint8Array(rgba.buffer, rgba.byteOffset, rgba.length);
        // the palette from every 4th pixel (a quarter of the quantizer's work; flat-shaded frames lose nothing visible)
        const sample = this.gif.sample ??= new Uint8Array(Math.ceil(data.length / 16) * 4);
        for (let p = 0, q = 0; p < data.length; p += 16, q += 4) {
          sample[q] = data[p]!;
          sample[q + 1] = data[p + 1]!;
          sample[q + 2] = data[p + 2]!;
          sample[q + 3] = data[p + 3]!;
        }
        const palette = lib.quantize(sample, 256, { format: 'rgb565' });
        enc.writeFrame(lib.applyPalette(data, palette, 'rgb565'), this.t.size.width, this.t.size.height, { palette, delay: this.gif.delay });
      }
      if (this.mp4) {
        const stdin = this.mp4.proc.stdin!;
        if (!stdin.write(rgba)) await Promise.race([once(stdin, 'drain'), this.mp4.done]);
      }
    }
  }

  /** Finish the movies into their temporary files (commit() moves them into place). */
  async finish(): Promise<void> {
    if (this.gif) {
      this.gif.enc.finish();
      writeFileSync(this.gif.tmp, this.gif.enc.bytesView());
    }
    if (this.mp4) {
      this.mp4.proc.stdin!.end();
      const code = await this.mp4.done;
      if (code !== 0) {
        const why = this.mp4.err.join('').trim().split('\n').filter((l) => l.trim() !== '').pop() ?? 'no message';
        throw new InputError(`--mp4 '${this.t.mp4}': ffmpeg failed (${code === null ? 'stopped by a signal' : `exit ${code}`}): ${why}`);
      }
    }
  }

  /** Move the finished movies into place (after finish()). */
  commit(): void {
    if (this.gif) {
      renameSync(this.gif.tmp, this.t.gif!);
      this.gif = null;
    }
    if (this.mp4) {
      renameSync(this.mp4.tmp, this.t.mp4!);
      this.mp4 = null;
    }
  }

  /** Remove everything this run wrote (after a failure). */
  abort(): void {
    const rm = (p: string) => {
      try {
        unlinkSync(p);
      } catch {
        /* not there */
      }
    };
    for (const f of this.written) rm(f);
    this.written.length = 0;
    if (this.createdDir && this.t.dir !== undefined) {
      try {
        rmdirSync(this.t.dir);
      } catch {
        /* not empty: someone else's files */
      }
    }
    if (this.gif) {
      rm(this.gif.tmp);
      this.gif = null;
    }
    if (this.mp4) {
      this.mp4.proc.kill('SIGKILL');
      const tmp = this.mp4.tmp;
      rm(tmp);
      void this.mp4.done.then(() => rm(tmp));
      this.mp4 = null;
    }
  }

  /** Output files for the summary line: path and size. */
  files(): { path: string; bytes: number }[] {
    const out: { path: string; bytes: number }[] = [];
    if (this.t.dir !== undefined) out.push({ path: join(this.t.dir, `frame%05d.${this.t.format ?? 'png'}`), bytes: this.frameBytes });
    if (this.t.gif) out.push({ path: this.t.gif, bytes: statSync(this.t.gif).size });
    if (this.t.mp4) out.push({ path: this.t.mp4, bytes: statSync(this.t.mp4).size });
    return out;
  }
}

interface GifEncoder {
  writeFrame(index: Uint8Array, w: number, h: number, opts: { palette: number[][]; delay: number }): void;
  finish(): void;
  bytesView(): Uint8Array;
}
interface GifLib {
  GIFEncoder(): GifEncoder;
  quantize(rgba: Uint8Array, n: number, opts: { format: 'rgb565' }): number[][];
  applyPalette(rgba: Uint8Array, palette: number[][], format: 'rgb565'): Uint8Array;
}

function loadGif(): GifLib {
  try {
    // gifenc ships CommonJS for Node (dist/gifenc.js)
    return requireCjs('gifenc') as GifLib;
  } catch (e) {
    throw new InputError(`--gif needs the optional dependency gifenc (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); install it with: npm install gifenc`);
  }
}

const requireCjs = createRequire(import.meta.url);
