import Phaser from 'phaser';
import { HEIGHT, canvasTexture, controls, instrument, startGame } from '../common';

class BannerScene extends Phaser.Scene {
  create(): void {
    const soft = this.soft.configure({ pixelsPerMetre: 100, originX: 0, originY: HEIGHT });
    canvasTexture(this, 'banner', 512, 256, (ctx) => {
      const g = ctx.createLinearGradient(0, 0, 512, 0);
      g.addColorStop(0, '#7b2ff7');
      g.addColorStop(1, '#f107a3');
      ctx.fillStyle = g;
      ctx.fillRect(0, 0, 512, 256);
      ctx.fillStyle = '#ffffff';
      ctx.font = 'bold 88px sans-serif';
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText('ELASTICA', 256, 128);
      ctx.fillStyle = '#ffd23f';
      for (let i = 0; i < 512; i += 32) ctx.fillRect(i, 0, 16, 14);
    });
    soft.add.bounds();
    soft.add.circle(400, 360, 80);
    const banner = soft.add.sheet(400, 40, { width: 420, height: 160, cols: 16, rows: 6, pin: 'none', stiffness: 600, density: 1, texture: 'banner' });
    controls(this);
    instrument(this, () => banner);
  }
}

startGame(BannerScene);
