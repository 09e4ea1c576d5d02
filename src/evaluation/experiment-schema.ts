import * as z from 'zod';
import { DIALECT_NAMES, type DialectName } from '../backends/openai/dialect.js';
import {
  isMultiIssueBaselineName,
  MULTI_ISSUE_BASELINE_NAMES,
} from '../multi-issue/multi-issue-baseline-registry.js';

/** The `format` an experiment file may state, marking it as haggle's. */
export const EXPERIMENT_FORMAT = 'haggle-experiment';
/** The experiment file layout this haggle reads. */
export const EXPERIMENT_VERSION = 1;

/**
 * Names of arms and opponents: what tables, run files and `--arm NAME=...` show. No `=`, `:` or `@`, so
 * the command-line shorthand stays unambiguous.
 */
export const PARTICIPANT_NAME = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,63}$/;
const participantName = z
  .string()
  .regex(
    PARTICIPANT_NAME,
    'names are 1-64 letters, digits, ".", "_", "/" or "-", starting with a letter or digit',
  );

/** Query parameters that carry credentials on gateways (`?api-key=`, `?token=`, a signed URL's `sig`). */
const SECRET_QUERY = /key|token|secret|password|passwd|auth|sig|credential/i;

const INLINE_KEY_MESSAGE =
  'an API key is never written in the experiment file: put it in an environment variable and name the ' +
  'variable here instead, e.g. "apiKeyEnv": "OPENAI_API_KEY"';

/** An http(s) URL that holds no credential; the value is never echoed in a message. */
const endpointUrl = z.string().superRefine((value, context) => {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    context.addIssue({ code: 'custom', message: 'must be an http(s) URL such as http://127.0.0.1:8000/v1' });
    return;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    context.addIssue({ code: 'custom', message: 'must be an http(s) URL such as http://127.0.0.1:8000/v1' });
    return;
  }
  if (url.username !== '' || url.password !== '') {
    context.addIssue({
      code: 'custom',
      message: `holds a user:password, an inline secret; ${INLINE_KEY_MESSAGE.replace(/^an API key/, 'a credential')}`,
    });
  }
  const secret = [...url.searchParams.keys()].find((name) => SECRET_QUERY.test(name));
  if (secret !== undefined) {
    context.addIssue({
      code: 'custom',
      message: `its query parameter "${secret}" looks like an inline secret; ${INLINE_KEY_MESSAGE.replace(/^an API key/, 'a credential')}`,
    });
  }
});

const environmentName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the NAME of an environment variable, e.g. OPENAI_API_KEY');

export const ExperimentSamplingSchema = z.strictObject({
  /** Default 1.0, as the model card evaluates. */
  temperature: z.number().min(0).max(2).optional(),
  topP: z.number().gt(0).max(1).optional(),
  topK: z.number().int().min(1).optional(),
  /** Mixed into every request's seed (derived from the match), so arms over one model can differ. */
  seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});

/** A model behind an OpenAI-compatible endpoint (vLLM, SGLang, llama.cpp, a hosted API, `haggle serve`). */
export const ExperimentLlmSchema = z
  .strictObject({
    /** One server's API root, e.g. `http://127.0.0.1:8000/v1`. */
    baseURL: endpointUrl.optional(),
    /** Several servers of the same model: requests go to the least loaded one. */
    replicas: z.array(endpointUrl).min(1, 'needs at least one URL').optional(),
    /** The served model name (`--served-model-name` on vLLM; a LoRA adapter's name). */
    model: z.string().min(1, 'must name the served model'),
    /** Refused: only here to say what to write instead. */
    apiKey: z.unknown().optional(),
    /** The environment variable that holds the key, sent as `Authorization: Bearer`. */
    apiKeyEnv: environmentName.optional(),
    dialect: z.enum(DIALECT_NAMES as [DialectName, ...DialectName[]]).optional(),
    endpoint: z.enum(['chat', 'completions']).optional(),
    sampling: ExperimentSamplingSchema.optional(),
    /** Tokens one turn may take. Default 256. */
    maxTokens: z.number().int().min(1).max(1_000_000).optional(),
    /** Re-asks after an invalid answer before the turn counts as invalid. Default 2. */
    retries: z.number().int().min(0).max(10).optional(),
    /** Replaces the system message of the multi-issue prompt (the user message stays). */
    systemPrompt: z.string().trim().min(1, 'must not be empty (leave it out for the default)').optional(),
    /** Requests in flight per endpoint (each replica) for this participant; more wait in a queue. Default 64. */
    concurrencyPerEndpoint: z.number().int().min(1).max(4096).optional(),
    /** Limit of one HTTP attempt in ms. Default 60,000. */
    timeoutMs: z.number().int().min(1).max(86_400_000).optional(),
  })
  .superRefine((llm, context) => {
    if (llm.apiKey !== undefined)
      context.addIssue({ code: 'custom', path: ['apiKey'], message: INLINE_KEY_MESSAGE });
    if ((llm.baseURL === undefined) === (llm.replicas === undefined))
      context.addIssue({
        code: 'custom',
        path: ['baseURL'],
        message:
          'give exactly one of "baseURL" (one server) or "replicas" (a list of servers of the same model)',
      });
  });

