import Phaser from 'phaser';
import { HEIGHT, controls, instrument, startGame } from '../common';

/**
 * Side view of a helix seen slightly from above: a looping trochoid (pixels, y down). Each turn drops by `pitch`;
 * the 0.35·r·(1 − cos t) term opens the loops so the front and back of each turn are both visible.
 */
function coilPoints(x0: number, y0: number, radius: number, pitch: number, turns: number, perTurn: number): number[] {
  const pts: number[] = [];
  const n = Math.round(turns * perTurn);
  for (let k = 0; k <= n; k++) {
    const t = (k / perTurn) * Math.PI * 2;
    pts.push(x0 + radius * Math.sin(t), y0 + (pitch * t) / (Math.PI * 2) + 0.35 * radius * (1 - Math.cos(t)));
  }
  return pts;
}

const LABEL = { fontFamily: 'system-ui, sans-serif', fontSize: '13px', color: '#9fb0c8' };

class RodScene extends Phaser.Scene {
  create(): void {
    const soft = this.soft.configure({ pixelsPerMetre: 100, originX: 0, originY: HEIGHT });
    soft.add.bounds();
    const deco = this.add.graphics().setDepth(-1);

    // Cantilevers clamped in a wall block: the rope's `sag` picks the flexural rigidity EI = ρ g L³/(8·sag), so a
    // horizontal clamped rod sags at its tip by about that fraction of its length.
    soft.add.polygon([20, 70, 60, 70, 60, 260, 20, 260]);
    deco.fillStyle(0x56627a, 1).fillRect(20, 70, 40, 190);
    soft.add.rope([60, 100, 330, 100], { segments: 16, sag: 0.01, clampStart: true, width: 12, linearDensity: 2, tint: 0xd9b27c });
    soft.add.rope([60, 190, 330, 190], { segments: 16, sag: 0.25, clampStart: true, width: 8, linearDensity: 1, tint: 0x8fd18a });
    this.add.text(70, 70, 'stiff rod (sag 1 %)', LABEL);
    this.add.text(70, 160, 'fishing rod (sag 25 %)', LABEL);

    // A limp rope between two pins.
    soft.add.rope([380, 80, 560, 80], { segments: 20, bendStiffness: 0.001, pinStart: true, pinEnd: true, width: 8 });
    deco.fillStyle(0x56627a, 1).fillCircle(380, 80, 6).fillCircle(560, 80, 6);
    this.add.text(420, 40, 'limp rope', LABEL);

    // Coil spring hanging from a ceiling bracket: a steel wire whose rest shape is the helix's side view, clamped at
    // the top, with stiff bending at its rest angles (θ0 from the rest shape), so the loops keep their shape and the
    // coil as a whole stretches like a spring. A weight hangs from its lower end.
    const top = 40, turns = 7, pitch = 22, radius = 30, cx = 630;
    deco.fillStyle(0x56627a, 1).fillRect(cx - 50, 0, 100, top - 12);
    deco.fillStyle(0x3b4558, 1).fillRect(cx - 6, top - 14, 12, 16);
    const pts = [cx, top - 12, ...coilPoints(cx, top, radius, pitch, turns, 18)];
    const coil = soft.add.rope(pts, {
      // the side view crosses itself at rest: no self (body–body) contact, colliders only
      bendStiffness: 12, linearDensity: 0.3, clampStart: true, width: 5, tint: 0xd0d6e0, bodyContact: false,
    });
    // the weight: a stiff jelly block hung from the coil's end by a stiff spring (a drawn hook) to its top-centre
    // node. The coil is colliders-only (body 0), so its lowest loop is kept clear of the block: the block's top sits
    // 24 px below the coil's lowest point.
    let lowest = 0;
    for (let i = 1; i < pts.length; i += 2) lowest = Math.max(lowest, pts[i]!);
    const weight = soft.add.jelly(pts[pts.length - 2]!, lowest + 24 + 22, { width: 56, height: 44, resolution: 14, stiffness: 3e5, density: 4, tint: 0x8a93a6 });
    const hookSpring = soft.sim.tie(coil, coil.particles.length - 1, weight);
    const sim = soft.sim, S = sim.world.c.ElasticSpring;
    const hookEnd = weight.particles.indexOf(S.b[hookSpring]!);
    const hook = this.add.graphics();
    this.events.on('postupdate', () => {
      const c = coil.local, n = coil.particles.length, q = weight.local;
      hook.clear().lineStyle(3, 0xd0d6e0, 1);
      hook.lineBetween(sim.toPixelX(c[2 * n - 2]!), sim.toPixelY(c[2 * n - 1]!), sim.toPixelX(q[2 * hookEnd]!), sim.toPixelY(q[2 * hookEnd + 1]!));
    });
    this.add.text(cx - 90, 470, 'coil spring, 1 kg weight', LABEL);

    soft.add.circle(200, 420, 40);
    controls(this);
    instrument(this, () => weight);
  }
}

startGame(RodScene);
