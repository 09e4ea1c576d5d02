import type { Outcome } from './issue-space.js';
import { type MultiIssueInput, type MultiIssueTurn, standingProposal } from './multi-issue-turn.js';
import type { RankedOutcomes } from './outcome-ranking.js';
import { utilityOf } from './utility.js';

/**
 * Offer choice that uses an opponent model, shared by the strategies that learn: among one's outcomes
 * worth from `target` to `target + band` to oneself (nearly equal for oneself), the one the model says
 * the other side likes best (HardHeaded's and Nice Tit-for-Tat's bid choice). Ties go to one's own
 * higher utility. `null` when no outcome reaches `target`.
 */
export function opponentAwareProposal(
  ranked: RankedOutcomes,
  target: number,
  opponentUtility: (outcome: Outcome) => number,
  band = 0.05,
): { outcome: Outcome; utility: number } | null {
  if ((ranked.utilities[0] ?? Number.NEGATIVE_INFINITY) < target - 1e-12) return null;
  // utilities are sorted descending: the window is the run just above the target.
  let last = 0;
  while (last + 1 < ranked.utilities.length && (ranked.utilities[last + 1] as number) >= target - 1e-12)
    last++;
  const ceiling = (ranked.utilities[last] as number) + band;
  let best = last;
  let bestOpponent = Number.NEGATIVE_INFINITY;
  for (let i = last; i >= 0 && (ranked.utilities[i] as number) <= ceiling + 1e-12; i--) {
    const theirs = opponentUtility(ranked.outcomes[i] as Outcome);
    if (theirs >= bestOpponent) {
      bestOpponent = theirs;
      best = i;
    }
  }
  return { outcome: ranked.outcomes[best] as Outcome, utility: ranked.utilities[best] as number };
}

/**
 * The lowest undiscounted utility one may propose or accept now without ending below the reservation:
 * a proposal is taken one round later at the earliest, so it is discounted once more.
 */
export function reservationFloor(input: MultiIssueInput, roundsAhead: number): number {
  const { reservation, discount } = input.utility;
  return reservation / discount ** (input.round + roundsAhead);
}

/**
 * The turn of a learning strategy aiming at `target` (its own utility): walk away when no outcome is worth
 * the reservation; accept the other side's standing proposal when it is worth at least the proposal one
 * would make now and the reservation (AC_next, as the fixed curves accept), or, with `acceptAtLast`, any
 * proposal above the reservation on its own last turn (it cannot answer again); else
 * propose, choosing among near-equal outcomes by the model. Never proposes or accepts below the
 * reservation.
 */
export function modelAwareTurn(
  input: MultiIssueInput,
  ranked: RankedOutcomes,
  target: number,
  opponentUtility: (outcome: Outcome) => number,
  options: { acceptAtLast?: boolean } = {},
): MultiIssueTurn {
  const { space, utility, round } = input;
  // A target above one's best outcome (a curve starting at 1 where no outcome is worth 1) means the best
  // outcome; only an outcome worth the reservation may be proposed at all.
  const best = ranked.utilities[0] ?? Number.NEGATIVE_INFINITY;
  const proposal = opponentAwareProposal(
    ranked,
    Math.max(Math.min(target, best), reservationFloor(input, 1)),
    opponentUtility,
  );
  const standing = standingProposal(input.history, input.role);
  if (standing) {
    const worth = utilityOf(space, utility, standing, round);
    const lastTurn = round >= lastOwnRound(input);
    const enough = proposal
      ? utilityOf(space, utility, proposal.outcome, round + 1)
      : Number.POSITIVE_INFINITY;
    if (worth >= utility.reservation && (worth >= enough || (lastTurn && options.acceptAtLast) || !proposal))
      return { action: 'accept', offer: null, message: '' };
  }
  if (!proposal) return { action: 'walk_away', offer: null, message: '' };
  return { action: 'offer', offer: proposal.outcome, message: '' };
}

/**
 * The last round in which this side moves (sides alternate, so it is the final round or the one before).
 */
export function lastOwnRound(input: MultiIssueInput): number {
  const final = input.maxRounds - 1;
  return (final - input.round) % 2 === 0 ? final : final - 1;
}

/**
 * Normalised time of a turn for the side to move: 0 at the first round, 1 at its own last turn. The fixed
 * curves run their clock to the final round, which the side that moves first never plays, so they never
 * reach their reservation; the learning strategies run it to their own last turn (haggle's choice).
 */
export function turnTime(input: MultiIssueInput): number {
  const last = lastOwnRound(input);
  return last <= 0 ? 1 : Math.min(1, Math.max(0, input.round / last));
}
