export * from './pattern.js';
export * from './ordering.js';
export * from './mindegree.js';
export * from './ldlt.js';
export * from './dense.js';
export * from './linear.js';
export * from './cg.js';
