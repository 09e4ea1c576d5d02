import {
  boulware,
  conceder,
  linearConcession,
  PopulationAgent,
  ReservationLearningAgent,
  TitForTatAgent,
} from '../baselines/index.js';
import type { Negotiator } from '../contract/negotiator.js';

/** Negotiators the CLI can build by name, with their default settings. No model needed for any. */
export const CLI_AGENTS = {
  population: () => new PopulationAgent(),
  boulware: () => boulware(),
  linear: () => linearConcession(),
  conceder: () => conceder(),
  'tit-for-tat': () => new TitForTatAgent(),
  /** Learns the other side's reservation price from its concessions; buyer or seller. */
  'reservation-learner': () => new ReservationLearningAgent(),
} as const satisfies Record<string, () => Negotiator>;

export type CliAgentName = keyof typeof CLI_AGENTS;
export const CLI_AGENT_NAMES = Object.keys(CLI_AGENTS) as CliAgentName[];

export function createCliAgent(name: CliAgentName): Negotiator {
  return CLI_AGENTS[name]();
}
