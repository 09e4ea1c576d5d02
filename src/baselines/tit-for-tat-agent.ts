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
  isFiniteNumber,
  type PriceLimitOptions,
  type PriceLimits,
  priceLimits,
} from './price-limits.js';
import { readThread, type ThreadView } from './thread-view.js';
import { withinTimeBound } from './turns.js';

export interface TitForTatAgentOptions extends PriceLimitOptions {
  /** How much of the other side's relative concession to return: 1 matches it. Default 1. */
  reciprocity?: number;
  /**
   * The relative concession a seller makes on its first counter, before the buyer has conceded
   * anything (the listing is the seller's opening, so the seller moves first). Default 0.05.
   */
  initialConcession?: number;
  /** Accept an offer within this relative distance of the price this agent would offer next. Default 0.02. */
  acceptanceThreshold?: number;
}

/** How much of the opponent's relative concession a `TitForTatAgent` returns by default (1: matches it). */
export const DEFAULT_RECIPROCITY = 1;
/** The relative concession a `TitForTatAgent` seller makes on its first counter, before the buyer concedes. */
export const DEFAULT_INITIAL_CONCESSION = 0.05;
/** A `TitForTatAgent` accepts an offer within this relative distance of the price it would offer next. */
export const DEFAULT_ACCEPTANCE_THRESHOLD = 0.02;

const KNOWN_OPTIONS = [
  'reciprocity',
  'initialConcession',
  'acceptanceThreshold',
  'reservationPrice',
  'reservationRatio',
  'aspirationRatio',
  'responseTimeHours',
] as const;

/**
 * Relative tit-for-tat (as NegMAS's naive tit-for-tat): opens at its aspiration, then concedes the
 * same fraction of its own price as the other side's last concession was of theirs (times
 * `reciprocity`); it does not move when the other side does not. Accepts an offer within
 * `acceptanceThreshold` of its next price, never beyond its reservation. Deterministic.
 */
export class TitForTatAgent implements Negotiator {
  readonly responseTimeUnit = 'hours' as const;
  readonly options: Readonly<TitForTatAgentOptions>;
  readonly reciprocity: number;
  readonly initialConcession: number;
  readonly acceptanceThreshold: number;

  constructor(options: TitForTatAgentOptions = {}) {
    if (typeof options !== 'object' || options === null) {
      throw new InvalidInputError({
        subject: 'TitForTatAgentOptions',
        issues: [
          { path: '(root)', message: 'pass an object such as { reciprocity: 1, reservationRatio: 0.8 }' },
        ],
      });
    }
    const issues: ValidationIssue[] = [];
    checkKnownKeys(options, KNOWN_OPTIONS, issues);
    checkPriceLimitOptions(options, issues);
    const { reciprocity, initialConcession, acceptanceThreshold } = options;
    if (
      reciprocity !== undefined &&
      !(isFiniteNumber(reciprocity) && reciprocity >= 0 && reciprocity <= 10)
    ) {
      issues.push({
        path: 'reciprocity',
        message: `must be a number from 0 to 10, got ${String(reciprocity)}`,
      });
    }
    for (const [path, value] of [
      ['initialConcession', initialConcession],
      ['acceptanceThreshold', acceptanceThreshold],
    ] as const) {
      if (value !== undefined && !(isFiniteNumber(value) && value >= 0 && value < 1)) {
        issues.push({ path, message: `must be a fraction in [0, 1), got ${String(value)}` });
      }
    }
    if (issues.length > 0) throw new InvalidInputError({ subject: 'TitForTatAgentOptions', issues });
    this.options = Object.freeze({ ...options });
    this.reciprocity = reciprocity ?? DEFAULT_RECIPROCITY;
    this.initialConcession = initialConcession ?? DEFAULT_INITIAL_CONCESSION;
    this.acceptanceThreshold = acceptanceThreshold ?? DEFAULT_ACCEPTANCE_THRESHOLD;
  }

  describe(): NegotiatorDescription {
    return {
      kind: 'tit-for-tat',
      reciprocity: this.reciprocity,
      initialConcession: this.initialConcession,
      acceptanceThreshold: this.acceptanceThreshold,
      ...describeLimits(this.options),
    };
  }

  async predict(input: PredictInput, options: PredictOptions = {}): Promise<Turn> {
    throwIfAborted(options.signal);
    checkPredictInput(input, 'TitForTatAgent');
    const view = readThread(input);
    const limits = priceLimits(view, this.options);
    const next = this.nextPrice(view, limits);
    const threshold = this.acceptanceThreshold;
    const turn = respond({
      view,
      limits,
      legal: legalActionSet(input.legalActions),
      nextPrice: next,
      acceptable: (offer) =>
        view.role === 'buyer' ? offer <= next * (1 + threshold) : offer >= next * (1 - threshold),
      responseTime: this.options.responseTimeHours ?? DEFAULT_RESPONSE_TIME_HOURS,
    });
    return withinTimeBound(turn, input.legalMoves);
  }

  /** The price after reciprocating the other side's last relative concession, clamped to the reservation. */
  private nextPrice(view: ThreadView, limits: PriceLimits): number {
    const buyer = view.role === 'buyer';
    const previous = view.ownOffers[view.ownOffers.length - 1];
    // The buyer opens at its aspiration; the seller's opening is its listing, so its first counter
    // already answers a buyer offer and starts from the aspiration with the initial concession.
    if (previous === undefined && buyer) return limits.aspiration;
    const base = previous ?? limits.aspiration;
    // Each concession of the other side is returned once: only an offer made since our last one
    // (it is the one on the table) counts as new.
    const fresh = view.opponentStanding !== null;
    const concession = fresh ? this.reciprocity * this.opponentConcession(view, previous === undefined) : 0;
    const moved = buyer ? base * (1 + concession) : base * (1 - concession);
    return buyer ? Math.min(moved, limits.reservation) : Math.max(moved, limits.reservation);
  }

  /**
   * The other side's last concession as a fraction of its previous price; never negative (a side
   * that backs off is not followed backwards, only not rewarded).
   */
  private opponentConcession(view: ThreadView, sellerFirstCounter: boolean): number {
    const offers = view.opponentOffers;
    const last = offers[offers.length - 1];
    if (last === undefined) return 0;
    const before = offers[offers.length - 2];
    if (before === undefined) {
      // The seller's listing is its opening: its first counter concedes from the list price. A buyer's
      // first offer has nothing before it, so the seller starts with its initial concession.
      if (view.role === 'buyer') return Math.max(0, (view.listPrice - last) / view.listPrice);
      return sellerFirstCounter ? this.initialConcession : 0;
    }
    const change = view.role === 'buyer' ? (before - last) / before : (last - before) / before;
    return Math.max(0, change);
  }
}
