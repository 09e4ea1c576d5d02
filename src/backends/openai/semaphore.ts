import { HaggleAbortError } from '../../contract/errors.js';

/**
 * A counting semaphore with a FIFO queue: at most `limit` holders at once. Waiters that are aborted
 * leave the queue without taking a slot, so a cancelled session never blocks the others.
 */
export class Semaphore {
  readonly limit: number;
  private active = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(limit: number) {
    this.limit = limit;
  }

  /** Holders plus waiters: how loaded this semaphore is. */
  get load(): number {
    return this.active + this.waiters.length;
  }

  /** A release function when a slot is free right now (no waiting, no timer), else undefined. */
  tryAcquire(): (() => void) | undefined {
    if (this.active >= this.limit) return undefined;
    this.active++;
    return this.releaser();
  }

  /** Resolves with a release function once a slot is free; call it exactly once. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(new HaggleAbortError(signal.reason));
    if (this.active < this.limit) {
      this.active++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener('abort', onAbort);
        this.active++;
        resolve(this.releaser());
      };
      const onAbort = () => {
        const index = this.waiters.indexOf(grant);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(new HaggleAbortError(signal?.reason));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(grant);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.waiters.shift()?.();
    };
  }
}
