import type { LanguageModelV3, LanguageModelV4 } from '@ai-sdk/provider';
import { InvalidInputError, OptionalDependencyMissingError } from '../contract/errors.js';
import { type Environment, processEnvironment } from '../internal/environment.js';

/**
 * Where a hosted provider's AI SDK model comes from: its npm package and the factory that package
 * exports (`createAnthropic({ apiKey, baseURL })`). The packages are the user's to install; haggle
 * depends on none of them.
 */
export interface ProviderPackage {
  packageName: string;
  factory: string;
  /** The model of a created provider: `provider(model)` unless a method is named (`chatModel`). */
  method?: string;
  /** Whether the provider needs `baseURL` (an OpenAI-compatible server has no default address). */
  needsBaseURL?: boolean;
}

/** The providers an experiment file can name, by the AI SDK's package for each. */
export const PROVIDER_PACKAGES = {
  anthropic: { packageName: '@ai-sdk/anthropic', factory: 'createAnthropic' },
  google: { packageName: '@ai-sdk/google', factory: 'createGoogleGenerativeAI' },
  'google-vertex': { packageName: '@ai-sdk/google-vertex', factory: 'createVertex' },
  openai: { packageName: '@ai-sdk/openai', factory: 'createOpenAI' },
  'openai-compatible': {
    packageName: '@ai-sdk/openai-compatible',
    factory: 'createOpenAICompatible',
    method: 'chatModel',
    needsBaseURL: true,
  },
  azure: { packageName: '@ai-sdk/azure', factory: 'createAzure' },
  'amazon-bedrock': { packageName: '@ai-sdk/amazon-bedrock', factory: 'createAmazonBedrock' },
  mistral: { packageName: '@ai-sdk/mistral', factory: 'createMistral' },
  groq: { packageName: '@ai-sdk/groq', factory: 'createGroq' },
  xai: { packageName: '@ai-sdk/xai', factory: 'createXai' },
  deepseek: { packageName: '@ai-sdk/deepseek', factory: 'createDeepSeek' },
  cohere: { packageName: '@ai-sdk/cohere', factory: 'createCohere' },
  togetherai: { packageName: '@ai-sdk/togetherai', factory: 'createTogetherAI' },
  fireworks: { packageName: '@ai-sdk/fireworks', factory: 'createFireworks' },
  cerebras: { packageName: '@ai-sdk/cerebras', factory: 'createCerebras' },
} as const satisfies Record<string, ProviderPackage>;

/** A provider name an experiment file or `--opponent NAME=provider:MODEL` may use. */
export type ProviderName = keyof typeof PROVIDER_PACKAGES;

/** The provider names, in the table's order. */
export const PROVIDER_NAMES = Object.keys(PROVIDER_PACKAGES) as ProviderName[];

/** Whether `name` is a provider haggle can resolve. */
export function isProviderName(name: string): name is ProviderName {
  return Object.hasOwn(PROVIDER_PACKAGES, name);
}

/**
 * `openai-compatible` without `@ai-sdk/openai-compatible`: `@ai-sdk/openai`'s Chat Completions model
 * speaks the same wire format, so it serves when that is what is installed. haggle's choice.
 */
const OPENAI_COMPATIBLE_FALLBACK: ProviderPackage = {
  packageName: '@ai-sdk/openai',
  factory: 'createOpenAI',
  method: 'chat',
};

/** What `resolveProviderModel` needs: the provider, its model, and the key and address when they apply. */
export interface ProviderModelSpec {
  provider: string;
  model: string;
  /** The API key (read from `apiKeyEnv` by the caller); left out, the package reads its own variable. */
  apiKey?: string;
  /** The API root, for `openai-compatible` (required) or a proxy in front of a hosted API. */
  baseURL?: string;
  /**
   * The environment the provider package will read its own key from (default the process's, which
   * the package reads itself): `openai-compatible` through `@ai-sdk/openai` sends an empty key unless
   * this holds `OPENAI_API_KEY`. `experimentProviderBackends` passes its `env`.
   */
  env?: Environment;
}

/** A resolved model and how it was reached (the package that made it). */
export interface ResolvedProviderModel {
  /** Specification v4 from an ai 7 line package, v3 from an ai 6 line one: fromLanguageModel takes both. */
  model: LanguageModelV4 | LanguageModelV3;
  packageName: string;
}

