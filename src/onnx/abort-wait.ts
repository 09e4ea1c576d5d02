import type { NativeProgress } from './native-gate.js';

/**
 * haggle's choice: the longest an aborted request may keep the worker while the worker goes on
 * finishing native runs. One prefill chunk of a 4B model on a small CPU can take tens of seconds, and
 * the worker looks at the abort only between runs; a worker busy in runs is not stuck, and ending it
 * would fail every other request in the batch. Past this, it is ended all the same.
 */
export const MAX_NATIVE_ABORT_WAIT_MS = 120_000;

/**
 * After one grace period, whether an aborted request's worker gets another: it does while it is
 * inside a native run or has finished one since the last look (it will reach the abort check at the
 * end of the run), up to `MAX_NATIVE_ABORT_WAIT_MS` in all. A worker that stayed in JavaScript for a
 * whole grace without a run (a runaway mask or compile) gets none.
 */
export function waitLonger(before: NativeProgress, now: NativeProgress, waitedMs: number): boolean {
  return waitedMs < MAX_NATIVE_ABORT_WAIT_MS && (now.inside || now.runs !== before.runs);
}
