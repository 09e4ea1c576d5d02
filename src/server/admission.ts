import { HttpError } from './errors.js';

/** Durations remembered to estimate when a refused client should come back. */
const RECENT = 32;

/**
 * Counts the completion requests a server holds (served or waiting) and refuses one over `maxQueue`
 * with a 429 whose `Retry-After` is the median time a recent request took (at least a second):
 * about when a slot frees up. OpenAI clients, haggle's included, wait that long and try again.
 */
export class Admission {
  private held = 0;
  private readonly durations: number[] = [];

  constructor(private readonly maxQueue: number) {}

  /** Requests held now. */
  get size(): number {
    return this.held;
  }

  /** Takes a slot or throws the 429; call the returned function exactly once when the request ends. */
  enter(): () => void {
    if (this.held >= this.maxQueue) {
      const retryAfter = String(this.retryAfterSeconds());
      throw new HttpError({
        status: 429,
        message:
          `This server holds ${this.maxQueue} requests at once (its --max-queue) and is full: ` +
          `try again in ${retryAfter} s`,
        type: 'rate_limit_error',
        errorCode: 'queue_full',
        headers: { 'retry-after': retryAfter },
      });
    }
    this.held++;
    const start = performance.now();
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.held--;
      this.durations.push(performance.now() - start);
      if (this.durations.length > RECENT) this.durations.shift();
    };
  }

  private retryAfterSeconds(): number {
    if (this.durations.length === 0) return 1;
    const sorted = [...this.durations].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] as number;
    return Math.max(1, Math.ceil(median / 1000));
  }
}
