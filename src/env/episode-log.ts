import { closeSync, existsSync, mkdirSync, openSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { readTournamentFile } from '../evaluation/tournament-file.js';
import { RunFileError } from '../simulation/errors.js';
import { lockRunFile, type RunFileLock } from '../simulation/run-file-lock.js';
import type { EpisodeRecord } from './environment.js';

/**
 * The run file of an environment server: a tournament header, then one match line per finished episode
 * (the tournament's record plus the trained side's raw texts), so `haggle analyse` reads training
 * rollouts as it reads a tournament. Each line is one `write` to a file opened for appending, done
 * before the episode's last answer is sent: an episode the trainer heard end is on disk, even if the
 * server is killed (SIGKILL) the next instant. An existing file of the same environment is continued.
 * The file is held with the run-file lock every writer takes (`FILE.lock`): a second server, or a
 * `haggle simulate` on the same path, is refused with `RunFileLockedError` naming this one, instead of
 * interleaving lines with indices of its own.
 */
export class EpisodeLog {
  private readonly fd: number;
  private nextIndex: number;
  private closed = false;

  private constructor(
    readonly path: string,
    fd: number,
    nextIndex: number,
    private readonly lock: RunFileLock,
  ) {
    this.fd = fd;
    this.nextIndex = nextIndex;
  }

  /** Opens (or continues) the run file at `path` with `header` as its first line. */
  static open(
    path: string,
    header: Record<string, unknown> & { suiteId: string; config: Record<string, unknown> },
  ): EpisodeLog {
    mkdirSync(dirname(path), { recursive: true });
    const lock = lockRunFile(path);
    try {
      return EpisodeLog.openLocked(path, header, lock);
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  private static openLocked(
    path: string,
    header: Record<string, unknown> & { suiteId: string; config: Record<string, unknown> },
    lock: RunFileLock,
  ): EpisodeLog {
    let nextIndex = 0;
    const holdsData = existsSync(path) && statSync(path).size > 0;
    if (holdsData) {
      const existing = readTournamentFile(path);
      const env = (existing.header?.config as Record<string, unknown> | undefined)?.env;
      if (!existing.header || existing.header.suiteId !== header.suiteId || env !== header.config.env) {
        throw new RunFileError({
          path,
          message: `holds another run (not ${String(header.config.env)} on suite ${header.suiteId}): give another --out file`,
        });
      }
      nextIndex = existing.records.reduce((max, record) => Math.max(max, record.index + 1), 0);
    }
    const fd = openSync(path, 'a');
    if (!holdsData) writeSync(fd, `${JSON.stringify(header)}\n`);
    return new EpisodeLog(path, fd, nextIndex, lock);
  }

  /** Episodes written so far (including those the file held when it was continued). */
  get episodes(): number {
    return this.nextIndex;
  }

  /** Appends one finished episode, numbering it; returns the index it got. */
  append(record: EpisodeRecord): number {
    if (this.closed)
      throw new RunFileError({ path: this.path, message: 'is closed: the server is stopping' });
    const index = this.nextIndex++;
    writeSync(this.fd, `${JSON.stringify({ ...record, index })}\n`);
    return index;
  }

  /** Closes the file; later appends throw a `RunFileError`. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
    this.lock.release();
  }
}
