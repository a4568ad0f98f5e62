import Phaser from 'phaser';
import type { SoftBody } from '../../src/phaser';
import { HEIGHT, WIDTH, canvasTexture, controls, instrument, startGame } from '../common';

/**
 * Jelly garden at dusk: jelly flowers stand on clamped elastic stems and sway when jelly dew drops fall on them.
 * Physics: each stem is a rope clamped in the ground (its two lowest nodes fixed) with a flexural rigidity EI well
 * above what the head's weight needs to stand (Euler buckling load π²EI/(4L²) ≈ 10× the head's weight), and the head
 * is a jelly tied to the stem's top two nodes. Sky, hills, grass and fireflies are drawing only.
 */
class GardenScene extends Phaser.Scene {
  private drops: SoftBody[] = [];
  private t = 0;
  private fireflies!: Phaser.GameObjects.Graphics;

  create(): void {
    const soft = this.soft.configure({ pixelsPerMetre: 100, originX: 0, originY: HEIGHT });
    const sky = this.add.graphics().setDepth(-10);
    sky.fillGradientStyle(0x0b1633, 0x0b1633, 0x6b3a6e, 0xc0657a, 1);
    sky.fillRect(0, 0, WIDTH, HEIGHT);
    // moon with a halo
    for (let k = 6; k >= 1; k--) sky.fillStyle(0xfff3c4, 0.04 * (7 - k)).fillCircle(660, 86, 30 + 9 * k);
    sky.fillStyle(0xfff6d8, 1).fillCircle(660, 86, 30);
    sky.fillStyle(0xe9dcb0, 0.6).fillCircle(650, 78, 6).fillCircle(670, 98, 4);
    // stars: a deterministic scatter, brighter ones twinkle-sized
    for (let i = 0; i < 90; i++) {
      const x = (i * 137.5) % WIDTH, y = (i * 71.3) % 240;
      sky.fillStyle(0xffffff, 0.35 + 0.5 * ((i * 29) % 7) / 7).fillCircle(x, y, i % 7 === 0 ? 1.7 : 0.9);
    }
    // far hills
    const hills = this.add.graphics().setDepth(-8);
    hills.fillStyle(0x2a2350, 1);
    hills.fillPoints(ridge(330, 40, 0.011, 1.3), true);
    hills.fillStyle(0x1d2a44, 1);
    hills.fillPoints(ridge(385, 28, 0.017, 0.4), true);

    petalTextures(this);
    canvasTexture(this, 'dew', 64, 64, (ctx) => {
      const g = ctx.createRadialGradient(24, 22, 2, 32, 32, 40);
      g.addColorStop(0, '#ffffff');
      g.addColorStop(0.25, '#c8f4ff');
      g.addColorStop(0.7, '#5ec8f0');
      g.addColorStop(1, '#2a6fb0');
      ctx.fillStyle = g;
      ctx.fillRect(0, 0, 64, 64);
    });
    soft.add.bounds();
    const ground = [0, 468, 160, 452, 320, 460, 480, 450, 640, 458, 800, 466];
    soft.add.polygon([0, 500, ...ground, 800, 500]);
    const groundY = (x: number): number => {
      for (let k = 0; k + 3 < ground.length; k += 2) {
        const x0 = ground[k]!, y0 = ground[k + 1]!, x1 = ground[k + 2]!, y1 = ground[k + 3]!;
        if (x >= x0 && x <= x1) return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
      }
      return 470;
    };
    const soil = this.add.graphics().setDepth(-4);
    soil.fillStyle(0x16301f, 1).fillPoints(toPoints([0, 500, ...ground, 800, 500]), true);
    // grass blades (drawing only) along the ground line
    const grass = this.add.graphics().setDepth(2);
    for (let i = 0; i < 140; i++) {
      const x = (i * 5.77) % WIDTH, y = groundY(x) + 2, h = 8 + ((i * 13) % 11), lean = ((i * 7) % 9) - 4;
      grass.fillStyle(i % 3 === 0 ? 0x3f8f4e : 0x2f6e3d, 1);
      grass.fillTriangle(x - 2, y, x + 2, y, x + lean, y - h);
    }

    const flowers = [
      { x: 120, h: 190, petal: 0, size: 32 },
      { x: 240, h: 250, petal: 1, size: 38 },
      { x: 365, h: 170, petal: 2, size: 30 },
      { x: 490, h: 235, petal: 3, size: 36 },
      { x: 615, h: 185, petal: 4, size: 31 },
      { x: 720, h: 215, petal: 0, size: 29 },
    ];
    let first: SoftBody | null = null;
    flowers.forEach((f, i) => {
      const base = groundY(f.x) + 6, top = base - f.h;
      // the stem stops 6 px under the head (both are contact bodies: a stem tip starting inside the head is a deep
      // contact that the implicit solve does not survive with several flowers) and a gentle
      // S-curve is its rest shape (θ0 from the given points); EI grows with the square of the height (buckling)
      const bend = i % 2 === 0 ? 6 : -6, tip = top + f.size * 0.6 + 6;
      const stem = soft.add.rope([f.x, base, f.x + bend, base - f.h * 0.35, f.x - bend * 0.5, base - f.h * 0.7, f.x, tip], {
        segments: 12, bendStiffness: 40 * (f.h / 200) ** 2, linearDensity: 0.4, clampStart: true, width: 6, tint: 0x4fae5a,
      });
      const head = soft.add.jelly(f.x, top, {
        points: starPoints(7, f.size, f.size * 0.6), resolution: f.size / 3, stiffness: 5e4, density: 1.5, texture: `petal${f.petal}`,
      });
      // the stem's top segment and the head's two nearest nodes, tied by three springs, form a rigid link
      const n = stem.particles.length;
      soft.sim.tie(stem, n - 1, head, 3e3);
      soft.sim.tie(stem, n - 1, head, 3e3, 0.02, 1);
      soft.sim.tie(stem, n - 2, head, 3e3);
      first ??= head;
    });

    this.fireflies = this.add.graphics().setDepth(5).setBlendMode(Phaser.BlendModes.ADD);
    controls(this);
    instrument(this, () => first);
    this.time.addEvent({ delay: 1100, loop: true, callback: () => this.drop() });
  }

