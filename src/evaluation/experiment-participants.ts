import type { LanguageBackend } from '../backends/language-backend.js';
import { OpenAICompatibleBackend } from '../backends/openai/node-backend.js';
import type { BackendLogger } from '../backends/openai/openai-options.js';
import type { ValidationIssue } from '../contract/errors.js';
import { processEnvironment } from '../internal/environment.js';
import {
  MULTI_ISSUE_BASELINES,
  type MultiIssueBaselineName,
} from '../multi-issue/multi-issue-baseline-registry.js';
import { MultiIssueLlmAgent } from '../multi-issue/multi-issue-llm-agent.js';
import type { MultiIssueNegotiator } from '../multi-issue/multi-issue-turn.js';
import { ExperimentFileError } from './experiment-file.js';
import {
  type Experiment,
  type ExperimentLlm,
  type ExperimentParticipant,
  isProviderParticipant,
} from './experiment-schema.js';
import type { ParticipantLabel, ParticipantLabels } from './participant-label.js';

/** Where an experiment's players look up their keys and report retries. */
export interface ExperimentParticipantsOptions {
  /** Where `apiKeyEnv` names are looked up. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Where the backends report retries (never given a credential). */
  logger?: BackendLogger;
  /** The experiment file, for messages. */
  file?: string;
  /**
   * The backends of `provider` participants, by path (`arms.NAME`, `opponents.NAME`): an AI SDK model
   * each, made by `haggle/ai-sdk`'s `experimentProviderBackends` (which `haggle evaluate` calls), since
   * loading a provider package is asynchronous and lives in a layer above this one.
   */
  providerBackends?: Readonly<Record<string, LanguageBackend>>;
}

/** An experiment's arms and opponents as negotiators, with the labels the tournament header records. */
export interface ExperimentParticipants {
  arms: Record<string, MultiIssueNegotiator>;
  opponents: Record<string, MultiIssueNegotiator>;
  labels: ParticipantLabels;
}

/** The API key an LLM participant names, or an issue when the variable is unset or empty. */
function apiKeyOf(
  llm: ExperimentLlm,
  path: string,
  env: Readonly<Record<string, string | undefined>>,
  issues: ValidationIssue[],
): string | undefined {
  if (llm.apiKeyEnv === undefined) return undefined;
  const value = env[llm.apiKeyEnv];
  if (value === undefined || value === '') {
    issues.push({
      path: `${path}.llm.apiKeyEnv`,
      message: `the environment variable ${llm.apiKeyEnv} is not set (or empty); set it (export ${llm.apiKeyEnv}=...) before running, or leave "apiKeyEnv" out for a server that takes no key`,
    });
    return undefined;
  }
  return value;
}

/** The multi-issue LLM agent of one participant: its own backend over its endpoint(s). */
export function experimentLlmAgent(
  llm: ExperimentLlm,
  apiKey: string | undefined,
  logger?: BackendLogger,
): MultiIssueLlmAgent {
  const backend = new OpenAICompatibleBackend({
    baseURL: llm.replicas ?? (llm.baseURL as string),
    model: llm.model,
    ...(apiKey !== undefined ? { apiKey } : {}),
    ...(llm.dialect !== undefined ? { dialect: llm.dialect } : {}),
    ...(llm.endpoint !== undefined ? { endpoint: llm.endpoint } : {}),
    ...(llm.concurrencyPerEndpoint !== undefined
      ? { maxConcurrencyPerReplica: llm.concurrencyPerEndpoint }
      : {}),
    ...(llm.timeoutMs !== undefined ? { timeoutMs: llm.timeoutMs } : {}),
    ...(logger ? { logger } : {}),
  });
  return llmAgentOver(backend, llm);
}

/** The multi-issue LLM agent over `backend` with a participant's sampling, token limit, re-asks and prompt. */
function llmAgentOver(
  backend: LanguageBackend,
  settings: Pick<ExperimentLlm, 'sampling' | 'maxTokens' | 'retries' | 'systemPrompt'>,
): MultiIssueLlmAgent {
  const sampling = settings.sampling ?? {};
  return new MultiIssueLlmAgent({
    backend,
    ...(sampling.temperature !== undefined ? { temperature: sampling.temperature } : {}),
    ...(sampling.topP !== undefined ? { topP: sampling.topP } : {}),
    ...(sampling.topK !== undefined ? { topK: sampling.topK } : {}),
    ...(sampling.seed !== undefined ? { seed: sampling.seed } : {}),
    ...(settings.maxTokens !== undefined ? { maxTokens: settings.maxTokens } : {}),
    ...(settings.retries !== undefined ? { retries: settings.retries } : {}),
    ...(settings.systemPrompt !== undefined ? { systemPrompt: settings.systemPrompt } : {}),
  });
}

function labelOf(participant: ExperimentParticipant): ParticipantLabel {
  return {
    kind: participant.baseline === undefined ? 'llm' : 'baseline',
    ...(participant.family !== undefined ? { family: participant.family } : {}),
    ...(participant.trainingPool !== undefined ? { trainingPool: participant.trainingPool } : {}),
    ...('base' in participant && participant.base !== undefined ? { base: participant.base } : {}),
  };
}

/**
 * Builds the negotiators an experiment declares (a baseline by its registry name, an LLM through an
 * `OpenAICompatibleBackend`, a provider's model through the backend given in `providerBackends`) and
 * their labels. Every unset key variable is reported at once, by name and
 * path; a key's value never appears in a message.
 */
export function experimentParticipants(
  experiment: Experiment,
  options: ExperimentParticipantsOptions = {},
): ExperimentParticipants {
  const env = options.env ?? processEnvironment();
  const issues: ValidationIssue[] = [];
  const build = (participant: ExperimentParticipant, path: string): MultiIssueNegotiator | undefined => {
    if (participant.baseline !== undefined)
      return MULTI_ISSUE_BASELINES[participant.baseline as MultiIssueBaselineName]();
    if (isProviderParticipant(participant)) {
      const backend = options.providerBackends?.[path];
      if (backend) return llmAgentOver(backend, participant);
      issues.push({
        path: `${path}.provider`,
        message: `a "provider" participant is played through haggle/ai-sdk: run the experiment with \`haggle evaluate --experiment\`, or pass experimentProviderBackends(experiment) as providerBackends`,
      });
      return undefined;
    }
    const llm = participant.llm as ExperimentLlm;
    const apiKey = apiKeyOf(llm, path, env, issues);
    return experimentLlmAgent(llm, apiKey, options.logger);
  };
  const arms: Record<string, MultiIssueNegotiator> = {};
  const opponents: Record<string, MultiIssueNegotiator> = {};
  const labels: { arms: Record<string, ParticipantLabel>; opponents: Record<string, ParticipantLabel> } = {
    arms: {},
    opponents: {},
  };
  for (const [name, arm] of Object.entries(experiment.arms)) {
    const negotiator = build(arm, `arms.${name}`);
    if (negotiator) arms[name] = negotiator;
    labels.arms[name] = labelOf(arm);
  }
  for (const [name, opponent] of Object.entries(experiment.opponents)) {
    const negotiator = build(opponent, `opponents.${name}`);
    if (negotiator) opponents[name] = negotiator;
    labels.opponents[name] = labelOf(opponent);
  }
  if (issues.length > 0) throw new ExperimentFileError({ file: options.file, issues });
  return { arms, opponents, labels };
}
