export type { AlternatingOffersRulesOptions } from './alternating-offers-rules.js';
export { AlternatingOffersRules } from './alternating-offers-rules.js';
export type { BestOfferRulesOptions } from './best-offer-rules.js';
export { BestOfferRules } from './best-offer-rules.js';
export type { EndReason, SessionOutcome } from './outcome.js';
export { END_REASONS } from './outcome.js';
export type { IllegalTurnPolicy, NegotiationState, Rules, StandingOffer, TurnRuling } from './rules.js';
export type { SessionOptions, SessionRunOptions } from './session.js';
export { Session } from './session.js';
export type {
  SessionEndEvent,
  SessionErrorEvent,
  SessionEvents,
  SessionStartEvent,
  TurnEvent,
} from './session-events.js';
export type { RecordedTurn, SessionResult } from './session-result.js';
