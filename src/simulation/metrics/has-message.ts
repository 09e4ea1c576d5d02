import type { SessionResult } from '../session-result.js';

/**
 * Whether a session carries a message: at least one turn that says something (`offer_with_message` or
 * `message_only` with a non-empty message). A turn that broke a rule does not count: the rules refused
 * it, so the other side never read it (the label metrics skip such turns too).
 */
export function hasMessage(result: SessionResult): boolean {
  return result.turns.some(
    (t) =>
      !t.violation &&
      (t.turn.action === 'offer_with_message' || t.turn.action === 'message_only') &&
      t.turn.message.trim() !== '',
  );
}
