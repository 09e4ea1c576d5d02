import { contentHash } from './canonical-json.js';
import type { Experiment, ExperimentLlm } from './experiment-schema.js';

/**
 * An experiment as a tournament header records it: what decides the results (participants, models,
 * sampling, prompts, labels, the suite's id, roles, round limit, match timeout), with its content hash.
 *
 * Left out, haggle's choice: where the servers are (`baseURL`, `replicas`) and how fast the run goes
 * (`concurrency`, `concurrencyPerEndpoint`, `timeoutMs` of an HTTP attempt) and where results go
 * (`out`). They change from machine to machine without changing a match, so a tournament resumes against
 * a server restarted on another port; the servers' URLs (without credentials) are in the header's
 * `provenance`, which a resume does not compare. Secrets are never in an experiment: `apiKeyEnv` is
 * the NAME of a variable, kept so a reader knows which credential a run used.
 */
export interface ExperimentRecord {
  /** SHA-256 of the canonical JSON of `definition`. */
  hash: string;
  definition: Record<string, unknown>;
}

function llmDefinition(llm: ExperimentLlm): Record<string, unknown> {
  const {
    baseURL: _baseURL,
    replicas: _replicas,
    concurrencyPerEndpoint: _concurrency,
    timeoutMs: _timeout,
    apiKey: _apiKey, // refused by the schema; never recorded even if a caller skipped it
    ...rest
  } = llm;
  return rest;
}

/** A provider participant without where it is served and how fast it goes, as `llmDefinition`. */
function providerDefinition(participant: Record<string, unknown>): Record<string, unknown> {
  const { baseURL: _baseURL, concurrencyPerEndpoint: _concurrency, apiKey: _apiKey, ...rest } = participant;
  return rest;
}

function participantDefinitions<T extends { llm?: ExperimentLlm | undefined; provider?: string | undefined }>(
  participants: Readonly<Record<string, T>>,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(participants).map(([name, participant]) => [
      name,
      participant.llm
        ? { ...participant, llm: llmDefinition(participant.llm) }
        : participant.provider !== undefined
          ? providerDefinition(participant as Record<string, unknown>)
          : participant,
    ]),
  );
}

/** The record of an experiment that plays the suite `suiteId`. */
export function experimentRecord(experiment: Experiment, suiteId: string): ExperimentRecord {
  const definition: Record<string, unknown> = {
    ...(experiment.name !== undefined ? { name: experiment.name } : {}),
    suite: {
      id: suiteId,
      ...(experiment.suite.generate ? { generate: experiment.suite.generate } : {}),
    },
    arms: participantDefinitions(experiment.arms),
    opponents: participantDefinitions(experiment.opponents),
    // Canonical JSON sorts keys; the order of the arms (match indices, the reference arm of the
    // comparisons) and of the opponents (a generated suite's seeds) is part of the experiment.
    armOrder: Object.keys(experiment.arms),
    opponentOrder: Object.keys(experiment.opponents),
    roles: experiment.roles ?? 'seller',
    // The suite's own limit (10 unless it sets one) when the experiment gives none.
    maxRounds: experiment.maxRounds ?? experiment.suite.generate?.maxRounds ?? 'suite',
    ...(experiment.matchTimeoutMs !== undefined ? { matchTimeoutMs: experiment.matchTimeoutMs } : {}),
  };
  return { hash: contentHash(definition), definition };
}
