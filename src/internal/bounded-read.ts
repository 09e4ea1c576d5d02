import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/**
 * Reading a file a user names, with a ceiling. `readFileSync` reads until the end of the file, and some
 * files have none: `--context /dev/zero` grew the process by gigabytes in seconds. Here a regular file
 * over the limit is refused from its size before a byte is read, and anything else (a device, a pipe,
 * standard input) is read in chunks and refused as soon as it passes the limit.
 */

/**
 * The default ceiling for a JSON input of the CLI (a context, a history, a contexts list, a suite):
 * 64 MiB. haggle's choice: 2,000 listings with 4 KB descriptions are about 8 MB, so this leaves 8x room,
 * while the parsed value (a few times the text's size in memory) stays in the hundreds of megabytes.
 * `HAGGLE_MAX_INPUT_MIB` raises or lowers it for one run.
 */
export const DEFAULT_MAX_INPUT_BYTES = 64 * 1024 * 1024;

/** The ceiling in force: `HAGGLE_MAX_INPUT_MIB` when set to a positive number, else the default. */
export function maxInputBytes(env: Record<string, string | undefined> = process.env): number {
  const mib = Number(env.HAGGLE_MAX_INPUT_MIB);
  return Number.isFinite(mib) && mib > 0 ? Math.floor(mib * 1024 * 1024) : DEFAULT_MAX_INPUT_BYTES;
}

/** A file (or stream) holds more than the ceiling allows. */
export class InputTooLargeError extends Error {
  readonly limitBytes: number;

  constructor(limitBytes: number) {
    super(
      `it is larger than the ${formatBytes(limitBytes)} limit for inputs; pass a smaller file, or raise the limit with HAGGLE_MAX_INPUT_MIB`,
    );
    this.name = 'InputTooLargeError';
    this.limitBytes = limitBytes;
  }
}

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

function formatBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes} bytes`;
}
