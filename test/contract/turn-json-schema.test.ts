import { describe, expect, it } from 'vitest';
import type { LegalMove } from '../../src/contract/legal-moves.js';
import { MAX_PRICE, MAX_RESPONSE_TIME } from '../../src/contract/turn-rules.js';
import { ACTIONS, InvalidInputError, MODEL_PROFILES, turnJsonSchema } from '../../src/index.js';

type Branch = { properties: Record<string, Record<string, unknown>>; required: string[] };

function branches(schema: Record<string, unknown>): Branch[] {
  return schema.oneOf as Branch[];
}

function branchFor(schema: Record<string, unknown>, action: string): Branch {
  const found = branches(schema).find((b) => b.properties.action?.const === action);
  if (!found) throw new Error(`no branch for ${action}`);
  return found;
}

describe('turnJsonSchema', () => {
  it('has one branch per action, properties in the model order, all required, nothing extra', () => {
    const schema = turnJsonSchema();
    expect(branches(schema).map((b) => b.properties.action?.const)).toEqual([...ACTIONS]);
    for (const branch of branches(schema)) {
      expect(Object.keys(branch.properties)).toEqual([
        'action',
        'price',
        'message_labels',
        'message',
        'response_time',
      ]);
      expect(branch.required).toEqual(Object.keys(branch.properties));
      expect((branch as unknown as { additionalProperties: boolean }).additionalProperties).toBe(false);
    }
  });

  it('writes the turn rules into the branches', () => {
    const schema = turnJsonSchema();
    // No moves given: any price above 0 up to the contract's MAX_PRICE.
    expect(branchFor(schema, 'offer').properties.price).toEqual({
      type: 'number',
      exclusiveMinimum: 0,
      maximum: MAX_PRICE,
    });
    expect(branchFor(schema, 'offer').properties.message).toEqual({ const: '' });
    expect(branchFor(schema, 'offer').properties.message_labels).toEqual({ type: 'array', maxItems: 0 });
    expect(branchFor(schema, 'accept').properties.price).toEqual({ type: 'null' });
    expect(branchFor(schema, 'message_only').properties.message).toMatchObject({
      type: 'string',
      minLength: 1,
    });
  });

  it('applies the role guardrails to offer prices', () => {
    const seller = turnJsonSchema({
      role: 'seller',
      guardrails: { seller: { minPrice: 40 }, buyer: { maxPrice: 60 } },
    });
    expect(branchFor(seller, 'offer').properties.price).toEqual({
      type: 'number',
      minimum: 40,
      maximum: MAX_PRICE,
    });
    const buyer = turnJsonSchema({
      role: 'buyer',
      guardrails: { seller: { minPrice: 40 }, buyer: { maxPrice: 60 } },
    });
    expect(branchFor(buyer, 'offer_with_message').properties.price).toEqual({
      type: 'number',
      exclusiveMinimum: 0,
      maximum: 60,
    });
  });

  it('uses an enum for a known label list and a snake_case pattern for an open one', () => {
    const open = turnJsonSchema({ profile: 'qwen3-4b-negotiation-50k-ep3' });
    const openItems = branchFor(open, 'message_only').properties.message_labels as {
      items: Record<string, unknown>;
    };
    expect(openItems.items.pattern).toBeDefined();
    expect(MODEL_PROFILES['qwen3-4b-negotiation-50k-ep3'].labels.kind).toBe('open');
    const known = turnJsonSchema({
      profile: {
        id: 'mine',
        labels: { kind: 'known', values: ['a_label', 'b_label'] },
        responseTimeUnit: 'minutes',
        template: 'chatml',
        sampling: { temperature: 0.7 },
      },
    });
    const knownItems = branchFor(known, 'offer_with_message').properties.message_labels as { items: unknown };
    expect(knownItems.items).toEqual({ type: 'string', enum: ['a_label', 'b_label'] });
  });

  it('limits the branches to the allowed actions and refuses an empty list', () => {
    const schema = turnJsonSchema({ actions: ['offer', 'message_only'] });
    expect(branches(schema).map((b) => b.properties.action?.const)).toEqual(['offer', 'message_only']);
    expect(() => turnJsonSchema({ actions: [] })).toThrow(InvalidInputError);
  });

  it('refuses an unknown profile id with the built-in ids in the message', () => {
    expect(() => turnJsonSchema({ profile: 'gpt-9' })).toThrow(/qwen3-4b-negotiation-50k-ep3/);
  });
});

describe('turnJsonSchema with legal moves', () => {
  const moves: LegalMove[] = [
    { action: 'offer', price: { min: 80, minInclusive: false, max: 120, maxInclusive: false, step: 0.01 } },
    { action: 'accept', dealPrice: 80, maxResponseHours: 30.5 },
    { action: 'no_response' },
  ];

  it('writes each move as a branch: its price interval, its grid and its time bound', () => {
    const schema = turnJsonSchema({ moves, responseTimeUnit: 'minutes' });
    expect((schema.oneOf as unknown[]).length).toBe(3);
    expect(branchFor(schema, 'offer').properties.price).toEqual({
      type: 'number',
      exclusiveMinimum: 80,
      exclusiveMaximum: 120,
      multipleOf: 0.01,
    });
    expect(branchFor(schema, 'accept').properties.response_time).toEqual({
      type: 'number',
      minimum: 0,
      maximum: 1830,
    });
    // No move bound: the contract's 30 days, in the turn's unit (minutes here).
    expect(branchFor(schema, 'no_response').properties.response_time).toMatchObject({
      maximum: MAX_RESPONSE_TIME * 60,
    });
  });

  it('narrows the intervals by the guardrails and drops an offer left with no price', () => {
    const narrowed = turnJsonSchema({ moves, role: 'seller', guardrails: { seller: { minPrice: 100 } } });
    expect(branchFor(narrowed, 'offer').properties.price).toMatchObject({
      minimum: 100,
      exclusiveMaximum: 120,
    });
    const none = turnJsonSchema({ moves, role: 'seller', guardrails: { seller: { minPrice: 120 } } });
    expect(none.oneOf as unknown[]).toHaveLength(2);
    expect(() =>
      turnJsonSchema({
        moves: [moves[0] as LegalMove],
        role: 'seller',
        guardrails: { seller: { minPrice: 120 } },
      }),
    ).toThrow(/no move is left/);
  });
});
