import { randomBytes } from 'node:crypto';
import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { fileSystemError, RunFileLockedError, type RunFileLockHolder } from './errors.js';
import { checkRunFileTarget } from './run-file-target.js';

/**
 * One writer per run file. Every writer (`simulate`, `runTournament`, `mergeRuns`, and so the CLI's
 * `simulate`, `evaluate` and `merge`) takes `FILE.lock` before it cuts, truncates or appends anything,
 * and removes it when it is done, whether it succeeded, failed or was interrupted.
 *
 * haggle's choice: a lock file rather than `flock` (Node has none) or a daemon. It is created whole and
 * atomically (written under a unique name, then hard-linked to `FILE.lock`, which fails if the name is
 * taken), and holds the writer's PID, host and start time. A lock whose holder is on this host and no
 * longer runs (`process.kill(pid, 0)` says ESRCH) is stale: the next writer takes it over and says so.
 * A lock from another host cannot be checked and is never taken over. Limits: a PID reused by an
 * unrelated process keeps a stale lock alive (the error says how to delete it); network file systems
 * are only as exclusive as their hard links.
 */

/** A held lock; `release()` removes the lock file (once; later calls do nothing). */
export interface RunFileLock {
  readonly path: string;
  readonly lockPath: string;
  release(): void;
}

export interface LockRunFileOptions {
  /** Told when a stale lock (of a process that no longer runs) was taken over. */
  onNote?: (message: string) => void;
}

interface LockContent extends RunFileLockHolder {
  /** Tells this lock from a later one of the same PID (a release never removes another's lock). */
  nonce: string;
}

const TAKEOVER_GUARD_STALE_MS = 10_000;
const ATTEMPTS = 200;
const held = new Map<string, { lockPath: string; content: string }>();
let exitHookInstalled = false;

/** Takes the lock of `path` or throws `RunFileLockedError` naming the writer that holds it. */
export function lockRunFile(path: string, options: LockRunFileOptions = {}): RunFileLock {
  checkRunFileTarget(path);
  const lockPath = `${path}.lock`;
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (error) {
    const code = (error as { code?: unknown }).code === 'EEXIST' ? 'ENOTDIR' : undefined;
    throw fileSystemError(path, 'creating its folder', code ? Object.assign(new Error(), { code }) : error);
  }
  const mine: LockContent = {
    pid: process.pid,
    host: hostname(),
    started: new Date().toISOString(),
    nonce: randomBytes(8).toString('hex'),
  };
  const content = `${JSON.stringify(mine)}\n`;
  let tookOver: RunFileLockHolder | undefined;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (createExclusively(path, lockPath, content)) {
      installExitHook();
      held.set(lockPath, { lockPath, content });
      if (tookOver !== undefined)
        options.onNote?.(
          `${path}: took over the stale lock ${lockPath} of process ${tookOver.pid} (started ${tookOver.started}), which no longer runs`,
        );
      return { path, lockPath, release: () => release(lockPath) };
    }
    const raw = readLock(lockPath);
    if (raw === undefined) continue; // released between our try and our read: try again
    const holder = parseHolder(raw);
    const state = holderState(holder);
    if (state !== 'dead') {
      throw new RunFileLockedError({ path, lockPath, holder, why: refusal(holder, state) });
    }
    if (takeOver(lockPath, raw)) tookOver = holder;
    else sleep(10 + Math.random() * 20); // another writer is taking it over: see who won
  }
  throw new RunFileLockedError({
    path,
    lockPath,
    why: 'could not take the lock: other writers kept taking and releasing it',
  });
}

/** Whether the lock was created (false: the name is taken). The lock appears whole or not at all. */
function createExclusively(path: string, lockPath: string, content: string): boolean {
  const draft = `${lockPath}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    writeFileSync(draft, content, { flag: 'wx' });
  } catch (error) {
    throw fileSystemError(path, `creating its lock file ${lockPath}`, error);
  }
  try {
    linkSync(draft, lockPath);
    return true;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'EEXIST') return false;
    // A file system without hard links: an exclusive create, written at once (a reader that comes
    // between the two sees an unreadable lock and is refused, which is safe).
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS')
      return createWithOpen(path, lockPath, content);
    throw fileSystemError(path, `creating its lock file ${lockPath}`, error);
  } finally {
    rmSync(draft, { force: true });
  }
}

function createWithOpen(path: string, lockPath: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, 'wx');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EEXIST') return false;
    throw fileSystemError(path, `creating its lock file ${lockPath}`, error);
  }
  try {
    writeFileSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return true;
}

function readLock(lockPath: string): string | undefined {
  try {
    return readFileSync(lockPath, 'utf8');
  } catch {
    return undefined;
  }
}

function parseHolder(raw: string): LockContent | undefined {
  try {
    const value = JSON.parse(raw) as Partial<LockContent>;
    if (
      Number.isSafeInteger(value.pid) &&
      typeof value.host === 'string' &&
      typeof value.started === 'string'
    )
      return value as LockContent;
  } catch {
    // Not a haggle lock, or one being written by a file system without hard links.
  }
  return undefined;
}

type HolderState = 'alive' | 'dead' | 'this-process' | 'other-host' | 'unreadable';

function holderState(holder: LockContent | undefined): HolderState {
  if (holder === undefined) return 'unreadable';
  if (holder.host !== hostname()) return 'other-host';
  if (holder.pid === process.pid) return 'this-process';
  try {
    process.kill(holder.pid, 0);
    return 'alive';
  } catch (error) {
    // EPERM: the process runs, as another user.
    return (error as { code?: unknown }).code === 'ESRCH' ? 'dead' : 'alive';
  }
}

function refusal(holder: LockContent | undefined, state: HolderState): string {
  if (holder === undefined) return 'is locked by a lock file haggle cannot read';
  const who = `process ${holder.pid} on ${holder.host}, since ${holder.started}`;
  if (state === 'this-process') return `is being written by this same process (a run still going, ${who})`;
  if (state === 'other-host') return `is being written by ${who} (another host: haggle cannot check it)`;
  return `is being written by another haggle process (${who})`;
}

/**
 * Removes a stale lock whose content is still `stale`, under a guard file so that two writers that
 * found the same stale lock never both remove it (the second would remove the first's new lock).
 * False when another writer holds the guard.
 */
function takeOver(lockPath: string, stale: string): boolean {
  const guard = `${lockPath}.takeover`;
  let fd: number;
  try {
    fd = openSync(guard, 'wx');
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EEXIST')
      throw fileSystemError(lockPath, 'taking over a stale lock', error);
    // A taker that died between these few steps leaves its guard; an old one is its own stale lock.
    try {
      if (Date.now() - statSync(guard).mtimeMs > TAKEOVER_GUARD_STALE_MS) rmSync(guard, { force: true });
    } catch {
      // Gone already.
    }
    return false;
  }
  try {
    if (readLock(lockPath) === stale) unlinkSync(lockPath);
    return true;
  } finally {
    closeSync(fd);
    rmSync(guard, { force: true });
  }
}

/** Removes the lock file if it is still ours. */
function release(lockPath: string): void {
  const entry = held.get(lockPath);
  if (entry === undefined) return;
  held.delete(lockPath);
  if (readLock(lockPath) === entry.content) rmSync(lockPath, { force: true });
}

/**
 * `process.exit()` (the CLI's second Ctrl-C) runs no `finally`: the exit hook removes what is still
 * held. A SIGKILL runs nothing; the next writer finds the lock stale.
 */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const lockPath of [...held.keys()]) release(lockPath);
  });
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** A short synchronous wait (the writers that call this are synchronous). */
function sleep(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
