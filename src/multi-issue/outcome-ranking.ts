import { enumerateOutcomes, type Issue, type IssueSpace, type Outcome } from './issue-space.js';
import { type SideUtility, utilityOf } from './utility.js';

/** A side's view of the grid: every outcome with its own utility, best first. */
export interface RankedOutcomes {
  outcomes: Outcome[];
  utilities: number[];
}

// Negotiators are stateless and called once per turn; the ranking of a (space, utility) pair is reused.
const cache = new WeakMap<SideUtility, WeakMap<IssueSpace, RankedOutcomes>>();

/** Every outcome of a space ranked by one side's utility, best first (cached per space and utility). */
export function rankOutcomes(space: IssueSpace, utility: SideUtility): RankedOutcomes {
  let bySpace = cache.get(utility);
  if (!bySpace) {
    bySpace = new WeakMap();
    cache.set(utility, bySpace);
  }
  const cached = bySpace.get(space);
  if (cached) return cached;
  const scored = enumerateOutcomes(space).map((outcome) => ({
    outcome,
    u: utilityOf(space, utility, outcome),
  }));
  scored.sort((a, b) => b.u - a.u);
  const ranked = { outcomes: scored.map((s) => s.outcome), utilities: scored.map((s) => s.u) };
  bySpace.set(space, ranked);
  return ranked;
}

/** Normalised distance between two outcomes: per issue 0..1, averaged. Used to lean towards the other side. */
export function outcomeDistance(space: IssueSpace, a: Outcome, b: Outcome): number {
  let total = 0;
  for (const issue of space.issues) total += issueDistance(issue, a[issue.name], b[issue.name]);
  return total / space.issues.length;
}

function issueDistance(issue: Issue, a: number | string | undefined, b: number | string | undefined): number {
  if (a === undefined || b === undefined) return 1;
  if (issue.kind === 'options') return a === b ? 0 : 1;
  return Math.abs((a as number) - (b as number)) / (issue.max - issue.min);
}

/**
 * The outcome to propose for a target utility: among outcomes worth at least `target` to oneself, the
 * least valuable ones (the smallest concession that meets the target), and of those the one closest to
 * the other side's latest proposal, which is how a negotiator without the other's utility finds value
 * for both.
 */
export function proposalFor(
  space: IssueSpace,
  ranked: RankedOutcomes,
  target: number,
  opponentLatest: Outcome | null,
  band = 0.03,
): { outcome: Outcome; utility: number } {
  // utilities are sorted descending: find the last index still meeting the target.
  let last = 0;
  while (last + 1 < ranked.utilities.length && (ranked.utilities[last + 1] as number) >= target) last++;
  const floor = (ranked.utilities[last] as number) - 1e-12;
  let bestIndex = last;
  if (opponentLatest) {
    let bestDistance = Number.POSITIVE_INFINITY;
    for (let i = last; i >= 0 && (ranked.utilities[i] as number) <= floor + band; i--) {
      const distance = outcomeDistance(space, ranked.outcomes[i] as Outcome, opponentLatest);
      if (distance < bestDistance) {
        bestDistance = distance;
        bestIndex = i;
      }
    }
  }
  return { outcome: ranked.outcomes[bestIndex] as Outcome, utility: ranked.utilities[bestIndex] as number };
}
