import Phaser from 'phaser';
import { HEIGHT, WIDTH, controls, instrument, startGame } from '../common';
import type { SoftBody } from '../../src/game/plugin';

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
document.getElementById('game')!.before(select);

class ViewerScene extends Phaser.Scene {
  private body: SoftBody | null = null;

  preload(): void {
    this.load.xml('scene', scenes[`../../assets/scenes/fosssim/${chosen}`]!);
  }

  create(): void {
    const soft = this.soft;
    this.body = soft.add.fromScene('scene');
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
    this.add.text(10, 8, chosen, { fontFamily: 'monospace', fontSize: '14px', color: '#e6e9ef' });
    controls(this);
    instrument(this, () => this.body);
  }
}

startGame(ViewerScene);
