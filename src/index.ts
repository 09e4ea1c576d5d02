// The public surface of `haggle`. Everything a user imports from 'haggle' is listed here explicitly.
export * from './backends/index.js';
export * from './contract/index.js';
export * from './simulation/index.js';
