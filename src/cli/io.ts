import { readTextWithLimit } from '../internal/bounded-read.js';
import { terminalText } from '../internal/terminal-text.js';

/** A stream the CLI writes text to. */
export type TextStream =
  | NodeJS.WriteStream
  | { write(text: string): unknown; isTTY?: boolean; columns?: number };

/** Where the CLI reads and writes; tests pass their own. */
export interface CliIo {
  /** `columns`: a terminal's width, which tables fit (see terminal-width.ts). */
  stdout: TextStream;
  stderr: TextStream;
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

const OWN_SEQUENCES = Symbol('haggle.cli.ownSequences');

/**
 * The printing boundary: `io` with both streams passing every write through `terminalText`, so that no
 * verb can print a file's or a model's control characters raw (the list and dialogue of `show`, tables,
 * summaries, error messages that quote a file). JSON output stays exact: the escapes are JSON's own.
 */
export function terminalSafeIo(io: CliIo): CliIo {
  return { ...io, stdout: escaping(io.stdout), stderr: escaping(io.stderr) };
}

/**
 * The stream under an escaping one, for haggle's own control sequences (the progress bar's carriage
 * return and erase-line): the only writer allowed past the boundary, since its text is haggle's.
 */
export function withOwnSequences(stream: TextStream): TextStream {
  return (stream as { [OWN_SEQUENCES]?: TextStream })[OWN_SEQUENCES] ?? stream;
}

function escaping(stream: TextStream): TextStream {
  return {
    write: (text: string) => stream.write(terminalText(text)),
    get isTTY() {
      return stream.isTTY;
    },
    get columns() {
      return (stream as { columns?: number }).columns;
    },
    [OWN_SEQUENCES]: stream,
  } as TextStream;
}
