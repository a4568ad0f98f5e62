import Phaser from 'phaser';
import { HEIGHT, controls, instrument, startGame } from '../common';

/** Side view of a helix: a looping trochoid x = r sin t + a t·p, y drops by pitch per turn (pixels). */
function coilPoints(x0: number, y0: number, radius: number, pitch: number, turns: number, perTurn: number): number[] {
  const pts: number[] = [];
  const n = Math.round(turns * perTurn);
  for (let k = 0; k <= n; k++) {
    const t = (k / perTurn) * Math.PI * 2;
    pts.push(x0 + radius * Math.sin(t), y0 + (pitch * t) / (Math.PI * 2) + 0.35 * radius * (1 - Math.cos(t)));
  }
  return pts;
}

class RodScene extends Phaser.Scene {
  create(): void {
    const soft = this.soft.configure({ pixelsPerMetre: 100, originX: 0, originY: HEIGHT });
    soft.add.bounds();
    // cantilever: stiff rod pinned at its left end; a second pinned particle clamps the angle
    const cantilever = soft.add.rope([60, 120, 330, 120], { segments: 14, bending: 6, stretch: 2e4, pinStart: true, width: 12, linearDensity: 2 });
    const P = soft.world.world.c.Particle;
    P.fixed[cantilever.particles[1]!] = 1;
    // limp rope between two pins
    soft.add.rope([380, 80, 560, 80], { segments: 20, bending: 0.002, stretch: 800, pinStart: true, pinEnd: true, width: 8 });
    // coil spring: rod whose rest shape is a helix seen from the side; top pinned, a weight at the bottom
    const coil = soft.add.rope(coilPoints(680, 40, 34, 28, 7, 16), {
      // the side view crosses itself at rest: no self (body–body) contact, colliders only
      bending: 4, stretch: 3e4, pinStart: true, width: 6, linearDensity: 1.5, tint: 0xd0d6e0, bodyContact: false,
    });
    P.m[coil.particles[coil.particles.length - 1]!] = 0.6;
    soft.add.circle(200, 420, 40);
    controls(this);
    instrument(this, () => coil);
  }
}

startGame(RodScene);
