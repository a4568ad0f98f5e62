export * from './pattern.js';
export * from './amd.js';
export * from './ldlt.js';
export * from './dense.js';
export * from './linear.js';
export * from './cg.js';
