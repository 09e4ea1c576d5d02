import { join } from 'node:path';
import { Tokenizer as HuggingFaceTokenizer } from '@huggingface/tokenizers';
import { InvalidInputError } from '../contract/errors.js';
import { ModelFolderError } from './errors.js';
import {
  contextLengthOf,
  type JsonObject,
  readChatTemplate,
  readModelJson,
  tokenText,
} from './model-folder.js';
import { buildVocabulary, type TokenByteScheme } from './token-bytes.js';

/** A token added on top of the model's vocabulary (control tokens, chat tags). */
export interface AddedToken {
  id: number;
  content: string;
  /** Hugging Face's `special` flag (`<|im_end|>` is special; Qwen3's `<think>` is not). */
  special: boolean;
}

/**
 * The minimum `renderPrompt` needs to count tokens and check a prompt's safety: `loadTokenizer` returns
 * more, and any tokenizer of your own with these members will do.
 */
export interface PromptTokenizer {
  /** Token ids of `text`, as the model reads them. */
  encode(text: string): number[];
  /** Ids no untrusted text may ever encode to. */
  readonly specialTokenIds: ReadonlySet<number>;
  /** Token strings to neutralise in untrusted text, beyond the Qwen shapes `sanitizeUntrustedText` knows. */
  readonly addedTokens?: readonly AddedToken[];
  /** The model's context length, used as the budget when `renderPrompt` is given none. */
  readonly contextLength?: number | undefined;
}

/** A model's tokenizer, loaded offline from its folder. */
export interface Tokenizer extends PromptTokenizer {
  /** The folder it was loaded from. */
  readonly folder: string;
  /**
   * Token ids of `text`, exactly as the model reads them. No BOS/EOS is added: a rendered prompt already
   * holds every control token its chat template writes, and control tokens written in `text` (such as
   * `<|im_start|>`) become their ids. That is why untrusted text goes through `sanitizeUntrustedText`.
   */
  encode(text: string): number[];
  /** The text of `ids`; control tokens are written out unless `skipSpecialTokens`. */
  decode(ids: readonly number[], options?: { skipSpecialTokens?: boolean }): string;
  /**
   * The id of every added token, special or not (for Qwen3 all 26 from 151643 to 151668: `<|endoftext|>`,
   * `<|im_start|>`, `<|im_end|>`, `<think>`, `</think>`, the tool and vision tags, ...). Each is matched in
   * raw text before anything else, so none of them can come from ordinary text.
   */
  readonly specialTokenIds: ReadonlySet<number>;
  readonly addedTokens: readonly AddedToken[];
  /**
   * The bytes each token id decodes to, indexed by id, `vocabularySize` entries (151,669 for Qwen3):
   * - ordinary tokens: their raw bytes, which need not be valid UTF-8 on their own (a byte-level token may
   *   hold half of a character; a byte-fallback token `<0x0A>` is the one byte 0x0A; SentencePiece's `▁` is
   *   a space, 0x20, including a leading one that a SentencePiece decoder would strip at the start of text);
   * - added tokens, special or not (`<|im_end|>`, `<think>`): the UTF-8 of their content, so
   *   `<|im_end|>` is the ten bytes `<|im_end|>`. A decoder must never let these satisfy a grammar as
   *   text: mask every id in `specialTokenIds`, then allow the end-of-turn ids (`eosTokenIds`) on their own.
   * - an id that no token has (a gap in the numbering): an empty array. Never allow one.
   * Ids from `vocabularySize` up to the model's embedding size (151,936 rows for Qwen3) have no token
   * at all: treat them as the empty case.
   * Computed on first use (about 100 ms for Qwen3) and shared: do not modify the arrays.
   */
  readonly vocabulary: readonly Uint8Array[];
  /** One more than the highest token id. */
  readonly vocabularySize: number;
  /** The id of a token string (an added token's content or a vocabulary entry), if there is one. */
  tokenId(token: string): number | undefined;
  readonly bosToken: string | undefined;
  readonly eosToken: string | undefined;
  /**
   * Ids that end a turn: `eos_token` of `tokenizer_config.json` and `eos_token_id` of
   * `generation_config.json` (Qwen3: `<|im_end|>` and `<|endoftext|>`).
   */
  readonly eosTokenIds: readonly number[];
  /** The Jinja chat template of the folder, if it has one. */
  readonly chatTemplate: string | undefined;
  /** `max_position_embeddings` of `config.json` (else `model_max_length`), if known. */
  readonly contextLength: number | undefined;
}

/**
 * Loads the tokenizer of a model folder (`tokenizer.json` and `tokenizer_config.json`, as
 * `save_pretrained` writes them; `config.json` and `generation_config.json` are read when present) with
 * `@huggingface/tokenizers`, a pure-JavaScript implementation. Offline: a folder path, never a hub id.
 */
export async function loadTokenizer(folder: string): Promise<Tokenizer> {
  if (typeof folder !== 'string' || folder === '') {
    throw new InvalidInputError({
      subject: 'loadTokenizer',
      issues: [{ path: 'folder', message: 'pass the path of a model folder that holds tokenizer.json' }],
    });
  }
  const [tokenizerJson, tokenizerConfig, config, generationConfig] = await Promise.all([
    readModelJson(folder, 'tokenizer.json', true),
    readModelJson(folder, 'tokenizer_config.json', true),
    readModelJson(folder, 'config.json', false),
    readModelJson(folder, 'generation_config.json', false),
  ]);
  const chatTemplate = await readChatTemplate(folder, tokenizerConfig);
  let inner: HuggingFaceTokenizer;
  try {
    inner = new HuggingFaceTokenizer(tokenizerJson, tokenizerConfig);
  } catch (error) {
    const path = join(folder, 'tokenizer.json');
    throw new ModelFolderError({
      path,
      problem: `could not be loaded by @huggingface/tokenizers: ${(error as Error).message}`,
      cause: error,
    });
  }
  return new FolderTokenizer({
    folder,
    inner,
    tokenizerJson,
    tokenizerConfig,
    config,
    generationConfig,
    chatTemplate,
  });
}

