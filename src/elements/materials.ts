/**
 * Hyperelastic triangle materials (constant strain, linear triangle, thickness 1).
 *
 *   F = D · B,  D = [x2 − x1, x3 − x1],  B = Dbar⁻¹ row-major (b00, b01, b10, b11),
 *   W = Ā ψ(F),  Ā = rest area.
 *
 * Material ids (Triangle.material, the 8th triangle parameter):
 *   0 MAT_FOSSSIM       FOSSSim CST (src/elements/cst.ts), exactly as before;
 *   1 MAT_STVK          Saint Venant–Kirchhoff, E = ½(FᵀF − I), ψ = μ E:E + λ/2 tr(E)², made
 *                       inversion-safe (Irving, Teran, Fedkiw 2004): on the signed singular values
 *                       ψ = μ/4 Σ g(σᵢ)² + λ/8 (Σ g(σᵢ))², g(σ) = σ² − 1 for σ ≥ STVK_SIGMA_MIN
 *                       (exactly StVK) and its C¹ linear continuation below (not even in σ);
 *   2 MAT_NEOHOOKEAN    ψ = C (tr(FᵀF) g(J) − 2) + D (J − 1)², g(J) = 1/J for J ≥ NH_J_MIN and
 *                       a bounded C¹ continuation below (inversion-safe; nhG), with a size term there (nhSize);
 *   3 MAT_COROTATIONAL  ψ = μ Σ(sᵢ − 1)² + λ/2 (s0 + s1 − 2)² on the signed principal stretches
 *                       (F = R S, R a rotation) = μ(|F|² − 2r + 2) + λ/2 (r − 2)²,
 *                       r = tr S = ‖(f00 + f11, f10 − f01)‖.
 * Constants from (E, ν), plane stress: μ = E/(2(1+ν)), λ = Eν/(1−ν²); Neo-Hookean C = μ/2,
 * D = (μ + λ)/2 (same small-strain response; derivation in docs/materials.md).
 *
 * F is handled as the 4-vector f = (f00, f10, f01, f11) = (u_x, u_y, w_x, w_y), u, w the
 * columns of F (the same order as cst.ts). DOF order (x1, y1, x2, y2, x3, y3); gradient is
 * +dW/dx (6), Hessians +d²W/dx² (6×6 row-major). Projected Hessians are built from the
 * analytic eigensystem of ∂²ψ/∂F² (Smith et al., "Analytic eigensystems for isotropic
 * distortion energies", 2D): twist, flip and two scaling modes from the signed SVD, negative
 * eigenvalues clamped to 0, then mapped through ∂F/∂x. No numeric eigensolver.
 * All functions are pure and allocation-free (module scratch only).
 *
 * Scalar forms and At-forms (TRI_* layout); module scratch private to this file: docs/design.md,
 * "Scratch and calling convention".
 */
import { cstEnergy, cstGradient, cstHessian, cstEnergyAt, cstGradientAt } from './cst';
import { TRI_AREA, TRI_B00, TRI_E, TRI_MATERIAL, TRI_NU } from './layout';

export const MAT_FOSSSIM = 0;
export const MAT_STVK = 1;
export const MAT_NEOHOOKEAN = 2;
export const MAT_COROTATIONAL = 3;
export const MATERIAL_NAMES = ['fosssim', 'stvk', 'neohookean', 'corotational'] as const;
export type MaterialName = (typeof MATERIAL_NAMES)[number];

/** Below this J the Neo-Hookean 1/J is replaced by its C² quadratic extension. */
export const NH_J_MIN = 0.1;

/**
 * Below this signed singular value StVK's g(σ) = σ² − 1 is continued linearly (C¹):
 * g(σ) = σ*² − 1 + 2σ*(σ − σ*). 0.6 > 1/√3 (where StVK's uniaxial stress peaks), so the uniaxial
 * stress is monotone; states with both σᵢ ≥ 0.6 are exactly StVK.
 */
export const STVK_SIGMA_MIN = 0.6;
/** Internal id: StVK without the inversion treatment (FOSSSim's CST projection). */
const MAT_STVK_PURE = -1;

const FF = new Float64Array(4); // f
const PF = new Float64Array(4); // dψ/df
const HF = new Float64Array(16); // d²ψ/df² row-major
const Q = new Float64Array(4); // one eigen-mode
const V1 = new Float64Array(4);
const V2 = new Float64Array(4);
// signed SVD: uc, us, vc, vs, s0, s1
const SV = new Float64Array(6);
// isotropic eigensystem in (s0, s1): ψ0, ψ1, λ_twist, λ_flip, ψ00, ψ01, ψ11
const EV = new Float64Array(7);
// Lamé constants of the current call (μ, λ): the internals read them here instead of taking double
// arguments, which V8 boxes into heap numbers when it does not inline the callee.
const ML = new Float64Array(2);
// inputs of stvkSigma (s0, s1, σ*), of mode (m00, m01, m10, m11) and of assembleEigen (λt, λf, h00, h01, h11)
const SG = new Float64Array(3);
const MM = new Float64Array(4);
const AE = new Float64Array(5);
// scalar results (energy density)
const RES = new Float64Array(1);

/** μ, λ (plane stress) from Young's modulus and Poisson's ratio. */
export function lameMu(E: number, nu: number): number {
  return E / (2 * (1 + nu));
}
export function lameLambda(E: number, nu: number): number {
  return (E * nu) / (1 - nu * nu);
}

