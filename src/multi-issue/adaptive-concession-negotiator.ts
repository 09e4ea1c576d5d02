import { InvalidInputError } from '../contract/errors.js';
import { FrequencyOpponentModel } from './frequency-opponent-model.js';
import { modelAwareTurn, turnTime } from './model-aware-turn.js';
import type { MultiIssueInput, MultiIssueNegotiator, MultiIssueTurn } from './multi-issue-turn.js';
import { learnFromHistory, offersOfOtherSide } from './opponent-model.js';
import { rankOutcomes } from './outcome-ranking.js';
import { utilityOf } from './utility.js';

/** Options of `AdaptiveConcessionNegotiator`: the range its concession exponent moves in. */
export interface AdaptiveConcessionOptions {
  /** Smallest exponent (the most Boulware it gets). Default 0.2, `utility-boulware`'s. */
  minExponent?: number;
  /** Largest exponent (the most conceding it gets). Default 3, `utility-conceder`'s. */
  maxExponent?: number;
}

/**
 * An adaptive time-dependent strategy: the time-dependent target of Faratin, Sierra & Jennings (1998),
 * `r + (1 - r)(1 - t^(1/e))`, whose exponent e follows the other side's concession speed, as their
 * behaviour-dependent (imitative) tactics follow the other side: e is the ratio of what the other side
 * has conceded (how much more its latest offer is worth to oneself than its first) to what a linear
 * conceder would have conceded by then, kept between `minExponent` and `maxExponent`; linear (1) until
 * the other side has made two offers. Offers are chosen among near-equal ones with a frequency model.
 * haggle's choices: the reference "a linear conceder gives up half of the gap between its opening and
 * one's best outcome by the deadline", and the clamp. Stateless and deterministic.
 */
export class AdaptiveConcessionNegotiator implements MultiIssueNegotiator {
  readonly minExponent: number;
  readonly maxExponent: number;

  constructor(options: AdaptiveConcessionOptions = {}) {
    this.minExponent = options.minExponent ?? 0.2;
    this.maxExponent = options.maxExponent ?? 3;
    if (!(this.minExponent > 0 && this.minExponent <= this.maxExponent && Number.isFinite(this.maxExponent)))
      throw new InvalidInputError({
        subject: 'AdaptiveConcessionOptions',
        issues: [
          { path: 'minExponent', message: 'must be positive and at most maxExponent (a finite number)' },
        ],
      });
  }

  describe() {
    return {
      kind: 'utility-adaptive-concession',
      minExponent: this.minExponent,
      maxExponent: this.maxExponent,
      model: 'frequency',
    };
  }

  /** The exponent the other side's concession so far calls for. */
  exponentFor(input: MultiIssueInput): number {
    const { space, utility } = input;
    const offers = offersOfOtherSide(input.history, input.role);
    if (offers.length < 2) return 1;
    const first = offers[0] as { round: number; offer: Record<string, number | string> };
    const latest = offers[offers.length - 1] as typeof first;
    const gained = utilityOf(space, utility, latest.offer) - utilityOf(space, utility, first.offer);
    const span = Math.max(1, input.maxRounds - 1);
    const linear = 0.5 * (1 - utilityOf(space, utility, first.offer)) * ((latest.round - first.round) / span);
    const speed = linear > 1e-9 ? gained / linear : 1;
    return Math.min(this.maxExponent, Math.max(this.minExponent, speed));
  }

  async predict(input: MultiIssueInput): Promise<MultiIssueTurn> {
    const model = learnFromHistory(
      new FrequencyOpponentModel(input.space),
      input.history,
      input.role,
      input.maxRounds,
    );
    const r = input.utility.reservation;
    const target = r + (1 - r) * (1 - turnTime(input) ** (1 / this.exponentFor(input)));
    return modelAwareTurn(input, rankOutcomes(input.space, input.utility), target, (o) => model.utility(o));
  }
}
