import { describe, expect, it } from 'vitest';
import { NegotiationAgent } from '../../src/agent/negotiation-agent.js';
import { foldTurnEvent, type PartialTurn, type TurnStreamEvent } from '../../src/agent/turn-events.js';
import type {
  BackendStreamPart,
  GenerateOptions,
  GenerateResult,
  LanguageBackend,
} from '../../src/backends/language-backend.js';
import { HaggleAbortError, InvalidModelOutputError } from '../../src/contract/errors.js';
import { MockLanguageBackend } from '../../src/testing/mock-language-backend.js';
import { buyerOpenedAt80, camera, offerWithMessage } from './fixtures.js';

const input = { context: camera, history: buyerOpenedAt80, role: 'seller' as const };
const counter = offerWithMessage(105, 'It is in great shape, I could do 105.', ['build_rapport']);

async function collect(stream: AsyncIterable<TurnStreamEvent>): Promise<TurnStreamEvent[]> {
  const events: TurnStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('agent.stream', () => {
  it('yields action, price, labels, message deltas and response time in writing order, then the turn', async () => {
    const backend = new MockLanguageBackend({ responses: [JSON.stringify(counter)], streamChunkSize: 3 });
    const agent = new NegotiationAgent({ backend });
    const events = await collect(agent.stream(input));
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('action');
    expect(types[1]).toBe('price');
    expect(types[2]).toBe('labels');
    expect(types.filter((type) => type === 'message-delta').length).toBeGreaterThan(3);
    expect(types.slice(-2)).toEqual(['response-time', 'turn']);
    expect(events[1]).toEqual({ type: 'price', price: 105 });
    const last = events.at(-1);
    expect(last?.type === 'turn' && last.turn).toEqual(counter);
    // Folding every event gives exactly the validated turn; folding all but the last gives it too.
    expect(events.reduce(foldTurnEvent, {} as PartialTurn)).toEqual(counter);
    expect(events.slice(0, -1).reduce(foldTurnEvent, {} as PartialTurn)).toEqual(counter);
  });

  it('gives the same turn as predict for a backend without doStream (the doGenerate fallback)', async () => {
    const mock = new MockLanguageBackend({ responses: [JSON.stringify(counter), JSON.stringify(counter)] });
    // A custom backend with only doGenerate, as users write them.
    const backend: LanguageBackend = {
      specificationVersion: 'v1',
      provider: 'custom',
      modelId: 'm',
      doGenerate: (options) => mock.doGenerate(options),
    };
    const agent = new NegotiationAgent({ backend, sampling: { seed: 3 } });
    const events = await collect(agent.stream(input));
    expect(events.map((e) => e.type)).toEqual([
      'action',
      'price',
      'labels',
      'message-delta',
      'response-time',
      'turn',
    ]);
    const predicted = await agent.predict(input);
    const last = events.at(-1);
    expect(last?.type === 'turn' && last.turn).toEqual(predicted);
    // The same request as predict's: one choice, the call's seed.
    expect(mock.calls[0]?.n).toBe(1);
    expect(mock.calls[0]?.seed).toBe(3);
    expect(mock.calls[1]?.seed).toBe(3);
  });

  it('an invalid turn is a reset, and the re-ask (with predict’s derived seed) brings the turn', async () => {
    const backend = new MockLanguageBackend({
      // Valid JSON up to the message, then a response time past 30 days: shown, then invalid.
      responses: [JSON.stringify({ ...counter, response_time: 1e9 }), JSON.stringify(counter)],
    });
    const agent = new NegotiationAgent({ backend, sampling: { seed: 9 } });
    const events = await collect(agent.stream(input));
    const reset = events.findIndex((e) => e.type === 'reset');
    expect(reset).toBeGreaterThan(0);
    expect(events[reset]).toEqual({ type: 'reset', reason: 'invalid-turn' });
    expect(events.slice(0, reset).some((e) => e.type === 'message-delta')).toBe(true);
    expect(events.reduce(foldTurnEvent, {} as PartialTurn)).toEqual(counter);
    expect(backend.calls.map((call) => call.seed)).toHaveLength(2);
    expect(backend.calls[1]?.seed).not.toBe(9);
  });

  it('never shows a price the guardrails forbid, even from a backend that ignores the schema', async () => {
    const below = offerWithMessage(50, 'Fine, 50.');
    const backend = new MockLanguageBackend({
      responses: [JSON.stringify(below), JSON.stringify(counter)],
      streamChunkSize: 2,
    });
    const agent = new NegotiationAgent({ backend, guardrails: { seller: { minPrice: 100 } } });
    const events = await collect(agent.stream(input));
    const prices = events.flatMap((e) => (e.type === 'price' ? [e.price] : []));
    expect(prices).toEqual([105]);
    // The action was shown before the price failed its check: the re-ask resets it.
    expect(events.map((e) => e.type)).toContain('reset');
    expect(events.at(-1)?.type).toBe('turn');
  });

  it('throws InvalidModelOutputError once the retries are spent', async () => {
    const backend = new MockLanguageBackend({ responses: ['nope', 'nope'] });
    const agent = new NegotiationAgent({ backend, invalidOutput: { retries: 1 } });
    const error = await collect(agent.stream(input)).catch((e: unknown) => e);
    expect(InvalidModelOutputError.isInstance(error)).toBe(true);
  });

  it('abandoning the iterator aborts the backend stream; the caller’s signal does too', async () => {
    const seen: AbortSignal[] = [];
    const endless: LanguageBackend = {
      specificationVersion: 'v1',
      provider: 'endless',
      modelId: 'm',
      doGenerate: () => Promise.reject(new Error('not used')),
      async *doStream(options: GenerateOptions): AsyncGenerator<BackendStreamPart> {
        if (options.abortSignal) seen.push(options.abortSignal);
        yield {
          type: 'text-delta',
          index: 0,
          delta: '{"action":"offer_with_message","price":105,"message":"',
        };
        for (;;) {
          if (options.abortSignal?.aborted) throw new HaggleAbortError(options.abortSignal.reason);
          await new Promise((resolve) => setTimeout(resolve, 1));
          yield { type: 'text-delta', index: 0, delta: 'la ' };
        }
      },
    };
    const agent = new NegotiationAgent({ backend: endless });
    let deltas = 0;
    for await (const event of agent.stream(input)) {
      if (event.type === 'message-delta' && ++deltas === 5) break;
    }
    expect(seen[0]?.aborted).toBe(true);

    const controller = new AbortController();
    const events: string[] = [];
    const error = await (async () => {
      for await (const event of agent.stream(input, { signal: controller.signal })) {
        events.push(event.type);
        if (events.length === 4) controller.abort(new Error('user left'));
      }
    })().catch((e: unknown) => e);
    expect(HaggleAbortError.isInstance(error)).toBe(true);
    expect(seen[1]?.aborted).toBe(true);
  });

  it('a backend retry after its first delta becomes a reset; the stream reads as a ReadableStream too', async () => {
    const text = JSON.stringify(counter);
    const retrying: LanguageBackend = {
      specificationVersion: 'v1',
      provider: 'retrying',
      modelId: 'm',
      doGenerate: () => Promise.reject(new Error('not used')),
      async *doStream(): AsyncGenerator<BackendStreamPart> {
        yield { type: 'text-delta', index: 0, delta: '{"action":"offer","price":99,' };
        yield { type: 'reset' };
        yield { type: 'text-delta', index: 0, delta: text };
        const result: GenerateResult = {
          choices: [{ text, finishReason: 'stop' }],
          usage: { promptTokens: 10, completionTokens: 20 },
          warnings: [],
        };
        yield { type: 'finish', result };
      },
    };
    const agent = new NegotiationAgent({ backend: retrying });
    const reader = agent.stream(input).toReadableStream().getReader();
    const events: TurnStreamEvent[] = [];
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      events.push(next.value);
    }
    expect(events.slice(0, 3)).toEqual([
      { type: 'action', action: 'offer' },
      { type: 'price', price: 99 },
      { type: 'reset', reason: 'retry' },
    ]);
    const last = events.at(-1);
    expect(last).toEqual({
      type: 'turn',
      turn: counter,
      usage: { promptTokens: 10, completionTokens: 20 },
      warnings: [],
    });
  });
});
