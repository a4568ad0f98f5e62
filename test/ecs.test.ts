/**
 * bitECS components are the source of truth (src/systems/ecs.ts, docs/design.md "Entities and
 * components"): entities created or removed through bitECS are simulated or dropped exactly as
 * those of PhysicsWorld.add* / removeEntity, and edits to component data take effect on the next
 * step without a symbolic rebuild (counted with StepStats.symbolicBuilds / topologyBuilds).
 */
import { describe, expect, it } from 'vitest';
import { addComponent, addEntity, query, removeComponent, removeEntity } from 'bitecs';
import { PhysicsWorld } from '../src/world';
import { InputError } from '../src/errors';
import { cstRest } from '../src/elements';
import { syncParams } from '../src/systems/ecs';

const N = 3; // jelly: (N+1)² particles, 2N² triangles

/** How a body is made: through PhysicsWorld.add*, or through bitECS's own addEntity + addComponent. */
interface Maker {
  particle(w: PhysicsWorld, x: number, y: number, m: number, fixed?: boolean): number;
  triangle(w: PhysicsWorld, a: number, b: number, c: number, E: number, nu: number, density: number, rest?: number[]): number;
  spring(w: PhysicsWorld, a: number, b: number, alpha: number, l0?: number): number;
  hinge(w: PhysicsWorld, a: number, b: number, c: number, alpha: number): number;
  edge(w: PhysicsWorld, a: number, b: number): number;
}

const viaAdd: Maker = {
  particle: (w, x, y, m, fixed = false) => w.addParticle({ x, y, m, fixed }),
  triangle: (w, a, b, c, E, nu, density, rest) => w.addTriangle(a, b, c, { youngsModulus: E, poissonRatio: nu, density, rest }),
  spring: (w, a, b, alpha, l0) => w.addSpring(a, b, { alpha, l0 }),
  hinge: (w, a, b, c, alpha) => w.addHinge(a, b, c, { alpha }),
  edge: (w, a, b) => w.addEdge(a, b),
};

/** bitECS only: data written after addComponent (which grows the store); defaults left at 0. */
const viaEcs: Maker = {
  particle: (w, x, y, m, fixed = false) => {
    const e = addEntity(w.ecs);
    addComponent(w.ecs, e, w.c.Particle);
    const P = w.c.Particle;
    P.x[e] = x;
    P.y[e] = y;
    P.m[e] = m;
    P.fixed[e] = fixed ? 1 : 0;
    return e;
  },
  triangle: (w, a, b, c, E, nu, density) => {
    const e = addEntity(w.ecs);
    addComponent(w.ecs, e, w.c.Triangle);
    const T = w.c.Triangle;
    T.a[e] = a;
    T.b[e] = b;
    T.c[e] = c;
    T.youngsModulus[e] = E;
    T.poissonRatio[e] = nu;
    T.density[e] = density;
    return e;
  },
  spring: (w, a, b, alpha) => {
    const e = addEntity(w.ecs);
    addComponent(w.ecs, e, w.c.ElasticSpring);
    const S = w.c.ElasticSpring;
    S.a[e] = a;
    S.b[e] = b;
    S.alpha[e] = alpha;
    return e;
  },
  hinge: (w, a, b, c, alpha) => {
    const e = addEntity(w.ecs);
    addComponent(w.ecs, e, w.c.Hinge);
    const H = w.c.Hinge;
    H.a[e] = a;
    H.b[e] = b;
    H.c[e] = c;
    H.alpha[e] = alpha;
    return e;
  },
  edge: (w, a, b) => {
    const e = addEntity(w.ecs);
    addComponent(w.ecs, e, w.c.Edge);
    w.c.Edge.a[e] = a;
    w.c.Edge.b[e] = b;
    return e;
  },
};

interface Body {
  /** Initial positions by particle entity. */
  x0: Map<number, [number, number]>;
  particles: number[];
  triangles: number[];
  springs: number[];
  hinges: number[];
  edges: number[];
}

/**
 * A sheared CST jelly with a density, a spring across it, hinges and edges along its top. `skip`
 * leaves out a particle (and everything that uses it), as if it had been removed.
 */
