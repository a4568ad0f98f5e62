/**
 * Run by test/shapes.test.ts in a child process with V8's --allow-natives-syntax: whether the engine's
 * objects keep one V8 object shape ("map") across the things a game does. When a store changes a
 * field's representation (a small integer field given 1.5, or a heap number read from a
 * Float64Array), V8 makes a new shape and deprecates the old one for every object that had it, in
 * every world, and the optimized code compiled against it deoptimizes on each of them (docs/solver.md,
 * "Stop 23"). Prints one JSON object: the paths whose shapes differ, per probe.
 */
import { PhysicsWorld } from '../../src/world';
import { makeJellyPile } from '../../src/cli/bench-jellies';

const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
const smiElements = new Function('a', 'return %HasSmiElements(a)') as (a: unknown[]) => boolean;

function pile(): PhysicsWorld {
  const w = new PhysicsWorld({ dt: 1 / 60, integrator: 'implicit-euler' });
  makeJellyPile(w, 2, 32);
  w.sleeping = true;
  return w;
}

/** Paths (from the pipeline) of plain objects and class instances whose maps differ between a and b. */
function differing(a: object, b: object): string[] {
  const out: string[] = [];
  const seen = new Set<object>();
  const walk = (x: unknown, y: unknown, path: string, depth: number): void => {
    if (depth > 6 || x === null || typeof x !== 'object' || y === null || typeof y !== 'object') return;
    if (seen.has(x) || ArrayBuffer.isView(x) || Array.isArray(x) || x instanceof Map || x instanceof Set) return;
    seen.add(x);
    if (!sameMap(x, y)) out.push(path);
    for (const k of Object.keys(x)) if (k in y) walk((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k], `${path}.${k}`, depth + 1);
  };
  walk(a, b, 'world', 0);
  return out;
}

const result: Record<string, string[]> = {};

// Each probe compares a world made before something happened in another world with one made after:
// a shape deprecated on the way shows as a difference (objects are moved to the new shape only when
// touched, and the early world is not).

// 0. The contact event lists of a world made after another world's contact steps: arrays of objects from the
// start. A list made as small integers changes its elements kind at its first event, and the compiled events code,
// which had only met lists of objects, was deoptimized in the new world's first contact step. First of the probes:
// once enough worlds have run, V8's allocation sites may learn the kind by themselves and hide the difference.
{
  const other = pile();
  for (let s = 0; s < 60; s++) other.step();
  const late = pile();
  const log = (late as unknown as { pipeline: { contact: { log: Record<string, unknown[]> } } }).pipeline.contact.log;
  result.eventLists = ['begin', 'end', 'active', 'pool', 'prevPool'].filter((k) => smiElements(log[k]!));
}

// 1. A world made before another world's first profiled step (its stats' stepMs set to a fraction).
{
  const early = pile();
  const other = pile();
  other.profile = true;
  for (let s = 0; s < 3; s++) other.step();
  const late = pile();
  result.profiledStep = differing(early.lastStats, late.lastStats).map((p) => p.replace('world', 'stats'));
}

// 2. A world made before another world restored a snapshot and stepped on.
{
  const early = pile();
  const a = pile(), b = pile();
  for (let s = 0; s < 20; s++) a.step();
  b.restore(a.snapshot());
  for (let s = 0; s < 3; s++) b.step();
  const late = pile();
  result.restore = [...differing(early.pipeline, late.pipeline), ...differing(early.lastStats, late.lastStats).map((p) => p.replace('world', 'stats'))];
  // the restored world's own Newton settings object: the same shape as a new world's
  if (!sameMap(b.newton as object, late.newton as object)) result.restore.push('restored newton settings');
}

console.log(JSON.stringify(result));
