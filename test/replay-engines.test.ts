/**
 * A replay recorded in Node (V8) re-simulates in JavaScriptCore with every state hash equal: the
 * same bundle verifies it in both engines (as test/determinism-engines does for the probes).
 */
import { describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PhysicsWorld } from '../src/world';
import { Recorder } from '../src/replay';
import { makeJellyPile } from '../src/cli/bench-jellies';

const JSC = ['/usr/bin/jsc'].find((p) => existsSync(p));
const ENTRY = fileURLToPath(new URL('./support/replay-probe-entry.ts', import.meta.url));

/** A scripted session: drag, moving collider, a velocity edit, a body added. */
function record(): { bytes: Uint8Array; finalHash: string } {
  const w = new PhysicsWorld({});
  makeJellyPile(w, 2, 18);
  const paddle = w.addCircleCollider(-0.3, 1.4, 0.1);
  const rec = new Recorder(w, { hashEvery: 1, snapshotEvery: 50 });
  const e = w.lists.particles[3]!;
  for (let s = 0; s < 60; s++) {
    if (s === 4) w.setAnchor(e, w.c.Particle.x[e]!, w.c.Particle.y[e]!, 400);
    if (w.anchors.count > 0) w.anchors.setTarget(0, -0.2 + 0.01 * s, 1.1);
    if (s === 25) w.clearAnchors();
    w.setColliderVelocity(paddle, s % 30 < 15 ? 0.6 : -0.6, -0.1);
    if (s === 10) w.c.Particle.vy[w.lists.particles[20]!] = 2;
    if (s === 35) makeJellyPile(w, 1, 8);
    w.step();
  }
  return { bytes: rec.stop(), finalHash: w.stateHash() };
}

describe('replays across JavaScript engines', () => {
  it.skipIf(!JSC && !process.env.CI)(`a Node-recorded replay verifies in Node and in JavaScriptCore${JSC ? '' : ' — skipped: /usr/bin/jsc missing'}`, async () => {
    if (!JSC) throw new Error('/usr/bin/jsc is missing: .ci/run should have installed libjavascriptcoregtk-4.0-bin');
    const { bytes, finalHash } = record();
    const dir = mkdtempSync(join(tmpdir(), 'elastica-replay-engines-'));
    try {
      const out = join(dir, 'probe.js');
      await build({
        entryPoints: [ENTRY], bundle: true, format: 'iife', platform: 'browser', outfile: out, logLevel: 'silent',
        define: { __REPLAY_BASE64__: JSON.stringify(Buffer.from(bytes).toString('base64')) },
      });
      const v8 = spawnSync(process.execPath, [out], { encoding: 'utf8' });
      const jsc = spawnSync(JSC!, [out], { encoding: 'utf8' });
      expect(v8.status, v8.stderr).toBe(0);
      expect(jsc.status, jsc.stderr).toBe(0);
      const expected = `ok 60 60 ${finalHash}`;
      expect(v8.stdout.trim()).toBe(expected);
      expect(jsc.stdout.trim()).toBe(expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
