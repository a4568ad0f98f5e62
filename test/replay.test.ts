/**
 * Recording and replay (src/replay.ts): a scripted session (a drag through an anchor, a moving
 * collider, velocity edits, a body added mid-way, gravity changed) recorded, then re-simulated in a
 * fresh world with every hash equal; a tampered replay is caught at the right step; seeking; bad bytes.
 */
import { describe, expect, it } from 'vitest';
import { PhysicsWorld } from '../src/world';
import { Recorder, readReplay, replay, seek } from '../src/replay';
import { expectReplayMatches, simulateTwiceAndCompare } from '../src/testing';
import { makeJellyPile } from '../src/cli/bench-jellies';
import { InputError } from '../src/errors';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../bin/elastica.mjs', import.meta.url));
const cli = (...args: string[]): { status: number | null; out: string } => {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });
  return { status: r.status, out: r.stdout + r.stderr };
};

/** A world and the session a player would make on it (inputs between steps only). */
function session(steps: number, hashEvery = 1): { bytes: Uint8Array; final: number[]; world: PhysicsWorld } {
  const w = new PhysicsWorld({});
  makeJellyPile(w, 3, 18);
  const paddle = w.addCircleCollider(-0.4, 1.5, 0.1);
  for (let s = 0; s < 10; s++) w.step(); // recording starts mid-game
  const rec = new Recorder(w, { hashEvery, snapshotEvery: 25 });
  const grabbed = w.lists.particles[4]!;
  for (let s = 0; s < steps; s++) {
    if (s === 5) w.setAnchor(grabbed, w.c.Particle.x[grabbed]!, w.c.Particle.y[grabbed]!, 300);
    if (s > 5 && s < 30 && w.anchors.count > 0) w.anchors.setTarget(0, -0.2 + 0.01 * s, 1.0 + 0.005 * s);
    if (s === 30) w.clearAnchors();
    w.setColliderVelocity(paddle, s % 40 < 20 ? 0.5 : -0.5, -0.2);
    if (s === 12) for (const e of w.lists.particles.slice(20, 30)) w.c.Particle.vx[e] = 1.5; // an impulse, through components
    if (s === 40) makeJellyPile(w, 1, 8); // a body added
    if (s === 50) w.removeEntity(w.lists.uniform[0]!); // gravity off
    w.step();
  }
  const bytes = rec.stop();
  return { bytes, final: [...w.readPositions(), ...w.readVelocities()], world: w };
}

