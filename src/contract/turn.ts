import * as z from 'zod';
import { ActionSchema } from './action.js';
import {
  ACTION_SHAPES,
  MAX_LABELS_PER_MESSAGE,
  MAX_MESSAGE_LENGTH,
  MAX_PRICE,
  MAX_RESPONSE_TIME,
  SNAKE_CASE,
} from './turn-rules.js';

/**
 * One participant's turn, with the model's wire names (`message_labels`, `response_time`).
 * `price` is `null` when the action carries none; `message` is `""` when there is none.
 */
export const TurnSchema = z
  .strictObject({
    action: ActionSchema,
    price: z.number().finite().max(MAX_PRICE, `a price is at most ${MAX_PRICE}`).nullable(),
    message_labels: z
      .array(z.string().regex(SNAKE_CASE, 'a label is a snake_case identifier such as build_rapport'))
      .max(MAX_LABELS_PER_MESSAGE),
    message: z.string().max(MAX_MESSAGE_LENGTH),
    response_time: z.number().finite().min(0).max(MAX_RESPONSE_TIME),
  })
  .superRefine((turn, ctx) => {
    const shape = ACTION_SHAPES[turn.action];
    if (shape.price === 'positive' && !(turn.price !== null && turn.price > 0)) {
      ctx.addIssue({ code: 'custom', path: ['price'], message: `"${turn.action}" needs a price above 0` });
    }
    if (shape.price === 'none' && turn.price !== null) {
      ctx.addIssue({
        code: 'custom',
        path: ['price'],
        message: `"${turn.action}" carries no price of its own: price must be null`,
      });
    }
    if (shape.message === 'required' && turn.message.trim() === '') {
      ctx.addIssue({
        code: 'custom',
        path: ['message'],
        message: `"${turn.action}" needs a non-empty message`,
      });
    }
    if (shape.message === 'none' && turn.message !== '') {
      ctx.addIssue({
        code: 'custom',
        path: ['message'],
        message: `"${turn.action}" carries no message: message must be ""`,
      });
    }
    if (shape.labels === 'none' && turn.message_labels.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['message_labels'],
        message: 'labels name the strategy of a message: without a message there are none',
      });
    }
    if (new Set(turn.message_labels).size !== turn.message_labels.length) {
      ctx.addIssue({ code: 'custom', path: ['message_labels'], message: 'labels must not repeat' });
    }
  });

/** One participant's turn, in the model's wire names: action, price, message labels, message and response time. */
export type Turn = z.infer<typeof TurnSchema>;
