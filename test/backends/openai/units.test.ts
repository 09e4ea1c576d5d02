import { describe, expect, it } from 'vitest';
import { cleanOutputText } from '../../../src/backends/openai/output-cleaning.js';
import {
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  isRetryableStatus,
  parseRetryAfter,
} from '../../../src/backends/openai/retry-policy.js';
import { Semaphore } from '../../../src/backends/openai/semaphore.js';
import { HaggleAbortError } from '../../../src/index.js';
import { redact } from '../../../src/internal/redact.js';
import { urlLabel } from '../../../src/internal/redact-url.js';

describe('cleanOutputText', () => {
  const turn = '{"action":"accept","price":null,"message_labels":[],"message":"","response_time":1}';
  it.each([
    [turn, turn],
    [`<think>\nlet me think\n</think>\n\n${turn}`, turn],
    [`\`\`\`json\n${turn}\n\`\`\``, turn],
    [`<think></think>\`\`\`\n${turn}\n\`\`\`<|im_end|>`, turn],
    [`  ${turn}<|im_end|>`, turn],
  ])('cleans %j', (raw, clean) => {
    expect(cleanOutputText(raw)).toBe(clean);
  });

  it.each([['Sure! Here it is: {"a":1}'], ['<think>never closed {"a":1}'], ['']])(
    'leaves %j untouched for the agent to report',
    (raw) => {
      expect(cleanOutputText(raw)).toBe(raw);
    },
  );
});

describe('retry policy', () => {
  it('retries 408, 409, 429 and 5xx only', () => {
    expect([400, 401, 403, 404, 408, 409, 422, 429, 500, 502, 503].filter(isRetryableStatus)).toEqual([
      408, 409, 429, 500, 502, 503,
    ]);
  });

  it('reads retry-after-ms, seconds and HTTP dates', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(parseRetryAfter(new Headers({ 'retry-after': '2' }))).toBe(2000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), now)).toBe(3000);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(parseRetryAfter(new Headers())).toBeUndefined();
  });

  it('reads retry-after as RFC 9110 says: delay-seconds are digits only, dates in the three HTTP forms', () => {
    const waitOf = (value: string, now?: number) =>
      parseRetryAfter(new Headers({ 'retry-after': value }), now);
    // Numbers JavaScript reads but the RFC does not: ignored, so the backoff applies instead.
    for (const value of ['1e3', '1.5', '-1', '+5', '0x10', '1_000', 'Infinity', '5 s'])
      expect(waitOf(value), value).toBeUndefined();
    expect(waitOf('0')).toBe(0);
    expect(waitOf(' 7 ')).toBe(7000); // header whitespace is not part of the value
    const now = Date.parse('1994-11-06T08:49:30Z');
    expect(waitOf('Sun, 06 Nov 1994 08:49:37 GMT', now)).toBe(7000);
    expect(waitOf('Sunday, 06-Nov-94 08:49:37 GMT', now)).toBe(7000);
    expect(waitOf('Sun Nov  6 08:49:37 1994', now)).toBe(7000);
    // Dates Date.parse would take but HTTP does not write.
    for (const value of ['1994-11-06T08:49:37Z', 'Nov 6 1994', 'tomorrow'])
      expect(waitOf(value, now), value).toBeUndefined();
  });

  it('backs off exponentially with full jitter, capped', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, initialDelayMs: 100, maxDelayMs: 1000 };
    expect([0, 1, 2, 3, 4, 5].map((retry) => backoffDelay(policy, retry, () => 0.999999))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
    expect(backoffDelay(policy, 3, () => 0)).toBe(0);
  });
});

describe('redaction', () => {
  it('drops credentials and queries from replica labels, and secrets from text', () => {
    expect(urlLabel('https://u:p@host:8000/v1/?key=1')).toBe('https://host:8000/v1');
    expect(redact('key sk-abcdef and Bearer xyz.123', ['sk-abcdef'])).toBe(
      'key [redacted] and Bearer [redacted]',
    );
  });
});

describe('Semaphore', () => {
  it('grants in FIFO order and skips aborted waiters', async () => {
    const semaphore = new Semaphore(1);
    const order: string[] = [];
    const first = await semaphore.acquire();
    expect(semaphore.tryAcquire()).toBeUndefined();
    const controller = new AbortController();
    const aborted = semaphore.acquire(controller.signal);
    const second = semaphore.acquire().then((release) => {
      order.push('second');
      return release;
    });
    expect(semaphore.load).toBe(3);
    controller.abort();
    await expect(aborted).rejects.toBeInstanceOf(HaggleAbortError);
    first();
    first(); // releasing twice must not free a second slot
    (await second)();
    expect(order).toEqual(['second']);
    expect(semaphore.load).toBe(0);
    const again = semaphore.tryAcquire();
    expect(again).toBeTypeOf('function');
    expect(semaphore.load).toBe(1);
  });
});
