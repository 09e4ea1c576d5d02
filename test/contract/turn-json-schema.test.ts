import { describe, expect, it } from 'vitest';
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
    expect(branchFor(schema, 'offer').properties.price).toEqual({ type: 'number', exclusiveMinimum: 0 });
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
    expect(branchFor(seller, 'offer').properties.price).toEqual({ type: 'number', minimum: 40 });
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
