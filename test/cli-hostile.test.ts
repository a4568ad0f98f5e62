/**
 * Issue 16 through the real CLI: runs over the step / output-size limits are refused before they
 * start (exit 2, the reason and the flag that allows them), a failed simulation exits 3 with no
 * output, and SIGINT / SIGTERM mid-run remove the temporary output file.
 */
import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RUN_LIMITS } from '../src/cli/limits';
import { PhysicsWorld } from '../src/world';
import { Recorder } from '../src/replay';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'elastica.mjs');

function run(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stderr: r.stderr, signal: r.signal };
}

/** `n` free particles in a row under gravity, no forces between them. */
function particles(n: number, duration: string, dt: string): string {
  const ps = Array.from({ length: n }, (_, i) => `<particle m="1" px="${i}" py="0" vx="0" vy="0" fixed="0"/>`).join('\n');
  return `<scene><duration time="${duration}"/><integrator type="symplectic-euler" dt="${dt}"/>\n${ps}\n<simplegravity fx="0" fy="-9.81"/></scene>`;
}

const tmpFiles = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.tmp'));

describe('CLI limits, failures and signals', () => {
  const dir = mkdtempSync(join(tmpdir(), 'elastica-hostile-'));

  it('a duration meaning millions of steps is refused before running, unless --steps or --force', () => {
    const scene = join(dir, 'long.xml');
    writeFileSync(scene, particles(1, '1e6', '0.001')); // 1e9 steps
    const r = run(['run', scene]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `elastica: ${scene}: the scene's duration means 1000000000 steps, more than the limit of ${RUN_LIMITS.maxSteps}; ` +
        'run it with --steps N to choose the count, or --force to run them all\n',
    );
    expect(run(['run', scene, '--steps', '20']).code).toBe(0);
  });

  it('an output larger than the byte limit is refused (no file), --steps N that fits is fine', () => {
    const scene = join(dir, 'big.xml');
    writeFileSync(scene, particles(1000, '40', '0.001')); // 40 001 records of 32 000 B = 1.28 GB
    const out = join(dir, 'big.bin');
    const r = run(['run', scene, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/big\.bin: the run would write 1220\.7 MiB \(40001 records of 1000 particles\), more than the limit of 1024\.0 MiB; use --steps N for fewer steps, or --force/);
    expect(existsSync(out)).toBe(false);
    expect(run(['run', scene, '--out', out, '--steps', '3']).code).toBe(0);
    expect(statSync(out).size).toBe(4 * 1000 * 32);
    expect(tmpFiles(dir)).toEqual([]);
  });

  it('a singular FOSSSim-exact system exits 3 naming file, step and time; no output file', () => {
    const scene = join(dir, 'singular.xml');
    writeFileSync(scene, `<scene><duration time="1"/><integrator type="implicit-euler" dt="0.1"/>
<particle m="1" px="0" py="0" vx="0" vy="0" fixed="0"/><particle m="1" px="1" py="0" vx="0" vy="0" fixed="0"/>
<vortexforce i="0" j="1" kbs="1e13" kvc="-1e13"/></scene>`);
    const out = join(dir, 'singular.bin');
    const r = run(['run', scene, '--out', out]);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(`elastica: ${scene}: the simulation failed at step 1 (t = 0.1): the system matrix is singular\n`);
    expect(existsSync(out)).toBe(false);
    expect(tmpFiles(dir)).toEqual([]);
  });

  for (const [signal, code] of [['SIGTERM', 143], ['SIGINT', 130]] as const) {
    it(`${signal} mid-run removes the temporary output and exits ${code}`, async () => {
      const scene = join(dir, `sig-${signal}.xml`);
      writeFileSync(scene, particles(10, '1000', '0.001')); // 1e6 steps (320 MB): minutes of work
      const out = join(dir, `sig-${signal}.bin`);
      const child = spawn(process.execPath, [BIN, 'run', scene, '--out', out, '--quiet'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((res) => child.on('exit', (c) => res(c)));
      // wait until the run is writing its temporary file
      const t0 = Date.now();
      while (tmpFiles(dir).length === 0 && Date.now() - t0 < 30_000) await new Promise((r) => setTimeout(r, 50));
      expect(tmpFiles(dir).length).toBe(1);
      await new Promise((r) => setTimeout(r, 300));
      child.kill(signal);
      expect(await exited).toBe(code);
      expect(stderr).toMatch(new RegExp(`stopped by ${signal} after step \\d+; no output written`));
      expect(tmpFiles(dir)).toEqual([]);
      expect(existsSync(out)).toBe(false);
    });
  }

  /** A stand-in ffmpeg (ELASTICA_FFMPEG): `-version` answers after `versionDelay` s; encoding fails with a message. */
  function fakeFfmpeg(name: string, versionDelay: number): string {
    const path = join(dir, name);
    writeFileSync(path, `#!/bin/sh\nif [ "$1" = "-version" ]; then sleep ${versionDelay}; exit 0; fi\ncat > /dev/null\necho "fake encoder: no such codec" >&2\nexit 1\n`);
    chmodSync(path, 0o755);
    return path;
  }

  it('ffmpeg failing: exit 2 naming the mp4 and ffmpeg\'s message, and no GIF of the same run left behind (fuzz, CLI runs)', () => {
    // before: "internal error: ffmpeg failed", exit 1, and the GIF already moved into place
    const scene = join(dir, 'movie.xml');
    writeFileSync(scene, particles(2, '0.1', '0.01'));
    const sub = join(dir, 'movie-out');
    mkdirSync(sub);
    const r = spawnSync(process.execPath, [BIN, 'render', scene, '--gif', join(sub, 'a.gif'), '--mp4', join(sub, 'a.mp4'), '--size', '64x48', '--quiet'], {
      cwd: ROOT, encoding: 'utf8', timeout: 60_000, env: { ...process.env, ELASTICA_FFMPEG: fakeFfmpeg('ffmpeg-fails', 0) },
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`elastica: --mp4 '${join(sub, 'a.mp4')}': ffmpeg failed (exit 1): fake encoder: no such codec\n`);
    expect(readdirSync(sub)).toEqual([]);
  });

  it('SIGTERM while the outputs are being opened (before the first step): exit 143, the frame folder it created removed (fuzz, CLI runs)', async () => {
    // before: the signal handlers came after the outputs were opened, so the signal killed the
    // process outright and left the folder `render --frames` had just created
    const scene = join(dir, 'opening.xml');
    writeFileSync(scene, particles(2, '1', '0.01'));
    const frames = join(dir, 'opening-frames');
    const child = spawn(process.execPath, [BIN, 'render', scene, '--frames', frames, '--mp4', join(dir, 'opening.mp4'), '--size', '64x48', '--quiet'], {
      cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ELASTICA_FFMPEG: fakeFfmpeg('ffmpeg-slow', 3) },
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<[number | null, string | null]>((res) => child.on('exit', (c, s) => res([c, s])));
    const t0 = Date.now();
    while (!existsSync(frames) && Date.now() - t0 < 30_000) await new Promise((r) => setTimeout(r, 20));
    expect(existsSync(frames)).toBe(true); // made; the run now waits for `ffmpeg -version`
    child.kill('SIGTERM');
    expect(await exited).toEqual([143, null]);
    expect(stderr).toBe(`elastica: ${scene}: stopped by SIGTERM after step 0; no output written\n`);
    expect(existsSync(frames)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('opening.mp4'))).toEqual([]);
  }, 60_000);

  /** A replay of `steps` steps of a small jelly on the ground (a drag anchor set at step 5). */
  function recordReplay(steps: number): Uint8Array {
    const w = new PhysicsWorld({});
    const p = [[0, 1], [1, 1], [0, 2]].map(([x, y]) => w.addParticle({ x: x!, y: y!, m: 1 }));
    w.addTriangle(p[0]!, p[1]!, p[2]!, { youngsModulus: 1e3, poissonRatio: 0.3 });
    w.addHalfplane(0, 0, 0, 1);
    w.contacts.enabled = true;
    const rec = new Recorder(w);
    for (let s = 0; s < steps; s++) {
      if (s === 5) w.setAnchor(p[0]!, 1, 3, 100);
      w.step();
    }
    return rec.stop();
  }

  it('replay: a header that is not an object, a corrupted initial snapshot: exit 2, one line naming the file (fuzz, CLI runs)', () => {
    // before: "internal error: Cannot read properties of null" (exit 1), and "elastica: snapshot: …" without the file
    const good = recordReplay(20);
    const nullHeader = join(dir, 'null-header.replay');
    const h = new DataView(good.buffer, good.byteOffset).getUint32(4, true); // the header: u32 length, UTF-16 units
    const text = 'null'.padEnd(h, ' ');
    const b = good.slice();
    for (let i = 0; i < h; i++) new DataView(b.buffer).setUint16(8 + 2 * i, text.charCodeAt(i), true);
    writeFileSync(nullHeader, b);
    let r = run(['replay', nullHeader, '--verify']);
    expect([r.code, r.stderr]).toEqual([2, `elastica: ${nullHeader}: replay: the header is not a JSON object\n`]);
    const badInitial = join(dir, 'bad-initial.replay');
    const c = good.slice();
    c[8 + 2 * h + 4 + 200]! ^= 0x40; // a byte of the initial snapshot's payload
    writeFileSync(badInitial, c);
    r = run(['replay', badInitial, '--verify']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^elastica: ${badInitial}: snapshot: checksum mismatch .*\n$`));
  });

  it('replay --out: SIGINT mid-run removes the temporary state file and exits 130 (fuzz, CLI runs)', async () => {
    // before: the replay ran synchronously, so SIGINT killed it and left .name.pid.tmp behind
    const file = join(dir, 'long.replay');
    writeFileSync(file, recordReplay(20_000));
    const out = join(dir, 'long-replay.bin');
    const child = spawn(process.execPath, [BIN, 'replay', file, '--verify', '--out', out, '--quiet'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<[number | null, string | null]>((res) => child.on('exit', (code, sig) => res([code, sig])));
    const t0 = Date.now();
    while (tmpFiles(dir).length === 0 && Date.now() - t0 < 30_000) await new Promise((r) => setTimeout(r, 20));
    expect(tmpFiles(dir).length).toBe(1);
    await new Promise((r) => setTimeout(r, 200));
    child.kill('SIGINT');
    expect(await exited).toEqual([130, null]);
    expect(stderr).toMatch(new RegExp(`^elastica: ${file}: stopped by SIGINT after step \\d+; nothing written\n$`));
    expect(tmpFiles(dir)).toEqual([]);
    expect(existsSync(out)).toBe(false);
  }, 60_000);

  it('the command\'s own process keeps its signal handlers: a signal after the run ended is ignored, one before it started stops with one line (fuzz, CLI runs seed 7306)', () => {
    // before: the run's handlers were removed when it ended, so a SIGTERM in the moments before the
    // process exited killed it (the exit code 3 or 0 lost, after its message was printed)
    const signals = JSON.stringify(join(ROOT, 'src', 'cli', 'signals.ts'));
    const script = (body: string) => spawnSync(process.execPath, [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), '-e',
      `import { holdProcessSignals, watchSignals } from ${signals};\n${body}`], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    const after = script(`holdProcessSignals(); const w = watchSignals(); w.dispose();
      process.kill(process.pid, 'SIGTERM'); setTimeout(() => { process.stdout.write('still running'); process.exit(3); }, 300);`);
    expect([after.status, after.signal, after.stdout]).toEqual([3, null, 'still running']);
    const during = script(`holdProcessSignals(); const w = watchSignals();
      process.kill(process.pid, 'SIGINT'); setTimeout(() => { process.stdout.write(String(w.signal)); process.exit(0); }, 300);`);
    expect([during.status, during.stdout]).toEqual([0, 'SIGINT']);
    const before = script(`holdProcessSignals(); process.kill(process.pid, 'SIGINT'); setTimeout(() => process.exit(0), 2000);`);
    expect([before.status, before.stderr]).toEqual([130, 'elastica: stopped by SIGINT; nothing written\n']);
  });

  it.sequential('cleanup', () => {
    rmSync(dir, { recursive: true, force: true });
  });
});
