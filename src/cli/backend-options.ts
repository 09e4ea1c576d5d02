import { type Command, Option } from 'commander';
import { NegotiationAgent } from '../agent/negotiation-agent.js';
import { BackendUnavailableError } from '../backends/errors.js';
import type { BackendWarning, LanguageBackend } from '../backends/language-backend.js';
import { DIALECT_NAMES, type DialectName, type Endpoint } from '../backends/openai/dialect.js';
import { OpenAICompatibleBackend } from '../backends/openai/node-backend.js';
import { OptionalDependencyMissingError } from '../contract/errors.js';
import type { Negotiator } from '../contract/negotiator.js';
import { type Environment, processEnvironment } from '../internal/environment.js';
import { DeferredOnnxBackend } from '../onnx/deferred-onnx-backend.js';
import type { OnnxDevice, OnnxDtype } from '../onnx/onnx-options.js';
import { defaultApiKey } from './default-api-key.js';
import { CliUsageError } from './errors.js';
import { commaList, parseChoice, parseIntegerOption } from './options.js';
import { givenSamplingFlag, type SamplingCliOptions, samplingFrom } from './sampling-options.js';

/** Backends the CLI can build: `openai` (any OpenAI-compatible server) and `onnx` (a local model folder). */
export const CLI_BACKEND_NAMES = ['openai', 'onnx'] as const;
export type CliBackendName = (typeof CLI_BACKEND_NAMES)[number];

export interface BackendCliOptions extends SamplingCliOptions {
  backend?: CliBackendName;
  baseUrl?: string[];
  model?: string;
  apiKey?: string;
  dialect?: DialectName;
  endpoint?: Endpoint;
  timeout?: number;
  maxResponseMib?: number;
  device?: OnnxDevice;
  dtype?: OnnxDtype;
}

/** Each `--base-url` adds replicas; a comma-separated list adds several at once. */
function collectUrls(raw: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), ...commaList(raw)];
}

/**
 * Adds the options that choose a language backend. The API key has no default in the option itself,
 * so `--help` never prints one; it is read from the environment when the backend is built.
 */
export function addBackendOptions(command: Command, options: { required?: boolean } = {}): Command {
  const backend = new Option(
    '--backend <name>',
    `language backend: ${CLI_BACKEND_NAMES.join(', ')}`,
  ).argParser(parseChoice('backend', CLI_BACKEND_NAMES));
  if (options.required) backend.makeOptionMandatory();
  return command
    .addOption(backend)
    .option(
      '--base-url <url>',
      'OpenAI-compatible API root, e.g. http://localhost:8000/v1 (repeat for replicas)',
      collectUrls,
    )
    .option('--model <name>', 'served model name (a LoRA adapter on vLLM), or the model folder for onnx')
    .option(
      '--api-key <key>',
      'API key for --backend openai (default: $HAGGLE_API_KEY, then $OPENAI_API_KEY)',
    )
    .option(
      '--dialect <name>',
      `structured-output dialect: ${DIALECT_NAMES.join(', ')}`,
      parseChoice('dialect', DIALECT_NAMES),
    )
    .option(
      '--endpoint <kind>',
      'chat or completions',
      parseChoice('endpoint', ['chat', 'completions'] as const),
    )
    .option(
      '--timeout <ms>',
      'timeout of one HTTP attempt in ms',
      parseIntegerOption('timeout', 1, 3_600_000),
    )
    .option(
      '--max-response-mib <mib>',
      'largest server answer read, in MiB (default 16); a larger one fails its session',
      parseIntegerOption('max-response-mib', 1, 256),
    )
    .option(
      '--device <name>',
      'where --backend onnx runs: cpu, cuda or webgpu (falls back to cpu, with a warning)',
      parseChoice('device', ['cpu', 'cuda', 'webgpu'] as const),
    )
    .option(
      '--dtype <name>',
      'which export --backend onnx loads: fp32, fp16, q4f16, q4 or q8 (default: the fastest the folder has)',
      parseChoice('dtype', ['fp32', 'fp16', 'q4f16', 'q4', 'q8'] as const),
    );
}

