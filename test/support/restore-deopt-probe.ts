/**
 * Child process of test/restore-deopt.test.ts, run with V8's --trace-deopt --trace-opt: a game world with
 * contact, a circle and a polygon collider and sleeping on steps until its step code is optimized, then
 * restores its own snapshot between two markers. The test reads V8's trace: code optimized before the
 * restore must not be marked for deoptimization by it.
 */
import { PhysicsWorld } from '../../src/world';
import { squareJelly } from './islands';

const w = new PhysicsWorld({ dt: 1 / 60, sleeping: true });
w.contacts.enabled = true;
w.addHalfplane(0, 0, 0, 1);
w.addCircleCollider(0.9, 0.2, 0.3);
w.addPolygonCollider([-1.4, 0.1, -1.0, 0.1, -1.0, 0.5, -1.4, 0.5]);
squareJelly(w, 0, 0.5);
squareJelly(w, 0.1, 1.3);
const steps = Number(process.argv[2] ?? 240);
for (let s = 0; s < steps; s++) w.step();
const bytes = w.snapshot();
for (let s = 0; s < 10; s++) w.step();
console.log('--restore-begin');
w.restore(bytes);
console.log('--restore-end');
w.warmUp({ steps: 30 }); // snapshot, steps, restore, and the StepStats put back
console.log('--warmup-end');
