import type { BackendWarning, GenerateOptions } from '../backends/language-backend.js';

/**
 * Applies the server's ceiling on tokens per sample: a request that asks for more gets the ceiling
 * and a warning (its choices then end with `finish_reason: "length"`); one that names no limit gets
 * the ceiling, so no request generates without bound. A local model also stops at its context.
 */
export function capMaxTokens(
  options: GenerateOptions,
  ceiling: number,
): { options: GenerateOptions; warnings: BackendWarning[] } {
  const asked = options.maxTokens;
  if (asked !== undefined && asked <= ceiling) return { options, warnings: [] };
  const warnings: BackendWarning[] =
    asked === undefined
      ? []
      : [
          {
            type: 'other',
            message: `max_tokens ${asked} is over this server's ceiling (--max-tokens): capped to ${ceiling}`,
          },
        ];
  return { options: { ...options, maxTokens: ceiling }, warnings };
}
