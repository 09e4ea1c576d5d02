import { InvalidInputError } from '../../contract/errors.js';
import { BoundedCache } from '../../internal/bounded-cache.js';
import { CompiledGrammar, type GrammarVocabulary } from '../mask/compiled-grammar.js';
import { InsideCache, KEY_SHAPE_LIMIT } from '../mask/inside-cache.js';
import { PRECOMPUTE_MS, PRECOMPUTE_POSITIONS } from '../mask/mask-precompute.js';
import { QuoteSuffixes } from '../vocabulary/quote-suffixes.js';
import { TokenTrie } from '../vocabulary/token-trie.js';
import { checkVocabulary, type DecoderVocabulary, maskWords } from '../vocabulary/vocabulary.js';
import { WhitespaceRests } from '../vocabulary/whitespace-rests.js';
import { giveUpNoDetachAssumption } from './buffer-detach.js';
import type { CompileOptions } from './compile-options.js';
import { warmCompiler } from './compile-warmup.js';
import { PatternCache } from './pattern-cache.js';
import { SchemaCompiler } from './schema-compiler.js';
import { warmVocabulary } from './vocabulary-warmup.js';

/** Options of a `GrammarCompiler`. */
export interface GrammarCompilerOptions {
  /**
   * Most compiled grammars `compile` keeps (default 16); the least recently used go first. haggle's
   * choice: an agent asks with a few schemas again and again, while `haggle serve` takes schemas from
   * clients, so the cache needs a bound more than a size; a grammar holds up to `maskCacheSize` masks.
   */
  grammarCacheSize?: number;
  /** Most inside-string masks kept for the vocabulary, of each kind (default 512). */
  insideCacheSize?: number;
  /**
   * Most pattern automata kept for reuse across grammars (default 1,024; see `PatternCache`): a client
   * of `haggle serve` can send a new `pattern` with every schema.
   */
  patternCacheSize?: number;
  /**
   * Most object-key shapes (sets of property names, key patterns and bounds) numbered for the
   * inside-string masks (default 4,096): a client can send a new set of names with every schema.
   */
  keyShapeCacheSize?: number;
  /**
   * Compile and decode a made-up schema a few times when the compiler is made (default true; about
   * 180-250 ms for Qwen3, see compile-warmup.ts), so that the first schema compiled and the first
   * masks decoded run code the JIT has compiled: an offer schema's first compile 15-30 ms without it,
   * 3-6 ms with it. Nothing of it stays in this compiler's caches.
   */
  warmUp?: boolean;
}

/** What a `GrammarCompiler` holds, for a log line or a memory bound. */
export interface GrammarCompilerMemory {
  /** Compiled grammars kept, and the most that are. */
  grammars: number;
  grammarLimit: number;
  /** Grammars dropped from the cache to make room, since the compiler was made. */
  grammarEvictions: number;
  /** Bytes of the kept grammars' own masks (cached and precomputed, with their keys). */
  grammarBytes: number;
  /** Bytes of the inside-string masks shared by every grammar over the vocabulary. */
  insideBytes: number;
  /** Pattern automata kept for reuse across grammars, and the most that are. */
  patterns: number;
  patternLimit: number;
  /** Object-key shapes numbered for the inside-string masks, and the most that are. */
  keyShapes: number;
  keyShapeLimit: number;
}

/**
 * Compiles JSON Schemas against one vocabulary, in the roles of XGrammar's GrammarCompiler: made once
 * per tokenizer, it owns everything that depends on the vocabulary alone (the token trie, the trie of
 * the tokens that can end a string, the inside-string masks shared by every grammar, their warm-up)
 * and a size-bounded cache of compiled grammars, and reports their memory. The grammars it returns are
 * immutable and shared: each sequence gets its own `new GrammarMatcher(grammar)`.
 */
