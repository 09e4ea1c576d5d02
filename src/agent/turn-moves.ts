import { isPricedAction } from '../contract/action.js';
import { InvalidInputError } from '../contract/errors.js';
import { boundsFor, type Guardrails, priceWithinBounds } from '../contract/guardrails.js';
import { type History, opponentOf } from '../contract/history.js';
import { gridEnds, intersectInterval, type LegalMove } from '../contract/legal-moves.js';
import { legalMovesAfter } from '../rules/replay.js';
import type { Rules } from '../rules/rules.js';
import { checkGuardrailsLeavePrice } from './guardrail-conflict.js';
import type { ValidPredictInput } from './predict-input.js';

/** The latest offer the other side made, if any: the price an `accept` would take. */
export function standingOpponentOffer(history: History, role: ValidPredictInput['role']): number | null {
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
 * The moves the model may choose from at this point, each offer's interval narrowed by the guardrails.
 *
 * Where they come from: the caller's `legalMoves` (a Session passes them); else the moves `rules` allow
 * after replaying the history (a marketplace app asking for one reply), kept to the caller's
 * `legalActions` if it gave those. So an agent used alone still offers 0 < price < list price in cents.
 *
 * The guardrails: an offer's price interval is intersected with the role's bounds, and an offer left
 * with no price on the currency's grid is dropped; `accept` is dropped when the price it would take
 * (the move's `dealPrice`, else the other side's latest offer) is outside them, since accepting would
 * close a deal the guardrails forbid. Guardrails that leave no price where the rules allowed an offer
 * are an `UnsatisfiableGuardrailsError` rather than a turn that can only decline.
 *
 * Without `legalMoves`, the rules also say whose turn it is: asking for the other side's turn, or for
 * a turn after the thread ended, is a `NotYourTurnError` (see rules/turn-order.ts).
 */
export function movesForTurn(
  input: ValidPredictInput,
  rules: Rules,
  guardrails: Guardrails | undefined,
): LegalMove[] {
  const { context, history, role, legalActions } = input;
  let moves = input.legalMoves ?? legalMovesAfter(rules, context, history, role);
  if (!input.legalMoves && legalActions) {
    const allowed = new Set(legalActions);
    moves = moves.filter((move) => allowed.has(move.action));
    if (moves.length === 0) {
      throw new InvalidInputError({
        subject: 'PredictInput',
        issues: [
          {
            path: 'legalActions',
            message: `none of ${legalActions.join(', ')} is legal under the ${rules.name} rules after this history; pass legalMoves to play under other rules`,
          },
        ],
      });
    }
  }

  const bounds = boundsFor(guardrails, role);
  const narrowed: LegalMove[] = [];
  for (const move of moves) {
    if (move.price) {
      const price = intersectInterval(move.price, bounds);
      if (gridEnds(price) !== null) narrowed.push({ ...move, price });
      continue;
    }
    if (move.action === 'accept') {
      const dealPrice = move.dealPrice ?? standingOpponentOffer(history, role);
      if (dealPrice !== null && !priceWithinBounds(dealPrice, bounds)) continue;
    }
    narrowed.push(move);
  }
  checkGuardrailsLeavePrice(
    role,
    bounds,
    moves,
    narrowed,
    input.legalMoves ? 'the legalMoves passed' : `the ${rules.name} rules`,
  );
  if (narrowed.length === 0) {
    throw new InvalidInputError({
      subject: 'PredictInput',
      issues: [
        {
          path: input.legalMoves ? 'legalMoves' : 'legalActions',
          message: `no move is left once the ${role}'s guardrails apply: every legal offer and the standing offer's price lie outside them`,
        },
      ],
    });
  }
  return narrowed;
}
