import { readRunFile } from './run-file.js';
import type { RunFileAccess } from './run-file-access.js';
import { holdsData, openRunOutput } from './run-output.js';
import { runSimulation, type SimulateOptions, type SimulationRun } from './simulate.js';

const nodeRunFiles: RunFileAccess = { holdsData, openRunOutput, readRunFile };

/**
 * Plays many sessions concurrently, writing each to `out` as it finishes (see the core `simulate` for
 * seeds and ordering). This is the Node build, with file access: `haggle` resolves to it under Node, and
 * `haggle/node` exports it for Deno and Bun. Starts on the next tick: attach listeners right after calling.
 */
export function simulate(options: SimulateOptions): SimulationRun {
  return runSimulation(options, nodeRunFiles);
}
