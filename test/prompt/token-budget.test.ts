import { beforeAll, describe, expect, it } from 'vitest';
import type { History, HistoryEntry } from '../../src/contract/history.js';
import { ListingContextSchema } from '../../src/contract/listing-context.js';
import { DEFAULT_MODEL_PROFILE } from '../../src/contract/model-profile.js';
import { qwen3NoThinkTemplate } from '../../src/prompt/default-template.js';
import { PromptTooLongError } from '../../src/prompt/errors.js';
import { renderPrompt } from '../../src/prompt/render-prompt.js';
import { historyWindow } from '../../src/prompt/token-budget.js';
import type { Tokenizer } from '../../src/prompt/tokenizer.js';
import { camera, entry, messageOnly, offer, offerWithMessage } from '../agent/fixtures.js';
import { qwen3Tokenizer } from './qwen3-model-folder.js';

let tokenizer: Tokenizer;
beforeAll(async () => {
  tokenizer = await qwen3Tokenizer();
});

/** Two opening messages, then the buyer's first offer, then 497 more turns, alternating sides. */
function longHistory(turns: number): History {
  const history: HistoryEntry[] = [
    entry('buyer', messageOnly('Hi! Is the camera still available?', ['request_information']), 0),
    entry('seller', messageOnly('Yes, it is.'), 0.5),
    entry('buyer', offer(60), 1),
  ];
  for (let i = history.length; i < turns; i++) {
    const role = i % 2 === 0 ? 'buyer' : 'seller';
    const price = role === 'buyer' ? 60 + i * 0.05 : 119 - i * 0.05;
    const turn =
      i % 3 === 0
        ? offerWithMessage(price, `Turn ${i}: how about ${price.toFixed(2)}? That is my best.`, [
            'invoke_compromise',
          ])
        : offer(price);
    history.push(entry(role, turn, i));
  }
  return history;
}

describe('the token budget', () => {
  it('fits a 500-turn history into 4,096 tokens: the listing, the first offer and the latest turns', () => {
    const history = longHistory(500);
    const full = renderPrompt({ context: camera, history, role: 'seller' }, { tokenizer });
    expect(full.tokenCount).toBeGreaterThan(15_000);
    expect(full.dropped).toEqual([]);

    const prompt = renderPrompt(
      { context: camera, history, role: 'seller' },
      { tokenizer, maxPromptTokens: 4096 },
    );
    expect(prompt.maxPromptTokens).toBe(4096);
    expect(prompt.tokenCount).toBeLessThanOrEqual(4096);
    expect(prompt.tokenIds).toEqual(tokenizer.encode(prompt.text));

    // What was kept: turn 3 (the first offer) and an unbroken run of the latest turns, the last included.
    const kept = history.map((_, i) => i).filter((i) => !prompt.dropped.includes(i));
    const firstRecent = kept[1] ?? -1;
    expect(kept[0]).toBe(2);
    expect(kept.slice(1)).toEqual(history.map((_, i) => i).slice(firstRecent));
    expect(kept.at(-1)).toBe(499);
    expect(kept.length).toBeGreaterThan(50);
    // What was dropped: the opening messages and the middle, reported by position.
    expect(prompt.dropped).toEqual([0, 1, ...history.map((_, i) => i).slice(3, firstRecent)]);

    // The prompt says so, keeps the turns' numbers, and has the listing whole.
    const user = prompt.messages[1]?.content ?? '';
    expect(user).toContain('- title: "Nikon F3 35mm film camera body"');
    expect(user).toContain(
      "[turns 1 to 2 left out to fit the model's context]\n3. buyer at 1 hours: offer, 60.00 USD\n",
    );
    expect(user).toContain(
      `[turns 4 to ${firstRecent} left out to fit the model's context]\n${firstRecent + 1}. `,
    );
    expect(user).toContain('500. seller at 499 hours');
    expect(prompt.text.endsWith('<|im_start|>assistant\n')).toBe(true);

    // The window is the largest the policy allows: one more recent turn would break the budget.
    const bigger = historyWindow(history, kept.length);
    const biggerText = qwen3NoThinkTemplate.render({
      context: ListingContextSchema.parse(camera),
      history: bigger.map((i) => history[i] as HistoryEntry),
      historyIndices: bigger,
      historyLength: history.length,
      role: 'seller',
      profile: DEFAULT_MODEL_PROFILE,
    }).text;
    expect(tokenizer.encode(biggerText).length).toBeGreaterThan(4096);
  });

  it('keeps the whole history when it fits, and says nothing about dropping', () => {
    const history = longHistory(10);
    const prompt = renderPrompt(
      { context: camera, history, role: 'buyer' },
      { tokenizer, maxPromptTokens: 4096 },
    );
    expect(prompt.dropped).toEqual([]);
    expect(prompt.text).not.toContain('left out');
    expect(prompt.text).toBe(renderPrompt({ context: camera, history, role: 'buyer' }).text);
  });

  it('takes the budget from the context length less the answer, when none is given', () => {
    const small = { ...tokenizer, encode: tokenizer.encode.bind(tokenizer), contextLength: 2048 };
    const prompt = renderPrompt(
      { context: camera, history: longHistory(200), role: 'seller' },
      { tokenizer: small },
    );
    expect(prompt.maxPromptTokens).toBe(2048 - 512);
    expect(prompt.tokenCount).toBeLessThanOrEqual(1536);
    const reserved = renderPrompt(
      { context: camera, history: longHistory(200), role: 'seller' },
      { tokenizer: small, reserveTokens: 48 },
    );
    expect(reserved.maxPromptTokens).toBe(2000);
  });

  it('throws PromptTooLongError when the listing, the first offer and the latest turn do not fit', () => {
    const context = {
      ...camera,
      item: { ...camera.item, description: 'A very long description. '.repeat(400) },
    };
    const attempt = () =>
      renderPrompt(
        { context, history: longHistory(20), role: 'seller' },
        { tokenizer, maxPromptTokens: 1000 },
      );
    expect(attempt).toThrow(PromptTooLongError);
    expect(attempt).toThrow(/budget is 1000.*Shorten the listing description/);
  });

  it('needs a tokenizer to count with', () => {
    expect(() => renderPrompt({ context: camera, role: 'buyer' }, { maxPromptTokens: 100 })).toThrow(
      /a token budget needs a tokenizer/,
    );
  });

  it('historyWindow keeps the first offer once, and opening messages only among the latest', () => {
    const history = longHistory(10);
    expect(historyWindow(history, 3)).toEqual([2, 7, 8, 9]);
    expect(historyWindow(history, 8)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    expect(historyWindow(history, 9)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(
      historyWindow([entry('buyer', messageOnly('hi'), 0), entry('seller', messageOnly('yo'), 1)], 1),
    ).toEqual([1]);
  });
});
