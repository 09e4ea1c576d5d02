import { deriveSeed } from '../internal/random.js';
import {
  type BootstrapOptions,
  ContributionMatrix,
  percentileInterval,
  resolveBootstrapOptions,
} from '../simulation/metrics/bootstrap.js';
import { proportionInterval } from '../simulation/metrics/measure.js';
import type { HistogramBin } from '../simulation/metrics/price-ratios.js';
import { labelKey, type SessionFacts, sessionFacts } from '../simulation/metrics/session-facts.js';
import type { SessionResult } from '../simulation/session-result.js';

/** `priceRatioHistogram`'s bin of a ratio at its defaults (5% bins up to 1, one bin above). */
const BIN_WIDTH = 0.05;
const REGULAR_BINS = 20;
function priceBin(ratio: number): number {
  return ratio > 1
    ? REGULAR_BINS
    : Math.max(0, Math.min(REGULAR_BINS - 1, Math.floor(ratio / BIN_WIDTH + 1e-9)));
}

/** A 95% interval as `[low, high]`, or `null` when there is too little data for one. */
export type Interval = [number, number] | null;

/** The 95% interval of every bar of the report's charts, for one run. */
export interface ChartIntervals {
  /** Aligned with the price-ratio histogram's bins. */
  priceBins: Interval[];
  /** By number of turns. */
  sessionLength: Map<number, Interval>;
  /** By price tier. */
  tiers: Map<string, Interval>;
  /** M6 and M7, by `labelKey(role, label)`. */
  labelDealRate: Map<string, Interval>;
  labelConcession: Map<string, Interval>;
}

interface Column {
  /** Where the interval goes once computed. */
  put: (interval: Interval) => void;
  /** A share of sessions (each adds 0 or 1 of 1): its interval is exact, not resampled. */
  proportion: boolean;
  contribution: (facts: SessionFacts) => readonly [number, number];
}

/**
 * Intervals for the charts' bars, computed the way the metrics table computes its own: each bar is a
 * ratio of per-session sums; a share of deals or of sessions gets its exact (Clopper-Pearson)
 * interval, a mean over label uses the bootstrap's (whole sessions resampled, all such bars from the
 * same resamples). The price bins follow
 * `priceRatioHistogram`'s edges (the last bin, when wider, gathers everything above its start).
 */
export function chartIntervals(
  sessions: readonly SessionResult[],
  chart: {
    bins: readonly HistogramBin[];
    lengths: readonly number[];
    tiers: readonly string[];
    labels: readonly { role: 'buyer' | 'seller'; label: string }[];
  },
  options: BootstrapOptions = {},
): ChartIntervals {
  const { resamples, seed, level } = resolveBootstrapOptions(options);
  const facts = sessions.map(sessionFacts);
  const result: ChartIntervals = {
    priceBins: chart.bins.map(() => null),
    sessionLength: new Map(),
    tiers: new Map(),
    labelDealRate: new Map(),
    labelConcession: new Map(),
  };
  const columns: Column[] = [];
  chart.bins.forEach((_bin, i) => {
    columns.push({
      put: (interval) => {
        result.priceBins[i] = interval;
      },
      proportion: true,
      contribution: (f) =>
        f.finalPriceRatio === null ? [0, 0] : [priceBin(f.finalPriceRatio) === i ? 1 : 0, 1],
    });
  });
  for (const turns of chart.lengths) {
    columns.push({
      put: (interval) => result.sessionLength.set(turns, interval),
      proportion: true,
      contribution: (f) => [f.turns === turns ? 1 : 0, 1],
    });
  }
  for (const tier of chart.tiers) {
    columns.push({
      put: (interval) => result.tiers.set(tier, interval),
      proportion: true,
      contribution: (f) => (f.tier === tier ? [f.deal ? 1 : 0, 1] : [0, 0]),
    });
  }
  for (const { role, label } of chart.labels) {
    const key = labelKey(role, label);
    columns.push({
      put: (interval) => result.labelDealRate.set(key, interval),
      proportion: true,
      contribution: (f) => (f.labels.has(key) ? [f.deal ? 1 : 0, 1] : [0, 0]),
    });
    columns.push({
      put: (interval) => result.labelConcession.set(key, interval),
      proportion: false,
      contribution: (f) => {
        const concessions = f.labels.get(key)?.concessions ?? [];
        return [concessions.reduce((a, b) => a + b, 0), concessions.length];
      },
    });
  }
  if (facts.length === 0 || columns.length === 0) return result;
  const matrix = new ContributionMatrix(
    columns.map((column) => facts.map((f) => column.contribution(f))),
    facts.length,
  );
  // Its own stream, apart from the metrics table's, so adding a chart never moves the table's intervals.
  const replicates = matrix.replicates(resamples, deriveSeed(seed, 0x0c4a));
  columns.forEach((column, c) => {
    if (matrix.value(c) === null) column.put(null);
    else if (column.proportion) column.put(proportionInterval(matrix, c, level));
    else column.put(percentileInterval(replicates[c] as Float64Array, level));
  });
  return result;
}
