import { readTextWithLimit } from '../internal/bounded-read.js';

/** Where the CLI reads and writes; tests pass their own. */
export interface CliIo {
  stdout: NodeJS.WriteStream | { write(text: string): unknown; isTTY?: boolean };
  stderr: NodeJS.WriteStream | { write(text: string): unknown; isTTY?: boolean };
  /** All of standard input as text; past `limitBytes` (when given), an `InputTooLargeError`. */
  readStdin(limitBytes?: number): string;
}

export const processIo: CliIo = {
  stdout: process.stdout,
  stderr: process.stderr,
  readStdin: (limitBytes = Number.MAX_SAFE_INTEGER) => readTextWithLimit(0, limitBytes),
};

/**
 * A reader that stops reading (`haggle show RUN | head -1`) closes the pipe, and the next write fails
 * with `EPIPE`. Unix tools end quietly then: nobody is left to read the rest. Without this, Node reports
 * the unhandled stream error with a stack trace and exit code 1. Any other stream error stays fatal.
 */
export function endQuietlyOnBrokenPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}
