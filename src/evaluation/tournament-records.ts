import type { Role } from '../contract/history.js';
import type { MatchMetrics } from '../multi-issue/match-metrics.js';
import type { MultiIssueResult } from '../multi-issue/multi-issue-negotiation.js';
import type { RunProvenance } from '../simulation/provenance.js';
import type { Shard } from '../simulation/shard.js';
import type { ExperimentRecord } from './experiment-record.js';
import type { ParticipantLabels } from './participant-label.js';

// The records a tournament file holds, apart from the code that writes them (tournament.ts) and the
// code that reads them (tournament-file.ts, tournament-results.ts), so those need not import each other.
// A match's scores are the game's (src/multi-issue/match-metrics.ts), the same a training episode reports.
export type { MatchMetrics } from '../multi-issue/match-metrics.js';

/** One match of a tournament as written to its file: who played, how it ended, and the utilities. */
export interface MatchRecord {
  type: 'match';
  index: number;
  arm: string;
  armRole: Role;
  opponent: string;
  scenarioId: string;
  seed: number;
  metrics: MatchMetrics;
  result: MultiIssueResult;
}

/** The first line of a tournament file: format, suite, arms, opponents and provenance. */
export interface TournamentHeader {
  type: 'tournament';
  format: 'haggle-tournament';
  version: 1;
  suiteId: string;
  /** Matches in the whole tournament (of all shards together). */
  matches: number;
  /** Present when the file holds one shard of the tournament. */
  shard?: Shard;
  config: Record<string, unknown>;
  /** The arms' and opponents' labels (family, training pool, base), when the run gave them. */
  labels?: ParticipantLabels;
  /** The experiment (file) the tournament ran, without secrets or server locations, and its hash. */
  experiment?: ExperimentRecord;
  /** haggle, Node, platform and backend locations; never compared on resume (see simulation/provenance.ts). */
  provenance?: RunProvenance;
}
