import type { JsonSchema } from '../../contract/json-schema.js';
import type { BackendWarning } from '../language-backend.js';
import { schemaName, toStrictSchema } from './strict-schema.js';

/**
 * How a server wants structured output asked for. Each dialect follows the server's documented
 * request format (recorded examples live in test/backends/openai/fixtures/):
 * - `openai`: `response_format: { type: 'json_schema', json_schema: { name, schema, strict: true } }`
 *   with the schema rewritten into the strict subset; no `top_k`, no `chat_template_kwargs`.
 * - `vllm`: `response_format` json_schema on chat; `structured_outputs: { json }` on completions.
 * - `vllm-structured-outputs`: `structured_outputs: { json }` on both endpoints (vLLM >= 0.12).
 * - `sglang`: `response_format` json_schema on chat; `json_schema` (a string) on completions.
 * - `llama.cpp`: `response_format: { type: 'json_schema', json_schema: { schema } }` on chat (the
 *   nested form its parser reads); `json_schema` (an object) on completions; one choice per request.
 * - `none`: no structured output at all; the prompt and the agent's validation carry the format.
 */
export type DialectName = 'openai' | 'vllm' | 'vllm-structured-outputs' | 'sglang' | 'llama.cpp' | 'none';

/** The names `OpenAICompatibleBackend` accepts as `dialect`. */
export const DIALECT_NAMES: readonly DialectName[] = [
  'openai',
  'vllm',
  'vllm-structured-outputs',
  'sglang',
  'llama.cpp',
  'none',
];

/** `chat` posts messages to `/chat/completions`; `completions` posts the template's exact prompt string. */
export type Endpoint = 'chat' | 'completions';

/** Request fields that ask a server for output under a schema, with warnings for what the dialect cannot send. */
export interface StructuredOutputFields {
  fields: Record<string, unknown>;
  warnings: BackendWarning[];
}

/** How one family of OpenAI-compatible servers takes structured output, seeds and sampling fields. */
export interface Dialect {
  readonly name: DialectName;
  /** The most choices one request may ask for; a larger `n` becomes parallel requests. */
  readonly maxChoicesPerRequest: number;
  /** Whether `top_k` is a request field the server reads. */
  readonly topK: boolean;
  /** Whether the server passes `chat_template_kwargs` to the chat template (Qwen3's `enable_thinking`). */
  readonly chatTemplateKwargs: boolean;
  /** The name of the output length field on the chat endpoint. */
  readonly chatMaxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** The request fields that ask this server family for output under `schema`. */
  structuredOutput(schema: JsonSchema, name: string | undefined, endpoint: Endpoint): StructuredOutputFields;
}

function jsonSchemaFormat(schema: JsonSchema, name: string | undefined): Record<string, unknown> {
  return { response_format: { type: 'json_schema', json_schema: { name: schemaName(name), schema } } };
}

const openai: Dialect = {
  name: 'openai',
  maxChoicesPerRequest: 128,
  topK: false,
  chatTemplateKwargs: false,
  chatMaxTokensField: 'max_completion_tokens',
  structuredOutput(schema, name, endpoint) {
    if (endpoint === 'completions') {
      return {
        fields: {},
        warnings: [
          {
            type: 'unsupported-setting',
            setting: 'responseFormat',
            details: 'the OpenAI completions endpoint has no structured output; the output is unconstrained',
          },
        ],
      };
    }
    const strict = toStrictSchema(schema);
    const warnings: BackendWarning[] =
      strict.changes.length > 0
        ? [
            {
              type: 'unsupported-setting',
              setting: 'responseFormat.schema',
              details: `OpenAI strict mode takes a subset of JSON Schema: ${strict.changes.join('; ')}; every turn is still validated in full`,
            },
          ]
        : [];
    return {
      fields: {
        response_format: {
          type: 'json_schema',
          json_schema: { name: schemaName(name), schema: strict.schema, strict: true },
        },
      },
      warnings,
    };
  },
};

const vllm: Dialect = {
  name: 'vllm',
  maxChoicesPerRequest: 128,
  topK: true,
  chatTemplateKwargs: true,
  chatMaxTokensField: 'max_tokens',
  structuredOutput(schema, name, endpoint) {
    return endpoint === 'chat'
      ? { fields: jsonSchemaFormat(schema, name), warnings: [] }
      : { fields: { structured_outputs: { json: schema } }, warnings: [] };
  },
};

const vllmStructuredOutputs: Dialect = {
  ...vllm,
  name: 'vllm-structured-outputs',
  structuredOutput(schema) {
    return { fields: { structured_outputs: { json: schema } }, warnings: [] };
  },
};

const sglang: Dialect = {
  name: 'sglang',
  maxChoicesPerRequest: 128,
  topK: true,
  chatTemplateKwargs: true,
  chatMaxTokensField: 'max_tokens',
  structuredOutput(schema, name, endpoint) {
    return endpoint === 'chat'
      ? { fields: jsonSchemaFormat(schema, name), warnings: [] }
      : { fields: { json_schema: JSON.stringify(schema) }, warnings: [] };
  },
};

const llamaCpp: Dialect = {
  name: 'llama.cpp',
  // llama-server rejects n != 1 ("Only one completion choice is allowed").
  maxChoicesPerRequest: 1,
  topK: true,
  chatTemplateKwargs: true,
  chatMaxTokensField: 'max_tokens',
  structuredOutput(schema, _name, endpoint) {
    return endpoint === 'chat'
      ? { fields: { response_format: { type: 'json_schema', json_schema: { schema } } }, warnings: [] }
      : { fields: { json_schema: schema }, warnings: [] };
  },
};

const none: Dialect = {
  name: 'none',
  maxChoicesPerRequest: 128,
  topK: false,
  chatTemplateKwargs: false,
  chatMaxTokensField: 'max_tokens',
  structuredOutput() {
    return {
      fields: {},
      warnings: [
        {
          type: 'unsupported-setting',
          setting: 'responseFormat',
          details:
            'dialect "none" sends no structured-output request; turns rely on the prompt and validation',
        },
      ],
    };
  },
};

/** Every dialect by name: how each server family (OpenAI, vLLM, SGLang, llama.cpp, ...) asks for structured output. */
export const DIALECTS: Readonly<Record<DialectName, Dialect>> = {
  openai,
  vllm,
  'vllm-structured-outputs': vllmStructuredOutputs,
  sglang,
  'llama.cpp': llamaCpp,
  none,
};
