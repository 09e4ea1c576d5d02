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
 * Milliseconds a server asked us to wait, from `retry-after-ms` (OpenAI's) or `retry-after` (seconds
 * or an HTTP date); undefined when absent or unreadable.
 */
export function parseRetryAfter(headers: HeaderLookup, now = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const raw = headers.get('retry-after');
  if (raw === null || raw.trim() === '') return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Exponential backoff with full jitter (a uniform draw up to the exponential step): concurrent
 * sessions that failed together spread out instead of retrying in lockstep. `retry` counts from 0.
 */
export function backoffDelay(policy: RetryPolicy, retry: number, random: () => number): number {
  const step = Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** retry);
  return Math.round(step * random());
}
