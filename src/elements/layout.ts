/**
 * Parameter layout of the triangle family, shared by the topology that writes it
 * (src/solver/topology.ts, Topology.triangles.params) and every array-offset kernel that reads it
 * (cst.ts, psd.ts, materials.ts, src/systems/forces.ts and inversion.ts, the plugin's strain tint).
 * Triangle e's parameters are params[TRI_STRIDE · e + TRI_*]. See docs/design.md, "Scratch and
 * calling convention".
 */
/** Young's modulus E (Pa). */
export const TRI_E = 0;
/** Poisson ratio ν. */
export const TRI_NU = 1;
/** Rest area Ā (m²). */
export const TRI_AREA = 2;
/** Inverse rest shape B = Dm⁻¹, row-major: b00, b01, b10, b11 at TRI_B00 … TRI_B00 + 3. */
export const TRI_B00 = 3;
/** Material id (MAT_* in materials.ts). */
export const TRI_MATERIAL = 7;
/** Doubles per triangle. */
export const TRI_STRIDE = 8;
