import Phaser from 'phaser';
import { ElasticaPlugin, elasticaScenePlugin, type Steppable } from '../../src/game/plugin';
import { Skin } from '../../src/game/skin';
import { mesh2dIndices, mesh2dVertices, uvFromBounds } from '../../src/game/mesh2d';
import { meshBox } from '../../src/mesh';
import { sin } from '../../src/math';
import { markFrames } from '../ready';

/** Placeholder simulation: a travelling bend wave over the rest mesh (the real PhysicsWorld comes later). */
class WobbleWorld implements Steppable {
  readonly dt = 1 / 60;
  time = 0;
  readonly positions: Float64Array;
  constructor(private readonly rest: Float64Array) {
    this.positions = Float64Array.from(rest);
  }
  step(): void {
    this.time += this.dt;
    const t = this.time;
    for (let i = 0; i < this.rest.length; i += 2) {
      const x = this.rest[i]!, y = this.rest[i + 1]!;
      this.positions[i] = x + 0.15 * y * sin(2 * t);
      this.positions[i + 1] = y + 0.3 * sin(1.5 * x + 3 * t) * (0.5 + 0.5 * x / 2);
    }
  }
}

class HelloScene extends Phaser.Scene {
  declare elastica: ElasticaPlugin;

  create(): void {
    const ppm = 90;
    const originX = 400, originY = 230;
    this.makeCheckerTexture('checker', 256, 128);

    const sim = meshBox(4, 2, 4, 2);
    const display = meshBox(4, 2, 16, 8);
    const verts = mesh2dVertices(display.positions, uvFromBounds(display.positions), ppm);
    const skin = new Skin(sim.positions, sim.triangles, display.positions).setOutput({ stride: 4, scaleX: ppm, scaleY: -ppm });
    // Mesh2D reads `vertices` by index each frame, so the typed array can be updated in place.
    const mesh = this.add.mesh2d(originX, originY, 'checker', verts as unknown as number[], mesh2dIndices(display.triangles));
    mesh.buildOrderedIndices(2, true);

    const wire = this.add.graphics();
    const world = new WobbleWorld(sim.positions);
    const plugin = this.elastica.configure({ pixelsPerMetre: ppm, originX, originY }).attach(world);
    plugin.onAfterStep(() => {
      skin.update(world.positions, verts);
      wire.clear();
      wire.lineStyle(2, 0xffffff, 0.8);
      const p = world.positions, t = sim.triangles;
      for (let k = 0; k < t.length; k += 3) {
        const a = t[k]!, b = t[k + 1]!, c = t[k + 2]!;
        wire.strokeTriangle(
          plugin.toPixelX(p[2 * a]!), plugin.toPixelY(p[2 * a + 1]!),
          plugin.toPixelX(p[2 * b]!), plugin.toPixelY(p[2 * b + 1]!),
          plugin.toPixelX(p[2 * c]!), plugin.toPixelY(p[2 * c + 1]!),
        );
      }
      wire.fillStyle(0xff5c5c, 1);
      for (let i = 0; i < p.length; i += 2) wire.fillCircle(plugin.toPixelX(p[i]!), plugin.toPixelY(p[i + 1]!), 4);
    });

    this.add.text(12, 10, 'Elastica: Mesh2D skinning placeholder', { fontFamily: 'monospace', fontSize: '16px', color: '#e6e9ef' });
    markFrames(this, 10);
  }

  private makeCheckerTexture(key: string, w: number, h: number): void {
    const tex = this.textures.createCanvas(key, w, h)!;
    const ctx = tex.getContext();
    const n = 16;
    for (let j = 0; j < h / n; j++) {
      for (let i = 0; i < w / n; i++) {
        ctx.fillStyle = (i + j) % 2 === 0 ? '#3d7bd9' : '#f2c14e';
        ctx.fillRect(i * n, j * n, n, n);
      }
    }
    ctx.fillStyle = '#d94f3d';
    ctx.fillRect(0, 0, w, 12); // top stripe: checks the texture is not upside down
    tex.refresh();
  }
}

new Phaser.Game({
  type: Phaser.WEBGL,
  parent: 'game',
  width: 800,
  height: 450,
  backgroundColor: '#1d2330',
  plugins: { scene: [elasticaScenePlugin()] },
  scene: HelloScene,
});
