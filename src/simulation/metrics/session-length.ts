import { finishedOnly } from '../failures.js';
import type { SessionResult } from '../session-result.js';
import type { MetricDefinition, MetricFamilyBuilder } from './metric.js';

/** Length bands for the comparison table; the exact distribution is `sessionLengthDistribution`. */
export const SESSION_LENGTH_BANDS: readonly { name: string; min: number; max: number }[] = [
  { name: '1 turn', min: 1, max: 1 },
  { name: '2 turns', min: 2, max: 2 },
  { name: '3 turns', min: 3, max: 3 },
  { name: '4 turns', min: 4, max: 4 },
  { name: '5-6 turns', min: 5, max: 6 },
  { name: '7-10 turns', min: 7, max: 10 },
  { name: '11+ turns', min: 11, max: Number.POSITIVE_INFINITY },
];

/** How many finished sessions took each number of turns. */
export interface SessionLengthDistribution {
  /** Finished sessions: a failed session's length says when it failed, not how long a negotiation runs. */
  sessions: number;
  /** Sessions by number of turns, from 0 to the longest, every length present (0 where none). */
  counts: { turns: number; sessions: number; share: number }[];
  mean: number | null;
}

/** Counts finished sessions by number of turns (failed ones are left out). */
export function sessionLengthDistribution(all: readonly SessionResult[]): SessionLengthDistribution {
  const sessions = finishedOnly(all);
  const lengths = sessions.map((s) => s.outcome.turns);
  const longest = lengths.reduce((a, b) => Math.max(a, b), 0);
  const counts = Array.from({ length: longest + 1 }, (_, turns) => ({ turns, sessions: 0, share: 0 }));
  for (const length of lengths) (counts[length] as { sessions: number }).sessions++;
  for (const row of counts) row.share = sessions.length === 0 ? 0 : row.sessions / sessions.length;
  // A finished session of 0 turns is rare (a rule that ends before any turn): show length 0 only then.
  const shown = counts[0]?.sessions === 0 ? counts.slice(1) : counts;
  return {
    sessions: sessions.length,
    counts: shown,
    mean: sessions.length === 0 ? null : lengths.reduce((a, b) => a + b, 0) / sessions.length,
  };
}

export const sessionLengthMetrics: MetricFamilyBuilder = () => {
  const metrics: MetricDefinition[] = [
    {
      id: 'session-length/mean',
      family: 'session-length',
      name: 'mean turns per session',
      unit: 'turns',
      contribution: (f) => [f.turns, 1],
    },
  ];
  for (const band of SESSION_LENGTH_BANDS) {
    metrics.push({
      id: `session-length/${band.min}${band.max === band.min ? '' : band.max === Number.POSITIVE_INFINITY ? '+' : `-${band.max}`}`,
      family: 'session-length',
      name: `sessions of ${band.name}`,
      unit: 'share',
      contribution: (f) => [f.turns >= band.min && f.turns <= band.max ? 1 : 0, 1],
    });
  }
  return metrics;
};
