import { readRunFile } from './run-file.js';
import type { RunFileAccess } from './run-file-access.js';
import { holdsData, openRunOutput } from './run-output.js';
import { runSimulation, type SimulateOptions, type SimulationRun } from './simulate.js';

const nodeRunFiles: RunFileAccess = { holdsData, openRunOutput, readRunFile };

/**
 * Plays many sessions concurrently, writing each to `out` as it finishes (see the core `simulate` for
 * seeds and ordering). This is the Node build, with file access: `haggle` resolves to it under Node, and
 * `haggle/node` exports it for Deno and Bun. Starts on the next tick: attach listeners right after calling.
 *
 * @example
 * ```ts
 * import { PopulationAgent, generateContexts, simulate } from 'haggle';
 *
 * // Resumable: run it again after an interruption and it plays only the sessions not yet on file.
 * const summary = await simulate({
 *   contexts: generateContexts({ count: 2000, seed: 1 }),
 *   buyer: agent,
 *   seller: new PopulationAgent(),
 *   seed: 7,
 *   concurrency: 16,
 *   out: 'runs/a.jsonl',
 * }).done();
 * console.log(`deal rate ${summary.dealRate}`);
 * ```
 * @see The guides: [Simulation](../../docs/simulation.md) and [Scaling](../../docs/scaling.md).
 */
export function simulate(options: SimulateOptions): SimulationRun {
  return runSimulation(options, nodeRunFiles);
}
