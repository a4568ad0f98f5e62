#!/usr/bin/env node
// The `elastica` command. An installed package runs the built CLI (dist/cli/main.js) with plain Node.
// A development checkout (src/ present and tsx installed) runs the TypeScript sources through tsx instead, so
// the command always matches the code being edited; ELASTICA_USE_DIST=1 forces the built CLI there too.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const compiled = join(root, 'dist', 'cli', 'main.js');
const source = join(root, 'src', 'cli', 'main.ts');

function hasTsx() {
  try {
    createRequire(join(root, 'package.json')).resolve('tsx/esm/api');
    return true;
  } catch {
    return false;
  }
}

let entry;
if (existsSync(source) && process.env.ELASTICA_USE_DIST !== '1' && hasTsx()) {
  const { register } = await import('tsx/esm/api');
  register();
  entry = source;
} else if (existsSync(compiled)) {
  entry = compiled;
} else {
  process.stderr.write(`elastica: ${compiled} is missing: run \`npm run build\` in ${root}\n`);
  process.exit(1);
}
const { main } = await import(pathToFileURL(entry).href);
process.exitCode = await main(process.argv.slice(2), { ownProcess: true });
