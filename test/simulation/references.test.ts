import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../src/contract/errors.js';
import { DEFAULT_MODEL_PROFILE, MODEL_PROFILES } from '../../src/contract/model-profile.js';
import {
  CARD_REFERENCE_SET,
  compareToReferences,
  formatReferenceComparison,
  resolveReferenceSet,
} from '../../src/simulation/index.js';
import { dealRate } from '../../src/simulation/metrics/deal-rate.js';
import type { SessionResult } from '../../src/simulation/session-result.js';

/** A session with a given ending, with or without a message, played by the given profile. */
function session(
  i: number,
  deal: boolean,
  message: boolean,
  reason?: 'error',
  profile = 'qwen3-4b-negotiation-50k-ep3',
): SessionResult {
  const llm = { kind: 'llm', profile };
  return {
    sessionId: `s${i}`,
    seed: i,
    context: { item: { title: 'x' }, listPrice: 100, currency: 'USD' },
    turns: [
      {
        role: 'buyer',
        turn: message
          ? { action: 'offer_with_message', price: 80, message_labels: [], message: 'hi', response_time: 1 }
          : { action: 'offer', price: 80, message_labels: [], message: '', response_time: 1 },
        elapsedHours: 1,
      },
    ],
    outcome: {
      status: deal ? 'deal' : 'no-deal',
      reason: reason ?? (deal ? 'accepted' : 'declined'),
      price: deal ? 80 : null,
      turns: 1,
      elapsedHours: 1,
    },
    negotiators: { buyer: llm, seller: llm },
    rules: {},
  };
}

describe('published references', () => {
  it("the card's numbers are the ones the built-in profiles quote", () => {
    const facts = MODEL_PROFILES['qwen3-4b-negotiation-50k-ep3'].facts.map((f) => f.statement).join(' ');
    for (const value of CARD_REFERENCE_SET.values.filter(
      (v) => v.quote === 'deal rate 38.2%; source population about 43%',
    )) {
      expect(facts).toContain(value.quote);
    }
    expect(DEFAULT_MODEL_PROFILE.description).toContain('38.2%');
    expect(CARD_REFERENCE_SET.values.map((v) => [v.id, v.value])).toEqual([
      ['population-deal-rate', 0.43],
      ['50k-ep3-deal-rate', 0.382],
      ['50k-epoch-4-deal-rate', 0.34],
      ['msg-sessions-ep4-deal-rate-message-sessions', 0.452],
      ['population-message-session-share', 0.03],
    ]);
    expect(resolveReferenceSet('card:qwen3-4b-negotiation-msg-sessions-ep4')).toBe(CARD_REFERENCE_SET);
    expect(() => resolveReferenceSet('card:gpt')).toThrow(InvalidInputError);
    expect(() => resolveReferenceSet('card:gpt')).toThrow(/known sets: card:qwen3-4b-negotiation-50k-ep3/);
  });

  it('estimates each statistic over the right sessions, leaves errors out, and says inside or outside', () => {
    // 100 finished sessions: 40 deals; 10 message sessions, 6 of them deals; and 20 errored sessions.
    const sessions: SessionResult[] = [];
    for (let i = 0; i < 100; i++) sessions.push(session(i, i < 40, i < 6 || (i >= 90 && i < 94)));
    for (let i = 100; i < 120; i++) sessions.push(session(i, false, true, 'error'));
    const result = compareToReferences(sessions, 'card:qwen3-4b-negotiation-50k-ep3', {
      resamples: 400,
      seed: 3,
    });
    const row = (id: string) => result.rows.find((r) => r.reference.id === id);
    expect(result.sessions).toEqual({ total: 120, finished: 100 });

    const population = row('population-deal-rate');
    expect(population?.run).toBe(0.4);
    expect(population?.n).toBe(100);
    expect(population?.inside).toBe(true); // 43% within a 95% interval around 40% of 100
    // The metric agrees: errors are no no-deals anywhere.
    expect(dealRate(sessions)).toBeCloseTo(population?.run as number);

    const messages = row('msg-sessions-ep4-deal-rate-message-sessions');
    expect(messages?.n).toBe(10);
    expect(messages?.run).toBe(0.6);

    const share = row('population-message-session-share');
    expect(share?.run).toBe(0.1);
    expect(share?.ci?.[0]).toBeGreaterThan(0.03);
    expect(share?.inside).toBe(false);

    // The 50k-ep3 row is marked as the run's model; the msg-sessions model's row is not.
    expect(row('50k-ep3-deal-rate')?.runModel).toBe(true);
    expect(messages?.runModel).toBe(false);

    const text = formatReferenceComparison(result);
    expect(text).toContain('source population: deal rate');
    expect(text).toContain('about 43%');
    expect(text).toMatch(/share of message sessions\s+about 3%\s+10\.0%.*outside the interval/);
    expect(text).toContain('100 of 120 sessions finished');
  });

  it('a run without message sessions says so instead of inventing a rate', () => {
    const sessions = Array.from({ length: 30 }, (_, i) => session(i, i % 2 === 0, false));
    const row = compareToReferences(sessions, CARD_REFERENCE_SET, { resamples: 100 }).rows.find(
      (r) => r.reference.statistic === 'deal-rate-message-sessions',
    );
    expect(row).toMatchObject({ run: null, ci: null, n: 0, inside: null });
  });
});
