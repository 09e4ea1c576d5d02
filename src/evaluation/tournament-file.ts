import { type IndexedJsonlContents, readIndexedJsonl } from '../simulation/indexed-jsonl.js';
import type { MatchRecord, TournamentHeader } from './tournament-records.js';

/**
 * Reads a tournament's JSONL (`runTournament({ out })`, `haggle evaluate --out`): its header and its
 * matches in index order, whatever order they finished in; a final line torn by a crash is ignored.
 */
export function readTournamentFile(path: string): IndexedJsonlContents<TournamentHeader, MatchRecord> {
  return readIndexedJsonl<TournamentHeader, MatchRecord>(path, {
    headerType: 'tournament',
    recordType: 'match',
  });
}
