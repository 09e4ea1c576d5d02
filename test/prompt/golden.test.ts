import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderPrompt } from '../../src/prompt/render-prompt.js';
import { GOLDEN_INPUTS } from './golden-inputs.js';

// Golden prompts: the exact qwen3_nothink strings, byte for byte. A change to the wording or the format
// changes what the fine-tune sees, so it must be a deliberate one: review the diff, then regenerate with
// UPDATE_GOLDEN=1 npx vitest run test/prompt/golden.test.ts
const golden = (name: string) => new URL(`./golden/${name}.txt`, import.meta.url);
const THINK_BLOCK = '<think>\n\n</think>\n\n';

describe.each(Object.entries(GOLDEN_INPUTS))('golden prompt %s', (name, input) => {
  it('renders qwen3_nothink byte for byte', () => {
    const { text } = renderPrompt(input, { template: 'qwen3_nothink' });
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(golden(name), text);
    expect(text).toBe(readFileSync(golden(name), 'utf8'));
  });

  it("differs through Qwen's own template (thinking off) by exactly the empty think block", () => {
    const nothink = renderPrompt(input, { template: 'qwen3_nothink' });
    const qwen3 = renderPrompt(input, { template: 'qwen3' });
    expect(qwen3.messages).toEqual(nothink.messages);
    expect(qwen3.text).toBe(`${nothink.text}${THINK_BLOCK}`);
    expect(nothink.text.endsWith('<|im_start|>assistant\n')).toBe(true);
    expect(nothink.text).not.toContain('<think>');
  });

  it('is the default for the profile, and chatml gives the same bytes', () => {
    const nothink = renderPrompt(input, { template: 'qwen3_nothink' });
    expect(renderPrompt(input).text).toBe(nothink.text);
    expect(renderPrompt(input, { template: 'chatml' }).text).toBe(nothink.text);
  });
});
