/**
 * Scalar kernels of the in-solve contact potential: IPC's smoothed friction primitive f₀ (with
 * f₀', f₀'') and IPC's log barrier b (with b', b''). The per-candidate kernels
 * (candidate-kernels.ts) call the scratch forms; the number-taking exports are their public face
 * (tests, tools).
 *
 * Scratch convention (geometry.ts's header; docs/contact.md): PQ[PQ_IO] is the argument in and
 * the result out (y or d), PQ[PQ_PARAM] the parameter (ε or d̂).
 */
import { LOG_IO, logInPlace } from '../math/exp-log';

/** Scratch of the scalar kernels: the argument in and the result out (y or d), and the parameter (ε or d̂). */
export const PQ = new Float64Array(2);
export const PQ_IO = 0;
export const PQ_PARAM = 1;

/** A PQ kernel in number-taking form (the exports below: tests and tools, not the step path). */
function viaPQ(kernel: () => void, a: number, b: number): number {
  PQ[PQ_IO] = a;
  PQ[PQ_PARAM] = b;
  kernel();
  return PQ[PQ_IO]!;
}

/** IPC's smoothed friction primitive f₀ and its derivatives f₁ = f₀', f₀''. */
export function frictionF0(y: number, eps: number): number {
  return viaPQ(frictionF0Q, y, eps);
}
export function frictionF1(y: number, eps: number): number {
  return viaPQ(frictionF1Q, y, eps);
}
export function frictionF2(y: number, eps: number): number {
  return viaPQ(frictionF2Q, y, eps);
}
/** PQ_IO ← f₀(y = PQ_IO, ε = PQ_PARAM). */
export function frictionF0Q(): void {
  const y = PQ[PQ_IO]!, eps = PQ[PQ_PARAM]!;
  PQ[PQ_IO] = y < eps ? (y * y) / eps - (y * y * y) / (3 * eps * eps) + eps / 3 : y;
}
/** PQ_IO ← f₁(y = PQ_IO, ε = PQ_PARAM). */
export function frictionF1Q(): void {
  const y = PQ[PQ_IO]!, eps = PQ[PQ_PARAM]!;
  PQ[PQ_IO] = y < eps ? (2 * y) / eps - (y * y) / (eps * eps) : 1;
}
/** PQ_IO ← f₀''(y = PQ_IO, ε = PQ_PARAM). */
export function frictionF2Q(): void {
  const y = PQ[PQ_IO]!, eps = PQ[PQ_PARAM]!;
  PQ[PQ_IO] = y < eps ? 2 / eps - (2 * y) / (eps * eps) : 0;
}

/**
 * IPC's log barrier on d ∈ (0, d̂): b(d) = −(d − d̂)² ln(d / d̂), b(d̂) = b'(d̂) = b''(d̂) = 0 (C²),
 * b → ∞ as d → 0⁺, convex on (0, d̂); 0 for d ≥ d̂. b1 = b', b2 = b''.
 */
export function barrierB(d: number, dh: number): number {
  return viaPQ(barrierBQ, d, dh);
}
export function barrierB1(d: number, dh: number): number {
  return viaPQ(barrierB1Q, d, dh);
}
export function barrierB2(d: number, dh: number): number {
  return viaPQ(barrierB2Q, d, dh);
}
/** PQ_IO ← b(d = PQ_IO, d̂ = PQ_PARAM); ln through LOG_IO (no double crosses a call). */
export function barrierBQ(): void {
  const d = PQ[PQ_IO]!, dh = PQ[PQ_PARAM]!;
  if (!(d < dh)) {
    PQ[PQ_IO] = 0;
    return;
  }
  if (!(d > 0)) {
    PQ[PQ_IO] = Infinity;
    return;
  }
  const e = d - dh;
  LOG_IO[0] = d / dh;
  logInPlace();
  PQ[PQ_IO] = -e * e * LOG_IO[0]!;
}
/** PQ_IO ← b'(d = PQ_IO, d̂ = PQ_PARAM). */
export function barrierB1Q(): void {
  const d = PQ[PQ_IO]!, dh = PQ[PQ_PARAM]!;
  if (!(d < dh) || !(d > 0)) {
    PQ[PQ_IO] = 0;
    return;
  }
  const e = d - dh;
  LOG_IO[0] = d / dh;
  logInPlace();
  PQ[PQ_IO] = -2 * e * LOG_IO[0]! - (e * e) / d;
}
/** PQ_IO ← b''(d = PQ_IO, d̂ = PQ_PARAM). */
export function barrierB2Q(): void {
  const d = PQ[PQ_IO]!, dh = PQ[PQ_PARAM]!;
  if (!(d < dh) || !(d > 0)) {
    PQ[PQ_IO] = 0;
    return;
  }
  const e = d - dh, q = e / d;
  LOG_IO[0] = d / dh;
  logInPlace();
  PQ[PQ_IO] = -2 * LOG_IO[0]! - 4 * q + q * q;
}
