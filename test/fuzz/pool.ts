/**
 * Runs fuzz cases on worker threads with a per-case time limit: a case that does not answer in
 * time is a 'hang'; its worker is terminated (V8 stops even a tight loop) and replaced. So a hang
 * is detected, not suffered.
 */
import { Worker } from 'node:worker_threads';
import type { FuzzOptions, Outcome } from './case';

const WORKER = new URL('./worker.mjs', import.meta.url);

export interface PoolOptions {
  workers: number;
  /** Time limit of one case (ms), parse + build + steps. */
  timeoutMs: number;
  onOutcome?: (o: Outcome) => void;
}

/** Run cases [first, first + count); outcomes in index order. */
export async function runCases(options: FuzzOptions, first: number, count: number, pool: PoolOptions): Promise<Outcome[]> {
  const results: Outcome[] = new Array(count);
  let next = first;
  const end = first + count;
  const lane = async (): Promise<void> => {
    let worker = await start();
    while (next < end) {
      const index = next++;
      const outcome = await runOne(worker, options, index, pool.timeoutMs);
      if (outcome.kind === 'hang' || outcome.message.startsWith('worker:')) {
        await worker.terminate();
        worker = await start();
      }
      results[index - first] = outcome;
      pool.onOutcome?.(outcome);
    }
    await worker.terminate();
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(pool.workers, count)) }, lane));
  return results;
}

function start(): Promise<Worker> {
  return new Promise((resolve, reject) => {
    const w = new Worker(WORKER);
    w.once('message', () => resolve(w)); // 'ready'
    w.once('error', reject);
  });
}

function runOne(worker: Worker, options: FuzzOptions, index: number, timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const done = (o: Outcome) => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      resolve(o);
    };
    const onMessage = (o: Outcome) => done(o);
    const onError = (e: Error) => done({ index, kind: 'exception', source: '?', message: `worker: ${e.message}`, ms: performance.now() - t0 });
    const timer = setTimeout(
      () => done({ index, kind: 'hang', source: '?', message: `no answer in ${timeoutMs} ms`, ms: performance.now() - t0 }),
      timeoutMs,
    );
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.postMessage({ options, index });
  });
}
