/**
 * What a marketplace app needs, in every runtime (Node, Deno, Bun, browsers, edge workers): the contract
 * (listing contexts, turns, typed errors), the rules, `NegotiationAgent`, the baseline negotiators,
 * prompt templates, `Session` and `simulate`, and `OpenAICompatibleBackend` over `fetch`. Nothing here
 * reaches a `node:` module. Under Node, `haggle` resolves to a build that adds the Node-only pieces
 * (see `haggle/node`). The other layers are subpaths: `haggle/evaluation`, `haggle/decoding`,
 * `haggle/report`, `haggle/server`, `haggle/env`, `haggle/onnx`, `haggle/ai-sdk`, `haggle/testing`.
 * @packageDocumentation
 * @module haggle
 */
export * from './agent/index.js';
export * from './backends/index.js';
export * from './baselines/index.js';
export * from './contract/index.js';
export * from './prompt/index.js';
export * from './rules/index.js';
export * from './simulation/index.js';
