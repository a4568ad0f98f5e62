/** Fuzz worker: runs the cases the pool sends ({ options, index }) and posts their outcomes. */
import { parentPort } from 'node:worker_threads';
import { runCase, type FuzzOptions } from './case';

parentPort!.on('message', (m: { options: FuzzOptions; index: number }) => {
  parentPort!.postMessage(runCase(m.options, m.index));
});
parentPort!.postMessage('ready');
