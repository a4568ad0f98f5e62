import type Phaser from 'phaser';

/** Signals the browser test that a page has rendered `frames` frames (window.__elasticaReady). */
export function markFrames(scene: Phaser.Scene, frames: number): void {
  const w = window as unknown as { __elasticaReady?: boolean; __elasticaFrames?: number };
  w.__elasticaReady = false;
  w.__elasticaFrames = 0;
  // Scene RENDER event ('render'): emitted by Scene Systems after the scene has drawn.
  scene.events.on('render', () => {
    w.__elasticaFrames = (w.__elasticaFrames ?? 0) + 1;
    if (w.__elasticaFrames >= frames) w.__elasticaReady = true;
  });
}