function defGrad(
  x1: number, y1: number, x2: number, y2: number, x3: number, y3: number,
  b00: number, b01: number, b10: number, b11: number,
): void {
  const d0x = x2 - x1, d0y = y2 - y1, d1x = x3 - x1, d1y = y3 - y1;
  FF[0] = d0x * b00 + d1x * b10;
  FF[1] = d0y * b00 + d1y * b10;
  FF[2] = d0x * b01 + d1x * b11;
  FF[3] = d0y * b01 + d1y * b11;
}

/** det F of a triangle (J ≤ 0: degenerate or inverted). */
export function triangleJ(
  x1: number, y1: number, x2: number, y2: number, x3: number, y3: number,
  b00: number, b01: number, b10: number, b11: number,
): number {
  defGrad(x1, y1, x2, y2, x3, y3, b00, b01, b10, b11);
  return FF[0]! * FF[3]! - FF[2]! * FF[1]!;
}

// ---- Neo-Hookean guard g(J) --------------------------------------------------

/**
 * Below NH_J_MIN, 1/J is continued by g(J) = 1/e + A u/(1 + B u), u = e − J ≥ 0, e = NH_J_MIN,
 * A = 1/e² (so g and g′ meet 1/J's at e: C¹) and B = 1/(e (NH_G_LIMIT − 1)), so g rises monotonically
 * to NH_G_LIMIT/e as the triangle inverts and never beyond: the energy of an inverted triangle grows
 * like |F|² (as StVK's and the corotational material's do), not like the quadratic Taylor
 * extension's |F|⁶, which stored 1,400× the rest-shape scale in a mirrored triangle and made
 * scrambled jellies explode (issue 16). g″ < 0 below e: ψ is C¹ with a Hessian jump at J = e
 * (StVK's continuation below STVK_SIGMA_MIN is C¹ too).
 */
export const NH_G_LIMIT = 2;
const NH_A = 1 / (NH_J_MIN * NH_J_MIN);
const NH_B = 1 / (NH_J_MIN * (NH_G_LIMIT - 1));

function nhG(J: number): number {
  if (J >= NH_J_MIN) return 1 / J;
  const u = NH_J_MIN - J;
  return 1 / NH_J_MIN + (NH_A * u) / (1 + NH_B * u);
}
function nhG1(J: number): number {
  if (J >= NH_J_MIN) return -1 / (J * J);
  const r = 1 / (1 + NH_B * (NH_J_MIN - J));
  return -NH_A * r * r;
}
function nhG2(J: number): number {
  if (J >= NH_J_MIN) return 2 / (J * J * J);
  const r = 1 / (1 + NH_B * (NH_J_MIN - J));
  return -2 * NH_A * NH_B * r * r * r;
}

/**
 * Below NH_J_MIN the continuation also keeps the triangle's size: the size term
 * X = K C w(J) (|F| − √2)², w = u²/(1 + u²), u = (NH_J_MIN − J)/NH_J_MIN, is zero with its first derivatives at
 * NH_J_MIN (ψ stays C¹) and grows like |F|². Without it the shape term C g(J)(s0 − s1)² is least for a small
 * conformal triangle while the volume term costs at most D: a triangle squeezed flat (s1 → 0) contracted in
 * length (a pull of 2C g(0) s0) instead of staying flat, and Neo-Hookean jellies crushed in a pile contracted
 * into one another (docs/materials.md, "Inversion"). K = 2 g(0)/(√2 − 1) puts a flat triangle's least
 * energy at its rest length (s0 = 1 at J = 0, where w = ½). |F| = √2 at every rotation and reflection of the
 * rest shape, so a mirrored start meets no size term.
 */
export const NH_SIZE_K = (2 * nhG(0)) / (Math.SQRT2 - 1);
/** |F| below which the size term's derivatives are taken at this |F| (a triangle shrunk to a point: finite values). */
const NH_SIZE_RHO_MIN = 1e-12;
/** The size term and its partials in (I₂, J) at J < NH_J_MIN: X, X_I, X_J, X_II, X_IJ, X_JJ. */
const XS = new Float64Array(6);
function nhSize(J: number, I2: number, C: number): void {
  const u = (NH_J_MIN - J) / NH_J_MIN, q = 1 + u * u;
  const w = (u * u) / q;
  const w1 = -(2 * u) / (q * q) / NH_J_MIN; // dw/dJ
  const w2 = (2 - 6 * u * u) / (q * q * q) / (NH_J_MIN * NH_J_MIN); // d²w/dJ²
  const k = NH_SIZE_K * C;
  let rho = Math.sqrt(I2);
  const d = rho - Math.SQRT2;
  if (!(rho > NH_SIZE_RHO_MIN)) rho = NH_SIZE_RHO_MIN;
  const dI = 1 - Math.SQRT2 / rho; // d(|F| − √2)²/dI₂
  const dII = Math.SQRT2 / (2 * rho * rho * rho);
  XS[0] = k * w * d * d;
  XS[1] = k * w * dI;
  XS[2] = k * w1 * d * d;
  XS[3] = k * w * dII;
  XS[4] = k * w1 * dI;
  XS[5] = k * w2 * d * d;
}

/**
 * Below NH_J_MIN the Neo-Hookean energy is ψ = C g(J) (I₂ − 2J) + D (J − 1)², i.e. C g I₂ + W(J) with
 * W(J) = −2C J g(J) + D (J − 1)² (for g = 1/J this is exactly C (I₂/J − 2) + D (J − 1)², and J g(J)
 * meets 1 at NH_J_MIN with zero first derivative, so ψ stays C¹). I₂ − 2J = (s0 − s1)² ≥ 0
 * on the signed singular values, so the shape term is never negative. (The earlier extension
 * C (I₂ g(J) − 2) went down to −2C as a triangle shrank to a point, below the rest energy when λ < μ:
 * soft jellies collapsed and released that energy as motion; issue 16.)
 * NW = (W′, W″) at J < NH_J_MIN.
 */
