/**
 * One frame of a FOSSSim scene as an SVG document, drawn the way FOSSSim's 2D renderer draws:
 * the scene's viewport (or one fitted to the initial state), the background colour, half-planes
 * (their solid side filled) in halfplanecolor, triangles filled (optionally coloured by strain),
 * colliders, particlepath trails, edges as thick round-capped lines of their radius in edgecolor,
 * particles as discs of their radius in particlecolor. Pure string building, no I/O and no
 * rasterizer: src/render/raster.ts turns it into pixels. CLI only (never imported by the browser
 * entry points). Layout and colour defaults: docs/cli.md, "Frames and movies".
 */
import type { Rgb, SceneDescription } from '../scene/types';

export interface FrameSize {
  width: number;
  height: number;
}

/** Defaults where the scene gives no colour (FOSSSim's scenes usually set every colour they use). */
export const DEFAULT_COLORS = {
  background: { r: 1, g: 1, b: 1 },
  particle: { r: 0, g: 0, b: 0 },
  edge: { r: 0, g: 0, b: 0 },
  halfplane: { r: 0, g: 0, b: 0 },
  triangle: { r: 0.72, g: 0.8, b: 0.9 },
  collider: { r: 0.55, g: 0.55, b: 0.55 },
} as const;

/** World → pixel mapping: the visible region is centred on (cx, cy) with half-height `half`. */
export interface View {
  cx: number;
  cy: number;
  half: number;
}

/** FOSSSim's `<viewport cx cy size>`: size is the half-extent of the smaller side of the window. */
export function sceneView(desc: SceneDescription, size: FrameSize): View {
  const aspect = size.width / size.height;
  if (desc.viewport) {
    const { cx, cy, size: s } = desc.viewport;
    return { cx, cy, half: aspect >= 1 ? s : s / aspect };
  }
  // fitted: the initial particles (with their radii) and the colliders, plus 10 % margin
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  const grow = (x: number, y: number, r: number) => {
    minX = Math.min(minX, x - r);
    maxX = Math.max(maxX, x + r);
    minY = Math.min(minY, y - r);
    maxY = Math.max(maxY, y + r);
  };
  for (const p of desc.particles) grow(p.px, p.py, p.radius);
  for (const k of desc.colliders) {
    if (k.type === 'circle') grow(k.cx, k.cy, k.radius);
    else if (k.type === 'segment') {
      grow(k.x1, k.y1, 0);
      grow(k.x2, k.y2, 0);
    } else for (let i = 0; i < k.points.length; i += 2) grow(k.points[i]!, k.points[i + 1]!, 0);
  }
  if (!Number.isFinite(minX)) return { cx: 0, cy: 0, half: 1 };
  const halfW = (maxX - minX) / 2, halfH = (maxY - minY) / 2;
  const half = 1.1 * Math.max(halfH, halfW / aspect, 1e-3);
  return { cx: (minX + maxX) / 2, cy: (minY + maxY) / 2, half };
}

function hex(c: Rgb): string {
  const h = (v: number) => Math.round(Math.min(1, Math.max(0, v)) * 255).toString(16).padStart(2, '0');
  return `#${h(c.r)}${h(c.g)}${h(c.b)}`;
}

/**
 * A number for the SVG text: 2 decimals (1/100 pixel), no "-0"; clamped to ±1e5 px (a diverging
 * scene's huge coordinates would overflow the rasterizer) and NaN drawn at 0.
 */
function f(v: number): string {
  const c = v > 1e5 ? 1e5 : v < -1e5 ? -1e5 : v === v ? v : 0;
  const s = c.toFixed(2);
  return s === '-0.00' ? '0.00' : s;
}

export interface FrameOptions {
  size: FrameSize;
  /** Colour triangles by area strain (blue compressed, red stretched) instead of a flat fill. */
  strain?: boolean;
}

/**
 * Draws frames of one scene. Trails need every step's positions, not just the drawn frames:
 * call `record(x)` after every step (and once for the initial state), `svg(x)` for each frame.
 */
export class FrameDrawer {
  readonly view: View;
  private readonly scale: number;
  private readonly pColor: string[];
  private readonly eColor: string[];
  private readonly hColor: string[];
  private readonly triangles: { i: number; j: number; k: number; rest: number }[] = [];
  private readonly paths: { i: number; color: string; cap: number; buf: Float64Array; head: number; len: number }[];
  private readonly static: string;

