import { InvalidInputError, throwIfAborted, type ValidationIssue } from '../contract/errors.js';
import type {
  Negotiator,
  NegotiatorDescription,
  PredictInput,
  PredictOptions,
} from '../contract/negotiator.js';
import type { Turn } from '../contract/turn.js';
import { checkPredictInput, legalActionSet } from './agent-input.js';
import { respond } from './deterministic-turns.js';
import {
  checkKnownKeys,
  checkPriceLimitOptions,
  DEFAULT_RESPONSE_TIME_HOURS,
  describeLimits,
  type PriceLimitOptions,
  type PriceLimits,
  priceLimits,
} from './price-limits.js';
import { estimateReservationPrice } from './reservation-estimate.js';
import { readThread, type ThreadView } from './thread-view.js';
import { checkTimeBasedOptions, DEFAULT_HORIZON, TIME_BASED_OPTION_KEYS } from './time-based-agent.js';
import { withinTimeBound } from './turns.js';

export interface ReservationLearningAgentOptions extends PriceLimitOptions {
  /** Concession exponent of the time-based target (as `TimeBasedAgent`'s). Default 1 (linear). */
  exponent?: number;
  /** Turns over which time runs from 0 to 1. Default 20, as `TimeBasedAgent`. */
  horizon?: number;
}

/**
 * A Best Offer negotiator that learns the other side's reservation price from its concessions
 * (`estimateReservationPrice`) and never concedes past it: a time-based concession (Faratin, Sierra &
 * Jennings 1998) from its aspiration towards the better of its own reservation and the other side's
 * estimated limit. A learning seller stops above where it expects the buyer to go anyway; a learning
 * buyer stops below the seller's estimated floor. It accepts an offer at least as good as its next own
 * (AC_next) or within 2% of the other side's estimated limit (nothing better is expected), never beyond its own
 * reservation. Deterministic (the seed changes nothing) and stateless: the estimate is remade from the
 * history on every turn.
 */
export class ReservationLearningAgent implements Negotiator {
  readonly responseTimeUnit = 'hours' as const;
  readonly options: Readonly<ReservationLearningAgentOptions>;
  readonly exponent: number;
  readonly horizon: number;

  constructor(options: ReservationLearningAgentOptions = {}) {
    if (typeof options !== 'object' || options === null)
      throw new InvalidInputError({
        subject: 'ReservationLearningAgentOptions',
        issues: [
          { path: '(root)', message: 'pass an object such as { exponent: 1, reservationRatio: 0.8 }' },
        ],
      });
    const issues: ValidationIssue[] = [];
    checkKnownKeys(options, TIME_BASED_OPTION_KEYS, issues);
    checkPriceLimitOptions(options, issues);
    checkTimeBasedOptions(options, issues);
    if (issues.length > 0)
      throw new InvalidInputError({ subject: 'ReservationLearningAgentOptions', issues });
    this.options = Object.freeze({ ...options });
    this.exponent = options.exponent ?? 1;
    this.horizon = options.horizon ?? DEFAULT_HORIZON;
  }

  describe(): NegotiatorDescription {
    return {
      kind: 'reservation-learner',
      exponent: this.exponent,
      horizon: this.horizon,
      ...describeLimits(this.options),
    };
  }

  /**
   * Where its concession ends: its own reservation, or the other side's estimated limit where that is
   * better for it (never beyond its aspiration).
   */
  private endPoint(view: ThreadView, limits: PriceLimits): { price: number; learnt: boolean } {
    const estimate = this.estimate(view);
    if (estimate === null) return { price: limits.reservation, learnt: false };
    const price =
      view.role === 'seller'
        ? Math.min(limits.aspiration, Math.max(limits.reservation, estimate))
        : Math.max(limits.aspiration, Math.min(limits.reservation, estimate));
    return { price, learnt: true };
  }

  /** The other side's estimated limit; a seller's listing is its opening offer. */
  private estimate(view: ThreadView): number | null {
    if (view.role === 'seller') return estimateReservationPrice(view.opponentOffers, 'buyer');
    return estimateReservationPrice([view.listPrice, ...view.opponentOffers], 'seller');
  }

  async predict(input: PredictInput, options: PredictOptions = {}): Promise<Turn> {
    throwIfAborted(options.signal);
    checkPredictInput(input, 'ReservationLearningAgent');
    const view = readThread(input);
    const limits = priceLimits(view, this.options);
    const { price: end, learnt } = this.endPoint(view, limits);
    const t = Math.min(1, view.turnIndex / this.horizon);
    const target = end + (1 - t ** (1 / this.exponent)) * (limits.aspiration - end);
    const better = (offer: number, than: number) => (view.role === 'buyer' ? offer <= than : offer >= than);
    const turn = respond({
      view,
      limits,
      legal: legalActionSet(input.legalActions),
      nextPrice: target,
      // Within 2% of the other side's estimated limit is as close as an extrapolation gets: take it
      // (the tolerance of TitForTatAgent's acceptance, haggle's choice).
      acceptable: (offer) =>
        better(offer, target) || (learnt && better(offer, view.role === 'buyer' ? end * 1.02 : end * 0.98)),
      responseTime: this.options.responseTimeHours ?? DEFAULT_RESPONSE_TIME_HOURS,
    });
    return withinTimeBound(turn, input.legalMoves);
  }
}
