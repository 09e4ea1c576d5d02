import { deriveSeed, hashString } from '../../internal/random.js';
import type { TestOptions } from '../../simulation/metrics/difference-tests.js';
import type { ParticipantLabels } from '../participant-label.js';
import type { MatchRecord, TournamentHeader } from '../tournament.js';
import type { AnalysisMetric } from './analysis-metric.js';

/** What every analysis reads: a tournament's matches and (for labels) its header. */
export interface TournamentData {
  header?: TournamentHeader;
  records: readonly MatchRecord[];
}

/** Options every analysis takes: metrics, labels, seed and resampling. */
export interface AnalysisOptions {
  /** Metrics compared. Default all of `ANALYSIS_METRICS`; fewer tests make Holm's adjustment milder. */
  metrics?: readonly AnalysisMetric[];
  /** Labels to use instead of the header's (to add a base or a family after the run). */
  labels?: ParticipantLabels;
  /** Seed of every bootstrap and Monte Carlo permutation; each test derives its own from its name. */
  seed?: number;
  resamples?: number;
  permutations?: number;
  exactUpTo?: number;
}

export function labelsOf(data: TournamentData, options: AnalysisOptions): ParticipantLabels {
  return options.labels ?? data.header?.labels ?? {};
}

/**
 * Test options for one named test: its seed is derived from the report's seed and the test's name, so
 * a test's numbers do not depend on which other tests the report holds or their order.
 */
export function testOptions(options: AnalysisOptions, name: string): TestOptions {
  return {
    seed: deriveSeed(options.seed ?? 0, hashString(name)),
    ...(options.resamples !== undefined ? { resamples: options.resamples } : {}),
    ...(options.permutations !== undefined ? { permutations: options.permutations } : {}),
    ...(options.exactUpTo !== undefined ? { exactUpTo: options.exactUpTo } : {}),
  };
}

/** Arms and opponents in the order they first appear in the records (the tournament's order). */
export function namesOf(records: readonly MatchRecord[]): { arms: string[]; opponents: string[] } {
  return {
    arms: [...new Set(records.map((m) => m.arm))],
    opponents: [...new Set(records.map((m) => m.opponent))],
  };
}
