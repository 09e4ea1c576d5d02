import { NotYourTurnError } from '../contract/errors.js';
import type { HistoryEntry, Role } from '../contract/history.js';
import type { NegotiationState, Rules } from './rules.js';

/*
 * Whose turn it is, as the rules say it, for callers outside a `Session` (a Session asks
 * `rules.nextRole` itself and never asks the wrong side). Both Best Offer and alternating offers
 * alternate strictly, the buyer first: after an offer, a counter or a `message_only` the other side
 * moves; `accept`, `decline` and `no_response` end the thread (the replay refuses any turn after them);
 * so does the rules' turn limit. An offer that lapses cannot be judged here (a predict input carries no
 * clock): the answer's `response_time` is bounded by the legal moves instead.
 */

/** Throws `NotYourTurnError` when `entry`, the `index`-th of a history, was taken by the wrong side. */
export function checkEntryTurn(
  rules: Rules,
  state: NegotiationState,
  entry: HistoryEntry,
  index: number,
): void {
  const next = rules.nextRole(state);
  if (entry.role === next) return;
  throw new NotYourTurnError({
    subject: 'PredictInput',
    role: entry.role,
    nextRole: next,
    issue: {
      path: `history[${index}].role`,
      message: `is "${entry.role}", but the ${next} moves here under the ${rules.name} rules (${whyNext(state)})`,
    },
  });
}

/**
 * Throws `NotYourTurnError` unless `role` moves next after the replayed `state`: when the other side
 * does, or when the thread has reached the rules' turn limit and nobody does.
 */
export function checkNextTurn(rules: Rules, state: NegotiationState, role: Role): void {
  const turns = state.history.length;
  if (turns >= rules.maxTurns) {
    throw new NotYourTurnError({
      subject: 'PredictInput',
      role,
      nextRole: null,
      issue: {
        path: 'history',
        message: `the negotiation already ended (turn-cap): the ${rules.name} rules end a thread after ${rules.maxTurns} turns and this one has ${turns}; there is no next turn (pass rules with a larger maxTurns to go on)`,
      },
    });
  }
  const next = rules.nextRole(state);
  if (role === next) return;
  throw new NotYourTurnError({
    subject: 'PredictInput',
    role,
    nextRole: next,
    issue: {
      path: 'role',
      message: `is "${role}", but it is the ${next}'s turn under the ${rules.name} rules (${whyNext(state)}); ask for the ${next}'s turn, or add the ${next}'s reply to the history first`,
    },
  });
}

/** Why the rules give the move to whoever they give it to, in the words of the last turn. */
function whyNext(state: NegotiationState): string {
  const last = state.history[state.history.length - 1];
  if (!last) return 'the buyer opens the thread';
  const price = last.turn.price === null ? '' : ` of ${last.turn.price}`;
  return `the last turn, history[${state.history.length - 1}], is the ${last.role}'s ${last.turn.action}${price}`;
}
