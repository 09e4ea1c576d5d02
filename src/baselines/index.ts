export type { PopulationAgentOptions } from './population-agent.js';
export { PopulationAgent } from './population-agent.js';
export type {
  PopulationParameterName,
  PopulationParameterSpec,
  PopulationParameters,
} from './population-parameters.js';
export {
  BACKUS_2020,
  DEFAULT_POPULATION_PARAMETERS,
  EBAY_BEST_OFFER_DOCS,
  MODEL_CARD,
  POPULATION_FACTS,
  POPULATION_PARAMETER_TABLE,
} from './population-parameters.js';
export type { PriceLimitOptions } from './price-limits.js';
export {
  DEFAULT_ASPIRATION_RATIO,
  DEFAULT_RESERVATION_RATIO,
  DEFAULT_RESPONSE_TIME_HOURS,
} from './price-limits.js';
export { estimateReservationPrice } from './reservation-estimate.js';
export type { ReservationLearningAgentOptions } from './reservation-learning-agent.js';
export { ReservationLearningAgent } from './reservation-learning-agent.js';
export type { NamedTimeBasedOptions, TimeBasedAgentOptions } from './time-based-agent.js';
export {
  BOULWARE_EXPONENT,
  boulware,
  CONCEDER_EXPONENT,
  conceder,
  DEFAULT_HORIZON,
  LINEAR_EXPONENT,
  linearConcession,
  TimeBasedAgent,
} from './time-based-agent.js';
export type { TitForTatAgentOptions } from './tit-for-tat-agent.js';
export {
  DEFAULT_ACCEPTANCE_THRESHOLD,
  DEFAULT_INITIAL_CONCESSION,
  DEFAULT_RECIPROCITY,
  TitForTatAgent,
} from './tit-for-tat-agent.js';
