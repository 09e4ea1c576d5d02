import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A tiny SentencePiece-style model folder (the Llama 2 / Mistral layout: `▁` for spaces, `<0xNN>` byte
 * fallback tokens, `<s>`/`</s>` special tokens), written by hand: 256 byte tokens and a few pieces.
 */
export function makeSentencePieceFolder(): { folder: string; remove: () => void } {
  const folder = mkdtempSync(join(tmpdir(), 'haggle-sp-'));
  const vocab: Record<string, number> = { '<unk>': 0, '<s>': 1, '</s>': 2 };
  for (let byte = 0; byte < 256; byte++) {
    vocab[`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`] = 3 + byte;
  }
  for (const piece of ['▁', 'a', 'b', '▁a', '▁b', 'é']) vocab[piece] = Object.keys(vocab).length;
  const special = (id: number, content: string) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  const tokenizer = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [special(0, '<unk>'), special(1, '<s>'), special(2, '</s>')],
    normalizer: {
      type: 'Sequence',
      normalizers: [
        { type: 'Prepend', prepend: '▁' },
        { type: 'Replace', pattern: { String: ' ' }, content: '▁' },
      ],
    },
    pre_tokenizer: null,
    post_processor: null,
    decoder: {
      type: 'Sequence',
      decoders: [
        { type: 'Replace', pattern: { String: '▁' }, content: ' ' },
        { type: 'ByteFallback' },
        { type: 'Fuse' },
        { type: 'Strip', content: ' ', start: 1, stop: 0 },
      ],
    },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: '<unk>',
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: true,
      byte_fallback: true,
      vocab,
      merges: ['▁ a', '▁ b'],
    },
  };
  writeFileSync(join(folder, 'tokenizer.json'), JSON.stringify(tokenizer));
  writeFileSync(
    join(folder, 'tokenizer_config.json'),
    JSON.stringify({
      bos_token: '<s>',
      eos_token: { content: '</s>', special: true },
      model_max_length: 1e30,
      chat_template:
        "{{ bos_token }}{% for m in messages %}{% if m.role == 'user' %}[INST] {{ m.content }} [/INST]{% else %}{{ m.content }}{{ eos_token }}{% endif %}{% endfor %}",
    }),
  );
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}
