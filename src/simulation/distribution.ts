/** A numeric sample summarised the way run reports show it. */
export interface Distribution {
  count: number;
  mean: number | null;
  min: number | null;
  p10: number | null;
  p25: number | null;
  p50: number | null;
  p75: number | null;
  p90: number | null;
  max: number | null;
}

/** Quantile by linear interpolation between order statistics (type 7, as R and NumPy default). */
export function quantile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const a = sorted[lower] as number;
  const b = sorted[upper] as number;
  return a + (b - a) * (position - lower);
}

/** Count, mean, median, quartiles and extremes of a list of numbers. */
export function describeDistribution(values: readonly number[]): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const count = sorted.length;
  const mean = count === 0 ? null : sorted.reduce((sum, v) => sum + v, 0) / count;
  return {
    count,
    mean,
    min: sorted[0] ?? null,
    p10: quantile(sorted, 0.1),
    p25: quantile(sorted, 0.25),
    p50: quantile(sorted, 0.5),
    p75: quantile(sorted, 0.75),
    p90: quantile(sorted, 0.9),
    max: sorted[count - 1] ?? null,
  };
}
