import { InvalidInputError, NotYourTurnError } from '../contract/errors.js';
import type { History, Role } from '../contract/history.js';
import type { LegalMove } from '../contract/legal-moves.js';
import type { ListingContext } from '../contract/listing-context.js';
import type { NegotiationState, Rules } from './rules.js';
import { checkEntryTurn, checkNextTurn } from './turn-order.js';

/**
 * Replays a history under `rules` and returns the state it leads to. For callers outside a `Session`
 * (a marketplace app asking for one reply, `haggle predict`): a history the rules refuse, one whose
 * turns were taken by the wrong side, or one that has already ended is bad input, named by the entry
 * that breaks it (`NotYourTurnError` for the last two).
 */
export function replayHistory(rules: Rules, context: ListingContext, history: History): NegotiationState {
  return replay(rules, context, history, undefined);
}

/**
 * The legal moves of `role` after `history` under `rules`. Throws `NotYourTurnError` when the rules
 * give the move to the other side or to nobody (see `replayHistory` for what else is refused).
 */
export function legalMovesAfter(
  rules: Rules,
  context: ListingContext,
  history: History,
  role: Role,
): LegalMove[] {
  const state = replay(rules, context, history, role);
  checkNextTurn(rules, state, role);
  return rules.legalMoves(state, role);
}

function replay(
  rules: Rules,
  context: ListingContext,
  history: History,
  asking: Role | undefined,
): NegotiationState {
  let state = rules.initialState(context);
  for (const [index, entry] of history.entries()) {
    checkEntryTurn(rules, state, entry, index);
    // As in a Session: an offer that lapsed before this turn landed is off the table first.
    const lapsed = rules.expiredOffer(state, entry.elapsedHours);
    if (lapsed && lapsed.role !== entry.role) {
      throw new NotYourTurnError({
        subject: 'PredictInput',
        role: asking,
        nextRole: null,
        issue: {
          path: `history[${index}]`,
          message: `the ${lapsed.role}'s offer lapsed at ${lapsed.expiresAtHours} hours, before this turn; the negotiation had ended (expired)`,
        },
      });
    }
    if (lapsed) state = { ...state, standingOffer: null };
    const ruling = rules.apply(state, entry);
    if (ruling.kind === 'illegal') {
      throw new InvalidInputError({
        subject: 'PredictInput',
        issues: [
          {
            path: `history[${index}]`,
            message: `breaks the ${rules.name} rules: ${ruling.violation} (pass legalMoves to play under other rules)`,
          },
        ],
      });
    }
    if (ruling.kind === 'end') {
      throw new NotYourTurnError({
        subject: 'PredictInput',
        role: asking,
        nextRole: null,
        issue: {
          path: `history[${index}]`,
          message: `the negotiation already ended here (${ruling.reason}); there is no next turn`,
        },
      });
    }
    state = ruling.state;
  }
  return state;
}
