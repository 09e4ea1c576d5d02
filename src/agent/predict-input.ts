import * as z from 'zod';
import { type Action, ActionSchema } from '../contract/action.js';
import { InvalidInputError, issuesFromZod } from '../contract/errors.js';
import { type History, HistorySchema, type Role, RoleSchema } from '../contract/history.js';
import { type LegalMove, LegalMovesSchema } from '../contract/legal-moves.js';
import { type ListingContext, ListingContextSchema } from '../contract/listing-context.js';
import { SeedSchema } from './agent-options.js';

// Not strict: a Session may hand negotiators more than they need, and extra keys harm nothing here.
const PredictInputSchema = z
  .object({
    context: ListingContextSchema,
    // An opening turn has no history; leaving it out is the same as [].
    history: HistorySchema.default([]),
    role: RoleSchema,
    legalActions: z.array(ActionSchema).min(1, 'at least one action must be legal').optional(),
    legalMoves: LegalMovesSchema.optional(),
  })
  .superRefine((input, ctx) => {
    if (!input.legalActions || !input.legalMoves) return;
    const fromMoves = new Set(input.legalMoves.map((move) => move.action));
    const same =
      fromMoves.size === new Set(input.legalActions).size &&
      input.legalActions.every((a) => fromMoves.has(a));
    if (!same) {
      ctx.addIssue({
        code: 'custom',
        path: ['legalActions'],
        message: 'must name the same actions as legalMoves (or be left out)',
      });
    }
  });

/** A predict input after validation, the context's defaults applied. */
export interface ValidPredictInput {
  context: ListingContext;
  history: History;
  role: Role;
  legalActions: readonly Action[] | undefined;
  legalMoves: readonly LegalMove[] | undefined;
}

export function validatePredictInput(input: unknown): ValidPredictInput {
  const parsed = PredictInputSchema.safeParse(input);
  if (!parsed.success)
    throw new InvalidInputError({ subject: 'PredictInput', issues: issuesFromZod(parsed.error) });
  return { ...parsed.data, legalActions: parsed.data.legalActions, legalMoves: parsed.data.legalMoves };
}

function isAbortSignal(value: unknown): value is AbortSignal {
  const candidate = value as Partial<AbortSignal> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.aborted === 'boolean' &&
    typeof candidate.addEventListener === 'function'
  );
}

const PredictOptionsSchema = z.object({
  signal: z.custom<AbortSignal>(isAbortSignal, 'must be an AbortSignal').optional(),
  seed: SeedSchema.optional(),
});

const SampleOptionsSchema = PredictOptionsSchema.extend({
  n: z.int('n (how many turns) is an integer').min(1, 'n (how many turns) is at least 1'),
});

/** Options of one `predict` call, validated. */
export interface ValidPredictOptions {
  signal: AbortSignal | undefined;
  seed: number | undefined;
}

/** Options of one `sample` call, validated. */
export interface ValidSampleOptions extends ValidPredictOptions {
  n: number;
}

export function validatePredictOptions(options: unknown): ValidPredictOptions {
  const parsed = PredictOptionsSchema.safeParse(options ?? {});
  if (!parsed.success)
    throw new InvalidInputError({ subject: 'PredictOptions', issues: issuesFromZod(parsed.error) });
  return { signal: parsed.data.signal, seed: parsed.data.seed };
}

export function validateSampleOptions(options: unknown): ValidSampleOptions {
  const parsed = SampleOptionsSchema.safeParse(options);
  if (!parsed.success)
    throw new InvalidInputError({ subject: 'SampleOptions', issues: issuesFromZod(parsed.error) });
  return { signal: parsed.data.signal, seed: parsed.data.seed, n: parsed.data.n };
}
