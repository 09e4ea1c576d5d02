import * as z from 'zod';
import { InvalidInputError, issuesFromZod } from '../contract/errors.js';

/**
 * `providerOptions.haggle` of an AI SDK call to a haggle model: sampling settings and a seed, which win
 * over the call's own `temperature`, `topP`, `topK` and `seed`. Unknown keys are refused (a misspelt
 * `sed` must not silently leave a run unseeded).
 */
export const HaggleCallSettingsSchema = z.strictObject({
  /** Seed of the sampler: with the same seed, prompt and model, the same answer (on CPU). */
  seed: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .optional(),
  temperature: z.number().min(0).max(2).optional(),
  topP: z.number().gt(0).max(1).optional(),
  topK: z.number().int().min(1).optional(),
});

/** `providerOptions.haggle` of an AI SDK call: seed and sampling for the haggle backend. */
export type HaggleCallSettings = z.infer<typeof HaggleCallSettingsSchema>;

/** Validates `providerOptions.haggle`; a bad value is an `InvalidInputError` naming the key. */
export function parseHaggleCallSettings(value: unknown): HaggleCallSettings {
  if (value === undefined) return {};
  const parsed = HaggleCallSettingsSchema.safeParse(value);
  if (!parsed.success)
    throw new InvalidInputError({
      subject: 'providerOptions.haggle',
      issues: issuesFromZod(parsed.error).map((issue) => ({
        ...issue,
        path: `providerOptions.haggle.${issue.path}`,
      })),
    });
  return parsed.data;
}
