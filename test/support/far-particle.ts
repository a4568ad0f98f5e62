/**
 * Child-process driver of test/hostile-hash.test.ts: one particle at x = argv[2] (may be far beyond
 * the coordinate range of src/ranges.ts, which the loader and add* enforce: the dynamics or a game
 * writing the components can still put a body there, so the values are written into the
 * components after creation) near a circle of radius argv[3], game contact, integrator argv[4],
 * 10 steps. Prints "done" when the steps finish.
 */
import { PhysicsWorld } from '../../src/world';
import type { IntegratorType } from '../../src/solver/context';

const [px, radius, integrator] = [Number(process.argv[2]), Number(process.argv[3]), process.argv[4] as IntegratorType];
const world = new PhysicsWorld({ dt: 0.01, gravity: null, integrator });
world.contacts.enabled = true;
const p = world.addParticle({ x: 0, y: 0, m: 1 });
const c = world.addCircleCollider(0, -5, 1);
world.c.Particle.x[p] = px;
world.c.Collider.radius[c] = radius;
for (let s = 0; s < 10; s++) world.step();
process.stdout.write('done\n');
