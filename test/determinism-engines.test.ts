/**
 * Determinism across JavaScript engines: the same bundle of the engine runs in
 * Node (V8) and in JavaScriptCore (Debian's `jsc`), and every probe hash
 * (deterministic math, the mesher, FOSSSim scenes on each integrator path, a
 * game-mode pile with contact) must be identical.
 */
import { describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const JSC = ['/usr/bin/jsc'].find((p) => existsSync(p));
const ENTRY = fileURLToPath(new URL('./support/engine-probe-entry.ts', import.meta.url));

describe('bit-identical results across JavaScript engines', () => {
  // In CI (.ci/run installs jsc) a missing engine is a failure, not a skip.
  it.skipIf(!JSC && !process.env.CI)(`V8 (node) and JavaScriptCore (jsc) agree on every probe${JSC ? '' : ' — skipped: /usr/bin/jsc missing (apt-get install libjavascriptcoregtk-4.0-bin)'}`, async () => {
    if (!JSC) throw new Error('/usr/bin/jsc is missing: .ci/run should have installed libjavascriptcoregtk-4.0-bin');
    const dir = mkdtempSync(join(tmpdir(), 'elastica-engines-'));
    try {
      const stub = join(dir, 'stub-fs.js');
      writeFileSync(stub, "export function readFileSync() { throw new Error('no file system here'); }\n");
      const out = join(dir, 'probe.js');
      await build({
        entryPoints: [ENTRY], bundle: true, format: 'iife', platform: 'browser', outfile: out,
        loader: { '.xml': 'text' }, alias: { 'node:fs': stub }, logLevel: 'silent',
      });
      const v8 = spawnSync(process.execPath, [out], { encoding: 'utf8' });
      const jsc = spawnSync(JSC!, [out], { encoding: 'utf8' });
      expect(v8.status, v8.stderr).toBe(0);
      expect(jsc.status, jsc.stderr).toBe(0);
      const a = v8.stdout.trim().split('\n');
      const b = jsc.stdout.trim().split('\n');
      expect(a.length).toBe(12);
      // Every probe produced a hash, and the probes differ from each other (they really ran).
      expect(new Set(a.map((l) => l.split(' ')[1])).size).toBe(a.length);
      expect(b).toEqual(a);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
