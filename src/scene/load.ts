/**
 * Reading a FOSSSim scene file from disk (Node only: this module imports node:fs; the browser-safe
 * parser is src/scene/xml.ts). Exported to users as `elastica/node`.
 */
import { readFileSync } from 'node:fs';
import { InputError } from '../errors';
import { parseSceneXml } from './xml';
import type { SceneDescription } from './types';

/** Read a scene file and parse it. A missing or unreadable file is an InputError. */
export function loadSceneFile(path: string): SceneDescription {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new InputError(`cannot read scene file '${path}': ${readReason(err)}`);
  }
  return parseSceneXml(text, path);
}

function readReason(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'EISDIR':
      return 'is a directory';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    default:
      return err instanceof Error ? err.message : String(err);
  }
}
