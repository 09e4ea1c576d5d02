import { readTextWithLimit, stripByteOrderMark } from '../internal/bounded-read.js';
import { maxInputBytes } from '../internal/environment.js';
import { InputTooLargeError } from '../internal/errors.js';
import { CliUsageError } from './errors.js';

/**
 * Reads and parses a JSON file, or standard input when the path is `-`, up to `limitBytes` (default: 64
 * MiB, or `HAGGLE_MAX_INPUT_MIB`; see environment.ts for why). A UTF-8 byte-order mark is accepted.
 * Every failure is one line (a `CliUsageError`: exit code 2) that names the file and what to do.
 */
export function readJsonInput(
  path: string,
  what: string,
  stdin: (limitBytes: number) => string,
  limitBytes: number = maxInputBytes(),
): unknown {
  let text: string;
  try {
    text = path === '-' ? stdin(limitBytes) : readTextWithLimit(path, limitBytes);
    // A test's stdin (or a CliIo of an embedding app) may ignore the limit: it is checked here too.
    if (Buffer.byteLength(text, 'utf8') > limitBytes) throw new InputTooLargeError(limitBytes);
  } catch (error) {
    throw new CliUsageError(`cannot read ${what} ${path}: ${whyUnreadable(error)}`);
  }
  try {
    return JSON.parse(stripByteOrderMark(text));
  } catch (error) {
    throw new CliUsageError(`${what} ${path} is not valid JSON: ${(error as Error).message}`);
  }
}

function whyUnreadable(error: unknown): string {
  if (error instanceof InputTooLargeError) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'is a directory';
  if (code === 'EACCES') return 'permission denied';
  return error instanceof Error ? error.message : String(error);
}
