/**
 * `elastica replay <file> --verify [--out states.bin] [--quiet]`: re-simulate a replay (src/replay.ts)
 * headless and compare every recorded state hash. Exit 0 when all match; 1 with the first diverging
 * step and the state's part hashes when one differs; 2 for bad input (unreadable or malformed file).
 * `--out` writes each step's state in FOSSSim's format (positions then velocities per record, the
 * initial state first); FOSSSim's format holds one particle count, so a replay whose bodies come or
 * go stops there with a clear message and leaves no file.
 */
import { readFileSync } from 'node:fs';
import { InputError } from '../errors';
import { readReplay, replay, type ReplayResult } from '../replay';
import { PhysicsWorld } from '../world';
import { StateWriter } from './output';
import { createProgress } from './progress';

export interface ReplayCliOptions {
  file: string;
  verify: boolean;
  out?: string;
  quiet?: boolean;
}

export function runReplay(opts: ReplayCliOptions, print: (line: string) => void): number {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readFileSync(opts.file));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(`${opts.file}: cannot read the replay (${code === 'ENOENT' ? 'no such file' : code ?? String(e)})`);
  }
  let rep;
  try {
    rep = readReplay(bytes);
  } catch (e) {
    if (e instanceof InputError) throw new InputError(`${opts.file}: ${e.message}`);
    throw e;
  }
  const world = PhysicsWorld.fromSnapshot(rep.initial);
  const n = world.particleCount();
  const writer = opts.out ? new StateWriter(opts.out, n) : null;
  const progress = createProgress(rep.header.steps, opts.quiet === true);
  let result: ReplayResult;
  try {
    if (writer) writer.write(world.readPositions(), world.readVelocities());
    result = replay(rep, {
      world,
      onStep: (k, w) => {
        progress.tick(k + 1);
        if (!writer) return;
        if (w.particleCount() !== n) {
          throw new InputError(`${opts.file}: the particle count changes at step ${k} (${n} → ${w.particleCount()}); FOSSSim's state format holds one count, so --out cannot write this replay`);
        }
        writer.write(w.readPositions(), w.readVelocities());
      },
    });
  } catch (e) {
    writer?.abort();
    throw e;
  } finally {
    progress.stop();
  }
  if (writer && result.ok) writer.commit();
  else writer?.abort();
  if (result.ok) {
    if (!opts.quiet) print(`${opts.file}: ${result.steps} steps re-simulated, ${result.hashesCompared} state hashes equal${writer ? `, states written to ${opts.out}` : ''}`);
    return 0;
  }
  const m = result.mismatch!;
  const parts = Object.entries(m.parts).map(([k, v]) => `${k} ${v}`).join(', ');
  const stage = m.stage ? `; the dense state first differed at step ${m.stage.step}, stage '${m.stage.stage}'` : '';
  print(`${opts.file}: the state first differs after step ${m.step}: expected hash ${m.expected}, got ${m.actual} (${parts})${stage}${writer ? '; nothing written' : ''}`);
  return 1;
}
