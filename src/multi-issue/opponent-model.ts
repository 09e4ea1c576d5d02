import type { Role } from '../contract/history.js';
import type { Issue, IssueSpace, Outcome } from './issue-space.js';
import type { MultiIssueHistoryEntry } from './multi-issue-turn.js';

/**
 * What one side believes about the other side's private linear-additive utility, learnt from the other
 * side's offers alone. Models are built afresh from the history on every turn (negotiators keep no state
 * between calls, so one instance plays many matches at once), so `update` is called once per offer of
 * the other side, oldest first.
 */
export interface OpponentModel {
  /** Learns from the other side's next offer; `time` is the offer's round over the deadline, in [0, 1]. */
  update(offer: Outcome, time: number): void;
  /** The estimated issue weights of the other side, by issue name, summing to 1. */
  weights(): Record<string, number>;
  /** The estimated value (in [0, 1]) the other side gives `value` of issue `issue`. */
  valueEstimate(issue: string, value: number | string): number;
  /** The estimated (undiscounted) utility of `outcome` to the other side: Σ weight · value. */
  utility(outcome: Outcome): number;
  /** Plain data for tournament records. */
  describe(): { kind: string; [detail: string]: unknown };
}

/** The other side's offers in a history, oldest first, each with the round it was made in. */
export function offersOfOtherSide(
  history: readonly MultiIssueHistoryEntry[],
  role: Role,
): { offer: Outcome; round: number }[] {
  const offers: { offer: Outcome; round: number }[] = [];
  history.forEach((entry, round) => {
    if (entry.role !== role && entry.turn.action === 'offer' && entry.turn.offer)
      offers.push({ offer: entry.turn.offer, round });
  });
  return offers;
}

/** Feeds a model every offer the other side has made so far; returns the model. */
export function learnFromHistory<M extends OpponentModel>(
  model: M,
  history: readonly MultiIssueHistoryEntry[],
  role: Role,
  maxRounds: number,
): M {
  const span = Math.max(1, maxRounds - 1);
  for (const { offer, round } of offersOfOtherSide(history, role))
    model.update(offer, Math.min(1, round / span));
  return model;
}

/**
 * Where a value lies in its issue, in [0, 1]: for price and integer issues the position in the range
 * (values outside it are clamped: a model must not break on an LLM's sloppy offer), for options the
 * index over the count minus one. `undefined` for a value the issue cannot hold.
 */
export function positionInIssue(issue: Issue, value: number | string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (issue.kind === 'options') {
    const index = issue.options.indexOf(value as string);
    return index < 0 ? undefined : index / (issue.options.length - 1);
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  return Math.min(1, Math.max(0, (value - issue.min) / (issue.max - issue.min)));
}

/** The estimated utility of an outcome under estimated weights and values (shared by every model). */
export function modelledUtility(
  space: IssueSpace,
  weights: Record<string, number>,
  valueEstimate: (issue: string, value: number | string) => number,
  outcome: Outcome,
): number {
  let total = 0;
  for (const issue of space.issues) {
    const value = outcome[issue.name];
    if (value === undefined) continue;
    total += (weights[issue.name] ?? 0) * valueEstimate(issue.name, value);
  }
  return total;
}
