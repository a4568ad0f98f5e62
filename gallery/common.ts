import Phaser from 'phaser';
import { ElasticaPlugin, elasticaScenePlugin, type SoftBody } from '../src/phaser';

export { ElasticaPlugin };
export const WIDTH = 800;
export const HEIGHT = 500;

interface Hooks {
  /** Simulated time (s). */
  simTime(): number;
  /** Centroid of the drag-test body in game pixels. */
  centroid(): { x: number; y: number } | null;
  /** Where to press (client/page pixels) to grab the drag-test body. */
  dragTarget(): { x: number; y: number } | null;
  /** Page pixels per game pixel (canvas scaling). */
  scale(): number;
  stats(): ReturnType<ElasticaPlugin['stats']['valueOf']>;
  /** The renderer Phaser chose ('webgl', or 'canvas' with ?renderer=canvas). */
  renderer(): 'webgl' | 'canvas';
  /** Pause / resume the simulation (the browser test freezes it between dragTarget() and the pointer press). */
  pause(): void;
  resume(): void;
  /** A pointer press has grabbed a body. */
  grabbing(): boolean;
}

/** Stats line (ms per step, step rate, triangles) under the canvas, and the window.__elastica test hooks. */
export function instrument(scene: Phaser.Scene, dragBody: () => SoftBody | null, readyFrames = 10): void {
  const el = document.getElementById('stats');
  let frames = 0;
  const w = window as unknown as { __elasticaReady?: boolean; __elastica?: Hooks };
  w.__elasticaReady = false;
  const canvas = (): HTMLCanvasElement => scene.game.canvas;
  w.__elastica = {
    simTime: () => (scene.soft.running ? scene.soft.world.time : 0),
    centroid: () => dragBody()?.centroid ?? null,
    scale: () => canvas().getBoundingClientRect().width / scene.scale.width,
    dragTarget: () => {
      const b = dragBody();
      if (!b) return null;
      // nearest particle to the centroid (a point surely on the body)
      const c = b.centroid, sim = scene.soft.sim;
      const P = sim.world.c.Particle;
      let best = { x: c.x, y: c.y }, bd = Infinity;
      for (const e of b.particles) {
        if (P.fixed[e] === 1) continue;
        const x = sim.toPixelX(P.x[e]!), y = sim.toPixelY(P.y[e]!), d = (x - c.x) ** 2 + (y - c.y) ** 2;
        if (d < bd) {
          bd = d;
          best = { x, y };
        }
      }
      const r = canvas().getBoundingClientRect(), s = r.width / scene.scale.width;
      return { x: r.left + best.x * s, y: r.top + best.y * s };
    },
    stats: () => scene.soft.stats,
    renderer: () => (scene.game.renderer.type === Phaser.WEBGL ? 'webgl' : 'canvas'),
    pause: () => void scene.soft.pause(),
    resume: () => void scene.soft.resume(),
    grabbing: () => scene.soft.running && scene.soft.sim.isGrabbing,
  };
  const replayBar = replayControls(scene);
  scene.events.on('render', () => {
    frames++;
    if (frames % 10 === 0) replayBar();
    if (frames >= readyFrames) w.__elasticaReady = true;
    if (el && frames % 15 === 0 && scene.soft.running) {
      const s = scene.soft.stats;
      el.textContent = `${s.msPerStep.toFixed(2)} ms/step · ${s.stepRate.toFixed(0)} steps/s · ${s.triangles} triangles · ${s.particles} particles · t = ${scene.soft.world.time.toFixed(1)} s`;
    }
  });
}

/**
 * Record / replay bar under the stats line: record what you do, stop, replay it in the page (every
 * fixed step's state hash checked: a "verified" badge when all match), download the .replay file
 * (check it headless: `npx elastica replay file.replay --verify`). Returns the bar's refresh.
 */