const NW = new Float64Array(2);
function nhW(J: number, C: number, D: number): void {
  const g = nhG(J), g1 = nhG1(J), g2 = nhG2(J);
  NW[0] = -2 * C * (g + J * g1) + 2 * D * (J - 1);
  NW[1] = -2 * C * (2 * g1 + J * g2) + 2 * D;
}

// ---- energy densities on FF: psi, PF, HF -------------------------------------

/** RES[0] = ψ(FF) with μ, λ from ML. */
function psi(mat: number): void {
  const mu = ML[0]!, lam = ML[1]!;
  const f0 = FF[0]!, f1 = FF[1]!, f2 = FF[2]!, f3 = FF[3]!;
  const I2 = f0 * f0 + f1 * f1 + f2 * f2 + f3 * f3;
  if (mat === MAT_STVK) {
    signedSvd();
    if (!(SV[5]! >= STVK_SIGMA_MIN)) {
      RES[0] = stvkSigmaEnergy(SV[4]!, SV[5]!, mu, lam, STVK_SIGMA_MIN);
      return;
    }
    const e00 = 0.5 * (f0 * f0 + f1 * f1 - 1), e11 = 0.5 * (f2 * f2 + f3 * f3 - 1), e01 = 0.5 * (f0 * f2 + f1 * f3);
    const tr = e00 + e11;
    RES[0] = mu * (e00 * e00 + e11 * e11 + 2 * e01 * e01) + 0.5 * lam * tr * tr;
    return;
  }
  if (mat === MAT_NEOHOOKEAN) {
    const C = 0.5 * mu, D = 0.5 * (mu + lam);
    const J = f0 * f3 - f2 * f1;
    if (J >= NH_J_MIN) RES[0] = C * (I2 * nhG(J) - 2) + D * (J - 1) * (J - 1);
    else {
      nhSize(J, I2, C);
      RES[0] = C * nhG(J) * (I2 - 2 * J) + D * (J - 1) * (J - 1) + XS[0]!; // = the above for g = 1/J, with X; ≥ 0 (see nhW)
    }
    return;
  }
  // corotational
  const a = f0 + f3, b = f1 - f2;
  const r = Math.sqrt(a * a + b * b);
  RES[0] = mu * (I2 - 2 * r + 2) + 0.5 * lam * (r - 2) * (r - 2);
}

