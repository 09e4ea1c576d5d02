import { describe, expect, it } from 'vitest';
import { InvalidInputError, ListingContextSchema, parseInput } from '../../src/index.js';
import { CONTEXT } from '../helpers/fixtures.js';

describe('ListingContextSchema', () => {
  it('accepts a full context and a minimal one, defaulting the currency', () => {
    expect(ListingContextSchema.parse(CONTEXT).item.title).toBe('Nintendo Switch OLED, white');
    const minimal = ListingContextSchema.parse({ item: { title: 'Lamp' }, listPrice: 20 });
    expect(minimal.currency).toBe('USD');
    expect(minimal.seller).toBeUndefined();
  });

  it('requires a title and a positive list price', () => {
    expect(ListingContextSchema.safeParse({ item: { title: '  ' }, listPrice: 20 }).success).toBe(false);
    expect(ListingContextSchema.safeParse({ item: { title: 'Lamp' }, listPrice: 0 }).success).toBe(false);
    expect(ListingContextSchema.safeParse({ item: {}, listPrice: 20 }).success).toBe(false);
  });

  it('checks profile ranges and the currency code', () => {
    const bad = { ...CONTEXT, seller: { feedbackPercent: 140 }, currency: 'dollars' };
    const result = ListingContextSchema.safeParse(bad);
    expect(result.success).toBe(false);
  });

  it('parseInput throws InvalidInputError with readable paths', () => {
    const bad = { ...CONTEXT, buyer: { pastDeals: -1 }, item: { title: 'x', condition: '' } };
    try {
      parseInput(ListingContextSchema, bad, 'ListingContext');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidInputError);
      const issues = (error as InvalidInputError).issues.map((i) => i.path);
      expect(issues).toEqual(expect.arrayContaining(['buyer.pastDeals', 'item.condition']));
      expect((error as Error).message).toMatch(/^Invalid ListingContext: /);
    }
  });
});