const baselineName = z.string().refine(isMultiIssueBaselineName, {
  message: `unknown baseline; choose from ${MULTI_ISSUE_BASELINE_NAMES.join(', ')}`,
});

/**
 * A hosted model through its AI SDK provider package (`@ai-sdk/anthropic`, `@ai-sdk/google`, ...),
 * written flat on the participant: `{ "provider": "anthropic", "model": "...", "apiKeyEnv": "..." }`.
 * The names are checked when the experiment runs, against `haggle/ai-sdk`'s `PROVIDER_NAMES`.
 */
const providerFields = {
  /** The AI SDK provider: `anthropic`, `google`, `openai`, `openai-compatible`, `mistral`, ... */
  provider: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,63}$/, 'must be a provider name such as "anthropic" or "openai-compatible"')
    .optional(),
  /** The provider's model id, e.g. `claude-sonnet-4-5`. */
  model: z.string().min(1, 'must name the model').optional(),
  /** The environment variable that holds the key; left out, the provider package reads its own (ANTHROPIC_API_KEY, ...). */
  apiKeyEnv: environmentName.optional(),
  /** Refused: only here to say what to write instead. */
  apiKey: z.unknown().optional(),
  /** The API root: required for `openai-compatible`, or a proxy in front of a hosted API. */
  baseURL: endpointUrl.optional(),
  sampling: ExperimentSamplingSchema.optional(),
  /** Tokens one turn may take. Default 256. */
  maxTokens: z.number().int().min(1).max(1_000_000).optional(),
  /** Re-asks after an invalid answer before the turn counts as invalid. Default 2. */
  retries: z.number().int().min(0).max(10).optional(),
  /** Replaces the system message of the multi-issue prompt (the user message stays). */
  systemPrompt: z.string().trim().min(1, 'must not be empty (leave it out for the default)').optional(),
  /** Calls in flight at once for this participant; more wait in a queue. Default 64. */
  concurrencyPerEndpoint: z.number().int().min(1).max(4096).optional(),
  /** How JSON is asked of the provider (see `haggle/ai-sdk`'s `StructuredOutputMode`). Default auto. */
  structuredOutput: z.enum(['auto', 'json-schema', 'tool', 'text']).optional(),
};

/** The fields that belong to a `provider` participant (and to nothing else at the participant's level). */
export const PROVIDER_PARTICIPANT_FIELDS = Object.keys(providerFields).filter((key) => key !== 'provider');

/** Fields every participant has: who plays (a baseline, an LLM or a provider's model) and the labels analyses group by. */
const participantFields = {
  baseline: baselineName.optional(),
  llm: ExperimentLlmSchema.optional(),
  ...providerFields,
  /** Model family, free text (for example "qwen3", "gpt", "claude"). */
  family: z.string().min(1).max(100).optional(),
  /** Whether this opponent shares a model family with the training pool (see `ParticipantLabel.trainingPool`). */
  trainingPool: z.boolean().optional(),
};

function exactlyOnePlayer(
  participant: { baseline?: unknown; llm?: unknown; provider?: unknown } & Record<string, unknown>,
  context: z.RefinementCtx,
): void {
  const players = [participant.baseline, participant.llm, participant.provider].filter(
    (p) => p !== undefined,
  );
  if (players.length !== 1)
    context.addIssue({
      code: 'custom',
      message: `give exactly one of "baseline": "${MULTI_ISSUE_BASELINE_NAMES[0]}" (one of ${MULTI_ISSUE_BASELINE_NAMES.join(', ')}), "llm": { "baseURL": ..., "model": ... } or "provider": "anthropic", "model": ...`,
    });
  if (participant.apiKey !== undefined)
    context.addIssue({ code: 'custom', path: ['apiKey'], message: INLINE_KEY_MESSAGE });
  if (participant.provider === undefined) {
    for (const key of PROVIDER_PARTICIPANT_FIELDS)
      if (key !== 'apiKey' && participant[key] !== undefined)
        context.addIssue({
          code: 'custom',
          path: [key],
          message: `belongs to a "provider" participant; for an OpenAI-compatible server put it inside "llm"`,
        });
  } else if (participant.model === undefined)
    context.addIssue({ code: 'custom', path: ['model'], message: 'a "provider" participant needs "model"' });
}

/** One arm of an experiment: a baseline or an LLM, its labels and the arm it was trained from. */
export const ExperimentArmSchema = z
  .strictObject({
    ...participantFields,
    /** The arm this one was trained from, for gains over the base. */
    base: participantName.optional(),
  })
  .superRefine(exactlyOnePlayer);

