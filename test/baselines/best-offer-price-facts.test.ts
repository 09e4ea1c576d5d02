import { describe, expect, it } from 'vitest';
import { PopulationAgent } from '../../src/baselines/population-agent.js';
import {
  boulware,
  conceder,
  linearConcession,
  TimeBasedAgent,
} from '../../src/baselines/time-based-agent.js';
import { TitForTatAgent } from '../../src/baselines/tit-for-tat-agent.js';
import { currencyDecimals } from '../../src/contract/currency.js';
import type { HistoryEntry, Role } from '../../src/contract/history.js';
import type { ListingContext } from '../../src/contract/listing-context.js';
import type { Negotiator } from '../../src/contract/negotiator.js';
import { deriveSeed } from '../../src/internal/random.js';
import { Session } from '../../src/simulation/session.js';
import { generateContexts } from '../../src/simulation/synthetic-contexts.js';

/**
 * Every baseline pairing under Best Offer rules keeps the price facts the rules enforce: prices in
 * whole minor units of the listing's currency, above 0 and strictly below the list price, a seller's
 * counter strictly above the buyer's standing offer, a buyer's counter strictly below the seller's
 * standing counter. The check below replays each recorded thread on its own, so it does not lean on
 * the rules' code.
 */

interface Violation {
  context: string;
  turn: number;
  problem: string;
}

function priceFactViolations(context: ListingContext, turns: readonly HistoryEntry[]): Violation[] {
  const violations: Violation[] = [];
  const scale = 10 ** currencyDecimals(context.currency ?? 'USD');
  let standing: { role: Role; price: number } | null = null;
  turns.forEach(({ role, turn }, index) => {
    const priced = turn.action === 'offer' || turn.action === 'offer_with_message';
    if (!priced) return;
    const price = turn.price;
    const fail = (problem: string) =>
      violations.push({ context: context.id ?? '?', turn: index, problem: `${role} ${price}: ${problem}` });
    if (price === null || !Number.isFinite(price)) {
      fail('an offer without a finite price');
      return;
    }
    const units = price * scale;
    if (Math.abs(units - Math.round(units)) > 1e-6) fail(`not whole minor units (1/${scale})`);
    if (!(price > 0)) fail('not above 0');
    if (!(price < context.listPrice)) fail(`not below the list price ${context.listPrice}`);
    if (role === 'seller' && standing?.role === 'buyer' && !(price > standing.price)) {
      fail(`a counter not above the buyer's standing offer ${standing.price}`);
    }
    if (role === 'buyer' && standing?.role === 'seller' && !(price < standing.price)) {
      fail(`a counter not below the seller's standing counter ${standing.price}`);
    }
    standing = { role, price };
  });
  return violations;
}

/** Synthetic listings in dollars, yen (no decimals) and Kuwaiti dinars (three), plus listings of one or two minor units. */
function listings(count: number, seed: number): ListingContext[] {
  const base = generateContexts({ count, seed }).map((context, i): ListingContext => {
    if (i % 3 === 1)
      return { ...context, currency: 'JPY', listPrice: Math.max(1, Math.round(context.listPrice * 150)) };
    if (i % 3 === 2)
      return {
        ...context,
        currency: 'KWD',
        listPrice: Math.max(0.001, Math.round(context.listPrice * 300) / 1000),
      };
    return context;
  });
  const template = base[0] as ListingContext;
  const tiny: ListingContext[] = [
    { ...template, id: 'tiny-usd-1', listPrice: 0.01, currency: 'USD' },
    { ...template, id: 'tiny-usd-2', listPrice: 0.02, currency: 'USD' },
    { ...template, id: 'tiny-jpy-2', listPrice: 2, currency: 'JPY' },
    { ...template, id: 'tiny-kwd-2', listPrice: 0.002, currency: 'KWD' },
  ];
  return [...tiny, ...base];
}