function replayControls(scene: Phaser.Scene): () => void {
  const stats = document.getElementById('stats');
  const bar = document.createElement('p');
  bar.className = 'replay-bar';
  const button = (label: string, title: string): HTMLButtonElement => {
    const b = document.createElement('button');
    b.textContent = label;
    b.title = title;
    bar.appendChild(b);
    return b;
  };
  const rec = button('● Record', 'record every fixed step from now on');
  const stop = button('■ Stop', 'stop recording');
  const play = button('▶ Replay', 'play the last recording back in this page, checking every state hash');
  const save = document.createElement('a');
  save.textContent = 'download .replay';
  save.style.marginLeft = '0.8em';
  bar.appendChild(save);
  const badge = document.createElement('span');
  badge.className = 'replay-badge';
  badge.style.marginLeft = '0.8em';
  bar.appendChild(badge);
  stats?.after(bar);
  let last: Uint8Array | null = null;
  const refresh = (): void => {
    if (!scene.soft.running) return;
    const sim = scene.soft.sim, st = sim.replayStatus;
    rec.disabled = sim.recording || (st?.playing ?? false);
    stop.disabled = !sim.recording;
    play.disabled = last === null || sim.recording;
    save.style.display = last ? 'inline' : 'none';
    if (sim.recording) badge.textContent = 'recording…';
    else if (st?.playing) badge.textContent = `replaying step ${st.step} of ${st.steps}`;
    else if (st) badge.textContent = st.verified ? `✔ verified: ${st.compared} of ${st.steps} state hashes match` : `✘ diverged after step ${st.mismatchStep}`;
    else badge.textContent = last ? `${last.length} bytes recorded` : '';
  };
  rec.onclick = () => {
    scene.soft.sim.record();
    refresh();
  };
  stop.onclick = () => {
    last = scene.soft.sim.stopRecording();
    if (save.href) URL.revokeObjectURL(save.href);
    save.href = URL.createObjectURL(new Blob([last.slice().buffer as ArrayBuffer], { type: 'application/octet-stream' }));
    save.download = `${document.title.split(' - ')[0]!.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.replay`;
    refresh();
  };
  play.onclick = () => {
    if (last) scene.soft.sim.replay(last);
    refresh();
  };
  const hooks = (window as unknown as { __elastica?: Record<string, unknown> }).__elastica;
  if (hooks) {
    hooks.replayButtons = () => ({ rec, stop, play });
    hooks.replayBadge = () => badge.textContent;
    hooks.lastReplay = () => {
      let bin = '';
      for (const b of last ?? new Uint8Array(0)) bin += String.fromCharCode(b);
      return btoa(bin);
    };
  }
  refresh();
  return refresh;
}

/** `?renderer=canvas` forces Phaser's Canvas renderer (flat-shaded fallback views); `?renderer=webgl` forces WebGL. */
export function rendererType(search = location.search): number {
  const r = new URLSearchParams(search).get('renderer');
  return r === 'canvas' ? Phaser.CANVAS : r === 'webgl' ? Phaser.WEBGL : Phaser.AUTO;
}

export function startGame(scene: Phaser.Types.Scenes.SceneType, background = '#1d2330'): Phaser.Game {
  return new Phaser.Game({
    type: rendererType(),
    parent: 'game',
    width: WIDTH,
    height: HEIGHT,
    backgroundColor: background,
    plugins: { scene: [elasticaScenePlugin()] },
    scene,
  });
}

/** A canvas texture drawn with the 2D context API. */
export function canvasTexture(scene: Phaser.Scene, key: string, w: number, h: number, draw: (ctx: CanvasRenderingContext2D) => void): void {
  if (scene.textures.exists(key)) return;
  const t = scene.textures.createCanvas(key, w, h)!;
  draw(t.getContext());
  t.refresh();
}

/** Keyboard: D debug view, P pause, S single step. */
export function controls(scene: Phaser.Scene): void {
  scene.input.keyboard?.on('keydown-D', () => (scene.soft.debug = !scene.soft.debug));
  scene.input.keyboard?.on('keydown-P', () => (scene.soft.sim.paused ? scene.soft.resume() : scene.soft.pause()));
  scene.input.keyboard?.on('keydown-S', () => scene.soft.step());
}
