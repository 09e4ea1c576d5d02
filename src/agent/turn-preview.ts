import { ACTIONS, type Action } from '../contract/action.js';
import { priceInInterval } from '../contract/legal-moves.js';
import { MAX_MESSAGE_LENGTH } from '../contract/turn-rules.js';
import type { TurnConstraints } from './turn-checks.js';
import type { TurnStreamEvent } from './turn-events.js';
import { type ScannedField, TurnTextScanner } from './turn-text-scanner.js';

/** The field events of a turn being written; `reset` and `turn` come from the agent. */
export type FieldEvent = Exclude<TurnStreamEvent, { type: 'reset' } | { type: 'turn' }>;

/**
 * The preview of one attempt's text: the scanner's fields, each checked on its own against the moment
 * before it becomes an event. An action the moves do not allow, a price outside the action's legal
 * interval (rules and guardrails), an unknown label, a repeated field or a message past its bound
 * silences the preview for the rest of the attempt: a UI never shows a price the guardrails forbid,
 * even from a server that ignores the schema. The turn's full check still runs on the whole text.
 */
export class TurnPreview {
  private readonly scanner = new TurnTextScanner();
  private readonly seen = new Set<string>();
  private action: Action | undefined;
  private price: number | null | undefined;
  private messageLength = 0;
  private silenced = false;

  constructor(private readonly constraints: TurnConstraints) {}

  /** The events the next piece of text completes. */
  push(delta: string): FieldEvent[] {
    if (this.silenced) return [];
    const events: FieldEvent[] = [];
    for (const field of this.scanner.push(delta)) {
      const event = this.check(field);
      if (event === undefined) {
        this.silenced = true;
        break;
      }
      if (event !== null) events.push(event);
    }
    return events;
  }

  /** The event for a field; `null` for a field shown another way; `undefined` to silence the preview. */
  private check(field: ScannedField): FieldEvent | null | undefined {
    if (field.kind === 'message-delta') {
      if (this.seen.has('message')) return undefined;
      this.messageLength += field.text.length;
      if (this.messageLength > MAX_MESSAGE_LENGTH) return undefined;
      return { type: 'message-delta', text: field.text };
    }
    if (this.seen.has(field.key)) return undefined;
    this.seen.add(field.key);
    const { value } = field;
    switch (field.key) {
      case 'action': {
        const action = ACTIONS.find((name) => name === value);
        if (!action || !this.constraints.moves.some((move) => move.action === action)) return undefined;
        if (this.price !== undefined && !this.priceFits(action, this.price)) return undefined;
        this.action = action;
        return { type: 'action', action };
      }
      case 'price': {
        if (value !== null && (typeof value !== 'number' || !Number.isFinite(value))) return undefined;
        if (this.action !== undefined && !this.priceFits(this.action, value)) return undefined;
        if (this.action === undefined && !this.constraints.moves.some((m) => this.priceFits(m.action, value)))
          return undefined;
        this.price = value;
        return { type: 'price', price: value };
      }
      case 'message_labels': {
        if (!Array.isArray(value) || !value.every((label) => typeof label === 'string')) return undefined;
        const { labels } = this.constraints;
        if (labels.kind === 'known' && !value.every((label) => labels.values.includes(label)))
          return undefined;
        return { type: 'labels', labels: value };
      }
      case 'message':
        // Its characters went out as deltas; the closing quote only marks it whole.
        this.seen.add('message');
        return typeof value === 'string' ? null : undefined;
      case 'response_time':
        if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return undefined;
        return { type: 'response-time', value };
      default:
        return undefined;
    }
  }

  /** Whether `price` is what `action` may carry now: inside its move's interval, or null when it has none. */
  private priceFits(action: Action, price: number | null): boolean {
    const move = this.constraints.moves.find((candidate) => candidate.action === action);
    if (!move) return false;
    if (!move.price) return price === null;
    return price !== null && priceInInterval(price, move.price);
  }
}
