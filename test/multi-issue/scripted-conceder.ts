import { Random } from '../../src/internal/random.js';
import { enumerateOutcomes, type IssueSpace, type Outcome } from '../../src/multi-issue/issue-space.js';
import { type SideUtility, utilityOf } from '../../src/multi-issue/utility.js';

/**
 * A scripted opponent for opponent-model tests: its k-th of `count` offers is a random outcome (seeded)
 * worth about `1 - 0.5 · k / (count - 1)` to itself, within `band` below that target. It knows nothing of
 * any model, so a model that recovers its weights learnt them from how a conceding side bids.
 */
export function scriptedConcessions(
  space: IssueSpace,
  utility: SideUtility,
  count: number,
  seed: number,
  band = 0.05,
): Outcome[] {
  const random = new Random(seed);
  const scored = enumerateOutcomes(space).map((outcome) => ({
    outcome,
    u: utilityOf(space, utility, outcome),
  }));
  const offers: Outcome[] = [];
  for (let k = 0; k < count; k++) {
    const target = 1 - (0.5 * k) / Math.max(1, count - 1);
    let pool = scored.filter((s) => s.u <= target + 1e-12 && s.u >= target - band);
    if (pool.length === 0) {
      // Nothing in the band (a coarse space): the outcome nearest the target.
      const nearest = Math.min(...scored.map((s) => Math.abs(s.u - target)));
      pool = scored.filter((s) => Math.abs(s.u - target) === nearest);
    }
    offers.push((pool[random.int(0, pool.length - 1)] as { outcome: Outcome }).outcome);
  }
  return offers;
}
