import * as z from 'zod';

/** The six actions of the model card, in the card's order. */
export const ACTIONS = [
  'offer',
  'offer_with_message',
  'accept',
  'decline',
  'message_only',
  'no_response',
] as const;

/** Validates an action name: one of `ACTIONS`. */
export const ActionSchema = z.enum(ACTIONS);
/** What a turn does: `offer`, `offer_with_message`, `accept`, `decline`, `message_only` or `no_response`. */
export type Action = z.infer<typeof ActionSchema>;

/** Actions that put a new price on the table (and so must carry a positive `price`). */
export const PRICED_ACTIONS: ReadonlySet<Action> = new Set(['offer', 'offer_with_message']);

/** Actions that carry a message (and so a non-empty `message`, and may carry labels). */
export const MESSAGE_ACTIONS: ReadonlySet<Action> = new Set(['offer_with_message', 'message_only']);

/** Whether an action puts a new price on the table (and so carries a positive `price`). */
export function isPricedAction(action: Action): boolean {
  return PRICED_ACTIONS.has(action);
}

/** Whether an action carries a message (and so may carry labels). */
export function isMessageAction(action: Action): boolean {
  return MESSAGE_ACTIONS.has(action);
}
