import { type Action, isPricedAction } from '../contract/action.js';
import { UnsatisfiableGuardrailsError } from '../contract/errors.js';
import type { PriceBounds } from '../contract/guardrails.js';
import type { Role } from '../contract/history.js';
import { describeInterval, gridEnds, type LegalMove } from '../contract/legal-moves.js';

/** Moves that carry a price: offers name one, an accept takes the standing one. */
function carriesPrice(action: Action): boolean {
  return isPricedAction(action) || action === 'accept';
}

/**
 * Throws `UnsatisfiableGuardrailsError` when the rules let `role` name a price now (an offer among
 * `legal`) but its guardrails removed every move that carries one (`kept` holds what is left): the
 * model could then only decline, message or stay silent, whatever it was asked.
 *
 * Why only when an offer was allowed (haggle's choice): a buyer whose budget is below the seller's
 * counter after its last allowed offer has only `accept` from the rules, and declining it is exactly
 * what the budget means. An offer interval that a seller's floor or a buyer's budget empties is
 * different: the end of the interval they cut against does not move with the other side (in Best
 * Offer, the list price above a seller's counter, the smallest unit below a buyer's offer), so such a
 * guardrail can never be met in this thread. The rarer bounds (a buyer's `minPrice`, a seller's
 * `maxPrice`) cut against the end that moves and can empty an interval mid-thread; they are reported
 * the same way, since the model could still only decline.
 */
export function checkGuardrailsLeavePrice(
  role: Role,
  bounds: PriceBounds,
  legal: readonly LegalMove[],
  kept: readonly LegalMove[],
  source: string,
): void {
  // Offers with a price on the grid before the guardrails: an empty one was the caller's, not theirs.
  const offers = legal.filter((move) => move.price !== undefined && gridEnds(move.price) !== null);
  if (offers.length === 0 || kept.some((move) => carriesPrice(move.action))) return;
  const interval = offers[0]?.price;
  if (interval === undefined) return;
  const ends = gridEnds(interval);
  const accept = legal.find((move) => move.action === 'accept');
  const accepting = accept?.dealPrice !== undefined ? ` and accepting ${accept.dealPrice}` : '';
  const fixes: string[] = [];
  if (ends && bounds.minPrice !== undefined && bounds.minPrice > ends.highest) {
    fixes.push(`set ${role}.minPrice at or below ${ends.highest}`);
  }
  if (ends && bounds.maxPrice !== undefined && bounds.maxPrice < ends.lowest) {
    fixes.push(`set ${role}.maxPrice at or above ${ends.lowest}`);
  }
  const fix = fixes.length > 0 ? `; ${fixes.join(' and ')}` : '';
  throw new UnsatisfiableGuardrailsError({
    role,
    bounds,
    issue: {
      path: role,
      message: `the ${role}'s guardrails (${describeBounds(bounds)}) leave it no price to offer or accept: ${source} allow offers in ${describeInterval(interval)}${accepting}, all outside them, so the agent could only decline or stall${fix}`,
    },
  });
}

function describeBounds(bounds: PriceBounds): string {
  const parts: string[] = [];
  if (bounds.minPrice !== undefined) parts.push(`minPrice ${bounds.minPrice}`);
  if (bounds.maxPrice !== undefined) parts.push(`maxPrice ${bounds.maxPrice}`);
  return parts.join(', ');
}
