import Phaser from 'phaser';
import type { SoftBody } from '../../src/game/plugin';
import { HEIGHT, WIDTH, canvasTexture, controls, instrument, startGame } from '../common';

/** Jelly garden: flowers (soft discs on springy stems) sway as jelly drops fall from the sky. */
class GardenScene extends Phaser.Scene {
  private drops: SoftBody[] = [];
  private t = 0;

  create(): void {
    const soft = this.soft.configure({ pixelsPerMetre: 100, originX: 0, originY: HEIGHT });
    const sky = this.add.graphics().setDepth(-10);
    sky.fillGradientStyle(0x0d1b3d, 0x0d1b3d, 0x3a2860, 0x7a3a6a, 1);
    sky.fillRect(0, 0, WIDTH, HEIGHT);
    sky.fillStyle(0xfff3c4, 0.9);
    sky.fillCircle(680, 80, 34);
    for (let i = 0; i < 60; i++) sky.fillCircle((i * 137) % WIDTH, (i * 71) % 260, i % 5 === 0 ? 1.6 : 0.9);
    const hill = this.add.graphics().setDepth(-5);
    hill.fillStyle(0x1c3b2a, 1);
    hill.fillEllipse(400, 520, 1000, 140);
    const petals = ['#ff8fb1', '#ffd166', '#8fd3ff', '#c3a6ff', '#9ef0b0'];
    petals.forEach((c, i) => {
      canvasTexture(this, `petal${i}`, 128, 128, (ctx) => {
        const g = ctx.createRadialGradient(64, 64, 4, 64, 64, 80);
        g.addColorStop(0, '#fff6d5');
        g.addColorStop(0.25, '#ffb703');
        g.addColorStop(0.3, c);
        g.addColorStop(1, '#2a1240');
        ctx.fillStyle = g;
        ctx.fillRect(0, 0, 128, 128);
      });
    });
    soft.add.bounds();
    const ground = [0, 470, 200, 455, 400, 462, 600, 452, 800, 470];
    soft.add.polygon([0, 500, ...ground, 800, 500]);
    const groundY = (x: number): number => {
      for (let k = 0; k + 3 < ground.length; k += 2) {
        const x0 = ground[k]!, y0 = ground[k + 1]!, x1 = ground[k + 2]!, y1 = ground[k + 3]!;
        if (x >= x0 && x <= x1) return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
      }
      return 470;
    };
    let first: SoftBody | null = null;
    for (let i = 0; i < 5; i++) {
      const x = 110 + i * 145, top = 240 + (i % 2) * 50;
      // stem from just above the ground polygon to just below the head (stem and head are separate contact
      // bodies: overlapping them would make body–body contact push them apart)
      const base = groundY(x) - 4, tip = top + 38;
      soft.add.rope([x, base, x + 4, (base + tip) / 2, x, tip], { segments: 10, bending: 25, stretch: 3e4, pinStart: true, width: 7, tint: 0x3fa34d, linearDensity: 0.3 });
      const flower = soft.add.jelly(x, top, {
        points: starPoints(6, 34, 20), resolution: 12, stiffness: 4e4, density: 1.5, texture: `petal${i}`,
      });
      first ??= flower;
    }
    // tie flower heads to stem tips with a stiff spring (shared world API)
    const w = soft.world.world;
    const bodies = soft.world.bodies;
    for (let i = 0; i < 5; i++) {
      const stem = bodies[2 * i]!, head = bodies[2 * i + 1]!;
      const tip = stem.particles[stem.particles.length - 1]!;
      const P = w.c.Particle;
      let best = head.particles[0]!, bd = Infinity;
      for (const e of head.particles) {
        const d = (P.x[e]! - P.x[tip]!) ** 2 + (P.y[e]! - P.y[tip]!) ** 2;
        if (d < bd) {
          bd = d;
          best = e;
        }
      }
      w.addSpring(tip, best, { alpha: 800, l0: Math.max(0.02, Math.sqrt(bd)) });
    }
    controls(this);
    instrument(this, () => first);
    this.time.addEvent({ delay: 900, loop: true, callback: () => this.drop() });
  }

  private drop(): void {
    if (!this.soft.sim) return;
    this.t++;
    const x = 60 + ((this.t * 211) % 680);
    this.drops.push(this.soft.add.jelly(x, -30, { radius: 16, resolution: 8, stiffness: 4e4, density: 3, tint: 0x7fd8ff }));
    if (this.drops.length > 6) this.soft.remove(this.drops.shift()!);
  }
}

function starPoints(n: number, outer: number, inner: number): number[] {
  const pts: number[] = [];
  for (let k = 0; k < 2 * n; k++) {
    const a = (k * Math.PI) / n - Math.PI / 2, r = k % 2 === 0 ? outer : inner;
    pts.push(r * Math.cos(a), r * Math.sin(a));
  }
  return pts;
}

startGame(GardenScene);
