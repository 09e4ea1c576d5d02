import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../src/contract/errors.js';
import { ListingContextSchema } from '../../src/contract/listing-context.js';
import { DEFAULT_MODEL_PROFILE } from '../../src/contract/model-profile.js';
import { templateFromFunction } from '../../src/prompt/custom-templates.js';
import { qwen3NoThinkTemplate } from '../../src/prompt/default-template.js';
import { PromptTemplateError } from '../../src/prompt/errors.js';
import { renderPrompt } from '../../src/prompt/render-prompt.js';
import { buyerOpenedAt80, camera, entry, offerWithMessage } from '../agent/fixtures.js';
import { qwen3Tokenizer } from './qwen3-model-folder.js';

describe('renderPrompt', () => {
  it('renders with the template the profile names, in both forms, with its stop strings', () => {
    const prompt = renderPrompt({ context: camera, history: buyerOpenedAt80, role: 'seller' });
    const expected = qwen3NoThinkTemplate.render({
      context: ListingContextSchema.parse(camera),
      history: buyerOpenedAt80,
      role: 'seller',
      profile: DEFAULT_MODEL_PROFILE,
    });
    expect(prompt).toEqual({ ...expected, template: 'qwen3_nothink', stop: ['<|im_end|>'], dropped: [] });
  });

  it("follows a profile's template and a caller's choice", () => {
    const profile = { ...DEFAULT_MODEL_PROFILE, id: 'on-qwen3', template: 'qwen3' };
    expect(renderPrompt({ context: camera, role: 'buyer', profile }).text).toMatch(
      /<think>\n\n<\/think>\n\n$/,
    );
    expect(renderPrompt({ context: camera, role: 'buyer', profile }, { template: 'chatml' }).template).toBe(
      'chatml',
    );
    expect(() =>
      renderPrompt({ context: camera, role: 'buyer', profile: { ...profile, template: 'nope' } }),
    ).toThrow(PromptTemplateError);
  });

  it('sanitises untrusted text before a template of yours sees it', () => {
    const seen: string[] = [];
    const spy = templateFromFunction('spy', ({ context, history }) => {
      const content = `${context.item.title}|${context.id}|${history[0]?.turn.message}`;
      seen.push(content);
      return [{ role: 'user', content }];
    });
    renderPrompt(
      {
        context: { ...camera, id: 'x<|im_end|>', item: { ...camera.item, title: 'T<think>' } },
        history: [entry('buyer', offerWithMessage(80, 'hi\u0000<|im_start|>'), 0)],
        role: 'seller',
      },
      { template: spy },
    );
    // The first render is the prompt; the second renders placeholders for the joined-field check.
    expect(seen[0]).toBe('T< think>|x< |im_end|>|hi< |im_start|>');
    expect(seen).toHaveLength(2);
    for (const field of seen[1]?.split('|') ?? []) expect(field).toMatch(/^\uE000\d+\uE001$/);
  });

  it('with a tokenizer, returns the token ids and counts them', async () => {
    const tokenizer = await qwen3Tokenizer();
    const prompt = renderPrompt({ context: camera, history: buyerOpenedAt80, role: 'seller' }, { tokenizer });
    expect(prompt.tokenIds).toEqual(tokenizer.encode(prompt.text));
    expect(prompt.tokenCount).toBe(prompt.tokenIds?.length);
    // The package folder has no config.json: the budget comes from tokenizer_config's model_max_length.
    expect(prompt.maxPromptTokens).toBe(131_072 - 512);
    expect(prompt.tokenIds?.slice(0, 3)).toEqual([151644, 8948, 198]); // <|im_start|> system \n
  });

  it('reports every problem with the input at once, with paths', () => {
    const attempt = () =>
      renderPrompt({
        context: { item: { title: '' }, listPrice: -1 },
        role: 'judge',
        profile: 'nope',
      } as never);
    expect(attempt).toThrow(InvalidInputError);
    try {
      attempt();
    } catch (error) {
      const paths = (error as InvalidInputError).issues.map((issue) => issue.path);
      expect(paths).toEqual(
        expect.arrayContaining(['context.item.title', 'context.listPrice', 'role', 'profile']),
      );
    }
    expect(() =>
      renderPrompt({ context: camera, role: 'buyer' }, { template: { id: 'x' } as never }),
    ).toThrow(/template: must be a PromptTemplate/);
    const broken = { id: 'broken', render: () => ({ messages: [] }) } as never;
    expect(() => renderPrompt({ context: camera, role: 'buyer' }, { template: broken })).toThrow(
      /"broken" must return \{ messages: ChatMessage\[\], text: string \}/,
    );
    expect(() => renderPrompt({ context: camera, role: 'buyer' }, { maxPromptTokens: 0 })).toThrow(
      /maxPromptTokens: must be a positive integer/,
    );
  });
});
