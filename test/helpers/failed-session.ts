import type { SessionResult } from '../../src/index.js';

/**
 * A session that failed part-way, as `Session` records one: a copy of `of` cut to its first
 * `turnsKept` turns, ended with reason `error` (a negotiator threw) or `aborted`, carrying `error`.
 */
export function failedCopy(
  of: SessionResult,
  reason: 'error' | 'aborted',
  error: { name: string; message: string } | undefined,
  turnsKept = 1,
): SessionResult {
  const turns = of.turns.slice(0, turnsKept);
  const { error: _none, ...rest } = of;
  return {
    ...rest,
    sessionId: `${of.sessionId}-failed`,
    turns,
    outcome: {
      status: 'no-deal',
      reason,
      price: null,
      turns: turns.length,
      elapsedHours: turns.at(-1)?.elapsedHours ?? 0,
    },
    ...(error ? { error } : {}),
  };
}
