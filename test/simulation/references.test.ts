import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../src/contract/errors.js';
import { CARD_FACTS } from '../../src/contract/model-card.js';
import {
  CARD_REFERENCE_SET,
  compareToReferences,
  formatReferenceComparison,
  resolveReferenceSet,
} from '../../src/entries/metrics.js';
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

/** `n` finished sessions, the first `deals` of them deals and the first `messages` with a message. */
function counted(n: number, deals: number, messages = 0, profile?: string): SessionResult[] {
  return Array.from({ length: n }, (_, i) => session(i, i < deals, i < messages, undefined, profile));
}

const rowOf = (sessions: SessionResult[], id: string) =>
  compareToReferences(sessions, CARD_REFERENCE_SET).rows.find((r) => r.reference.id === id);

describe('published references', () => {
  it("are the card's numbers, each a fact of the card table with its words, place and sample", () => {
    expect(CARD_REFERENCE_SET.values.map((v) => [v.id, v.value, v.written, v.statistic])).toEqual([
      ['population-deal-rate', 0.43, '~43%', 'deal-rate'],
      ['50k-ep3-deal-rate', 0.382, '38.2%', 'deal-rate'],
      ['50k-epoch-4-deal-rate', 0.34, '34.0%', 'deal-rate'],
      // 45.2% is the msg-sessions model's simulated deal rate, over all its sessions: the card defines
      // no deal rate "on message sessions".
      ['msg-sessions-ep4-deal-rate', 0.452, '45.2%', 'deal-rate'],
      ['population-message-share', 0.03, '~3%', 'message-session-share'],
    ]);
    for (const value of CARD_REFERENCE_SET.values) {
      const fact = CARD_FACTS.find((f) => f.id === value.id);
      expect(value.quote).toBe(fact?.quote);
      expect(value.quote).toContain(value.written);
    }
    const sampleOf = (id: string) => CARD_REFERENCE_SET.values.find((v) => v.id === id)?.sample;
    expect(sampleOf('50k-ep3-deal-rate')).toMatchObject({ sessions: 2000 });
    expect(sampleOf('50k-ep3-deal-rate')?.reading).toBeUndefined();
    expect(sampleOf('50k-epoch-4-deal-rate')?.reading).toMatch(/gives no sample/);
    expect(sampleOf('msg-sessions-ep4-deal-rate')).toBeUndefined();
    expect(resolveReferenceSet('card:qwen3-4b-negotiation-msg-sessions-ep4')).toBe(CARD_REFERENCE_SET);
    expect(() => resolveReferenceSet('card:gpt')).toThrow(InvalidInputError);
    expect(() => resolveReferenceSet('card:gpt')).toThrow(/known sets: card:qwen3-4b-negotiation-50k-ep3/);
  });

  it('3 deals of 19 sessions: too few to tell about 38.2% and 34.0%, with an exact interval', () => {
    const sessions = counted(19, 3);
    const card = rowOf(sessions, '50k-ep3-deal-rate');
    expect(card).toMatchObject({
      successes: 3,
      n: 19,
      verdict: 'too-few',
      method: 'fisher-exact',
      margin: 0.025,
      // A run at 38.2% needs 5,931 sessions before the difference's interval fits inside ±2.5 pp.
      needed: 5931,
    });
    // The difference's interval (Newcombe on both exact intervals) reaches 0: not inconsistent.
    expect(card?.differenceCi?.[0]).toBeLessThan(-0.3);
    expect(card?.differenceCi?.[1]).toBeGreaterThan(0);
    // Clopper-Pearson [3.4%, 39.6%], where the bootstrap gave [0.0%, 31.7%] and called 38.2% outside.
    expect(card?.ci?.[0]).toBeCloseTo(0.0338, 4);
    expect(card?.ci?.[1]).toBeCloseTo(0.3958, 4);
    expect(card?.pValue).toBeCloseTo(0.0561, 4);
    expect(rowOf(sessions, '50k-epoch-4-deal-rate')?.verdict).toBe('too-few');
    // "~43%" is out of reach of [3.4%, 39.6%] however it was rounded.
    expect(rowOf(sessions, 'population-deal-rate')?.verdict).toBe('inconsistent');
  });

  it('19 of 19 sessions with a message: an interval of non-zero width, and inconsistent with ~3%', () => {
    const share = rowOf(counted(19, 3, 19), 'population-message-share');
    expect(share?.run).toBe(1);
    expect(share?.ci?.[0]).toBeCloseTo(0.8235, 4);
    expect(share?.ci?.[1]).toBe(1);
    expect(share).toMatchObject({ verdict: 'inconsistent', method: 'rounding-range', range: [0.025, 0.035] });
  });

  it('"~43%" is the range its rounding allows: 42.2% of 20,000 is consistent, 41.0% is not', () => {
    const near = rowOf(counted(20_000, 8440), 'population-deal-rate');
    expect(near?.ci?.[1]).toBeGreaterThan(0.425); // [41.5%, 42.9%] reaches [42.5%, 43.5%)
    expect(near).toMatchObject({ verdict: 'consistent', method: 'rounding-range' });
    expect(near?.range?.[0]).toBeCloseTo(0.425, 10);
    expect(near?.range?.[1]).toBeCloseTo(0.435, 10);
    // Every 20,000-session run from 42.2% to 43.0% stays consistent with "~43%".
    const sessions = counted(20_000, 0);
    for (let deals = 8440; deals <= 8600; deals += 20) {
      for (let i = 0; i < sessions.length; i++) {
        const session = sessions[i] as SessionResult;
        sessions[i] = { ...session, outcome: { ...session.outcome, status: i < deals ? 'deal' : 'no-deal' } };
      }
      expect([deals, rowOf(sessions, 'population-deal-rate')?.verdict]).toEqual([deals, 'consistent']);
    }
    expect(rowOf(counted(20_000, 8200), 'population-deal-rate')?.verdict).toBe('inconsistent');
    // The same 42.2% from 500 sessions cannot tell 2 pp: too few, not consistent.
    expect(rowOf(counted(500, 211), 'population-deal-rate')).toMatchObject({
      verdict: 'too-few',
      needed: 2465,
    });
    // 42.2% of 20,000: the difference's interval [−2.0, +0.4] pp lies inside ±2.5 pp.
    expect(near?.differenceCi?.[0]).toBeGreaterThan(-0.025);
    expect(near?.differenceCi?.[1]).toBeLessThan(0.025);
  });

  it("a sample on both sides: 30% of 2,000 is inconsistent with the card's 38.2% of 2,000", () => {
    const row = rowOf(counted(2000, 600), '50k-ep3-deal-rate');
    expect(row).toMatchObject({ verdict: 'inconsistent', method: 'fisher-exact' });
    expect(row?.pValue).toBeLessThan(1e-6);
    // 38.2% of 6,000: the difference's interval lies inside ±2.5 pp.
    expect(rowOf(counted(6000, 2292), '50k-ep3-deal-rate')?.verdict).toBe('consistent');
  });

  it('not significant is not consistent: 1,215 deals of 3,000 against 38.2% of 2,000 is too few to tell', () => {
    // The issue's case: Fisher's p = 0.105 does not reject, but the difference's interval
    // [−0.50, +5.08] pp reaches far beyond ±2.5 pp: the run cannot tell agreement from a 5 pp gap.
    const row = rowOf(counted(3000, 1215), '50k-ep3-deal-rate');
    expect(row?.verdict).toBe('too-few');
    expect(row?.pValue).toBeGreaterThan(0.05);
    expect(row?.differenceCi?.[0]).toBeCloseTo(-0.005, 3);
    expect(row?.differenceCi?.[1]).toBeCloseTo(0.0508, 3);
    const below = rowOf(counted(3000, 1080), '50k-ep3-deal-rate');
    expect(below?.verdict).toBe('too-few');
    expect(below?.differenceCi?.[0]).toBeCloseTo(-0.0497, 3);
    expect(below?.differenceCi?.[1]).toBeCloseTo(0.0056, 3);
  });

  it("cannot tell where the card's own 2,000 sessions are wider than the margin", () => {
    const sessions = counted(100_000, 38_200);
    const strict = compareToReferences(sessions, CARD_REFERENCE_SET, { margin: 0.02 });
    const row = strict.rows.find((r) => r.reference.id === '50k-ep3-deal-rate');
    // Even 100,000 sessions at exactly 38.2%: the card's 764 of 2,000 alone give ±2.1 pp.
    expect(row).toMatchObject({ verdict: 'cannot-tell', needed: null, margin: 0.02 });
    expect(row?.referenceHalfWidth).toBeCloseTo(0.0215, 3);
    const text = formatReferenceComparison(strict);
    // Clopper-Pearson around 764 of 2,000 reaches 2.1 pp below and 2.2 pp above.
    expect(text).toContain(
      "cannot tell: the card's 2,000 sessions alone give −2.1/+2.2 pp, no run can reach ±2.0 pp",
    );
    // The rounding of ~43% (±0.5 pp) leaves ±2 pp reachable.
    expect(strict.rows.find((r) => r.reference.id === 'population-deal-rate')?.verdict).not.toBe(
      'cannot-tell',
    );
    expect(() => compareToReferences(sessions, CARD_REFERENCE_SET, { margin: 0 })).toThrow(InvalidInputError);
  });

  it('45.2% has no sample on the card: taken as exact, against the run’s exact interval', () => {
    const row = rowOf(
      counted(3000, 1356, 0, 'qwen3-4b-negotiation-msg-sessions-ep4'),
      'msg-sessions-ep4-deal-rate',
    );
    expect(row).toMatchObject({
      verdict: 'consistent',
      method: 'exact-interval',
      pValue: null,
      runModel: true,
    });
    expect(rowOf(counted(3000, 1200), 'msg-sessions-ep4-deal-rate')?.verdict).toBe('inconsistent');
  });

  it('leaves errored sessions out, marks the run’s model, and a run without sessions is too few', () => {
    const sessions = [...counted(100, 40, 10)];
    for (let i = 100; i < 120; i++) sessions.push(session(i, false, true, 'error'));
    const result = compareToReferences(sessions, 'card:qwen3-4b-negotiation-50k-ep3');
    expect(result.sessions).toEqual({ total: 120, finished: 100 });
    const population = result.rows.find((r) => r.reference.id === 'population-deal-rate');
    expect(population?.run).toBe(0.4);
    expect(dealRate(sessions)).toBeCloseTo(population?.run as number);
    expect(result.rows.find((r) => r.reference.id === 'population-message-share')?.run).toBe(0.1);
    expect(result.rows.find((r) => r.reference.id === '50k-ep3-deal-rate')?.runModel).toBe(true);
    expect(result.rows.find((r) => r.reference.id === 'msg-sessions-ep4-deal-rate')?.runModel).toBe(false);

    const errorsOnly = compareToReferences([session(0, false, false, 'error')], CARD_REFERENCE_SET);
    for (const row of errorsOnly.rows)
      expect(row).toMatchObject({ run: null, ci: null, n: 0, verdict: 'too-few' });
    expect(() => compareToReferences(sessions, CARD_REFERENCE_SET, { level: 1 })).toThrow(InvalidInputError);
  });

  it("prints the verdicts, the card's words and that the run is not the card's sessions", () => {
    const text = formatReferenceComparison(compareToReferences(counted(19, 3), CARD_REFERENCE_SET));
    expect(text).toMatch(
      /qwen3-4b-negotiation-50k-ep3: deal rate.*38\.2%\s+2,000\s+15\.8%\s+\[3\.4%, 39\.6%\]\s+19\s+−22\.4 pp \[−35\.0, \+1\.5\]\s+too few sessions to tell \(19 of 5,931 needed for ±2\.5 pp, p = 0\.056\)/,
    );
    expect(text).toContain('“| Deal rate | ~43% | 38.2% | −4.8 pp |”');
    expect(text).toContain('2,000 held-out sessions from the 200k uniform pool');
    expect(text).toMatch(
      /haggle's synthetic listings is another population than those held-out eBay sessions/,
    );
    expect(text).toContain(
      '“Evaluated on eBay negotiation data; behavior on other negotiation domains is untested.”',
    );
    expect(text).not.toMatch(/on (message|msg) sessions/);
  });
});
