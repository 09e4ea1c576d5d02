import { InvalidInputError, type ValidationIssue } from '../../contract/errors.js';
import { Random } from '../../internal/random.js';
import { quantile } from '../distribution.js';

/** Bootstrap settings: resamples, seed and confidence level. */
export interface BootstrapOptions {
  /** Resamples drawn. Default 1000. */
  resamples?: number;
  /** Seed of the resampling: the same seed gives the same intervals. Default 0. */
  seed?: number;
  /** Confidence level. Default 0.95. */
  level?: number;
}

export interface ResolvedBootstrapOptions {
  resamples: number;
  seed: number;
  level: number;
}

export function resolveBootstrapOptions(options: BootstrapOptions = {}): ResolvedBootstrapOptions {
  const resamples = options.resamples ?? 1000;
  const seed = options.seed ?? 0;
  const level = options.level ?? 0.95;
  const issues: ValidationIssue[] = [];
  if (!Number.isInteger(resamples) || resamples < 10 || resamples > 1_000_000)
    issues.push({ path: 'resamples', message: 'must be an integer from 10 to 1,000,000' });
  if (!Number.isSafeInteger(seed) || seed < 0)
    issues.push({ path: 'seed', message: 'must be a non-negative integer' });
  if (!(level > 0 && level < 1)) issues.push({ path: 'level', message: 'must lie strictly between 0 and 1' });
  if (issues.length > 0) throw new InvalidInputError({ subject: 'BootstrapOptions', issues });
  return { resamples, seed, level };
}

/**
 * Per-session numerators and denominators of several ratio-of-sums statistics, one column per
 * statistic. Resampling draws session indices once per replicate and reuses them for every column,
 * so all metrics of one replicate come from the same resampled run.
 */
export class ContributionMatrix {
  readonly sessions: number;
  private readonly numerators: Float64Array[];
  private readonly denominators: Float64Array[];

  constructor(columns: readonly (readonly (readonly [number, number])[])[], sessions: number) {
    this.sessions = sessions;
    this.numerators = columns.map((pairs) => Float64Array.from(pairs, ([n]) => n));
    this.denominators = columns.map((pairs) => Float64Array.from(pairs, ([, d]) => d));
  }

  get columns(): number {
    return this.numerators.length;
  }

  /** Σ numerator / Σ denominator of column `c`; null when its denominator is 0. */
  value(c: number): number | null {
    return ratio(this.numerators[c] as Float64Array, this.denominators[c] as Float64Array, undefined);
  }

  /** Σ denominator of column `c`: how many sessions (or turns, or uses) the value stands on. */
  weight(c: number): number {
    return (this.denominators[c] as Float64Array).reduce((a, b) => a + b, 0);
  }

  /** Σ numerator of column `c`: for a proportion, its count of successes. */
  total(c: number): number {
    return (this.numerators[c] as Float64Array).reduce((a, b) => a + b, 0);
  }

  /**
   * `resamples` bootstrap replicates of every column: replicates[c][b]. NaN where a resample leaves a
   * column without any contribution (a rare label drawn zero times).
   */
  replicates(resamples: number, seed: number): Float64Array[] {
    const out = this.numerators.map(() => new Float64Array(resamples));
    const random = new Random(seed);
    const indices = new Uint32Array(this.sessions);
    for (let b = 0; b < resamples; b++) {
      for (let i = 0; i < this.sessions; i++) indices[i] = Math.floor(random.next() * this.sessions);
      for (let c = 0; c < this.numerators.length; c++) {
        const value = ratio(
          this.numerators[c] as Float64Array,
          this.denominators[c] as Float64Array,
          indices,
        );
        (out[c] as Float64Array)[b] = value ?? Number.NaN;
      }
    }
    return out;
  }
}

function ratio(
  numerators: Float64Array,
  denominators: Float64Array,
  indices: Uint32Array | undefined,
): number | null {
  let n = 0;
  let d = 0;
  if (indices) {
    for (let i = 0; i < indices.length; i++) {
      const j = indices[i] as number;
      n += numerators[j] as number;
      d += denominators[j] as number;
    }
  } else {
    for (let i = 0; i < numerators.length; i++) {
      n += numerators[i] as number;
      d += denominators[i] as number;
    }
  }
  return d > 0 ? n / d : null;
}

/**
 * The percentile interval of bootstrap replicates. Null when fewer than half the replicates are
 * defined: an interval drawn from the few resamples that happened to contain a rare label would look
 * precise and be wrong. Null too when every replicate is the same (the check of docs/metrics.md
 * #confidence-intervals): that happens when the sample holds one value only (16 utilities of 0.5, 16
 * paired differences of 0), and a finite sample of one value does not show the spread is zero, so a
 * zero-width [x, x] would claim a precision the data do not have.
 */
export function percentileInterval(replicates: ArrayLike<number>, level: number): [number, number] | null {
  const defined: number[] = [];
  for (let i = 0; i < replicates.length; i++) {
    const value = replicates[i] as number;
    if (!Number.isNaN(value)) defined.push(value);
  }
  if (defined.length === 0 || defined.length < replicates.length / 2) return null;
  defined.sort((a, b) => a - b);
  // Equal up to floating-point rounding (a ratio of sums of one value drawn k times is not always
  // bit-identical to the value): a spread below a billionth of the scale is no spread.
  const lowest = defined[0] as number;
  const highest = defined[defined.length - 1] as number;
  if (highest - lowest <= 1e-9 * Math.max(1, Math.abs(lowest), Math.abs(highest))) return null;
  const tail = (1 - level) / 2;
  return [quantile(defined, tail) as number, quantile(defined, 1 - tail) as number];
}

/**
 * A ratio-of-sums statistic of a sample (Σ numerator / Σ denominator; for a plain mean pass
 * `[x, 1]`) with its percentile bootstrap interval, resampling the pairs.
 */
export function bootstrapCi(
  pairs: readonly (readonly [number, number])[],
  options: BootstrapOptions = {},
): { value: number | null; ci: [number, number] | null } {
  const { resamples, seed, level } = resolveBootstrapOptions(options);
  const matrix = new ContributionMatrix([pairs], pairs.length);
  if (pairs.length === 0) return { value: null, ci: null };
  const [replicates] = matrix.replicates(resamples, seed);
  return { value: matrix.value(0), ci: percentileInterval(replicates as Float64Array, level) };
}
