/** Bundle entry for the cross-engine determinism test (see engine-probe.ts). */
import { runProbe } from './engine-probe';
import cst from '../../assets/scenes/fosssim/t4m1/CSTTests/test07.xml';
import cstImplicit from '../../assets/scenes/fosssim/t4m1_codio_stiff/CSTTests/test07_implicit.xml';
import bendImplicit from '../../assets/scenes/fosssim/t4m1/BendingTests/test18.xml';
import bendExplicit from '../../assets/scenes/fosssim/t4m1/BendingTests/test07.xml';
import pendulum from '../../assets/scenes/fosssim/basic/t1m3/SystemTests/MultiplePendulumLinearizedImplicit.xml';
import gravity from '../../assets/scenes/fosssim/basic/t1m1/SimpleGravityTests/test00explicit.xml';
import halfplane from '../../assets/scenes/fosssim/basic/t2m1/HalfplaneTests/test01.xml';
import damped from '../scenes/damped-spring-implicit.xml';
import vortex from '../scenes/vortex-implicit.xml';

const lines = runProbe(
  { cst, cstImplicit, bendImplicit, bendExplicit, pendulum, gravity, halfplane, damped, vortex },
  150,
);
const g = globalThis as unknown as { print?: (s: string) => void };
if (typeof g.print === 'function') g.print(lines.join('\n'));
else console.log(lines.join('\n'));
