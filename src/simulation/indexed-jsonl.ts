import { existsSync } from 'node:fs';
import { type FileLine, forEachLine } from '../internal/bounded-read.js';
import { maxLineBytes } from '../internal/environment.js';
import { LineTooLongError } from '../internal/errors.js';
import { fileStep, RunFileError } from './errors.js';

/**
 * Reading the JSONL files that runs write (`simulate()`'s sessions, `runTournament()`'s matches): an
 * optional header line, then one line per numbered record. A run appends its records in the order they
 * finish, so that nothing finished waits in memory; readers put them back in index order. A final
 * line without its newline was torn by a crash and is ignored.
 */

/** Where one record's line lies in the file: bytes `[start, end)`, its newline included. */
export interface RecordSpan {
  index: number;
  start: number;
  end: number;
}

/** A JSONL run file read: its header, its records, and where each record lies in the file. */
export interface IndexedJsonlContents<Header, Record> {
  header: Header | undefined;
  /** Bytes of the header line, newline included; 0 without a header. */
  headerBytes: number;
  /** In index order when the file has a header; in file order without one (real sessions). */
  records: Record[];
  /** The records' lines, in the same order as `records`. */
  spans: RecordSpan[];
  /** Byte length of the complete lines; anything after it is a torn final line. */
  completeBytes: number;
}

export interface IndexedJsonlFormat {
  /** The `type` of the header line, e.g. `run`. */
  headerType: string;
  /** The `type` of a record line, e.g. `session`. */
  recordType: string;
  /** Throws a `RunFileError` naming the line when a record is not valid. */
  check?: (value: unknown, lineNumber: number) => void;
  /**
   * The `type`s of the other run files, each with what reads them ("a tournament file: read it with
   * `haggle analyse`"), so a file given to the wrong command names the right one.
   */
  readBy?: Readonly<Partial<Record<string, string>>>;
}

export function readIndexedJsonl<Header, Record extends { index: number }>(
  path: string,
  format: IndexedJsonlFormat,
): IndexedJsonlContents<Header, Record> {
  if (!existsSync(path)) throw new RunFileError({ path, message: 'no such file', systemCode: 'ENOENT' });
  let header: Header | undefined;
  let headerBytes = 0;
  let completeBytes = 0;
  const entries: { record: Record; span: RecordSpan; line: number }[] = [];
  readLines(path, (line) => {
    if (!line.complete) return; // torn by a crash: the run that resumes writes it again
    const { number: lineNumber, start: lineStart, end } = line;
    completeBytes = end;
    const text = line.bytes.toString('utf8');
    if (text.trim() === '') return;
    let value: { type?: unknown; index?: unknown };
    try {
      value = JSON.parse(text) as { type?: unknown };
    } catch {
      throw new RunFileError({ path, message: `line ${lineNumber} is not JSON` });
    }
    if (value?.type === format.headerType) {
      if (lineStart !== 0)
        throw new RunFileError({
          path,
          message: `line ${lineNumber}: a ${format.headerType} header may only be the first line`,
        });
      header = value as Header;
      headerBytes = end;
    } else if (value?.type === format.recordType) {
      if (!Number.isSafeInteger(value.index) || (value.index as number) < 0)
        throw new RunFileError({
          path,
          message: `line ${lineNumber}: "index" must be a non-negative integer`,
        });
      format.check?.(value, lineNumber);
      entries.push({
        record: value as unknown as Record,
        span: { index: value.index as number, start: lineStart, end },
        line: lineNumber,
      });
    } else {
      const readBy = typeof value?.type === 'string' ? format.readBy?.[value.type] : undefined;
      if (readBy !== undefined) throw new RunFileError({ path, message: `line ${lineNumber}: ${readBy}` });
      throw new RunFileError({
        path,
        message: `line ${lineNumber}: unknown record type ${JSON.stringify(value?.type)}`,
      });
    }
  });
  if (header !== undefined) {
    // Only a file a run wrote promises one line per index; real sessions keep the order they came in.
    entries.sort((a, b) => a.span.index - b.span.index);
    for (let i = 1; i < entries.length; i++) {
      const [previous, entry] = [entries[i - 1], entries[i]] as [(typeof entries)[0], (typeof entries)[0]];
      if (previous.span.index === entry.span.index) {
        throw new RunFileError({
          path,
          message: `lines ${Math.min(previous.line, entry.line)} and ${Math.max(previous.line, entry.line)} both hold ${format.recordType} ${entry.span.index}`,
        });
      }
    }
  }
  return {
    header,
    headerBytes,
    records: entries.map((entry) => entry.record),
    spans: entries.map((entry) => entry.span),
    completeBytes,
  };
}

/**
 * The `type` field of a file's first line (undefined when that line is not a JSON object), read
 * without reading the rest: what kind of file it is.
 */
export function firstLineType(path: string): unknown {
  return (firstLineValue(path) as { type?: unknown } | null | undefined)?.type;
}

/** The first line of a file parsed as JSON (a run's header), or undefined when it is not JSON. */
export function firstLineValue(path: string): unknown {
  try {
    return JSON.parse(firstLine(path));
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

function firstLine(path: string): string {
  let first = '';
  readLines(path, (line) => {
    first = line.bytes.toString('utf8');
    return false;
  });
  return first;
}

/**
 * Every line read goes through the bounded line reader: a line past the limit (or an endless file
 * without newlines, such as /dev/zero) is one `RunFileError` naming the file, the line and the limit.
 */
function readLines(path: string, visit: (line: FileLine) => unknown): void {
  try {
    fileStep(path, 'reading', () => forEachLine(path, maxLineBytes(), visit));
  } catch (error) {
    if (error instanceof LineTooLongError)
      throw new RunFileError({ path, message: error.message, cause: error });
    throw error;
  }
}
