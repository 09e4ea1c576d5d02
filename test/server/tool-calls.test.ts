import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { serveFixtureModel } from '../ai-sdk/serve-helper.js';

// `haggle serve --backend onnx` of the fixture model (random weights: the hardest customer a
// constrained decoder has) answered through the official openai client: a forced tool call comes back
// as OpenAI returns one, its arguments decoded under the tool's parameters; what haggle does not do is
// a 400 naming the field.

/** The tool's parameters, in zod so that the check does not use haggle's own validator. */
const CounterOffer = z.strictObject({
  action: z.enum(['offer', 'accept', 'decline']),
  price: z.number().min(10).max(90),
  note: z.string().max(12),
});
const counterOffer = {
  type: 'function' as const,
  function: {
    name: 'counter_offer',
    description: 'Answer the buyer.',
    parameters: z.toJSONSchema(CounterOffer) as Record<string, unknown>,
  },
};
const Ask = z.strictObject({ question: z.enum(['condition', 'shipping', 'age']) });
const ask = {
  type: 'function' as const,
  function: { name: 'ask', parameters: z.toJSONSchema(Ask) as Record<string, unknown> },
};
const messages = [
  { role: 'system' as const, content: 'You sell a camera listed at 60.' },
  { role: 'user' as const, content: 'Would you take 35?' },
];

