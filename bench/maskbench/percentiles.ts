/** The percentiles MaskBench reports, p25 to p99.9 and the maximum, in the unit of the samples. */
export interface Percentiles {
  count: number;
  p25: number | null;
  p50: number | null;
  p75: number | null;
  p90: number | null;
  p99: number | null;
  p99_9: number | null;
  max: number | null;
}

/** Where each reported percentile sits, as a fraction of the sorted samples. */
const LEVELS = [
  ['p25', 0.25],
  ['p50', 0.5],
  ['p75', 0.75],
  ['p90', 0.9],
  ['p99', 0.99],
  ['p99_9', 0.999],
] as const;

/**
 * Nearest-rank percentiles (the smallest sample with at least that share of samples at or below it),
 * so every reported value is a time that was actually measured. Null for no samples.
 */
export function percentiles(samples: ArrayLike<number>): Percentiles {
  const sorted = Float64Array.from(samples).sort();
  const n = sorted.length;
  const at = (fraction: number) =>
    n === 0 ? null : (sorted[Math.min(n - 1, Math.max(0, Math.ceil(fraction * n) - 1))] as number);
  const out: Percentiles = {
    count: n,
    p25: null,
    p50: null,
    p75: null,
    p90: null,
    p99: null,
    p99_9: null,
    max: n === 0 ? null : (sorted[n - 1] as number),
  };
  for (const [name, fraction] of LEVELS) out[name] = at(fraction);
  return out;
}
