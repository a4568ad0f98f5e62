/** The render benchmark's scene (bench/render.ts): a 23×23-node sheet, 968 CST triangles, shearing and spinning above a half-plane. */
export function sheetScene(n = 23): string {
  const lines: string[] = ['<scene>', '<description text="A 968-triangle sheet shearing and spinning above a floor (render benchmark)."/>',
    '<duration time="25.0"/>', '<integrator type="symplectic-euler" dt="0.005"/>',
    '<viewport cx="0" cy="0" size="1.6"/>', '<backgroundcolor r="0.95" g="0.95" b="0.92"/>'];
  const h = 1.6 / (n - 1);
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const x = -0.8 + i * h, y = -0.8 + j * h;
      lines.push(`<particle m="0.05" px="${x.toFixed(6)}" py="${y.toFixed(6)}" vx="${(0.5 * y).toFixed(6)}" vy="${(0.3 * x).toFixed(6)}" fixed="0" radius="0.01"/>`);
    }
  }
  const id = (i: number, j: number) => j * n + i;
  for (let j = 0; j < n - 1; j++) {
    for (let i = 0; i < n - 1; i++) {
      lines.push(`<elasticbodycstforce i1="${id(i, j)}" i2="${id(i + 1, j)}" i3="${id(i + 1, j + 1)}" youngsmodulus="20" poissonratio="0.3"/>`);
      lines.push(`<elasticbodycstforce i1="${id(i, j)}" i2="${id(i + 1, j + 1)}" i3="${id(i, j + 1)}" youngsmodulus="20" poissonratio="0.3"/>`);
    }
  }
  for (let i = 0; i < n - 1; i++) lines.push(`<edge i="${id(i, 0)}" j="${id(i + 1, 0)}" radius="0.008"/>`);
  lines.push('<halfplane px="0" py="-1.2" nx="0.1" ny="1"/>', '<halfplanecolor i="0" r="0.3" g="0.3" b="0.35"/>', '</scene>');
  return lines.join('\n');
}

