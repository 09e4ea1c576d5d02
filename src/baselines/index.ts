export type { PopulationAgentOptions } from './population-agent.js';

export { PopulationAgent } from './population-agent.js';

export type {
  PopulationParameterName,
  PopulationParameterSpec,
  PopulationParameters,
} from './population-parameters.js';

export {
  DEFAULT_POPULATION_PARAMETERS,
  POPULATION_FACTS,
  POPULATION_PARAMETER_TABLE,
} from './population-parameters.js';

export type { PriceLimitOptions } from './price-limits.js';
export type { ReservationLearningAgentOptions } from './reservation-learning-agent.js';
export { ReservationLearningAgent } from './reservation-learning-agent.js';
export type { NamedTimeBasedOptions, TimeBasedAgentOptions } from './time-based-agent.js';

export { boulware, conceder, linearConcession, TimeBasedAgent } from './time-based-agent.js';

export type { TitForTatAgentOptions } from './tit-for-tat-agent.js';

export { TitForTatAgent } from './tit-for-tat-agent.js';
