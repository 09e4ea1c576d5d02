/**
 * Evaluation beyond one-issue haggling: multi-issue bargaining scenarios with private utilities,
 * baselines, scenario suites, tournaments with paired statistics, rewards, and exports for fine-tuning.
 * Reads and writes suite and tournament files: Node (or Deno, Bun).
 * @packageDocumentation
 * @module haggle/evaluation
 */
export * from '../evaluation/index.js';
