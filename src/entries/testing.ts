/**
 * Helpers for testing apps built on haggle without a model: `MockLanguageBackend` answers from a queue.
 * @packageDocumentation
 * @module haggle/testing
 */
export * from '../testing/index.js';
