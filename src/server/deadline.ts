import { HttpError } from './errors.js';

/**
 * A request's deadline: a timer from the request's arrival that aborts its model work when it
 * fires. 0 ms: none. An expired request is answered 504 (`request_timeout`): the server, in front of
 * the model, did not get an answer in time; 408 would tell the client that it was slow, which it
 * was not. OpenAI clients retry a 504 like any 5xx, which suits a model that was only busy.
 */
export class Deadline {
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** A set, so a settled `bound` takes its listener out: a stream calls it once per part. */
  private readonly listeners = new Set<() => void>();
  expired = false;

  constructor(readonly ms: number) {
    if (ms > 0) {
      this.timer = setTimeout(() => {
        this.expired = true;
        const listeners = [...this.listeners];
        this.listeners.clear();
        for (const listener of listeners) listener();
      }, ms);
    }
  }

  /** Runs `listener` when the deadline passes (at once if it has); returns what takes it out again. */
  onExpiry(listener: () => void): () => void {
    if (this.expired) listener();
    else if (this.timer) this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** `promise`, or a 408 if the deadline passes first (for reading the body: the client was slow). */
  race<T>(promise: Promise<T>): Promise<T> {
    if (!this.timer) return promise;
    return new Promise<T>((resolve, reject) => {
      this.onExpiry(() =>
        reject(
          new HttpError({
            status: 408,
            message: `the request body did not arrive within ${this.ms} ms`,
            errorCode: 'request_timeout',
          }),
        ),
      );
      promise.then(resolve, reject);
    });
  }

  /**
   * `promise`, or this deadline's 504 the moment it passes, whatever `promise` is still doing (the
   * caller aborts that work separately): a backend that is slow to let go does not hold the client.
   */
  bound<T>(promise: Promise<T>): Promise<T> {
    if (!this.timer && !this.expired) return promise;
    return new Promise<T>((resolve, reject) => {
      // Taken out once settled: kept, every part of a long stream would stay in memory to its end.
      const off = this.onExpiry(() => reject(this.error()));
      promise.then(
        (value) => {
          off();
          resolve(value);
        },
        (error: unknown) => {
          off();
          reject(error);
        },
      );
    });
  }

  /** What an expired request is answered. */
  error(): HttpError {
    return new HttpError({
      status: 504,
      message:
        `the model did not answer within this server's request timeout of ${this.ms} ms (its ` +
        '--request-timeout); the work was stopped. The time may have gone to waiting for the model, ' +
        'compiling the response schema or generating: retry later, or ask for fewer tokens, a shorter ' +
        'prompt or a simpler schema',
      type: 'server_error',
      errorCode: 'request_timeout',
    });
  }

  clear(): void {
    clearTimeout(this.timer);
    this.listeners.clear();
  }
}
