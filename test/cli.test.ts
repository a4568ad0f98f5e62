/** The `elastica` command as a user runs it: real processes, exit codes, output files. */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'elastica.mjs');
const SCENE = join(ROOT, 'assets/scenes/fosssim/t4m1/CSTTests/test07.xml');

function run(args: string[], cwd = ROOT) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('elastica CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'elastica-cli-'));

  it('runs a scene in FOSSSim form and writes ceil(duration/dt)+1 records', () => {
    const out = join(dir, 'a.bin');
    const r = run(['-s', SCENE, '-d', '0', '-o', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const bytes = readFileSync(out).length;
    expect(bytes).toBe((5000 + 1) * 4 * 4 * 8); // 4 particles, x and v, 2 components
  });

  it('run --steps N writes N+1 records and matches the FOSSSim form bit for bit', () => {
    const a = join(dir, 'b.bin');
    expect(run(['run', SCENE, '--out', a, '--steps', '10']).code).toBe(0);
    const full = readFileSync(join(dir, 'a.bin'));
    const part = readFileSync(a);
    expect(part.length).toBe(11 * 16 * 8);
    expect(Buffer.compare(part, full.subarray(0, part.length))).toBe(0);
  });

  it('bad XML: exit 2, one clear message, no stack trace, no output file', () => {
    const bad = join(dir, 'bad.xml');
    writeFileSync(bad, '<scene><duration time="1"/><integrator type="symplectic-euler" dt="0.1"/><particle m="1" px="0" py="0" vx="0" vy="0" fixed="0"></scene>');
    const out = join(dir, 'bad.bin');
    const r = run(['run', bad, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.xml/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
  });

  it('bad attribute: message names tag, index and attribute', () => {
    const bad = join(dir, 'badm.xml');
    writeFileSync(bad, '<scene><duration time="1"/><integrator type="symplectic-euler" dt="0.1"/><particle m="0" px="0" py="0" vx="0" vy="0" fixed="0"/></scene>');
    const r = run(['run', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/<particle> #0/);
    expect(r.stderr).toMatch(/'m'/);
  });

  it('unknown integrator and missing file and bad flags exit 2', () => {
    const bad = join(dir, 'badi.xml');
    writeFileSync(bad, '<scene><duration time="1"/><integrator type="rk4" dt="0.1"/></scene>');
    const r1 = run(['run', bad]);
    expect(r1.code).toBe(2);
    expect(r1.stderr).toMatch(/rk4/);
    const r2 = run(['run', join(dir, 'missing.xml')]);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(/cannot read scene file/);
    const r3 = run(['run', SCENE, '--steps', 'ten']);
    expect(r3.code).toBe(2);
    expect(r3.stderr).toMatch(/--steps/);
    const r4 = run(['frobnicate']);
    expect(r4.code).toBe(2);
    expect(r4.stderr).toMatch(/unknown command/);
    const r5 = run(['-s', SCENE, '-d', '1']);
    expect(r5.code).toBe(2);
  });

  it('--help after a command prints the usage (exit 0); an unknown option names the command and its options', () => {
    for (const args of [['run', '--help'], ['render', SCENE, '-h'], ['replay', '--help'], ['bench', '--help']]) {
      const r = run(args);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout, args.join(' ')).toMatch(/^Usage:\n {2}elastica run <scene\.xml>/);
      expect(r.stderr, args.join(' ')).toBe('');
    }
    // after `--` it is an argument again: here a scene file that does not exist
    const dashed = run(['run', '--', '--help']);
    expect(dashed.code).toBe(2);
    expect(dashed.stderr).toMatch(/cannot read scene file '--help'/);
    const typo = run(['run', SCENE, '--outt', 'o.bin']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^elastica: run: unknown option '--outt' \(known: -o\|--out, --steps, --force, -q\|--quiet\)\nUsage:/);
    expect(typo.stderr).not.toMatch(/positional/);
    const fosssim = run(['-s', SCENE, '-d', '0', '--bogus']);
    expect(fosssim.code).toBe(2);
    expect(fosssim.stderr).toMatch(/^elastica: unknown option '--bogus' \(known: -s\|--scene, -d\|--display, /);
    const missing = run(['render', SCENE, '--gif']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^elastica: render: Option '--gif <value>' argument missing/);
  });

  it('a diverging simulation exits 3 with step, time and particle, and leaves no output file', () => {
    const scene = join(dir, 'diverge.xml');
    // A very stiff spring with explicit Euler and a large step explodes.
    writeFileSync(scene, `<scene><duration time="100"/><integrator type="explicit-euler" dt="0.5"/>
      <particle m="1" px="0" py="0" vx="0" vy="0" fixed="1"/><particle m="1" px="1.5" py="0" vx="0" vy="0" fixed="0"/>
      <edge i="0" j="1"/><springforce edge="0" k="1000" l0="1"/></scene>`);
    const out = join(dir, 'diverge.bin');
    const r = run(['run', scene, '--out', out]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^elastica: .*diverge\.xml: the simulation failed at step \d+ \(t = [\d.]+\): the state became non-finite.*\(particle 1 /);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(out)).toBe(false);
  });

  it('npx elastica works in the repo', () => {
    const r = spawnSync('npx', ['--no-install', 'elastica', '--version'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/elastica/);
  });

  it.sequential('cleanup', () => {
    rmSync(dir, { recursive: true, force: true });
  });
});
