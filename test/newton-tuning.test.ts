/**
 * The Newton solver's tuning fields (src/solver/newton.ts NewtonTuning: what a game or a test sets on
 * world.newtonSolver()) survive the solver's replacement: a contact-pattern growth or a topology
 * change makes a new solver, which takes its predecessor's tuning (src/solver/context.ts dropSolver).
 * Before, the new solver came with the defaults, so a setting was silently lost at the first
 * body–body contact.
 */
import { describe, expect, it } from 'vitest';
import { PhysicsWorld } from '../src/world';
import { squareJelly as jelly } from './support/islands';

describe('Newton solver tuning', () => {
  it('survives a contact-pattern growth (one jelly dropped onto another) and a topology change', () => {
    const w = new PhysicsWorld({ dt: 1 / 60 });
    w.contacts.enabled = true;
    w.addHalfplane(0, 0, 0, 1);
    jelly(w, 0, 0.25);
    jelly(w, 0.1, 1.2);
    w.step();
    const first = w.newtonSolver();
    first.slowChord = 0;
    first.restChord = false;
    first.chordWithin = 50;
    first.skipHeldIslands = false;
    first.islandConvergence = false;
    first.chordChain = 1;
    first.contractionMax = 0.02;
    const expectTuned = (): void => {
      const s = w.newtonSolver();
      expect(s.slowChord).toBe(0);
      expect(s.restChord).toBe(false);
      expect(s.chordWithin).toBe(50);
      expect(s.skipHeldIslands).toBe(false);
      expect(s.islandConvergence).toBe(false);
      expect(s.chordChain).toBe(1);
      expect(s.contractionMax).toBe(0.02);
    };
    let replaced = 0, seen = first;
    for (let s = 0; s < 90; s++) {
      w.step();
      if (w.newtonSolver() !== seen) {
        replaced++;
        seen = w.newtonSolver();
      }
      expectTuned();
    }
    expect(replaced).toBeGreaterThan(0); // the landing grew the pattern
    jelly(w, 1, 0.25); // a topology change
    w.step();
    expect(w.newtonSolver()).not.toBe(seen);
    expectTuned();
  }, 60_000);
});
