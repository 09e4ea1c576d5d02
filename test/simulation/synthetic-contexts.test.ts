import { describe, expect, it } from 'vitest';
import { HaggleError, InvalidInputError } from '../../src/contract/errors.js';
import { ListingContextSchema } from '../../src/contract/listing-context.js';
import { CONDITIONS } from '../../src/simulation/synthetic-catalog.js';
import { generateContexts, PRICE_TIERS, priceTier } from '../../src/simulation/synthetic-contexts.js';

describe('generateContexts', () => {
  const contexts = generateContexts({ count: 5000, seed: 11 });

  it('returns the requested number of valid listing contexts', () => {
    expect(contexts).toHaveLength(5000);
    for (const context of contexts) {
      const parsed = ListingContextSchema.safeParse(context);
      expect(parsed.success, JSON.stringify(context)).toBe(true);
    }
    expect(generateContexts({ count: 0, seed: 1 })).toEqual([]);
  });

  it('is deterministic per seed and differs between seeds', () => {
    expect(generateContexts({ count: 50, seed: 11 })).toEqual(contexts.slice(0, 50));
    const other = generateContexts({ count: 50, seed: 12 });
    const sameTitles = other.filter((context, i) => context.item.title === contexts[i]?.item.title).length;
    expect(sameTitles).toBeLessThan(10);
    expect(other.map((c) => c.listPrice)).not.toEqual(contexts.slice(0, 50).map((c) => c.listPrice));
  });

  it('derives context i from the seed and i alone, whatever the count', () => {
    const few = generateContexts({ count: 3, seed: 11 });
    expect(few).toEqual(contexts.slice(0, 3));
    expect(few.map((c) => c.id)).toEqual(['ctx-11-0', 'ctx-11-1', 'ctx-11-2']);
  });

  it('fills every field: title, description, condition, category, USD, both profiles', () => {
    for (const context of contexts.slice(0, 1000)) {
      expect(context.item.title.trim().length).toBeGreaterThan(0);
      expect(context.item.description?.trim().length ?? 0).toBeGreaterThan(20);
      expect(CONDITIONS as readonly string[]).toContain(context.item.condition);
      expect(context.item.category).toBeTruthy();
      expect(context.currency).toBe('USD');
      for (const profile of [context.seller, context.buyer]) {
        expect(profile?.feedbackScore).toBeGreaterThanOrEqual(0);
        expect(profile?.feedbackPercent).toBeGreaterThanOrEqual(80);
        expect(profile?.feedbackPercent).toBeLessThanOrEqual(100);
        expect(profile?.accountAgeDays).toBeGreaterThanOrEqual(1);
        expect(profile?.pastDeals).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it('spreads over many categories and all price tiers with a right-skewed price distribution', () => {
    const categories = new Set(contexts.map((c) => c.item.category));
    expect(categories.size).toBeGreaterThanOrEqual(8);
    const prices = contexts.map((c) => c.listPrice).sort((a, b) => a - b);
    expect(prices[0]).toBeGreaterThanOrEqual(5);
    expect(prices[prices.length - 1]).toBeLessThanOrEqual(2000);
    const median = prices[Math.floor(prices.length / 2)] ?? 0;
    const mean = prices.reduce((sum, p) => sum + p, 0) / prices.length;
    expect(median).toBeGreaterThan(25);
    expect(median).toBeLessThan(150);
    expect(mean).toBeGreaterThan(median * 1.3);
    const tiers = new Map(PRICE_TIERS.map((tier) => [tier, 0]));
    for (const p of prices) tiers.set(priceTier(p), (tiers.get(priceTier(p)) ?? 0) + 1);
    for (const tier of PRICE_TIERS) expect(tiers.get(tier)).toBeGreaterThan(contexts.length * 0.02);
    // Cheap listings outnumber expensive ones.
    expect(tiers.get('under-25')).toBeGreaterThan(tiers.get('500-plus') ?? 0);
  });

  it('gives heavy-tailed feedback scores and mostly near-perfect feedback', () => {
    const scores = contexts.map((c) => c.seller?.feedbackScore ?? 0).sort((a, b) => a - b);
    const median = scores[Math.floor(scores.length / 2)] ?? 0;
    const p99 = scores[Math.floor(scores.length * 0.99)] ?? 0;
    expect(p99).toBeGreaterThan(median * 10);
    const nearPerfect = contexts.filter((c) => (c.seller?.feedbackPercent ?? 0) >= 98).length;
    expect(nearPerfect / contexts.length).toBeGreaterThan(0.7);
  });

  it('rejects a bad count or seed with an InvalidInputError saying what to fix', () => {
    const bad = [
      { count: -1, seed: 1, path: 'count' },
      { count: 1.5, seed: 1, path: 'count' },
      { count: 1_000_001, seed: 1, path: 'count' },
      { count: Number.NaN, seed: 1, path: 'count' },
      { count: 1, seed: -3, path: 'seed' },
      { count: 1, seed: 0.5, path: 'seed' },
      { count: 1, seed: Number.MAX_SAFE_INTEGER + 2, path: 'seed' },
    ];
    for (const { count, seed, path } of bad) {
      let caught: unknown;
      try {
        generateContexts({ count, seed });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(InvalidInputError);
      expect(HaggleError.isInstance(caught)).toBe(true);
      expect((caught as InvalidInputError).issues.map((issue) => issue.path)).toEqual([path]);
      expect((caught as InvalidInputError).message).toMatch(/must be/);
    }
    expect(() => generateContexts(undefined as never)).toThrow(InvalidInputError);
  });

  it('accepts large safe seeds and keeps them distinct', () => {
    const a = generateContexts({ count: 5, seed: 2 ** 40 });
    const b = generateContexts({ count: 5, seed: 2 ** 40 + 1 });
    expect(a[0]?.id).toBe(`ctx-${2 ** 40}-0`);
    expect(a.map((c) => c.item.title)).not.toEqual(b.map((c) => c.item.title));
  });
});

describe('priceTier', () => {
  it('puts lower bounds in the upper tier', () => {
    expect(priceTier(5)).toBe('under-25');
    expect(priceTier(24.99)).toBe('under-25');
    expect(priceTier(25)).toBe('25-100');
    expect(priceTier(99.99)).toBe('25-100');
    expect(priceTier(100)).toBe('100-500');
    expect(priceTier(499.99)).toBe('100-500');
    expect(priceTier(500)).toBe('500-plus');
    expect(priceTier(2000)).toBe('500-plus');
  });

  it('rejects prices that are not positive and finite', () => {
    for (const price of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => priceTier(price)).toThrow(InvalidInputError);
    }
  });
});
