import * as z from 'zod';
import { ActionSchema } from './action.js';
import type { TimeUnit } from './time-unit.js';
import {
  ACTION_SHAPES,
  MAX_LABEL_LENGTH,
  MAX_LABELS_PER_MESSAGE,
  MAX_MESSAGE_LENGTH,
  MAX_PRICE,
  MAX_READ_MESSAGE_LENGTH,
  MAX_RESPONSE_TIME,
  maxResponseTime,
  SNAKE_CASE,
} from './turn-rules.js';

/** The bounds a turn schema checks that depend on where the turn comes from. */
export interface TurnBounds {
  /** Longest `response_time`, in the turn's own unit. */
  maxResponseTime: number;
  /** Longest label in characters; `undefined`: no bound (only for reading records older than the bound). */
  maxLabelLength: number | undefined;
  /**
   * Longest message in UTF-16 code units: `MAX_MESSAGE_LENGTH` for a turn being written,
   * `MAX_READ_MESSAGE_LENGTH` for one being read (a history's turns, a run file's records).
   */
  maxMessageLength: number;
}

export const TurnSchema = turnSchemaWithin({
  maxResponseTime: MAX_RESPONSE_TIME,
  maxLabelLength: MAX_LABEL_LENGTH,
  maxMessageLength: MAX_MESSAGE_LENGTH,
});

/** One participant's turn, in the model's wire names: action, price, message labels, message and response time. */
export type Turn = z.infer<typeof TurnSchema>;

const bySchemaUnit = new Map<TimeUnit, typeof TurnSchema>();

/**
 * `TurnSchema` for a turn whose `response_time` is written in `unit` (a profile's `responseTimeUnit`):
 * the same rules, with the response-time bound of `maxResponseTime(unit)`.
 */
export function turnSchemaFor(unit: TimeUnit): typeof TurnSchema {
  let schema = bySchemaUnit.get(unit);
  if (!schema) {
    schema = turnSchemaWithin({
      maxResponseTime: maxResponseTime(unit),
      maxLabelLength: MAX_LABEL_LENGTH,
      maxMessageLength: MAX_MESSAGE_LENGTH,
    });
    bySchemaUnit.set(unit, schema);
  }
  return schema;
}

/**
 * A turn whose unit is not known where it is checked: a history holds both sides' turns, each in its
 * own negotiator's unit. Its response time is bounded by the longest listing in the finest unit
 * (seconds); the rules and the agent check each turn in its own unit. A history is read, not written
 * (it may hold real sessions), so its messages have the reading bound, `MAX_READ_MESSAGE_LENGTH`.
 */
export const TurnOfAnyUnitSchema = turnSchemaWithin({
  maxResponseTime: maxResponseTime('seconds'),
  maxLabelLength: MAX_LABEL_LENGTH,
  maxMessageLength: MAX_READ_MESSAGE_LENGTH,
});

/** The turn rules with the given bounds; `TurnSchema` and `turnSchemaFor` are the ones to use. */
export function turnSchemaWithin(bounds: TurnBounds) {
  const label = z.string().regex(SNAKE_CASE, 'a label is a snake_case identifier such as build_rapport');
  return z
    .strictObject({
      action: ActionSchema,
      price: z.number().finite().max(MAX_PRICE, `a price is at most ${MAX_PRICE}`).nullable(),
      message_labels: z
        .array(
          bounds.maxLabelLength === undefined
            ? label
            : label.max(bounds.maxLabelLength, `a label has at most ${bounds.maxLabelLength} characters`),
        )
        .max(MAX_LABELS_PER_MESSAGE),
      message: z
        .string()
        .max(bounds.maxMessageLength, `a message has at most ${bounds.maxMessageLength} characters`),
      response_time: z
        .number()
        .finite()
        .min(0)
        .max(
          bounds.maxResponseTime,
          `a response time is at most ${bounds.maxResponseTime} (30 days, the longest a listing runs)`,
        ),
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
}
