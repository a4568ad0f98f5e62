/** Energy / gradient / Hessian kernels (pure, allocation-free, scalar arguments). */
export { springEnergy, springGradient, springHessian, writePairBlocks } from './spring';
export { restTheta, bendingEnergy, bendingGradient, bendingHessian } from './bending';
export { cstRest, cstStrain, cstEnergy, cstGradient, cstHessian } from './cst';
export {
  fsSpringEnergy, fsSpringGradient, fsSpringHessX, fsSpringHessV,
  fsGravitationEnergy, fsGravitationGradient, fsGravitationHessX,
  fsVortexGradient, fsVortexHessX, fsVortexHessV,
  fsDragGradient, fsDragHessV,
  fsSimpleGravityEnergy, fsSimpleGravityGradient,
  fsConstantForceEnergy, fsConstantForceGradient,
} from './fosssim-forces';
export {
  MAT_FOSSSIM, MAT_STVK, MAT_NEOHOOKEAN, MAT_COROTATIONAL, MATERIAL_NAMES, NH_J_MIN, EIG,
  lameMu, lameLambda, triangleJ, materialId,
  triangleEnergy, triangleGradient, triangleHessian, triangleProjectedHessian, triangleConsistentMass,
} from './materials';
export type { MaterialName } from './materials';
export { TRI_E, TRI_NU, TRI_AREA, TRI_B00, TRI_MATERIAL, TRI_STRIDE } from './layout';
