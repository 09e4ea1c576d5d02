import { HaggleAbortError } from '../../contract/errors.js';
import { HubDownloadError } from './errors.js';

/**
 * haggle's choice: a download that receives no byte for a minute has stalled (the hub's storage sends
 * continuously; a minute is long past any pause of a healthy connection). The part already written
 * stays, so running the command again resumes where it stopped.
 */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

/** haggle's choice: after this long without a byte (or half the timeout, if shorter) progress says so. */
const STALL_NOTICE_MS = 5_000;

/**
 * An idle read timeout for one request and its body: `signal` aborts (with a `HubDownloadError` that
 * says the connection stalled) once no byte arrived for `idleMs`, or when the caller's own signal
 * aborts. `touch()` on every chunk; `onStall(ms)` is called about once a second while nothing arrives
 * past the notice threshold, so a progress line can say the download is waiting rather than look hung.
 */
export class IdleWatch {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private last = Date.now();
  private readonly timer: NodeJS.Timeout;

  constructor(
    url: string,
    idleMs: number,
    outer: AbortSignal | undefined,
    onStall?: (silentMs: number) => void,
  ) {
    this.signal = outer ? AbortSignal.any([this.controller.signal, outer]) : this.controller.signal;
    const notice = Math.min(STALL_NOTICE_MS, idleMs / 2);
    this.timer = setInterval(
      () => {
        const silent = Date.now() - this.last;
        if (silent >= idleMs) {
          this.stop();
          this.controller.abort(
            new HubDownloadError({
              url,
              problem: `no byte arrived for ${formatSeconds(idleMs)}: the connection stalled (what arrived is kept; run the same command again to resume, or give a longer --idle-timeout)`,
            }),
          );
        } else if (silent >= notice) onStall?.(silent);
      },
      Math.max(10, Math.min(1_000, idleMs / 4)),
    );
    // A watch never keeps the process alive by itself.
    this.timer.unref();
  }

  /** Bytes arrived: the idle clock starts again. */
  touch(): void {
    this.last = Date.now();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** The error for an aborted request: the stall's own error, or the caller's abort as `HaggleAbortError`. */
export function abortedError(signal: AbortSignal): Error {
  return signal.reason instanceof HubDownloadError ? signal.reason : new HaggleAbortError(signal.reason);
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
