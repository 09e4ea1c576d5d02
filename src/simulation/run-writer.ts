import {
  closeSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { fileStep, fileSystemError, RunFileError } from './errors.js';
import type { RecordSpan } from './indexed-jsonl.js';
import type { RunFileLock } from './run-file-lock.js';

/**
 * Writes a run's JSONL so that nothing finished is lost: every record is appended the moment it
 * finishes, in completion order, with one synchronous write per line, so an interrupt or a SIGKILL
 * leaves every finished record on disk (the OS holds it even when the process dies; a torn final line
 * at most, which readers ignore and a resume cuts off). When the run completes, `finish()` rewrites the
 * file in index order (a temporary file, then a rename), so the final bytes do not depend on the order
 * sessions happened to finish in, that is on the concurrency.
 *
 * haggle's choice: no fsync per line. A process that is killed loses nothing with or without it;
 * only a machine that loses power could lose the last lines, and an fsync per session would cost
 * more than most sessions. The rewrite is fsynced before its rename, so the completed file is never
 * half-written.
 *
 * The writer holds the file's lock (see run-file-lock.ts) from before the file is opened until it is
 * closed, the final rewrite included: `close()` and `finish()` release it, whatever happened.
 */
export class RunWriter<Record extends { index: number }> {
  private fd: number | undefined;
  private failure: unknown;

  private constructor(
    readonly path: string,
    fd: number,
    private size: number,
    private readonly headerBytes: number,
    /** Where each record's line lies, in the order they were appended. */
    private readonly spans: RecordSpan[],
    private readonly lock: RunFileLock | undefined,
  ) {
    this.fd = fd;
  }

  /**
   * Starts a new file (its parent folders too) with the header line, replacing any file there. The
   * caller holds `lock` (the writer releases it when closed).
   */
  static start<Record extends { index: number }>(
    path: string,
    header: unknown,
    lock?: RunFileLock,
  ): RunWriter<Record> {
    makeParentFolder(path);
    const fd = fileStep(path, 'opening for writing', () => openSync(path, 'w'));
    const line = Buffer.from(`${JSON.stringify(header)}\n`);
    try {
      writeFully(fd, line);
    } catch (error) {
      closeSync(fd);
      throw fileSystemError(path, 'writing the run header', error);
    }
    return new RunWriter<Record>(path, fd, line.length, line.length, [], lock);
  }

  /**
   * Continues a file this kind of run wrote (the caller has checked its header): cuts off a torn final
   * line and appends after the complete ones.
   */
  static continue<Record extends { index: number }>(
    path: string,
    contents: { headerBytes: number; spans: readonly RecordSpan[]; completeBytes: number },
    lock?: RunFileLock,
  ): RunWriter<Record> {
    const fd = fileStep(path, 'opening to resume', () => openSync(path, 'r+'), { resumable: true });
    try {
      ftruncateSync(fd, contents.completeBytes);
    } catch (error) {
      closeSync(fd);
      throw fileSystemError(path, 'cutting off a torn last line', error, { resumable: true });
    }
    return new RunWriter<Record>(
      path,
      fd,
      contents.completeBytes,
      contents.headerBytes,
      [...contents.spans],
      lock,
    );
  }

  /** Records on file (kept from a resumed file, and appended since). */
  get records(): number {
    return this.spans.length;
  }

  /** Appends one finished record; it is on disk (in the OS's hands) when this returns. */
  append(record: Record): void {
    if (this.failure !== undefined) throw this.failure;
    if (this.fd === undefined)
      throw new RunFileError({ path: this.path, message: 'the run file is already closed' });
    const line = Buffer.from(`${JSON.stringify(record)}\n`);
    try {
      writeFully(this.fd, line, this.size);
    } catch (error) {
      // A failed write may leave part of a line: nothing may follow it, or it would sit mid-file.
      this.failure = fileSystemError(this.path, `writing record ${record.index}`, error, { resumable: true });
      throw this.failure;
    }
    this.spans.push({ index: record.index, start: this.size, end: this.size + line.length });
    this.size += line.length;
  }

  /**
   * Closes the file and puts its records in index order (skipped when they already are): the file a
   * run at concurrency 1 would have written.
   */
  finish(): void {
    try {
      this.closeFile();
      if (this.failure !== undefined) throw this.failure;
      this.putInIndexOrder();
    } finally {
      this.lock?.release();
    }
  }

  private putInIndexOrder(): void {
    const ordered = [...this.spans].sort((a, b) => a.index - b.index);
    const inPlace = ordered.every(
      (span, i) => span.start === (i === 0 ? this.headerBytes : ordered[i - 1]?.end),
    );
    if (inPlace) return;
    const fd = fileStep(this.path, 'reading back to put in index order', () => openSync(this.path, 'r'), {
      resumable: true,
    });
    try {
      writeAtomically(
        this.path,
        readSegments([{ fd, start: 0, end: this.headerBytes }, ...ordered.map((s) => ({ fd, ...s }))]),
        {
          resumable: true,
        },
      );
    } finally {
      closeSync(fd);
    }
  }

  /** Closes the file and releases its lock (a run that stops before `finish()`: its lines stay as they are). */
  close(): void {
    try {
      this.closeFile();
    } finally {
      this.lock?.release();
    }
  }

  private closeFile(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/** Bytes `[start, end)` of an open file. */
export interface Segment {
  fd: number;
  start: number;
  end: number;
}

const CHUNK_BYTES = 1 << 20;

/** Reads segments in the order given, joining neighbours of the same file into reads of up to 1 MiB. */
export function* readSegments(segments: readonly Segment[]): Generator<Buffer> {
  for (let i = 0; i < segments.length; ) {
    const first = segments[i] as Segment;
    let end = first.end;
    for (i++; i < segments.length; i++) {
      const next = segments[i] as Segment;
      if (next.fd !== first.fd || next.start !== end || end - first.start >= CHUNK_BYTES) break;
      end = next.end;
    }
    const buffer = Buffer.allocUnsafe(end - first.start);
    for (let done = 0; done < buffer.length; ) {
      const read = readSync(first.fd, buffer, done, buffer.length - done, first.start + done);
      if (read === 0) throw new Error('the file is shorter than its records: was it changed while in use?');
      done += read;
    }
    yield buffer;
  }
}

/**
 * Writes a file whole or not at all: into `PATH.haggle-tmp` beside it (same file system, so the rename
 * is atomic), fsynced, then renamed over `path`. Parent folders are created.
 */
export function writeAtomically(
  path: string,
  chunks: Iterable<Buffer>,
  options: { resumable?: boolean } = {},
): void {
  const temporary = `${path}.haggle-tmp`;
  makeParentFolder(path, options);
  let fd: number | undefined;
  try {
    fd = openSync(temporary, 'w');
    let position = 0;
    for (const chunk of chunks) {
      writeFully(fd, chunk, position);
      position += chunk.length;
    }
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temporary, path);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    try {
      rmSync(temporary, { force: true });
    } catch {
      // Not a file we made (a folder of that name): left alone, and the error below says what failed.
    }
    throw fileSystemError(path, `writing the final file (through ${temporary})`, error, options);
  }
}

/** `writeSync` may write less than asked (a full disk, a signal); loop until the whole buffer is out. */
function writeFully(fd: number, buffer: Buffer, position?: number): void {
  for (let done = 0; done < buffer.length; ) {
    const at = position === undefined ? null : position + done;
    done += writeSync(fd, buffer, done, buffer.length - done, at);
  }
}

/** Creates the folders above `path`; a file where a folder should be fails as ENOTDIR. */
function makeParentFolder(path: string, options: { resumable?: boolean } = {}): void {
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    // mkdir says EEXIST when the last folder of the path already exists as a file.
    const code = (error as { code?: unknown }).code === 'EEXIST' ? 'ENOTDIR' : undefined;
    throw fileSystemError(
      path,
      'creating its folder',
      code ? Object.assign(new Error(), { code }) : error,
      options,
    );
  }
}
