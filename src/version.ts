/** The engine's version (package.json's), written into snapshots and replays. */
export const ENGINE_VERSION = '0.1.0';
