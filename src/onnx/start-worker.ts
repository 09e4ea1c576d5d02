import { Worker } from 'node:worker_threads';
import type { WorkerEntry } from './worker-entry.js';

/**
 * Starts the worker with the process's Node options, less those a worker refuses: process-wide V8
 * flags (`node --expose-gc app.js`, `--trace-gc`) and `--input-type` (`node --input-type=module -e`).
 * Node names the refused flags in its error; they are dropped and the start is tried once more.
 */
export function startWorker(entry: WorkerEntry, heapMb: number): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: heapMb };
  const start = (execArgv: string[]) =>
    entry.kind === 'file'
      ? new Worker(entry.url, { execArgv, resourceLimits })
      : new Worker(entry.code, { eval: true, execArgv, resourceLimits });
  const execArgv = process.execArgv.filter((arg) => !arg.startsWith('--input-type'));
  try {
    return start(execArgv);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error;
    const refused = new Set(
      (error as Error).message
        .split(':')
        .slice(1)
        .join(':')
        .split(/[\s,]+/)
        .filter(Boolean),
    );
    return start(execArgv.filter((arg) => !refused.has(arg) && !refused.has(arg.split('=')[0] as string)));
  }
}
