import { issuesFromZod } from '../contract/errors.js';
import { RunFileError } from './errors.js';
import { type IndexedJsonlContents, readIndexedJsonl } from './indexed-jsonl.js';
import type { RunProvenance } from './provenance.js';
import { SessionRecordSchema } from './session-record-schema.js';
import type { SessionResult } from './session-result.js';
import type { Shard } from './shard.js';

/**
 * A run's JSONL file: a header line describing the run, then one line per finished session. While a
 * run plays, sessions are appended as they finish (each line carries its `index`); a run that completes
 * rewrites the file in session order. Lines hold no wall-clock times, so the same seed gives the same
 * bytes at any concurrency.
 */

// The constants live apart so that code without file access (the browser build of simulate) can name them.
import type { RUN_FILE_FORMAT } from './run-file-format.js';

export { RUN_FILE_FORMAT, RUN_FILE_VERSION } from './run-file-format.js';

/** The first line of a run file: format, version, seed, sessions, shard, settings and provenance. */
export interface RunHeader {
  type: 'run';
  format: typeof RUN_FILE_FORMAT;
  version: number;
  seed: number;
  /** Sessions in the whole run (of all shards together). */
  sessions: number;
  /** Present when this file holds one shard of the run: the sessions whose index % count === index - 1. */
  shard?: Shard;
  /** Everything that decides the sessions' content; a resumed run must match it exactly. */
  config: Record<string, unknown>;
  /**
   * What produced the run and where: haggle's version, Node, platform, server URLs. Never compared on
   * resume (see provenance.ts); absent from files written before haggle recorded it.
   */
  provenance?: RunProvenance;
}

export interface SessionRecord extends SessionResult {
  type: 'session';
  /** Position of the session in the run, 0-based. */
  index: number;
}

export type RunFileLine = RunHeader | SessionRecord;

export { RunFileError } from './errors.js';

/** What a run file holds: its header (if any) and its complete session lines, in index order. */
export interface RunFileContents extends Omit<IndexedJsonlContents<RunHeader, SessionRecord>, 'records'> {
  sessions: SessionRecord[];
}

// `haggle evaluate`, runTournament() and `haggle env serve` write these; show and compare read sessions,
// not matches (report reads both, before it gets here).
const TOURNAMENT_FILE_WORDS =
  'this is a tournament file (haggle evaluate, runTournament, haggle env serve), not a run of sessions: read it with `haggle analyse` (or `haggle report` for a page)';
const TOURNAMENT_FILE = { tournament: TOURNAMENT_FILE_WORDS, match: TOURNAMENT_FILE_WORDS };

/**
 * Reads a run file: the sessions in index order (a run appends them as they finish), each validated,
 * ignoring a final line torn by a crash (it has no newline yet). A file without a run header (real
 * sessions) keeps its own order.
 */
export function readRunFile(path: string): RunFileContents {
  const { records, ...rest } = readIndexedJsonl<RunHeader, SessionRecord>(path, {
    headerType: 'run',
    recordType: 'session',
    check: (value, lineNumber) => checkSessionLine(path, lineNumber, value),
    readBy: TOURNAMENT_FILE,
  });
  return { ...rest, sessions: records };
}

function checkSessionLine(path: string, lineNumber: number, value: unknown): void {
  const parsed = SessionRecordSchema.safeParse(value);
  if (parsed.success) return;
  const issues = issuesFromZod(parsed.error)
    .slice(0, 3)
    .map((issue) => `${issue.path}: ${issue.message}`)
    .join('; ');
  throw new RunFileError({ path, message: `line ${lineNumber} is not a valid session record: ${issues}` });
}

/** Loads the sessions of a run file (or of real sessions written in the same record format). */
export function loadSessions(path: string): SessionResult[] {
  return readRunFile(path).sessions;
}
