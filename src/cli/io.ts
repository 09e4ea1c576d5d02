import { readTextWithLimit } from '../internal/bounded-read.js';

/** Where the CLI reads and writes; tests pass their own. */
export interface CliIo {
  /** `columns`: a terminal's width, which tables fit (see terminal-width.ts). */
  stdout: NodeJS.WriteStream | { write(text: string): unknown; isTTY?: boolean; columns?: number };
  stderr: NodeJS.WriteStream | { write(text: string): unknown; isTTY?: boolean };
  /** All of standard input as text; past `limitBytes` (when given), an `InputTooLargeError`. */
  readStdin(limitBytes?: number): string;
}

export const processIo: CliIo = {
  stdout: process.stdout,
  stderr: process.stderr,
  readStdin: (limitBytes = Number.MAX_SAFE_INTEGER) => readTextWithLimit(0, limitBytes),
};
