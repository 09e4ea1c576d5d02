// haggle's OnnxBackend against node-llama-cpp (llama.cpp) on the same weights, on the CPU (issue 44).
//   npx tsx bench/local-peers.ts --model DIR [--turns N] [--threads T] [--pairs fp32,q4] [--batches 1,8] [--profile]
// --threads: the same count for both engines (default: every core); on a machine shared with other work
// take 1 (docs/benchmarks.md: llama.cpp's threads collapse when a neighbour holds a core).
// DIR is a fixture preset folder (npm run fixture:model -- --preset qwen3-0.6b --out DIR --dtype fp32,q4).
// The bench writes GGUF files (F32, Q4_0; --also or --gguf-only F16,Q8_0 as well) from the very weights the
// preset's ONNX files were built from (the preset's seeded weights, fixture.json's seed) with the real
// Qwen3 tokenizer as metadata, into .cache/peers/, and installs node-llama-cpp there on first use
// (bench/peers/node-llama-cpp-peer.ts says why it is no devDependency).
// Then:
//  1. the same model: the next-token logits of every position of a 200-token prompt, haggle's fp32 ONNX
//     graph against llama.cpp's F32 GGUF: the top token must agree at every position and each
//     position's top 8 logits within 1e-2, or the bench stops with exit code 1 (the q4 / Q4_0 pair's
//     agreement is printed for information: the two 4-bit formats round differently);
//  2. per matching pair (fp32 vs F32, q4 vs Q4_0), per batch (1 and 8 sessions at once), alternately:
//     N turns (8 N at batch 8) of the turn contract (haggle's turn JSON Schema with the legal moves of
//     a Best Offer thread; node-llama-cpp's JSON-schema grammar from the same schema, less the keywords
//     it cannot express), ms per turn, tokens/s, CPU ms per token, valid turns, peak RSS;
//  3. the machine's memory bandwidth and the ceiling it puts on tokens/s: bandwidth / weight bytes
//     read per decode step (times the batch: one step reads the weights once for every sequence).
// Prints a table, then ONE JSON line (last).
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import * as ort from 'onnxruntime-node';
import type { TinyQwen3Config } from '../scripts/fixture-model/config.js';
import { isPreset, QWEN3_PRESETS } from '../scripts/fixture-model/presets.js';
import { seededWeights } from '../scripts/fixture-model/seeded-weights.js';
import { qwen3TokenizerFolder } from '../scripts/fixture-model/write-model-folder.js';
import type { JsonSchema } from '../src/contract/json-schema.js';
import { satisfies } from '../src/decoding/schema/value-check.js';
import { OnnxBackend } from '../src/onnx/index.js';
import { loadTokenizer } from '../src/prompt/tokenizer.js';
import type { GgmlTypeName } from './peers/ggml-blocks.js';
import { measureBandwidthGBs } from './peers/memory-bandwidth.js';
import { type LlamaModel, type LlamaModule, loadNodeLlamaCpp } from './peers/node-llama-cpp-peer.js';
import { ggufBytesPerToken, writeQwen3Gguf } from './peers/qwen3-gguf.js';
import { promptText, schema } from './peers/turn-contract.js';

const { values: args } = parseArgs({
  options: {
    model: { type: 'string' },
    turns: { type: 'string', default: '2' },
    threads: { type: 'string' },
    pairs: { type: 'string', default: 'fp32,q4' },
    batches: { type: 'string', default: '1,8' },
    // haggle's decode profile on stderr (OnnxLoadOptions.profile), and node-llama-cpp rows without a
    // grammar beside the rows with one: where each engine's time goes.
    profile: { type: 'boolean', default: false },
    // GGUF types with no haggle counterpart (F16, Q8_0): their logits against haggle's fp32, for information.
    also: { type: 'string' },
    // Only write the GGUF files of these types (F32,Q4_0,F16,Q8_0) and stop.
    'gguf-only': { type: 'string' },
  },
});
const fail = (message: string): never => {
  console.error(message);
  process.exit(2);
};
if (!args.model)
  fail(
    'usage: npx tsx bench/local-peers.ts --model DIR [--turns N] [--threads T] [--pairs fp32,q4] [--batches 1,8]',
  );
