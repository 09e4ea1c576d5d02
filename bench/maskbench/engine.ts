import type { DecoderVocabulary } from '../../src/decoding/vocabulary/vocabulary.js';

export type EngineName = 'haggle' | 'xgrammar';
export const ENGINE_NAMES: readonly EngineName[] = ['haggle', 'xgrammar'];

/** A bitset over the vocabulary, bit set = token allowed (both engines' layout). */
export type TokenBitmask = Uint32Array | Int32Array;

/** One sequence being walked through a compiled schema. */
export interface EngineMatcher {
  /** The allowed next tokens. XGrammar's WebAssembly API hands it back through a promise. */
  mask(): TokenBitmask | Promise<TokenBitmask>;
  /** Reads a token; false when the engine refuses it. */
  accept(tokenId: number): boolean;
  /** Whether the document may end here (the engine takes an end-of-sequence token). */
  finish(): boolean;
  dispose(): void;
}

/** A constrained decoder under test, driven the same way for every engine. */
export interface Engine {
  readonly name: EngineName;
  /** The end-of-sequence token whose bit the last mask must hold exactly when the document is complete. */
  readonly eosTokenId: number;
  /** Throws `SchemaRefused` for a schema the engine declines (a compile error, not a crash). */
  compile(schema: unknown): unknown | Promise<unknown>;
  matcher(compiled: unknown): EngineMatcher | Promise<EngineMatcher>;
  release(compiled: unknown): void;
  /** The engine's own account of the bytes a compiled grammar holds with its caches, if it keeps one. */
  cacheBytes?(compiled: unknown): number;
}

/** The engine declined the schema (unsupported or unsatisfiable): MaskBench's compile error. */
export class SchemaRefused extends Error {
  override readonly name = 'SchemaRefused';
}

/** What every engine is built from: the Qwen3 vocabulary and its tokenizer.json. */
export interface EngineSetup {
  vocabulary: DecoderVocabulary;
  /** The tokenizer's own spelling of each token (byte-level BPE), indexed by id. */
  encodedTokens: readonly string[];
}