  readonly desc: SceneDescription;
  readonly opts: FrameOptions;

  constructor(desc: SceneDescription, opts: FrameOptions) {
    this.desc = desc;
    this.opts = opts;
    const { width, height } = opts.size;
    this.view = sceneView(desc, opts.size);
    this.scale = height / (2 * this.view.half);
    this.pColor = desc.particles.map(() => hex(DEFAULT_COLORS.particle));
    for (const c of desc.particlecolors) this.pColor[c.i] = hex(c.color);
    this.eColor = desc.edges.map(() => hex(DEFAULT_COLORS.edge));
    for (const c of desc.edgecolors) this.eColor[c.e] = hex(c.color);
    this.hColor = desc.halfplanes.map(() => hex(DEFAULT_COLORS.halfplane));
    for (const c of desc.halfplanecolors) this.hColor[c.i] = hex(c.color);
    for (const fc of desc.forces) {
      if (fc.type !== 'elasticbodycstforce') continue;
      const [x1, y1, x2, y2, x3, y3] = fc.xb;
      this.triangles.push({ i: fc.i1, j: fc.i2, k: fc.i3, rest: 0.5 * ((x2 - x1) * (y3 - y1) - (x3 - x1) * (y2 - y1)) });
    }
    const dt = desc.integrator.dt;
    this.paths = desc.particlepaths.map((p) => {
      const cap = Math.max(2, Math.min(100000, Math.ceil(p.duration / dt) + 1));
      return { i: p.i, color: hex(p.color), cap, buf: new Float64Array(2 * cap), head: 0, len: 0 };
    });
    const bg = hex(desc.backgroundcolor ?? DEFAULT_COLORS.background);
    this.static = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
      `<rect width="${width}" height="${height}" fill="${bg}"/>` + this.halfplanes() + this.colliders();
  }

  private px(x: number): number {
    return (x - this.view.cx) * this.scale + this.opts.size.width / 2;
  }

  private py(y: number): number {
    return (this.view.cy - y) * this.scale + this.opts.size.height / 2;
  }

  /** Remember x for the particlepath trails (every step). */
  record(x: Float64Array): void {
    for (const p of this.paths) {
      p.buf[2 * p.head] = x[2 * p.i]!;
      p.buf[2 * p.head + 1] = x[2 * p.i + 1]!;
      p.head = (p.head + 1) % p.cap;
      p.len = Math.min(p.len + 1, p.cap);
    }
  }

  /** The frame for positions x (2 per particle, the scene's particle order). */
  svg(x: Float64Array): string {
    const parts: string[] = [this.static];
    if (this.triangles.length > 0) parts.push(this.trianglesSvg(x));
    for (const p of this.paths) {
      if (p.len < 2) continue;
      const pts: string[] = [];
      for (let s = 0; s < p.len; s++) {
        const k = (p.head - p.len + s + p.cap) % p.cap;
        pts.push(`${f(this.px(p.buf[2 * k]!))},${f(this.py(p.buf[2 * k + 1]!))}`);
      }
      parts.push(`<polyline points="${pts.join(' ')}" fill="none" stroke="${p.color}" stroke-width="1.5" stroke-linejoin="round"/>`);
    }
    const E = this.desc.edges;
    for (let e = 0; e < E.length; e++) {
      const { i, j, radius } = E[e]!;
      const w = Math.max(2 * radius * this.scale, 1);
      parts.push(`<line x1="${f(this.px(x[2 * i]!))}" y1="${f(this.py(x[2 * i + 1]!))}" x2="${f(this.px(x[2 * j]!))}" y2="${f(this.py(x[2 * j + 1]!))}" stroke="${this.eColor[e]}" stroke-width="${f(w)}" stroke-linecap="round"/>`);
    }
    const P = this.desc.particles;
    for (let i = 0; i < P.length; i++) {
      const r = Math.max(P[i]!.radius * this.scale, 0.75);
      parts.push(`<circle cx="${f(this.px(x[2 * i]!))}" cy="${f(this.py(x[2 * i + 1]!))}" r="${f(r)}" fill="${this.pColor[i]}"/>`);
    }
    parts.push('</svg>');
    return parts.join('');
  }

