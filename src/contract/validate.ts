import type { z } from 'zod';
import { InvalidInputError, issuesFromZod, type ValidationIssue } from './errors.js';

/** Parses `value` with `schema`, or throws an `InvalidInputError` naming `subject` and every issue. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, subject: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new InvalidInputError({ subject, issues: issuesFromZod(result.error) });
  return result.data;
}

/** The result of `checkInput`: the parsed value, or the issues found. */
export type SafeParseOutcome<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

/** Like `parseInput` but returns the issues instead of throwing. */
export function checkInput<S extends z.ZodType>(schema: S, value: unknown): SafeParseOutcome<z.output<S>> {
  const result = schema.safeParse(value);
  return result.success
    ? { ok: true, value: result.data }
    : { ok: false, issues: issuesFromZod(result.error) };
}
