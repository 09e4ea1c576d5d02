import { closeSync, openSync, statSync } from 'node:fs';
import { fileStep, RunFileError } from './errors.js';
import { firstLineType, type IndexedJsonlContents } from './indexed-jsonl.js';
import { sameRunSettings } from './provenance.js';
import { lockRunFile, type RunFileLock } from './run-file-lock.js';
import { RunWriter, readSegments, writeAtomically } from './run-writer.js';

/** A run's output file, open for appending, with the records a resumed file already held. */
export interface RunOutput<Record extends { index: number }> {
  writer: RunWriter<Record>;
  /** Records kept from the resumed file, in index order (none for a new file). */
  kept: Record[];
}

/** Whether `path` is a file with something in it (an empty file holds nothing to lose). */
export function holdsData(path: string): boolean {
  try {
    const stats = statSync(path);
    return stats.isFile() && stats.size > 0;
  } catch {
    return false; // missing, or unreadable: opening it says which, with the path
  }
}

export interface OpenRunOutputOptions<Header, Record extends { index: number }> {
  path: string;
  resume: boolean;
  /** Replace a file that holds data; without it (or `resume`) such a file is refused. */
  overwrite: boolean;
  header: Header;
  /** Reads (and validates) a file of this kind. */
  read: (path: string) => IndexedJsonlContents<Header, Record>;
  /** Whether a record index belongs to this run (its range, its shard). */
  plays: (index: number) => boolean;
  /** What the file holds, for messages: `run` and `session`, `tournament` and `match`. */
  kind: string;
  noun: string;
  /**
   * Records a resume plays again instead of keeping (a session that failed: it is no result, and the
   * server that failed it may be back). They are taken out of the file before anything is appended,
   * so the file never holds an index twice.
   */
  replay?: (record: Record) => boolean;
  /** Told when a stale lock (of a writer that no longer runs) was taken over. */
  onNote?: (message: string) => void;
}

/** Who writes each kind of file, and how it is resumed: for the message that refuses another kind. */
const WRITERS = new Map([
  ['run', { noun: 'a simulation run', verb: 'haggle simulate', api: 'simulate()' }],
  ['tournament', { noun: 'a tournament', verb: 'haggle evaluate', api: 'runTournament()' }],
]);

/**
 * Starts the output file, or continues it when resuming, holding the file's lock (run-file-lock.ts)
 * from before anything is read for keeps, cut or truncated: a second writer is refused with
 * `RunFileLockedError`. A resumed file must be one this kind of run wrote with the same settings: a
 * file without a header (someone else's data) or with another header is refused, and nothing is cut
 * from a file that is refused. An empty or missing file simply starts. The writer releases the lock.
 */
export function openRunOutput<Header, Record extends { index: number }>(
  options: OpenRunOutputOptions<Header, Record>,
): RunOutput<Record> {
  const lock = lockRunFile(options.path, options.onNote ? { onNote: options.onNote } : {});
  try {
    return openLocked(options, lock);
  } catch (error) {
    lock.release();
    throw error;
  }
}

function openLocked<Header, Record extends { index: number }>(
  options: OpenRunOutputOptions<Header, Record>,
  lock: RunFileLock,
): RunOutput<Record> {
  const { path, kind, noun } = options;
  const hasData = holdsData(path);
  // Checked again under the lock: a writer that finished since the caller's check may have filled it.
  if (hasData && !options.resume && !options.overwrite) {
    throw new RunFileError({
      path,
      message:
        'already holds data; resume its run (--resume, resume: true) or replace it (--overwrite, overwrite: true)',
    });
  }
  if (!options.resume || !hasData) {
    return { writer: RunWriter.start<Record>(path, options.header, lock), kept: [] };
  }
  // Someone else's file is refused before it is parsed: its lines need not be ours to be kept intact.
  const type = firstLineType(path);
  const contents = type === kind ? options.read(path) : undefined;
  if (contents?.header === undefined) throw otherKind(path, kind, type);
  if (!sameRunSettings(contents.header as object, options.header as object)) {
    throw new RunFileError({
      path,
      message:
        `was written by a ${kind} with other settings (its header differs); resume it with the same settings, ` +
        'or replace it with overwrite (--overwrite)',
    });
  }
  const stray = contents.records.find((record) => !options.plays(record.index));
  if (stray !== undefined) {
    throw new RunFileError({
      path,
      message: `holds ${noun} ${stray.index}, which this ${kind} does not play`,
    });
  }
  const replayed = options.replay ? contents.records.filter(options.replay) : [];
  if (replayed.length === 0) {
    return { writer: RunWriter.continue<Record>(path, contents, lock), kept: contents.records };
  }
  dropRecords(path, contents, new Set(replayed.map((record) => record.index)));
  const rest = options.read(path);
  return { writer: RunWriter.continue<Record>(path, rest, lock), kept: rest.records };
}

/** The refusal of a file this kind of run did not write, naming what did and what resumes it. */
function otherKind(path: string, kind: string, type: unknown): RunFileError {
  const ours = WRITERS.get(kind);
  const theirs = typeof type === 'string' ? WRITERS.get(type) : undefined;
  if (theirs === undefined || ours === undefined || theirs === ours)
    return new RunFileError({
      path,
      message:
        `has no ${kind} header (its first line), so no haggle ${kind} wrote it: refusing to resume or change it. ` +
        'Choose another output file, or replace this one with overwrite (--overwrite)',
    });
  return new RunFileError({
    path,
    message:
      `holds ${theirs.noun} (written by ${theirs.verb}, ${theirs.api}), not ${ours.noun}: resume it with ` +
      `${theirs.verb} --resume (${theirs.api} with resume: true). Refusing to change it here: choose another ` +
      'output file, or replace this one with overwrite (--overwrite)',
  });
}
/** Rewrites the file without the given records (a temporary file, then a rename): all or nothing. */
function dropRecords<Header, Record extends { index: number }>(
  path: string,
  contents: IndexedJsonlContents<Header, Record>,
  drop: ReadonlySet<number>,
): void {
  const keep = contents.spans.filter((span) => !drop.has(span.index)).sort((a, b) => a.start - b.start);
  const fd = fileStep(path, 'reading to take out failed records', () => openSync(path, 'r'), {
    resumable: true,
  });
  try {
    writeAtomically(
      path,
      readSegments([{ fd, start: 0, end: contents.headerBytes }, ...keep.map((span) => ({ fd, ...span }))]),
      { resumable: true },
    );
  } finally {
    closeSync(fd);
  }
}
