export {
  BestOfferEnvironment,
  type BestOfferEnvironmentName,
  type BestOfferEnvironmentOptions,
  type BestOfferReward,
  bestOfferReward,
} from './best-offer-environment.js';
export {
  type CreateEnvironmentOptions,
  createEnvironment,
  ENVIRONMENT_NAMES,
  type EnvironmentName,
} from './create-environment.js';
export {
  type ConnectEnvironmentOptions,
  connectEnvironment,
  EnvironmentClient,
  type RemoteStepResult,
} from './env-client.js';
export {
  DEFAULT_ENVIRONMENT_SERVER_LIMITS,
  type EnvironmentErrorCode,
  EnvironmentServer,
  type EnvironmentServerLimits,
  type EnvironmentServerOptions,
} from './env-server.js';
export type {
  Environment,
  EnvironmentLegalMove,
  EnvironmentObservation,
  EnvironmentResetOptions,
  EnvironmentState,
  EnvironmentStepInfo,
  EnvironmentStepResult,
  EpisodeRecord,
  EpisodeRunHeader,
} from './environment.js';
export { EpisodeLog } from './episode-log.js';
export { type EpisodeRewardOptions, resolveEpisodeRewards } from './episode-rewards.js';
export { EnvironmentServerError, EnvironmentStateError } from './errors.js';
export {
  MultiIssueEnvironment,
  type MultiIssueEnvironmentName,
  type MultiIssueEnvironmentOptions,
} from './multi-issue-environment.js';
export { MINIMAL_OBSERVATION_OMITS, type ObservationFields } from './observation-json.js';
export { ENVIRONMENT_WIRE_SCHEMAS } from './wire-schemas.js';
