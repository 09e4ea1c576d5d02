import { type IndexedJsonlContents, readIndexedJsonl } from '../simulation/indexed-jsonl.js';
import type { MatchRecord, TournamentHeader } from './tournament-records.js';

const SESSION_RUN =
  'this is a run of sessions (haggle simulate), not a tournament file: read it with `haggle report`, `haggle show` or `haggle compare`';

/**
 * Reads a tournament's JSONL (`runTournament({ out })`, `haggle evaluate --out`): its header and its
 * matches in index order, whatever order they finished in; a final line torn by a crash is ignored.
 */
export function readTournamentFile(path: string): IndexedJsonlContents<TournamentHeader, MatchRecord> {
  return readIndexedJsonl<TournamentHeader, MatchRecord>(path, {
    headerType: 'tournament',
    recordType: 'match',
    readBy: { run: SESSION_RUN, session: SESSION_RUN },
  });
}
