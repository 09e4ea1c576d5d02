import { isPricedAction } from '../contract/action.js';
import type { History } from '../contract/history.js';

/**
 * The token budget policy. When the whole prompt does not fit, turns are left out, never parts of
 * them: a turn is in the prompt whole or not at all, so no token sequence is ever cut in half (a
 * truncated message or price would be a different message or price to the model). What is kept:
 * - the listing, both profiles and the instructions: always (they define the task);
 * - the first offer: it anchors the negotiation (the first price on the table);
 * - the most recent turns: as many as fit, counted back from the latest, which is always kept (it is the
 *   turn being answered).
 * What goes: the middle, from the oldest turn on, replaced by a marker line that says which turns were
 * left out. Turns before the first offer (opening messages) go with the middle.
 */

/** Positions kept when the `recent` latest turns are kept: the first offer, then the latest. */
export function historyWindow(history: History, recent: number): number[] {
  const start = Math.max(0, history.length - recent);
  const kept: number[] = [];
  const firstOffer = history.findIndex((entry) => isPricedAction(entry.turn.action));
  if (firstOffer !== -1 && firstOffer < start) kept.push(firstOffer);
  for (let index = start; index < history.length; index++) kept.push(index);
  return kept;
}

export type FitResult<T> =
  | { fits: true; kept: number[]; measured: T }
  | { fits: false; tokens: number; measured: T };

/**
 * The largest window of the policy whose prompt fits `budget` tokens. `measure` renders the prompt for
 * the kept positions and counts its tokens. Token counts grow with the turns kept, so a binary search
 * finds the window in about log2(turns) renders; every window returned was measured and fits.
 */
export function fitHistory<T extends { tokens: number }>(
  history: History,
  budget: number,
  measure: (kept: number[]) => T,
): FitResult<T> {
  const all = history.map((_, index) => index);
  const whole = measure(all);
  if (whole.tokens <= budget) return { fits: true, kept: all, measured: whole };
  if (history.length === 0) return { fits: false, tokens: whole.tokens, measured: whole };

  const smallest = historyWindow(history, 1);
  const smallestMeasured = measure(smallest);
  if (smallestMeasured.tokens > budget) {
    return { fits: false, tokens: smallestMeasured.tokens, measured: smallestMeasured };
  }
  // Invariant: keeping `low` recent turns fits, keeping `high` does not.
  let low = 1;
  let high = history.length;
  let best = { kept: smallest, measured: smallestMeasured };
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    const kept = historyWindow(history, middle);
    const measured = measure(kept);
    if (measured.tokens <= budget) {
      low = middle;
      best = { kept, measured };
    } else {
      high = middle;
    }
  }
  return { fits: true, ...best };
}