const folder = resolve(args.model as string);
const fixtureFile = join(folder, 'fixture.json');
if (!existsSync(fixtureFile))
  fail(
    `${folder} has no fixture.json: build it with npm run fixture:model -- --preset qwen3-0.6b --out DIR --dtype fp32,q4`,
  );
const fixture = JSON.parse(readFileSync(fixtureFile, 'utf8')) as {
  preset?: string;
  seed: number;
  dtypes?: string[];
};
if (!fixture.preset || fixture.preset === 'tiny' || !isPreset(fixture.preset))
  fail(
    `${folder} is not a preset folder (qwen3-0.6b or qwen3-4b): the GGUF is written from a preset's seeded weights`,
  );
const preset = fixture.preset as Exclude<keyof typeof QWEN3_PRESETS, 'tiny'>;
const config: TinyQwen3Config = QWEN3_PRESETS[preset];
const turns = Number(args.turns);
if (!(Number.isInteger(turns) && turns > 0)) fail(`--turns must be a positive integer, got ${args.turns}`);
// The same thread count for both engines (haggle's choice of default: every core the machine has).
const threads = args.threads === undefined ? cpus().length : Number(args.threads);
if (!(Number.isInteger(threads) && threads > 0))
  fail(`--threads must be a positive integer, got ${args.threads}`);
const batches = (args.batches ?? '1,8').split(',').map(Number);
if (batches.some((b) => !Number.isInteger(b) || b < 1))
  fail(`--batches must be positive integers, got ${args.batches}`);

/** haggle's dtype and the GGUF type of the same quantisation class. */
const PAIRS = { fp32: 'F32', q4: 'Q4_0' } as const satisfies Record<string, GgmlTypeName>;
type HaggleDtype = keyof typeof PAIRS;
const pairs = (args.pairs ?? 'fp32,q4').split(',').map((p) => p.trim()) as HaggleDtype[];
for (const p of pairs)
  if (!(p in PAIRS)) fail(`--pairs: ${p} is not one of ${Object.keys(PAIRS).join(', ')}`);
for (const p of pairs)
  if (!fixture.dtypes?.includes(p))
    fail(`${folder} has no ${p} export: rebuild it with --dtype ${pairs.join(',')}`);

