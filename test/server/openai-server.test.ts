import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type GenerateOptions,
  NegotiationAgent,
  OpenAICompatibleBackend,
  TurnSchema,
  turnJsonSchema,
} from '../../src/index.js';
// Until src/index.ts re-exports the server layer, import it from its folder.
import {
  type ClientClosed,
  OpenAIServer,
  type OpenAIServerOptions,
  type ServerFailure,
} from '../../src/server/index.js';
import { MockLanguageBackend, type MockResponse } from '../../src/testing/index.js';
import { turnForSchema } from '../backends/openai/turn-for-schema.js';
import { CONTEXT } from '../helpers/fixtures.js';

const servers: OpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A scripted model: answers every choice with a valid turn for the schema it was asked under. */
const scripted: MockResponse = (options: GenerateOptions) =>
  turnForSchema(options.responseFormat?.type === 'json' ? options.responseFormat.schema : undefined);

async function start(
  options: {
    responses?: number;
    apiKey?: string;
    latencyMs?: number;
    listeners?: Pick<OpenAIServerOptions, 'onFailure' | 'onClientClosed'>;
  } = {},
) {
  const backend = new MockLanguageBackend({
    modelId: 'qwen3-4b-negotiation',
    responses: Array.from({ length: options.responses ?? 20 }, () => scripted),
    ...(options.latencyMs ? { latencyMs: options.latencyMs } : {}),
    warnings: [{ type: 'unsupported-setting', setting: 'topK' }],
  });
  const server = new OpenAIServer({
    backend,
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    ...options.listeners,
  });
  servers.push(server);
  const url = await server.listen({ port: 0 });
  return { backend, server, url };
}

