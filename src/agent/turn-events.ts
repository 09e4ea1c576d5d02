import type { BackendWarning, Usage } from '../backends/language-backend.js';
import type { Action } from '../contract/action.js';
import type { Turn } from '../contract/turn.js';

/**
 * What `agent.stream` yields while a turn is written, in the order the model writes the fields
 * (`action`, `price`, `labels`, `message-delta`s, `response-time`), then `turn`. Every event is plain
 * data with a `type`. Events before `turn` are a preview: only `turn` is validated, and a `reset`
 * voids everything shown since the last one (see docs/streaming.md).
 */
export type TurnStreamEvent =
  /** The turn's action, once its JSON string has closed. */
  | { type: 'action'; action: Action }
  /** The price, once the number is whole (never "4" on the way to "45"); `null` for actions without one. */
  | { type: 'price'; price: number | null }
  /** The message's strategy labels, once the array has closed. */
  | { type: 'labels'; labels: string[] }
  /** More characters of the message, in order; their concatenation is the message. */
  | { type: 'message-delta'; text: string }
  /** The response time, in the agent's profile's unit, once the number is whole. */
  | { type: 'response-time'; value: number }
  /**
   * Forget every event since the start or the last `reset`: the backend retried after it had begun
   * (`retry`), or the written turn failed validation and the agent asks again (`invalid-turn`).
   */
  | { type: 'reset'; reason: 'retry' | 'invalid-turn' }
  /** The last event: the validated turn, equal to what `predict` returns for the same seed and input. */
  | { type: 'turn'; turn: Turn; usage: Usage; warnings: BackendWarning[] };

/** The `type` of every `TurnStreamEvent`. */
export type TurnStreamEventType = TurnStreamEvent['type'];

/**
 * What a UI can show of a turn being written, narrowed by its action once that is known: a priced
 * action's `price` is a number, the others' `null`. Every field is absent until its event arrives.
 */
export type PartialTurn =
  | {
      action?: undefined;
      price?: number | null;
      message_labels?: string[];
      message?: string;
      response_time?: number;
    }
  | {
      action: 'offer' | 'offer_with_message';
      price?: number;
      message_labels?: string[];
      message?: string;
      response_time?: number;
    }
  | {
      action: 'accept' | 'decline' | 'message_only' | 'no_response';
      price?: null;
      message_labels?: string[];
      message?: string;
      response_time?: number;
    };

/**
 * Folds one event into the partial turn a UI shows; pure, so it suits `useReducer` or a store. A
 * `reset` empties it; `turn` replaces it with the validated turn, so folding a whole stream gives
 * exactly that turn.
 *
 * @example
 * ```ts
 * import { foldTurnEvent, type PartialTurn } from 'haggle';
 *
 * let shown: PartialTurn = {};
 * for await (const event of agent.stream({ context, history, role: 'seller' }, { signal })) {
 *   shown = foldTurnEvent(shown, event); // action and price first, then the message as written
 *   console.log(shown.action, shown.price, shown.message ?? '');
 * }
 * ```
 */
export function foldTurnEvent(partial: PartialTurn, event: TurnStreamEvent): PartialTurn {
  switch (event.type) {
    case 'action':
      return { ...partial, action: event.action } as PartialTurn;
    case 'price':
      return { ...partial, price: event.price } as PartialTurn;
    case 'labels':
      return { ...partial, message_labels: [...event.labels] };
    case 'message-delta':
      return { ...partial, message: (partial.message ?? '') + event.text };
    case 'response-time':
      return { ...partial, response_time: event.value };
    case 'reset':
      return {};
    case 'turn':
      return { ...event.turn, message_labels: [...event.turn.message_labels] } as PartialTurn;
  }
}
