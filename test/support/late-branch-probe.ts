/**
 * Child process of test/late-branches.test.ts, run with --allow-natives-syntax --trace-deopt: a branch a game
 * first takes long after the code was optimized must not deoptimize it. PatternBook.commit (inlined in the
 * candidate search) is optimized while every contact-pattern rebuild asked for is granted; then rebuilds are
 * refused, as a landing pile's are once its tokens are spent, and a jelly lands on another (deferred rebuilds).
 * Prints markers around that phase and a JSON line: optimization status before and after, deferred rebuilds.
 */
import { PhysicsWorld } from '../../src/world';
import { squareJelly } from './islands';

const status = new Function('f', 'return %GetOptimizationStatus(f)') as (f: unknown) => number;
const prepare = new Function('f', '%PrepareFunctionForOptimization(f)') as (f: unknown) => void;
const optimizeNext = new Function('f', '%OptimizeFunctionOnNextCall(f)') as (f: unknown) => void;
const neverOptimize = new Function('f', '%NeverOptimizeFunction(f)') as (f: unknown) => void;
const OPTIMIZED = 16; // V8's OptimizationStatus::kOptimized

const w = new PhysicsWorld({ dt: 1 / 60 });
w.contacts.enabled = true;
w.contacts.rebuildBurst = 1000;
w.contacts.rebuildRate = 1000;
w.addHalfplane(0, 0, 0, 1);
// the candidate search stays interpreted, so it calls commit itself: optimized, the search would inline commit, and
// commit called from nowhere else could never be optimized on its own (when V8 optimized the search before step 30,
// as it did once the Newton step changed, the test's precondition failed)
neverOptimize(Object.getPrototypeOf((w as unknown as { pipeline: { contact: { search: object } } }).pipeline.contact.search).search);
squareJelly(w, -1, 0.25); // rests on the floor
squareJelly(w, -1, 2.6); // falls for about 0.6 s, then lands on the first
// lands on the floor within the first half second (rebuilds granted)
for (const e of squareJelly(w, 0.5, 1.4)) w.c.Particle.vy[e] = -4;
for (let s = 0; s < 30; s++) w.step();
const book = (w as unknown as { pipeline: { contact: { book: object } } }).pipeline.contact.book;
const commit = Object.getPrototypeOf(book).commit as unknown;
// optimize commit; if a step ends with it not optimized (seen once in 4 full CI runs, under the suite's load; not
// reproduced alone), ask again on the next steps, at most 3 times: the test needs it optimized before the late phase
let before = 0;
for (let attempt = 0; attempt < 3 && (before & OPTIMIZED) === 0; attempt++) {
  prepare(commit);
  w.step();
  optimizeNext(commit);
  w.step();
  before = status(commit);
}
// from now on no rebuild is granted: the second jelly's landing queues pairs that wait
w.contacts.rebuildBurst = 0;
w.contacts.rebuildRate = 0;
const deferred0 = w.contacts.deferredRebuilds;
console.log('--late-begin');
for (let s = 0; s < 60; s++) w.step();
console.log('--late-end');
const after = status(commit);
console.log(JSON.stringify({ optimizedBefore: (before & OPTIMIZED) !== 0, statusBefore: before, optimizedAfter: (after & OPTIMIZED) !== 0, deferred: w.contacts.deferredRebuilds - deferred0 }));