const population = new PopulationAgent();
const BUYERS: Record<string, Negotiator> = {
  population,
  boulware: boulware({ horizon: 6 }),
  linear: linearConcession({ horizon: 6 }),
  conceder: conceder({ horizon: 6, reservationRatio: 0.97 }),
  'tit-for-tat': new TitForTatAgent(),
  // Opens one minor unit below list: the seller has no price left to counter with.
  'at-list': new TimeBasedAgent({ aspirationRatio: 1, reservationRatio: 1 }),
};
const SELLERS: Record<string, Negotiator> = {
  population,
  boulware: boulware({ horizon: 6 }),
  linear: linearConcession({ horizon: 6, reservationRatio: 0.6 }),
  conceder: conceder({ horizon: 6 }),
  'tit-for-tat': new TitForTatAgent(),
  // A floor at the list price: no counter it may make is legal.
  'firm-tit-for-tat': new TitForTatAgent({ reservationRatio: 1 }),
};

describe('baselines keep the Best Offer price facts', () => {
  const contexts = listings(240, 11);

  for (const [buyerName, buyer] of Object.entries(BUYERS)) {
    for (const [sellerName, seller] of Object.entries(SELLERS)) {
      it(`${buyerName} buyer against ${sellerName} seller: every priced turn legal, no illegal-turn`, async () => {
        const violations: Violation[] = [];
        const reasons = new Map<string, number>();
        let priced = 0;
        for (const [i, context] of contexts.entries()) {
          const result = await new Session({ context, buyer, seller, seed: deriveSeed(23, i) }).run();
          reasons.set(result.outcome.reason, (reasons.get(result.outcome.reason) ?? 0) + 1);
          violations.push(...priceFactViolations(context, result.turns));
          priced += result.turns.filter((t) => t.turn.price !== null).length;
        }
        expect(violations.slice(0, 5)).toEqual([]);
        expect(reasons.get('illegal-turn') ?? 0).toBe(0);
        expect(reasons.get('error') ?? 0).toBe(0);
        expect(priced).toBeGreaterThan(contexts.length / 2);
      });
    }
  }

  it('a seller facing an offer one minor unit below list answers without a price', async () => {
    let cornered = 0;
    for (const [sellerName, seller] of Object.entries(SELLERS)) {
      for (const [i, context] of contexts.entries()) {
        const result = await new Session({
          context,
          buyer: BUYERS['at-list'] as Negotiator,
          seller,
          seed: i,
        }).run();
        const [opening, answer] = result.turns;
        const unit = 10 ** -currencyDecimals(context.currency ?? 'USD');
        if (
          opening?.turn.price == null ||
          Math.abs(context.listPrice - opening.turn.price - unit) > unit / 100
        )
          continue;
        cornered++;
        expect(answer?.turn.price ?? null, `${sellerName} on ${context.id}`).toBeNull();
      }
    }
    // Every listing of at least two minor units opens a cent (yen, fils) below list.
    expect(cornered).toBeGreaterThan(contexts.length * 5);
  });

  it('the checker itself flags each broken fact', () => {
    const context: ListingContext = { ...(contexts[4] as ListingContext), listPrice: 100, currency: 'USD' };
    const at = (
      role: Role,
      price: number,
      action: 'offer' | 'offer_with_message' = 'offer',
    ): HistoryEntry => ({
      role,
      turn: { action, price, message_labels: [], message: action === 'offer' ? '' : 'hi', response_time: 1 },
      elapsedHours: 1,
    });
    expect(priceFactViolations(context, [at('buyer', 60), at('seller', 80), at('buyer', 70)])).toEqual([]);
    const problems = (turns: HistoryEntry[]) => priceFactViolations(context, turns).map((v) => v.problem);
    expect(problems([at('buyer', 100)])).toEqual(['buyer 100: not below the list price 100']);
    expect(problems([at('buyer', 0.001)])).toHaveLength(1);
    expect(problems([at('buyer', 60), at('seller', 60)])).toHaveLength(1);
    expect(problems([at('buyer', 60), at('seller', 80), at('buyer', 80, 'offer_with_message')])).toHaveLength(
      1,
    );
    expect(problems([at('buyer', 60), at('seller', 100.5)])).toHaveLength(1);
  });
});
