import { createReadStream, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HaggleAbortError } from '../../contract/errors.js';
import { readTextWithLimit } from '../../internal/bounded-read.js';
import { checksumHash, type ExpectedChecksum } from './hub-checksum.js';

/** The record a pull keeps in its folder, beside the files. */
export const PULL_RECORD_FILE = '.haggle-pull.json';
/** haggle's choice: a record of a model repository's few dozen files is a few KB; more is not ours. */
const MAX_RECORD_BYTES = 4 * 1024 * 1024;

/** One file as it was verified: its checksum, and the size and mtime it had then. */
interface RecordedFile {
  kind: 'sha256' | 'git-sha1';
  hex: string;
  size: number;
  mtimeMs: number;
}

/**
 * What a pull folder holds, by identity: the commit it was last pulled at and each file's verified
 * checksum, with the size and modification time the file had when it was verified. A file is "already
 * there" only when its bytes hash to the listing's checksum; the record spares hashing gigabytes
 * again when the file is unchanged since it was verified (as git's index does, by size and mtime).
 * The record is a cache: one that cannot be read is ignored, and every file is hashed instead.
 */
export class PullRecord {
  commit: string | undefined;
  private readonly files: Record<string, RecordedFile>;

  private constructor(
    private readonly folder: string,
    data: { commit?: unknown; files?: unknown },
  ) {
    this.commit = typeof data.commit === 'string' ? data.commit : undefined;
    this.files =
      typeof data.files === 'object' && data.files !== null
        ? (data.files as Record<string, RecordedFile>)
        : {};
  }

  static open(folder: string): PullRecord {
    try {
      const data = JSON.parse(readTextWithLimit(join(folder, PULL_RECORD_FILE), MAX_RECORD_BYTES));
      if (typeof data === 'object' && data !== null && data.format === 'haggle-pull')
        return new PullRecord(folder, data);
    } catch {
      // Missing or unreadable: nothing is known, every file present is hashed.
    }
    return new PullRecord(folder, {});
  }

  /**
   * Whether `target` (the repository's `path`) holds the bytes `expected` names: by the record when
   * the file is unchanged since it was verified, else by hashing it (and recording the result).
   */
  async holds(
    path: string,
    target: string,
    size: number,
    expected: ExpectedChecksum,
    signal?: AbortSignal,
  ): Promise<boolean> {
    if (expected.kind === 'none') return false;
    const stat = statSync(target, { throwIfNoEntry: false });
    if (!stat?.isFile() || stat.size !== size) return false;
    const known = this.files[path];
    if (
      known?.kind === expected.kind &&
      known.hex === expected.hex &&
      known.size === stat.size &&
      known.mtimeMs === stat.mtimeMs
    )
      return true;
    const hash = checksumHash(expected, size);
    if (!hash) return false;
    const stream = createReadStream(target, {
      highWaterMark: 8 * 1024 * 1024,
      ...(signal ? { signal } : {}),
    });
    try {
      for await (const chunk of stream) hash.update(chunk as Buffer);
    } catch (error) {
      if (signal?.aborted) throw new HaggleAbortError(signal.reason);
      throw error;
    }
    if (hash.digest('hex') !== expected.hex) return false;
    this.remember(path, target, expected);
    return true;
  }

  /** `target` was verified to hold `expected`: recorded (and the record written) at once. */
  remember(path: string, target: string, expected: ExpectedChecksum): void {
    if (expected.kind === 'none') {
      delete this.files[path];
    } else {
      const stat = statSync(target);
      this.files[path] = { kind: expected.kind, hex: expected.hex, size: stat.size, mtimeMs: stat.mtimeMs };
    }
    this.save();
  }

  save(): void {
    const file = join(this.folder, PULL_RECORD_FILE);
    const data = { format: 'haggle-pull', version: 1, commit: this.commit, files: this.files };
    writeFileSync(`${file}.tmp`, `${JSON.stringify(data, null, 2)}\n`);
    renameSync(`${file}.tmp`, file);
  }
}
