import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
const pages = JSON.parse(readFileSync(resolve(here, 'gallery/pages.json'), 'utf8')) as { name: string }[];

/** The gallery: a static multi-page site (npm start serves it, npm run build writes site/). */
export default defineConfig({
  root: resolve(here, 'gallery'),
  base: './',
  publicDir: resolve(here, 'gallery/public'),
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173 },
  build: {
    outDir: resolve(here, 'site'),
    emptyOutDir: true,
    // Phaser alone is ~1.3 MB minified.
    chunkSizeWarningLimit: 2000,
    rollupOptions: {
      input: {
        index: resolve(here, 'gallery/index.html'),
        ...Object.fromEntries(pages.map((p) => [p.name, resolve(here, `gallery/pages/${p.name}.html`)])),
      },
    },
  },
});