interface JellyOptions {
  skip?: number;
  E?: number;
  m?: number;
  density?: number;
  alpha?: number;
  fixedCorner?: boolean;
  /** add* only: triangles' rest shape = the initial positions × restScale; springs' l0. */
  restScale?: number;
  l0?: number;
  /** A drag entity (add*) after the body. */
  drag?: number;
  noSpring?: boolean;
}

function jelly(w: PhysicsWorld, make: Maker, opts: JellyOptions = {}): Body {
  const body: Body = { x0: new Map(), particles: [], triangles: [], springs: [], hinges: [], edges: [] };
  const at: number[] = [];
  const h = 1 / N;
  for (let j = 0; j <= N; j++) {
    for (let i = 0; i <= N; i++) {
      const k = j * (N + 1) + i;
      if (k === opts.skip) {
        at.push(-1);
        continue;
      }
      const x = i * h + 0.1 * j * h, y = j * h + 0.03 * i * i * h;
      const e = make.particle(w, x, y, opts.m ?? 0.05, opts.fixedCorner === true && k === 0);
      body.x0.set(e, [x, y]);
      at.push(e);
      body.particles.push(e);
    }
  }
  const id = (i: number, j: number) => at[j * (N + 1) + i]!;
  const ok = (...ids: number[]) => ids.every((e) => e >= 0);
  for (let j = 0; j < N; j++) {
    for (let i = 0; i < N; i++) {
      const a = id(i, j), b = id(i + 1, j), c = id(i + 1, j + 1), d = id(i, j + 1);
      const rest = (...ids: number[]) =>
        opts.restScale === undefined ? undefined : ids.flatMap((p) => body.x0.get(p)!.map((v) => opts.restScale! * v));
      if (ok(a, b, c)) body.triangles.push(make.triangle(w, a, b, c, opts.E ?? 3000, 0.3, opts.density ?? 2, rest(a, b, c)));
      if (ok(a, c, d)) body.triangles.push(make.triangle(w, a, c, d, opts.E ?? 3000, 0.3, opts.density ?? 2, rest(a, c, d)));
    }
  }
  if (ok(id(0, 0), id(N, N)) && opts.noSpring !== true) body.springs.push(make.spring(w, id(0, 0), id(N, N), opts.alpha ?? 40, opts.l0));
  for (let i = 0; i + 2 <= N; i++) {
    if (ok(id(i, N), id(i + 1, N), id(i + 2, N))) body.hinges.push(make.hinge(w, id(i, N), id(i + 1, N), id(i + 2, N), 0.3));
  }
  for (let i = 0; i < N; i++) if (ok(id(i, N), id(i + 1, N))) body.edges.push(make.edge(w, id(i, N), id(i + 1, N)));
  if (opts.drag !== undefined) w.addDrag(opts.drag);
  return body;
}

function state(w: PhysicsWorld): Float64Array {
  const x = w.readPositions(), v = w.readVelocities();
  const s = new Float64Array(x.length + v.length);
  s.set(x);
  s.set(v, x.length);
  return s;
}

