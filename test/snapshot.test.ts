/**
 * Snapshots (src/systems/snapshot.ts): snapshot at step N, restore into a fresh world (or the same
 * world after it diverged), step k more → bit-identical to the uninterrupted run, for every
 * integrator, every material, contact with kinematic colliders, anchors, a topology change in
 * between, and the PCG path's reused factor; the state hash; bad bytes rejected, world unchanged.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { addComponent, addEntity } from 'bitecs';
import { PhysicsWorld } from '../src/world';
import { parseSceneXml } from '../src/scene/xml';
import { buildScene } from '../src/scene/build';
import { makeJellyPile } from '../src/cli/bench-jellies';
import { buildJelly } from '../src/cli/bench-jellies';
import { MATERIAL_NAMES } from '../src/elements';
import { InputError } from '../src/errors';

function state(w: PhysicsWorld): number[] {
  return [...w.readPositions(), ...w.readVelocities()];
}

/** Step n times (calling drive(world, step) first each time). */
function run(w: PhysicsWorld, n: number, drive?: (w: PhysicsWorld, s: number) => void): void {
  for (let s = 0; s < n; s++) {
    drive?.(w, w.stepCount);
    w.step();
  }
}

/**
 * The guarantee: `make` builds a world, N steps, snapshot, k steps → reference; a fresh world
 * restored from the snapshot and stepped k times equals it bit for bit (state and hash); so does the
 * original world restored after it diverged.
 */
function checkRestore(make: () => PhysicsWorld, N: number, k: number, drive?: (w: PhysicsWorld, s: number) => void): void {
  const a = make();
  run(a, N, drive);
  const snap = a.snapshot();
  const hashAtN = a.stateHash();
  run(a, k, drive);
  const ref = state(a), refHash = a.stateHash();
  const b = PhysicsWorld.fromSnapshot(snap);
  expect(b.stateHash()).toBe(hashAtN);
  expect(b.stepCount).toBe(N);
  run(b, k, drive);
  expect(state(b)).toEqual(ref);
  expect(b.stateHash()).toBe(refHash);
  // the same world, restored after it went on
  a.restore(snap);
  expect(a.stateHash()).toBe(hashAtN);
  run(a, k, drive);
  expect(state(a)).toEqual(ref);
}

/**
 * A clamped jelly of `triangles` settled by N steps carries a rest-chord factor (and the iterate it was
 * assembled at) that its next k steps use, and checkRestore holds across it.
 */
function checkRestChords(triangles: number, N: number, k: number): void {
  const make = (): PhysicsWorld => {
    const w = new PhysicsWorld({});
    buildJelly(triangles, w);
    return w;
  };
  const probe = make();
  run(probe, N);
  const f = probe.newtonSolver().reusedFactor(probe.pipeline.ctx.workspace);
  expect(f).not.toBeNull();
  expect(f!.at.length).toBe(probe.pipeline.ctx.topology.ndof);
  const r0 = probe.newtonSolver().restChordIters;
  run(probe, k);
  expect(probe.newtonSolver().restChordIters - r0).toBeGreaterThan(k / 2);
  checkRestore(make, N, k);
}

function scene(path: string): () => PhysicsWorld {
  const text = readFileSync(new URL(`../assets/scenes/fosssim/${path}`, import.meta.url), 'utf8');
  return () => buildScene(parseSceneXml(text, path)).world;
}

