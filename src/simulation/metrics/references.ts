import { InvalidInputError } from '../../contract/errors.js';
import { deriveSeed } from '../../internal/random.js';
import { textTable, wrapText } from '../../internal/text-table.js';
import type { SessionResult } from '../session-result.js';
import { type BootstrapOptions, bootstrapCi, resolveBootstrapOptions } from './bootstrap.js';
import type { FormatTableOptions } from './format.js';
import {
  type PublishedValue,
  REFERENCE_SETS,
  type ReferenceSet,
  type ReferenceStatistic,
} from './published-references.js';

/** One published value beside the run's own estimate of the same statistic. */
export interface ReferenceRow {
  reference: PublishedValue;
  /** The run's value of `reference.statistic`; null when no session qualifies. */
  run: number | null;
  /** Its percentile bootstrap interval at the comparison's level; null when it cannot be drawn. */
  ci: [number, number] | null;
  /** Sessions the run's value stands on (finished ones, or finished message sessions). */
  n: number;
  /** Whether the published value lies inside the run's interval; null without an interval. */
  inside: boolean | null;
  /** The row is about the model this run's negotiators use (by profile id). */
  runModel: boolean;
}

/** A run set beside a published reference set, value by value. */
export interface ReferenceComparison {
  set: { id: string; title: string; source: string };
  /** Sessions in the run, and how many of them finished (errored and aborted ones are left out). */
  sessions: { total: number; finished: number };
  resamples: number;
  seed: number;
  level: number;
  rows: ReferenceRow[];
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

/** A session that ran to an end of its own: not cut by an error or an abort. */
function finished(session: SessionResult): boolean {
  return session.outcome.reason !== 'error' && session.outcome.reason !== 'aborted';
}

/** Some turn carries a non-empty message (see the set's note on what a "message session" is). */
export function isMessageSession(session: SessionResult): boolean {
  return session.turns.some((t) => !t.violation && t.turn.message.trim() !== '');
}

/** [numerator, denominator] of one session for a statistic; denominator 0 leaves the session out. */
function contribution(statistic: ReferenceStatistic, session: SessionResult): [number, number] {
  if (!finished(session)) return [0, 0];
  const deal = session.outcome.status === 'deal' ? 1 : 0;
  switch (statistic) {
    case 'deal-rate':
      return [deal, 1];
    case 'deal-rate-message-sessions':
      return isMessageSession(session) ? [deal, 1] : [0, 0];
    case 'message-session-share':
      return [isMessageSession(session) ? 1 : 0, 1];
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

/**
 * Sets a run beside a published set: for each value, the run's estimate of the same statistic with
 * its percentile bootstrap interval (sessions resampled; seeded), and whether the published value lies
 * inside it. Inside means the run is consistent with the number at that level; outside means the run
 * differs by more than its own sampling noise explains (the published value's own uncertainty is not
 * known, so it is taken as exact).
 */
export function compareToReferences(
  sessions: readonly SessionResult[],
  set: ReferenceSet | string,
  options: BootstrapOptions = {},
): ReferenceComparison {
  const resolved = typeof set === 'string' ? resolveReferenceSet(set) : set;
  const { resamples, seed, level } = resolveBootstrapOptions(options);
  const profiles = profilesOf(sessions);
  const rows = resolved.values.map((reference): ReferenceRow => {
    const pairs = sessions
      .map((session) => contribution(reference.statistic, session))
      .filter(([, denominator]) => denominator > 0);
    // The metrics table's stream (deriveSeed(seed, 0)): over the same sessions, the deal rate's interval
    // here is the one the table shows.
    const { value, ci } = bootstrapCi(pairs, { resamples, seed: deriveSeed(seed, 0), level });
    return {
      reference,
      run: value,
      ci,
      n: pairs.length,
      inside: ci === null ? null : reference.value >= ci[0] && reference.value <= ci[1],
      runModel: reference.profile !== undefined && profiles.has(reference.profile),
    };
  });
  return {
    set: { id: resolved.id, title: resolved.title, source: resolved.source },
    sessions: { total: sessions.length, finished: sessions.filter(finished).length },
    resamples,
    seed,
    level,
    rows,
  };
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

/** How a published value reads: `about 43%` (as precise as the source), `38.2%`. */
export function formatPublishedValue(reference: PublishedValue): string {
  return reference.approximate ? `about ${Math.round(reference.value * 100)}%` : percent(reference.value);
}

/** What the row says about the run: inside or outside the interval, or why it cannot say. */
export function referenceVerdict(row: ReferenceRow): string {
  if (row.n === 0) return 'no sessions to compare';
  if (row.inside === null) return 'too few sessions for an interval';
  return row.inside ? 'inside the interval' : 'outside the interval';
}

/** The comparison as an aligned text table (the terminal twin of the report's section). */
export function formatReferenceComparison(
  comparison: ReferenceComparison,
  options: FormatTableOptions = {},
): string {
  const width = options.width ?? Number.POSITIVE_INFINITY;
  const level = `${Math.round(comparison.level * 100)}% CI`;
  const header = ['published value', 'published', 'this run', level, 'n', 'verdict'];
  const rows = comparison.rows.map((row) => [
    `${row.reference.name}${row.runModel ? ' (this run’s model)' : ''}`,
    formatPublishedValue(row.reference),
    row.run === null ? '–' : percent(row.run),
    row.ci === null ? '–' : `[${percent(row.ci[0])}, ${percent(row.ci[1])}]`,
    String(row.n),
    referenceVerdict(row),
  ]);
  const { total, finished: done } = comparison.sessions;
  return [
    wrapText(`${comparison.set.title} (${comparison.set.id})`, width, '  '),
    textTable(header, rows, {
      align: ['left', 'right', 'right', 'right', 'right', 'left'],
      width,
      wrapFirstColumn: true,
    }),
    wrapText(
      `Run: ${done} of ${total} sessions finished (errored and aborted ones are left out of every rate). ` +
        `Intervals: percentile bootstrap over sessions, ${comparison.resamples} resamples, seed ${comparison.seed}.`,
      width,
    ),
    wrapText(`Source: ${comparison.set.source}.`, width),
  ].join('\n');
}
