import { describe, expect, it } from 'vitest';
import {
  compare,
  computeMetrics,
  hasMessage,
  messageSessionRate,
  summarize,
} from '../../src/entries/metrics.js';
import { loadSessions, type SessionResult } from '../../src/index.js';
import { buildReportData, renderReport } from '../../src/report/index.js';

// Four hand-written sessions, each with a message (see fixtures/small-real-sessions.jsonl).
const FIXTURE = new URL('./fixtures/small-real-sessions.jsonl', import.meta.url).pathname;

/** The same session with every message taken out: offers stay offers, messages become silence. */
function withoutMessages(session: SessionResult): SessionResult {
  return {
    ...session,
    turns: session.turns.map((t) => ({
      ...t,
      turn:
        t.turn.action === 'offer_with_message'
          ? { ...t.turn, action: 'offer', message: '', message_labels: [] }
          : t.turn.action === 'message_only'
            ? { ...t.turn, action: 'no_response', message: '', message_labels: [] }
            : t.turn,
    })),
  };
}

/**
 * Six sessions: 0 and 2 carry messages; 1 none; 3 failed (error) and counts in no rate; 4 was
 * aborted; 5's only message is on a turn that broke a rule. Message session rate: 2 of 4 = 0.5.
 */
function mixedSessions(): SessionResult[] {
  const [a, b, c, d] = loadSessions(FIXTURE) as [SessionResult, SessionResult, SessionResult, SessionResult];
  const failed: SessionResult = {
    ...d,
    outcome: { ...d.outcome, status: 'no-deal', reason: 'error', price: null },
  };
  const aborted: SessionResult = {
    ...a,
    outcome: { ...a.outcome, status: 'no-deal', reason: 'aborted', price: null },
  };
  const quiet = withoutMessages(c);
  const refused: SessionResult = {
    ...quiet,
    turns: quiet.turns.map((t, i) =>
      i === 1
        ? {
            ...t,
            turn: {
              ...t.turn,
              action: 'message_only',
              price: null,
              message: 'Final price.',
              message_labels: [],
            },
            violation: 'seller chose message_only, which the rules do not allow at this point',
          }
        : t,
    ),
  };
  return [a, withoutMessages(b), c, failed, aborted, refused];
}

describe('message session rate', () => {
  const sessions = mixedSessions();

  it('counts a session with a message on a legal turn, over sessions that did not fail', () => {
    expect(sessions.map(hasMessage)).toEqual([true, false, true, true, true, false]);
    expect(messageSessionRate(sessions)).toBe(0.5);
    expect(messageSessionRate(loadSessions(FIXTURE))).toBe(1);
    expect(messageSessionRate([])).toBeNull();
    expect(messageSessionRate(sessions.slice(3, 5))).toBeNull();
  });

  it('is a field of the summary, beside the deal rate', () => {
    const summary = summarize(sessions);
    expect(summary.messageSessionRate).toBe(0.5);
    const keys = Object.keys(summary);
    expect(keys[keys.indexOf('dealRate') + 1]).toBe('messageSessionRate');
    // No finished session: no rate, as for the deal rate.
    expect(summarize([]).messageSessionRate).toBeNull();
  });

  it('is a metric with an interval, standing on the sessions that count', () => {
    const estimate = computeMetrics(sessions, { resamples: 200, seed: 3 }).find(
      (m) => m.id === 'message-session-rate',
    );
    expect(estimate).toMatchObject({ value: 0.5, n: 4, unit: 'share', family: 'messages' });
    const [low, high] = estimate?.ci ?? [Number.NaN, Number.NaN];
    expect(low).toBeGreaterThanOrEqual(0);
    expect(low).toBeLessThanOrEqual(0.5);
    expect(high).toBeGreaterThanOrEqual(0.5);
    expect(high).toBeLessThanOrEqual(1);
  });

  it('is compared between two runs, as the card compares its models', () => {
    const reference = loadSessions(FIXTURE); // all four carry messages
    const row = compare(sessions, reference, { resamples: 200, seed: 1 }).rows.find(
      (r) => r.id === 'message-session-rate',
    );
    expect(row).toMatchObject({ run: 0.5, reference: 1, delta: -0.5, n: { run: 4, reference: 4 } });
  });

  it('has a row in the HTML report, alone and against a reference', () => {
    const alone = renderReport(
      buildReportData({ run: { name: 'run', sessions }, bootstrap: { resamples: 50 } }),
    );
    expect(alone).toMatch(
      /<tr data-metric="message-session-rate" data-run="0.5"><td>message session rate<\/td><td>50.0%<\/td>/,
    );
    const against = renderReport(
      buildReportData({
        run: { name: 'run', sessions },
        reference: { name: 'source', sessions: loadSessions(FIXTURE) },
        bootstrap: { resamples: 50 },
      }),
    );
    expect(against).toMatch(
      /<tr data-metric="message-session-rate" data-reference="1" data-run="0.5" data-delta="-0.5"[^>]*><td>message session rate<\/td>/,
    );
  });
});
