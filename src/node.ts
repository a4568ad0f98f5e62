/**
 * `elastica/node`: the Node-only helpers (they import node:fs; keep them out of browser bundles).
 *
 * - loadSceneFile: read and parse a FOSSSim XML scene file (errors name the file, tag, index and attribute).
 * - runScene: what `elastica run` does: simulate a scene file and write FOSSSim's binary state format.
 * - StateWriter: that format's writer (temporary file + rename, so a failed run leaves no partial file).
 *
 * Everything in `elastica` (the engine) works in Node too; import it from there.
 */
export { loadSceneFile } from './scene/load';
export { runScene } from './cli/main';
export { SimulationError } from './errors'; // also in `elastica`; kept here, where runScene users found it
export type { RunOptions as RunSceneOptions } from './cli/main';
export { StateWriter } from './cli/output';
