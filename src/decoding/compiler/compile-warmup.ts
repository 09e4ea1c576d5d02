import { dedupe, type Frame, stepAll } from '../grammar/stack-machine.js';
import { workNow, workPast } from '../grammar/work-clock.js';
import { CompiledGrammar, type GrammarVocabulary } from '../mask/compiled-grammar.js';
import { InsideCache } from '../mask/inside-cache.js';
import { PRECOMPUTE_MS, PRECOMPUTE_POSITIONS } from '../mask/mask-precompute.js';
import { isAllowed, maskWords } from '../vocabulary/vocabulary.js';
import { PatternCache } from './pattern-cache.js';
import { SchemaCompiler } from './schema-compiler.js';

/**
 * Throwaway compiles and decodes, once per vocabulary when its compiler is made, so that the first
 * schema a process compiles, and the first masks it decodes, run code the JIT has already compiled
 * (haggle's choice, like `warmVocabulary`'s throwaway passes). Measured before it (issue 45,
 * `bench/decoder.ts`): an offer schema's first compile in a process took 15-30 ms where the same
 * compile took 3-6 ms once the code was hot, and a turn's first masks inside a label or at a message's
 * closing quote 1-2 ms where they later took 0.1-0.2 ms; the cost was the JIT's, not the work's.
 *
 * The schema is made up for the purpose: every kind of node a schema compiles to (objects with
 * declared and undeclared keys, bounded numbers and integers, an enum, unique lists of enums and of
 * pattern strings, a free string, a boolean, a nested list of objects, alternatives), with names,
 * values and a pattern of its own, so that nothing warmed here is data a user's schema then reads for
 * free: its grammars, inside masks and automata go to caches of their own, dropped afterwards. What
 * it keeps is per vocabulary anyway: the lists of the quote tokens' texts (`QuotePrefixes`), which a
 * first string or open object would otherwise build mid-decode.
 */
export function warmCompiler(parts: GrammarVocabulary): void {
  const deadline = workNow() + WARMUP_BUDGET_MS;
  const words = maskWords(parts.vocabulary.tokens.length);
  const out = new Uint32Array(words);
  for (let round = 0; round < WARMUP_ROUNDS && !workPast(deadline); round++) {
    // Caches of its own (see above), fresh each round: a pattern's walks over the vocabulary (at a
    // first visit of each of its states) then run every round, as each new schema's do, and not once.
    // The vocabulary's table of plain string lengths is shared: without it a free string's first
    // mask is a pass over the whole vocabulary.
    const inside = new InsideCache(parts.trie, words, 64, 256, parts.vocabulary.tokens);
    inside.plainLengths = parts.inside.plainLengths;
    const own: GrammarVocabulary = {
      vocabulary: parts.vocabulary,
      trie: parts.trie,
      quotes: parts.quotes,
      quoteSuffixes: parts.quoteSuffixes,
      inside,
      whitespaceRests: () => parts.whitespaceRests(),
    };
    const compiled = new SchemaCompiler(WARMUP_SCHEMA, {}, new PatternCache(16)).compileDocument();
    const grammar = new CompiledGrammar(compiled.root, compiled.shortest, own, 1024);
    grammar.warm(compiled.nodes);
    grammar.precompute(PRECOMPUTE_POSITIONS, PRECOMPUTE_MS);
    for (const document of WARMUP_DOCUMENTS) {
      if (workPast(deadline)) return;
      decodeDocument(grammar, document, out);
    }
  }
}

/**
 * Walks `document` through `grammar` as a decoder would: the mask at each position, then the longest
 * token it allows that spells the document's next bytes (a byte-level vocabulary has one for every
 * byte, so the walk always moves on).
 */
function decodeDocument(grammar: CompiledGrammar, document: string, out: Uint32Array): void {
  const bytes = new TextEncoder().encode(document);
  const trie = grammar.trie;
  let frames: Frame[] = grammar.startFrames();
  let at = 0;
  while (at < bytes.length) {
    const mask = grammar.fillMaskFor(frames, out);
    let node = 0;
    let length = 0;
    for (let k = at; k < bytes.length; k++) {
      node = trie.child(node, bytes[k] as number);
      if (node < 0) break;
      const id = trie.token[node] as number;
      if (id >= 0 && isAllowed(mask, id)) length = k + 1 - at;
    }
    if (length === 0) return; // not a document of the grammar (a test holds them to it)
    for (let k = at; k < at + length; k++) frames = dedupe(stepAll(frames, bytes[k] as number));
    at += length;
  }
  grammar.fillMaskFor(frames, out);
}

/**
 * Most milliseconds the warm-up may take, on the work clock (haggle's choice: a bound for slow machines;
 * for Qwen3 it takes 180-250 ms).
 */
const WARMUP_BUDGET_MS = 400;
/** Compiles and decodes of the warm-up schema: the JIT compiled the paths an offer schema takes after about six. */
const WARMUP_ROUNDS = 8;

/** @internal The made-up schema (exported for the test that its documents are valid). */
export const WARMUP_SCHEMA = {
  anyOf: [
    {
      type: 'object',
      properties: {
        kind: { const: 'order' },
        total: { type: 'number', minimum: 5, maximum: 90000 },
        units: { type: 'integer', minimum: 1, maximum: 250 },
        tier: { enum: ['bronze', 'silver', 'gold'] },
        colours: {
          type: 'array',
          items: { enum: ['red', 'green', 'blue', 'black'] },
          uniqueItems: true,
          maxItems: 3,
        },
        topics: {
          type: 'array',
          items: { type: 'string', pattern: '^[a-z]+(-[a-z0-9]+)*$', maxLength: 32 },
          uniqueItems: true,
          maxItems: 4,
        },
        gift: { type: 'boolean' },
        lines: {
          type: 'array',
          maxItems: 3,
          items: {
            type: 'object',
            properties: {
              sku: { type: 'string', maxLength: 16 },
              share: { type: 'number', minimum: 0, maximum: 1 },
            },
            required: ['sku', 'share'],
            additionalProperties: false,
          },
        },
        note: { type: 'string', minLength: 1, maxLength: 300 },
        extra: { type: 'object', additionalProperties: { type: 'integer' } },
      },
      required: ['kind', 'total', 'units', 'tier', 'colours', 'topics', 'gift', 'lines', 'note', 'extra'],
      additionalProperties: false,
    },
    {
      type: 'object',
      properties: {
        kind: { const: 'cancel' },
        total: { type: 'null' },
        note: { type: 'string', maxLength: 300 },
      },
      required: ['kind', 'total', 'note'],
      additionalProperties: false,
    },
  ],
};

/** @internal Documents of `WARMUP_SCHEMA`, decoded after each compile. */
export const WARMUP_DOCUMENTS = [
  '{"kind":"order","total":1234.56,"units":12,"tier":"silver","colours":["blue","red"],"topics":["fast-delivery","gift-wrap2"],"gift":true,"lines":[{"sku":"A-100","share":0.25},{"sku":"B7","share":0.75}],"note":"Please leave it at the door, thanks!","extra":{"floor":3,"room":12}}',
  '{"kind":"cancel","total":null,"note":"Changed my mind, sorry."}',
  '{"kind":"order","total":80,"units":1,"tier":"gold","colours":[],"topics":[],"gift":false,"lines":[],"note":"ok","extra":{}}',
];