/** Loads an optional package; absent, an `OptionalDependencyMissingError` naming it. */
async function importPackage(packageName: string, neededFor: string): Promise<Record<string, unknown>> {
  try {
    // A name held in a variable, so bundlers leave the optional package to the user's install.
    const name = packageName;
    return (await import(name)) as Record<string, unknown>;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const message = error instanceof Error ? error.message : '';
    if (
      (code === 'ERR_MODULE_NOT_FOUND' ||
        code === 'MODULE_NOT_FOUND' ||
        /Cannot find (package|module)/.test(message)) &&
      message.includes(packageName)
    )
      throw new OptionalDependencyMissingError({ packageName, neededFor, cause: error });
    throw error;
  }
}

async function isInstalled(packageName: string): Promise<boolean> {
  try {
    await importPackage(packageName, packageName);
    return true;
  } catch (error) {
    if (error instanceof OptionalDependencyMissingError) return false;
    throw error;
  }
}

/**
 * The AI SDK language model of a provider by name (`anthropic`, `google`, `openai-compatible`, ...),
 * created through its `@ai-sdk/*` package, which must be installed: absent, an
 * `OptionalDependencyMissingError` says `npm install @ai-sdk/<name>`.
 */
export async function resolveProviderModel(spec: ProviderModelSpec): Promise<ResolvedProviderModel> {
  if (!isProviderName(spec.provider))
    throw new InvalidInputError({
      subject: 'provider',
      issues: [
        {
          path: 'provider',
          message: `unknown provider "${spec.provider}"; choose from ${PROVIDER_NAMES.join(', ')}`,
        },
      ],
    });
  let entry: ProviderPackage = PROVIDER_PACKAGES[spec.provider];
  if ('needsBaseURL' in entry && entry.needsBaseURL && spec.baseURL === undefined)
    throw new InvalidInputError({
      subject: 'provider',
      issues: [
        {
          path: 'baseURL',
          message: `the "${spec.provider}" provider needs "baseURL", the server's API root (e.g. http://127.0.0.1:8000/v1)`,
        },
      ],
    });
  const neededFor = `the "${spec.provider}" provider`;
  if (spec.provider === 'openai-compatible' && !(await isInstalled(entry.packageName))) {
    if (await isInstalled(OPENAI_COMPATIBLE_FALLBACK.packageName)) entry = OPENAI_COMPATIBLE_FALLBACK;
  }
  const module = await importPackage(entry.packageName, neededFor);
  const factory = module[entry.factory];
  if (typeof factory !== 'function')
    throw new OptionalDependencyMissingError({
      // The major that goes with the installed `ai`: provider packages 3 (openai-compatible 2) for
      // ai 6 on Node 20, 4 (openai-compatible 3) for ai 7 on Node 22 (docs/ai-sdk.md, "Versions").
      packageName: `${entry.packageName}@<the major of your ai line>`,
      neededFor: `${neededFor} (the installed ${entry.packageName} has no ${entry.factory}: too old; ai 6 takes @ai-sdk/* 3 and @ai-sdk/openai-compatible 2, ai 7 takes 4 and 3)`,
    });
  // A local OpenAI-compatible server often takes no key: @ai-sdk/openai-compatible then sends none, but
  // @ai-sdk/openai insists on one, so the fallback gets an empty one (an empty bearer token, which such
  // servers ignore) unless its own OPENAI_API_KEY is set.
  const keyless =
    entry === OPENAI_COMPATIBLE_FALLBACK &&
    spec.apiKey === undefined &&
    (spec.env ?? processEnvironment()).OPENAI_API_KEY === undefined;
  const settings: Record<string, unknown> = {
    ...(spec.apiKey !== undefined ? { apiKey: spec.apiKey } : keyless ? { apiKey: '' } : {}),
    ...(spec.baseURL !== undefined ? { baseURL: spec.baseURL } : {}),
    ...(spec.provider === 'openai-compatible' ? { name: 'openai-compatible' } : {}),
    // @ai-sdk/openai-compatible sends a schema only when told the server takes one (else `json_object`
    // and an `unsupported` warning). haggle's choice: say it does, since the servers an experiment
    // names (haggle serve, vLLM, SGLang, llama.cpp's server) all take `json_schema`; a server that does
    // not is played with `"structuredOutput": "tool"` or `"text"`, which send no response format.
    // Streamed usage likewise needs `includeUsage` (`stream_options.include_usage`), which they take.
    ...(entry.packageName === '@ai-sdk/openai-compatible'
      ? { supportsStructuredOutputs: true, includeUsage: true }
      : {}),
  };
  const provider = factory(settings) as ((id: string) => unknown) & Record<string, unknown>;
  const method = entry.method;
  const model = (
    method ? (provider[method] as (id: string) => unknown).call(provider, spec.model) : provider(spec.model)
  ) as LanguageModelV4 | LanguageModelV3;
  return { model, packageName: entry.packageName };
}
