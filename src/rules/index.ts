export type { AlternatingOffersRulesOptions } from './alternating-offers-rules.js';

export { AlternatingOffersRules } from './alternating-offers-rules.js';

export type { BestOfferRulesOptions } from './best-offer-rules.js';

export { BestOfferRules } from './best-offer-rules.js';

export type { EndReason } from './end-reason.js';

export { legalMovesAfter, replayHistory } from './replay.js';

export type { IllegalTurnPolicy, NegotiationState, Rules, StandingOffer, TurnRuling } from './rules.js';
