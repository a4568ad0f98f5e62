/**
 * Recording and replay (src/replay.ts): a scripted session (a drag through an anchor, a moving
 * collider, velocity edits, a body added mid-way, gravity changed) recorded, then re-simulated in a
 * fresh world with every hash equal; a tampered replay is caught at the right step; seeking; bad bytes.
 */
import { describe, expect, it } from 'vitest';
import { PhysicsWorld } from '../src/world';
import { Recorder, readReplay, replay, seek } from '../src/replay';
import { makeJellyPile } from '../src/collision/jelly';
import { InputError } from '../src/errors';

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
});
