import { ACTIONS, type Action, isPricedAction } from '../contract/action.js';
import { boundsFor, type Guardrails, priceWithinBounds } from '../contract/guardrails.js';
import { type History, opponentOf, type Role } from '../contract/history.js';

/** The latest offer the other side made, if any: the price an `accept` would take. */
export function standingOpponentOffer(history: History, role: Role): number | null {
  const opponent = opponentOf(role);
  for (let i = history.length - 1; i >= 0; i--) {
    const entry = history[i];
    if (entry && entry.role === opponent && isPricedAction(entry.turn.action) && entry.turn.price !== null) {
      return entry.turn.price;
    }
  }
  return null;
}

/**
 * The actions the model may choose from: the rules' legal actions (all six when the caller gives none),
 * minus `accept` when accepting would break the guardrails.
 *
 * The guardrail rule for `accept`: the standing offer is the latest offer in the history made by the
 * other side; if its price is outside this role's guardrails (below a seller's `minPrice`, above a
 * buyer's `maxPrice`), accepting it would close a deal the guardrails forbid, so `accept` is not offered
 * to the model at all. With no opponent offer in the history there is no price to check, and whether
 * `accept` makes sense is the rules' business (a Session leaves it out of `legalActions`).
 */
export function allowedActions(args: {
  legalActions: readonly Action[] | undefined;
  history: History;
  role: Role;
  guardrails: Guardrails | undefined;
}): Action[] {
  const legal = [...new Set(args.legalActions ?? ACTIONS)];
  const standing = standingOpponentOffer(args.history, args.role);
  const acceptBreaksGuardrails =
    standing !== null && !priceWithinBounds(standing, boundsFor(args.guardrails, args.role));
  return acceptBreaksGuardrails ? legal.filter((action) => action !== 'accept') : legal;
}
