import type { HistoryEntry, Role } from '../contract/history.js';
import type { ListingContext } from '../contract/listing-context.js';
import type { NegotiatorDescription } from '../contract/negotiator.js';
import type { SessionOutcome } from './outcome.js';

/** A turn as the session recorded it: the history entry plus the rule it broke, if any. */
export interface RecordedTurn extends HistoryEntry {
  violation?: string;
}

/** Everything needed to read, score or replay one session; the unit of a run's JSONL. */
export interface SessionResult {
  sessionId: string;
  seed: number;
  context: ListingContext;
  turns: RecordedTurn[];
  outcome: SessionOutcome;
  negotiators: { buyer: NegotiatorDescription; seller: NegotiatorDescription };
  rules: Record<string, unknown>;
  /** Present when the session ended because something failed. */
  error?: { name: string; message: string };
  /**
   * Backend warnings (a setting a backend could not honour, a fallback) that the negotiators had
   * reported by the end of this session, e.g. `NegotiationAgent.warnings`. Left out when there are none.
   */
  warnings?: SessionWarning[];
}

/** A warning a negotiator's backend reported, with the side it came from. */
export interface SessionWarning {
  role: Role;
  warning: unknown;
}