export class GrammarCompiler implements GrammarVocabulary {
  /** The vocabulary's token trie, built once (about 0.2 s for Qwen3). */
  readonly trie: TokenTrie;
  /** @internal The tokens that hold a `"`: the only ones that can end a string. */
  readonly quotes: TokenTrie;
  /** @internal The tokens of `quotes` split at their first quote, for masks inside strings. */
  readonly quoteSuffixes: QuoteSuffixes;
  /** @internal The inside-string masks every grammar over the vocabulary shares. */
  readonly inside: InsideCache;
  /** @internal Automata by pattern, shared by the grammars compiled here. */
  readonly patterns: PatternCache;
  private readonly grammars: BoundedCache<string, CompiledGrammar>;
  private readonly rests: WhitespaceRests;

  /**
   * Builds the vocabulary's trie, warms its shared masks (about 50 ms more for Qwen3) and builds the
   * table of whitespace-led tokens (about 75-100 ms more).
   */
  constructor(
    readonly vocabulary: DecoderVocabulary,
    options: GrammarCompilerOptions = {},
  ) {
    const grammarCacheSize = options.grammarCacheSize ?? 16;
    const insideCacheSize = options.insideCacheSize ?? 512;
    const patternCacheSize = options.patternCacheSize ?? 1024;
    const keyShapeCacheSize = options.keyShapeCacheSize ?? KEY_SHAPE_LIMIT;
    for (const [name, value] of [
      ['grammarCacheSize', grammarCacheSize],
      ['insideCacheSize', insideCacheSize],
      ['patternCacheSize', patternCacheSize],
      ['keyShapeCacheSize', keyShapeCacheSize],
    ] as const) {
      if (!(Number.isInteger(value) && value >= 1))
        throw new InvalidInputError({
          subject: 'GrammarCompilerOptions',
          issues: [{ path: name, message: 'a positive integer' }],
        });
    }
    checkVocabulary(vocabulary);
    giveUpNoDetachAssumption();
    const words = maskWords(vocabulary.tokens.length);
    this.trie = new TokenTrie(vocabulary);
    this.quotes = new TokenTrie(vocabulary, (bytes) => bytes.includes(0x22));
    this.quoteSuffixes = new QuoteSuffixes(this.quotes, vocabulary.tokens);
    this.inside = new InsideCache(this.trie, words, insideCacheSize, keyShapeCacheSize, vocabulary.tokens);
    this.patterns = new PatternCache(patternCacheSize);
    this.grammars = new BoundedCache(grammarCacheSize, 'use');
    warmVocabulary(this.trie, vocabulary.tokens, this.inside);
    // Built here, with the vocabulary's other tables, so that no schema's compile (whose precompute
    // masks numbers followed by free whitespace) pays for it.
    this.rests = new WhitespaceRests(vocabulary, this.trie);
    if (options.warmUp !== false) warmCompiler(this);
  }

  /**
   * @internal The whitespace-led tokens by their rest, for masks of free whitespace (about 54,000 of
   * Qwen3's tokens): built with the compiler, shared by every grammar here.
   */
  whitespaceRests(): WhitespaceRests {
    return this.rests;
  }

  /**
   * The compiled grammar of `jsonSchema`, from the cache when the same schema (as JSON text) was
   * compiled with the same options; compiled and kept otherwise. `signal` and `timeBudgetMs` bound a
   * compile, not the cache's key. Throws as `compileSchema` does; a refused schema is not kept.
   */
  compile(jsonSchema: unknown, options: CompileOptions = {}): CompiledGrammar {
    const { signal: _signal, timeBudgetMs: _budget, ...keyed } = options;
    const key = `${JSON.stringify(keyed)}\n${JSON.stringify(jsonSchema)}`;
    return this.grammars.getOrCreate(key, () => this.build(jsonSchema, options));
  }

