import * as z from 'zod';
import { TurnOfAnyUnitSchema } from './turn.js';

/** Validates a side: `buyer` or `seller`. */
export const RoleSchema = z.enum(['buyer', 'seller']);
/** A side of a negotiation: `buyer` or `seller`. */
export type Role = z.infer<typeof RoleSchema>;

/** The other side. */
export function opponentOf(role: Role): Role {
  return role === 'buyer' ? 'seller' : 'buyer';
}

/**
 * One turn as it happened: who took it, what it was, and when (hours since the session started). The
 * turn is in its own negotiator's unit, which a history does not record, hence `TurnOfAnyUnitSchema`.
 */
export const HistoryEntrySchema = z.strictObject({
  role: RoleSchema,
  turn: TurnOfAnyUnitSchema,
  elapsedHours: z.number().finite().min(0),
});
/** One turn as it happened: who took it, what it was, and when. */
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

/** Validates a conversation: turns in order, with times that never go back. */
export const HistorySchema = z.array(HistoryEntrySchema).superRefine((history, ctx) => {
  for (let i = 1; i < history.length; i++) {
    const previous = history[i - 1];
    const current = history[i];
    if (previous && current && current.elapsedHours < previous.elapsedHours) {
      ctx.addIssue({
        code: 'custom',
        path: [i, 'elapsedHours'],
        message: 'time runs forwards: elapsedHours must not be smaller than the previous entry',
      });
    }
  }
});
/** The turns of a negotiation so far, oldest first. */
export type History = z.infer<typeof HistorySchema>;