function bitsEqual(a: Float64Array, b: Float64Array): boolean {
  return a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

function steps(w: PhysicsWorld, k: number): void {
  for (let i = 0; i < k; i++) w.step();
}

/** Copy positions and velocities of `from` into `to` (same creation order, `from` skipping its first `offset`). */
function copyState(from: PhysicsWorld, to: PhysicsWorld, offset = 0): void {
  const x = from.readPositions().subarray(2 * offset), v = from.readVelocities().subarray(2 * offset);
  const P = to.c.Particle, ids = to.lists.particles;
  ids.forEach((e, i) => {
    P.x[e] = x[2 * i]!;
    P.y[e] = x[2 * i + 1]!;
    P.vx[e] = v[2 * i]!;
    P.vy[e] = v[2 * i + 1]!;
  });
}

describe('entities created through bitECS', () => {
  it('simulate bit-identically to add*-created ones (particles, triangles, springs, hinges, edges)', () => {
    const wa = new PhysicsWorld({ dt: 1 / 60 });
    const wb = new PhysicsWorld({ dt: 1 / 60 });
    const a = jelly(wa, viaAdd);
    const b = jelly(wb, viaEcs);
    expect(wb.lists.particles).toEqual(a.particles);
    expect(wb.lists.triangles).toEqual(b.triangles);
    steps(wa, 40);
    steps(wb, 40);
    // defaults (rest shapes, radii) were completed exactly as add* computes them
    const A = wa.c, B = wb.c;
    for (const e of a.particles) expect(B.Particle.radius[e]).toBe(A.Particle.radius[e]);
    for (const e of a.springs) expect(B.ElasticSpring.l0[e]).toBe(A.ElasticSpring.l0[e]);
    for (const e of a.hinges) {
      expect(B.Hinge.theta0[e]).toBe(A.Hinge.theta0[e]);
      expect(B.Hinge.ebSum[e]).toBe(A.Hinge.ebSum[e]);
    }
    for (const e of a.triangles) {
      for (const f of ['area', 'b00', 'b01', 'b10', 'b11'] as const) expect(B.Triangle[f][e]).toBe(A.Triangle[f][e]);
    }
    for (const e of a.edges) expect(B.Edge.radius[e]).toBe(A.Edge.radius[e]);
    expect(bitsEqual(state(wa), state(wb))).toBe(true);
    // and they moved: the comparison is not of two resting bodies
    expect(state(wb).some((v, i) => i >= 2 * a.particles.length && v !== 0)).toBe(true);
  });

  it('simulate bit-identically with game-mode contact against a half-plane', () => {
    const run = (make: Maker) => {
      const w = new PhysicsWorld({ dt: 1 / 60 });
      w.contacts.enabled = true;
      jelly(w, make);
      w.addHalfplane(0, -0.2, 0, 1);
      steps(w, 45);
      return w;
    };
    const wa = run(viaAdd), wb = run(viaEcs);
    expect(wa.lastStats.contactTouching).toBeGreaterThan(0);
    expect(bitsEqual(state(wa), state(wb))).toBe(true);
  });

  it('are validated at the next step with a clear InputError', () => {
    const w = new PhysicsWorld();
    const p = jelly(w, viaEcs).particles;
    const t = viaEcs.triangle(w, p[0]!, p[1]!, 99999, 1000, 0.3, 0);
    expect(() => w.step()).toThrow(InputError);
    expect(() => w.step()).toThrow(/Triangle entity \d+: c\.Triangle\.c\[\d+\] must be a particle entity of this world, got 99999/);
    removeEntity(w.ecs, t);
    w.step();
    const bad = viaEcs.triangle(w, p[0]!, p[1]!, p[5]!, -5, 0.3, 0);
    expect(() => w.step()).toThrow(/youngsModulus.*must be a number in \[1e-30, 1e13\], got -5/);
    w.c.Triangle.youngsModulus[bad] = 500;
    w.step();
  });

  it('name an element whose particles are not distinct, with its store and ids', () => {
    const w = new PhysicsWorld();
    const p = jelly(w, viaEcs).particles;
    const t = viaEcs.triangle(w, p[0]!, p[1]!, p[0]!, 1000, 0.3, 0);
    expect(() => w.step()).toThrow(new RegExp(`Triangle entity ${t}: its particles \\(c\\.Triangle\\.a, b, c\\) must differ, got ${p[0]}, ${p[1]}, ${p[0]}$`));
    removeEntity(w.ecs, t);
    const s = viaEcs.spring(w, p[2]!, p[2]!, 10);
    expect(() => w.step()).toThrow(new RegExp(`ElasticSpring entity ${s}: its particles \\(c\\.ElasticSpring\\.a, b\\) must differ, got ${p[2]}, ${p[2]}$`));
    removeEntity(w.ecs, s);
    w.step();
  });
});

describe('component edits take effect on the next step without a symbolic rebuild', () => {
  const DT = 1 / 60;
  /**
   * Build (bitECS), step 15, `edit`, step 15 more; against `built()` — a world made through add*
   * with the edited values from the same start, given the first world's state after the 15 steps:
   * bit-identical. Counts: no topology build, no symbolic analysis, no pattern build from the
   * edit; one parameter refresh.
   */
  function checkEdit(edit: (w: PhysicsWorld, b: Body) => void, built: () => PhysicsWorld, base: JellyOptions = {}): void {
    const w = new PhysicsWorld({ dt: DT });
    const body = jelly(w, viaEcs, base);
    steps(w, 15);
    const st = w.lastStats;
    const topo0 = st.topologyBuilds, sym0 = st.symbolicBuilds, ref0 = st.paramRefreshes, pb0 = w.topology().patternBuilds;
    const unedited = new PhysicsWorld({ dt: DT });
    jelly(unedited, viaEcs, base);
    steps(unedited, 15);
    expect(bitsEqual(state(w), state(unedited))).toBe(true);

    edit(w, body);
    const ref = built();
    ref.topology(); // rest data from the initial positions, as in w
    copyState(w, ref);
    w.step();
    unedited.step();
    ref.step();
    expect(bitsEqual(state(w), state(unedited))).toBe(false); // took effect on this step
    steps(w, 14);
    steps(ref, 14);
    expect(bitsEqual(state(w), state(ref))).toBe(true);
    expect(st.topologyBuilds).toBe(topo0);
    expect(st.symbolicBuilds).toBe(sym0);
    expect(w.topology().patternBuilds).toBe(pb0);
    expect(st.paramRefreshes).toBe(ref0 + 1);
  }
  const made = (opts: JellyOptions, wo: ConstructorParameters<typeof PhysicsWorld>[0] = {}) => () => {
    const w = new PhysicsWorld({ dt: DT, ...wo });
    jelly(w, viaAdd, opts);
    return w;
  };

  it('fixed', () => {
    checkEdit((w, b) => { w.c.Particle.fixed[b.particles[0]!] = 1; }, made({ fixedCorner: true }));
  });

  // mass, stiffness and density: a jelly hanging by a corner (in free flight none of them changes the motion, and
  // the solve ends at the guess x̃ + h² g: NewtonSolver.constantGuess)
  const hanging = { fixedCorner: true };

  it('mass', () => {
    checkEdit((w, b) => { for (const e of b.particles) w.c.Particle.m[e] = 0.2; }, made({ ...hanging, m: 0.2 }), hanging);
  });

  it('stiffness (Young modulus) and spring stiffness', () => {
    checkEdit((w, b) => {
      for (const e of b.triangles) w.c.Triangle.youngsModulus[e] = 9000;
      for (const e of b.springs) w.c.ElasticSpring.alpha[e] = 90;
    }, made({ ...hanging, E: 9000, alpha: 90 }), hanging);
  });

  it('density', () => {
    checkEdit((w, b) => { for (const e of b.triangles) w.c.Triangle.density[e] = 5; }, made({ ...hanging, density: 5 }), hanging);
  });

  it('rest shape (triangle rest area and inverse rest matrix, spring rest length)', () => {
    const grow = 1.25, out = new Float64Array(5);
    checkEdit((w, b) => {
      const T = w.c.Triangle;
      for (const e of b.triangles) {
        const r = [T.a[e]!, T.b[e]!, T.c[e]!].flatMap((p) => b.x0.get(p)!.map((v) => grow * v));
        cstRest(r[0]!, r[1]!, r[2]!, r[3]!, r[4]!, r[5]!, out);
        T.area[e] = out[0]!;
        T.b00[e] = out[1]!;
        T.b01[e] = out[2]!;
        T.b10[e] = out[3]!;
        T.b11[e] = out[4]!;
      }
      for (const e of b.springs) w.c.ElasticSpring.l0[e] = 2;
    }, made({ restScale: grow, l0: 2 }));
  });

  it('uniform gravity and drag', () => {
    checkEdit((w) => {
      const [g, d] = w.lists.uniform;
      w.c.UniformForce.fy[g!] = -3;
      w.c.UniformForce.b[d!] = 0.4;
    }, made({ drag: 0.4 }, { gravity: [0, -3] }), { drag: 0 });
  });

  it('an edit of a node reference is a topology change; an invalid edit is an InputError', () => {
    const w = new PhysicsWorld({ dt: DT });
    const b = jelly(w, viaEcs);
    steps(w, 3);
    const topo0 = w.lastStats.topologyBuilds;
    w.c.ElasticSpring.b[b.springs[0]!] = b.particles[1]!;
    w.step();
    expect(w.lastStats.topologyBuilds).toBe(topo0 + 1);
    expect(w.topology().springs.nodes[1]).toBe(1);
    w.c.Particle.m[b.particles[2]!] = -1;
    expect(() => w.step()).toThrow(/Particle entity \d+: c\.Particle\.m\[\d+\] must be 0 or a number in \[1e-12, 1e12\] \(kg\), got -1/);
    w.c.Particle.m[b.particles[2]!] = 0.05;
    w.step();
  });
});

describe('removal through bitECS', () => {
  it('stops simulation of the particle and cascades to what uses it (removeEntity and removeComponent)', () => {
    for (const how of ['entity', 'component'] as const) {
      const skip = N + 1 + 1; // an inner particle of the second row: triangles, no hinge
      const w = new PhysicsWorld({ dt: 1 / 60 });
      const b = jelly(w, viaEcs);
      steps(w, 2);
      const p = b.particles[skip]!;
      if (how === 'entity') removeEntity(w.ecs, p);
      else removeComponent(w.ecs, p, w.c.Particle);
      expect(w.lists.particles).not.toContain(p);
      const T = w.c.Triangle;
      expect(w.lists.triangles.length).toBe(b.triangles.length - 6);
      for (const e of w.lists.triangles) expect([T.a[e], T.b[e], T.c[e]]).not.toContain(p);
      const x = w.c.Particle.x[p], y = w.c.Particle.y[p];
      steps(w, 20);
      if (how === 'component') {
        expect(w.c.Particle.x[p]).toBe(x); // not simulated any more
        expect(w.c.Particle.y[p]).toBe(y);
      }
      // the same as a world built without it, given the same state
      const ref = new PhysicsWorld({ dt: 1 / 60 });
      jelly(ref, viaAdd, { skip });
      const w2 = new PhysicsWorld({ dt: 1 / 60 });
      const b2 = jelly(w2, viaEcs);
      steps(w2, 2);
      removeEntity(w2.ecs, b2.particles[skip]!);
      ref.topology();
      copyState(w2, ref);
      steps(w2, 20);
      steps(ref, 20);
      expect(bitsEqual(state(w2), state(ref))).toBe(true);
      expect(bitsEqual(state(w), state(ref))).toBe(true);
    }
  });

  it('keeps creation order when bitECS recycles ids, and a recycled id does not inherit old data', () => {
    const w = new PhysicsWorld({ dt: 1 / 60 });
    const b = jelly(w, viaEcs);
    const victim = b.particles[0]!; // a corner: the spring and two triangles use it
    const [t0, t1] = b.triangles;
    expect(w.c.Triangle.area[t1!]).toBe(0); // not completed yet (no step)
    w.step();
    expect(w.c.Triangle.area[t1!]).toBeGreaterThan(0);
    removeEntity(w.ecs, victim); // frees the spring, t0, t1, then the particle
    expect(w.lists.triangles).not.toContain(t0);
    expect(w.lists.triangles).not.toContain(t1);
    expect(w.lists.springs).toEqual([]);
    // bitECS hands the most recently freed id out first
    const q = viaEcs.particle(w, -0.3, -0.1, 0.05);
    expect(q).toBe(victim);
    const t = viaEcs.triangle(w, q, b.particles[1]!, b.particles[5]!, 3000, 0.3, 2);
    expect(t).toBe(t1);
    expect(w.c.Triangle.area[t]).toBe(0); // zeroed by addComponent: the rest shape is taken from the positions at the next step
    const s = viaEcs.spring(w, q, b.particles[5]!, 40);
    expect(s).toBe(t0);
    expect(w.lists.particles.at(-1)).toBe(q);
    expect(w.lists.triangles.at(-1)).toBe(t);
    steps(w, 20);
    // a fresh world built in the same creation order from the same state, no removals
    const ref = new PhysicsWorld({ dt: 1 / 60 });
    jelly(ref, viaAdd, { skip: 0, noSpring: true });
    const R = ref.lists.particles;
    const w0 = new PhysicsWorld({ dt: 1 / 60 });
    jelly(w0, viaEcs);
    w0.step();
    ref.topology();
    copyState(w0, ref, 1); // the 15 surviving particles' state after one step
    const q2 = viaAdd.particle(ref, -0.3, -0.1, 0.05);
    viaAdd.triangle(ref, q2, R[0]!, R[4]!, 3000, 0.3, 2);
    viaAdd.spring(ref, q2, R[4]!, 40);
    steps(ref, 20);
    expect(ref.lists.particles.length).toBe(w.lists.particles.length);
    expect(bitsEqual(state(w), state(ref))).toBe(true);
  });
});

describe('a game\'s own components', () => {
  it('are added to engine entities and queried with query(world.ecs, [c.Particle, Mine]) without changing the simulation', () => {
    const Mine = { hp: new Float64Array(256) };
    const w = new PhysicsWorld({ dt: 1 / 60 });
    const b = jelly(w, viaAdd);
    const tagged = b.particles.filter((_, i) => i % 3 === 0);
    for (const e of tagged) {
      addComponent(w.ecs, e, Mine);
      Mine.hp[e] = 10 + e;
    }
    const other = addEntity(w.ecs); // a game-only entity, not simulated
    addComponent(w.ecs, other, Mine);
    const found = Array.from(query(w.ecs, [w.c.Particle, Mine])).sort((p, q) => p - q);
    expect(found).toEqual([...tagged].sort((p, q) => p - q));
    expect(Array.from(query(w.ecs, [Mine])).length).toBe(tagged.length + 1);
    steps(w, 20);
    const plain = new PhysicsWorld({ dt: 1 / 60 });
    jelly(plain, viaAdd);
    steps(plain, 20);
    expect(bitsEqual(state(w), state(plain))).toBe(true);
    expect(w.lists.particles.length).toBe(b.particles.length);
    // the engine's data of a queried entity, read afresh
    for (const e of query(w.ecs, [w.c.Particle, Mine])) expect(w.c.Particle.y[e]).toBe(plain.c.Particle.y[e]);
  });
});

describe('the per-step comparison', () => {
  it('allocates nothing when no component changed', () => {
    const w = new PhysicsWorld({ dt: 1 / 60 });
    jelly(w, viaEcs);
    w.addDrag(0.1);
    steps(w, 3);
    const ctx = w.pipeline.ctx;
    for (let k = 0; k < 5000; k++) syncParams(ctx); // JIT warm-up
    // the median heap growth of 21 short rounds: a round may hold the JIT installing code for this
    // loop, or a scavenge (growth ≤ 0); short rounds (≤ 32 KB at 16 B per call) make both rare
    const reps = 2000, grown: number[] = [];
    for (let round = 0; round < 21; round++) {
      const h0 = process.memoryUsage().heapUsed;
      for (let k = 0; k < reps; k++) syncParams(ctx);
      grown.push(process.memoryUsage().heapUsed - h0);
    }
    grown.sort((a, b) => a - b);
    expect(grown[10]!).toBeLessThan(reps); // < 1 B per call (one boxed number per call would be 16)
    expect(w.lastStats.paramRefreshes).toBe(0);
  });

  it('contact sees a radius edit on the next step too (masses, fixed and body ids are refreshed with it; no topology change)', () => {
    // a jelly resting on the floor: its bottom particles' radius doubled lifts it; fixing a particle stops it
    const make = (): PhysicsWorld => {
      const w = new PhysicsWorld({});
      w.contacts.enabled = true;
      w.addHalfplane(0, 0, 0, 1);
      const body = w.createBody();
      const ids: number[] = [];
      for (const [x, y] of [[0, 0.05], [0.2, 0.05], [0.1, 0.2]]) ids.push(w.addParticle({ x, y, m: 0.1, radius: 0.05, body }));
      w.addTriangle(ids[0]!, ids[1]!, ids[2]!, { youngsModulus: 1e4, poissonRatio: 0.3 });
      for (let s = 0; s < 60; s++) w.step();
      return w;
    };
    const w = make();
    const P = w.c.Particle;
    const [a, b] = w.lists.particles;
    const y0 = P.y[a!]!;
    expect(y0).toBeGreaterThan(0.045);
    expect(y0).toBeLessThan(0.06);
    const builds = w.lastStats.topologyBuilds;
    P.radius[a!] = 0.1;
    P.radius[b!] = 0.1;
    for (let s = 0; s < 90; s++) w.step();
    expect(P.y[a!]!).toBeGreaterThan(0.09); // rests on its new radius
    expect(w.lastStats.topologyBuilds).toBe(builds);
  });
});

