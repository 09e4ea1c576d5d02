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

/** Every way a session can end. */
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