interface FolderTokenizerParts {
  folder: string;
  inner: HuggingFaceTokenizer;
  tokenizerJson: JsonObject;
  tokenizerConfig: JsonObject;
  config: JsonObject | undefined;
  generationConfig: JsonObject | undefined;
  chatTemplate: string | undefined;
}

class FolderTokenizer implements Tokenizer {
  readonly folder: string;
  readonly specialTokenIds: ReadonlySet<number>;
  readonly addedTokens: readonly AddedToken[];
  readonly vocabularySize: number;
  readonly bosToken: string | undefined;
  readonly eosToken: string | undefined;
  readonly eosTokenIds: readonly number[];
  readonly chatTemplate: string | undefined;
  readonly contextLength: number | undefined;
  private readonly inner: HuggingFaceTokenizer;
  private readonly tokenizerJson: JsonObject;
  private cachedVocabulary: readonly Uint8Array[] | undefined;

  constructor(parts: FolderTokenizerParts) {
    this.folder = parts.folder;
    this.inner = parts.inner;
    this.tokenizerJson = parts.tokenizerJson;
    this.addedTokens = Object.freeze(
      [...parts.inner.get_added_tokens_decoder().values()]
        .map((t) => Object.freeze({ id: t.id, content: t.content, special: t.special }))
        .sort((a, b) => a.id - b.id),
    );
    this.specialTokenIds = new Set(this.addedTokens.map((t) => t.id));
    let highest = -1;
    for (const id of parts.inner.get_vocab(true).values()) highest = Math.max(highest, id);
    this.vocabularySize = highest + 1;
    this.bosToken = tokenText(parts.tokenizerConfig.bos_token);
    this.eosToken = tokenText(parts.tokenizerConfig.eos_token);
    this.eosTokenIds = Object.freeze(this.endOfTurnIds(parts.generationConfig));
    this.chatTemplate = parts.chatTemplate;
    this.contextLength = contextLengthOf(parts.config, parts.tokenizerConfig);
  }

  encode(text: string): number[] {
    if (typeof text !== 'string') {
      throw new InvalidInputError({
        subject: 'Tokenizer.encode',
        issues: [{ path: 'text', message: 'must be a string' }],
      });
    }
    return this.inner.encode(text, { add_special_tokens: false }).ids;
  }

  decode(ids: readonly number[], options?: { skipSpecialTokens?: boolean }): string {
    const bad = ids.findIndex((id) => !Number.isInteger(id) || id < 0 || id >= this.vocabularySize);
    if (bad !== -1) {
      throw new InvalidInputError({
        subject: 'Tokenizer.decode',
        issues: [
          { path: `ids[${bad}]`, message: `${ids[bad]} is not a token id (0 to ${this.vocabularySize - 1})` },
        ],
      });
    }
    return this.inner.decode([...ids], { skip_special_tokens: options?.skipSpecialTokens ?? false });
  }

  tokenId(token: string): number | undefined {
    return this.inner.token_to_id(token);
  }

  get vocabulary(): readonly Uint8Array[] {
    if (this.cachedVocabulary === undefined) {
      const model = (this.tokenizerJson.model ?? {}) as JsonObject;
      this.cachedVocabulary = Object.freeze(
        buildVocabulary({
          size: this.vocabularySize,
          scheme: this.byteScheme(),
          tokenString: (id) => this.inner.id_to_token(id),
          addedTokens: new Map(this.addedTokens.map((t) => [t.id, t.content])),
          byteFallback: model.byte_fallback === true,
        }),
      );
    }
    return this.cachedVocabulary;
  }

  private byteScheme(): TokenByteScheme {
    const types = decoderTypes(this.tokenizerJson.decoder);
    if (types.includes('ByteLevel')) return 'byte-level';
    if (types.some((t) => t === 'Metaspace' || t === 'ByteFallback' || t === 'Replace'))
      return 'sentencepiece';
    const path = join(this.folder, 'tokenizer.json');
    throw new ModelFolderError({
      path,
      problem: `has no decoder the byte vocabulary can read: it needs a ByteLevel decoder (GPT-2, Qwen, Llama 3) or a SentencePiece one (Metaspace, Replace, ByteFallback); this tokenizer's decoder is ${types.join(' + ') || 'missing'}`,
    });
  }

  private endOfTurnIds(generationConfig: JsonObject | undefined): number[] {
    const ids = new Set<number>();
    if (this.eosToken !== undefined) {
      const id = this.inner.token_to_id(this.eosToken);
      if (id !== undefined) ids.add(id);
    }
    const fromGeneration = generationConfig?.eos_token_id;
    for (const id of Array.isArray(fromGeneration) ? fromGeneration : [fromGeneration]) {
      if (typeof id === 'number' && Number.isInteger(id)) ids.add(id);
    }
    return [...ids];
  }
}

function decoderTypes(decoder: unknown): string[] {
  if (typeof decoder !== 'object' || decoder === null) return [];
  const { type, decoders } = decoder as { type?: unknown; decoders?: unknown };
  if (type === 'Sequence' && Array.isArray(decoders)) return decoders.flatMap(decoderTypes);
  return typeof type === 'string' ? [type] : [];
}