/** PF = dψ/df; with hess, HF = d²ψ/df² (exact). */
function stress(mat: number, hess: boolean): void {
  const mu = ML[0]!, lam = ML[1]!;
  const f0 = FF[0]!, f1 = FF[1]!, f2 = FF[2]!, f3 = FF[3]!;
  if (mat === MAT_STVK) {
    signedSvd();
    if (!(SV[5]! >= STVK_SIGMA_MIN)) {
      // compressed below σ* or inverted: through the signed SVD, P = U diag(ψ0, ψ1) Vᵀ,
      // ∂²ψ/∂f² = the unclamped eigensystem (exact)
      SG[0] = SV[4]!; SG[1] = SV[5]!; SG[2] = STVK_SIGMA_MIN;
      stvkSigma();
      MM[0] = EV[0]!; MM[1] = 0; MM[2] = 0; MM[3] = EV[1]!;
      mode();
      PF[0] = Q[0]!; PF[1] = Q[1]!; PF[2] = Q[2]!; PF[3] = Q[3]!;
      if (hess) {
        AE[0] = EV[2]!; AE[1] = EV[3]!; AE[2] = EV[4]!; AE[3] = EV[5]!; AE[4] = EV[6]!;
        assembleEigen(false);
      }
      return;
    }
    const uu = f0 * f0 + f1 * f1, ww = f2 * f2 + f3 * f3, uw = f0 * f2 + f1 * f3;
    const tr = 0.5 * (uu + ww - 2);
    const s00 = mu * (uu - 1) + lam * tr;
    const s11 = mu * (ww - 1) + lam * tr;
    const s01 = mu * uw;
    PF[0] = s00 * f0 + s01 * f2;
    PF[1] = s00 * f1 + s01 * f3;
    PF[2] = s01 * f0 + s11 * f2;
    PF[3] = s01 * f1 + s11 * f3;
    if (!hess) return;
    const k = 2 * mu + lam;
    // uu block: s00 I + (2μ+λ) u uᵀ + μ w wᵀ
    HF[0] = s00 + k * f0 * f0 + mu * f2 * f2;
    HF[1] = k * f0 * f1 + mu * f2 * f3;
    HF[5] = s00 + k * f1 * f1 + mu * f3 * f3;
    // ww block: s11 I + (2μ+λ) w wᵀ + μ u uᵀ
    HF[10] = s11 + k * f2 * f2 + mu * f0 * f0;
    HF[11] = k * f2 * f3 + mu * f0 * f1;
    HF[15] = s11 + k * f3 * f3 + mu * f1 * f1;
    // uw block (rows u, cols w): s01 I + μ w uᵀ + λ u wᵀ
    HF[2] = s01 + mu * f2 * f0 + lam * f0 * f2;
    HF[3] = mu * f2 * f1 + lam * f0 * f3;
    HF[6] = mu * f3 * f0 + lam * f1 * f2;
    HF[7] = s01 + mu * f3 * f1 + lam * f1 * f3;
    symFill();
    return;
  }
  if (mat === MAT_NEOHOOKEAN) {
    const C = 0.5 * mu, D = 0.5 * (mu + lam);
    const I2 = f0 * f0 + f1 * f1 + f2 * f2 + f3 * f3;
    const J = f0 * f3 - f2 * f1;
    const g = nhG(J), g1 = nhG1(J);
    // G = dJ/df = (f3, −f2, −f1, f0)
    const G0 = f3, G1 = -f2, G2 = -f1, G3 = f0;
    const inside = J >= NH_J_MIN;
    if (!inside) {
      nhW(J, C, D);
      nhSize(J, I2, C);
    }
    // ψ as a function of (I₂, J): P = 2ψ_I f + ψ_J G, with the size term's partials below NH_J_MIN
    const cf = inside ? 2 * C * g : 2 * (C * g + XS[1]!), cg = inside ? C * I2 * g1 + 2 * D * (J - 1) : C * I2 * g1 + NW[0]! + XS[2]!;
    PF[0] = cf * f0 + cg * G0;
    PF[1] = cf * f1 + cg * G1;
    PF[2] = cf * f2 + cg * G2;
    PF[3] = cf * f3 + cg * G3;
    if (!hess) return;
    const g2 = nhG2(J);
    // H = 2ψ_I I + 4ψ_II f fᵀ + 2ψ_IJ (f Gᵀ + G fᵀ) + ψ_JJ G Gᵀ + ψ_J d²J/df²
    const cx = inside ? 2 * C * g1 : 2 * (C * g1 + XS[4]!); // f Gᵀ + G fᵀ
    const cgg = inside ? C * I2 * g2 + 2 * D : C * I2 * g2 + NW[1]! + XS[5]!; // G Gᵀ
    const cff = inside ? 0 : 4 * XS[3]!; // f fᵀ
    const ch = cg; // d²J/df²: (0,3) = (3,0) = 1, (1,2) = (2,1) = −1
    const f = FF, Gv = V1;
    Gv[0] = G0; Gv[1] = G1; Gv[2] = G2; Gv[3] = G3;
    for (let i = 0; i < 4; i++) {
      for (let j = i; j < 4; j++) {
        HF[i * 4 + j] = cx * (f[i]! * Gv[j]! + Gv[i]! * f[j]!) + cgg * Gv[i]! * Gv[j]! + cff * f[i]! * f[j]! + (i === j ? cf : 0);
      }
    }
    HF[3] = HF[3]! + ch;
    HF[6] = HF[6]! - ch;
    symFill();
    return;
  }
  // corotational: P = 2μ f + (λ(r−2) − 2μ) R; H = 2μ I + k T Tᵀ + λ R Rᵀ
  const a = f0 + f3, b = f1 - f2;
  let r = Math.sqrt(a * a + b * b);
  let c = 1, s = 0;
  if (r > 1e-12) {
    c = a / r;
    s = b / r;
  } else {
    r = 1e-12;
  }
  const cr = lam * (r - 2) - 2 * mu;
  // vec R = (c, s, −s, c), vec T = (−s, c, −c, −s)
  PF[0] = 2 * mu * f0 + cr * c;
  PF[1] = 2 * mu * f1 + cr * s;
  PF[2] = 2 * mu * f2 - cr * s;
  PF[3] = 2 * mu * f3 + cr * c;
  if (!hess) return;
  const k = cr / r;
  const Rv = V1, Tv = V2;
  Rv[0] = c; Rv[1] = s; Rv[2] = -s; Rv[3] = c;
  Tv[0] = -s; Tv[1] = c; Tv[2] = -c; Tv[3] = -s;
  for (let i = 0; i < 4; i++) {
    for (let j = i; j < 4; j++) {
      HF[i * 4 + j] = k * Tv[i]! * Tv[j]! + lam * Rv[i]! * Rv[j]! + (i === j ? 2 * mu : 0);
    }
  }
  symFill();
}

function symFill(): void {
  HF[4] = HF[1]!;
  HF[8] = HF[2]!; HF[9] = HF[6]!;
  HF[12] = HF[3]!; HF[13] = HF[7]!; HF[14] = HF[11]!;
}

// ---- inversion-safe StVK on signed singular values ------------------------------

function stvkG(s: number, smin: number): number {
  return s >= smin ? s * s - 1 : smin * smin - 1 + 2 * smin * (s - smin);
}

/** ψ = μ/4 (g0² + g1²) + λ/8 (g0 + g1)². */
function stvkSigmaEnergy(s0: number, s1: number, mu: number, lam: number, smin: number): number {
  const g0 = stvkG(s0, smin), g1 = stvkG(s1, smin), S = g0 + g1;
  return 0.25 * mu * (g0 * g0 + g1 * g1) + 0.125 * lam * S * S;
}

/**
 * EV = (ψ0, ψ1, λ_twist, λ_flip, ψ00, ψ01, ψ11) of ψ(s0, s1) = μ/4 Σ g(sᵢ)² + λ/8 (Σ g(sᵢ))²,
 * s0 ≥ |s1|. With τᵢ = μ/2 gᵢ + λ/4 (g0 + g1): ψᵢ = g′ᵢ τᵢ, ψᵢᵢ = g″ᵢ τᵢ + (μ/2 + λ/4) g′ᵢ²,
 * ψ01 = λ/4 g′0 g′1; λ_flip = (ψ0 − ψ1)/(s0 − s1) and, when both sᵢ ≥ σ*, λ_twist =
 * (ψ0 + ψ1)/(s0 + s1) in division-free form (divided differences of g, g′ per regime).
 * smin = −∞ gives plain StVK everywhere.
 */