describe('snapshot and restore', () => {
  it('FOSSSim scenes on every integrator continue bit-identically', () => {
    for (const p of ['t4m1/CSTTests/test07.xml', 't4m1/CSTTests/test07_implicit.xml', 't4m1/BendingTests/test08.xml',
      'basic/t1m3/SpringTests/test00linearizedimplicit.xml', 'basic/t1m2/LinearDragTests/test00symplectic.xml']) {
      checkRestore(scene(p), 7, 9);
    }
  });

  it('FOSSSim simple collisions (half-planes) continue bit-identically', () => {
    checkRestore(scene('basic/t2m1/HalfplaneTests/test01.xml'), 20, 30);
  });

  it('game mode: every material, lumped and consistent mass', () => {
    for (const material of MATERIAL_NAMES) {
      for (const massMatrix of ['lumped', 'consistent'] as const) {
        checkRestore(() => {
          const w = new PhysicsWorld({ massMatrix });
          buildJelly(120, w, material);
          const P = w.c.Particle;
          for (const e of w.lists.particles) if (P.fixed[e] === 0) P.vx[e] = 2 * (P.y[e]! - 0.5); // a shear kick
          return w;
        }, 6, 10);
      }
    }
  });

  it('contact pile with moving kinematic colliders (circle, segment, polygon), through landing and pattern growth', () => {
    const make = (): PhysicsWorld => {
      const w = new PhysicsWorld({});
      makeJellyPile(w, 4, 32);
      w.addCircleCollider(-0.3, 1.6, 0.12);
      w.addSegmentCollider(0.1, 1.9, 0.5, 2.0);
      w.addPolygonCollider([0.3, 1.2, 0.5, 1.2, 0.4, 1.35]);
      return w;
    };
    const drive = (w: PhysicsWorld, s: number): void => {
      const [c, g, p] = w.colliders;
      w.setColliderVelocity(c!, 0.4 * (s % 60 < 30 ? 1 : -1), -0.3, 1);
      w.setColliderVelocity(g!, 0, -0.5, -0.5);
      w.moveColliderTo(p!, 0.3 + 0.002 * s, 1.2 - 0.004 * s, 0.01 * s);
    };
    checkRestore(make, 40, 40, drive);
    const w = make();
    run(w, 80, drive);
    expect(w.contacts.patternGrowths).toBeGreaterThan(0); // the pattern book's state was exercised
  });

  it('a driven paddle pressed into a stack carries its yield flags (the optional yield section) bit-identically', () => {
    // The paddle dives into the top jelly of a stack: its particles are left inside it (a pressed body) and flagged,
    // and a flagged particle's pair stays covered at the next response (src/collision/response.ts). The flags are part
    // of the state and its hash: a restore that dropped them read another hash.
    const make = (): PhysicsWorld => {
      const w = new PhysicsWorld({});
      makeJellyPile(w, 2, 32, { material: 'neohookean', youngsModulus: 8e4, columns: 1 });
      w.addCircleCollider(0, 1.45, 0.15);
      return w;
    };
    const drive = (w: PhysicsWorld, s: number): void => w.setColliderVelocity(w.colliders[0]!, 0, s < 60 ? -1 : 0.3);
    checkRestore(make, 55, 15, drive);
    // a forged mark (not a collider's entity id + 1) is refused with the particle named, the world unchanged
    const w = make();
    run(w, 55, drive);
    const held = (w as unknown as { pipeline: { contact: { response: { yieldNext: Int32Array } } } }).pipeline.contact.response.yieldNext;
    const i = held.findIndex((v) => v !== 0);
    expect(i).toBeGreaterThanOrEqual(0); // the paddle holds a particle here
    const good = w.snapshot();
    held[i] = 12345;
    const forged = w.snapshot();
    w.restore(good);
    const before = w.stateHash();
    expect(() => w.restore(forged)).toThrow(new RegExp(`yield of particle ${i} is 12345; expected 0 or a collider's entity id \\+ 1`));
    expect(w.stateHash()).toBe(before);
  });

  it('an anchored (dragged) particle continues bit-identically', () => {
    checkRestore(() => {
      const w = new PhysicsWorld({});
      buildJelly(100, w);
      const e = w.lists.particles[w.lists.particles.length - 1]!;
      w.setAnchor(e, w.c.Particle.x[e]!, w.c.Particle.y[e]!, 500);
      return w;
    }, 5, 12, (w, s) => w.anchors.setTarget(0, 1 + 0.01 * s, 1.2));
  });

  it('a topology change after the restore (bodies added, bitECS entities, removals) stays identical', () => {
    const make = (): PhysicsWorld => {
      const w = new PhysicsWorld({});
      makeJellyPile(w, 2, 18);
      return w;
    };
    const change = (w: PhysicsWorld, s: number): void => {
      if (s === 12) makeJellyPile(w, 1, 8); // a new body (and new half-planes)
      if (s === 15) w.removeEntity(w.lists.triangles[3]!);
      if (s === 18) {
        // a particle made through bitECS: its id comes from the restored entity index
        const e = addEntity(w.ecs);
        addComponent(w.ecs, e, w.c.Particle);
        const P = w.c.Particle;
        P.x[e] = 0.1;
        P.y[e] = 2;
        P.m[e] = 0.1;
      }
    };
    checkRestore(make, 10, 20, change);
  });

  it('the PCG path carries its reused LDLᵀ factor', () => {
    checkRestore(() => {
      const w = new PhysicsWorld({});
      buildJelly(10000, w); // ~10k dofs: PCG with a reused factor
      const P = w.c.Particle;
      for (const e of w.lists.particles) if (P.fixed[e] === 0) P.vx[e] = P.y[e]! - 0.5;
      return w;
    }, 3, 6);
  });

  it('the direct path carries its rest-chord factor and the iterate it was assembled at', () => {
    // a clamped jelly settled by 150 steps: its steps start with rest chords on the last Newton factor
    checkRestChords(400, 150, 20);
  });

  it('a snapshot taken between an anchor change and the next step (rest chords pending): bit-identical', () => {
    // a settled clamped jelly, rest chords on; an anchor set (then cleared) just before the snapshot
    const settled = (): PhysicsWorld => {
      const w = new PhysicsWorld({});
      buildJelly(400, w);
      run(w, 150);
      return w;
    };
    for (const change of ['set', 'clear'] as const) {
      const a = settled();
      const e = a.lists.particles[a.lists.particles.length - 1]!;
      a.setAnchor(e, a.c.Particle.x[e]!, a.c.Particle.y[e]!, 500);
      if (change === 'clear') {
        run(a, 5);
        a.clearAnchors();
      }
      const snap = a.snapshot();
      run(a, 20);
      const b = PhysicsWorld.fromSnapshot(snap);
      run(b, 20);
      expect(state(b), change).toEqual(state(a));
    }
  });

  it('the PCG path carries the rest-chord state with its reused factor', () => {
    checkRestChords(10000, 120, 10); // ~10k dofs: PCG with a reused factor
  }, 60_000);

  it('the state hash: equal worlds equal hashes, one bit of difference a different hash; restored twice, the same', () => {
    const a = new PhysicsWorld({});
    buildJelly(60, a);
    run(a, 5);
    const snap = a.snapshot();
    const b = PhysicsWorld.fromSnapshot(snap), c = PhysicsWorld.fromSnapshot(snap);
    expect(b.stateHash()).toBe(c.stateHash());
    expect(b.stateHash()).toMatch(/^[0-9a-f]{16}$/);
    b.restore(snap);
    expect(b.stateHash()).toBe(c.stateHash());
    const e = b.lists.particles[7]!;
    const vx = b.c.Particle.vx[e]!;
    b.c.Particle.vx[e] = vx === 0 ? (Object.is(vx, -0) ? 0 : -0) : vx * (1 + Number.EPSILON); // one bit
    expect(b.stateHash()).not.toBe(c.stateHash());
    expect(b.stateHashes().velocities).not.toBe(c.stateHashes().velocities);
    expect(b.stateHashes().positions).toBe(c.stateHashes().positions);
  });

  it('bad bytes: a clear InputError and the world unchanged', () => {
    const w = new PhysicsWorld({});
    makeJellyPile(w, 1, 8);
    run(w, 3);
    const good = w.snapshot();
    run(w, 2);
    const before = w.stateHash();
    const bad: [string, Uint8Array, RegExp][] = [
      ['empty', new Uint8Array(0), /not an Elastica snapshot/],
      ['not a snapshot', new TextEncoder().encode('<scene></scene>'), /not an Elastica snapshot/],
      ['truncated', good.slice(0, good.length - 5), /truncated|should be/],
      ['corrupted', (() => { const b = good.slice(); b[b.length - 9]! ^= 0x10; return b; })(), /checksum mismatch/],
      ['other version', (() => { const b = good.slice(); b[4] = 99; return b; })(), /format version 99/],
    ];
    for (const [what, bytes, msg] of bad) {
      expect(() => w.restore(bytes), what).toThrow(InputError);
      expect(() => w.restore(bytes), what).toThrow(msg);
      expect(w.stateHash(), what).toBe(before);
    }
    expect(() => PhysicsWorld.fromSnapshot(good.slice(0, 20))).toThrow(InputError);
  });

  it('forged bytes (a valid checksum over a changed payload, fuzz seeds 7401, 7628): a non-finite number, a huge body id or polygon range, settings out of their ranges are refused, world unchanged', () => {
    // found by the fuzzer's hostile snapshots: a NaN position was restored (a silent NaN), body id
    // 2^31 − 1 hung the restore (per-body tables), a polygon count of 2^31 − 1 threw a RangeError
    const make = () => {
      const w = new PhysicsWorld({ sleeping: true });
      w.contacts.enabled = true;
      const body = w.createBody();
      const p = [[0, 1], [1, 1], [0, 2]].map(([x, y]) => w.addParticle({ x: x!, y: y!, m: 1, radius: 0.05, body }));
      w.addTriangle(p[0]!, p[1]!, p[2]!, { youngsModulus: 1e3, poissonRatio: 0.3 });
      w.addPolygonCollider([4, 0, 5, 0, 5, 1]);
      w.setAnchor(p[0]!, 0, 1, 10);
      run(w, 2);
      return { w, p, poly: w.colliders[0]! };
    };
    const target = make().w;
    const before = target.stateHash();
    const forged: [string, (f: ReturnType<typeof make>) => void, RegExp][] = [
      ['NaN position', (f) => { f.w.c.Particle.y[f.p[1]!] = Number.NaN; }, /Particle\.y: number 1 is NaN, expected a finite number/],
      ['infinite velocity', (f) => { f.w.c.Particle.vx[f.p[2]!] = Infinity; }, /Particle\.vx: number 2 is Infinity/],
      ['NaN stiffness', (f) => { f.w.c.Triangle.youngsModulus[f.w.lists.triangles[0]!] = Number.NaN; }, /Triangle\.youngsModulus/],
      ['body 2^31 - 1', (f) => { f.w.c.Particle.body[f.p[0]!] = 2 ** 31 - 1; }, /has body 2147483647, expected 0 or a body id below 2/],
      ['polygon count 2^31 - 1', (f) => { f.w.c.Collider.polyCount[f.poly] = 2 ** 31 - 1; }, /polygon collider \d+ has vertices 0\.\.2147483646, expected at least 3 of the 3 stored/],
      ['polygon start past the vertices', (f) => { f.w.c.Collider.polyStart[f.poly] = 99; }, /polygon collider/],
      ['collider kind 9', (f) => { f.w.c.Collider.kind[f.poly] = 9; }, /has kind 9/],
      // (fuzz seed 7628: a forged contact iterations of 1.4e39 and Newton maxIters of 2^32 − 1 made a step endless)
      ['contact iterations 1e39', (f) => { f.w.contacts.settings.iterations = 1e39; }, /contact setting 'iterations' is 1e\+39, expected an integer in \[0, 1000\]/],
      ['Newton maxIters 2^32 - 1', (f) => { (f.w.newton as { maxIters: number }).maxIters = 2 ** 32 - 1; }, /newton\.maxIters is 4294967295/],
      ['step count NaN', (f) => { (f.w as unknown as { ctx: { stepCount: number } }).ctx.stepCount = Number.NaN; }, /the step count is NaN/],
    ];
    for (const [what, forge, msg] of forged) {
      const f = make();
      forge(f);
      const bytes = f.w.snapshot(); // the payload as written: its checksum is valid
      expect(() => target.restore(bytes), what).toThrow(msg);
      expect(() => PhysicsWorld.fromSnapshot(bytes), what).toThrow(InputError);
      expect(target.stateHash(), what).toBe(before);
    }
  });
});
