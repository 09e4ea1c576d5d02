// The public surface of `haggle`. Each layer's index lists its exports explicitly.
export * from './agent/index.js';
export * from './agents/index.js';
export * from './backends/index.js';
export * from './contract/index.js';
export * from './decoding/index.js';
export * from './evaluation/index.js';
export * from './prompt/index.js';
export * from './report/index.js';
export * from './rules/index.js';
export * from './server/index.js';
export * from './simulation/index.js';
