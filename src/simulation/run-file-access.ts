import type { readRunFile } from './run-file.js';
import type { holdsData, openRunOutput } from './run-output.js';

/**
 * What `simulate` needs to write and resume its `out` file. Given by the Node build only: the functions
 * behind it use `node:fs`, which must never be reachable from the build for browsers and edge runtimes.
 */
export interface RunFileAccess {
  holdsData: typeof holdsData;
  openRunOutput: typeof openRunOutput;
  readRunFile: typeof readRunFile;
}
