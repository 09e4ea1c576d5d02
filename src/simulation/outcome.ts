/** Why a session ended. */
export type EndReason =
  | 'accepted'
  | 'declined'
  | 'no-response'
  | 'expired'
  | 'turn-cap'
  | 'illegal-turn'
  | 'error'
  | 'aborted';

export const END_REASONS: readonly EndReason[] = [
  'accepted',
  'declined',
  'no-response',
  'expired',
  'turn-cap',
  'illegal-turn',
  'error',
  'aborted',
];

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
