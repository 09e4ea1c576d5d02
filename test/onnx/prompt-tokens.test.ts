import { beforeAll, describe, expect, it } from 'vitest';
import { HaggleError } from '../../src/contract/errors.js';
import { ContextLengthExceededError } from '../../src/onnx/errors.js';
import { Pace } from '../../src/onnx/pace.js';
import { encodePrompt, pieceEnd } from '../../src/onnx/prompt-tokens.js';
import type { Tokenizer } from '../../src/prompt/tokenizer.js';
import { qwen3Tokenizer } from '../prompt/qwen3-model-folder.js';

// The local backend tokenizes long prompts in pieces (so the decode loop gets turns between them)
// and stops counting once a prompt is over the context. The pieces must give the ids one `encode`
// call gives, for text people write: prose, numbers, chat-template markers, emoji.
describe('encodePrompt: pieces, the same ids, and an early stop past the context', () => {
  let tokenizer: Tokenizer;
  beforeAll(async () => {
    tokenizer = await qwen3Tokenizer();
  });

  const paragraph =
    '<|im_start|>user\nListing: Nikon F3 camera body, list price 120.00 USD (about 110 EUR). ' +
    'Seller says: "Mint condition, shutter tested 1/2000 s — no fungus." 👍🏽 Buyer offers 80.00 USD; ' +
    'ответ: цена окончательная. 12345678901234567890\n\n<|im_end|>\n<|im_start|>assistant\n';

  it('gives exactly the ids of one encode call for long mixed text', async () => {
    const text = Array.from({ length: 60 }, (_, i) => `${paragraph}Turn ${i}. `).join('');
    expect(text.length).toBeGreaterThan(10_000);
    expect(await encodePrompt(tokenizer, text, 1_000_000)).toEqual(tokenizer.encode(text));
  });

  it('cuts pieces only where the pre-tokenizer splits anyway, and never inside a special token', () => {
    const text = 'word '.repeat(2000);
    const end = pieceEnd(text, 0);
    expect(end).toBeGreaterThan(1000);
    expect(end).toBeLessThan(text.length);
    expect(text[end]).toBe(' ');
    // No space to cut at: a hard cut, moved off a special token that straddles it.
    const marker = '<|im_start|>';
    const dense = `${'x'.repeat(4096 - 5)}${marker}${'y'.repeat(5000)}`;
    const cut = pieceEnd(dense, 0);
    expect(dense.slice(cut, cut + marker.length)).toBe(marker);
  });

  it('refuses a prompt at or over the limit with the count, and stops counting early', async () => {
    const words = 'price '.repeat(100);
    const exact = tokenizer.encode(words).length;
    await expect(encodePrompt(tokenizer, words, exact)).rejects.toMatchObject({
      code: 'context-length-exceeded',
      promptTokens: exact,
      contextLength: exact,
      counted: 'all',
    });
    expect((await encodePrompt(tokenizer, words, exact + 1)).length).toBe(exact);

    const huge = 'the price is fair '.repeat(200_000); // 3.6 M characters, about 800k tokens
    let caught: unknown;
    try {
      await encodePrompt(tokenizer, huge, 40_960);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ContextLengthExceededError);
    const refused = caught as ContextLengthExceededError;
    expect(HaggleError.isInstance(refused)).toBe(true);
    expect(refused.counted).toBe('at-least');
    // Stopped within one piece of the limit, far from the 800k tokens of the whole text.
    expect(refused.promptTokens).toBeGreaterThanOrEqual(40_960);
    expect(refused.promptTokens).toBeLessThan(40_960 + 2000);
    expect(refused.message).toMatch(/at least \d+ tokens; this model's context is 40960 tokens/);
  });

  it('refuses an empty prompt as invalid input', async () => {
    await expect(encodePrompt(tokenizer, '', 100)).rejects.toMatchObject({ code: 'invalid-input' });
  });
});

describe('Pace: one turn at a time, the least-served owner first', () => {
  it('lets an owner that has used more wait for one that has used less, and runs one turn at a time', async () => {
    const pace = new Pace();
    const long = {};
    const short = {};
    const order: string[] = [];
    const tick = () => new Promise((resolve) => setImmediate(resolve));
    // Both join level, then the long owner takes a 30 ms turn.
    await pace.turn(long);
    pace.charge(long, 0);
    await pace.turn(short);
    pace.charge(short, 0);
    await pace.turn(long);
    pace.charge(long, 30);
    // Both ask; the long one asked first, but the short one has used less and goes first.
    const longTurn = pace.turn(long).then(() => {
      order.push('long');
      pace.charge(long, 1);
    });
    const shortTurn = pace.turn(short).then(() => {
      order.push('short');
      pace.charge(short, 40);
    });
    await Promise.all([longTurn, shortTurn]);
    expect(order).toEqual(['short', 'long']);
    // While one holds the model, the other waits, even when it has used less.
    await pace.turn(long); // long 31 < short 40
    const waiting = pace.turn(short).then(() => order.push('short again'));
    await tick();
    await tick();
    expect(order).toEqual(['short', 'long']);
    pace.charge(long, 20);
    await waiting;
    expect(order.at(-1)).toBe('short again');
    pace.charge(short, 1);
    pace.leave(long);
    pace.leave(short);
  });

  it('sizes prefill chunks to the target time, within their bounds', () => {
    const pace = new Pace();
    expect(pace.chunkTokens(0, 256, 32)).toBe(256); // nothing known yet
    expect(pace.chunkTokens(0.1, 256, 32)).toBe(256); // cheap tokens: the most a chunk may hold
    expect(pace.chunkTokens(1, 256, 32)).toBe(50); // 1 ms a token: 50 ms
    expect(pace.chunkTokens(10, 256, 32)).toBe(32); // never below the floor
    pace.recordStep({}, 100); // a step slower than the target: a chunk may take as long
    expect(pace.chunkTokens(1, 256, 32)).toBe(100);
  });
});
