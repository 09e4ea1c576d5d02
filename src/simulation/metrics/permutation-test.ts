import { Random } from '../../internal/random.js';

/** How a permutation p-value was obtained. */
export interface PermutationPValue {
  pValue: number;
  /** `exact`: every relabelling was enumerated; `monte-carlo`: `permutations` random ones were drawn. */
  method: 'exact' | 'monte-carlo';
  /** Relabellings counted: all of them when exact, the random draws otherwise. */
  permutations: number;
}

/** How many relabellings a permutation test draws, and when it enumerates them all instead. */
export interface PermutationOptions {
  /** Random relabellings when the exact count is larger than `exactUpTo`. Default 5000. */
  permutations?: number;
  /** Enumerate every relabelling when there are at most this many. Default 65536 (2^16). */
  exactUpTo?: number;
  seed?: number;
}

// Floating sums of the same numbers in another order differ in the last bits: a relabelling whose
// statistic equals the observed one must count as "as extreme", or ties would shrink p.
const TIE = 1e-12;

function sum(values: readonly number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

/**
 * Two-sided sign-flip permutation test of "the paired differences are symmetric about 0" (the two arms
 * are exchangeable within each paired unit: the same negotiation played by either arm is as likely to
 * come out either way). The statistic is |mean difference|. Exact (all 2^n sign vectors) for small n,
 * else Monte Carlo with the observed labelling counted, so p is never 0.
 */
export function signFlipPValue(
  diffs: readonly number[],
  options: PermutationOptions = {},
): PermutationPValue {
  const n = diffs.length;
  if (n === 0) return { pValue: Number.NaN, method: 'exact', permutations: 0 };
  const observed = Math.abs(sum(diffs));
  const exactUpTo = options.exactUpTo ?? 65_536;
  if (n <= 30 && 2 ** n <= exactUpTo) {
    const total = 2 ** n;
    let extreme = 0;
    for (let mask = 0; mask < total; mask++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += (mask >>> i) & 1 ? -(diffs[i] as number) : (diffs[i] as number);
      if (Math.abs(s) >= observed - TIE) extreme++;
    }
    return { pValue: extreme / total, method: 'exact', permutations: total };
  }
  const permutations = options.permutations ?? 5000;
  const random = new Random(options.seed ?? 0);
  let extreme = 0;
  for (let p = 0; p < permutations; p++) {
    let s = 0;
    for (const d of diffs) s += random.next() < 0.5 ? -d : d;
    if (Math.abs(s) >= observed - TIE) extreme++;
  }
  return { pValue: (extreme + 1) / (permutations + 1), method: 'monte-carlo', permutations };
}

function binomial(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return Math.round(result);
}

/**
 * Two-sided label-permutation test of "the two samples come from the same distribution": the values
 * are pooled and every split into groups of the original sizes is as likely (exchangeability across
 * the two groups). The statistic is |mean(first) - mean(second)|. Exact (all C(n1+n2, n1) splits) when
 * there are at most `exactUpTo` of them, else Monte Carlo with the observed split counted.
 */
export function labelPermutationPValue(
  first: readonly number[],
  second: readonly number[],
  options: PermutationOptions = {},
): PermutationPValue {
  const n1 = first.length;
  const n2 = second.length;
  if (n1 === 0 || n2 === 0) return { pValue: Number.NaN, method: 'exact', permutations: 0 };
  const pooled = [...first, ...second];
  const total = sum(pooled);
  const n = n1 + n2;
  // mean(first) - mean(second) from the first group's sum alone: s/n1 - (total - s)/n2.
  const statistic = (s: number) => Math.abs(s / n1 - (total - s) / n2);
  const observed = statistic(sum(first));
  const exactUpTo = options.exactUpTo ?? 65_536;
  const splits = binomial(n, n1);
  if (splits <= exactUpTo) {
    let extreme = 0;
    let counted = 0;
    // Every n1-subset of the pooled indices, in lexicographic order.
    const chosen = Array.from({ length: n1 }, (_, i) => i);
    for (;;) {
      let s = 0;
      for (const i of chosen) s += pooled[i] as number;
      if (statistic(s) >= observed - TIE) extreme++;
      counted++;
      let k = n1 - 1;
      while (k >= 0 && (chosen[k] as number) === n - n1 + k) k--;
      if (k < 0) break;
      chosen[k] = (chosen[k] as number) + 1;
      for (let j = k + 1; j < n1; j++) chosen[j] = (chosen[j - 1] as number) + 1;
    }
    return { pValue: extreme / counted, method: 'exact', permutations: counted };
  }
  const permutations = options.permutations ?? 5000;
  const random = new Random(options.seed ?? 0);
  const shuffled = [...pooled];
  let extreme = 0;
  for (let p = 0; p < permutations; p++) {
    // A partial Fisher-Yates shuffle: the first n1 positions are a uniform random n1-subset.
    let s = 0;
    for (let i = 0; i < n1; i++) {
      const j = i + Math.floor(random.next() * (n - i));
      const t = shuffled[i] as number;
      shuffled[i] = shuffled[j] as number;
      shuffled[j] = t;
      s += shuffled[i] as number;
    }
    if (statistic(s) >= observed - TIE) extreme++;
  }
  return { pValue: (extreme + 1) / (permutations + 1), method: 'monte-carlo', permutations };
}