  /** Compiles `jsonSchema` without the cache: a grammar of its own, with its own mask counters. */
  build(jsonSchema: unknown, options: CompileOptions = {}): CompiledGrammar {
    if (
      options.maxFractionDigits !== undefined &&
      !(
        Number.isInteger(options.maxFractionDigits) &&
        options.maxFractionDigits >= 0 &&
        options.maxFractionDigits <= 15
      )
    ) {
      throw new InvalidInputError({
        subject: 'CompileOptions',
        issues: [{ path: 'maxFractionDigits', message: 'an integer from 0 to 15' }],
      });
    }
    if (
      options.maxDigits !== undefined &&
      !(Number.isInteger(options.maxDigits) && options.maxDigits >= 1 && options.maxDigits <= 17)
    ) {
      throw new InvalidInputError({
        subject: 'CompileOptions',
        issues: [{ path: 'maxDigits', message: 'an integer from 1 to 17' }],
      });
    }
    for (const [name, value] of [
      ['maxDepth', options.maxDepth],
      ['maxNodes', options.maxNodes],
      ['maxSize', options.maxSize],
      ['maxEnumValues', options.maxEnumValues],
      ['maxUniqueItems', options.maxUniqueItems],
    ] as const) {
      if (value !== undefined && !(Number.isInteger(value) && value >= 1)) {
        throw new InvalidInputError({
          subject: 'CompileOptions',
          issues: [{ path: name, message: 'a positive integer' }],
        });
      }
    }
    if (options.timeBudgetMs !== undefined && !(options.timeBudgetMs >= 0)) {
      throw new InvalidInputError({
        subject: 'CompileOptions',
        issues: [
          { path: 'timeBudgetMs', message: 'a number of milliseconds, 0 or more (Infinity: no limit)' },
        ],
      });
    }
    const compiled = new SchemaCompiler(jsonSchema, options, this.patterns).compileDocument();
    const grammar = new CompiledGrammar(
      compiled.root,
      compiled.shortest,
      this,
      options.maskCacheSize ?? 1024,
    );
    if (options.warm !== false) {
      grammar.warm(compiled.nodes);
      grammar.precompute(
        options.precompute?.positions ?? PRECOMPUTE_POSITIONS,
        options.precompute?.timeMs ?? PRECOMPUTE_MS,
      );
    }
    return grammar;
  }

  /** What the compiler holds now: grammars kept and dropped, and the bytes of their masks. */
  memory(): GrammarCompilerMemory {
    let grammarBytes = 0;
    for (const grammar of this.grammars.values()) grammarBytes += grammar.cacheBytes();
    return {
      grammars: this.grammars.size,
      grammarLimit: this.grammars.limit,
      grammarEvictions: this.grammars.evictions,
      grammarBytes,
      insideBytes: this.inside.bytes(),
      patterns: this.patterns.size,
      patternLimit: this.patterns.limit,
      keyShapes: this.inside.keys.shapeCount,
      keyShapeLimit: this.inside.keys.shapeLimit,
    };
  }
}

/**
 * The compiler `compileSchema` and `prepareVocabulary` use for a vocabulary object, made on first use.
 * The convenience functions' one piece of module state (haggle's choice: they predate the compiler and
 * stay for code that compiles a schema or two; keyed weakly, so it goes with the vocabulary); a server
 * makes its own `GrammarCompiler`.
 */
const compilers = new WeakMap<DecoderVocabulary, GrammarCompiler>();

function compilerFor(vocabulary: DecoderVocabulary): GrammarCompiler {
  let compiler = compilers.get(vocabulary);
  if (!compiler) {
    compiler = new GrammarCompiler(vocabulary);
    compilers.set(vocabulary, compiler);
  }
  return compiler;
}

/** Builds (or returns the already built) token index of a vocabulary, e.g. at start-up. */
export function prepareVocabulary(vocabulary: DecoderVocabulary): TokenTrie {
  return compilerFor(vocabulary).trie;
}

/**
 * Compiles a JSON Schema into a grammar over `vocabulary`'s tokens. Throws `UnsupportedSchemaError`
 * (naming the keyword and its path) for anything it cannot enforce exactly, and
 * `UnsatisfiableSchemaError` when nothing matches. The grammar is immutable and can be shared: each
 * sequence being decoded gets its own `GrammarMatcher`. A convenience over the vocabulary's
 * `GrammarCompiler` (`build`: each call compiles).
 */
export function compileSchema(
  jsonSchema: unknown,
  vocabulary: DecoderVocabulary,
  options: CompileOptions = {},
): CompiledGrammar {
  return compilerFor(vocabulary).build(jsonSchema, options);
}