function stvkSigma(): void {
  const s0 = SG[0]!, s1 = SG[1]!, smin = SG[2]!, mu = ML[0]!, lam = ML[1]!;
  const in0 = s0 >= smin, in1 = s1 >= smin; // s0 ≥ s1, so in1 implies in0
  const g0 = stvkG(s0, smin), g1 = stvkG(s1, smin), S = g0 + g1;
  const d0 = in0 ? 2 * s0 : 2 * smin, d1 = in1 ? 2 * s1 : 2 * smin; // g′
  const t0 = 0.5 * mu * g0 + 0.25 * lam * S, t1 = 0.5 * mu * g1 + 0.25 * lam * S;
  const T = t0 + t1, k = 0.5 * mu + 0.25 * lam;
  EV[0] = d0 * t0;
  EV[1] = d1 * t1;
  // divided differences (g0 − g1)/(s0 − s1) and (g′0 − g′1)/(s0 − s1)
  let dg: number, ddg: number;
  if (in1) {
    dg = s0 + s1;
    ddg = 2;
  } else if (!in0) {
    dg = 2 * smin;
    ddg = 0;
  } else {
    const den = s0 - s1; // ≥ s0 − σ* ≥ 0 and > σ* − s1 > 0
    dg = ((s0 - smin) * (s0 + smin) + 2 * smin * (smin - s1)) / den;
    ddg = (2 * (s0 - smin)) / den;
  }
  // ψ0 ± ψ1 = ½(g′0 ± g′1) T + μ/4 (g′0 ∓ g′1)(g0 − g1)
  EV[3] = 0.5 * ddg * T + 0.25 * mu * (d0 + d1) * dg;
  if (in1) {
    EV[2] = T + 0.5 * mu * (s0 - s1) * (s0 - s1);
  } else {
    // not smooth at s0 + s1 = 0 (the reflection convention switches there), as corotational
    let r = s0 + s1;
    if (!(r > 1e-12)) r = 1e-12;
    EV[2] = (EV[0]! + EV[1]!) / r;
  }
  EV[4] = (in0 ? 2 * t0 : 0) + k * d0 * d0;
  EV[5] = 0.25 * lam * d0 * d1;
  EV[6] = (in1 ? 2 * t1 : 0) + k * d1 * d1;
}

// ---- signed SVD and the analytic eigensystem -----------------------------------

/**
 * Signed SVD of FF: F = U diag(s0, s1) Vᵀ with U, V rotations (det +1), s0 ≥ |s1|,
 * s1 < 0 exactly when det F < 0. Via the polar decomposition F = R S (R from
 * (f00 + f11, f10 − f01)) and the closed-form eigen-decomposition of the symmetric S.
 * Writes SV = (uc, us, vc, vs, s0, s1).
 */
function signedSvd(): void {
  const f0 = FF[0]!, f1 = FF[1]!, f2 = FF[2]!, f3 = FF[3]!;
  const a = f0 + f3, b = f1 - f2;
  const r = Math.sqrt(a * a + b * b);
  let c = 1, s = 0;
  if (r > 0) {
    c = a / r;
    s = b / r;
  }
  // S = Rᵀ F, Rᵀ = [[c, s], [−s, c]], F = [[f0, f2], [f1, f3]]
  const S00 = c * f0 + s * f1;
  const S11 = -s * f2 + c * f3;
  const S01 = 0.5 * (c * f2 + s * f3 + (-s * f0 + c * f1));
  const m = 0.5 * (S00 + S11), d = 0.5 * (S00 - S11);
  const h = Math.sqrt(d * d + S01 * S01);
  let vc = 1, vs = 0;
  if (h > 0) {
    // eigenvector of the larger eigenvalue: angle φ with (cos 2φ, sin 2φ) = (d, S01)/h
    if (d >= 0) {
      vc = Math.sqrt(0.5 * (1 + d / h));
      vs = S01 / (2 * h * vc);
    } else {
      vs = Math.sqrt(0.5 * (1 - d / h));
      vc = S01 / (2 * h * vs);
    }
  }
  // U = R V
  SV[0] = c * vc - s * vs;
  SV[1] = s * vc + c * vs;
  SV[2] = vc;
  SV[3] = vs;
  SV[4] = m + h;
  SV[5] = m - h;
}

/** Q = vec(U M Vᵀ) for M = [[m00, m01], [m10, m11]] = MM. */
function mode(): void {
  const m00 = MM[0]!, m01 = MM[1]!, m10 = MM[2]!, m11 = MM[3]!;
  const uc = SV[0]!, us = SV[1]!, vc = SV[2]!, vs = SV[3]!;
  const a00 = uc * m00 - us * m10, a01 = uc * m01 - us * m11;
  const a10 = us * m00 + uc * m10, a11 = us * m01 + uc * m11;
  Q[0] = a00 * vc - a01 * vs;
  Q[2] = a00 * vs + a01 * vc;
  Q[1] = a10 * vc - a11 * vs;
  Q[3] = a10 * vs + a11 * vc;
}

/** HF += λ Q Qᵀ, λ = EIGV[k] (with clamp, only λ > 0; without, λ ≠ 0). */
function addMode(k: number, clamp: boolean): void {
  const lam = EIGV[k]!;
  if (clamp ? !(lam > 0) : lam === 0) return;
  for (let i = 0; i < 4; i++) {
    const qi = lam * Q[i]!;
    for (let j = 0; j < 4; j++) HF[i * 4 + j] = HF[i * 4 + j]! + qi * Q[j]!;
  }
}

