/** Longest an owner waits for a less-served one (a safety valve, should one stall without leaving). */
const MAX_WAIT_MS = 250;

/**
 * haggle's choice: how long a prefill chunk should take. A request that arrives waits for at most
 * about one chunk before its first step; a smaller chunk costs the long prompt more (each chunk
 * copies the prompt's whole cache so far).
 */
const CHUNK_TARGET_MS = 50;

/**
 * Fair shares of one model between what uses it: its decoders (the lanes, see onnx-worker.ts) and the
 * tokenizing of long prompts, all on the worker's one thread. A turn holds the model alone (two
 * `session.run` calls at once only slow each other down), and each owner is charged the milliseconds
 * its turn took; before a turn, an owner that has used more than another active one lets it go first.
 * So a 30k-token prompt (its tokenizing, prefill and wide decoding steps) gets about half the time
 * while short requests are decoded, however long its own chunks are, instead of a turn per step.
 *
 * It also sizes prefill chunks to take about `CHUNK_TARGET_MS` (or a decoding step, if longer): a
 * 256-token chunk at position 30,000 takes over a second on a laptop core.
 */
export class Pace {
  private readonly used = new Map<object, number>();
  private readonly stepMs = new Map<object, number>();
  private holder: object | null = null;

  /**
   * Waits until no one else holds the model and `owner` has used no more than every other active
   * owner (that part at most `MAX_WAIT_MS`), then holds it until `charge`.
   */
  async turn(owner: object): Promise<void> {
    if (!this.used.has(owner)) {
      // A newcomer starts level with the least-served owner: no credit for the time it was idle.
      this.used.set(owner, this.used.size > 0 ? Math.min(...this.used.values()) : 0);
    }
    const started = performance.now();
    while (
      (this.holder !== null && this.holder !== owner) ||
      (this.ahead(owner) && performance.now() - started < MAX_WAIT_MS)
    ) {
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    this.holder = owner;
  }

  /** Ends `owner`'s turn, charging it `ms`. */
  charge(owner: object, ms: number): void {
    this.used.set(owner, (this.used.get(owner) ?? 0) + ms);
    if (this.holder === owner) this.holder = null;
  }

  /** `owner` has no work: it stops counting, and nobody waits for it. */
  leave(owner: object): void {
    this.used.delete(owner);
    if (this.holder === owner) this.holder = null;
  }

  /** Remembers how long `owner`'s decoding step took (a moving average). */
  recordStep(owner: object, ms: number): void {
    const last = this.stepMs.get(owner);
    this.stepMs.set(owner, last === undefined ? ms : 0.8 * last + 0.2 * ms);
  }

  /** Tokens for the next chunk of a prefill whose last chunk took `msPerToken` a token (0: unknown). */
  chunkTokens(msPerToken: number, max: number, min: number): number {
    if (msPerToken === 0) return max;
    const step = this.stepMs.size > 0 ? Math.min(...this.stepMs.values()) : 0;
    const target = Math.max(CHUNK_TARGET_MS, step);
    return Math.max(min, Math.min(max, Math.floor(target / msPerToken)));
  }

  private ahead(owner: object): boolean {
    const mine = this.used.get(owner) ?? 0;
    for (const [other, used] of this.used) if (other !== owner && used < mine) return true;
    return false;
  }
}
