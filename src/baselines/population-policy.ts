import type { Action } from '../contract/action.js';
import type { Turn } from '../contract/turn.js';
import type { Random } from '../internal/random.js';
import type { PopulationParameters } from './population-parameters.js';
import type { ThreadView } from './thread-view.js';
import { bareTurn } from './turns.js';

/** What one population decision works with; built fresh for every turn. */
export interface PolicyContext {
  view: ThreadView;
  legal: ReadonlySet<Action>;
  random: Random;
  params: Readonly<PopulationParameters>;
  currency: string;
}

/** A probability rising from 0 to 1 as `x` falls below `midpoint`; `scale` sets how fast. */
export function fallingLogistic(x: number, midpoint: number, scale: number): number {
  return 1 / (1 + Math.exp((x - midpoint) / scale));
}

/** Hours until a side answers: log-normal, so most answer within hours and a few after days. */
export function responseHours(random: Random, medianHours: number, sigma: number): number {
  return random.logNormal(medianHours, sigma);
}

/**
 * The share of the gap between one's own position and the other side's that a new offer gives up:
 * often exactly half (splitting the difference), otherwise a gradual step drawn from a range.
 */
export function concessionShare(random: Random, params: Readonly<PopulationParameters>): number {
  if (random.bernoulli(params.splitDifferenceProbability)) return 0.5;
  const low = Math.min(params.concessionShareMin, params.concessionShareMax);
  const high = Math.max(params.concessionShareMin, params.concessionShareMax);
  return random.uniform(low, high);
}

/**
 * Walking away: said out loud (`decline`) or by silence (`no_response`), the other as second choice
 * for when the rules do not allow the first (no offer to decline).
 */
export function walkAwayTurns(ctx: PolicyContext, hours: number): Turn[] {
  const first = ctx.random.bernoulli(ctx.params.walkAwayDeclineShare) ? 'decline' : 'no_response';
  return [bareTurn(first, hours), bareTurn(first === 'decline' ? 'no_response' : 'decline', hours)];
}

/** Preferred turns in order, for `firstLegal`. */
export type Preferences = Turn[];
