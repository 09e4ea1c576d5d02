export type {
  InvalidOutputPolicy,
  NegotiationAgentOptions,
  ResolvedSampling,
  SamplingOptions,
} from './agent-options.js';

export type { AgentInput, AgentUsage, SampleOptions } from './negotiation-agent.js';

export { NegotiationAgent } from './negotiation-agent.js';

export type { ParsedOutput } from './output-parsing.js';

export { parseModelOutput } from './output-parsing.js';

export type { ValidPredictInput } from './predict-input.js';

export type { PartialTurn, TurnStreamEvent, TurnStreamEventType } from './turn-events.js';

export { foldTurnEvent } from './turn-events.js';

export type { FieldEvent } from './turn-preview.js';

export { TurnStream } from './turn-stream.js';
