import { finishedOnly } from '../failures.js';
import type { SessionResult } from '../session-result.js';
import { PRICE_TIERS, type PriceTier } from '../synthetic-contexts.js';
import type { MetricDefinition, MetricFamilyBuilder } from './metric.js';
import { type SessionFacts, sessionFacts } from './session-facts.js';

/** Sessions, deals, deal rate and mean final price ratio of one segment (a category, a price tier). */
export interface SegmentRow<K extends string = string> {
  segment: K;
  /** Finished sessions of the segment (failed ones are no result). */
  sessions: number;
  deals: number;
  /** Deals / sessions; null for an empty segment. */
  dealRate: number | null;
  /** Mean agreed price / list price over the segment's deals; null without deals. */
  meanFinalPriceRatio: number | null;
}

function segmentRows<K extends string>(
  facts: readonly SessionFacts[],
  keys: readonly K[],
  keyOf: (f: SessionFacts) => K,
): SegmentRow<K>[] {
  return keys.map((segment) => {
    const members = facts.filter((f) => keyOf(f) === segment);
    const deals = members.filter((f) => f.deal);
    const ratios = deals.map((f) => f.finalPriceRatio as number);
    return {
      segment,
      sessions: members.length,
      deals: deals.length,
      dealRate: members.length === 0 ? null : deals.length / members.length,
      meanFinalPriceRatio: ratios.length === 0 ? null : ratios.reduce((a, b) => a + b, 0) / ratios.length,
    };
  });
}

/** Deal rate and final price ratio by price tier (`priceTier(listPrice)`), every tier listed. */
export function byPriceTier(sessions: readonly SessionResult[]): SegmentRow<PriceTier>[] {
  return segmentRows(finishedOnly(sessions).map(sessionFacts), PRICE_TIERS, (f) => f.tier);
}

/** Deal rate and final price ratio by item category (`(none)` for listings without one), sorted by name. */
export function byCategory(sessions: readonly SessionResult[]): SegmentRow[] {
  const facts = finishedOnly(sessions).map(sessionFacts);
  const categories = [...new Set(facts.map((f) => f.category))].sort();
  return segmentRows(facts, categories, (f) => f.category);
}

function dealRateIn(id: string, name: string, member: (f: SessionFacts) => boolean): MetricDefinition {
  return {
    id,
    family: 'segment',
    name,
    unit: 'share',
    contribution: (f) => (member(f) ? [f.deal ? 1 : 0, 1] : [0, 0]),
  };
}

export const segmentMetrics: MetricFamilyBuilder = (runs) => {
  const metrics: MetricDefinition[] = [];
  for (const tier of PRICE_TIERS) {
    metrics.push(
      dealRateIn(`deal-rate/tier/${tier}`, `deal rate, list price ${tier}`, (f) => f.tier === tier),
    );
  }
  for (const tier of PRICE_TIERS) {
    metrics.push({
      id: `price/final/tier/${tier}`,
      family: 'segment',
      name: `final price / list price, list price ${tier}`,
      unit: 'list-ratio',
      contribution: (f) => (f.tier === tier && f.finalPriceRatio !== null ? [f.finalPriceRatio, 1] : [0, 0]),
    });
  }
  const categories = [...new Set(runs.flatMap((facts) => facts.map((f) => f.category)))].sort();
  for (const category of categories) {
    metrics.push(
      dealRateIn(`deal-rate/category/${category}`, `deal rate, ${category}`, (f) => f.category === category),
    );
  }
  return metrics;
};