describe('replay', () => {
  it('a recorded session re-simulates in a fresh world with every hash equal and the same final state', () => {
    const { bytes, final } = session(70);
    const rep = readReplay(bytes);
    expect(rep.header.steps).toBe(70);
    expect(rep.inputKinds.filter((k) => k !== 0).length).toBeGreaterThan(10); // the inputs were captured
    let last: PhysicsWorld | null = null;
    const res = replay(bytes, { onStep: (_k, w) => { last = w; } });
    expect(res).toEqual({ ok: true, steps: 70, hashesCompared: 70, mismatch: null });
    const w = last! as PhysicsWorld;
    expect([...w.readPositions(), ...w.readVelocities()]).toEqual(final);
    // recording again gives the same bytes: recording itself is deterministic
    expect(session(70).bytes).toEqual(bytes);
  });

  it('hashes every k steps; the first diverging step is reported with the parts that differ', () => {
    const { bytes } = session(40, 4);
    const rep = readReplay(bytes);
    expect(rep.hashes.filter((h) => h !== '').length).toBe(10);
    expect(replay(rep).ok).toBe(true);
    // a world that behaves differently (a system that nudges velocities from step 20 on) diverges there
    const res = replay(bytes, {
      systems: (w) => w.addSystem('forces', (ctx) => {
        if (ctx.stepCount >= 10 + 20) ctx.v[1] = ctx.v[1]! + 1e-9;
      }, { before: true }),
    });
    expect(res.ok).toBe(false);
    expect(res.mismatch!.step).toBe(23); // the first hashed step (every 4th) at or after step 20
    expect(res.mismatch!.expected).not.toBe(res.mismatch!.actual);
  });

  it('seeks to any step through the periodic snapshots', () => {
    const { bytes } = session(60);
    const rep = readReplay(bytes);
    expect(rep.snapshots.size).toBe(2); // after steps 24 and 49
    const w = PhysicsWorld.fromSnapshot(rep.initial);
    for (const k of [55, 10, 49, -1, 24]) {
      seek(rep, k, w);
      if (k >= 0) expect(w.stateHash()).toBe(rep.hashes[k]);
    }
  });

  it('bad replay bytes: a clear InputError', () => {
    const { bytes } = session(12);
    expect(() => readReplay(new Uint8Array(3))).toThrow(/not an Elastica replay/);
    expect(() => readReplay(bytes.slice(0, bytes.length - 3))).toThrow(InputError);
    // the JSON header: its length (u32 code units) at byte 4, then UTF-16LE text
    const other = bytes.slice();
    const n = new DataView(other.buffer).getUint32(4, true);
    const text = new TextDecoder('utf-16le').decode(other.subarray(8, 8 + 2 * n));
    expect(text).toContain('"version":1');
    other[8 + 2 * (text.indexOf('"version":1') + 10)] = '7'.charCodeAt(0); // "version":7
    expect(() => readReplay(other)).toThrow(/version 7/);
    other[8] = 0; // not JSON any more
    expect(() => readReplay(other)).toThrow(/not valid JSON/);
  });

  it('elastica replay --verify: exit 0 when every hash matches, 1 with the first diverging step, 2 for a bad file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'elastica-replay-'));
    const { bytes } = session(20);
    const good = join(dir, 'good.replay');
    writeFileSync(good, bytes);
    const ok = cli('replay', good, '--verify');
    expect(ok.status, ok.out).toBe(0);
    expect(ok.out).toContain('20 steps re-simulated, 20 state hashes equal');
    // step 7's recorded hash altered: the run reports step 7
    const rep = readReplay(bytes);
    const h7 = rep.hashes[7]!;
    const tampered = Buffer.from(bytes);
    const at = tampered.indexOf(Buffer.from(h7, 'utf16le'));
    expect(at).toBeGreaterThan(0);
    Buffer.from(h7[0] === '0' ? '1' : '0', 'utf16le').copy(tampered, at);
    const badHash = join(dir, 'tampered.replay');
    writeFileSync(badHash, tampered);
    const r1 = cli('replay', badHash, '--verify', '--out', join(dir, 's.bin'));
    expect(r1.status, r1.out).toBe(1);
    expect(r1.out).toContain('first differs after step 7');
    expect(existsSync(join(dir, 's.bin'))).toBe(false); // nothing written on a mismatch
    // states written in FOSSSim's format: 21 records of 2 × 2n doubles (bodies are not added in the first 20 steps)
    const r2 = cli('replay', good, '--verify', '--out', join(dir, 's.bin'));
    expect(r2.status, r2.out).toBe(0);
    const n = PhysicsWorld.fromSnapshot(rep.initial).particleCount();
    expect(statSync(join(dir, 's.bin')).size).toBe(21 * 32 * n);
    const garbage = join(dir, 'garbage.replay');
    writeFileSync(garbage, 'not a replay');
    const r3 = cli('replay', garbage, '--verify');
    expect(r3.status).toBe(2);
    expect(r3.out).toMatch(/garbage\.replay: replay: not an Elastica replay/);
    expect(r3.out).not.toMatch(/at .*\.ts:\d+/); // no stack trace
  });

  it('test helpers: simulateTwiceAndCompare and expectReplayMatches (and they can fail)', () => {
    const setup = (): PhysicsWorld => {
      const w = new PhysicsWorld({});
      makeJellyPile(w, 2, 8);
      return w;
    };
    const drive = (w: PhysicsWorld, s: number): void => {
      if (s === 3) w.c.Particle.vx[w.lists.particles[0]!] = 2;
    };
    expect(simulateTwiceAndCompare(setup, 15, drive)).toMatchObject({ equal: true, firstDifference: -1 });
    let calls = 0;
    const uneven = (): PhysicsWorld => {
      const w = setup();
      if (calls++ === 1) w.c.Particle.vy[w.lists.particles[2]!] = 1e-12; // the second world differs by a hair
      return w;
    };
    expect(simulateTwiceAndCompare(uneven, 15).firstDifference).toBe(0);
    const { bytes } = session(15);
    expect(expectReplayMatches(bytes).ok).toBe(true);
    expect(() => expectReplayMatches(bytes, (w) => w.addSystem('solve', (ctx) => { ctx.v[0] = ctx.v[0]! + 1e-6; }))).toThrow(/replay diverged after step 0/);
  });

  it('with stage hashes, a divergence names the first stage whose dense state differed', () => {
    const w = new PhysicsWorld({});
    makeJellyPile(w, 2, 8);
    const rec = new Recorder(w, { stageHashes: true });
    for (let s = 0; s < 12; s++) w.step();
    const bytes = rec.stop();
    expect(readReplay(bytes).stageHashes!.length).toBe(12);
    expect(replay(bytes).ok).toBe(true);
    const res = replay(bytes, {
      systems: (x) => x.addSystem('response', (ctx) => {
        if (ctx.stepCount === 7) ctx.v[3] = ctx.v[3]! + 1e-12;
      }),
    });
    expect(res.ok).toBe(false);
    expect(res.mismatch!.step).toBe(7);
    expect(res.mismatch!.stage).toEqual({ step: 7, stage: 'response' });
  });
});
