import { InvalidInputError } from '../../contract/errors.js';
import { isFinished } from '../failures.js';
import type { SessionResult } from '../session-result.js';
import { hasMessage } from './message-sessions.js';
import { clopperPearson } from './proportion-tests.js';
import {
  type PublishedValue,
  REFERENCE_SETS,
  type ReferenceSet,
  type ReferenceStatistic,
} from './published-references.js';
import { judgeReference, type Verdict, type VerdictMethod } from './reference-verdict.js';

/** One published value beside the run's own estimate of the same statistic, with a verdict. */
export interface ReferenceRow {
  reference: PublishedValue;
  /** The run's value of `reference.statistic`; null when no session qualifies. */
  run: number | null;
  /** The sessions that count as a success (deals, message sessions) of `n`. */
  successes: number;
  /** Sessions the run's value stands on: the finished ones. */
  n: number;
  /** The run's Clopper-Pearson interval at the comparison's level; null when n is 0. */
  ci: [number, number] | null;
  /** `consistent`, `inconsistent` or `too-few` (too few sessions to tell a 2 pp difference). */
  verdict: Verdict;
  /** How the verdict was reached (see `VerdictMethod`). */
  method: VerdictMethod;
  /** With `fisher-exact`: the test's two-sided p-value. */
  pValue: number | null;
  /** With `rounding-range`: the values the card's rounding allows, [low, high). */
  range: [number, number] | null;
  /** Sessions a run needs to tell a 2 pp difference from this value. */
  needed: number;
  /** The row is about the model this run's negotiators use (by profile id). */
  runModel: boolean;
}

/** A run set beside a published reference set, value by value. */
export interface ReferenceComparison {
  set: { id: string; title: string; source: string; population: string; domain: string };
  /** Sessions in the run, and how many of them finished (errored and aborted ones are left out). */
  sessions: { total: number; finished: number };
  level: number;
  rows: ReferenceRow[];
}

/** Options of `compareToReferences`; bootstrap settings passed here are ignored (every interval is exact). */
export interface ReferenceOptions {
  /** Confidence level of the intervals and tests. Default 0.95. */
  level?: number;
}

/** Whether a `--reference` value names a published set (`card:...`) rather than a run file. */
export function isReferenceSetId(value: string): boolean {
  return value.startsWith('card:');
}

/** The published set with this id or alias; an `InvalidInputError` naming the known ids otherwise. */
export function resolveReferenceSet(id: string): ReferenceSet {
  const found = REFERENCE_SETS.find((set) => set.id === id || set.aliases.includes(id));
  if (found) return found;
  const known = REFERENCE_SETS.flatMap((set) => [set.id, ...set.aliases]).join(', ');
  throw new InvalidInputError('reference', [
    { path: 'reference', message: `no published reference set "${id}"; known sets: ${known}` },
  ]);
}

/**
 * @deprecated Use `hasMessage`: the one definition of a message session (a turn that broke no rule
 * carries a non-empty message).
 */
export const isMessageSession: (session: SessionResult) => boolean = hasMessage;

function isSuccess(statistic: ReferenceStatistic, session: SessionResult): boolean {
  switch (statistic) {
    case 'deal-rate':
      return session.outcome.status === 'deal';
    case 'message-session-share':
      return hasMessage(session);
  }
}

function profilesOf(sessions: readonly SessionResult[]): Set<string> {
  const profiles = new Set<string>();
  for (const session of sessions.slice(0, 1)) {
    for (const side of [session.negotiators.buyer, session.negotiators.seller]) {
      if (typeof side?.profile === 'string') profiles.add(side.profile);
    }
  }
  return profiles;
}

function checkLevel(level: number): void {
  if (!(level > 0 && level < 1))
    throw new InvalidInputError('ReferenceOptions', [
      { path: 'level', message: `must lie strictly between 0 and 1, got ${level}` },
    ]);
}

/**
 * Sets a run beside a published set: for each value, the run's share of finished sessions with its
 * exact (Clopper-Pearson) interval, and a verdict that counts the published value's own uncertainty
 * as far as the card states it (see `judgeReference`). Deterministic: no resampling.
 */
export function compareToReferences(
  sessions: readonly SessionResult[],
  set: ReferenceSet | string,
  options: ReferenceOptions = {},
): ReferenceComparison {
  const resolved = typeof set === 'string' ? resolveReferenceSet(set) : set;
  const level = options.level ?? 0.95;
  checkLevel(level);
  const finished = sessions.filter(isFinished);
  const profiles = profilesOf(sessions);
  const rows = resolved.values.map((reference): ReferenceRow => {
    const n = finished.length;
    const successes = finished.filter((s) => isSuccess(reference.statistic, s)).length;
    const judged = judgeReference(successes, n, reference, level);
    return {
      reference,
      run: n === 0 ? null : successes / n,
      successes,
      n,
      ci: n === 0 ? null : clopperPearson(successes, n, level),
      ...judged,
      runModel: reference.profile !== undefined && profiles.has(reference.profile),
    };
  });
  return {
    set: {
      id: resolved.id,
      title: resolved.title,
      source: resolved.source,
      population: resolved.population,
      domain: resolved.domain,
    },
    sessions: { total: sessions.length, finished: finished.length },
    level,
    rows,
  };
}