const cacheFolder = join(process.cwd(), '.cache', 'peers');
const ggufPath = (type: GgmlTypeName) => join(cacheFolder, `${preset}-seed${fixture.seed}-${type}.gguf`);
/** Writes the GGUF of a type unless it is there (the weights are a pure function of preset and seed). */
function ensureGguf(type: GgmlTypeName): string {
  const path = ggufPath(type);
  if (!existsSync(path)) {
    mkdirSync(cacheFolder, { recursive: true });
    const started = Date.now();
    const bytes = writeQwen3Gguf(`${path}.tmp`, {
      config,
      weights: seededWeights(config, fixture.seed),
      type,
      tokenizerFolder: qwen3TokenizerFolder(),
      name: `haggle fixture ${preset} seed ${fixture.seed}`,
    });
    // Renamed only once whole, so an interrupted run never leaves a half file under the final name.
    renameSync(`${path}.tmp`, path);
    console.error(
      `  wrote ${path}: ${(bytes / 2 ** 30).toFixed(2)} GiB in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  return path;
}

/**
 * The schema as node-llama-cpp's JSON-schema grammar takes it: its `GbnfJsonSchema` has no numeric
 * bounds, `multipleOf`, `pattern` or `uniqueItems`, and refuses annotations it does not know; those are
 * removed (and listed in the output). Its turns are then checked against the full schema, as haggle's.
 */
function peerSchema(value: unknown, dropped: Set<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => peerSchema(item, dropped));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (
      [
        '$schema',
        'title',
        'description',
        'minimum',
        'maximum',
        'exclusiveMinimum',
        'exclusiveMaximum',
        'multipleOf',
        'pattern',
        'uniqueItems',
      ].includes(key)
    ) {
      dropped.add(key);
      continue;
    }
    out[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries(inner as object).map(([k, v]) => [k, peerSchema(v, dropped)]))
        : peerSchema(inner, dropped);
  }
  return out;
}
const droppedKeywords = new Set<string>();
const llamaSchema = peerSchema(schema, droppedKeywords);
/** A turn's text is valid when it parses and satisfies the full schema (legal moves, bounds and all). */
function validTurn(text: string): boolean {
  try {
    return satisfies(JSON.parse(text), schema, () => undefined);
  } catch {
    return false;
  }
}

const tokenizer = await loadTokenizer(folder);
// Both engines get the same token ids: llama.cpp's own tokenizer never runs on the prompt.
const promptIds = tokenizer.encode(promptText);
const maxTokens = 48;
const startLoad = loadavg()[0] as number;
const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

/** Peak RSS while `work` runs, sampled every 100 ms (haggle's worker thread is in this process). */
async function withPeakRss<T>(work: () => Promise<T>): Promise<{ result: T; peakRssMB: number }> {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 100);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { result, peakRssMB: peak / 2 ** 20 };
  } finally {
    clearInterval(timer);
  }
}

interface Row {
  engine: 'haggle' | 'node-llama-cpp';
  dtype: string;
  batch: number;
  turns: number;
  msPerTurn: number;
  tokensPerSecond: number;
  ceilingTokensPerSecond: number;
  /** tokensPerSecond / ceilingTokensPerSecond. */
  ofCeiling: number;
  cpuMsPerToken: number;
  tokensPerTurn: number;
  validTurns: number;
  /** The first turn that failed the full schema (160 characters), to show why. */
  firstInvalid?: string;
  peakRssMB: number;
  /** RSS the engine added when it loaded this model (its weights and buffers). */
  loadRssMB: number;
  threads: number;
}

/** `turns` turns with `batch` in flight at all times, a new one starting as one ends. */
async function runTurns(
  batch: number,
  count: number,
  turn: (client: number, seed: number) => Promise<{ text: string; tokens: number }>,
): Promise<{
  seconds: number;
  cpu: number;
  tokens: number;
  valid: number;
  peakRssMB: number;
  firstInvalid: string | undefined;
}> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  let tokens = 0;
  let valid = 0;
  let firstInvalid: string | undefined;
  let next = 0;
  const { peakRssMB } = await withPeakRss(() =>
    Promise.all(
      Array.from({ length: batch }, async (_, client) => {
        while (next < count) {
          const seed = next++;
          const result = await turn(client, seed);
          tokens += result.tokens;
          if (validTurn(result.text)) valid++;
          else firstInvalid ??= result.text.slice(0, 160);
        }
      }),
    ),
  );
  return {
    seconds: (performance.now() - started) / 1000,
    cpu: cpuMs(cpu),
    tokens,
    valid,
    peakRssMB,
    firstInvalid,
  };
}

/** Weight bytes one decode step reads whole, per haggle dtype (layers' matrices and the tied head). */
function haggleBytesPerToken(dtype: HaggleDtype): number {
  const c = config;
  const perLayer =
    c.hiddenSize * c.headDim * (2 * c.heads + 2 * c.kvHeads) + 3 * c.hiddenSize * c.intermediateSize;
  const weights = c.layers * perLayer + c.vocabSize * c.hiddenSize;
  // q4: 4 bits a weight and a float32 scale per block of 32 (MatMulNBits, the head quantised too);
  // the float32 embedding beside the 4-bit head is read one row a token, so not counted.
  return dtype === 'fp32' ? weights * 4 : weights * (0.5 + 4 / 32);
}

// ---- 0. the GGUF files, the peer and the machine's bandwidth ----------------------------------------
const ggufOnly = args['gguf-only'];
if (ggufOnly !== undefined) {
  for (const type of ggufOnly.split(',')) {
    if (!['F32', 'F16', 'Q4_0', 'Q8_0'].includes(type))
      fail(`--gguf-only: ${type} is not F32, F16, Q4_0 or Q8_0`);
    console.log(ensureGguf(type as GgmlTypeName));
  }
  process.exit(0);
}
// With one reader and with as many readers as the engines have threads (what their threads could
// read together).
const bandwidthOneReaderGBs = await measureBandwidthGBs(1);
// The larger of the two: on a shared machine a neighbour can hold one of the readers back, and a
// ceiling that is too low would flatter both engines.
const bandwidthGBs =
  threads === 1 ? bandwidthOneReaderGBs : Math.max(bandwidthOneReaderGBs, await measureBandwidthGBs(threads));
console.error(
  `memory bandwidth (memcmp over 2 x 256 MiB per reader): ${bandwidthGBs.toFixed(1)} GB/s with ${threads} readers, ${bandwidthOneReaderGBs.toFixed(1)} GB/s with one`,
);
const llamaCpp: LlamaModule = await loadNodeLlamaCpp(cacheFolder);
const llama = await llamaCpp.getLlama({ gpu: false, build: 'never', logLevel: 'error' });

// ---- 1. the same model: per-position logits, haggle's fp32 graph against llama.cpp's F32 ------------
const checkText =
  '<|im_start|>user\nListing: Nikon F3 camera body, list price 120.00 USD, used, shutter and meter work, ' +
  'light marks on the top plate, the film door seal was replaced last year, comes with the original ' +
  'cap and strap, no lens. Ships in two days from Lyon, tracked, insured, well packed in a double box. ' +
  'Seller feedback 1200 at 99.5 percent; buyer feedback 40. History: the buyer offered 80.00 USD and ' +
  'asked whether the light meter reads correctly at low light and whether the mirror has any marks. ' +
  'The seller has sold three other Nikon bodies this month, each between 95 and 130 USD, and prefers ' +
  'a quick deal to a long negotiation over a few dollars.<|im_end|>\n<|im_start|>assistant\n';
const checkIds = tokenizer.encode(checkText.repeat(2)).slice(0, 200);
const TOP = 8;
/**
 * fp32 against F32: the largest logit difference allowed (haggle's choice: both sum float32 products in
 * different orders over 28 layers, which moves logits of about 20 by a few thousandths; a wrong tensor
 * layout, norm or RoPE moves them by whole units). q4 against Q4_0 has no tolerance: two different
 * 4-bit roundings of the weights.
 */
const SAME_MODEL_TOLERANCE = 1e-2;
interface SameModel {
  pair: string;
  /** fp32 only: the top token equal everywhere and the logits within SAME_MODEL_TOLERANCE. */
  ok?: boolean;
  positions: number;
  topTokenAgreement: number;
  maxTopLogitError: number;
  logitScale: number;
}
async function sameModel(dtype: HaggleDtype, type: GgmlTypeName = PAIRS[dtype]): Promise<SameModel> {
  const session = await ort.InferenceSession.create(
    join(folder, 'onnx', dtype === 'fp32' ? 'model.onnx' : 'model_q4.onnx'),
    { graphOptimizationLevel: 'all', intraOpNumThreads: threads },
  );
  const n = checkIds.length;
  const feeds: Record<string, ort.Tensor> = {
    input_ids: new ort.Tensor('int64', BigInt64Array.from(checkIds, BigInt), [1, n]),
    attention_mask: new ort.Tensor('int64', new BigInt64Array(n).fill(1n), [1, n]),
    position_ids: new ort.Tensor(
      'int64',
      BigInt64Array.from({ length: n }, (_, i) => BigInt(i)),
      [1, n],
    ),
    num_logits_to_keep: new ort.Tensor('int64', BigInt64Array.of(BigInt(n)), []),
  };
  for (let l = 0; l < config.layers; l++)
    for (const kind of ['key', 'value'])
      feeds[`past_key_values.${l}.${kind}`] = new ort.Tensor('float32', new Float32Array(0), [
        1,
        config.kvHeads,
        0,
        config.headDim,
      ]);
  const ours = (await session.run(feeds)).logits?.data as Float32Array;
  await session.release();
  const model = await llama.loadModel({ modelPath: ensureGguf(type) });
  const context = await model.createContext({ contextSize: 256, sequences: 1, threads });
  const sequence = context.getSequence();
  const theirs = await sequence.controlledEvaluate(
    checkIds.map((id) => [id, { generateNext: { logits: { filter: { tokens: [], includeTop: TOP } } } }]),
  );
  let agree = 0;
  let maxError = 0;
  let scale = 0;
  const V = config.vocabSize;
  for (let p = 0; p < n; p++) {
    const row = ours.subarray(p * V, (p + 1) * V);
    let best = 0;
    for (let i = 1; i < V; i++) if ((row[i] as number) > (row[best] as number)) best = i;
    const logits = theirs[p]?.next.logits ?? new Map<number, number>();
    const [top] = logits.keys();
    if (top === best) agree++;
    for (const [id, value] of logits) {
      maxError = Math.max(maxError, Math.abs(value - (row[id] as number)));
      scale = Math.max(scale, Math.abs(value));
    }
  }
  await context.dispose();
  await model.dispose();
  return {
    ...(dtype === 'fp32' && type === 'F32' ? { ok: agree === n && maxError <= SAME_MODEL_TOLERANCE } : {}),
    pair: `${dtype} vs ${type}`,
    positions: n,
    topTokenAgreement: agree / n,
    maxTopLogitError: maxError,
    logitScale: scale,
  };
}
const sameModelChecks: SameModel[] = [];
const alsoTypes = (args.also ?? '').split(',').filter((t) => t !== '');
for (const type of alsoTypes) if (!['F16', 'Q8_0'].includes(type)) fail(`--also: ${type} is not F16 or Q8_0`);
if (alsoTypes.length > 0 && !fixture.dtypes?.includes('fp32'))
  fail('--also compares with the fp32 export: build it');
const checks: [HaggleDtype, GgmlTypeName][] = [
  ...pairs.map((dtype): [HaggleDtype, GgmlTypeName] => [dtype, PAIRS[dtype]]),
  ...alsoTypes.map((type): [HaggleDtype, GgmlTypeName] => ['fp32', type as GgmlTypeName]),
];
for (const [dtype, type] of checks) {
  const check = await sameModel(dtype, type);
  sameModelChecks.push(check);
  console.error(
    `  same model, ${check.pair}: top token equal at ${(check.topTokenAgreement * check.positions).toFixed(0)}/${check.positions} positions, ` +
      `largest difference over each position's top ${TOP} logits ${check.maxTopLogitError.toExponential(2)} (logits up to ${check.logitScale.toFixed(1)})` +
      (check.ok === undefined
        ? ' (information only)'
        : check.ok
          ? ` (within ${SAME_MODEL_TOLERANCE}: ok)`
          : ' (NOT the same model)'),
  );
  // Timing two different models would compare nothing: stop here, loudly.
  if (check.ok === false) {
    console.error(
      `${check.pair} disagree beyond ${SAME_MODEL_TOLERANCE}: the GGUF is not the model haggle runs`,
    );
    process.exit(1);
  }
}

// ---- 2. turns, engine by engine, alternately per batch ----------------------------------------------
const rows: Row[] = [];
/** --profile's extra rows (kept out of `rows`, whose engine/dtype/batch triples are unique). */
const profileRows: Row[] = [];
const record = (row: Row) => {
  rows.push(row);
  console.error(
    `  ${row.engine} ${row.dtype} batch ${row.batch}: ${row.msPerTurn.toFixed(0)} ms/turn, ${row.tokensPerSecond.toFixed(2)} tokens/s ` +
      `(${(row.ofCeiling * 100).toFixed(0)}% of the ceiling), ${row.cpuMsPerToken.toFixed(0)} CPU ms/token, valid ${row.validTurns}/${row.turns}`,
  );
};
const maxBatch = Math.max(...batches);
const grammar = await llama.createGrammarForJsonSchema(llamaSchema);
for (const dtype of pairs) {
  const type = PAIRS[dtype];
  const beforeHaggle = process.memoryUsage.rss();
  const backend = await OnnxBackend.load(folder, {
    dtype,
    maxBatchSize: maxBatch,
    // Every turn sends the same prompt: with the cache on, haggle would skip the prefill that
    // node-llama-cpp pays for (its history is cleared before each turn).
    prefixCacheBytes: 0,
    intraOpNumThreads: threads,
    profile: args.profile === true,
  });
  const haggleTurn = async (_client: number, seed: number, limit = maxTokens) => {
    const result = await backend.doGenerate({
      prompt: { messages: [], text: promptText },
      responseFormat: { type: 'json', schema: schema as JsonSchema },
      seed,
      maxTokens: limit,
      temperature: 1,
    });
    return { text: result.choices[0]?.text ?? '', tokens: result.usage.completionTokens };
  };
  // Warm-up: the grammar's compilation and onnxruntime's first runs at both batch sizes.
  await runTurns(maxBatch, maxBatch, (c, s) => haggleTurn(c, s, 4));
  const haggleLoadRssMB = (process.memoryUsage.rss() - beforeHaggle) / 2 ** 20;
  const beforeLlama = process.memoryUsage.rss();
  const model: LlamaModel = await llama.loadModel({ modelPath: ensureGguf(type) });
  const llamaLoadRssMB = (process.memoryUsage.rss() - beforeLlama) / 2 ** 20;
  for (const batch of batches) {
    const count = turns * batch;
    const ceiling = (bytes: number) => (batch * bandwidthGBs * 1e9) / bytes;
    const row = (
      engine: Row['engine'],
      name: string,
      bytes: number,
      loadRssMB: number,
      m: Awaited<ReturnType<typeof runTurns>>,
    ): Row => {
      const tokensPerSecond = m.tokens / m.seconds;
      return {
        engine,
        dtype: name,
        batch,
        turns: count,
        msPerTurn: (m.seconds * 1000) / count,
        tokensPerSecond,
        ceilingTokensPerSecond: ceiling(bytes),
        ofCeiling: tokensPerSecond / ceiling(bytes),
        cpuMsPerToken: m.cpu / m.tokens,
        tokensPerTurn: m.tokens / count,
        validTurns: m.valid,
        ...(m.firstInvalid === undefined ? {} : { firstInvalid: m.firstInvalid }),
        peakRssMB: m.peakRssMB,
        loadRssMB,
        threads,
      };
    };
    record(
      row(
        'haggle',
        dtype,
        haggleBytesPerToken(dtype),
        haggleLoadRssMB,
        await runTurns(batch, count, haggleTurn),
      ),
    );
    // node-llama-cpp: one context with `batch` sequences, one LlamaCompletion on each.
    const context = await model.createContext({ contextSize: 256, sequences: batch, threads });
    const sequences = Array.from({ length: batch }, () => context.getSequence());
    const completions = sequences.map((contextSequence) => new llamaCpp.LlamaCompletion({ contextSequence }));
    const llamaTurn = async (client: number, seed: number, limit = maxTokens, withGrammar = true) => {
      // A fresh sequence each turn: the prompt is prefilled every time, as haggle's is here.
      await (sequences[client] as (typeof sequences)[number]).clearHistory();
      let tokens = 0;
      const { response } = await (
        completions[client] as (typeof completions)[number]
      ).generateCompletionWithMeta([...promptIds], {
        ...(withGrammar ? { grammar } : {}),
        maxTokens: limit,
        temperature: 1,
        seed,
        onToken: (t) => (tokens += t.length),
      });
      return { text: response, tokens };
    };
    await runTurns(batch, batch, (c, s) => llamaTurn(c, s, 4));
    const llamaRow = row(
      'node-llama-cpp',
      type,
      ggufBytesPerToken(config, type),
      llamaLoadRssMB,
      await runTurns(batch, count, llamaTurn),
    );
    record(llamaRow);
    if (args.profile) {
      // As many tokens a turn with no grammar: node-llama-cpp's forward passes and sampling alone.
      const bare = row(
        'node-llama-cpp',
        `${type} (no grammar)`,
        ggufBytesPerToken(config, type),
        llamaLoadRssMB,
        await runTurns(batch, count, (c, s) => llamaTurn(c, s, Math.round(llamaRow.tokensPerTurn), false)),
      );
      profileRows.push(bare);
      console.error(
        `  profile: node-llama-cpp ${bare.dtype} batch ${batch}: ${bare.tokensPerSecond.toFixed(2)} tokens/s, ${bare.cpuMsPerToken.toFixed(0)} CPU ms/token`,
      );
    }
    for (const completion of completions) completion.dispose();
    await context.dispose();
  }
  await model.dispose();
  await backend.dispose();
}
await llama.dispose();

// ---- 3. the table and the JSON line -----------------------------------------------------------------
const endLoad = loadavg()[0] as number;
console.log(
  `model: ${folder} (preset ${preset}, seed ${fixture.seed}); ${threads} threads for both engines; ` +
    `${cpus().length} cores (${cpus()[0]?.model}); load average ${startLoad.toFixed(1)} at start, ${endLoad.toFixed(1)} at end`,
);
console.log(
  `memory bandwidth ${bandwidthGBs.toFixed(1)} GB/s with ${threads} readers (${bandwidthOneReaderGBs.toFixed(1)} with one); node-llama-cpp's grammar lacks: ${[...droppedKeywords].join(', ')}`,
);
for (const check of sameModelChecks)
  console.log(
    `same model (${check.pair}): top token equal at ${Math.round(check.topTokenAgreement * check.positions)}/${check.positions} positions; ` +
      `largest |logit difference| over each position's top ${TOP}: ${check.maxTopLogitError.toExponential(2)}`,
  );
console.log(
  '| engine | dtype | batch | ms / turn | tokens/s | ceiling tokens/s | of ceiling | CPU ms / token | tokens / turn | valid turns | peak RSS MB |',
);
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of [...rows, ...profileRows])
  console.log(
    `| ${r.engine} | ${r.dtype} | ${r.batch} | ${r.msPerTurn.toFixed(0)} | ${r.tokensPerSecond.toFixed(2)} | ${r.ceilingTokensPerSecond.toFixed(1)} | ` +
      `${(r.ofCeiling * 100).toFixed(0)}% | ${r.cpuMsPerToken.toFixed(0)} | ${r.tokensPerTurn.toFixed(1)} | ${r.validTurns}/${r.turns} | ${r.peakRssMB.toFixed(0)} |`,
  );
