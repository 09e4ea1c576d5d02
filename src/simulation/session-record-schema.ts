import * as z from 'zod';
import { RoleSchema } from '../contract/history.js';
import { ListingContextSchema } from '../contract/listing-context.js';
import { turnSchemaWithin } from '../contract/turn.js';
import { MAX_READ_MESSAGE_LENGTH, maxResponseTime } from '../contract/turn-rules.js';
import { END_REASONS } from './outcome.js';

/**
 * The shape of one session line of a run file. Run files are also how real sessions come in (to be
 * compared with simulated ones), so every line is checked when read: a metric computed from a record
 * with a missing list price or an outcome that contradicts its turns would be a wrong number nobody sees.
 * Objects are not strict, so later versions may add fields.
 */
/**
 * A recorded turn: the turn rules, but with the looser bounds of the files haggle wrote before labels
 * and response times were bounded by the market (labels of any length, a response time of up to 30
 * days in any unit, messages of up to `MAX_READ_MESSAGE_LENGTH`), so those files and real sessions stay
 * readable; a new run's turns meet `TurnSchema` when played.
 */
const RecordedTurnSchema = z.object({
  role: RoleSchema,
  turn: turnSchemaWithin({
    maxResponseTime: maxResponseTime('seconds'),
    maxLabelLength: undefined,
    maxMessageLength: MAX_READ_MESSAGE_LENGTH,
  }),
  elapsedHours: z.number().finite().min(0),
  violation: z.string().optional(),
});

const OutcomeSchema = z
  .object({
    status: z.enum(['deal', 'no-deal']),
    reason: z.enum(END_REASONS as [string, ...string[]]),
    price: z.number().finite().positive().nullable(),
    turns: z.number().int().min(0),
    elapsedHours: z.number().finite().min(0),
  })
  .refine((o) => (o.status === 'deal') === (o.reason === 'accepted'), {
    message: 'a deal is exactly an outcome with reason "accepted"',
  })
  .refine((o) => (o.status === 'deal') === (o.price !== null), {
    message: 'a deal carries its price; no deal carries none',
  });

const DescriptionSchema = z.object({ kind: z.string() });

export const SessionRecordSchema = z
  .object({
    type: z.literal('session'),
    index: z.number().int().min(0),
    sessionId: z.string(),
    seed: z.number().int().min(0),
    context: ListingContextSchema,
    turns: z.array(RecordedTurnSchema),
    outcome: OutcomeSchema,
    negotiators: z.object({ buyer: DescriptionSchema, seller: DescriptionSchema }),
    rules: z.record(z.string(), z.unknown()),
    error: z.object({ name: z.string(), message: z.string() }).optional(),
    warnings: z.array(z.object({ role: RoleSchema, warning: z.unknown() })).optional(),
  })
  .refine((r) => r.outcome.turns === r.turns.length, {
    path: ['outcome', 'turns'],
    message: 'must equal the number of recorded turns',
  });
