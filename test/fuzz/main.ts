/**
 * The fuzzer's command (issue 16):
 *
 *   npm run fuzz -- [--cases N] [--seed S] [--first I] [--workers K] [--timeout MS] [--steps M]
 *                   [--kinds both|scene|api] [--api valid|hostile] [--json]
 *   npm run fuzz -- --seed S --case I --dump       print case I's scene text (to replay or minimize it)
 *   npm run fuzz -- --seed S --kinds api [--api hostile] --case I --trace   print API case I's calls as it runs them
 *
 * Prints a count per outcome (test/fuzz/case.ts) and every defect (silent NaN, non-InputError
 * exception, hang) with its index and source; exits 1 when there is a defect.
 */
import { parseArgs } from 'node:util';
import { wholeArg as int } from './args';
import { apiSequence } from './api';
import { caseRng, DEFECTS, isSceneCase, sceneCase, type FuzzOptions, type Outcome, type OutcomeKind } from './case';
import { runCases } from './pool';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      cases: { type: 'string', default: '1000' },
      seed: { type: 'string', default: '1' },
      first: { type: 'string', default: '0' },
      workers: { type: 'string', default: '2' },
      timeout: { type: 'string', default: '10000' },
      steps: { type: 'string', default: '200' },
      kinds: { type: 'string', default: 'both' },
      api: { type: 'string', default: 'valid' },
      case: { type: 'string' },
      dump: { type: 'boolean' },
      trace: { type: 'boolean' },
      json: { type: 'boolean' },
    },
  });
  const kinds = values.kinds as FuzzOptions['kinds'];
  const api = values.api as FuzzOptions['api'];
  if (!['both', 'scene', 'api'].includes(kinds)) throw new Error(`--kinds: expected both, scene or api, got "${kinds}"`);
  if (!['valid', 'hostile'].includes(api)) throw new Error(`--api: expected valid or hostile, got "${api}"`);
  const options: FuzzOptions = { seed: int('seed', values.seed!), maxSteps: int('steps', values.steps!), kinds, api };
  let first = int('first', values.first!);
  let count = int('cases', values.cases!);
  if (values.case !== undefined) {
    first = int('case', values.case);
    count = 1;
    if (values.dump) {
      if (!isSceneCase(options, first)) throw new Error(`case ${first} is an API case (use --kinds scene)`);
      process.stdout.write(sceneCase(options.seed, first).text);
      return 0;
    }
    if (values.trace) {
      if (isSceneCase(options, first)) throw new Error(`case ${first} is a scene case (use --dump)`);
      const finite = apiSequence(caseRng(options.seed, first), options.maxSteps, options.api, (line) => process.stdout.write(`${line}\n`));
      process.stdout.write(finite ? 'ok: the state is finite\n' : 'silent NaN: the state is not finite\n');
      return finite ? 0 : 1;
    }
  }
  const t0 = performance.now();
  const outcomes = await runCases(options, first, count, {
    workers: int('workers', values.workers!),
    timeoutMs: int('timeout', values.timeout!),
  });
  for (const o of outcomes) if (o.source === '?' && isSceneCase(options, o.index)) o.source = describeScene(options, o.index);
  const counts = new Map<OutcomeKind, number>();
  for (const o of outcomes) counts.set(o.kind, (counts.get(o.kind) ?? 0) + 1);
  const defects = outcomes.filter((o) => DEFECTS.includes(o.kind));
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ seed: options.seed, first, count, counts: Object.fromEntries(counts), defects })}\n`);
  } else {
    process.stdout.write(`fuzz: seed ${options.seed}, cases ${first}..${first + count - 1} (${kinds}, api ${api}), ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    for (const [k, n] of [...counts].sort()) process.stdout.write(`  ${k.padEnd(17)} ${n}\n`);
    for (const o of defects) process.stdout.write(formatDefect(options, o));
  }
  return defects.length > 0 ? 1 : 0;
}

function describeScene(o: FuzzOptions, index: number): string {
  const c = sceneCase(o.seed, index);
  return `scene ${c.name} [${c.applied.join(', ')}]`;
}

function formatDefect(o: FuzzOptions, d: Outcome): string {
  const replay = `npm run fuzz -- --seed ${o.seed} --kinds ${o.kinds} --api ${o.api} --case ${d.index}`;
  return `DEFECT ${d.kind} #${d.index} ${d.source}: ${d.message}\n  replay: ${replay}${isSceneCase(o, d.index) ? ' --dump' : ''}\n`;
}

main().then(
  (code) => (process.exitCode = code),
  (e: unknown) => {
    process.stderr.write(`fuzz: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 2;
  },
);
