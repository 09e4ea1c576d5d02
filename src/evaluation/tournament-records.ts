import type { Role } from '../contract/history.js';
import type { MultiIssueResult } from '../multi-issue/multi-issue-negotiation.js';
import type { RunProvenance } from '../simulation/provenance.js';
import type { Shard } from '../simulation/shard.js';
import type { ExperimentRecord } from './experiment-record.js';
import type { ParticipantLabels } from './participant-label.js';

// The records a tournament file holds, apart from the code that writes them (tournament.ts) and the
// code that reads them (tournament-file.ts, tournament-results.ts), so those need not import each other.

/** How one match went, with the scores a paper reports. */
export interface MatchMetrics {
  deal: boolean;
  /** The arm's utility of the result (its reservation value without a deal). */
  armUtility: number;
  opponentUtility: number;
  /** Distance in utility space from the result to the Nash point and to the Pareto frontier (deals only). */
  distanceToNash: number | null;
  distanceToPareto: number | null;
  /** The arm agreed to less than its reservation value. */
  armIrViolation: boolean;
  rounds: number;
}

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
