/**
 * Restoring a world's own snapshot (world.warmUp, a game's rollback) writes only what differs. V8 tracks a
 * field never written since construction as constant, and code optimized against it is deoptimized by any
 * later store to it, even of the value it holds: before, every restore rewrote the contact settings, dt, the
 * Newton settings object, the sleep settings and the polygon vertices, and so deoptimized the pipeline's
 * and the Newton step, the broad phase, the candidate search and the detection, which compiled again during
 * the game's first steps after world.warmUp (docs/solver.md, "Stop 29").
 */
import { describe, expect, it } from 'vitest';
import { PhysicsWorld } from '../src/world';
import { squareJelly } from './support/islands';
import { runTraced, turbofanCompiled } from './support/v8-trace';

function world(): PhysicsWorld {
  const w = new PhysicsWorld({ dt: 1 / 60, sleeping: true });
  w.contacts.enabled = true;
  w.contacts.friction = 0.4;
  w.addHalfplane(0, 0, 0, 1);
  w.addPolygonCollider([-1.4, 0.1, -1.0, 0.1, -1.0, 0.5, -1.4, 0.5]);
  squareJelly(w, 0, 0.4);
  return w;
}

/** Replace obj's own data fields by accessors that count stores; returns the counter. */
function countStores(obj: object): { n: number; fields: string[] } {
  const c = { n: 0, fields: [] as string[] };
  for (const k of Object.keys(obj)) {
    let v = (obj as Record<string, unknown>)[k];
    Object.defineProperty(obj, k, {
      get: () => v,
      set: (x: unknown) => { c.n++; c.fields.push(k); v = x; },
      enumerable: true, configurable: true,
    });
  }
  return c;
}

describe('restore writes only what differs', () => {
  it('keeps the contact settings, the Newton settings object, dt and the polygon vertices when they hold the snapshot\'s values', () => {
    const w = world();
    for (let s = 0; s < 20; s++) w.step();
    const bytes = w.snapshot();
    for (let s = 0; s < 5; s++) w.step();
    const contact = w.contacts as unknown as { settings: object; colliders: { polyLocal: Float64Array } };
    const stores = countStores(contact.settings);
    const newton = w.newton, poly = contact.colliders.polyLocal;
    w.restore(bytes);
    expect(stores.fields).toEqual([]);
    expect(w.newton).toBe(newton);
    expect(contact.colliders.polyLocal).toBe(poly);
    expect(Array.from(w.snapshot())).toEqual(Array.from(bytes));
    // a snapshot whose settings differ still sets them
    w.contacts.friction = 0.7;
    w.newton = { ...(w.newton as object), tolerance: 2e-6 } as typeof w.newton;
    w.restore(bytes);
    expect(w.contacts.friction).toBe(0.4);
    expect((w.newton as { tolerance: number }).tolerance).toBe(1e-6);
    expect(Array.from(w.snapshot())).toEqual(Array.from(bytes));
  });

  it('world.warmUp puts StepStats back into the same arrays', () => {
    const w = world();
    for (let s = 0; s < 3; s++) w.step();
    const stageMs = w.lastStats.stageMs, iters = w.lastStats.newtonIters;
    w.warmUp({ steps: 10 });
    expect(w.lastStats.stageMs).toBe(stageMs);
    expect(w.lastStats.newtonIters).toBe(iters);
  });

  it('V8 marks no optimized code for deoptimization while a world restores its own snapshot', () => {
    const r = runTraced('./restore-deopt-probe.ts', ['--trace-opt', '--trace-deopt']);
    expect(r.status, r.stderr).toBe(0);
    const begin = r.lines.indexOf('--restore-begin');
    expect(begin).toBeGreaterThan(0);
    expect(r.lines).toContain('--restore-end');
    // the code the restore used to deoptimize was optimized before it (else this test could not fail)
    const before = r.lines.slice(0, begin).join('\n');
    for (const f of ['detect', 'search', 'boxes']) expect(before).toMatch(turbofanCompiled(f));
    const marked = r.between('--restore-begin', '--restore-end').filter((l) => l.includes('marking dependent code'));
    expect(marked).toEqual([]);
  }, 60_000);
});
