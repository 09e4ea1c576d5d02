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

export const ActionSchema = z.enum(ACTIONS);
export type Action = z.infer<typeof ActionSchema>;

/** Actions that put a new price on the table (and so must carry a positive `price`). */
export const PRICED_ACTIONS: ReadonlySet<Action> = new Set(['offer', 'offer_with_message']);

/** Actions that carry a message (and so a non-empty `message`, and may carry labels). */
export const MESSAGE_ACTIONS: ReadonlySet<Action> = new Set(['offer_with_message', 'message_only']);

export function isPricedAction(action: Action): boolean {
  return PRICED_ACTIONS.has(action);
}

export function isMessageAction(action: Action): boolean {
  return MESSAGE_ACTIONS.has(action);
}
