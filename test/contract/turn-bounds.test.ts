import { beforeAll, describe, expect, it } from 'vitest';
import {
  HistorySchema,
  type LegalMove,
  MAX_MESSAGE_LENGTH,
  TurnSchema,
  turnJsonSchema,
  turnSchemaFor,
} from '../../src/contract/index.js';
import {
  MAX_LABEL_LENGTH,
  MAX_READ_MESSAGE_LENGTH,
  MAX_RESPONSE_HOURS,
} from '../../src/contract/turn-rules.js';
import { compileSchema } from '../../src/decoding/index.js';
import { BestOfferRules } from '../../src/rules/best-offer-rules.js';
import { type Qwen3, qwen3 } from '../decoding/support/qwen3.js';
import { expectAccepted, expectRefused } from '../decoding/support/walk.js';

// The bounds from the market: no turn takes longer than a listing runs (30 days), no label is longer
// than 48 characters. TurnSchema refuses past them; so does the JSON Schema, judged by the decoder
// that enforces it while a model writes.
const message = (labels: string[], responseTime: number, text = 'Is it still available?') => ({
  action: 'message_only',
  price: null,
  message_labels: labels,
  message: text,
  response_time: responseTime,
});
const label48 = `build_${'x'.repeat(MAX_LABEL_LENGTH - 6)}`;
const label49 = `${label48}y`;

describe('TurnSchema: response_time and labels bounded like the market', () => {
  it('30 days in hours is the longest a turn may take; the times models wrote before are refused', () => {
    expect(MAX_RESPONSE_HOURS).toBe(720);
    expect(TurnSchema.safeParse(message([], 720)).success).toBe(true);
    for (const late of [720.01, 6947, 55_555, 88_888]) {
      const result = TurnSchema.safeParse(message([], late));
      expect(result.success, String(late)).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual(['response_time']);
      expect(result.error?.issues[0]?.message).toMatch(/at most 720 \(30 days/);
    }
  });

  it('a profile in another unit has the same 30 days in its unit', () => {
    expect(turnSchemaFor('minutes').safeParse(message([], 43_200)).success).toBe(true);
    expect(turnSchemaFor('minutes').safeParse(message([], 43_201)).success).toBe(false);
    expect(turnSchemaFor('days').safeParse(message([], 30)).success).toBe(true);
    expect(turnSchemaFor('days').safeParse(message([], 31)).success).toBe(false);
  });

  it('a label has at most 48 characters (the card longest named one has 30)', () => {
    expect('declare_cost_limit_seller_firm').toHaveLength(30);
    expect(TurnSchema.safeParse(message([label48], 1)).success).toBe(true);
    const result = TurnSchema.safeParse(message([label49], 1));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['message_labels', 0]);
    expect(result.error?.issues[0]?.message).toMatch(/at most 48 characters/);
    expect(TurnSchema.safeParse(message(['a'.repeat(5000)], 1)).success).toBe(false);
  });
});

describe('messages: 500 characters written, 2,000 read', () => {
  it('a turn writes at most 500 characters; 501 is refused with the bound in the message', () => {
    expect(MAX_MESSAGE_LENGTH).toBe(500);
    expect(TurnSchema.safeParse(message([], 1, 'a'.repeat(500))).success).toBe(true);
    const result = TurnSchema.safeParse(message([], 1, 'a'.repeat(501)));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['message']);
    expect(result.error?.issues[0]?.message).toMatch(/at most 500 characters/);
    expect(turnSchemaFor('minutes').safeParse(message([], 1, 'a'.repeat(501))).success).toBe(false);
  });

  it('a history (read, it may hold real sessions) holds messages of up to 2,000, not more', () => {
    expect(MAX_READ_MESSAGE_LENGTH).toBe(2000);
    const entry = (text: string) => [{ role: 'buyer', turn: message([], 1, text), elapsedHours: 1 }];
    expect(HistorySchema.safeParse(entry('a'.repeat(2000))).success).toBe(true);
    expect(HistorySchema.safeParse(entry('a'.repeat(2001))).success).toBe(false);
  });
});

describe('the turn JSON Schema refuses the same turns, as the decoder enforces it', () => {
  let q: Qwen3;
  beforeAll(async () => {
    q = await qwen3();
  }, 120_000);

  it('without moves: response_time up to 720 hours, labels up to 48 characters', () => {
    const schema = turnJsonSchema({ actions: ['message_only'] });
    const branch = (schema.oneOf as { properties: Record<string, Record<string, unknown>> }[])[0];
    expect(branch?.properties.response_time).toMatchObject({ maximum: 720 });
    expect(branch?.properties.message_labels?.items).toMatchObject({ maxLength: MAX_LABEL_LENGTH });
    expect(branch?.properties.message).toMatchObject({ maxLength: MAX_MESSAGE_LENGTH });
    const grammar = compileSchema(schema, q.vocabulary);
    expectAccepted(grammar, q, JSON.stringify(message([label48], 720)));
    expectRefused(grammar, q, JSON.stringify(message([label49], 1)));
    expectRefused(grammar, q, JSON.stringify(message([], 721)));
    expectRefused(grammar, q, JSON.stringify(message([], 55_555)));
    expectAccepted(grammar, q, JSON.stringify(message([], 1, 'ok '.repeat(166))));
    expectRefused(grammar, q, JSON.stringify(message([], 1, 'a'.repeat(501))));
  });

  it("with Best Offer's moves: where no offer stands, what is left of the listing bounds every turn", () => {
    const rules = new BestOfferRules();
    const context = { item: { title: 'Lamp' }, listPrice: 80, currency: 'USD' };
    const state = { ...rules.initialState(context), elapsedHours: 700 };
    const moves: LegalMove[] = rules.legalMoves(state, 'buyer');
    expect(moves.map((m) => m.maxResponseHours)).toEqual(moves.map(() => 20));
    const grammar = compileSchema(turnJsonSchema({ moves }), q.vocabulary);
    expectAccepted(grammar, q, JSON.stringify(message([], 20)));
    expectRefused(grammar, q, JSON.stringify(message([], 20.5)));
  });
});

describe('BestOfferRules: the listing ends', () => {
  it('a turn written past the listing by a negotiator the schema does not bind is illegal, with why', () => {
    const rules = new BestOfferRules({ listingHours: 100 });
    const context = { item: { title: 'Lamp' }, listPrice: 80, currency: 'USD' };
    const state = rules.initialState(context);
    const late = { role: 'buyer' as const, turn: TurnSchema.parse(message([], 101)), elapsedHours: 101 };
    expect(rules.apply(state, late)).toEqual({
      kind: 'illegal',
      violation: "buyer's turn lands at 101 h, after the listing ended at 100 h",
    });
    expect(rules.apply(state, { ...late, elapsedHours: 100 }).kind).toBe('continue');
  });
});