describe('haggle serve: tools and tool_choice through the openai client (fixture model)', () => {
  const served = serveFixtureModel();
  const client = () => new OpenAI({ baseURL: served().url, apiKey: 'unused', maxRetries: 0 });

  it('a named tool_choice: tool_calls[0] with arguments valid under the parameters, finish_reason tool_calls', {
    timeout: 120_000,
  }, async () => {
    const completion = await client().chat.completions.create({
      model: served().model,
      messages,
      tools: [counterOffer, ask],
      tool_choice: { type: 'function', function: { name: 'counter_offer' } },
      max_tokens: 200,
      seed: 5,
      n: 2,
    });
    expect(completion.choices).toHaveLength(2);
    for (const choice of completion.choices) {
      expect(choice.finish_reason).toBe('tool_calls');
      expect(choice.message.content).toBeNull();
      const [call, ...others] = choice.message.tool_calls ?? [];
      expect(others).toEqual([]);
      if (call?.type !== 'function') throw new Error('expected a function call');
      expect(call.id).toMatch(/^call_\w{24}$/);
      expect(call.function.name).toBe('counter_offer');
      expect(CounterOffer.safeParse(JSON.parse(call.function.arguments)).success).toBe(true);
    }
  });

  it('streams the call as tool_calls deltas that the client assembles', { timeout: 120_000 }, async () => {
    const stream = client().chat.completions.stream({
      model: served().model,
      messages,
      tools: [counterOffer],
      tool_choice: { type: 'function', function: { name: 'counter_offer' } },
      max_tokens: 200,
      seed: 6,
    });
    let argumentDeltas = 0;
    stream.on('chunk', (chunk) => {
      if (chunk.choices[0]?.delta.tool_calls?.[0]?.function?.arguments) argumentDeltas++;
    });
    const final = await stream.finalChatCompletion();
    const choice = final.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    const call = choice?.message.tool_calls?.[0];
    if (call?.type !== 'function') throw new Error('expected a function call');
    expect(call.function.name).toBe('counter_offer');
    expect(CounterOffer.safeParse(JSON.parse(call.function.arguments)).success).toBe(true);
    // Streamed as decoded, not in one piece at the end.
    expect(argumentDeltas).toBeGreaterThan(1);
  });

  it('"required" over several tools: one call of one of them, valid under its parameters (whole and streamed)', {
    timeout: 120_000,
  }, async () => {
    const request = {
      model: served().model,
      messages,
      tools: [counterOffer, ask],
      tool_choice: 'required' as const,
      max_tokens: 250,
      seed: 7,
      n: 3,
    };
    const whole = await client().chat.completions.create(request);
    const streamed = await client().chat.completions.stream(request).finalChatCompletion();
    for (const choice of [...whole.choices, ...streamed.choices]) {
      expect(choice.finish_reason).toBe('tool_calls');
      const call = choice.message.tool_calls?.[0];
      if (call?.type !== 'function') throw new Error('expected a function call');
      const schema = call.function.name === 'ask' ? Ask : CounterOffer;
      expect(['ask', 'counter_offer']).toContain(call.function.name);
      expect(schema.safeParse(JSON.parse(call.function.arguments)).success).toBe(true);
    }
  });

  it('tool_choice "none" answers text, leaving the tools unused as the spec says', {
    timeout: 120_000,
  }, async () => {
    const completion = await client().chat.completions.create({
      model: served().model,
      messages,
      tools: [counterOffer],
      tool_choice: 'none',
      max_tokens: 8,
      seed: 1,
    });
    expect(completion.choices[0]?.message.tool_calls).toBeUndefined();
    expect(typeof completion.choices[0]?.message.content).toBe('string');
    expect(completion.choices[0]?.finish_reason).toBe('length');
  });

  it('a tight max_tokens still ends in whole arguments: the decoder steers to a complete call', {
    timeout: 120_000,
  }, async () => {
    const completion = await client().chat.completions.create({
      model: served().model,
      messages,
      tools: [counterOffer],
      tool_choice: { type: 'function', function: { name: 'counter_offer' } },
      max_tokens: 3,
      seed: 2,
    });
    const call = completion.choices[0]?.message.tool_calls?.[0];
    if (call?.type !== 'function') throw new Error('expected a function call');
    expect(CounterOffer.safeParse(JSON.parse(call.function.arguments)).success).toBe(true);
    expect(completion.choices[0]?.finish_reason).toBe('tool_calls');
  });

  /** The 400 a request gets, as the openai client reports it. */
  async function refusal(body: Record<string, unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
    try {
      await client().chat.completions.create({
        model: served().model,
        messages,
        max_tokens: 4,
        ...body,
      } as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming);
    } catch (error) {
      if (error instanceof OpenAI.APIError) return error;
      throw error;
    }
    throw new Error(`expected a 400 for ${JSON.stringify(body)}`);
  }

  it.each([
    [{ tools: [counterOffer] }, 'tool_choice', /"auto" \(the default when tools are given\)/],
    [{ tools: [counterOffer], tool_choice: 'auto' }, 'tool_choice', /"required"/],
    [{ tool_choice: 'required' }, 'tool_choice', /needs tools/],
    [
      { tools: [counterOffer], tool_choice: { type: 'function', function: { name: 'other' } } },
      'tool_choice.function.name',
      /not one of the tools \(counter_offer\)/,
    ],
    [
      {
        tools: [counterOffer],
        tool_choice: 'required',
        response_format: { type: 'json_object' },
      },
      'response_format',
      /cannot be combined with a tool call/,
    ],
    [
      { tools: [{ type: 'custom', custom: { name: 'grep' } }], tool_choice: 'required' },
      'tools[0].type',
      /function/,
    ],
    [{ logprobs: true }, 'logprobs', /no log probabilities/],
    [{ frequency_penalty: 0.5 }, 'frequency_penalty', /repetition penalties/],
    [{ store: true }, 'store', /stores no completions/],
    [{ reasoning_effort: 'high' }, 'reasoning_effort', /without thinking/],
    [{ functions: [{ name: 'f' }] }, 'functions', /send tools and tool_choice/],
    [{ min_p: 0.1 }, 'min_p', /unknown field/],
    [{ stream_options: { include_obfuscation: true } }, 'stream_options.include_obfuscation', /false/],
    [{ chat_template_kwargs: { enable_thinking: true } }, 'chat_template_kwargs.enable_thinking', /false/],
    [{ messages: [{ role: 'user', content: 'hi', name: 'ann' }] }, 'messages[0]', /Unrecognized key: "name"/],
    [
      { messages: [{ role: 'tool', content: '{}', tool_call_id: 'call_1' }] },
      'messages[0].role',
      /no tool-call history/,
    ],
    [
      {
        messages: [
          { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: {} }] },
        ],
      },
      'messages[0].tool_calls',
      /no tool-call history/,
    ],
  ])('refuses %j with a 400 naming %s', { timeout: 30_000 }, async (body, param, message) => {
    const error = await refusal(body);
    expect(error.status).toBe(400);
    expect(error.param).toBe(param);
    expect(error.message).toMatch(message);
    expect(error.type).toBe('invalid_request_error');
  });

  it('takes the fields that ask for nothing (user, store false, n 1, zero penalties, text modality)', {
    timeout: 60_000,
  }, async () => {
    const completion = await client().chat.completions.create({
      model: served().model,
      messages,
      max_tokens: 2,
      n: 1,
      user: 'u-1',
      safety_identifier: 'hash',
      store: false,
      metadata: { run: 'a' },
      frequency_penalty: 0,
      presence_penalty: 0,
      logprobs: false,
      modalities: ['text'],
      service_tier: 'auto',
      parallel_tool_calls: false,
      stream_options: null,
    });
    expect(completion.choices[0]?.finish_reason).toBe('length');
  });

  it("errors and GET /v1/models are shaped as OpenAI's", { timeout: 30_000 }, async () => {
    const models = await client().models.list();
    expect(models.data.map((model) => model.id)).toEqual([served().model]);
    const response = await fetch(`${served().url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: served().model, messages, top_logprobs: 3 }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: Record<string, unknown> };
    expect(Object.keys(body)).toEqual(['error']);
    expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
    expect(body.error).toMatchObject({
      type: 'invalid_request_error',
      param: 'top_logprobs',
      code: 'unsupported_parameter',
    });
  });
});
