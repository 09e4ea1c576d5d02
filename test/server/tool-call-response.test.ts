import { describe, expect, it } from 'vitest';
import type { GenerateResult } from '../../src/backends/language-backend.js';
import { chatCompletion, StreamChunks } from '../../src/server/completion-response.js';
import type { ToolCallPlan } from '../../src/server/tool-call-plan.js';

// The answer shapes for a backend that stops mid-call (a remote upstream at its token limit): the
// local decoder always ends in a whole document, so these run on the pure functions.
const meta = { id: 'chatcmpl-1', created: 1, model: 'm' };
const result = (text: string, finishReason: 'stop' | 'length'): GenerateResult => ({
  choices: [{ text, finishReason }],
  usage: { promptTokens: 1, completionTokens: 2 },
  warnings: [],
});
const named: ToolCallPlan = { kind: 'one', name: 'offer', schema: { type: 'object' } };
const several: ToolCallPlan = { kind: 'any', names: ['offer', 'ask'], schema: {} };

describe('tool-call answers', () => {
  it('a named call cut off says length and keeps the arguments decoded so far', () => {
    const [choice] = chatCompletion(meta, result('{"price":4', 'length'), named).choices;
    expect(choice?.finish_reason).toBe('length');
    expect(choice?.message.tool_calls?.[0]?.function).toEqual({ name: 'offer', arguments: '{"price":4' });
    expect(choice?.message.content).toBeNull();
  });

  it('"required" over several tools reads the call back, arguments as compact JSON', () => {
    const text = '{ "name": "ask", "arguments": { "q": "age" } }';
    const [choice] = chatCompletion(meta, result(text, 'stop'), several).choices;
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.tool_calls?.[0]?.function).toEqual({ name: 'ask', arguments: '{"q":"age"}' });
  });

  it('"required" cut off before the call is whole answers the text as content, finish length', () => {
    const [choice] = chatCompletion(meta, result('{"name":"as', 'length'), several).choices;
    expect(choice?.finish_reason).toBe('length');
    expect(choice?.message).toMatchObject({ content: '{"name":"as' });
    expect(choice?.message.tool_calls).toBeUndefined();
  });

  it('streams a named call as an opening chunk with id and name, then argument deltas', () => {
    const chunks = new StreamChunks(meta, 'chat', named);
    const first = chunks.delta(0, '{"pr') as { choices: { delta: Record<string, unknown> }[] }[];
    const second = chunks.delta(0, 'ice":1}') as { choices: { delta: Record<string, unknown> }[] }[];
    const finish = chunks.finish(result('{"price":1}', 'stop'), false) as {
      choices: { finish_reason: string | null }[];
    }[];
    const opening = first[0]?.choices[0]?.delta as { tool_calls: { id: string; function: object }[] };
    expect(opening.tool_calls[0]?.id).toMatch(/^call_/);
    expect(opening.tool_calls[0]?.function).toEqual({ name: 'offer', arguments: '' });
    expect(first[1]?.choices[0]?.delta).toEqual({
      tool_calls: [{ index: 0, function: { arguments: '{"pr' } }],
    });
    expect(second).toHaveLength(1);
    expect(finish.at(-1)?.choices[0]?.finish_reason).toBe('tool_calls');
  });
});
