/** Deterministic elementary functions (bit-identical across JS engines) and seeded PRNG. */
export { exp, log, pow } from './exp-log';
export { sin, cos, sincos } from './trig';
export { atan, atan2 } from './atan';
export { cbrt } from './cbrt';
export { Rng, mulberry32 } from './rng';
export { highWord, lowWord, fromWords, scalbn } from './bits';
