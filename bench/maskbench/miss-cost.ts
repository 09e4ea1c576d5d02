// What one cache miss costs at the outside-of-string positions MaskBench walks most (a key's start,
// after a key's colon, inside a number, after a value), on one small schema compiled as
// bench/maskbench.ts compiles: each position's mask computed afresh 300 times in a row (no cache), and
// the minimum, p10 and p50 printed. The minimum is what the code costs; the rest is the machine's load.
// The last two positions are keys of a 40-property object that allows any other key (issue 45's band).
// The mask computation is the private `TrieWalk.computeMask` of each grammar, without the caches (the
// bench looks inside on purpose: since the split of issue 43 it is the grammar's `walk`).
// Run it on two commits to compare a change without a full MaskBench run, then confirm on a sample
// with profile.ts: the same position computed again here flatters anything remembered per leaf or per
// state, where most MaskBench leaves are walked once (a key leaf is made per set of keys written).
//   npx tsx bench/maskbench/miss-cost.ts
import { compileSchema } from '../../src/decoding/compiler/grammar-compiler.js';
import type { Frame } from '../../src/decoding/grammar/stack-machine.js';
import { GrammarMatcher } from '../../src/decoding/matcher/grammar-matcher.js';
import { loadTokenizer } from '../../src/prompt/tokenizer.js';
import { LARGE_OBJECT_NAMES } from '../shared/large-object-names.js';
import { loadEngineSetup, QWEN3_FOLDER } from './engine-setup.js';
import { MASKBENCH_OPTIONS } from './haggle-engine.js';

const { vocabulary } = await loadEngineSetup();
const tokenizer = await loadTokenizer(QWEN3_FOLDER);
const schema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    size: { type: 'integer' },
    tags: { type: 'array', items: { type: 'string' } },
    owner: { type: 'object', properties: { id: { type: 'number' } } },
  },
};
const grammar = compileSchema(schema, vocabulary, MASKBENCH_OPTIONS);
const framesOf = (matcher: GrammarMatcher): readonly Frame[] =>
  (matcher as unknown as { current: { frames: Frame[] } }).current.frames;

/**
 * An object of 40 properties (`LARGE_OBJECT_NAMES`) that allows any other key, as MaskBench's large
 * objects under its options: inside its keys the tokens holding a quote are the p90 band's largest
 * kind (issue 45).
 */
const largeObject = compileSchema(
  {
    type: 'object',
    properties: Object.fromEntries(
      LARGE_OBJECT_NAMES.map((name, i) => [
        name,
        [{ type: 'string' }, { type: 'integer' }, { type: 'object' }][i % 3],
      ]),
    ),
  },
  vocabulary,
  MASKBENCH_OPTIONS,
);

for (const [label, compiled, text] of [
  ['key start', grammar, '{"'],
  ['after a colon', grammar, '{"name":'],
  ['inside a number', grammar, '{"size": 1'],
  ['after a value', grammar, '{"size": 12'],
  ['inside a string', grammar, '{"name": "ab'],
  ['large key start', largeObject, '{"name": "x", "'],
  ['large key inside', largeObject, '{"name": "x", "co'],
] as const) {
  const walk = (compiled as unknown as { walk: { computeMask(frames: readonly Frame[]): Uint32Array } }).walk;
  const matcher = new GrammarMatcher(compiled);
  for (const id of tokenizer.encode(text)) if (!matcher.accept(id)) throw new Error(`refused: ${text}`);
  const frames = framesOf(matcher);
  const times: number[] = [];
  for (let i = 0; i < 300; i++) {
    const t = performance.now();
    walk.computeMask(frames);
    times.push((performance.now() - t) * 1000);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => (times[Math.floor(q * times.length)] as number).toFixed(0);
  console.log(
    `${label.padEnd(16)} ${JSON.stringify(text).padEnd(20)} min ${at(0)} µs, p10 ${at(0.1)} µs, p50 ${at(0.5)} µs`,
  );
}
