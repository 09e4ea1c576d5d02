import { InvalidInputError } from '../contract/errors.js';
import { BayesianOpponentModel } from './bayesian-opponent-model.js';
import type { Outcome } from './issue-space.js';
import { lastOwnRound, modelAwareTurn, turnTime } from './model-aware-turn.js';
import type { MultiIssueInput, MultiIssueNegotiator, MultiIssueTurn } from './multi-issue-turn.js';
import { learnFromHistory, offersOfOtherSide } from './opponent-model.js';
import { type RankedOutcomes, rankOutcomes } from './outcome-ranking.js';
import { utilityOf } from './utility.js';

/** Options of `NashSeekingNegotiator`. */
export interface NashSeekingOptions {
  /**
   * Exponent of the time pressure: by time t it has conceded at least `t^pressure` of the way to the
   * estimated Nash point, whatever the other side did. Default 2 (haggle's choice, so that a stubborn
   * opponent still meets the Nash point at the deadline).
   */
  pressure?: number;
}

/**
 * The estimated Nash point: the outcome maximising `(own - reservation) · estimated other side's
 * utility` among outcomes worth the reservation to oneself. The other side's reservation is private and
 * its offers say nothing of it, so it is taken as 0 (haggle's choice).
 */
export function estimatedNashPoint(
  ranked: RankedOutcomes,
  reservation: number,
  opponentUtility: (outcome: Outcome) => number,
): { outcome: Outcome; utility: number } | null {
  let best: { outcome: Outcome; utility: number } | null = null;
  let bestProduct = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < ranked.outcomes.length; i++) {
    const own = ranked.utilities[i] as number;
    if (own < reservation) break; // sorted descending: nothing further qualifies
    const product = (own - reservation) * opponentUtility(ranked.outcomes[i] as Outcome);
    if (product > bestProduct) {
      bestProduct = product;
      best = { outcome: ranked.outcomes[i] as Outcome, utility: own };
    }
  }
  return best;
}

/**
 * A Nash-seeking strategy after Nice Tit-for-Tat (Baarslag, Hindriks & Jonker 2013): it learns the other
 * side's utility with the Bayesian model (`BayesianOpponentModel`, Hindriks & Tykhonov 2008), estimates
 * the Nash point, and concedes towards it in proportion to how far the other side's offers have come
 * towards it (tit for tat, measured in its own utility), not past it before its last turn; among offers of equal utility to
 * itself it proposes the one the model rates best for the other side. haggle's choices: the time pressure
 * `t^pressure` that brings it to the Nash point by its last turn, and on its own last turn (it cannot
 * answer again) accepting anything above its reservation and, failing that, offering down to it: the
 * Nash point is only an estimate, and a deal above the reservation beats none. Stateless and
 * deterministic.
 */
export class NashSeekingNegotiator implements MultiIssueNegotiator {
  readonly pressure: number;

  constructor(options: NashSeekingOptions = {}) {
    this.pressure = options.pressure ?? 2;
    if (!(this.pressure > 0) || !Number.isFinite(this.pressure))
      throw new InvalidInputError({
        subject: 'NashSeekingOptions',
        issues: [{ path: 'pressure', message: 'must be a positive number' }],
      });
  }

  describe() {
    return { kind: 'utility-nash-seeker', pressure: this.pressure, model: 'bayesian' };
  }

  async predict(input: MultiIssueInput): Promise<MultiIssueTurn> {
    const { space, utility } = input;
    const model = learnFromHistory(
      new BayesianOpponentModel(space),
      input.history,
      input.role,
      input.maxRounds,
    );
    const theirs = (o: Outcome) => model.utility(o);
    const ranked = rankOutcomes(space, utility);
    const nash = estimatedNashPoint(ranked, utility.reservation, theirs);
    const nashOwn = nash?.utility ?? utility.reservation;
    const offers = offersOfOtherSide(input.history, input.role).map((o) =>
      utilityOf(space, utility, o.offer),
    );
    let reciprocated = 0;
    if (offers.length >= 2) {
      const first = offers[0] as number;
      const best = Math.max(...offers);
      reciprocated = nashOwn > first ? Math.min(1, Math.max(0, (best - first) / (nashOwn - first))) : 1;
    }
    const share = Math.max(reciprocated, turnTime(input) ** this.pressure);
    const top = ranked.utilities[0] ?? 1;
    // On its own last turn a deal above the reservation beats none: its last offer may go below the
    // estimated Nash point, which is only an estimate.
    const target = input.round >= lastOwnRound(input) ? utility.reservation : top - share * (top - nashOwn);
    return modelAwareTurn(input, ranked, target, theirs, { acceptAtLast: true });
  }
}
