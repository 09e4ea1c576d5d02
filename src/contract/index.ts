export type { Action } from './action.js';
export {
  ACTIONS,
  ActionSchema,
  isMessageAction,
  isPricedAction,
  MESSAGE_ACTIONS,
  PRICED_ACTIONS,
} from './action.js';
export { currencyDecimals, currencyStep, fitsCurrency, roundToCurrency } from './currency.js';
export type { ValidationIssue } from './errors.js';
export {
  BackendError,
  HaggleAbortError,
  HaggleError,
  InvalidInputError,
  InvalidModelOutputError,
  issuesFromZod,
  readablePath,
  throwIfAborted,
} from './errors.js';
export { UnsatisfiableGuardrailsError } from './guardrail-error.js';
export type { Guardrails, PriceBounds } from './guardrails.js';
export { boundsFor, GuardrailsSchema, PriceBoundsSchema, priceWithinBounds } from './guardrails.js';
export type { History, HistoryEntry, Role } from './history.js';
export { HistoryEntrySchema, HistorySchema, opponentOf, RoleSchema } from './history.js';
export type { JsonSchema } from './json-schema.js';
export type { LegalMove, PriceInterval } from './legal-moves.js';
export {
  describeInterval,
  gridEnds,
  intersectInterval,
  LegalMoveSchema,
  LegalMovesSchema,
  PriceIntervalSchema,
  priceInInterval,
} from './legal-moves.js';
export type { Item, ListingContext, ListingContextInput, ParticipantProfile } from './listing-context.js';
export {
  CurrencySchema,
  ItemSchema,
  ListingContextSchema,
  ParticipantProfileSchema,
} from './listing-context.js';
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
  CARD_EXAMPLE_LABELS,
  DEFAULT_MODEL_PROFILE,
  LabelVocabularySchema,
  MODEL_PROFILES,
  ModelProfileSchema,
  ProfileFactSchema,
  resolveModelProfile,
  SamplingDefaultsSchema,
} from './model-profile.js';
export type { Negotiator, NegotiatorDescription, PredictInput, PredictOptions } from './negotiator.js';
export type { TimeUnit } from './time-unit.js';
export { fromHours, TimeUnitSchema, toHours } from './time-unit.js';
export type { Turn, TurnBounds } from './turn.js';
export { TurnOfAnyUnitSchema, TurnSchema, turnSchemaFor, turnSchemaWithin } from './turn.js';
export type { TurnJsonSchemaOptions } from './turn-json-schema.js';
export { turnJsonSchema } from './turn-json-schema.js';
export { NotYourTurnError } from './turn-order-error.js';
export type { ActionShape } from './turn-rules.js';
export {
  ACTION_SHAPES,
  MAX_LABEL_LENGTH,
  MAX_LABELS_PER_MESSAGE,
  MAX_MESSAGE_LENGTH,
  MAX_PRICE,
  MAX_READ_MESSAGE_LENGTH,
  MAX_RESPONSE_HOURS,
  MAX_RESPONSE_TIME,
  maxResponseTime,
  SNAKE_CASE_PATTERN,
} from './turn-rules.js';
export type { SafeParseOutcome } from './validate.js';
export { checkInput, parseInput } from './validate.js';
