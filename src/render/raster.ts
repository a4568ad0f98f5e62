/**
 * SVG → pixels with resvg (@resvg/resvg-js: Rust resvg, prebuilt per-platform binaries shipped
 * inside npm packages as optional dependencies; anti-aliased, deterministic). Loaded lazily so
 * nothing but the CLI's frame output ever loads it; a missing package is a clear input error.
 */
import { createRequire } from 'node:module';
import { InputError } from '../errors';

interface ResvgModule {
  Resvg: new (svg: string, opts?: object) => { render(): { asPng(): Buffer; pixels: Buffer; width: number; height: number } };
}

let resvg: ResvgModule | null = null;

function load(): ResvgModule {
  if (resvg) return resvg;
  try {
    resvg = createRequire(import.meta.url)('@resvg/resvg-js') as ResvgModule;
  } catch (e) {
    throw new InputError(
      `frame output needs the optional dependency @resvg/resvg-js, which could not be loaded (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); ` +
        'install it with: npm install @resvg/resvg-js',
    );
  }
  return resvg;
}

export interface Raster {
  png(): Buffer;
  /** RGBA, 4 bytes per pixel, row-major from the top-left. */
  rgba(): Buffer;
}

/** Rasterize one SVG document (its own width and height, no scaling, no system fonts). */
export function rasterize(svg: string): Raster {
  const { Resvg } = load();
  const img = new Resvg(svg, { font: { loadSystemFonts: false }, shapeRendering: 2 }).render();
  return { png: () => img.asPng(), rgba: () => img.pixels };
}
