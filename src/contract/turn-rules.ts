import type { Action } from './action.js';

/**
 * The rules a turn obeys beyond its types, written once. `TurnSchema` validates with them and
 * `turnJsonSchema()` compiles them into one `oneOf` branch per action, so the decoder, remote servers
 * and validation can never disagree.
 */
export interface ActionShape {
  /** `positive`: a price above zero is required; `none`: price must be `null`. */
  price: 'positive' | 'none';
  /** `required`: a non-empty message; `none`: message must be `""`. */
  message: 'required' | 'none';
  /** Labels name the strategy of a message, so they exist only where a message does. */
  labels: 'allowed' | 'none';
}

/** For each action, whether it carries a price, a message and labels: the rules `TurnSchema` enforces. */
export const ACTION_SHAPES: Readonly<Record<Action, ActionShape>> = {
  offer: { price: 'positive', message: 'none', labels: 'none' },
  offer_with_message: { price: 'positive', message: 'required', labels: 'allowed' },
  accept: { price: 'none', message: 'none', labels: 'none' },
  decline: { price: 'none', message: 'none', labels: 'none' },
  message_only: { price: 'none', message: 'required', labels: 'allowed' },
  no_response: { price: 'none', message: 'none', labels: 'none' },
};

/** Longest message a turn may carry, in UTF-16 code units. */
export const MAX_MESSAGE_LENGTH = 2000;

/** Most labels one message may carry. */
export const MAX_LABELS_PER_MESSAGE = 5;

/** What an open label vocabulary allows: snake_case identifiers such as `build_rapport`. */
export const SNAKE_CASE_PATTERN = '^[a-z][a-z0-9]*(_[a-z0-9]+)*$';
export const SNAKE_CASE = new RegExp(SNAKE_CASE_PATTERN);

/** Longest `response_time` accepted, in the profile's unit; a bound keeps numbers finite for decoders. */
export const MAX_RESPONSE_TIME = 100_000;

/**
 * Highest price anywhere in the contract (a list price, an offer), in the currency's units. haggle's
 * choice: far above any marketplace listing, and low enough that every price with its cents is
 * written exactly in 12 significant digits (the decoder writes at most 15), so a price bound is
 * always a number the model can spell.
 */
export const MAX_PRICE = 1_000_000_000;
