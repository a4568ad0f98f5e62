#!/usr/bin/env node
// The `elastica` command. Runs the compiled CLI when dist/ exists, else the
// TypeScript sources through tsx (a development install).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const compiled = join(root, 'dist', 'cli', 'main.js');
let entry;
if (existsSync(compiled)) {
  entry = compiled;
} else {
  const { register } = await import('tsx/esm/api');
  register();
  entry = join(root, 'src', 'cli', 'main.ts');
}
const { main } = await import(pathToFileURL(entry).href);
process.exitCode = await main(process.argv.slice(2));
