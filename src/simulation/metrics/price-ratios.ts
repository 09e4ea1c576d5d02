import { finishedOnly } from '../failures.js';
import type { SessionResult } from '../session-result.js';
import type { MetricFamilyBuilder } from './metric.js';
import { sessionFacts } from './session-facts.js';

/** One bin of a price-ratio histogram: its edges, its count and its share of the sessions. */
export interface HistogramBin {
  /** Inclusive lower edge. */
  from: number;
  /** Exclusive upper edge (the last bin includes it). */
  to: number;
  count: number;
  share: number;
}

/** Options of `priceRatioHistogram`: which price, and the bin width. */
export interface PriceRatioHistogramOptions {
  /** Which price: the agreed one (deals) or the buyer's first offer. Default `final`. */
  price?: 'final' | 'first-offer';
  /** Bin width as a share of the list price. Default 0.05. */
  binWidth?: number;
  /** Upper edge of the last regular bin; higher ratios go into a final bin up to the largest. Default 1. */
  max?: number;
}

/**
 * Histogram of price / list price over the finished sessions, from 0 to `max` (default 1), with one
 * more bin above when needed.
 */
export function priceRatioHistogram(
  sessions: readonly SessionResult[],
  options: PriceRatioHistogramOptions = {},
): { values: number; bins: HistogramBin[] } {
  const binWidth = options.binWidth ?? 0.05;
  const max = options.max ?? 1;
  const ratios = finishedOnly(sessions)
    .map((s) => {
      const facts = sessionFacts(s);
      return options.price === 'first-offer' ? facts.firstOfferRatio : facts.finalPriceRatio;
    })
    .filter((r): r is number => r !== null);
  const regular = Math.round(max / binWidth);
  const bins: HistogramBin[] = Array.from({ length: regular }, (_, i) => ({
    // Edges from integers, so 0.15 is 0.15 and not 0.15000000000000002.
    from: Math.round(i * binWidth * 1e9) / 1e9,
    to: Math.round((i + 1) * binWidth * 1e9) / 1e9,
    count: 0,
    share: 0,
  }));
  const above = ratios.filter((r) => r > max);
  if (above.length > 0) bins.push({ from: max, to: Math.max(...above), count: 0, share: 0 });
  for (const ratio of ratios) {
    const i = ratio > max ? regular : Math.min(regular - 1, Math.floor(ratio / binWidth + 1e-9));
    (bins[Math.max(0, i)] as HistogramBin).count++;
  }
  for (const bin of bins) bin.share = ratios.length === 0 ? 0 : bin.count / ratios.length;
  return { values: ratios.length, bins };
}

export const priceRatioMetrics: MetricFamilyBuilder = () => [
  {
    id: 'price/first-offer',
    family: 'price',
    name: "buyer's first offer / list price",
    unit: 'list-ratio',
    contribution: (f) => (f.firstOfferRatio === null ? [0, 0] : [f.firstOfferRatio, 1]),
  },
  {
    id: 'price/final',
    family: 'price',
    name: 'final price / list price (deals)',
    unit: 'list-ratio',
    contribution: (f) => (f.finalPriceRatio === null ? [0, 0] : [f.finalPriceRatio, 1]),
  },
];
