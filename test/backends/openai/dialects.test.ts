import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DIALECTS, type Endpoint } from '../../../src/backends/openai/dialect.js';
import { buildRequestBody } from '../../../src/backends/openai/request-body.js';
import {
  type DialectName,
  type GenerateOptions,
  type JsonSchema,
  toStrictSchema,
  turnJsonSchema,
} from '../../../src/index.js';
import { schemaOfRequest } from './turn-for-schema.js';

interface Example {
  dialect: DialectName;
  endpoint: Endpoint;
  source: string;
  structuredFields: string[];
  body: Record<string, unknown>;
}

const examples = (
  JSON.parse(readFileSync(new URL('./fixtures/dialect-examples.json', import.meta.url), 'utf8')) as {
    examples: Example[];
  }
).examples;

/** The body's structure with the schema cut out and every leaf replaced by its type. */
function shape(value: unknown, schema: unknown): unknown {
  if (value === schema || (typeof value === 'string' && value === JSON.stringify(schema))) return '<schema>';
  if (Array.isArray(value)) return value.map((item) => shape(item, schema));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, item]) => [key, shape(item, schema)]),
    );
  }
  return typeof value;
}

function optionsFor(example: Example, schema: JsonSchema): GenerateOptions {
  const format = example.body.response_format as { json_schema?: { name?: string } } | undefined;
  const name = format?.json_schema?.name;
  return {
    prompt: { messages: [{ role: 'user', content: 'hi' }], text: '<|im_start|>user\nhi<|im_end|>\n' },
    responseFormat: { type: 'json', schema, ...(name ? { name } : {}) },
  };
}

describe('dialects against the recorded request formats of real servers', () => {
  it('has a recorded example for every dialect except none', () => {
    const covered = new Set(examples.map((example) => example.dialect));
    expect([...covered].sort()).toEqual(
      Object.keys(DIALECTS)
        .filter((name) => name !== 'none')
        .sort(),
    );
    for (const example of examples) expect(example.source).toMatch(/https?:\/\/|\.py|\.cpp|\.md/);
  });

  it.each(examples.map((example) => [`${example.dialect} ${example.endpoint}`, example] as const))(
    '%s: the structured-output fields have the documented shape and carry the schema unchanged',
    (_label, example) => {
      const schema = schemaOfRequest(example.body) as JsonSchema;
      expect(schema).toBeDefined();
      const planned = buildRequestBody({
        dialect: DIALECTS[example.dialect],
        endpoint: example.endpoint,
        model: 'm',
        options: optionsFor(example, schema),
        n: 1,
        seed: undefined,
        chatTemplateKwargs: { enable_thinking: false },
      });
      expect(planned.endpoint).toBe(example.endpoint);
      expect(planned.path).toBe(example.endpoint === 'chat' ? '/chat/completions' : '/completions');
      for (const field of example.structuredFields) {
        expect(planned.body[field], field).toBeDefined();
        const ours = schemaOfRequest(planned.body);
        // The schema goes where the server reads it, and (already strict here) unchanged.
        expect(ours).toEqual(schema);
        expect(shape(planned.body[field], ours)).toEqual(shape(example.body[field], schema));
      }
      // Nothing structured the server would not expect.
      const structuredKeys = ['response_format', 'structured_outputs', 'json_schema', 'chat_template_kwargs'];
      const sent = structuredKeys.filter((key) => key in planned.body);
      expect(sent.sort()).toEqual([...example.structuredFields].sort());
      expect(planned.warnings).toEqual([]);
    },
  );
});