/** One opponent of an experiment: a baseline or an LLM, with its family and training-pool labels. */
export const ExperimentOpponentSchema = z.strictObject(participantFields).superRefine(exactlyOnePlayer);

/**
 * `generateSuite`'s options, except the opponents: those are the experiment's `opponents`, in the
 * order the file lists them (haggle's choice: one place names them).
 */
export const ExperimentSuiteGenerateSchema = z.strictObject({
  seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  scenarios: z.number().int().min(1).max(10_000).optional(),
  seedsPerPair: z.number().int().min(1).max(10_000).optional(),
  name: z.string().min(1).optional(),
  firstMover: z.enum(['seller', 'buyer']).optional(),
  maxRounds: z.number().int().min(1).max(1000).optional(),
  // Checked in full by generateSuite (known names, weights, ranges), which names what to fix.
  issues: z.array(z.string()).optional(),
  extraIssueWeights: z.array(z.number().min(0)).optional(),
  priceSteps: z.number().int().min(2).max(201).optional(),
  reservation: z
    .strictObject({
      seller: z.tuple([z.number(), z.number()]).optional(),
      buyer: z.tuple([z.number(), z.number()]).optional(),
    })
    .optional(),
});

export const ExperimentSuiteSchema = z
  .strictObject({
    /** A suite from `haggle suite` / `saveSuite`, relative to the experiment file. */
    file: z.string().min(1).optional(),
    generate: ExperimentSuiteGenerateSchema.optional(),
  })
  .superRefine((suite, context) => {
    if ((suite.file === undefined) === (suite.generate === undefined))
      context.addIssue({
        code: 'custom',
        message: 'give exactly one of "file": "suite.json" or "generate": { "seed": 2026, ... }',
      });
  });

/**
 * An evaluation as a file: arms and opponents (baselines or LLMs behind OpenAI-compatible endpoints,
 * with their labels), the suite, the roles and limits, and where results go. Secrets are never in it:
 * `apiKeyEnv` names the environment variable that holds a key.
 */
export const ExperimentSchema = z
  .strictObject({
    /** Optional; other tools may point editors at a JSON Schema. */
    $schema: z.string().optional(),
    format: z.literal(EXPERIMENT_FORMAT).optional(),
    version: z.literal(EXPERIMENT_VERSION).optional(),
    name: z.string().min(1).max(200).optional(),
    suite: ExperimentSuiteSchema,
    arms: z
      .record(participantName, ExperimentArmSchema)
      .refine((arms) => Object.keys(arms).length > 0, 'needs at least one arm'),
    opponents: z
      .record(participantName, ExperimentOpponentSchema)
      .refine((opponents) => Object.keys(opponents).length > 0, 'needs at least one opponent'),
    /** Roles the arms play; `both` rotates every arm through seller and buyer. Default seller. */
    roles: z.enum(['seller', 'buyer', 'both']).optional(),
    /** Turns per negotiation. Default 10. */
    maxRounds: z.number().int().min(1).max(1000).optional(),
    /** Matches in flight. Default 8. */
    concurrency: z.number().int().min(1).max(1024).optional(),
    /** Wall-clock limit of one match in ms; over it the match scores as no deal (a rule of the game). */
    matchTimeoutMs: z.number().int().min(1).max(86_400_000).optional(),
    /** The tournament's JSONL, relative to the experiment file (`--out` overrides it). */
    out: z.string().min(1).optional(),
  })
  .superRefine((experiment, context) => {
    for (const [name, arm] of Object.entries(experiment.arms)) {
      if (arm.base === undefined) continue;
      if (arm.base === name)
        context.addIssue({
          code: 'custom',
          path: ['arms', name, 'base'],
          message: 'an arm cannot be its own base',
        });
      else if (!(arm.base in experiment.arms))
        context.addIssue({
          code: 'custom',
          path: ['arms', name, 'base'],
          message: `names no arm of this experiment; the arms are ${Object.keys(experiment.arms).join(', ')}`,
        });
    }
  });

/** An experiment file's content, as `loadExperiment` returns it after validation. */
export type Experiment = z.infer<typeof ExperimentSchema>;
/** An LLM player: endpoint(s), model, dialect, sampling and limits. */
export type ExperimentLlm = z.infer<typeof ExperimentLlmSchema>;
/** An arm as the experiment file declares it. */
export type ExperimentArm = z.infer<typeof ExperimentArmSchema>;
/** An opponent as the experiment file declares it. */
export type ExperimentOpponent = z.infer<typeof ExperimentOpponentSchema>;
/** An arm or an opponent. */
export type ExperimentParticipant = ExperimentArm | ExperimentOpponent;
/** A participant played by a hosted model through its AI SDK provider package. */
export type ExperimentProviderParticipant = ExperimentParticipant & { provider: string; model: string };

/** Whether a participant is played through an AI SDK provider package. */
export function isProviderParticipant(
  participant: ExperimentParticipant,
): participant is ExperimentProviderParticipant {
  return participant.provider !== undefined;
}
