/**
 * One attempt's clock and its wiring to the caller's signal: a controller that aborts at the shorter of
 * the per-attempt timeout and what is left of the whole call (`scope` says which one that is), or when
 * the caller aborts. Both the plain request and the streamed one run under it.
 */
export class AttemptTimer {
  /** Aborts the attempt's socket: on time-out, on the caller's abort, or when the attempt is closed early. */
  readonly controller = new AbortController();
  /** Which limit bounds this attempt: its own timeout, or the total one when less of it is left. */
  readonly scope: 'attempt' | 'total';
  private fired = false;
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly onAbort: () => void;

  constructor(
    timeoutMs: number,
    /** Epoch ms after which the whole call is over. */
    deadline: number,
    private readonly signal: AbortSignal | undefined,
  ) {
    const remaining = deadline - Date.now();
    this.scope = timeoutMs < remaining ? 'attempt' : 'total';
    this.timer = setTimeout(
      () => {
        this.fired = true;
        this.controller.abort(new Error('timeout'));
      },
      Math.max(0, Math.min(timeoutMs, remaining)),
    );
    this.onAbort = () => this.controller.abort(signal?.reason);
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** The attempt's own timer fired (not the caller's abort). */
  get timedOut(): boolean {
    return this.fired;
  }

  /** Stops the clock and lets go of the caller's signal. */
  dispose(): void {
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this.onAbort);
  }
}
