/**
 * Constrained JSON decoding: a JSON Schema compiled into a grammar over a tokenizer's vocabulary, the
 * token masks it allows at each step, jump-forward, and a seeded sampler. What the local ONNX backend
 * decodes with; usable with any model that gives logits.
 * @packageDocumentation
 * @module haggle/decoding
 */
export * from '../decoding/index.js';
