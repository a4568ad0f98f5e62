/**
 * The game-mode stress matrix (issue 16, item 4; test/stress/matrix.ts says what runs and what is measured):
 *
 *   npm run stress                                     all 768 cells, a table per material and the defects
 *   npm run stress -- --material neohookean --start mirrored --E 1e2,1e4 --dt 30 --nu 0.3
 *   npm run stress -- --shard 0/2 --jsonl a.jsonl      half the cells, one JSON object per cell into a.jsonl
 *   npm run stress -- --report a.jsonl,b.jsonl         the summary of cells measured before
 *   npm run stress -- --resume a.jsonl --jsonl b.jsonl skip the cells a.jsonl has (an interrupted run)
 *   npm run stress -- --max-iters 8                    with WorldOptions.newton.maxStepIters = 8
 *
 * Minutes of work (not part of the test suite; test/stress-slice.test.ts runs its worst cells).
 * Exits 1 when a cell has a defect (test/stress/matrix.ts, defects()). Timings depend on the machine;
 * the iteration and outcome counts do not.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { allCells, cellName, defects, runCell, MATERIALS, STARTS, STEPS, type CellResult } from './matrix';

function list(text: string | undefined): string[] | null {
  return text === undefined ? null : text.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

function main(): number {
  const { values } = parseArgs({
    options: {
      material: { type: 'string' }, start: { type: 'string' }, E: { type: 'string' }, dt: { type: 'string' },
      nu: { type: 'string' }, steps: { type: 'string' }, shard: { type: 'string' }, jsonl: { type: 'string' },
      report: { type: 'string' }, 'max-iters': { type: 'string' }, quiet: { type: 'boolean' }, resume: { type: 'string' },
    },
  });
  let results: CellResult[];
  if (values.report !== undefined) {
    results = [];
    for (const f of list(values.report)!) {
      for (const line of readFileSync(f, 'utf8').split('\n')) if (line.trim() !== '') results.push(JSON.parse(line) as CellResult);
    }
  } else {
    const mats = list(values.material), starts = list(values.start), Es = list(values.E)?.map(Number) ?? null;
    const dts = list(values.dt)?.map(Number) ?? null, nus = list(values.nu)?.map(Number) ?? null;
    const steps = values.steps !== undefined ? Number(values.steps) : STEPS;
    if (!Number.isSafeInteger(steps) || steps < 1) throw new Error(`--steps: expected a whole number >= 1, got "${values.steps}"`);
    let shard = 0, shards = 1;
    if (values.shard !== undefined) {
      const m = /^(\d+)\/(\d+)$/.exec(values.shard);
      if (!m || Number(m[1]) >= Number(m[2])) throw new Error(`--shard: expected i/n with i < n, got "${values.shard}"`);
      shard = Number(m[1]);
      shards = Number(m[2]);
    }
    const maxIters = values['max-iters'] !== undefined ? Number(values['max-iters']) : undefined;
    const newton = maxIters !== undefined ? { maxStepIters: maxIters } : undefined;
    const done = new Set<string>();
    for (const f of list(values.resume) ?? []) {
      for (const line of readFileSync(f, 'utf8').split('\n')) if (line.trim() !== '') done.add(cellName(JSON.parse(line) as CellResult));
    }
    const cells = allCells().filter((c) =>
      !done.has(cellName(c)) &&
      (!mats || mats.includes(c.material)) && (!starts || starts.includes(c.start)) &&
      (!Es || Es.includes(c.E)) && (!dts || dts.includes(Math.round(1 / c.dt))) && (!nus || nus.includes(c.nu)))
      .filter((_, i) => i % shards === shard); // shards of the selected cells
    if (values.jsonl !== undefined && values.resume === undefined) writeFileSync(values.jsonl, '');
    results = [];
    const t0 = performance.now();
    for (const c of cells) {
      const r = runCell(c, steps, newton as never);
      results.push(r);
      if (values.jsonl !== undefined) appendFileSync(values.jsonl, JSON.stringify(r) + '\n');
      if (!values.quiet) {
        const d = defects(r);
        console.log(`${cellName(c).padEnd(44)} iters ${r.itersMean.toFixed(2)}/${r.itersMax} ms ${r.msMean.toFixed(1)}/${r.msMax.toFixed(0)}` +
          ` failsafe ${r.failSafeSteps} inverted ${r.invertedEnd}${d.length ? '  ** ' + d.join('; ') : ''}`);
      }
    }
    console.log(`${cells.length} cells in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  return report(results);
}

/** Per material and start: runs, NaN, exceptions, explosions, below ground, frozen, inverted left, fail-safe runs/steps, iterations, ms. */
function report(results: CellResult[]): number {
  const head = ['material', 'start', 'runs', 'NaN', 'exc', 'expl', 'below', 'frozen', 'inv-runs', 'fs-runs', 'fs-steps', 'it-mean', 'it-max', 'ms-mean', 'ms-max'];
  const rows: string[][] = [head];
  const groups: Array<[string, string]> = [];
  for (const m of MATERIALS) for (const s of [...STARTS, '*']) groups.push([m, s]);
  for (const [m, s] of groups) {
    const g = results.filter((r) => r.material === m && (s === '*' || r.start === s));
    if (g.length === 0) continue;
    const count = (f: (r: CellResult) => boolean) => String(g.filter(f).length);
    const steps = g.reduce((a, r) => a + r.steps, 0);
    rows.push([m, s === '*' ? 'all' : s, String(g.length), count((r) => r.nan), count((r) => r.exception !== ''),
      count((r) => r.exploded), count((r) => r.belowGround), count((r) => r.frozen), count((r) => r.invertedEnd > 0),
      count((r) => r.failSafeSteps > 0), String(g.reduce((a, r) => a + r.failSafeSteps, 0)),
      (g.reduce((a, r) => a + r.itersMean * r.steps, 0) / Math.max(1, steps)).toFixed(2), String(Math.max(...g.map((r) => r.itersMax))),
      (g.reduce((a, r) => a + r.msMean * r.steps, 0) / Math.max(1, steps)).toFixed(2), Math.max(...g.map((r) => r.msMax)).toFixed(0)]);
  }
  const widths = head.map((_, k) => Math.max(...rows.map((r) => r[k]!.length)));
  for (const r of rows) console.log(r.map((c, k) => c.padStart(widths[k]!)).join('  '));
  const reasons: Record<string, number> = {};
  for (const r of results) for (const [k, n] of Object.entries(r.failSafeReasons)) reasons[k] = (reasons[k] ?? 0) + n;
  console.log(`fail-safe reasons (steps): ${Object.keys(reasons).length ? Object.entries(reasons).map(([k, n]) => `${k} ${n}`).join(', ') : 'none'}`);
  const bad = results.filter((r) => defects(r).length > 0);
  for (const r of bad) console.log(`DEFECT ${cellName(r)}: ${defects(r).join('; ')}`);
  console.log(`${bad.length} of ${results.length} cells with a defect`);
  return bad.length > 0 ? 1 : 0;
}

process.exitCode = main();