  override update(time: number): void {
    // fireflies: drawing only, drifting on Lissajous paths
    const g = this.fireflies;
    g.clear();
    const s = time / 1000;
    for (let i = 0; i < 14; i++) {
      const x = 60 + ((i * 97) % 680) + 30 * Math.sin(s * (0.4 + 0.05 * i) + i);
      const y = 300 + ((i * 53) % 130) + 18 * Math.sin(s * (0.7 + 0.03 * i) + 2 * i);
      const a = 0.5 + 0.5 * Math.sin(s * 2.3 + i * 1.7);
      g.fillStyle(0xfff27a, 0.12 * a).fillCircle(x, y, 9);
      g.fillStyle(0xfffbd0, 0.8 * a).fillCircle(x, y, 2);
    }
  }

  private drop(): void {
    if (!this.soft.running) return;
    this.t++;
    const x = 70 + ((this.t * 211) % 660);
    this.drops.push(this.soft.add.jelly(x, -30, { radius: 14, resolution: 7, stiffness: 4e4, density: 2, texture: 'dew' }));
    if (this.drops.length > 6) this.soft.remove(this.drops.shift()!);
  }
}

/** Radial-gradient petal textures: a golden centre and coloured petals fading to the rim. */
function petalTextures(scene: Phaser.Scene): void {
  const petals = [['#ff8fb1', '#7a1f4a'], ['#ffd166', '#8a4a12'], ['#8fd3ff', '#1f3f8a'], ['#c3a6ff', '#40206a'], ['#ffab7a', '#7a2a1a']];
  petals.forEach(([c, rim], i) => {
    canvasTexture(scene, `petal${i}`, 128, 128, (ctx) => {
      const g = ctx.createRadialGradient(64, 64, 2, 64, 64, 78);
      g.addColorStop(0, '#fff8e0');
      g.addColorStop(0.16, '#ffcf3a');
      g.addColorStop(0.24, '#e08a1a');
      g.addColorStop(0.3, c!);
      g.addColorStop(0.75, c!);
      g.addColorStop(1, rim!);
      ctx.fillStyle = g;
      ctx.fillRect(0, 0, 128, 128);
    });
  });
}

/** A hill ridge polygon: baseline y, amplitude, frequency, phase (drawing only). */
function ridge(y: number, amp: number, freq: number, phase: number): Phaser.Math.Vector2[] {
  const pts = [new Phaser.Math.Vector2(0, HEIGHT)];
  for (let x = 0; x <= WIDTH; x += 20) pts.push(new Phaser.Math.Vector2(x, y - amp * Math.sin(x * freq + phase) - 0.5 * amp * Math.sin(x * freq * 2.7)));
  pts.push(new Phaser.Math.Vector2(WIDTH, HEIGHT));
  return pts;
}

function toPoints(flat: number[]): Phaser.Math.Vector2[] {
  const out: Phaser.Math.Vector2[] = [];
  for (let i = 0; i < flat.length; i += 2) out.push(new Phaser.Math.Vector2(flat[i], flat[i + 1]));
  return out;
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
