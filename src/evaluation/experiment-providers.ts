import { fromLanguageModel } from '../ai-sdk/from-language-model.js';
import { isProviderName, PROVIDER_NAMES, resolveProviderModel } from '../ai-sdk/provider-packages.js';
import type { LanguageBackend } from '../backends/language-backend.js';
import type { ValidationIssue } from '../contract/errors.js';
import { processEnvironment } from '../internal/environment.js';
import { ExperimentFileError } from './errors.js';
import { type Experiment, isProviderParticipant } from './experiment-schema.js';

/** Where `experimentProviderBackends` reads keys. */
export interface ExperimentProviderOptions {
  /** Where `apiKeyEnv` names are looked up. Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The experiment file, for messages. */
  file?: string;
}

/**
 * The backends of an experiment's `provider` participants, by path (`arms.NAME`, `opponents.NAME`),
 * for `experimentTournament`'s `providerBackends`: each an AI SDK model from its `@ai-sdk/*` package
 * (an `OptionalDependencyMissingError` naming the install command when absent) behind `fromLanguageModel`,
 * with the key from `apiKeyEnv` kept out of every message. Unknown providers and unset key variables
 * are reported together, by path.
 */
export async function experimentProviderBackends(
  experiment: Experiment,
  options: ExperimentProviderOptions = {},
): Promise<Record<string, LanguageBackend>> {
  const env = options.env ?? processEnvironment();
  const issues: ValidationIssue[] = [];
  const wanted: Array<{
    path: string;
    participant: Experiment['arms'][string] & { provider: string; model: string };
  }> = [];
  for (const [group, participants] of [
    ['arms', experiment.arms],
    ['opponents', experiment.opponents],
  ] as const) {
    for (const [name, participant] of Object.entries(participants)) {
      if (!isProviderParticipant(participant)) continue;
      const path = `${group}.${name}`;
      if (!isProviderName(participant.provider))
        issues.push({
          path: `${path}.provider`,
          message: `unknown provider "${participant.provider}"; choose from ${PROVIDER_NAMES.join(', ')} (or "llm" for any OpenAI-compatible server)`,
        });
      if (participant.apiKeyEnv !== undefined && !env[participant.apiKeyEnv])
        issues.push({
          path: `${path}.apiKeyEnv`,
          message: `the environment variable ${participant.apiKeyEnv} is not set (or empty); set it (export ${participant.apiKeyEnv}=...) before running, or leave "apiKeyEnv" out for the provider package's own variable`,
        });
      wanted.push({ path, participant });
    }
  }
  if (issues.length > 0) throw new ExperimentFileError({ file: options.file, issues });
  const backends: Record<string, LanguageBackend> = {};
  for (const { path, participant } of wanted) {
    const apiKey = participant.apiKeyEnv !== undefined ? env[participant.apiKeyEnv] : undefined;
    const { model } = await resolveProviderModel({
      provider: participant.provider,
      model: participant.model,
      ...(apiKey !== undefined ? { apiKey } : {}),
      ...(participant.baseURL !== undefined ? { baseURL: participant.baseURL } : {}),
      env,
    });
    backends[path] = fromLanguageModel(model, {
      ...(apiKey !== undefined ? { secrets: [apiKey] } : {}),
      ...(participant.concurrencyPerEndpoint !== undefined
        ? { maxConcurrency: participant.concurrencyPerEndpoint }
        : {}),
      ...(participant.structuredOutput !== undefined
        ? { structuredOutput: participant.structuredOutput }
        : {}),
    });
  }
  return backends;
}

/** Whether an experiment has a `provider` participant (and so needs `experimentProviderBackends`). */
export function hasProviderParticipants(experiment: Experiment): boolean {
  return [...Object.values(experiment.arms), ...Object.values(experiment.opponents)].some(
    isProviderParticipant,
  );
}
