/**
 * Verdicts with an equivalence meaning (haggle's choice; docs/metrics.md#verdicts). A run agrees with a
 * reference only when the interval of their difference lies inside ±margin: the interval at level L
 * inside (−margin, +margin) is two one-sided tests (Schuirmann's TOST), each rejecting "the difference
 * is at least the margin" at (1 − L)/2. A non-significant test alone is no evidence of agreement, so
 * "cannot reject a difference" is never called consistent.
 */

/**
 * `inconsistent`: the difference's interval excludes 0 (the run differs by more than the samples'
 * noise explains). `consistent`: it does not, and the interval lies inside ±margin. `too-few`: neither,
 * and more sessions in the run could tell. `cannot-tell`: neither, and the reference's own uncertainty
 * is as wide as the margin allows, so no run size can tell.
 */
export type Verdict = 'consistent' | 'inconsistent' | 'too-few' | 'cannot-tell';

/**
 * The margin for shares of sessions: 2.5 percentage points. haggle's choice: the smallest half-point
 * margin that the card's own 2,000-session rows leave reachable (their exact intervals alone are
 * ±2.1–2.2 pp, so a ±2 pp margin could never be met against them); `--margin` sets another.
 */
export const DEFAULT_SHARE_MARGIN = 0.025;

/** The verdict on a difference interval, given the margin and how wide the reference alone makes it. */
export function equivalenceVerdict(
  ci: readonly [number, number] | null,
  margin: number,
  /** The width the reference's own uncertainty gives the difference's interval at any run size. */
  referenceWidth: number,
): Verdict {
  if (ci === null) return referenceWidth >= 2 * margin ? 'cannot-tell' : 'too-few';
  const [low, high] = ci;
  if (low > 0 || high < 0) return 'inconsistent';
  if (low > -margin && high < margin) return 'consistent';
  return referenceWidth >= 2 * margin ? 'cannot-tell' : 'too-few';
}

/** The largest run `sessionsNeeded` searches: beyond it, a run that matches is called out of reach. */
const MOST_SESSIONS = 100_000_000;

/**
 * The fewest sessions a run needs for the difference interval `intervalAt(n)` (the interval of a run of
 * n sessions whose rate equals the reference's) to lie inside ±margin; null when no run up to 10⁸
 * sessions does. Doubling, then bisection: the interval narrows as n grows.
 */
export function sessionsNeeded(
  intervalAt: (n: number) => readonly [number, number],
  margin: number,
): number | null {
  const fits = (n: number) => {
    const [low, high] = intervalAt(n);
    return low > -margin && high < margin;
  };
  let high = 1;
  while (!fits(high)) {
    if (high >= MOST_SESSIONS) return null;
    high = Math.min(MOST_SESSIONS, high * 2);
  }
  let low = Math.floor(high / 2);
  if (low < 1) return high;
  // Invariant: low does not fit (or is the half of the first fit), high fits.
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (fits(middle)) high = middle;
    else low = middle;
  }
  return fits(low) ? low : high;
}
