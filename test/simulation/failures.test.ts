import { describe, expect, it } from 'vitest';
import {
  byCategory,
  byPriceTier,
  compare,
  computeMetrics,
  countErrorMessages,
  dealRate,
  formatComparison,
  labelEffects,
  priceRatioHistogram,
  sessionLengthDistribution,
  summarize,
} from '../../src/entries/metrics.js';
import { loadSessions, type SessionResult } from '../../src/index.js';
import { failedCopy } from '../helpers/failed-session.js';

// The four hand-written sessions of metrics.test.ts (3 deals of 4), plus sessions that failed part-way:
// copies of them cut short, ended with reason `error` or `aborted`. Failures must change no metric.
const FIXTURE = new URL('./fixtures/small-real-sessions.jsonl', import.meta.url).pathname;
const finished = loadSessions(FIXTURE);

const REFUSED = { name: 'RemoteConnectionError', message: 'connection failed: connect ECONNREFUSED' };
const NOT_FOUND = { name: 'NotFoundError', message: 'HTTP 404: the model `m` does not exist' };
const failed = [
  failedCopy(finished[0] as SessionResult, 'error', REFUSED, 2),
  failedCopy(finished[2] as SessionResult, 'error', NOT_FOUND, 1),
  failedCopy(finished[3] as SessionResult, 'error', REFUSED, 0),
  failedCopy(finished[1] as SessionResult, 'aborted', { name: 'HaggleAbortError', message: 'aborted' }, 1),
];
// Failures interleaved with finished sessions, as a run file holds them.
const mixed = [
  failed[0],
  finished[0],
  finished[1],
  failed[1],
  finished[2],
  failed[2],
  failed[3],
  finished[3],
].map((s) => s as SessionResult);

describe('failed sessions are no result', () => {
  it('the summary counts them apart and computes every rate over finished sessions', () => {
    const summary = summarize(mixed);
    expect(summary.sessions).toBe(8);
    expect(summary.finished).toBe(4);
    expect(summary.errors).toBe(3);
    expect(summary.outcomes.aborted).toBe(1);
    expect(summary.deals).toBe(3);
    // 3 deals of 4 finished sessions, not 3 of 8.
    expect(summary.dealRate).toBe(0.75);
    // Turns 3, 2, 4, 4 of the finished ones (the failed ones' 2, 1, 0, 1 left out).
    expect(summary.meanTurns).toBe(3.25);
    expect(summary.sessionLengths).toEqual({ '2': 1, '3': 1, '4': 2 });
    // Every distribution is the one of the finished sessions alone.
    const alone = summarize(finished);
    expect({ ...summary, sessions: 0, errors: 0, errorMessages: [], outcomes: {} }).toEqual({
      ...alone,
      sessions: 0,
      errors: 0,
      errorMessages: [],
      outcomes: {},
    });
    expect(summary.errorMessages).toEqual([
      { message: 'RemoteConnectionError: connection failed: connect ECONNREFUSED', count: 2 },
      { message: 'HaggleAbortError: aborted', count: 1 },
      { message: 'NotFoundError: HTTP 404: the model `m` does not exist', count: 1 },
    ]);
  });

  it('a run in which nothing finished has no deal rate and no mean length', () => {
    const summary = summarize(failed);
    expect(summary).toMatchObject({ sessions: 4, finished: 0, deals: 0, dealRate: null, meanTurns: null });
    expect(summary.turns.count).toBe(0);
    expect(summary.errorMessages.reduce((sum, e) => sum + e.count, 0)).toBe(4);
  });

  it('every metric, segment, histogram and label effect equals the finished sessions alone', () => {
    const options = { resamples: 200, seed: 3 };
    expect(computeMetrics(mixed, options)).toEqual(computeMetrics(finished, options));
    expect(dealRate(mixed)).toBe(0.75);
    expect(dealRate(failed)).toBeNull();
    expect(byPriceTier(mixed)).toEqual(byPriceTier(finished));
    expect(byCategory(mixed)).toEqual(byCategory(finished));
    expect(priceRatioHistogram(mixed)).toEqual(priceRatioHistogram(finished));
    expect(sessionLengthDistribution(mixed)).toEqual(sessionLengthDistribution(finished));
    expect(labelEffects(mixed)).toEqual(labelEffects(finished));
    // With none finished every value is null, not 0.
    expect(computeMetrics(failed, options).every((m) => m.value === null && m.ci === null)).toBe(true);
  });

  it('compare() measures finished sessions and reports the failed ones of each side', () => {
    const options = { resamples: 200, seed: 5 };
    const withFailures = compare(mixed, finished, options);
    const clean = compare(finished, finished, options);
    expect(withFailures.rows).toEqual(clean.rows);
    expect(withFailures.sessions).toEqual({ run: 4, reference: 4 });
    expect(withFailures.unfinished).toEqual({ run: 4, reference: 0 });
    expect(withFailures.errorMessages.run[0]).toEqual({
      message: 'RemoteConnectionError: connection failed: connect ECONNREFUSED',
      count: 2,
    });
    expect(withFailures.errorMessages.reference).toEqual([]);
    const text = formatComparison(withFailures);
    expect(text).toContain(
      'model: 4 of 8 sessions failed and are left out; the metrics stand on the 4 that finished',
    );
    expect(text).toContain('  2 × RemoteConnectionError: connection failed: connect ECONNREFUSED');
    expect(formatComparison(clean)).not.toContain('failed');
  });

  it('an all-failed run compares as "no metric", never as a 0% deal rate', () => {
    const comparison = compare(failed, finished, { resamples: 50 });
    const deal = comparison.rows.find((r) => r.id === 'deal-rate');
    expect(deal).toMatchObject({ run: null, delta: null, ci: null, reference: 0.75 });
    const text = formatComparison(comparison);
    expect(text).toContain('model: all 4 sessions failed; no metric');
    expect(text.split('\n').find((line) => line.startsWith('deal rate'))).toMatch(/75\.0%\s+–\s+–/);
  });

  it('error messages: one line each, counted, sorted by count then text; a missing error is said', () => {
    const multiLine = { name: 'Error', message: 'first line\n   second line' };
    const counted = countErrorMessages([
      failedCopy(finished[0] as SessionResult, 'error', multiLine),
      failedCopy(finished[0] as SessionResult, 'error', undefined),
      failedCopy(finished[0] as SessionResult, 'error', multiLine),
      ...finished,
    ]);
    expect(counted).toEqual([
      { message: 'first line second line', count: 2 },
      { message: '(no error recorded)', count: 1 },
    ]);
  });
});