describe('haggle serve: the official openai client against it', () => {
  it('lists the model and completes a chat under response_format json_schema, with n and seed', async () => {
    const { backend, url } = await start();
    const client = new OpenAI({ baseURL: url, apiKey: 'unused', maxRetries: 0 });
    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toEqual(['qwen3-4b-negotiation']);

    const schema = turnJsonSchema({ role: 'seller' });
    const completion = await client.chat.completions.create({
      model: 'qwen3-4b-negotiation',
      messages: [
        { role: 'system', content: 'You negotiate.' },
        { role: 'user', content: 'Your turn.' },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'turn', schema } },
      n: 2,
      seed: 42,
      temperature: 1,
      max_tokens: 100,
      stop: ['<|im_end|>'],
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices).toHaveLength(2);
    for (const choice of completion.choices) {
      expect(choice.finish_reason).toBe('stop');
      expect(TurnSchema.parse(JSON.parse(choice.message.content ?? ''))).toMatchObject({ action: 'accept' });
    }
    expect(completion.usage?.total_tokens).toBeGreaterThan(0);
    const call = backend.calls[0];
    expect(call).toMatchObject({ n: 2, seed: 42, temperature: 1, maxTokens: 100, stop: ['<|im_end|>'] });
    expect(call?.responseFormat).toEqual({ type: 'json', name: 'turn', schema });
    // Local backends get the exact template string too.
    expect(call?.prompt.text).toBe(
      '<|im_start|>system\nYou negotiate.<|im_end|>\n<|im_start|>user\nYour turn.<|im_end|>\n<|im_start|>assistant\n',
    );
  });

  it('streams SSE chunks that the client reassembles, with usage', async () => {
    const { url } = await start();
    const client = new OpenAI({ baseURL: url, apiKey: 'unused', maxRetries: 0 });
    const stream = await client.chat.completions.create({
      model: 'qwen3-4b-negotiation',
      messages: [{ role: 'user', content: 'Your turn.' }],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'turn', schema: turnJsonSchema({ role: 'buyer', actions: ['offer'] }) },
      },
      stream: true,
      stream_options: { include_usage: true },
    });
    let content = '';
    let chunks = 0;
    let finish: string | null = null;
    let usage: unknown;
    for await (const chunk of stream) {
      chunks++;
      content += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(chunks).toBeGreaterThan(3);
    expect(TurnSchema.parse(JSON.parse(content))).toMatchObject({ action: 'offer', price: 50 });
    expect(finish).toBe('stop');
    expect(usage).toMatchObject({ total_tokens: expect.any(Number) });
  });

  it('answers errors in OpenAI shape: unknown model 404, bad request 400, missing key 401', async () => {
    const { url } = await start({ apiKey: 'serve-secret-key' });
    const good = new OpenAI({ baseURL: url, apiKey: 'serve-secret-key', maxRetries: 0 });
    const bad = new OpenAI({ baseURL: url, apiKey: 'wrong', maxRetries: 0 });
    await expect(bad.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    await expect(
      good.chat.completions.create({ model: 'gpt-5', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({ status: 404, code: 'model_not_found' });
    await expect(
      good.chat.completions.create({ model: 'qwen3-4b-negotiation', messages: [], n: 99 }),
    ).rejects.toMatchObject({ status: 400 });
    const raw = await fetch(`${url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer serve-secret-key' },
      body: '{not json',
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toMatchObject({ error: { code: 'invalid_json' } });
  });

  it('a backend failure is a 502 with the backend error, not a crash', async () => {
    const { url } = await start({ responses: 0 });
    const client = new OpenAI({ baseURL: url, apiKey: 'unused', maxRetries: 0 });
    await expect(
      client.chat.completions.create({
        model: 'qwen3-4b-negotiation',
        messages: [{ role: 'user', content: 'x' }],
      }),
    ).rejects.toMatchObject({ status: 502, message: expect.stringMatching(/ran out of queued responses/) });
  });

  it('a backend failure under stream: true is the same 502 as without, before any SSE byte', async () => {
    const { url } = await start({ responses: 0 });
    const client = new OpenAI({ baseURL: url, apiKey: 'unused', maxRetries: 0 });
    const streamed = client.chat.completions.create({
      model: 'qwen3-4b-negotiation',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    });
    await expect(streamed).rejects.toMatchObject({ status: 502 });
    await expect(streamed).rejects.toThrow(/ran out of queued responses/);
  });

  it('backend warnings travel in the x-haggle-warnings header', async () => {
    const { url } = await start();
    const response = await fetch(`${url}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({
        model: 'qwen3-4b-negotiation',
        messages: [{ role: 'user', content: 'x' }],
        top_k: 5,
      }),
    });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.headers.get('x-haggle-warnings') ?? '[]')).toEqual([
      { type: 'unsupported-setting', setting: 'topK' },
    ]);
  });

  it('a client that hangs up cancels its backend call, reported as a client close, not a failure', async () => {
    const failures: ServerFailure[] = [];
    const closed: ClientClosed[] = [];
    const { backend, url } = await start({
      latencyMs: 5_000,
      listeners: { onFailure: (f) => failures.push(f), onClientClosed: (c) => closed.push(c) },
    });
    const controller = new AbortController();
    const request = fetch(`${url}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'qwen3-4b-negotiation', messages: [{ role: 'user', content: 'x' }] }),
      signal: controller.signal,
    });
    for (let i = 0; i < 200 && backend.calls.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await expect(request).rejects.toThrow();
    const signal = backend.calls[0]?.abortSignal;
    for (let i = 0; i < 200 && !signal?.aborted; i++) await new Promise((r) => setTimeout(r, 5));
    expect(signal?.aborted).toBe(true);
    for (let i = 0; i < 200 && closed.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    // Issue 26: this was logged as "502 … HaggleAbortError: Aborted: the client closed the connection".
    expect(closed).toEqual([{ method: 'POST', path: '/v1/chat/completions', afterMs: expect.any(Number) }]);
    expect(failures).toEqual([]);
  });
});

describe('the remote backend against haggle serve', () => {
  it('a NegotiationAgent predicts through OpenAICompatibleBackend -> haggle serve -> a local backend', async () => {
    const { backend: local, url } = await start();
    const remote = new OpenAICompatibleBackend({
      baseURL: url,
      model: 'qwen3-4b-negotiation',
      dialect: 'vllm',
    });
    const agent = new NegotiationAgent({ backend: remote, sampling: { seed: 3 } });
    const input = { context: CONTEXT, history: [], role: 'buyer' as const, legalActions: ['offer' as const] };
    const turn = await agent.predict(input, { seed: 11 });
    expect(turn).toMatchObject({ action: 'offer', price: 50 });
    expect(local.calls[0]?.seed).toBe(11);
    expect(local.calls[0]?.responseFormat?.type).toBe('json');
    // The local backend's warning crossed the wire (x-haggle-warnings) and reached the remote agent.
    expect(agent.warnings).toEqual([{ type: 'unsupported-setting', setting: 'topK' }]);
    const turns = await agent.sample(input, { n: 3, seed: 1 });
    expect(turns).toHaveLength(3);
    expect(local.calls[1]?.n).toBe(3);
  });

  it('completions mode sends the exact template string through /v1/completions', async () => {
    const { backend: local, url } = await start();
    const remote = new OpenAICompatibleBackend({
      baseURL: url,
      model: 'qwen3-4b-negotiation',
      endpoint: 'completions',
    });
    const agent = new NegotiationAgent({ backend: remote });
    const turn = await agent.predict({ context: CONTEXT, history: [], role: 'buyer' });
    // vLLM's completions field (structured_outputs.json) reaches the local backend as the turn schema.
    expect(local.calls[0]?.responseFormat?.type).toBe('json');
    // Used alone, the agent derives the legal moves: an opening buyer has nothing to accept.
    expect(turn.action).toBe('offer');
    expect(turn.price).toBeLessThan(CONTEXT.listPrice);
    expect(local.calls[0]?.prompt.text).toMatch(/^<\|im_start\|>system\n[\s\S]*<\|im_start\|>assistant\n$/);
  });
});