/**
 * HF = the PSD projection of d²ψ/df² at FF: Σ max(λₖ, 0) qₖ qₖᵀ over the twist, flip and two
 * scaling eigenpairs. Writes the exact eigenvalues to EIG (twist, flip, scale0, scale1).
 */
export const EIG = new Float64Array(4);
// eigenvalues of the current assembleEigen call (twist, flip, scale0, scale1), unclamped
const EIGV = new Float64Array(4);
function projectedStress(mat: number): void {
  const mu = ML[0]!, lam = ML[1]!;
  signedSvd();
  const s0 = SV[4]!, s1 = SV[5]!;
  let lt: number, lf: number, h00: number, h01: number, h11: number;
  if (mat === MAT_STVK || mat === MAT_STVK_PURE) {
    SG[0] = s0; SG[1] = s1; SG[2] = mat === MAT_STVK ? STVK_SIGMA_MIN : -Infinity;
    stvkSigma();
    lt = EV[2]!;
    lf = EV[3]!;
    h00 = EV[4]!;
    h01 = EV[5]!;
    h11 = EV[6]!;
  } else if (mat === MAT_NEOHOOKEAN) {
    const C = 0.5 * mu, D = 0.5 * (mu + lam);
    const J = s0 * s1, I2 = s0 * s0 + s1 * s1;
    const g = nhG(J), g1 = nhG1(J), g2 = nhG2(J);
    const cm = C * (2 * g + 4 * J * g1);
    if (J >= NH_J_MIN) {
      lt = 2 * C * g + C * I2 * g1 + 2 * D * (J - 1);
      lf = 2 * C * g - C * I2 * g1 - 2 * D * (J - 1);
      h00 = cm + C * I2 * g2 * s1 * s1 + 2 * D * s1 * s1;
      h11 = cm + C * I2 * g2 * s0 * s0 + 2 * D * s0 * s0;
      h01 = C * (3 * I2 * g1 + I2 * J * g2) + 2 * D * (2 * J - 1);
    } else {
      // ψ = C g I₂ + W(J): ψ_I₂ = C g, ψ_J = C I₂ g′ + W′, ψ_JJ = C I₂ g″ + W″ (nhW)
      nhW(J, C, D);
      const w1 = NW[0]!, w2 = NW[1]!;
      lt = 2 * C * g + C * I2 * g1 + w1;
      lf = 2 * C * g - C * I2 * g1 - w1;
      h00 = cm + (C * I2 * g2 + w2) * s1 * s1;
      h11 = cm + (C * I2 * g2 + w2) * s0 * s0;
      h01 = C * (3 * I2 * g1 + I2 * J * g2) + w1 + J * w2;
      // the size term X(I₂, J): twist 2X_I + X_J, flip 2X_I − X_J; ∂²X/∂s0² = 2X_I + 4s0²X_II + 4J X_IJ + s1²X_JJ,
      // ∂²X/∂s0∂s1 = 4J X_II + 2I₂ X_IJ + X_J + J X_JJ
      nhSize(J, I2, C);
      const xI = XS[1]!, xJ = XS[2]!, xII = XS[3]!, xIJ = XS[4]!, xJJ = XS[5]!;
      lt += 2 * xI + xJ;
      lf += 2 * xI - xJ;
      h00 += 2 * xI + 4 * s0 * s0 * xII + 4 * J * xIJ + s1 * s1 * xJJ;
      h11 += 2 * xI + 4 * s1 * s1 * xII + 4 * J * xIJ + s0 * s0 * xJJ;
      h01 += 4 * J * xII + 2 * I2 * xIJ + xJ + J * xJJ;
    }
  } else {
    let r = s0 + s1;
    if (!(r > 1e-12)) r = 1e-12;
    lt = (2 * (mu + lam) * (r - 2)) / r;
    lf = 2 * mu;
    h00 = 2 * mu + lam;
    h11 = 2 * mu + lam;
    h01 = lam;
  }
  AE[0] = lt; AE[1] = lf; AE[2] = h00; AE[3] = h01; AE[4] = h11;
  assembleEigen(true);
}

/**
 * HF = Σ λₖ qₖ qₖᵀ over twist, flip and the two scaling modes of the current SV (with clamp,
 * negative λₖ are dropped and the eigenvalues are written to EIG).
 */
function assembleEigen(clamp: boolean): void {
  const lt = AE[0]!, lf = AE[1]!, h00 = AE[2]!, h01 = AE[3]!, h11 = AE[4]!;
  // 2×2 scaling block eigen-decomposition
  const m = 0.5 * (h00 + h11), d = 0.5 * (h00 - h11);
  const hh = Math.sqrt(d * d + h01 * h01);
  let ec = 1, es = 0;
  if (hh > 0) {
    if (d >= 0) {
      ec = Math.sqrt(0.5 * (1 + d / hh));
      es = h01 / (2 * hh * ec);
    } else {
      es = Math.sqrt(0.5 * (1 - d / hh));
      ec = h01 / (2 * hh * es);
    }
  }
  if (clamp) {
    EIG[0] = lt; EIG[1] = lf; EIG[2] = m + hh; EIG[3] = m - hh;
  }
  EIGV[0] = lt; EIGV[1] = lf; EIGV[2] = m + hh; EIGV[3] = m - hh;
  HF.fill(0);
  const q = Math.SQRT1_2;
  MM[0] = 0; MM[1] = -q; MM[2] = q; MM[3] = 0;
  mode();
  addMode(0, clamp);
  MM[0] = 0; MM[1] = q; MM[2] = q; MM[3] = 0;
  mode();
  addMode(1, clamp);
  MM[0] = ec; MM[1] = 0; MM[2] = 0; MM[3] = es;
  mode();
  addMode(2, clamp);
  MM[0] = -es; MM[1] = 0; MM[2] = 0; MM[3] = ec;
  mode();
  addMode(3, clamp);
}

