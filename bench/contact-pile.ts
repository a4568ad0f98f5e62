/**
 * Contact benchmark: ten jellies (~500 triangles each, ~5,000 in all) dropped into a box,
 * contact in the game-mode Newton solve (docs/contact.md). Prints ms/step, candidates,
 * touching pairs, Newton iterations, pattern growths and their cost, KE/peak.
 * Usage: npx tsx bench/contact-pile.ts [steps=120] [trianglesEach=500]
 */
import { PhysicsWorld } from '../src/world';
import { makeJellyPile } from '../src/collision';

const steps = Number(process.argv[2] ?? 120);
const each = Number(process.argv[3] ?? 500);
const w = new PhysicsWorld({});
makeJellyPile(w, 10, each);
const t = w.topology();
const P = w.c.Particle;
let peak = 0, iters = 0, refines = 0;
const t0 = performance.now();
for (let s = 1; s <= steps; s++) {
  w.step();
  iters += w.lastStats.newtonIters;
  refines += w.contacts.refinements;
  let ke = 0;
  for (let i = 0; i < t.n; i++) ke += 0.5 * t.mass[2 * i]! * (P.vx[t.particleEids[i]!]! ** 2 + P.vy[t.particleEids[i]!]! ** 2);
  peak = Math.max(peak, ke);
  if (s % 30 === 0 || s === steps) {
    console.log(JSON.stringify({
      step: s, triangles: t.triangles.count, msPerStep: +((performance.now() - t0) / s).toFixed(1),
      candidates: w.contacts.potential.count, touching: w.contacts.touching, itersPerStep: +(iters / s).toFixed(1), refineSolves: refines,
      patternGrowths: w.contacts.patternGrowths, msPatternGrowth: +w.contacts.msPatternGrowth.toFixed(0), keRatio: +(ke / peak).toExponential(2),
    }));
  }
}
