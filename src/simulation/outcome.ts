import type { EndReason } from '../rules/end-reason.js';

// The reasons belong to the rules (they decide how a thread ends); re-exported where sessions use them.
export type { EndReason } from '../rules/end-reason.js';
export { END_REASONS } from '../rules/end-reason.js';

/** How a session ended: deal or not, why, at what price, after how many turns. */
export interface SessionOutcome {
  status: 'deal' | 'no-deal';
  reason: EndReason;
  /** The agreed price for a deal; `null` otherwise. */
  price: number | null;
  /** Turns recorded, illegal ones included. */
  turns: number;
  /** Simulated hours from the first turn to the end. */
  elapsedHours: number;
}