// ---- mapping through dF/dx -------------------------------------------------------

/** Rest data of the current call: area, b00, b01, b10, b11 (the triangle params q[p+2..p+6]). */
const RB = new Float64Array(5);

function mapGradient(out: Float64Array, o: number): void {
  const area = RB[0]!, b00 = RB[1]!, b01 = RB[2]!, b10 = RB[3]!, b11 = RB[4]!;
  const pux = area * PF[0]!, puy = area * PF[1]!, pwx = area * PF[2]!, pwy = area * PF[3]!;
  const cu0 = -(b00 + b10), cw0 = -(b01 + b11);
  out[o] = cu0 * pux + cw0 * pwx;
  out[o + 1] = cu0 * puy + cw0 * pwy;
  out[o + 2] = b00 * pux + b01 * pwx;
  out[o + 3] = b00 * puy + b01 * pwy;
  out[o + 4] = b10 * pux + b11 * pwx;
  out[o + 5] = b10 * puy + b11 * pwy;
}

function mapHessian(out: Float64Array, o: number): void {
  const area = RB[0]!, b00 = RB[1]!, b01 = RB[2]!, b10 = RB[3]!, b11 = RB[4]!;
  const cu0 = -(b00 + b10), cw0 = -(b01 + b11);
  for (let n = 0; n < 3; n++) {
    const cun = n === 0 ? cu0 : n === 1 ? b00 : b10;
    const cwn = n === 0 ? cw0 : n === 1 ? b01 : b11;
    for (let mm = 0; mm < 3; mm++) {
      const cum = mm === 0 ? cu0 : mm === 1 ? b00 : b10;
      const cwm = mm === 0 ? cw0 : mm === 1 ? b01 : b11;
      const uu = area * cun * cum, uw = area * cun * cwm, wu = area * cwn * cum, ww = area * cwn * cwm;
      for (let i = 0; i < 2; i++) {
        for (let j = 0; j < 2; j++) {
          out[o + (2 * n + i) * 6 + 2 * mm + j] =
            uu * HF[i * 4 + j]! + uw * HF[i * 4 + 2 + j]! + wu * HF[(2 + i) * 4 + j]! + ww * HF[(2 + i) * 4 + 2 + j]!;
        }
      }
    }
  }
}

// ---- public kernels (any material id) ---------------------------------------------

/** W = Ā ψ(F) for material `mat` (0 = FOSSSim CST). */
export function triangleEnergy(
  mat: number,
  x1: number, y1: number, x2: number, y2: number, x3: number, y3: number,
  E: number, nu: number, area: number,
  b00: number, b01: number, b10: number, b11: number,
): number {
  if (mat === MAT_FOSSSIM) return cstEnergy(x1, y1, x2, y2, x3, y3, E, nu, area, b00, b01, b10, b11);
  defGrad(x1, y1, x2, y2, x3, y3, b00, b01, b10, b11);
  ML[0] = lameMu(E, nu);
  ML[1] = lameLambda(E, nu);
  psi(mat);
  return area * RES[0]!;
}

/** +dW/dx (6 values at out[o..o+5]). */
export function triangleGradient(
  mat: number,
  x1: number, y1: number, x2: number, y2: number, x3: number, y3: number,
  E: number, nu: number, area: number,
  b00: number, b01: number, b10: number, b11: number,
  out: Float64Array, o: number,
): void {
  if (mat === MAT_FOSSSIM) {
    cstGradient(x1, y1, x2, y2, x3, y3, E, nu, area, b00, b01, b10, b11, out, o);
    return;
  }
  defGrad(x1, y1, x2, y2, x3, y3, b00, b01, b10, b11);
  ML[0] = lameMu(E, nu);
  ML[1] = lameLambda(E, nu);
  stress(mat, false);
  RB[0] = area; RB[1] = b00; RB[2] = b01; RB[3] = b10; RB[4] = b11;
  mapGradient(out, o);
}

/** Exact +d²W/dx² (6×6 row-major at out[o..o+35]). */
export function triangleHessian(
  mat: number,
  x1: number, y1: number, x2: number, y2: number, x3: number, y3: number,
  E: number, nu: number, area: number,
  b00: number, b01: number, b10: number, b11: number,
  out: Float64Array, o: number,
): void {
  if (mat === MAT_FOSSSIM) {
    cstHessian(x1, y1, x2, y2, x3, y3, E, nu, area, b00, b01, b10, b11, out, o);
    return;
  }
  defGrad(x1, y1, x2, y2, x3, y3, b00, b01, b10, b11);
  ML[0] = lameMu(E, nu);
  ML[1] = lameLambda(E, nu);
  stress(mat, true);
  RB[0] = area; RB[1] = b00; RB[2] = b01; RB[3] = b10; RB[4] = b11;
  mapHessian(out, o);
}

/**
 * PSD-projected Hessian (6×6) from the analytic 2D eigensystem. FOSSSim's CST equals StVK
 * with Young's modulus 4E (its strain lacks the ½), so id 0 is projected as StVK(4E, ν).
 */
