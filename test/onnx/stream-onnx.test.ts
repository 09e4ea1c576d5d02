import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NegotiationAgent } from '../../src/agent/negotiation-agent.js';
import { foldTurnEvent, type PartialTurn, type TurnStreamEvent } from '../../src/agent/turn-events.js';
import { OpenAICompatibleBackend } from '../../src/backends/openai/node-backend.js';
import { HaggleAbortError } from '../../src/contract/errors.js';
import type { Turn } from '../../src/contract/turn.js';
import { OnnxBackend } from '../../src/onnx/index.js';
import { OpenAIServer } from '../../src/server/index.js';
import { Session } from '../../src/simulation/session.js';
import type { TurnDeltaEvent, TurnEvent } from '../../src/simulation/session-events.js';
import { fixtureModel } from './fixture-model.js';
import { randomInputs } from './random-contexts.js';

let backend: OnnxBackend;
let server: OpenAIServer;
let serverUrl: string;
beforeAll(async () => {
  backend = await OnnxBackend.load(fixtureModel(1));
  server = new OpenAIServer({ backend });
  serverUrl = await server.listen();
});
afterAll(async () => {
  await server?.close();
  await backend?.dispose();
});

const sampling = { temperature: 1.0, seed: 7, maxTokens: 160 };

async function streamed(
  agent: NegotiationAgent,
  input: Parameters<NegotiationAgent['predict']>[0],
  seed: number,
) {
  const events: TurnStreamEvent[] = [];
  for await (const event of agent.stream(input, { seed })) events.push(event);
  const last = events.at(-1);
  if (last?.type !== 'turn') throw new Error('no turn event');
  return { events, turn: last.turn };
}

describe('agent.stream on the tiny ONNX Qwen3', () => {
  it('gives the same final turn as predict for 200 random contexts and seeds, token deltas on the way', {
    timeout: 600_000,
  }, async () => {
    const agent = new NegotiationAgent({ backend, sampling });
    const inputs = randomInputs(200, 42);
    // All at once, as predict's test does: the rows stream out of one batch.
    const [predicted, streams] = await Promise.all([
      Promise.all(inputs.map((input, i) => agent.predict(input, { seed: i }))),
      Promise.all(inputs.map((input, i) => streamed(agent, input, i))),
    ]);
    expect(streams.map((s) => s.turn)).toEqual(predicted);
    for (const [i, { events, turn }] of streams.entries()) {
      // The fold of every event is the turn; the fold of all but the turn event agrees with it on
      // every field it holds (an empty message sends no delta), the message included when there is one.
      expect(events.reduce(foldTurnEvent, {} as PartialTurn)).toEqual(turn);
      const preview = events.slice(0, -1).reduce(foldTurnEvent, {} as PartialTurn);
      expect({ ...turn, ...preview }, `input ${i}`).toEqual(turn);
      expect(preview.action, `input ${i}`).toBe(turn.action);
      if (turn.message !== '') expect(preview.message, `input ${i}`).toBe(turn.message);
    }
    // Messages of several tokens come in several deltas (the worker hands tokens out as sampled).
    const long = streams.filter((s) => s.turn.message.length >= 40);
    expect(long.length).toBeGreaterThan(10);
    for (const { events } of long) {
      expect(events.filter((e) => e.type === 'message-delta').length).toBeGreaterThan(2);
      const types = events.map((e) => e.type);
      expect(types.indexOf('price')).toBeLessThan(types.indexOf('message-delta'));
    }
  });

  it('gives the same final turns through haggle serve (SSE), for 200 random contexts and seeds', {
    timeout: 600_000,
  }, async () => {
    const local = new NegotiationAgent({ backend, sampling });
    const remote = new NegotiationAgent({
      backend: new OpenAICompatibleBackend({
        baseURL: serverUrl,
        model: backend.modelId,
        endpoint: 'completions',
      }),
      sampling,
    });
    const inputs = randomInputs(200, 43);
    const predicted = await Promise.all(inputs.map((input, i) => local.predict(input, { seed: i })));
    const remoteTurns: Turn[] = [];
    let deltasBeforeTurn = 0;
    // 25 at a time: the remote backend's connections, not the model, are the limit here.
    for (let at = 0; at < inputs.length; at += 25) {
      const batch = await Promise.all(
        inputs.slice(at, at + 25).map((input, j) => streamed(remote, input, at + j)),
      );
      for (const { events, turn } of batch) {
        remoteTurns.push(turn);
        deltasBeforeTurn = Math.max(
          deltasBeforeTurn,
          events.filter((e) => e.type === 'message-delta').length,
        );
      }
    }
    expect(remoteTurns).toEqual(predicted);
    expect(deltasBeforeTurn).toBeGreaterThan(2);
  });

  it('abandoning a stream aborts its row; the backend goes on serving', { timeout: 120_000 }, async () => {
    const agent = new NegotiationAgent({ backend, sampling: { ...sampling, maxTokens: 4096 } });
    const [input] = randomInputs(1, 3);
    if (!input) throw new Error('no input');
    let seen = 0;
    for await (const _event of agent.stream(input, { seed: 1 })) if (++seen === 2) break;
    const controller = new AbortController();
    const error = await (async () => {
      for await (const _event of agent.stream(input, { seed: 2, signal: controller.signal }))
        controller.abort();
    })().catch((e: unknown) => e);
    expect(HaggleAbortError.isInstance(error)).toBe(true);
    const turn = await agent.predict(input, { seed: 3 });
    expect(typeof turn.action).toBe('string');
    expect(backend.health().status).toBe('ok');
  });

  it('a Session emits turn-delta events while its agents stream; the same session as without them', {
    timeout: 300_000,
  }, async () => {
    const agent = new NegotiationAgent({ backend, sampling });
    const [input] = randomInputs(1, 5);
    if (!input) throw new Error('no input');
    const play = async (listen: boolean) => {
      const session = new Session({ context: input.context, buyer: agent, seller: agent, seed: 21 });
      const deltas: TurnDeltaEvent[] = [];
      const turns: TurnEvent[] = [];
      if (listen) session.on('turn-delta', (event) => deltas.push(event));
      session.on('turn', (event) => turns.push(event));
      const result = await session.run();
      return { result, deltas, turns };
    };
    const watched = await play(true);
    const plain = await play(false);
    expect(watched.result.turns).toEqual(plain.result.turns);
    expect(watched.result.outcome).toEqual(plain.result.outcome);
    expect(watched.deltas.length).toBeGreaterThan(watched.turns.length);
    for (const turn of watched.turns) {
      const mine = watched.deltas.filter((d) => d.index === turn.index);
      expect(mine.every((d) => d.role === turn.role)).toBe(true);
      const afterReset = mine.slice(mine.findLastIndex((d) => d.event.type === 'reset') + 1);
      const message = afterReset.map((d) => (d.event.type === 'message-delta' ? d.event.text : '')).join('');
      expect(message).toBe(turn.turn.message);
      expect(afterReset.find((d) => d.event.type === 'action')?.event).toEqual({
        type: 'action',
        action: turn.turn.action,
      });
    }
  });
});
