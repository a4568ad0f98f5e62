/**
 * The npm package as a user installs it (test/consumer/run.ts): npm pack, a fresh Vite vanilla-ts project with the
 * newest TypeScript and phaser@^4.2, tsc + vite build, the installed `elastica` command, and the built game in
 * headless Chromium. Skipped, with the reason printed, only when the npm registry or Chromium is unavailable.
 */
import { describe, expect, it } from 'vitest';
import { chromiumAvailable, chromiumPath } from './browser/run';
import { checkFileList, registryReachable, runConsumer } from './consumer/run';

const registry = registryReachable();
const chromium = chromiumAvailable();
const skip = !registry.ok ? `the npm registry is unreachable (${registry.detail})` : !chromium ? `Chromium not found at ${chromiumPath}` : '';
if (skip) console.warn(`[consumer.test] SKIPPED: ${skip}`);

describe('file list rules', () => {
  it('reject files that must not ship and notice missing ones', () => {
    expect(checkFileList(['package.json', 'test/cli.test.ts', 'dist/index.js'])).toEqual(expect.arrayContaining(['ships test/cli.test.ts', 'missing LICENSE']));
  });
});

describe.skipIf(skip !== '')('the packed package in a fresh Vite + TypeScript + Phaser project', () => {
  it('packs, installs, type-checks, builds with one Phaser, runs the CLI and the game', { timeout: 600_000 }, async () => {
    const lines: string[] = [];
    const r = await runConsumer({ log: (l) => lines.push(l) });
    console.log(lines.join('\n'));
    expect(r.browser.errors, lines.join('\n')).toEqual([]);
    expect(r.phaserCopies).toHaveLength(1);
    expect(r.browser.simTime).toBeGreaterThanOrEqual(1.5);
  });
});