/** Builds the backend the options name; throws a usage error for a missing option, never echoing a key. */
export function createCliBackend(
  options: BackendCliOptions,
  env: Environment = processEnvironment(),
): LanguageBackend | undefined {
  if (options.backend === undefined) {
    const stray = (
      [
        'baseUrl',
        'model',
        'apiKey',
        'dialect',
        'endpoint',
        'timeout',
        'maxResponseMib',
        'device',
        'dtype',
      ] as const
    ).find((key) => options[key] !== undefined);
    if (stray) throw new CliUsageError(`--${kebab(stray)} needs --backend`);
    const sampling = givenSamplingFlag(options);
    if (sampling)
      throw new CliUsageError(
        `${sampling} needs --backend: only an LLM samples tokens (the baselines do not)`,
      );
    return undefined;
  }
  if (options.backend === 'onnx') {
    if (options.maxResponseMib !== undefined)
      throw new CliUsageError(
        '--max-response-mib needs --backend openai (a local model answers over no HTTP)',
      );
    if (!options.model)
      throw new CliUsageError('--backend onnx needs --model <dir>, the exported model folder');
    // Loaded on first use, in a worker thread; onnxruntime-node is only imported then.
    try {
      return new DeferredOnnxBackend(options.model, {
        ...(options.device ? { device: options.device } : {}),
        ...(options.dtype ? { dtype: options.dtype } : {}),
      });
    } catch (error) {
      // Its message already says what to install; the folder was never the problem.
      if (error instanceof OptionalDependencyMissingError) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      throw new BackendUnavailableError({
        backendName: 'onnx',
        reason: `${reason}. To use a model served elsewhere: --backend openai --base-url <url> --model <name>.`,
      });
    }
  }
  if (options.device || options.dtype) throw new CliUsageError('--device and --dtype need --backend onnx');
  if (!options.baseUrl || options.baseUrl.length === 0) {
    throw new CliUsageError('--backend openai needs --base-url <url>, e.g. http://localhost:8000/v1');
  }
  if (!options.model) throw new CliUsageError('--backend openai needs --model <name>, the served model name');
  const apiKey = options.apiKey ?? defaultApiKey(env);
  return new OpenAICompatibleBackend({
    baseURL: options.baseUrl,
    model: options.model,
    ...(apiKey ? { apiKey } : {}),
    ...(options.dialect ? { dialect: options.dialect } : {}),
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    ...(options.timeout ? { timeoutMs: options.timeout } : {}),
    ...(options.maxResponseMib ? { maxResponseBytes: options.maxResponseMib * 1024 * 1024 } : {}),
  });
}

/**
 * The LLM negotiators of a run: with `--backend`, one agent over that backend plays every side that
 * `--buyer`/`--seller` did not name explicitly. Sides left undefined get the baseline agents.
 */
export function createBackendNegotiators(
  options: BackendCliOptions,
  command: Command,
  env: Environment = processEnvironment(),
  onWarning?: (warning: BackendWarning) => void,
): { buyer?: Negotiator; seller?: Negotiator } {
  const backend = createCliBackend(options, env);
  if (!backend) return {};
  const agent = new NegotiationAgent({
    backend,
    sampling: samplingFrom(options),
    ...(onWarning ? { onWarning } : {}),
  });
  return {
    ...(command.getOptionValueSource('buyer') === 'cli' ? {} : { buyer: agent }),
    ...(command.getOptionValueSource('seller') === 'cli' ? {} : { seller: agent }),
  };
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/**
 * A backend warning as the CLI prints it on stderr (once per distinct warning), or `undefined` for the
 * ones it leaves to the run records: a setting the backend cannot honour is one the agent chose itself
 * (its template's stop strings under a JSON schema), which the user can do nothing about; a fallback
 * (CUDA to the CPU) changes what the run measures, so it is said.
 */
export function formatBackendWarning(warning: BackendWarning): string | undefined {
  if (warning.type === 'unsupported-setting') return undefined;
  return `haggle: warning: ${warning.message}\n`;
}

/** Writes the warnings the CLI prints (see `formatBackendWarning`) to `stderr`. */
export function printBackendWarning(stderr: {
  write(text: string): unknown;
}): (warning: BackendWarning) => void {
  return (warning) => {
    const line = formatBackendWarning(warning);
    if (line) stderr.write(line);
  };
}
