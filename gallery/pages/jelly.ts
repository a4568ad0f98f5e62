import Phaser from 'phaser';
import type { SoftBody } from '../../src/phaser';
import { HEIGHT, WIDTH, canvasTexture, controls, instrument, startGame } from '../common';

class JellyScene extends Phaser.Scene {
  create(): void {
    // ?renderPath=quads: Phaser's quad-pairing path for the skins (the browser test counts its artefacts)
    const path = new URLSearchParams(location.search).get('renderPath') === 'quads' ? 'quads' : 'triangles';
    const soft = this.soft.configure({ pixelsPerMetre: 100, originX: 0, originY: HEIGHT, renderPath: path });
    canvasTexture(this, 'crate', 128, 128, (ctx) => {
      ctx.fillStyle = '#e8a33d';
      ctx.fillRect(0, 0, 128, 128);
      ctx.strokeStyle = '#8a5a1c';
      ctx.lineWidth = 10;
      ctx.strokeRect(5, 5, 118, 118);
      ctx.beginPath();
      ctx.moveTo(5, 5);
      ctx.lineTo(123, 123);
      ctx.stroke();
      ctx.fillStyle = '#fff4';
      ctx.fillRect(14, 14, 40, 8);
    });
    canvasTexture(this, 'slime', 128, 128, (ctx) => {
      const g = ctx.createRadialGradient(50, 45, 8, 64, 64, 70);
      g.addColorStop(0, '#d7f7ff');
      g.addColorStop(0.4, '#5cc6f2');
      g.addColorStop(1, '#1d5fa8');
      ctx.fillStyle = g;
      ctx.fillRect(0, 0, 128, 128);
      ctx.fillStyle = '#0b2547';
      ctx.beginPath();
      ctx.arc(46, 70, 8, 0, Math.PI * 2);
      ctx.arc(82, 70, 8, 0, Math.PI * 2);
      ctx.fill();
    });
    canvasTexture(this, 'star', 128, 128, (ctx) => {
      ctx.fillStyle = '#ff6b8b';
      ctx.fillRect(0, 0, 128, 128);
      ctx.fillStyle = '#ffd1dc';
      for (let i = 0; i < 8; i++) ctx.fillRect(i * 16, 0, 6, 128);
    });
    soft.add.bounds();
    soft.add.circle(180, 430, 60);
    soft.add.circle(330, 470, 45);
    soft.add.segment(470, 260, 780, 380, 10);
    soft.add.polygon([520, 500, 640, 430, 760, 500]);
    const box = soft.add.jelly(200, 200, { width: 110, height: 80, stiffness: 2e5, density: 20, texture: 'crate' });
    soft.add.jelly(350, 160, { radius: 42, stiffness: 6e4, density: 20, texture: 'slime' });
    soft.add.jelly(620, 120, {
      points: [0, -60, 18, -18, 60, -14, 28, 12, 38, 56, 0, 32, -38, 56, -28, 12, -60, -14, -18, -18],
      resolution: 18, stiffness: 8e4, density: 20, texture: 'star',
    });
    soft.add.jelly(200, 80, { width: 60, height: 60, stiffness: 2e5, density: 20, texture: 'crate', tint: 0x9fd0ff });
    const drag: SoftBody = box;
    // compile the scene's contact and material code now (its first second, run and undone), not in the first frames
    soft.warmUp();
    // test hook: switch every skin between the quad-pairing and the triangle path on the same frame (the browser
    // test renders one paused state both ways and compares the pixels)
    (window as unknown as { __renderPath?: (p: 'quads' | 'triangles') => void }).__renderPath = (p) => {
      for (const b of soft.sim.bodies) {
        const m = b.mesh;
        if (!m) continue;
        if (p === 'quads') {
          if (!m.indicesOrdered) m.buildOrderedIndices(2, true);
          m.useOrderedIndices = true;
          m.setRenderAsTriangles(false);
        } else m.setRenderAsTriangles(true);
      }
    };
    controls(this);
    instrument(this, () => drag);
  }
}

startGame(JellyScene);
void WIDTH;
