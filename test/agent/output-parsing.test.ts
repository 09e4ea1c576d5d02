import { describe, expect, it } from 'vitest';
import { parseModelOutput } from '../../src/agent/output-parsing.js';

const turn = { action: 'offer', price: 45, message_labels: [], message: '', response_time: 3 };
const json = JSON.stringify(turn);

function parsedValue(text: string): unknown {
  const parsed = parseModelOutput(text);
  if (!parsed.ok) throw new Error(`expected success, got ${JSON.stringify(parsed.issues)}`);
  return parsed.value;
}

function issueOf(text: string): string {
  const parsed = parseModelOutput(text);
  if (parsed.ok) throw new Error(`expected failure, got ${JSON.stringify(parsed.value)}`);
  expect(parsed.issues).toHaveLength(1);
  return parsed.issues[0]?.message ?? '';
}

describe('parseModelOutput', () => {
  it('parses a bare object and tolerates surrounding whitespace', () => {
    expect(parsedValue(json)).toEqual(turn);
    expect(parsedValue(`\n  ${json}\n\n`)).toEqual(turn);
  });

  it('strips a leading think block, empty or not', () => {
    expect(parsedValue(`<think>\n\n</think>\n\n${json}`)).toEqual(turn);
    expect(parsedValue(`<think>45 is fair {"not": "this"}</think>${json}`)).toEqual(turn);
  });

  it('strips a Markdown code fence, tagged or not, and prose around it', () => {
    expect(parsedValue(`\`\`\`json\n${json}\n\`\`\``)).toEqual(turn);
    expect(parsedValue(`\`\`\`\n${json}\n\`\`\``)).toEqual(turn);
    expect(parsedValue(`Here is my turn:\n\`\`\`json\n${json}\n\`\`\`\nGood luck!`)).toEqual(turn);
    expect(parsedValue(`<think>plan</think>\n\`\`\`json\n${json}\n\`\`\``)).toEqual(turn);
  });

  it('strips end-of-turn tokens a backend left behind', () => {
    expect(parsedValue(`${json}<|im_end|>`)).toEqual(turn);
    expect(parsedValue(`${json}\n<|im_end|>\n<|endoftext|>`)).toEqual(turn);
  });

  it('rejects an object embedded in prose without a fence', () => {
    expect(issueOf(`Sure! ${json}`)).toContain('expected one JSON object and nothing else');
    expect(issueOf(`${json} Hope that helps.`)).toContain('expected one JSON object and nothing else');
  });

  it('rejects several fences, an unclosed think block, empty output', () => {
    expect(issueOf(`\`\`\`json\n${json}\n\`\`\`\n\`\`\`json\n${json}\n\`\`\``)).toContain('2 code blocks');
    expect(issueOf(`<think>still thinking ${json}`)).toContain('never closes');
    expect(issueOf('   ')).toContain('empty');
    expect(issueOf('<think></think>')).toContain('empty');
  });

  it('reports invalid JSON and non-objects as issues instead of throwing', () => {
    expect(issueOf('{"action": "offer", "price": 45,}')).toContain('not valid JSON');
    expect(issueOf('{"action": "offer"')).toContain('expected one JSON object');
    expect(issueOf('[1, 2]')).toContain('expected one JSON object');
    expect(parseModelOutput('{}')).toEqual({ ok: true, value: {} });
  });
});
