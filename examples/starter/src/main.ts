// A minimal Phaser 4 game with Elastica soft bodies: the README's plugin snippet plus a status line.
// Set up: docs/getting-started.md. Run: npm install, then npm run dev (or npm run build && npm run preview).
import Phaser from 'phaser';
import { ElasticaPlugin } from 'elastica/phaser';
import type { PhysicsWorld } from 'elastica';

class Play extends Phaser.Scene {
  private status!: Phaser.GameObjects.Text;

  create() {
    this.soft.configure({ pixelsPerMetre: 100, originY: 600 }).add.bounds();
    this.soft.add.circle(400, 520, 60);                                  // static collider (pixels)
    this.soft.add.jelly(400, 150, { width: 120, height: 80, stiffness: 2e5, density: 20 });
    this.soft.add.rope([100, 80, 300, 80], { segments: 16, pinStart: true });            // a hanging rope
    this.soft.add.rope([100, 200, 300, 200], { segments: 16, clampStart: true, sag: 0.01 }); // a rod: EI for 1 % sag
    this.status = this.add.text(12, 10, '', { fontFamily: 'monospace', fontSize: '14px', color: '#cfd8e6' });
  }

  update() {
    // this.soft.world is the engine (SI units, y up); this.soft.sim the pixel-space simulation around it.
    const world: PhysicsWorld = this.soft.world;
    this.status.setText(`t = ${world.time.toFixed(2)} s · ${world.particleCount()} particles · drag the bodies`);
  }
}

const game = new Phaser.Game({ width: 800, height: 600, scene: Play,
  plugins: { scene: [{ key: 'ElasticaPlugin', plugin: ElasticaPlugin, mapping: 'soft' }] } });

// The running game, for the browser console (and the package's consumer test).
declare global {
  interface Window { game: Phaser.Game }
}
window.game = game;
