import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { InputTooLargeError, LineTooLongError } from './errors.js';

/**
 * Reading a file a user names, with a ceiling. `readFileSync` reads until the end of the file, and some
 * files have none: `--context /dev/zero` grew the process by gigabytes in seconds. Here a regular file
 * over the limit is refused from its size before a byte is read, and anything else (a device, a pipe,
 * standard input) is read in chunks and refused as soon as it passes the limit. Whole-JSON inputs get a
 * total ceiling (`readTextWithLimit`); line files (runs, tournaments) a ceiling per line (`forEachLine`),
 * since a run may rightly hold millions of lines but never one of megabytes.
 */

const CHUNK_BYTES = 1024 * 1024;

/**
 * The text of a file (a path) or an open descriptor (0 for standard input), decoded as UTF-8, with a
 * leading byte-order mark removed. Throws `InputTooLargeError` past `limitBytes`, and the file system's
 * own errors (`ENOENT`, `EISDIR`, ...) as they come.
 */
export function readTextWithLimit(source: string | number, limitBytes: number): string {
  const fd = typeof source === 'number' ? source : openSync(source, 'r');
  try {
    const stat = fstatSync(fd);
    if (stat.isFile() && stat.size > limitBytes) throw new InputTooLargeError(limitBytes);
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, limitBytes + 1));
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const read = readChunk(fd, buffer);
      if (read === 0) break;
      total += read;
      if (total > limitBytes) throw new InputTooLargeError(limitBytes);
      chunks.push(Buffer.from(buffer.subarray(0, read)));
    }
    return stripByteOrderMark(Buffer.concat(chunks, total).toString('utf8'));
  } finally {
    if (typeof source !== 'number') closeSync(fd);
  }
}

/**
 * Text without a leading U+FEFF. Windows editors save UTF-8 with a byte-order mark; JSON.parse refuses
 * it, and RFC 8259 lets a parser ignore it, so it is dropped rather than reported.
 */
export function stripByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function readChunk(fd: number, buffer: Buffer): number {
  for (;;) {
    try {
      return readSync(fd, buffer, 0, buffer.length, null);
    } catch (error) {
      // Standard input may be non-blocking (a pipe from some shells): wait a moment and read again.
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}

/** One line of a line file: its bytes without the newline, where it lies, and whether it has its newline. */
export interface FileLine {
  /** 1-based. */
  number: number;
  /** The line's bytes, without its newline (a view: copy it to keep it past the call). */
  bytes: Buffer;
  /** Byte offset of the line's first byte in the file. */
  start: number;
  /** Byte offset just past the line's newline (or past its last byte when it has none). */
  end: number;
  /** False for a last line that the file ends without a newline (a line torn by a crash). */
  complete: boolean;
}

/**
 * Calls `visit` for each line of a file, in order, holding at most one line (and one chunk) in memory;
 * `visit` returns `false` to stop early. Past `limitBytes` for one line, throws `LineTooLongError` as
 * soon as the limit is passed, so an endless file without newlines (`/dev/zero`) ends after that many
 * bytes. The file system's own errors (`ENOENT`, `EISDIR`, ...) are thrown as they come.
 */
export function forEachLine(path: string, limitBytes: number, visit: (line: FileLine) => unknown): void {
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    // The bytes of the current line read so far, in pieces (a line may span many chunks).
    let pieces: Buffer[] = [];
    let pending = 0;
    let lineStart = 0;
    let lineNumber = 1;
    let position = 0;
    for (;;) {
      const read = readChunk(fd, chunk);
      if (read === 0) break;
      let from = 0;
      while (from < read) {
        const newline = chunk.indexOf(0x0a, from);
        const stop = newline >= 0 && newline < read ? newline : read;
        if (pending + (stop - from) > limitBytes) throw new LineTooLongError({ lineNumber, limitBytes });
        if (stop === read) {
          pieces.push(Buffer.from(chunk.subarray(from, read)));
          pending += read - from;
          break;
        }
        const bytes =
          pending === 0 ? chunk.subarray(from, stop) : Buffer.concat([...pieces, chunk.subarray(from, stop)]);
        const end = position + stop + 1;
        if (visit({ number: lineNumber, bytes, start: lineStart, end, complete: true }) === false) return;
        pieces = [];
        pending = 0;
        lineStart = end;
        lineNumber++;
        from = stop + 1;
      }
      position += read;
    }
    if (pending > 0)
      visit({
        number: lineNumber,
        bytes: Buffer.concat(pieces),
        start: lineStart,
        end: position,
        complete: false,
      });
  } finally {
    closeSync(fd);
  }
}
