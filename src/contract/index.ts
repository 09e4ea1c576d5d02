export type { Action } from './action.js';

export { ACTIONS, isMessageAction, isPricedAction } from './action.js';
export { currencyDecimals, roundToCurrency } from './currency.js';

export type { ValidationIssue } from './errors.js';
export {
  BackendError,
  HaggleAbortError,
  HaggleError,
  InvalidInputError,
  InvalidModelOutputError,
  NotYourTurnError,
  throwIfAborted,
  UnsatisfiableGuardrailsError,
} from './errors.js';
export type { Guardrails, PriceBounds } from './guardrails.js';
export { GuardrailsSchema } from './guardrails.js';
export type { History, HistoryEntry, Role } from './history.js';
export { HistoryEntrySchema, HistorySchema } from './history.js';
export type { JsonSchema } from './json-schema.js';
export type { LegalMove, PriceInterval } from './legal-moves.js';
export {
  describeInterval,
  intersectInterval,
  LegalMoveSchema,
  LegalMovesSchema,
  priceInInterval,
} from './legal-moves.js';
export type { Item, ListingContext, ListingContextInput, ParticipantProfile } from './listing-context.js';
export { ListingContextSchema } from './listing-context.js';
export type { CardFact, CardNumber, CardReading, CardSample, CardSubject } from './model-card.js';
export { CARD_FACTS, CARD_MODELS, cardFact } from './model-card.js';
export type {
  BuiltInProfileId,
  LabelVocabulary,
  ModelProfile,
  ModelProfileInput,
  ProfileFact,
  SamplingDefaults,
} from './model-profile.js';
export {
  DEFAULT_MODEL_PROFILE,
  MODEL_PROFILES,
  ModelProfileSchema,
  resolveModelProfile,
} from './model-profile.js';
export type { Negotiator, NegotiatorDescription, PredictInput, PredictOptions } from './negotiator.js';
export type { TimeUnit } from './time-unit.js';
export type { Turn, TurnBounds } from './turn.js';
export { TurnOfAnyUnitSchema, TurnSchema, turnSchemaFor } from './turn.js';
export type { TurnJsonSchemaOptions } from './turn-json-schema.js';
export { turnJsonSchema } from './turn-json-schema.js';

export type { ActionShape } from './turn-rules.js';

export {
  MAX_LABEL_LENGTH,
  MAX_MESSAGE_LENGTH,
  MAX_PRICE,
  MAX_READ_MESSAGE_LENGTH,
  MAX_RESPONSE_HOURS,
  maxResponseTime,
} from './turn-rules.js';

export type { SafeParseOutcome } from './validate.js';

export { parseInput } from './validate.js';
