import type { FailureKind } from '../errors.js';

/** Why one attempt failed, before it is known whether it was the last one. */
export interface AttemptFailure {
  kind: FailureKind;
  status?: number;
  retryable: boolean;
  /** What the server asked us to wait (`retry-after`), if it said. */
  retryAfterMs?: number;
  /** For timeouts: which limit fired. */
  scope?: 'attempt' | 'total';
  /** For `too-large`: the limit the response went past. */
  limitBytes?: number;
  /** For a browser's opaque failure across origins (likely CORS): the page's and the server's origins. */
  crossOrigin?: { pageOrigin: string; targetOrigin: string };
  /** One redacted sentence. */
  message: string;
  responseBody?: string;
  cause?: unknown;
}
