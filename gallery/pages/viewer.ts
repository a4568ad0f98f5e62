import Phaser from 'phaser';
import { HEIGHT, WIDTH, controls, instrument, startGame } from '../common';
import type { SoftBody } from '../../src/phaser';
import { parseSceneXml } from '../../src/scene/xml';

/** Every bundled FOSSSim scene, served as a URL by Vite. */
const scenes = import.meta.glob('../../assets/scenes/fosssim/**/*.xml', { query: '?url', import: 'default', eager: true }) as Record<string, string>;
const names = Object.keys(scenes).sort().map((k) => k.replace('../../assets/scenes/fosssim/', ''));
const DEFAULT = 't4m1/BendingTests/test18.xml';

const params = new URLSearchParams(location.search);
const chosen = names.includes(params.get('scene') ?? '') ? params.get('scene')! : DEFAULT;

const select = document.createElement('select');
for (const n of names) select.append(new Option(n, n, n === chosen, n === chosen));
select.onchange = () => {
  location.search = `?scene=${encodeURIComponent(select.value)}`;
};

// Your own scene: "Open file…" or drag an XML file onto the page. The loader's message (file, tag,
// attribute, line) is shown in the page on bad input, and the running scene is kept.
/** A user's scene text and file name; null: the bundled scene chosen above. */
let own: { text: string; name: string } | null = null;
const fileInput = Object.assign(document.createElement('input'), { type: 'file', accept: '.xml,text/xml,application/xml', hidden: true });
const openButton = Object.assign(document.createElement('button'), { type: 'button', textContent: 'Open file…', title: 'Open a FOSSSim XML scene (or drop one on the page)' });
const resetButton = Object.assign(document.createElement('button'), { type: 'button', textContent: 'Reset', title: 'Restart the scene from its initial state' });
const errorBox = Object.assign(document.createElement('pre'), { id: 'error', className: 'error', hidden: true });
const toolbar = document.createElement('div');
toolbar.className = 'toolbar';
toolbar.append(select, openButton, resetButton, fileInput);
document.getElementById('game')!.before(toolbar, errorBox);

function showError(message: string | null): void {
  errorBox.hidden = message === null;
  errorBox.textContent = message ?? '';
}

function restart(): void {
  game.scene.getScenes(true)[0]?.scene.restart();
}

async function openFile(file: File): Promise<void> {
  const text = await file.text();
  try {
    parseSceneXml(text, file.name); // the loader's checks, with its message
  } catch (e) {
    showError(e instanceof Error ? e.message : String(e));
    return;
  }
  own = { text, name: file.name };
  showError(null);
  restart();
}

openButton.onclick = () => fileInput.click();
fileInput.onchange = () => {
  const f = fileInput.files?.[0];
  if (f) void openFile(f);
  fileInput.value = '';
};
resetButton.onclick = () => restart();
document.addEventListener('dragover', (e) => {
  e.preventDefault();
  document.body.classList.add('dropping');
});
document.addEventListener('dragleave', () => document.body.classList.remove('dropping'));
document.addEventListener('drop', (e) => {
  e.preventDefault();
  document.body.classList.remove('dropping');
  const f = e.dataTransfer?.files[0];
  if (f) void openFile(f);
});

class ViewerScene extends Phaser.Scene {
  private body: SoftBody | null = null;

  preload(): void {
    this.load.xml('scene', scenes[`../../assets/scenes/fosssim/${chosen}`]!);
  }

  create(): void {
    const soft = this.soft;
    try {
      this.body = own ? soft.fromSceneText(own.text, own.name) : soft.add.fromScene('scene');
    } catch (e) {
      // a scene that parses but cannot be built (e.g. game-mode integrator with a vortex force)
      showError(e instanceof Error ? e.message : String(e));
      own = null;
      this.body = soft.add.fromScene('scene');
    }
    // fit the scene's rest positions into the canvas
    const r = this.body.rest;
    let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
    for (let i = 0; i < r.length; i += 2) {
      minX = Math.min(minX, r[i]!);
      maxX = Math.max(maxX, r[i]!);
      minY = Math.min(minY, r[i + 1]!);
      maxY = Math.max(maxY, r[i + 1]!);
    }
    const span = Math.max(maxX - minX, (maxY - minY) * 1.6, 1e-3);
    const ppm = (WIDTH * 0.5) / span;
    soft.configure({ pixelsPerMetre: ppm, originX: WIDTH / 2 - ((minX + maxX) / 2) * ppm, originY: HEIGHT / 2 + ((minY + maxY) / 2) * ppm });
    const grid = this.add.graphics().setDepth(-10);
    grid.fillStyle(0x252c3d, 1);
    grid.fillRect(0, 0, WIDTH, HEIGHT);
    grid.lineStyle(1, 0x323b52, 1);
    for (let x = 0; x <= WIDTH; x += 40) grid.lineBetween(x, 0, x, HEIGHT);
    for (let y = 0; y <= HEIGHT; y += 40) grid.lineBetween(0, y, WIDTH, y);
    this.add.text(10, 8, own ? own.name : chosen, { fontFamily: 'monospace', fontSize: '14px', color: '#e6e9ef' });
    controls(this);
    instrument(this, () => this.body);
  }
}

const game = startGame(ViewerScene);
