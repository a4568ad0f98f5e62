/**
 * `elastica replay <file> --verify [--out states.bin] [--quiet]`: re-simulate a replay (src/replay.ts)
 * headless and compare every recorded state hash. Exit 0 when all match; 1 with the first diverging
 * step and the state's part hashes when one differs; 2 for bad input (unreadable or malformed file).
 * `--out` writes each step's state in FOSSSim's format (positions then velocities per record, the
 * initial state first); FOSSSim's format holds one particle count, so a replay whose bodies come or
 * go stops there with a clear message and leaves no file. Every failure names the file (a bad initial
 * snapshot or input too); a step that fails (SimulationError) exits 3; SIGINT / SIGTERM / SIGHUP stop
 * the run at its next yield (every 50 ms), remove the temporary state file and exit 128 + n.
 */
import { readFileSync } from 'node:fs';
import { InputError, SimulationError } from '../errors';
import { readReplay, replaySteps, type ReplayResult } from '../replay';
import { PhysicsWorld } from '../world';
import { StateWriter } from './output';
import { createProgress } from './progress';
import { CliExit } from './exit';
import { watchSignals, yieldToSignals, type SignalWatch } from './signals';

export interface ReplayCliOptions {
  file: string;
  verify: boolean;
  out?: string;
  quiet?: boolean;
}

export async function runReplay(opts: ReplayCliOptions, print: (line: string) => void): Promise<number> {
  const signals = watchSignals();
  try {
    return await verify(opts, print, signals);
  } catch (e) {
    // every failure names the file: a bad initial snapshot or input ("snapshot: …"), a failed step
    if (e instanceof InputError && !e.message.startsWith(`${opts.file}: `)) throw new InputError(`${opts.file}: ${e.message}`);
    if (e instanceof SimulationError) throw new CliExit(`${opts.file}: ${e.message}`, 3);
    throw e;
  } finally {
    signals.dispose();
  }
}

async function verify(opts: ReplayCliOptions, print: (line: string) => void, signals: SignalWatch): Promise<number> {
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readFileSync(opts.file));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(`${opts.file}: cannot read the replay (${code === 'ENOENT' ? 'no such file' : code ?? String(e)})`);
  }
  const rep = readReplay(bytes);
  const world = PhysicsWorld.fromSnapshot(rep.initial);
  const n = world.particleCount();
  const stop = (k: number) => signals.stopIfSignalled(`${opts.file}: stopped by`, `after step ${k}; nothing written`);
  await yieldToSignals();
  stop(0);
  const writer = opts.out ? new StateWriter(opts.out, n) : null;
  const progress = createProgress(rep.header.steps, opts.quiet === true);
  let result: ReplayResult;
  const steps = replaySteps(rep, {
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
  try {
    if (writer) writer.write(world.readPositions(), world.readVelocities());
    let lastYield = Date.now();
    for (;;) {
      const r = steps.next();
      if (r.done) {
        result = r.value;
        break;
      }
      if (Date.now() - lastYield >= YIELD_MS) {
        await yieldToSignals();
        stop(r.value + 1);
        lastYield = Date.now();
      }
    }
    await yieldToSignals();
    stop(result.steps);
  } catch (e) {
    steps.return(undefined as never);
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

/** Yield to signal handlers at most every this many ms. */
const YIELD_MS = 50;
