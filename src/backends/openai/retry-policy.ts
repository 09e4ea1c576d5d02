import type { HeaderLookup } from './node-transport.js';

/** When and how long to wait before asking again. */
export interface RetryPolicy {
  /** Attempts after the first one. Default 4 (five requests at most). */
  maxRetries: number;
  /** Backoff before the first retry, before jitter. Default 200 ms. */
  initialDelayMs: number;
  /** Cap on one backoff. Default 5 s. */
  maxDelayMs: number;
  /** A `retry-after` longer than this is not waited for: the call fails at once. Default 60 s. */
  maxRetryAfterMs: number;
}

/** Retries, backoff and `retry-after` limits used when `retry` sets none (haggle's choice). */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxRetries: 4,
  initialDelayMs: 200,
  maxDelayMs: 5_000,
  maxRetryAfterMs: 60_000,
});

/**
 * Statuses worth another attempt: a timeout (408), a conflict (409, vLLM and proxies use it for
 * "busy"), a rate limit (429) and any server error. Other 4xx mean the request itself is wrong and
 * would fail the same way again.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * Milliseconds a server asked us to wait, from `retry-after-ms` (OpenAI's) or `retry-after`; undefined
 * when absent or unreadable. `retry-after` is read as RFC 9110 §10.2.3 defines it: `HTTP-date /
 * delay-seconds` with `delay-seconds = 1*DIGIT`, so `1e3`, `1.5`, `-1` or ` 0x10` are no delay at all
 * (ignored, and the backoff applies) rather than numbers JavaScript happens to read.
 */
export function parseRetryAfter(headers: HeaderLookup, now = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const raw = headers.get('retry-after')?.trim();
  if (raw === undefined || raw === '') return undefined;
  if (/^[0-9]+$/.test(raw)) return Number(raw) * 1000;
  if (!HTTP_DATE.test(raw)) return undefined;
  // asctime-date carries no zone but means GMT; Date.parse would read it in the local one.
  const date = Date.parse(raw.endsWith(' GMT') ? raw : `${raw} GMT`);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

// RFC 9110 §5.6.7's preferred IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) and the two obsolete forms
// a recipient must accept: rfc850-date (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime-date
// (`Sun Nov  6 08:49:37 1994`). `Date.parse` alone would take `1e3` or `2024` as a date.
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '[0-9]{2}:[0-9]{2}:[0-9]{2}';
const HTTP_DATE = new RegExp(
  `^(?:${DAY}, [0-9]{2} ${MONTH} [0-9]{4} ${TIME} GMT|${LONG_DAY}, [0-9]{2}-${MONTH}-[0-9]{2} ${TIME} GMT|` +
    `${DAY} ${MONTH} [ 0-9][0-9] ${TIME} [0-9]{4})$`,
);

/**
 * Exponential backoff with full jitter (a uniform draw up to the exponential step): concurrent
 * sessions that failed together spread out instead of retrying in lockstep. `retry` counts from 0.
 */
export function backoffDelay(policy: RetryPolicy, retry: number, random: () => number): number {
  const step = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** retry);
  return Math.round(step * random());
}
