import { HaggleAbortError, InvalidInputError } from '../contract/errors.js';
import type { Turn } from '../contract/turn.js';
import type { TurnStreamEvent } from './turn-events.js';

/**
 * The events of one streamed turn (see `TurnStreamEvent`): read it once, with `for await`, or as a
 * `ReadableStream` (`toReadableStream()`, for a `Response` body or a web framework), or wait for the
 * validated turn alone (`turn()`). Breaking out of the loop, cancelling the stream or firing the
 * caller's signal cancels the backend's work.
 */
export class TurnStream implements AsyncIterable<TurnStreamEvent> {
  readonly #produce: (signal: AbortSignal) => AsyncGenerator<TurnStreamEvent>;
  readonly #signal: AbortSignal | undefined;
  #read = false;

  /** @internal Made by `NegotiationAgent.stream`. */
  constructor(produce: (signal: AbortSignal) => AsyncGenerator<TurnStreamEvent>, signal?: AbortSignal) {
    this.#produce = produce;
    this.#signal = signal;
  }

  /** The events in writing order; leaving the loop early (`break`, `return()`) cancels the work. */
  [Symbol.asyncIterator](): AsyncIterator<TurnStreamEvent> {
    if (this.#read) {
      throw new InvalidInputError({
        subject: 'TurnStream',
        issues: [
          {
            path: '(stream)',
            message: 'a turn stream is read once; call agent.stream again for another read',
          },
        ],
      });
    }
    this.#read = true;
    const abandoned = new AbortController();
    const signal = this.#signal ? anySignal(this.#signal, abandoned.signal) : abandoned.signal;
    const events = this.#produce(signal);
    return {
      next: () => events.next(),
      return: async (value?: unknown) => {
        // The backend's work stops first; the generator's `finally` blocks then run.
        if (!abandoned.signal.aborted) abandoned.abort(new HaggleAbortError('the turn stream was abandoned'));
        await events.return(undefined).catch(() => undefined);
        return { done: true, value: value as TurnStreamEvent };
      },
    };
  }

  /** The events as a web `ReadableStream`; cancelling it cancels the work. */
  toReadableStream(): ReadableStream<TurnStreamEvent> {
    const iterator = this[Symbol.asyncIterator]();
    return new ReadableStream<TurnStreamEvent>({
      async pull(controller) {
        try {
          const next = await iterator.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (error) {
          controller.error(error);
        }
      },
      async cancel() {
        await iterator.return?.();
      },
    });
  }

  /** Reads the whole stream and resolves with its validated turn (what `predict` would return). */
  async turn(): Promise<Turn> {
    for await (const event of this) {
      if (event.type === 'turn') return event.turn;
    }
    // The agent's stream always ends with `turn` or throws; a stream without one is a bug to report.
    throw new Error('the turn stream ended without a turn event');
  }
}

/** A signal that fires when either does, without a listener on the caller's signal where the runtime can. */
function anySignal(outer: AbortSignal, inner: AbortSignal): AbortSignal {
  if (typeof AbortSignal.any === 'function') return AbortSignal.any([outer, inner]);
  const controller = new AbortController();
  const forward = (from: AbortSignal) => () => controller.abort(from.reason);
  outer.addEventListener('abort', forward(outer), { once: true });
  inner.addEventListener('abort', forward(inner), { once: true });
  if (outer.aborted) controller.abort(outer.reason);
  return controller.signal;
}
