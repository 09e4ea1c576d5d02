import {
  describeInterval,
  type History,
  MAX_MESSAGE_LENGTH,
  priceInInterval,
} from '../../src/contract/index.js';
import { MAX_LABEL_LENGTH, MAX_RESPONSE_HOURS } from '../../src/contract/turn-rules.js';
import { legalMovesAfter } from '../../src/rules/replay.js';
import type { Rules } from '../../src/rules/rules.js';
import type { SessionResult } from '../../src/simulation/session-result.js';

/**
 * Every way a played session could break the legal-by-construction promise, judged independently of
 * the Session's own verdict: each turn replayed against the moves the rules give at that point (action,
 * price interval, time bound), no `illegal-turn` ending, and no deal above the list price.
 */
export function legalityProblems(results: readonly SessionResult[], rules: Rules): string[] {
  const problems: string[] = [];
  for (const result of results) {
    const where = `${result.sessionId}`;
    if (result.outcome.reason === 'illegal-turn') problems.push(`${where}: ended illegal-turn`);
    if (result.outcome.reason === 'error')
      problems.push(`${where}: ended in error: ${result.error?.message}`);
    if (result.outcome.status === 'deal' && (result.outcome.price ?? 0) > result.context.listPrice) {
      problems.push(
        `${where}: deal at ${result.outcome.price} above the list price ${result.context.listPrice}`,
      );
    }
    const history: History = [];
    for (const [index, recorded] of result.turns.entries()) {
      const { violation: _violation, ...entry } = recorded;
      const moves = legalMovesAfter(rules, result.context, history, entry.role);
      const move = moves.find((m) => m.action === entry.turn.action);
      if (!move) problems.push(`${where} turn ${index}: ${entry.turn.action} was not a legal move`);
      else if (move.price && !(entry.turn.price !== null && priceInInterval(entry.turn.price, move.price))) {
        problems.push(
          `${where} turn ${index}: price ${entry.turn.price} outside ${describeInterval(move.price)}`,
        );
      } else if (move.maxResponseHours !== undefined) {
        const previous = history[history.length - 1]?.elapsedHours ?? 0;
        if (entry.elapsedHours - previous > move.maxResponseHours + 1e-6) {
          problems.push(
            `${where} turn ${index}: landed after the standing offer lapsed or the listing ended`,
          );
        }
      }
      // The bounds from the market, checked apart from the moves (every negotiator here writes hours).
      if (entry.turn.response_time > MAX_RESPONSE_HOURS)
        problems.push(`${where} turn ${index}: response_time ${entry.turn.response_time} above 30 days`);
      if (entry.turn.message.length > MAX_MESSAGE_LENGTH)
        problems.push(`${where} turn ${index}: a message of ${entry.turn.message.length} characters`);
      for (const label of entry.turn.message_labels) {
        if (label.length > MAX_LABEL_LENGTH)
          problems.push(`${where} turn ${index}: a label of ${label.length} characters`);
      }
      history.push(entry);
    }
  }
  return problems;
}
