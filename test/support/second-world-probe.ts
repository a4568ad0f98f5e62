/**
 * Child process of test/late-branches.test.ts, run with --trace-opt --trace-deopt: a level played, then the next
 * level. Each is a contact world with user systems before 'sync' and after 'render' (as the plugin's SoftSim adds
 * them) stepped 400 steps; the second is played between markers. Before, the first world's push of a system
 * changed the hidden class V8 gives a new stage list, and the second world's first step deoptimized the stage
 * runner optimized on the first world's lists (docs/solver.md, "Stop 40").
 */
import { warmUpEngine, PhysicsWorld } from '../../src/world';
import { squareJelly } from './islands';

let calls = 0;
function level(): PhysicsWorld {
  const w = new PhysicsWorld({ dt: 1 / 60 });
  w.contacts.enabled = true;
  w.contacts.friction = 0.5;
  w.addHalfplane(0, 0, 0, 1);
  squareJelly(w, 0, 0.3);
  squareJelly(w, 0.1, 0.9);
  w.addSystem('sync', () => { calls++; }, { before: true });
  w.addSystem('render', () => { calls++; });
  return w;
}

warmUpEngine();
const first = level();
for (let s = 0; s < 400; s++) first.step();
console.log('--second-begin');
const second = level();
for (let s = 0; s < 400; s++) second.step();
console.log('--second-end');
console.log(JSON.stringify({ calls }));
