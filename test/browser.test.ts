/**
 * Gallery smoke test in headless Chromium (see test/browser/run.ts).
 * Skipped, with the reason printed, only when Chromium is not installed
 * (apt-get install chromium, or set CHROMIUM_PATH); CI installs it.
 */
import { describe, expect, it } from 'vitest';
import { chromiumAvailable, chromiumPath, runBrowserChecks } from './browser/run';

const available = chromiumAvailable();
if (!available) {
  console.warn(`[browser.test] SKIPPED: Chromium not found at ${chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH)`);
}

describe.skipIf(!available)(`gallery in headless Chromium (${chromiumPath})`, () => {
  it('builds the gallery; every page loads without errors and draws', { timeout: 180_000 }, async () => {
    const lines: string[] = [];
    const results = await runBrowserChecks({ log: (l) => lines.push(l) });
    expect(results.length).toBeGreaterThanOrEqual(2);
    for (const r of results) expect(r.errors, `${r.name}:\n${lines.join('\n')}`).toEqual([]);
  });
});
