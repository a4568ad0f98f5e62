/** `elastica bench --quick --json`: runs and emits one valid JSON object per line with every field. */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('elastica bench', () => {
  it('--quick --json --cases 1k emits JSON lines with all fields', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'elastica.mjs'), 'bench', '--quick', '--json', '--cases', '1k'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(1);
    const fields = ['name', 'triangles', 'dofs', 'integrator', 'msPerStepMedian', 'msPerStepP95', 'newtonItersMean', 'msAssembly', 'msFactor', 'msSolve', 'heapGrowthBytesPerStep', 'allocBytesPerStep', 'allocBytesPerStepSteady', 'allocBytesMaxStep', 'allocSteps', 'meteredSteps', 'gcSteps', 'sag'];
    const rows = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const ours = rows.find((o) => o.engine === 'elastica')!;
    expect(ours).toBeDefined();
    for (const o of rows) {
      if ('error' in o) continue;
      for (const f of fields) expect(o, f).toHaveProperty(f);
    }
    expect(ours.name).toBe('1k');
    expect(ours.triangles as number).toBeGreaterThan(900);
    expect(Number.isFinite(ours.sag as number)).toBe(true);
    // allocation figures: the steady mean drops the largest steps, so steady ≤ mean ≤ max (the
    // budgets are test/alloc-gate.test.ts's; a --quick window is too short for them)
    expect(Number.isFinite(ours.allocBytesPerStep as number)).toBe(true);
    expect(ours.allocBytesPerStepSteady as number).toBeLessThanOrEqual(ours.allocBytesPerStep as number);
    expect(ours.allocBytesMaxStep as number).toBeGreaterThanOrEqual(ours.allocBytesPerStep as number);
    expect(Number.isInteger(ours.gcSteps)).toBe(true);
    expect(ours.allocSteps as number).toBeLessThanOrEqual(ours.meteredSteps as number);
    expect(ours.meteredSteps as number).toBeGreaterThan(0);
  }, 120_000);

  it('--no-isolate runs the cases in the bench process and gives the same simulation (same sag, iterations)', () => {
    const args = ['bench', '--quick', '--json', '--cases', '1k', '--no-rapier'];
    const iso = spawnSync(process.execPath, [join(ROOT, 'bin', 'elastica.mjs'), ...args], { cwd: ROOT, encoding: 'utf8' });
    const one = spawnSync(process.execPath, [join(ROOT, 'bin', 'elastica.mjs'), ...args, '--no-isolate'], { cwd: ROOT, encoding: 'utf8' });
    expect(iso.status).toBe(0);
    expect(one.status).toBe(0);
    const a = JSON.parse(iso.stdout.trim()) as Record<string, unknown>, b = JSON.parse(one.stdout.trim()) as Record<string, unknown>;
    expect(a.sag).toBe(b.sag);
    expect(a.newtonItersMean).toBe(b.newtonItersMean);
    expect(a.triangles).toBe(b.triangles);
  }, 120_000);

  it('--material all: one elastica row per material, non-FOSSSim materials at 4E (same jelly)', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'elastica.mjs'), 'bench', '--quick', '--json', '--cases', '1k', '--no-rapier', '--material', 'all'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(0);
    const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((o) => o.material)).toEqual(['fosssim', 'stvk', 'neohookean', 'corotational']);
    for (const o of rows) {
      expect(o.engine).toBe('elastica');
      expect(o.youngsModulus).toBe(o.material === 'fosssim' ? 5e4 : 2e5);
      expect(o.triangles as number).toBeGreaterThan(900);
      // same jelly: every material sags to nearly the same height after the quick run
      expect(Math.abs((o.sag as number) - (rows[0]!.sag as number))).toBeLessThan(0.05);
    }
  }, 120_000);

  it('--material stvk: the JSON names the material; unknown material exits 2', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'elastica.mjs'), 'bench', '--quick', '--json', '--cases', '1k', '--no-rapier', '--material', 'stvk'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(0);
    const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.material).toBe('stvk');
    const bad = spawnSync(process.execPath, [join(ROOT, 'bin', 'elastica.mjs'), 'bench', '--quick', '--cases', '1k', '--material', 'rubber'], { cwd: ROOT, encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/rubber/);
  }, 120_000);

  it('--quick --json --cases pile: one contact row with contacts, candidates, rebuilds (no Rapier row)', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'elastica.mjs'), 'bench', '--quick', '--json', '--cases', 'pile'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(0);
    const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows).toHaveLength(1);
    const o = rows[0]!;
    const fields = ['name', 'engine', 'triangles', 'dofs', 'integrator', 'linearPath', 'msPerStepMedian', 'msPerStepP95', 'newtonItersMean', 'msAssembly', 'msFactor', 'msSolve',
      'heapGrowthBytesPerStep', 'allocBytesPerStep', 'allocBytesMaxStep', 'gcSteps', 'sag', 'contacts', 'candidates', 'rebuilds', 'patternPairs', 'failSafeSteps', 'note'];
    for (const f of fields) expect(o, f).toHaveProperty(f);
    expect(o.name).toBe('pile');
    expect(o.engine).toBe('elastica');
    // --quick: ten jellies of 2·5² = 50 triangles
    expect(o.triangles).toBe(500);
    expect(o.note as string).toMatch(/no Rapier/);
    for (const f of ['msPerStepMedian', 'msPerStepP95', 'contacts', 'candidates', 'sag']) expect(Number.isFinite(o[f] as number), f).toBe(true);
    // the jellies are in the box with contact on: the solve always has candidates (floor, walls, neighbours)
    expect(o.candidates as number).toBeGreaterThan(0);
    expect(o.contacts as number).toBeGreaterThanOrEqual(0);
    expect(o.candidates as number).toBeGreaterThanOrEqual(o.contacts as number);
    expect(Number.isInteger(o.rebuilds)).toBe(true);
    expect(o.rebuilds as number).toBeGreaterThanOrEqual(0);
    expect(o.failSafeSteps).toBe(0);
    // falling, not exploding: after 15 steps the mean height is below the start and above the floor
    expect(o.sag as number).toBeGreaterThan(0);
    expect(o.sag as number).toBeLessThan(1);
  }, 120_000);

  it('--inject-alloc: the meter sees an allocation made inside every step (a meter that reads 0 regardless would fail here)', () => {
    const args = [join(ROOT, 'bin', 'elastica.mjs'), 'bench', '--quick', '--json', '--cases', '1k', '--no-rapier'];
    const plain = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
    const inj = spawnSync(process.execPath, [...args, '--inject-alloc'], { cwd: ROOT, encoding: 'utf8' });
    expect(plain.status).toBe(0);
    expect(inj.status).toBe(0);
    const a = JSON.parse(plain.stdout.trim()) as Record<string, number>, b = JSON.parse(inj.stdout.trim()) as Record<string, number>;
    // one small array per step (≥ 16 B with its elements) on every metered step
    expect(b.allocSteps).toBe(b.meteredSteps);
    expect(b.allocBytesPerStepSteady).toBeGreaterThanOrEqual(16);
    // (not compared with the plain run's figure: that depends on V8's tiering in its own process —
    // one CI run read 72,845 B/step steady there; test/alloc-gate.test.ts judges the plain runs)
    // the seam changes no result: same simulation
    expect(b.sag).toBe(a.sag);
  }, 120_000);

  it('--core pins the bench and its child processes, and every row says where it ran', async () => {
    const { cpus } = await import('node:os');
    const cores = cpus().length;
    const bench = (pre: string[], extra: string[]) => {
      const argv = [...pre, process.execPath, join(ROOT, 'bin', 'elastica.mjs'), 'bench', '--quick', '--json', '--cases', '1k', '--no-rapier', ...extra];
      return spawnSync(argv[0]!, argv.slice(1), { cwd: ROOT, encoding: 'utf8' });
    };
    const runtimes = (r: ReturnType<typeof bench>) => {
      expect(r.status, r.stderr).toBe(0);
      return r.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { runtime?: string }).runtime);
    };
    const last = cores - 1;
    // the case runs in a child process (the bench isolates cases): it is pinned as the parent asked
    expect(runtimes(bench([], ['--core', String(last)]))).toEqual([`Node ${process.version}, core ${last}`]);
    expect(runtimes(bench([], ['--core', 'all']))).toEqual([`Node ${process.version}, ${cores === 1 ? '1 core' : `unpinned, ${cores} cores`}`]);
    // started on one core already, the default leaves it there
    if (spawnSync('taskset', ['-c', '0', 'true']).status === 0) {
      expect(runtimes(bench(['taskset', '-c', '0'], []))).toEqual([`Node ${process.version}, core 0`]);
    }
    const bad = bench([], ['--core', String(cores)]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain(`bench --core: expected a core from 0 to ${last} or 'all', got "${cores}"`);
    expect(bench([], ['--core', 'first']).stderr).toContain(`got "first"`);
  }, 120_000);

  it('unknown case exits 2', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'elastica.mjs'), 'bench', '--cases', '7k'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/7k/);
  }, 60_000);

  it('the stirred scene reports the memory the world keeps after a full collection, at the start and after each block', async () => {
    const { runSceneElastica } = await import('../src/cli/bench-scenes');
    const row = runSceneElastica('stirred', 'warm', { steps: 25, block: 10 });
    // the start, steps 10 and 20, and the last step
    expect(row.retainedMB).toHaveLength(4);
    for (const mb of row.retainedMB!) expect(mb).toBeGreaterThan(0);
    expect(row.windows.map((w) => w.steps)).toEqual([10, 10, 5]);
    expect(row.memoryMB).toEqual([row.retainedMB![0], row.retainedMB![3]]);
    // each window ends with the pile's shape: inverted triangles and the smallest body's area ratio
    for (const w of row.windows) {
      expect(w.inverted).toBeGreaterThanOrEqual(0);
      expect(w.areaMin).toBeGreaterThan(-2);
      expect(w.areaMin).toBeLessThan(2);
    }
  }, 60_000);

  it('a failed run is a scene row with no figures and the error (Node and browser benches alike)', async () => {
    const { failedSceneRow } = await import('../src/cli/bench-scenes');
    const row = failedSceneRow('pile20', 'rapier2d-compat (fem)', 'warm', new Error('out of memory\n    at stack line'), ['page error']);
    expect(row).toEqual({
      name: 'pile20', engine: 'rapier2d-compat (fem)', mode: 'warm', triangles: 0, buildMs: 0, maxStepMs: 0, maxStepAt: 0, windows: [],
      error: 'out of memory; page error',
    });
    expect(failedSceneRow('page', 'elastica', 'cold', 'plain').error).toBe('plain');
  });

  it('shapeOf counts inverted triangles and the smallest body area over its rest area', async () => {
    const { shapeOf } = await import('../src/cli/bench-scenes');
    const { PhysicsWorld } = await import('../src/world');
    const { meshBox } = await import('../src/mesh');
    const world = new PhysicsWorld({ dt: 1 / 60 });
    const mesh = meshBox(1, 1, 2, 2); // 8 triangles
    const ids: number[][] = [];
    for (const cx of [0, 3]) {
      const body = world.createBody(), own: number[] = [];
      for (let v = 0; v < mesh.positions.length / 2; v++) own.push(world.addParticle({ x: cx + mesh.positions[2 * v]!, y: mesh.positions[2 * v + 1]!, m: 1, body }));
      for (let t = 0; t < mesh.triangles.length; t += 3) world.addTriangle(own[mesh.triangles[t]!]!, own[mesh.triangles[t + 1]!]!, own[mesh.triangles[t + 2]!]!, { youngsModulus: 1e4, poissonRatio: 0.3 });
      ids.push(own);
    }
    expect(shapeOf(world)).toEqual({ inverted: 0, areaMin: 1 });
    const P = world.c.Particle;
    // the second body mirrored (x → 6 − x): every triangle of it inverted, its area −1 times its rest area
    for (const e of ids[1]!) P.x[e] = 6 - P.x[e]!;
    expect(shapeOf(world)).toEqual({ inverted: 8, areaMin: -1 });
    // the first squashed to half its height: upright, half its area
    for (const e of ids[0]!) P.y[e] = 0.5 * P.y[e]!;
    for (const e of ids[1]!) P.x[e] = 6 - P.x[e]!;
    expect(shapeOf(world)).toEqual({ inverted: 0, areaMin: 0.5 });
  });

  it('the game mode runs a scene as a game starts a level: sleeping on, warmed up at load; a bad mode names the modes', async () => {
    const { runSceneElastica, SCENE_MODES } = await import('../src/cli/bench-scenes');
    expect(SCENE_MODES).toContain('game');
    const row = runSceneElastica('page', 'game', { steps: 30, block: 10 });
    expect(row.mode).toBe('game');
    expect(row.sleeping).toBe(true);
    expect(row.engine).toBe('elastica (sleeping on)');
    // world.warmUp at load: the engine's warm-up (once a process) and the scene's own steps, undone
    expect(row.warmupMs).toBeGreaterThan(0);
    for (const w of row.windows) expect(w.restingSteps).toBeDefined();
    const bad = spawnSync(process.execPath, [join(ROOT, 'bin', 'elastica.mjs'), 'bench', '--cases', 'page', '--scene-mode', 'hot'], { cwd: ROOT, encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--scene-mode: expected cold, cold-warmup, game, warm, sleeping, got "hot"/);
    // a first-run mode with two scenes would measure the second one warm under the first-run mode's name
    const two = spawnSync(process.execPath, [join(ROOT, 'bin', 'elastica.mjs'), 'bench', '--cases', 'page,pile20', '--scene-mode', 'game'], { cwd: ROOT, encoding: 'utf8' });
    expect(two.status).toBe(2);
    expect(two.stderr).toContain('bench --scene-mode game: measures a scene as the first of a fresh process, so --cases must name one scene, got "page,pile20"');
    expect(two.stdout).toBe('');
  }, 60_000);

  it('a game row\'s warm-up is what the load paid: the engine\'s warm-up (which SoftSim\'s constructor runs) and the scene\'s own', () => {
    // a fresh process, as the bench's scene rows run: the page's scene is built by SoftSim, whose constructor runs the
    // engine's warm-up; the row used to time world.warmUp() alone and so left that out of the page's warm-up
    const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'elastica.mjs'), 'bench', '--json', '--no-rapier', '--cases', 'page', '--scene-mode', 'game', '--steps', '5'], { cwd: ROOT, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const row = JSON.parse(r.stdout.trim()) as Record<string, number>;
    // the engine warm-up steps two worlds for some 1,600 steps: tens of milliseconds at least on any machine
    expect(row.engineWarmupMs).toBeGreaterThan(20);
    expect(row.sceneWarmupMs).toBeGreaterThan(0);
    expect(row.warmupMs).toBeCloseTo(row.engineWarmupMs! + row.sceneWarmupMs!, 2);
    // the build covers the scene and its own warm-up, not the engine's
    expect(row.buildMs).toBeGreaterThanOrEqual(row.sceneWarmupMs!);
    expect(row.buildMs).toBeLessThan(row.sceneWarmupMs! + row.engineWarmupMs!);
  }, 120_000);

  it('the ratio row divides Elastica\'s warm figures by Rapier\'s window by window, matching windows by their bounds', async () => {
    const { ratioToRapier } = await import('../src/cli/bench-scenes');
    type Row = import('../src/cli/bench-scenes').SceneResult;
    const win = (from: number, to: number, median: number, p99: number): Row['windows'][number] =>
      ({ from, to, steps: 60, median, p95: p99, p99, max: p99 });
    const row = (engine: string, windows: Row['windows']): Row =>
      ({ name: 'page', engine, mode: 'warm', triangles: 188, buildMs: 1, maxStepMs: 1, maxStepAt: 0, windows });
    const elastica = row('elastica', [win(0, 1, 0.5, 7), win(1, 2, 1, 5), win(5, 10, 0.2, 3)]);
    // Rapier's rows: no 5–10 s window, a 2–5 s one Elastica lacks, a zero median in 1–2 s (no ratio there)
    const rapier = row('rapier2d-compat soft body (Constraints, default solver)', [win(0, 1, 2, 100), win(1, 2, 0, 20), win(2, 5, 1, 8)]);
    const r = ratioToRapier(elastica, rapier)!;
    expect(r.kind).toBe('ratio');
    expect(r.name).toBe('page');
    expect(r.windows).toEqual([{ from: 0, to: 1, median: 0.25, p99: 0.07 }]);
    expect(ratioToRapier(elastica, { ...rapier, error: 'failed' })).toBeNull();
    expect(ratioToRapier(elastica, row('rapier', [win(2, 5, 1, 8)]))).toBeNull();
  });
});
