import { existsSync, readFileSync } from 'node:fs';
import { HaggleError, issuesFromZod } from '../contract/errors.js';
import type { RunProvenance } from './provenance.js';
import { SessionRecordSchema } from './session-record-schema.js';
import type { SessionResult } from './session-result.js';

/**
 * A run's JSONL file: a header line describing the run, then one line per finished session, in
 * session order. Lines hold no wall-clock times, so the same seed gives the same bytes.
 */

export const RUN_FILE_FORMAT = 'haggle-run';
export const RUN_FILE_VERSION = 1;

export interface RunHeader {
  type: 'run';
  format: typeof RUN_FILE_FORMAT;
  version: number;
  seed: number;
  sessions: number;
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

export class RunFileError extends HaggleError {
  readonly path: string;
  constructor(path: string, message: string) {
    super('run-file', `${path}: ${message}`);
    this.name = 'RunFileError';
    this.path = path;
  }
}

/** What a run file holds: its header (if any) and its complete session lines. */
export interface RunFileContents {
  header: RunHeader | undefined;
  sessions: SessionRecord[];
  /** Byte length of the complete lines; anything after it is a torn final line. */
  completeBytes: number;
}

/** Reads a run file, ignoring a final line torn by a crash (it has no newline yet). */
export function readRunFile(path: string): RunFileContents {
  if (!existsSync(path)) throw new RunFileError(path, 'no such file');
  const buffer = readFileSync(path);
  const lastNewline = buffer.lastIndexOf(0x0a);
  const completeBytes = lastNewline + 1;
  const text = buffer.subarray(0, completeBytes).toString('utf8');
  let header: RunHeader | undefined;
  const sessions: SessionRecord[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.trim() === '') continue;
    let value: RunFileLine;
    try {
      value = JSON.parse(line) as RunFileLine;
    } catch {
      throw new RunFileError(path, `line ${i + 1} is not JSON`);
    }
    if (value.type === 'run') {
      if (i !== 0) throw new RunFileError(path, `line ${i + 1}: a run header may only be the first line`);
      header = value;
    } else if (value.type === 'session') {
      checkSessionLine(path, i + 1, value);
      sessions.push(value);
    } else {
      throw new RunFileError(
        path,
        `line ${i + 1}: unknown record type ${JSON.stringify((value as { type?: unknown }).type)}`,
      );
    }
  }
  return { header, sessions, completeBytes };
}

function checkSessionLine(path: string, lineNumber: number, value: unknown): void {
  const parsed = SessionRecordSchema.safeParse(value);
  if (parsed.success) return;
  const issues = issuesFromZod(parsed.error)
    .slice(0, 3)
    .map((issue) => `${issue.path}: ${issue.message}`)
    .join('; ');
  throw new RunFileError(path, `line ${lineNumber} is not a valid session record: ${issues}`);
}

/** Loads the sessions of a run file (or of real sessions written in the same record format). */
export function loadSessions(path: string): SessionResult[] {
  return readRunFile(path).sessions;
}
