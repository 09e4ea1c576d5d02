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

export interface TimeBasedAgentOptions extends PriceLimitOptions {
  /**
   * Concession exponent `e` of the aspiration `u(t) = 1 - t^(1/e)`: below 1 concedes late (Boulware),
   * 1 concedes linearly, above 1 concedes early (conceder). Default 1.
   */
  exponent?: number;
  /** Turns over which time runs from 0 to 1: `t = turnIndex / horizon`, capped at 1. Default 20. */
  horizon?: number;
}

/** Exponents of the named strategies, as NegMAS's aspiration negotiators use them (4 and 1/4). */
export const BOULWARE_EXPONENT = 0.25;
/** Exponent of `linearConcession`: concedes the same amount every turn. */
export const LINEAR_EXPONENT = 1;
/** Exponent of `conceder`: concedes most of the way early. */
export const CONCEDER_EXPONENT = 4;
/** Turns over which a time-based agent's time runs from 0 to 1 (`t = turnIndex / horizon`), unless told otherwise. */
export const DEFAULT_HORIZON = 20;

/** The options of a time-based concession (this agent's and `ReservationLearningAgent`'s). */
export const TIME_BASED_OPTION_KEYS = [
  'exponent',
  'horizon',
  'reservationPrice',
  'reservationRatio',
  'aspirationRatio',
  'responseTimeHours',
] as const;

/** Checks `exponent` and `horizon` of a time-based concession, adding one issue for each bad value. */
export function checkTimeBasedOptions(
  options: { exponent?: unknown; horizon?: unknown },
  issues: ValidationIssue[],
): void {
  const { exponent, horizon } = options;
  if (exponent !== undefined && !(isFiniteNumber(exponent) && exponent > 0)) {
    issues.push({ path: 'exponent', message: `must be a finite number above 0, got ${String(exponent)}` });
  }
  if (horizon !== undefined && !(Number.isInteger(horizon) && (horizon as number) >= 1)) {
    issues.push({
      path: 'horizon',
      message: `must be an integer of at least 1 turn, got ${String(horizon)}`,
    });
  }
}

/**
 * A time-based concession negotiator (Faratin, Sierra & Jennings 1998; NegMAS's Boulware, linear and
 * conceder agents): its target utility falls with normalised time, `u(t) = 1 - t^(1/e)`, and maps to a
 * price between its aspiration and its reservation. It accepts an offer at least as good as the one
 * it would make next (NegMAS's AC_next), and never offers or accepts beyond its reservation.
 * Deterministic: the seed changes nothing.
 */
export class TimeBasedAgent implements Negotiator {
  readonly responseTimeUnit = 'hours' as const;
  readonly options: Readonly<TimeBasedAgentOptions>;
  readonly exponent: number;
  readonly horizon: number;

  constructor(options: TimeBasedAgentOptions = {}) {
    const issues: ValidationIssue[] = [];
    if (typeof options !== 'object' || options === null) {
      throw new InvalidInputError({
        subject: 'TimeBasedAgentOptions',
        issues: [
          { path: '(root)', message: 'pass an object such as { exponent: 0.25, reservationRatio: 0.8 }' },
        ],
      });
    }
    checkKnownKeys(options, TIME_BASED_OPTION_KEYS, issues);
    checkPriceLimitOptions(options, issues);
    checkTimeBasedOptions(options, issues);
    const { exponent, horizon } = options;
    if (issues.length > 0) throw new InvalidInputError({ subject: 'TimeBasedAgentOptions', issues });
    this.options = Object.freeze({ ...options });
    this.exponent = exponent ?? LINEAR_EXPONENT;
    this.horizon = horizon ?? DEFAULT_HORIZON;
  }

  describe(): NegotiatorDescription {
    return {
      kind: 'time-based',
      strategy: this.exponent < 1 ? 'boulware' : this.exponent > 1 ? 'conceder' : 'linear',
      exponent: this.exponent,
      horizon: this.horizon,
      ...describeLimits(this.options),
    };
  }

  /** The target utility at normalised time `t` in [0, 1]: 1 at the start, 0 at the horizon. */
  targetUtility(t: number): number {
    const time = Math.min(1, Math.max(0, t));
    return 1 - time ** (1 / this.exponent);
  }

  async predict(input: PredictInput, options: PredictOptions = {}): Promise<Turn> {
    throwIfAborted(options.signal);
    checkPredictInput(input, 'TimeBasedAgent');
    const view = readThread(input);
    const limits = priceLimits(view, this.options);
    const target = this.targetPrice(view, limits);
    const turn = respond({
      view,
      limits,
      legal: legalActionSet(input.legalActions),
      nextPrice: target,
      // AC_next: take an offer at least as good as the one this agent would make now.
      acceptable: (offer) => (view.role === 'buyer' ? offer <= target : offer >= target),
      responseTime: this.options.responseTimeHours ?? DEFAULT_RESPONSE_TIME_HOURS,
    });
    return withinTimeBound(turn, input.legalMoves);
  }

  private targetPrice(view: ThreadView, limits: PriceLimits): number {
    const u = this.targetUtility(view.turnIndex / this.horizon);
    return limits.reservation + u * (limits.aspiration - limits.reservation);
  }
}

/** Options of `boulware`, `linearConcession` and `conceder`: those of `TimeBasedAgent` without the exponent they fix. */
export type NamedTimeBasedOptions = Omit<TimeBasedAgentOptions, 'exponent'>;

/** Concedes late: holds near its aspiration until close to the horizon (e = 0.25). */
export function boulware(options: NamedTimeBasedOptions = {}): TimeBasedAgent {
  return new TimeBasedAgent({ ...withoutExponent(options), exponent: BOULWARE_EXPONENT });
}

/** Concedes at a constant rate over the horizon (e = 1). */
export function linearConcession(options: NamedTimeBasedOptions = {}): TimeBasedAgent {
  return new TimeBasedAgent({ ...withoutExponent(options), exponent: LINEAR_EXPONENT });
}

/** Concedes early: most of the way to its reservation within the first few turns (e = 4). */
export function conceder(options: NamedTimeBasedOptions = {}): TimeBasedAgent {
  return new TimeBasedAgent({ ...withoutExponent(options), exponent: CONCEDER_EXPONENT });
}

function withoutExponent(options: NamedTimeBasedOptions): NamedTimeBasedOptions {
  if (typeof options === 'object' && options !== null && 'exponent' in options) {
    throw new InvalidInputError({
      subject: 'TimeBasedAgentOptions',
      issues: [
        {
          path: 'exponent',
          message: 'is fixed by the named strategy; use new TimeBasedAgent({ exponent }) instead',
        },
      ],
    });
  }
  return options;
}