describe('the OpenAI strict dialect', () => {
  const schema = turnJsonSchema({ role: 'seller', guardrails: { seller: { minPrice: 40 } } });

  it('rewrites the turn schema into the strict subset, and says what it changed', () => {
    const planned = buildRequestBody({
      dialect: DIALECTS.openai,
      endpoint: 'chat',
      model: 'gpt-4o-mini',
      options: {
        prompt: { messages: [] },
        responseFormat: { type: 'json', schema, name: 'turn' },
        topK: 20,
        maxTokens: 64,
      },
      n: 1,
      seed: 3,
      chatTemplateKwargs: { enable_thinking: false },
    });
    const format = planned.body.response_format as {
      json_schema: { strict: boolean; schema: JsonSchema; name: string };
    };
    expect(format.json_schema.strict).toBe(true);
    expect(format.json_schema.name).toBe('turn');
    const strict = format.json_schema.schema;
    expect(strict.type).toBe('object');
    expect(strict.required).toEqual(['action', 'price', 'message_labels', 'message', 'response_time']);
    const text = JSON.stringify(strict);
    expect(text).not.toMatch(/"oneOf"|"uniqueItems"|"maxLength"|"minLength"|"\$schema"/);
    const every = (node: unknown): void => {
      if (typeof node !== 'object' || node === null) return;
      const object = node as JsonSchema;
      if (object.type === 'object') {
        expect(object.additionalProperties).toBe(false);
        expect(object.required).toEqual(Object.keys(object.properties as object));
      }
      for (const child of Object.values(object)) every(child);
    };
    every(strict);
    expect((strict.properties as { action: { enum: string[] } }).action.enum).toContain('accept');
    // The guardrail survives: the price floor is a supported keyword.
    expect(text).toContain('"minimum":40');
    expect(planned.body.max_completion_tokens).toBe(64);
    expect(planned.body).not.toHaveProperty('top_k');
    expect(planned.body).not.toHaveProperty('chat_template_kwargs');
    expect(planned.warnings.map((w) => (w.type === 'unsupported-setting' ? w.setting : w.type))).toEqual([
      'topK',
      'responseFormat.schema',
    ]);
  });

  it('keeps a schema that is already strict as it is', () => {
    const already = {
      type: 'object',
      properties: { a: { type: 'string' } },
      required: ['a'],
      additionalProperties: false,
    };
    expect(toStrictSchema(already)).toEqual({ schema: already, changes: [] });
  });

  it('turns an optional property into a required nullable one', () => {
    const { schema: out } = toStrictSchema({ type: 'object', properties: { a: { type: 'string' } } });
    expect(out.required).toEqual(['a']);
    expect((out.properties as { a: JsonSchema }).a).toEqual({
      anyOf: [{ type: 'string' }, { type: 'null' }],
    });
  });
});

describe('request building', () => {
  const base: GenerateOptions = {
    prompt: {
      messages: [
        { role: 'system', content: 's' },
        { role: 'user', content: 'u' },
      ],
    },
    responseFormat: { type: 'json', schema: { type: 'object' } },
    temperature: 1,
    topP: 0.9,
    topK: 20,
    stop: ['<|im_end|>'],
    maxTokens: 200,
  };

  it('maps sampling options to OpenAI field names, with n only above 1', () => {
    const planned = buildRequestBody({
      dialect: DIALECTS.vllm,
      endpoint: 'chat',
      model: 'negotiator-lora',
      options: base,
      n: 2,
      seed: 9,
      chatTemplateKwargs: { enable_thinking: false },
    });
    expect(planned.body).toMatchObject({
      model: 'negotiator-lora',
      temperature: 1,
      top_p: 0.9,
      top_k: 20,
      seed: 9,
      n: 2,
      stop: ['<|im_end|>'],
      max_tokens: 200,
      stream: false,
      chat_template_kwargs: { enable_thinking: false },
    });
    const single = buildRequestBody({
      dialect: DIALECTS.vllm,
      endpoint: 'chat',
      model: 'm',
      options: base,
      n: 1,
      seed: undefined,
      chatTemplateKwargs: null,
    });
    expect(single.body).not.toHaveProperty('n');
    expect(single.body).not.toHaveProperty('seed');
    expect(single.body).not.toHaveProperty('chat_template_kwargs');
  });

  it('completions mode sends the exact prompt string, and falls back to chat (with a warning) without one', () => {
    const text = '<|im_start|>user\nu<|im_end|>\n<|im_start|>assistant\n';
    const withText = buildRequestBody({
      dialect: DIALECTS.vllm,
      endpoint: 'completions',
      model: 'm',
      options: { ...base, prompt: { ...base.prompt, text } },
      n: 1,
      seed: undefined,
      chatTemplateKwargs: { enable_thinking: false },
    });
    expect(withText.path).toBe('/completions');
    expect(withText.body.prompt).toBe(text);
    expect(withText.body).not.toHaveProperty('messages');
    expect(withText.body).not.toHaveProperty('chat_template_kwargs');

    const without = buildRequestBody({
      dialect: DIALECTS.vllm,
      endpoint: 'completions',
      model: 'm',
      options: base,
      n: 1,
      seed: undefined,
      chatTemplateKwargs: null,
    });
    expect(without.path).toBe('/chat/completions');
    expect(without.warnings).toEqual([expect.objectContaining({ type: 'fallback' })]);
  });

  it('dialect none asks for no structured output and says so; providerOptions reach the body', () => {
    const planned = buildRequestBody({
      dialect: DIALECTS.none,
      endpoint: 'chat',
      model: 'm',
      options: { ...base, providerOptions: { 'openai-compatible': { min_p: 0.05 } } },
      n: 1,
      seed: undefined,
      chatTemplateKwargs: { enable_thinking: false },
    });
    expect(planned.body).not.toHaveProperty('response_format');
    expect(planned.body).not.toHaveProperty('top_k');
    expect(planned.body.min_p).toBe(0.05);
    expect(
      planned.warnings.map((w) => (w.type === 'unsupported-setting' ? w.setting : w.type)).sort(),
    ).toEqual(['responseFormat', 'topK']);
  });
});
