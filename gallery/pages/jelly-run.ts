/**
 * Jelly run: the playable gallery game (rules in jelly-run-level.ts). Arrow keys / A D roll the jelly,
 * Space jumps (and lets go of the rope), Up / W grabs the rope while touching it, R restarts.
 */
import Phaser from 'phaser';
import { HEIGHT, canvasTexture, instrument, startGame } from '../common';
import { JellyRun } from './jelly-run-level';

class JellyRunScene extends Phaser.Scene {
  private game_: JellyRun | null = null;
  private keys: Record<string, Phaser.Input.Keyboard.Key> = {};
  private coinViews: Phaser.GameObjects.Arc[] = [];
  private hud!: Phaser.GameObjects.Text;
  private banner!: Phaser.GameObjects.Text;

  create(): void {
    const soft = this.soft.configure({ pixelsPerMetre: 100, originX: 0, originY: HEIGHT });
    canvasTexture(this, 'run-player', 128, 128, (ctx) => {
      const g = ctx.createRadialGradient(48, 44, 6, 64, 64, 72);
      g.addColorStop(0, '#fff3b0');
      g.addColorStop(0.5, '#f7b733');
      g.addColorStop(1, '#c4621b');
      ctx.fillStyle = g;
      ctx.fillRect(0, 0, 128, 128);
    });
    canvasTexture(this, 'run-eyes', 28, 14, (ctx) => {
      ctx.fillStyle = '#fff';
      ctx.beginPath();
      ctx.arc(7, 7, 6, 0, Math.PI * 2);
      ctx.arc(21, 7, 6, 0, Math.PI * 2);
      ctx.fill();
      ctx.fillStyle = '#1a1a2e';
      ctx.beginPath();
      ctx.arc(9, 7, 3, 0, Math.PI * 2);
      ctx.arc(23, 7, 3, 0, Math.PI * 2);
      ctx.fill();
    });
    const game = new JellyRun(soft.sim);
    this.game_ = game;
    // the level's bodies were made through the SoftSim: give them views now
    soft.adopt(game.player, { texture: 'run-player' });
    soft.adopt(game.rope);
    game.player.mesh?.setDepth(5);
    const eyes = this.add.image(0, 0, 'run-eyes').setDepth(6);
    const c = game.player.centroid;
    game.player.attach(eyes, { at: { x: c.x, y: c.y - 6 }, rotate: true });
    this.coinViews = game.coins.map((k) => this.add.circle(k.x, k.y, 9, 0xffd54a).setStrokeStyle(2, 0xb8860b).setDepth(4));
    const goal = game.goal;
    this.add.rectangle(goal.x + 40, goal.y, 4, goal.height, 0xdddddd).setOrigin(0, 0);
    this.add.triangle(goal.x + 44, goal.y, 0, 0, 28, 10, 0, 20, 0x4ade80).setOrigin(0, 0);
    this.hud = this.add.text(12, 10, '', { fontFamily: 'monospace', fontSize: '16px', color: '#e8ecf5' }).setDepth(10);
    this.banner = this.add.text(400, 200, '', { fontFamily: 'sans-serif', fontSize: '40px', color: '#ffffff' }).setOrigin(0.5).setDepth(10);
    const kb = this.input.keyboard!;
    this.keys = kb.addKeys('LEFT,RIGHT,UP,SPACE,A,D,W,R') as Record<string, Phaser.Input.Keyboard.Key>;
    kb.on('keydown-R', () => this.scene.restart());
    // test hook: the browser test drives the page with the keyboard and reads the game state here
    const w = window as unknown as { __jellyRun?: () => Record<string, number | string> };
    w.__jellyRun = () => ({
      state: game.state, score: game.score, coins: game.coinsTaken, x: game.player.centroid.x, y: game.player.centroid.y,
      vx: game.player.velocity.x, platformX: game.platform.x, docked: game.docked, steps: game.steps, msPerStep: this.soft.running ? this.soft.stats.msPerStep : 0,
    });
    instrument(this, () => game.player);
  }

  override update(): void {
    const g = this.game_;
    if (!g) return;
    const k = this.keys;
    g.input.left = k.LEFT!.isDown || k.A!.isDown;
    g.input.right = k.RIGHT!.isDown || k.D!.isDown;
    g.input.jump = k.SPACE!.isDown;
    g.input.grab = k.UP!.isDown || k.W!.isDown;
    g.coins.forEach((c, i) => this.coinViews[i]!.setVisible(!c.taken));
    const s = this.soft.stats;
    this.hud.setText(`score ${g.score}   coins ${g.coinsTaken}/${g.coins.length}   ${s.msPerStep.toFixed(2)} ms/step${g.holdingRope ? '   (Space: let go)' : ''}`);
    this.banner.setText(g.state === 'won' ? 'You win!  R: again' : g.state === 'lost' ? 'Splat!  R: retry' : '');
  }
}

startGame(JellyRunScene);
