import { statSync } from 'node:fs';
import { firstLineType, type IndexedJsonlContents } from './indexed-jsonl.js';
import { sameRunSettings } from './provenance.js';
import { RunFileError } from './run-file-error.js';
import { RunWriter } from './run-writer.js';

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
  header: Header;
  /** Reads (and validates) a file of this kind. */
  read: (path: string) => IndexedJsonlContents<Header, Record>;
  /** Whether a record index belongs to this run (its range, its shard). */
  plays: (index: number) => boolean;
  /** What the file holds, for messages: `run` and `session`, `tournament` and `match`. */
  kind: string;
  noun: string;
}

/**
 * Starts the output file, or continues it when resuming. A resumed file must be one this kind of run
 * wrote with the same settings: a file without a header (someone else's data) or with another header is
 * refused, and nothing is cut from a file that is refused. An empty or missing file simply starts.
 */
export function openRunOutput<Header, Record extends { index: number }>(
  options: OpenRunOutputOptions<Header, Record>,
): RunOutput<Record> {
  const { path, kind, noun } = options;
  if (!options.resume || !holdsData(path)) {
    return { writer: RunWriter.start<Record>(path, options.header), kept: [] };
  }
  // Someone else's file is refused before it is parsed: its lines need not be ours to be kept intact.
  const contents = firstLineType(path) === kind ? options.read(path) : undefined;
  if (contents?.header === undefined) {
    throw new RunFileError(
      path,
      `has no ${kind} header (its first line), so no haggle ${kind} wrote it: refusing to resume or change it. ` +
        'Choose another output file, or replace this one with overwrite (--overwrite)',
    );
  }
  if (!sameRunSettings(contents.header as object, options.header as object)) {
    throw new RunFileError(
      path,
      `was written by a ${kind} with other settings (its header differs); resume it with the same settings, ` +
        'or replace it with overwrite (--overwrite)',
    );
  }
  const stray = contents.records.find((record) => !options.plays(record.index));
  if (stray !== undefined) {
    throw new RunFileError(path, `holds ${noun} ${stray.index}, which this ${kind} does not play`);
  }
  return { writer: RunWriter.continue<Record>(path, contents), kept: contents.records };
}
