import type { Action } from './action.js';
import { fromHours, type TimeUnit } from './time-unit.js';

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

/**
 * Longest message a turn may write, in UTF-16 code units: 500. haggle's choice (the model card and the
 * preprint state no message length; the card's one example message, "Hi, I've been looking for this
 * exact item...", is 44 characters): a Best Offer note is a line or two, and 500 characters hold
 * several sentences of one, while bounding what a turn costs to write. A model with random habits
 * filled the 2,000 characters allowed before to a mean of 1,172 (docs/benchmarks.md), and a turn's cost
 * is its tokens. `TurnSchema`, the JSON Schema, the decoder and the agent's check (every backend, remote
 * servers included) hold turns to it.
 */
export const MAX_MESSAGE_LENGTH = 500;

/**
 * Longest message a turn may carry where haggle reads it rather than writes it, in UTF-16 code units:
 * the turns of a listing's history (real sessions, or another model's) and the records of run files.
 * haggle's choice, from a labelled reading of the market: eBay's Negotiation API takes a seller's offer
 * message of up to 2,000 characters (developer.ebay.com, `CreateOffersRequest.message`, "Maximum length:
 * 2,000 characters"), so a real session can hold one that long; run files written before the 500 bound
 * had the same 2,000 and stay readable.
 */
export const MAX_READ_MESSAGE_LENGTH = 2000;

/** Most labels one message may carry. */
export const MAX_LABELS_PER_MESSAGE = 5;

/** What an open label vocabulary allows: snake_case identifiers such as `build_rapport`. */
export const SNAKE_CASE_PATTERN = '^[a-z][a-z0-9]*(_[a-z0-9]+)*$';
export const SNAKE_CASE = new RegExp(SNAKE_CASE_PATTERN);

/**
 * Longest a turn may take, in hours: 30 days. haggle's choice (the model card and the preprint state no
 * listing duration): a turn answers a listing, and no answer comes after the listing has ended; 30 days
 * is the longest a listing runs in haggle's market (a fixed-price listing renewed monthly). The rules
 * narrow it further: to what is left of the listing, and of a standing offer's life.
 */
export const MAX_RESPONSE_HOURS = 720;

/**
 * Longest `response_time` `TurnSchema` accepts: `MAX_RESPONSE_HOURS` in hours, the unit of every built-in
 * profile and baseline. A profile in another unit is checked with `turnSchemaFor(unit)`.
 */
export const MAX_RESPONSE_TIME = MAX_RESPONSE_HOURS;

/** `MAX_RESPONSE_HOURS` in `unit`: the longest `response_time` a turn written in that unit may carry. */
export function maxResponseTime(unit: TimeUnit): number {
  return fromHours(MAX_RESPONSE_HOURS, unit);
}

/**
 * Longest label, in characters. haggle's choice: the model card's longest named label,
 * `declare_cost_limit_seller_firm`, has 30 characters; 48 leaves room for the 15 labels the card does
 * not name while keeping a model with random habits from writing a paragraph into a label.
 */
export const MAX_LABEL_LENGTH = 48;

/**
 * Highest price anywhere in the contract (a list price, an offer), in the currency's units. haggle's
 * choice: far above any marketplace listing, and low enough that every price with its cents is
 * written exactly in 12 significant digits (the decoder writes at most 15), so a price bound is
 * always a number the model can spell.
 */
export const MAX_PRICE = 1_000_000_000;
