import { EventEmitter } from 'eventemitter3';

type Listener<T> = (payload: T) => unknown;

/**
 * A typed event emitter whose `emit` never throws: a listener that throws (or returns a promise that
 * rejects) is reported through `onListenerError` and the other listeners still run. A session must not
 * break because a user's logging code did.
 */
export class SafeEmitter<Events extends { [name: string]: unknown }> {
  private readonly emitter = new EventEmitter();
  // Each user listener is registered wrapped in a guard; this map finds the guard again for `off`.
  private readonly guards = new Map<Listener<never>, Map<string, Listener<unknown>>>();

  constructor(private readonly onListenerError: (error: unknown, event: keyof Events & string) => void) {}

  on<K extends keyof Events & string>(event: K, listener: Listener<Events[K]>): this {
    this.emitter.on(event, this.guard(event, listener));
    return this;
  }

  once<K extends keyof Events & string>(event: K, listener: Listener<Events[K]>): this {
    this.emitter.once(event, this.guard(event, listener));
    return this;
  }

  off<K extends keyof Events & string>(event: K, listener: Listener<Events[K]>): this {
    const guard = this.guards.get(listener as Listener<never>)?.get(event);
    if (guard) this.emitter.off(event, guard);
    return this;
  }

  listenerCount(event: keyof Events & string): number {
    return this.emitter.listenerCount(event);
  }

  emit<K extends keyof Events & string>(event: K, payload: Events[K]): void {
    this.emitter.emit(event, payload);
  }

  private guard<K extends keyof Events & string>(event: K, listener: Listener<Events[K]>): Listener<unknown> {
    const guarded: Listener<unknown> = (payload) => {
      try {
        const result = listener(payload as Events[K]);
        if (result instanceof Promise) result.catch((error: unknown) => this.report(error, event));
      } catch (error) {
        this.report(error, event);
      }
    };
    let byEvent = this.guards.get(listener as Listener<never>);
    if (!byEvent) {
      byEvent = new Map();
      this.guards.set(listener as Listener<never>, byEvent);
    }
    byEvent.set(event, guarded);
    return guarded;
  }

  private report(error: unknown, event: keyof Events & string): void {
    try {
      this.onListenerError(error, event);
    } catch {
      // The error handler itself failed; nothing sensible is left to tell.
    }
  }
}
