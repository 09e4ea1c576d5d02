/**
 * Negotiators that answer without I/O (the baselines) resolve in microtasks only, which would keep the
 * event loop from running timers and signal handlers until the whole run is over: Ctrl-C would not
 * be heard. Every few milliseconds a run's workers step out to the event loop; the results do
 * not depend on when that happens, so runs stay reproducible.
 */
export class EventLoopYield {
  private last = performance.now();

  async maybe(): Promise<void> {
    if (performance.now() - this.last < 10) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.last = performance.now();
  }
}
