import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../src/contract/errors.js';
import { ModelFolderError } from '../../src/prompt/errors.js';
import { loadTokenizer, type Tokenizer } from '../../src/prompt/tokenizer.js';
import { makeQwen3ModelFolder } from './qwen3-model-folder.js';
import { makeSentencePieceFolder } from './sentencepiece-fixture.js';

const utf8 = new TextEncoder();

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

describe('loadTokenizer on a Qwen3 model folder', () => {
  let model: ReturnType<typeof makeQwen3ModelFolder>;
  let tokenizer: Tokenizer;

  beforeAll(async () => {
    model = makeQwen3ModelFolder();
    tokenizer = await loadTokenizer(model.folder);
  });
  afterAll(() => model.remove());

  it('encodes and decodes as Qwen3 does, control tokens included, without adding any', () => {
    expect(tokenizer.encode('Hello World')).toEqual([9707, 4337]);
    const chat = '<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n';
    const ids = tokenizer.encode(chat);
    expect(ids).toEqual([151644, 872, 198, 6023, 151645, 198, 151644, 77091, 198, 151667, 271, 151668, 271]);
    expect(tokenizer.decode(ids)).toBe(chat);
    expect(tokenizer.decode(ids, { skipSpecialTokens: true })).toBe(
      'user\nhi\nassistant\n<think>\n\n</think>\n\n',
    );
  });

  it('names every added token a special token id: 151643 to 151668', () => {
    expect(tokenizer.vocabularySize).toBe(151_669);
    expect([...tokenizer.specialTokenIds]).toEqual(Array.from({ length: 26 }, (_, i) => 151_643 + i));
    expect(tokenizer.addedTokens.find((t) => t.content === '<|im_end|>')).toEqual({
      id: 151645,
      content: '<|im_end|>',
      special: true,
    });
    expect(tokenizer.addedTokens.find((t) => t.content === '<think>')).toEqual({
      id: 151667,
      content: '<think>',
      special: false,
    });
    expect(tokenizer.tokenId('<|im_start|>')).toBe(151644);
  });

  it('reads the end of turn, the context length and the chat template from the folder', () => {
    expect(tokenizer.eosToken).toBe('<|im_end|>');
    expect(tokenizer.bosToken).toBeUndefined();
    expect(tokenizer.eosTokenIds).toEqual([151645, 151643]);
    expect(tokenizer.contextLength).toBe(40960);
    expect(tokenizer.chatTemplate).toContain('enable_thinking');
    expect(tokenizer.folder).toBe(model.folder);
  });

  it('has the decoded bytes of every token in its vocabulary', () => {
    const { vocabulary } = tokenizer;
    expect(vocabulary).toHaveLength(151_669);
    expect(tokenizer.vocabulary).toBe(vocabulary); // computed once
    expect(vocabulary[9707]).toEqual(utf8.encode('Hello'));
    expect(vocabulary[4337]).toEqual(utf8.encode(' World')); // 'ĠWorld' in tokenizer.json
    expect(vocabulary[198]).toEqual(Uint8Array.of(0x0a)); // 'Ċ'
    expect(vocabulary[151645]).toEqual(utf8.encode('<|im_end|>'));
    expect(vocabulary[151667]).toEqual(utf8.encode('<think>'));
    // A byte-level token may be part of a character: 'é' is two bytes, 0xC3 0xA9.
    const [first] = tokenizer.encode('é');
    expect(vocabulary[first ?? -1]).toEqual(Uint8Array.of(0xc3, 0xa9));
    expect(vocabulary.every((bytes) => bytes.length > 0)).toBe(true);
  });

  it('vocabulary bytes of the ids of any text are the UTF-8 of that text (NFC, as Qwen3 normalises)', () => {
    const { vocabulary } = tokenizer;
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (text) => {
        const bytes = concat(tokenizer.encode(text).map((id) => vocabulary[id] ?? new Uint8Array()));
        return Buffer.from(bytes).equals(Buffer.from(utf8.encode(text.normalize('NFC'))));
      }),
      { numRuns: 500, seed: 3 },
    );
  });

  it('refuses ids that are not tokens', () => {
    expect(() => tokenizer.decode([1, 151_669])).toThrow(InvalidInputError);
    expect(() => tokenizer.decode([1.5])).toThrow(/ids\[0\]/);
  });
});

describe('loadTokenizer on a SentencePiece-style folder', () => {
  let model: ReturnType<typeof makeSentencePieceFolder>;
  let tokenizer: Tokenizer;

  beforeAll(async () => {
    model = makeSentencePieceFolder();
    tokenizer = await loadTokenizer(model.folder);
  });
  afterAll(() => model.remove());

  it('maps ▁ to a space and <0xNN> to its byte; special tokens to their text', () => {
    const { vocabulary } = tokenizer;
    expect(vocabulary[3 + 0x0a]).toEqual(Uint8Array.of(0x0a)); // <0x0A>
    expect(vocabulary[3 + 0xc3]).toEqual(Uint8Array.of(0xc3)); // <0xC3>, half of a character
    expect(vocabulary[tokenizer.tokenId('▁a') ?? -1]).toEqual(utf8.encode(' a'));
    expect(vocabulary[1]).toEqual(utf8.encode('<s>'));
    const ids = tokenizer.encode('ab\n');
    expect(tokenizer.decode(ids)).toBe('ab\n');
    expect(concat(ids.map((id) => vocabulary[id] ?? new Uint8Array()))).toEqual(utf8.encode(' ab\n'));
  });

  it('takes special tokens written as objects, and ignores the 1e30 model_max_length sentinel', () => {
    expect(tokenizer.eosToken).toBe('</s>');
    expect(tokenizer.eosTokenIds).toEqual([2]);
    expect([...tokenizer.specialTokenIds]).toEqual([0, 1, 2]);
    expect(tokenizer.contextLength).toBeUndefined();
  });
});

describe('loadTokenizer errors', () => {
  it('says which file is missing and what a model folder needs', async () => {
    const model = makeSentencePieceFolder();
    try {
      writeFileSync(join(model.folder, 'config.json'), '{ not json');
      await expect(loadTokenizer(model.folder)).rejects.toThrow(/config\.json is not valid JSON/);
      await expect(loadTokenizer(join(model.folder, 'nope'))).rejects.toThrow(ModelFolderError);
      await expect(loadTokenizer(join(model.folder, 'nope'))).rejects.toThrow(
        /tokenizer\.json not found: a model folder needs tokenizer\.json and tokenizer_config\.json/,
      );
      await expect(loadTokenizer('')).rejects.toThrow(InvalidInputError);
    } finally {
      model.remove();
    }
  });

  it('says when a vocabulary cannot be turned into bytes (a WordPiece decoder)', async () => {
    const model = makeSentencePieceFolder();
    try {
      const path = join(model.folder, 'tokenizer.json');
      const json = JSON.parse(readFileSync(path, 'utf8'));
      writeFileSync(
        path,
        JSON.stringify({ ...json, decoder: { type: 'WordPiece', prefix: '##', cleanup: true } }),
      );
      const tokenizer = await loadTokenizer(model.folder);
      expect(tokenizer.encode('ab').length).toBeGreaterThan(0);
      expect(() => tokenizer.vocabulary).toThrow(ModelFolderError);
      expect(() => tokenizer.vocabulary).toThrow(
        /needs a ByteLevel decoder .* this tokenizer's decoder is WordPiece/,
      );
    } finally {
      model.remove();
    }
  });
});
