import { InvalidInputError } from '../../contract/errors.js';
import { isFinished } from '../failures.js';
import type { SessionResult } from '../session-result.js';
import { DEFAULT_SHARE_MARGIN } from './equivalence.js';
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
  /**
   * `consistent` (the difference's interval lies inside ±margin), `inconsistent` (it excludes 0),
   * `too-few` (neither; `needed` sessions could tell) or `cannot-tell` (neither, and the card's own
   * sample or rounding leaves no run size that could).
   */
  verdict: Verdict;
  /** How the difference's interval was drawn (see `VerdictMethod`). */
  method: VerdictMethod;
  /** The run's share minus the published value (minus the middle of its rounding range); null when n is 0. */
  difference: number | null;
  /** The interval of `difference` at the comparison's level; null when n is 0. */
  differenceCi: [number, number] | null;
  /** The equivalence margin, a share (haggle's choice, default 0.025). */
  margin: number;
  /** Half the width the card's own sample or rounding gives the difference's interval at any run size. */
  referenceHalfWidth: number;
  /** How far the card's own interval (sample or rounding) reaches below and above its value. */
  referenceSpread: [number, number];
  /** With `fisher-exact`: Fisher's two-sided p-value of the two counts (shown; the verdict rests on the interval). */
  pValue: number | null;
  /** With `rounding-range`: the values the card's rounding allows, [low, high). */
  range: [number, number] | null;
  /** Sessions a run at the published value needs to be called consistent; null where none can. */
  needed: number | null;
  /** The row is about the model this run's negotiators use (by profile id). */
  runModel: boolean;
}

/** A run set beside a published reference set, value by value. */
export interface ReferenceComparison {
  set: { id: string; title: string; source: string; population: string; domain: string };
  /** Sessions in the run, and how many of them finished (errored and aborted ones are left out). */
  sessions: { total: number; finished: number };
  level: number;
  /** The equivalence margin every row was judged with, a share. */
  margin: number;
  rows: ReferenceRow[];
}

/** Options of `compareToReferences`; bootstrap settings passed here are ignored (every interval is exact). */
export interface ReferenceOptions {
  /** Confidence level of the intervals and tests. Default 0.95. */
  level?: number;
  /**
   * The equivalence margin, a share: `consistent` needs the difference's interval inside ±margin.
   * Default 0.025 (2.5 pp, haggle's choice: see `DEFAULT_SHARE_MARGIN`).
   */
  margin?: number;
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
  throw new InvalidInputError({
    subject: 'reference',
    issues: [{ path: 'reference', message: `no published reference set "${id}"; known sets: ${known}` }],
  });
}

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

function checkOptions(level: number, margin: number): void {
  if (!(level > 0 && level < 1))
    throw new InvalidInputError({
      subject: 'ReferenceOptions',
      issues: [{ path: 'level', message: `must lie strictly between 0 and 1, got ${level}` }],
    });
  if (!(Number.isFinite(margin) && margin > 0 && margin < 1))
    throw new InvalidInputError({
      subject: 'ReferenceOptions',
      issues: [
        {
          path: 'margin',
          message: `must be a share strictly between 0 and 1 (0.025 is 2.5 pp), got ${margin}`,
        },
      ],
    });
}

/**
 * Sets a run beside a published set: for each value, the run's share of finished sessions with its
 * exact (Clopper-Pearson) interval, the interval of its difference from the published value (which
 * counts the published value's own uncertainty as far as the card states it) and an equivalence verdict
 * against ±margin (see `judgeReference`). Deterministic: no resampling.
 */
export function compareToReferences(
  sessions: readonly SessionResult[],
  set: ReferenceSet | string,
  options: ReferenceOptions = {},
): ReferenceComparison {
  const resolved = typeof set === 'string' ? resolveReferenceSet(set) : set;
  const level = options.level ?? 0.95;
  const margin = options.margin ?? DEFAULT_SHARE_MARGIN;
  checkOptions(level, margin);
  const finished = sessions.filter(isFinished);
  const profiles = profilesOf(sessions);
  const rows = resolved.values.map((reference): ReferenceRow => {
    const n = finished.length;
    const successes = finished.filter((s) => isSuccess(reference.statistic, s)).length;
    const judged = judgeReference(successes, n, reference, level, margin);
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
    margin,
    rows,
  };
}
