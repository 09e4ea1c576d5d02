import { RunFileError } from '../simulation/errors.js';
import { shardSize } from '../simulation/shard.js';
import type { TournamentData } from './analysis/analysis-input.js';
import type { MatchRecord, TournamentHeader } from './tournament.js';
import { readTournamentFile } from './tournament-file.js';
import { type TournamentResults, tabulateTournament } from './tournament-results.js';

/** A tournament file read back: what `analyseTournament` takes, its scores, and whether it is complete. */
export interface LoadedTournament extends TournamentData {
  header: TournamentHeader;
  /** Matches in index order. */
  records: MatchRecord[];
  /** Scores and failure counts, as `runTournament(...).done()` returned them. */
  results: TournamentResults;
  /** Matches the file should hold (its shard's share of `header.matches`) and those it lacks. */
  expected: number;
  missing: number;
}

/**
 * Reads a tournament's JSONL (`runTournament({ out })`, `haggle evaluate --out`) for reanalysis: the
 * header (with its labels), the matches, their scores, and how many matches an interrupted run lacks.
 * Refuses, with a `RunFileError`, a file that is not a tournament's.
 */
export function loadTournament(path: string): LoadedTournament {
  const { header, records } = readTournamentFile(path);
  // The format of haggle/env's best-offer run files (a layer above this one, so named here, not imported).
  if ((header?.format as string | undefined) === 'haggle-best-offer-episodes')
    throw new RunFileError({
      path,
      message:
        'holds best-offer training episodes (haggle env serve --env best-offer-*), Best Offer sessions rather than multi-issue matches: `haggle env sessions FILE --out SESSIONS.jsonl` writes them as the session lines `haggle report`, `haggle show` and `haggle compare` read',
    });
  if (header === undefined || header.format !== 'haggle-tournament') {
    throw new RunFileError({
      path,
      message:
        'holds no tournament header (its first line): write one with `haggle evaluate --out` or runTournament({ out })',
    });
  }
  const expected = shardSize(header.matches, header.shard);
  const results = { ...tabulateTournament(records), header };
  return { header, records, results, expected, missing: Math.max(0, expected - records.length) };
}