  /**
   * Triangles grouped into one path per fill colour (flat: one path): one fill operation per colour
   * and no hairline seams between neighbours, which separately anti-aliased triangles would show.
   */
  private trianglesSvg(x: Float64Array): string {
    const groups = new Map<string, string[]>();
    const flat = hex(DEFAULT_COLORS.triangle);
    for (const t of this.triangles) {
      const ax = x[2 * t.i]!, ay = x[2 * t.i + 1]!, bx = x[2 * t.j]!, by = x[2 * t.j + 1]!, cx = x[2 * t.k]!, cy = x[2 * t.k + 1]!;
      let fill = flat;
      if (this.opts.strain) fill = strainColor((0.5 * ((bx - ax) * (cy - ay) - (cx - ax) * (by - ay))) / t.rest);
      let g = groups.get(fill);
      if (!g) groups.set(fill, (g = []));
      g.push(`M${f(this.px(ax))} ${f(this.py(ay))}L${f(this.px(bx))} ${f(this.py(by))}L${f(this.px(cx))} ${f(this.py(cy))}Z`);
    }
    const out: string[] = [];
    for (const [fill, d] of groups) out.push(`<path d="${d.join('')}" fill="${fill}"/>`);
    return out.join('');
  }

  /** The solid side (against the normal) of each half-plane, clipped to a box around the view. */
  private halfplanes(): string {
    const out: string[] = [];
    const H = this.desc.halfplanes;
    const R = 4 * this.view.half * Math.max(1, this.opts.size.width / this.opts.size.height);
    for (let h = 0; h < H.length; h++) {
      const { px, py } = H[h]!;
      const len = Math.sqrt(H[h]!.nx * H[h]!.nx + H[h]!.ny * H[h]!.ny);
      const nx = H[h]!.nx / len, ny = H[h]!.ny / len;
      // project the view centre onto the boundary line; build a big quad on the solid side
      const d = (this.view.cx - px) * nx + (this.view.cy - py) * ny;
      const ox = this.view.cx - d * nx, oy = this.view.cy - d * ny;
      const tx = -ny, ty = nx;
      const q = [
        [ox + R * tx, oy + R * ty], [ox - R * tx, oy - R * ty],
        [ox - R * tx - 2 * R * nx, oy - R * ty - 2 * R * ny], [ox + R * tx - 2 * R * nx, oy + R * ty - 2 * R * ny],
      ];
      const dPath = q.map(([a, b], k) => `${k === 0 ? 'M' : 'L'}${f(this.px(a!))} ${f(this.py(b!))}`).join('') + 'Z';
      out.push(`<path d="${dPath}" fill="${this.hColor[h]}"/>`);
    }
    return out.join('');
  }

  private colliders(): string {
    const c = hex(DEFAULT_COLORS.collider);
    return this.desc.colliders.map((k) => {
      if (k.type === 'circle') return `<circle cx="${f(this.px(k.cx))}" cy="${f(this.py(k.cy))}" r="${f(k.radius * this.scale)}" fill="${c}"/>`;
      if (k.type === 'segment') {
        return `<line x1="${f(this.px(k.x1))}" y1="${f(this.py(k.y1))}" x2="${f(this.px(k.x2))}" y2="${f(this.py(k.y2))}" stroke="${c}" stroke-width="2" stroke-linecap="round"/>`;
      }
      const pts: string[] = [];
      for (let i = 0; i < k.points.length; i += 2) pts.push(`${f(this.px(k.points[i]!))},${f(this.py(k.points[i + 1]!))}`);
      return `<polygon points="${pts.join(' ')}" fill="${c}"/>`;
    }).join('');
  }
}

/** Area ratio J → colour in 33 levels: 1 grey-blue, compressed (J < 1) towards blue, stretched towards red (±25 % saturates). */
export function strainColor(J: number): string {
  const s = Math.round(16 * Math.max(-1, Math.min(1, (J - 1) * 4))) / 16;
  const base = DEFAULT_COLORS.triangle;
  const target = s > 0 ? { r: 0.85, g: 0.2, b: 0.15 } : { r: 0.15, g: 0.3, b: 0.85 };
  const a = Math.abs(s);
  return hex({ r: base.r + a * (target.r - base.r), g: base.g + a * (target.g - base.g), b: base.b + a * (target.b - base.b) });
}