export function triangleProjectedHessian(
  mat: number,
  x1: number, y1: number, x2: number, y2: number, x3: number, y3: number,
  E: number, nu: number, area: number,
  b00: number, b01: number, b10: number, b11: number,
  out: Float64Array, o: number,
): void {
  let m = mat, Ey = E;
  if (mat === MAT_FOSSSIM) {
    m = MAT_STVK_PURE;
    Ey = 4 * E;
  }
  defGrad(x1, y1, x2, y2, x3, y3, b00, b01, b10, b11);
  ML[0] = lameMu(Ey, nu);
  ML[1] = lameLambda(Ey, nu);
  projectedStress(m);
  RB[0] = area; RB[1] = b00; RB[2] = b01; RB[3] = b10; RB[4] = b11;
  mapHessian(out, o);
}

// ---- array-offset kernels (assembly loops) ------------------------------------------
//
// Same arithmetic as the scalar kernels above, in the same order (bit-identical; tested), but
// reading the positions from x (node offsets a, b, c) and E, ν, Ā, B from the triangle params
// q[p + TRI_*] (layout.ts): no double arguments, so nothing is boxed when V8 does not inline the call.

/** FF, ML (μ, λ from q[p], q[p+1], E scaled by `eScale`) and RB from the arrays. */
function loadAt(x: Float64Array, a: number, b: number, c: number, q: Float64Array, p: number, fourE: boolean): void {
  const x1 = x[a]!, y1 = x[a + 1]!;
  const d0x = x[b]! - x1, d0y = x[b + 1]! - y1, d1x = x[c]! - x1, d1y = x[c + 1]! - y1;
  const b00 = q[p + TRI_B00]!, b01 = q[p + TRI_B00 + 1]!, b10 = q[p + TRI_B00 + 2]!, b11 = q[p + TRI_B00 + 3]!;
  FF[0] = d0x * b00 + d1x * b10;
  FF[1] = d0y * b00 + d1y * b10;
  FF[2] = d0x * b01 + d1x * b11;
  FF[3] = d0y * b01 + d1y * b11;
  const E = fourE ? 4 * q[p + TRI_E]! : q[p + TRI_E]!, nu = q[p + TRI_NU]!;
  ML[0] = E / (2 * (1 + nu));
  ML[1] = (E * nu) / (1 - nu * nu);
  RB[0] = q[p + TRI_AREA]!; RB[1] = b00; RB[2] = b01; RB[3] = b10; RB[4] = b11;
}

/**
 * out[o] = W of triangle (x[a..a+1], x[b..b+1], x[c..c+1]) with params q[p + TRI_*] (E, ν, Ā,
 * b00, b01, b10, b11, material id; layout.ts); = triangleEnergy(...) bit for bit.
 */
export function triangleEnergyAt(x: Float64Array, a: number, b: number, c: number, q: Float64Array, p: number, out: Float64Array, o: number): void {
  const mat = q[p + TRI_MATERIAL]!;
  if (mat === MAT_FOSSSIM) {
    cstEnergyAt(x, a, b, c, q, p, out, o);
    return;
  }
  loadAt(x, a, b, c, q, p, false);
  psi(mat);
  out[o] = RB[0]! * RES[0]!;
}

/** +dW/dx at out[o..o+5]; = triangleGradient(...) bit for bit. */
export function triangleGradientAt(x: Float64Array, a: number, b: number, c: number, q: Float64Array, p: number, out: Float64Array, o: number): void {
  const mat = q[p + TRI_MATERIAL]!;
  if (mat === MAT_FOSSSIM) {
    cstGradientAt(x, a, b, c, q, p, out, o);
    return;
  }
  loadAt(x, a, b, c, q, p, false);
  stress(mat, false);
  mapGradient(out, o);
}

/**
 * PSD-projected Hessian (analytic eigensystem) at out[o..o+35]; = triangleProjectedHessian(...)
 * bit for bit. (The CST's own projection used by ForceModel is cstHessianPSDAt in psd.ts.)
 */
export function triangleProjectedHessianAt(x: Float64Array, a: number, b: number, c: number, q: Float64Array, p: number, out: Float64Array, o: number): void {
  const mat = q[p + TRI_MATERIAL]!;
  const fossim = mat === MAT_FOSSSIM;
  loadAt(x, a, b, c, q, p, fossim);
  projectedStress(fossim ? MAT_STVK_PURE : mat);
  mapHessian(out, o);
}

/** Signed singular values (s0 ≥ |s1|, s1 < 0 iff J < 0) of F, written to out[o], out[o + 1]. */
export function triangleSingularValues(
  x1: number, y1: number, x2: number, y2: number, x3: number, y3: number,
  b00: number, b01: number, b10: number, b11: number,
  out: Float64Array, o: number,
): void {
  defGrad(x1, y1, x2, y2, x3, y3, b00, b01, b10, b11);
  signedSvd();
  out[o] = SV[4]!;
  out[o + 1] = SV[5]!;
}

/** Material id from its name, or −1. */
export function materialId(name: string): number {
  return (MATERIAL_NAMES as readonly string[]).indexOf(name);
}

/**
 * Consistent mass matrix of a linear triangle (thickness 1): block (a, b) = ρĀ/12 (1 + δab) I₂.
 * Writes the 6×6 row-major matrix at out[o..o+35].
 */
export function triangleConsistentMass(density: number, area: number, out: Float64Array, o: number): void {
  const m = (density * area) / 12;
  for (let r = 0; r < 6; r++) {
    for (let c = 0; c < 6; c++) {
      out[o + r * 6 + c] = (r & 1) === (c & 1) ? ((r >> 1) === (c >> 1) ? 2 * m : m) : 0;
    }
  }
}