// Ratios haggle / node-llama-cpp per class and batch: the targets.
for (const r of rows)
  if (r.firstInvalid !== undefined)
    console.log(
      `first invalid turn of ${r.engine} ${r.dtype} batch ${r.batch}: ${JSON.stringify(r.firstInvalid)}`,
    );
const ratios = rows
  .filter((r) => r.engine === 'haggle')
  .map((h) => {
    const peer = rows.find(
      (r) =>
        r.engine === 'node-llama-cpp' && r.dtype === PAIRS[h.dtype as HaggleDtype] && r.batch === h.batch,
    );
    return {
      dtype: h.dtype,
      batch: h.batch,
      msPerTurnRatio: peer ? h.msPerTurn / peer.msPerTurn : null,
      tokensPerSecondRatio: peer ? h.tokensPerSecond / peer.tokensPerSecond : null,
    };
  });
for (const r of ratios)
  console.log(
    `haggle / node-llama-cpp, ${r.dtype} batch ${r.batch}: ms per turn x${r.msPerTurnRatio?.toFixed(2)}, tokens/s x${r.tokensPerSecondRatio?.toFixed(2)}`,
  );
console.log(
  JSON.stringify({
    bench: 'local-peers',
    rows,
    ratios,
    ...(args.profile ? { profileRows } : {}),
    bandwidthGBs,
    bandwidthOneReaderGBs,
    sameModel: sameModelChecks,
    threads,
    grammarKeywordsDropped: [...droppedKeywords],
    load: { start: startLoad, end: endLoad },
  }),
);
process.exit(0);
