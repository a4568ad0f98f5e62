/**
 * A parsed, validated scene: plain data, no entities yet.
 * The XML loader (src/scene/xml.ts) produces it; src/scene/build.ts turns it into entities.
 * Indices (particles, edges) are the order of their tags in the file.
 */

import type { IntegratorType } from '../solver/context';

export type { IntegratorType };

export interface IntegratorDesc {
  type: IntegratorType;
  dt: number;
  /** Game-mode Newton settings (solver issue); absent means FOSSSim semantics. */
  maxiters?: number;
  tolerance?: number;
  linesearch?: boolean;
  projection?: 'none' | 'psd';
}

export interface ParticleDesc {
  m: number;
  px: number;
  py: number;
  vx: number;
  vy: number;
  fixed: boolean;
  radius: number; // default 0.1
  tag?: string;
}

export interface EdgeDesc {
  i: number;
  j: number;
  radius: number; // default 0.015
}

export interface HalfplaneDesc {
  px: number;
  py: number;
  nx: number;
  ny: number;
}

export type ForceDesc =
  | { type: 'springforce'; edge: number; k: number; l0: number; b: number }
  | { type: 'simplegravity'; fx: number; fy: number }
  | { type: 'gravitationalforce'; i: number; j: number; G: number }
  | { type: 'constantforce'; fx: number; fy: number }
  | { type: 'dragdamping'; b: number }
  | { type: 'vortexforce'; i: number; j: number; kbs: number; kvc: number }
  | { type: 'elasticbodyspringforce'; i1: number; i2: number; alpha: number; l0: number }
  | { type: 'elasticbodybendingforce'; i1: number; i2: number; i3: number; alpha: number; theta0: number }
  | {
      type: 'elasticbodycstforce';
      i1: number;
      i2: number;
      i3: number;
      youngsmodulus: number;
      poissonratio: number;
      /** Rest positions of the three vertices, [x1, y1, x2, y2, x3, y3]; defaults already filled in. */
      xb: [number, number, number, number, number, number];
      /** Material, present only when the attribute is given (absent: 'fosssim'); docs/materials.md. */
      material?: TriangleMaterial;
      /** Mass per unit rest area (kg/m², thickness 1), present only when given (absent: 0). */
      density?: number;
    };

export type TriangleMaterial = 'fosssim' | 'stvk' | 'neohookean' | 'corotational';

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

/**
 * `<collision type>`: 'none'; 'simple' (FOSSSim's SimpleCollisionHandler after every step,
 * COR default 1 as FOSSSim); 'penalty' (FOSSSim's penalty force); 'game' (Elastica extension: the engine's contact with colliders,
 * friction and penetration correction; defaults COR 0, friction 0.5).
 */
export type CollisionDesc =
  | { type: 'none' }
  | { type: 'simple'; cor: number }
  /** FOSSSim's PenaltyForce, appended after all other forces (src/collision/penalty.ts); defaults k 100, thickness 0.01. */
  | { type: 'penalty'; k: number; thickness: number }
  | { type: 'game'; cor: number; friction: number };

/** Per-collider contact material; absent: the `<collision type="game">` values. */
export interface ColliderMaterial {
  cor?: number;
  friction?: number;
}

export type ColliderDesc =
  | ({ type: 'circle'; cx: number; cy: number; radius: number } & ColliderMaterial)
  | ({ type: 'segment'; x1: number; y1: number; x2: number; y2: number } & ColliderMaterial)
  | ({ type: 'polygon'; points: number[] } & ColliderMaterial);

export interface SceneDescription {
  /** Where the scene came from, for messages. */
  source: string;
  description: string;
  simtype?: string;
  duration: number;
  integrator: IntegratorDesc;
  maxsimfreq?: number;
  viewport?: { cx: number; cy: number; size: number };
  backgroundcolor?: Rgb;
  particles: ParticleDesc[];
  edges: EdgeDesc[];
  halfplanes: HalfplaneDesc[];
  /** Forces in file order (order of summation is fixed by it). */
  forces: ForceDesc[];
  particlecolors: { i: number; color: Rgb }[];
  edgecolors: { e: number; color: Rgb }[];
  halfplanecolors: { i: number; color: Rgb }[];
  particlepaths: { i: number; duration: number; color: Rgb }[];
  /** `<collision>`; absent: no collision response (FOSSSim's default). docs/scene-format.md, Contact. */
  collision?: CollisionDesc;
  /**
   * `<collisiondetection type>`: FOSSSim's pair order for 'simple' response ('allpairs', the
   * default, or 'contest'); an unknown value is kept with a warning and runs as 'allpairs'.
   */
  collisiondetection?: { type: string };
  /** Game colliders (`<circlecollider>`, `<segmentcollider>`, `<polygoncollider>`) in file order per kind. */
  colliders: ColliderDesc[];
  /** `<massmatrix type="lumped|consistent"/>`; absent means lumped. */
  massmatrix?: 'lumped' | 'consistent';
  /** Non-fatal remarks (e.g. the `alhpa` misspelling), each naming file and tag. */
  warnings: string[];
}
