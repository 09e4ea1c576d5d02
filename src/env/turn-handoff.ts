import { HaggleAbortError } from '../contract/errors.js';

/** Where an episode stopped: the trained side's turn is due, or the negotiation ended. */
export type HandoffStop<Input, Result> =
  | { kind: 'turn'; input: Input }
  | { kind: 'end'; result: Result }
  | { kind: 'crash'; error: unknown };

/**
 * The meeting point between a negotiation that runs as one async function (the same code tournaments
 * and sessions run) and a trainer that gives the trained side's turns one `step` at a time: the
 * negotiation's call for the trained side's turn parks here until `answer` or `fail` is called.
 * Running the real negotiation loop, rather than a copy of its rules, is what makes an episode's
 * reward the reward a tournament gives the same moves.
 */
export class TurnHandoff<Input, Turn, Result> {
  private waiting: ((stop: HandoffStop<Input, Result>) => void) | undefined;
  private stopped: HandoffStop<Input, Result> | undefined;
  private pending: { resolve: (turn: Turn) => void; reject: (error: unknown) => void } | undefined;

  /** Called by the negotiation for the trained side's turn: resolves with what the trainer answers. */
  requestTurn(input: Input, signal?: AbortSignal): Promise<Turn> {
    return new Promise<Turn>((resolve, reject) => {
      if (signal?.aborted) return reject(new HaggleAbortError(signal.reason));
      const onAbort = () => {
        this.pending = undefined;
        reject(new HaggleAbortError(signal?.reason));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending = {
        resolve: (turn) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(turn);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      this.stop({ kind: 'turn', input });
    });
  }

  /** Called when the negotiation ends. */
  end(result: Result): void {
    this.stop({ kind: 'end', result });
  }

  /** Called when the negotiation threw (not a result: a bug or an abort). */
  crash(error: unknown): void {
    this.stop({ kind: 'crash', error });
  }

  /** Resolves at the next stop: the trained side's turn is due, or the negotiation ended. */
  next(): Promise<HandoffStop<Input, Result>> {
    const stopped = this.stopped;
    if (stopped) {
      this.stopped = undefined;
      return Promise.resolve(stopped);
    }
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  /** Plays the trained side's turn. */
  answer(turn: Turn): void {
    const pending = this.takePending();
    pending.resolve(turn);
  }

  /** Makes the trained side's turn fail with `error` (an invalid action). */
  fail(error: unknown): void {
    const pending = this.takePending();
    pending.reject(error);
  }

  private takePending() {
    const pending = this.pending;
    if (!pending) throw new Error('no turn of the trained side is pending');
    this.pending = undefined;
    return pending;
  }

  private stop(stop: HandoffStop<Input, Result>): void {
    const waiting = this.waiting;
    if (waiting) {
      this.waiting = undefined;
      waiting(stop);
    } else {
      this.stopped = stop;
    }
  }
}
