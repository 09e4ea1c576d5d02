import type { Redactor } from '../internal/redact.js';
import { terminalText } from '../internal/terminal-text.js';

/** A request the server answered with a 5xx status (or cut off mid-stream): for the operator's log. */
export interface ServerFailure {
  /** The status the client got: 500 for an unexpected error, 502 for a backend's, 504 for the deadline. */
  status: number;
  method: string;
  /** The request's path, without its query string. */
  path: string;
  /** The error and its causes on one line, redacted, control characters escaped: fit for a log. */
  message: string;
  /** The error itself, unredacted: for code that knows what it may print. */
  error: unknown;
}

/** How deep a cause chain is followed: a wrapped error rarely nests deeper. haggle's choice. */
const MAX_CAUSES = 4;

/**
 * `error` and its `cause` chain as one line (`Error: boom; cause: TypeError: …`), through `redactor`,
 * its control characters written as visible `\u001b`-style escapes (`terminalText`):
 * the client of a 500 sees "internal server error" only, so the log is the one place the cause is said.
 */
export function describeFailure(error: unknown, redactor: Redactor): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth <= MAX_CAUSES && current !== undefined && current !== null; depth++) {
    parts.push(
      current instanceof Error ? `${current.name}: ${current.message}` : `thrown value: ${String(current)}`,
    );
    current = current instanceof Error ? current.cause : undefined;
  }
  // `haggle serve` prints this on a terminal, and a cause may quote text that came from outside.
  return terminalText(redactor.text(parts.join('; cause: ').replace(/\s+/g, ' ').trim()));
}
