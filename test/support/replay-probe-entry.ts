/**
 * Bundle entry for the cross-engine replay test (test/replay-engines.test.ts): re-simulates a replay
 * recorded in Node (embedded as base64 by the bundler) and prints "ok|diverged steps hashes final-hash".
 * Runs unchanged in Node and in JavaScriptCore's shell (no atob there: a small decoder here).
 */
import { readReplay, replay } from '../../src/replay';
import type { PhysicsWorld } from '../../src/world';

declare const __REPLAY_BASE64__: string;

function decodeBase64(s: string): Uint8Array {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const val = new Int32Array(128).fill(-1);
  for (let i = 0; i < alphabet.length; i++) val[alphabet.charCodeAt(i)] = i;
  const clean = s.replace(/=+$/, '');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0, nbits = 0, o = 0;
  for (let i = 0; i < clean.length; i++) {
    bits = (bits << 6) | val[clean.charCodeAt(i)]!;
    nbits += 6;
    if (nbits >= 8) {
      nbits -= 8;
      out[o++] = (bits >> nbits) & 0xff;
    }
  }
  return out;
}

const rep = readReplay(decodeBase64(__REPLAY_BASE64__));
let last: PhysicsWorld | null = null;
const r = replay(rep, { onStep: (_k, w) => { last = w; } });
const line = `${r.ok ? 'ok' : `diverged-at-${r.mismatch!.step}`} ${r.steps} ${r.hashesCompared} ${(last as PhysicsWorld | null)?.stateHash() ?? '-'}`;
const g = globalThis as unknown as { print?: (s: string) => void };
if (typeof g.print === 'function') g.print(line);
else console.log(line);
