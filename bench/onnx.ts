// Local ONNX backend benchmark on the tiny Qwen3 fixture (scripts/build-fixture-model.ts): tokens per
// second and time per turn for haggle's decode loop (worker thread, KV cache, grammar mask and
// jump-forward every step) against a bare `session.run` loop (same tokens, no grammar, no worker:
// the overhead) and against transformers.js `generate()` with @huggingface/transformers-structured-output
// on the same model, prompt and schema; batch 1 against batch 8; one conversation growing turn by
// turn with the prefix cache on and off; then RSS after 200 and 2,000 agent turns. Prints a table,
// then ONE JSON line (last).
//   npx tsx --expose-gc bench/onnx.ts            (about a minute and a half on two cores)
//   npx tsx bench/onnx.ts --quick                (fewer turns and rounds; no memory run)
//   npx tsx bench/onnx.ts --model DIR [--turns N] [--dtype fp32|fp16|q4f16|q4]
//        a real-size model folder (npm run fixture:model -- --preset qwen3-0.6b --out DIR): N turns
//        per row at batch 1 and 8 N at batch 8 (default 2), one round, shorter turns (maxTokens 48,
//        messages of at most 16 characters); no prefix-cache or 2,000-turn memory sections (minutes
//        each at this size); peak RSS reported instead.
//   npx tsx bench/onnx.ts --model DIR --rows haggle8,bare8 [--order ...]
//        only the listed rows (haggle1, haggle8, bare1, bare8, sampler1, sampler8, forward1, forward8),
//        in that order, after the usual warm-up; a bare row without its haggle row feeds maxTokens
//        tokens a turn. Prints their table and one JSON line, and skips every other section.
//        With --profile the decoder prints where its CPU went (OnnxLoadOptions.profile, src/onnx/decode-profile.ts).
import { existsSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import * as ort from 'onnxruntime-node';
import { writeFixtureModel } from '../scripts/fixture-model/write-model-folder.js';
import { NegotiationAgent } from '../src/agent/negotiation-agent.js';
import { TokenSampler } from '../src/decoding/index.js';
import { halfToFloat32 } from '../src/onnx/float16.js';
import { OnnxBackend } from '../src/onnx/index.js';
import { loadTokenizer } from '../src/prompt/tokenizer.js';
import { randomInputs } from '../test/onnx/random-contexts.js';
import { nextPast } from './shared/next-past.js';

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    model: { type: 'string' },
    turns: { type: 'string' },
    dtype: { type: 'string', default: 'fp32' },
    rows: { type: 'string' },
    profile: { type: 'boolean', default: false },
  },
});
const quick = args.quick === true;
const realSize = args.model !== undefined;
const folder = realSize
  ? resolve(args.model as string)
  : join(process.cwd(), '.cache', 'fixture-model-v4-seed-1');
if (!realSize && !existsSync(join(folder, 'fixture.json'))) writeFixtureModel(folder, 1, { replace: false });
if (realSize && !existsSync(join(folder, 'config.json'))) {
  console.error(
    `${folder} has no config.json: build it with npm run fixture:model -- --preset qwen3-0.6b --out DIR`,
  );
  process.exit(2);
}
const dtype = args.dtype as 'fp32' | 'fp16' | 'q4f16' | 'q4' | 'q8';
const modelFile = {
  fp32: 'model.onnx',
  fp16: 'model_fp16.onnx',
  q4f16: 'model_q4f16.onnx',
  q4: 'model_q4.onnx',
  q8: 'model_q8.onnx',
}[dtype];
if (!modelFile) {
  console.error(`--dtype must be fp32, fp16, q4f16 or q4, got ${args.dtype}`);
  process.exit(2);
}
const config = JSON.parse(readFileSync(join(folder, 'config.json'), 'utf8')) as Record<string, number>;
const shape = {
  layers: config.num_hidden_layers as number,
  kvHeads: config.num_key_value_heads as number,
  headDim: config.head_dim as number,
  vocab: config.vocab_size as number,
};
/** Ids past the tokenizer's last real token are padding rows of the embedding: never chosen. */
const realVocab = Math.min(shape.vocab, 151_669);
const kvType = dtype === 'fp32' || dtype === 'q4' || dtype === 'q8' ? 'float32' : 'float16';
const startLoad = loadavg()[0] as number;
/** CPU milliseconds (user + system, all threads) since `since`. */
const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
/** Tokens/s to print: whole numbers on the tiny model, two decimals at real size. */
const rate = (value: number) => value.toFixed(value < 100 ? 2 : 0);

// No `pattern` anywhere: transformers-structured-output rejects it, and all three must run one schema.
const schema = {
  type: 'object',
  properties: {
    action: { enum: ['offer', 'offer_with_message', 'accept', 'decline'] },
    price: { type: 'number', minimum: 0, maximum: 10000 },
    // At real size a token costs a forward pass of the whole model: shorter messages keep a row to minutes.
    message: { type: 'string', maxLength: realSize ? 16 : 60 },
  },
  required: ['action', 'price', 'message'],
  additionalProperties: false,
};
const promptText =
  '<|im_start|>system\nYou are a seller on a marketplace. Reply with one JSON turn.<|im_end|>\n' +
  '<|im_start|>user\nListing: Nikon F3 camera body, list price 120.00 USD. The buyer offers 80.00 USD.<|im_end|>\n' +
  '<|im_start|>assistant\n';
const maxTokens = realSize ? 48 : 96;
const turnsArg = args.turns === undefined ? undefined : Number(args.turns);
if (turnsArg !== undefined && !(Number.isInteger(turnsArg) && turnsArg > 0)) {
  console.error(`--turns must be a positive integer, got ${args.turns}`);
  process.exit(2);
}
// Real size: N turns at batch 1, 8 N at batch 8 (a full batch each time); tiny: the same for both.
const turns = turnsArg ?? (realSize ? 2 : quick ? 16 : 64);
const turnsAt = (batch: number) => (realSize ? turns * batch : turns);

interface Row {
  row: string;
  batch: number;
  tokensPerSecond: number;
  msPerTurn: number;
  forwardPassesPerTurn?: number;
  /**
   * CPU milliseconds of the whole process (every thread: haggle's worker, onnxruntime's pool) per
   * token. On a machine shared with busier neighbours the wall clock measures them as much as the row;
   * CPU time per token measures the row's own work.
   */
  cpuMsPerToken?: number;
}
const rows: Row[] = [];

// ---- haggle's loop ------------------------------------------------------------------------------
// The throughput rows send one prompt again and again: with the prefix cache on, haggle would skip
// every prefill the bare loops pay for. Off here; the conversation section below measures it.
const backend = await OnnxBackend.load(folder, {
  maxBatchSize: 8,
  prefixCacheBytes: 0,
  dtype,
  profile: args.profile === true,
});
const rssAfterLoadMB = process.memoryUsage().rss / 2 ** 20;
async function ours(batch: number, tokenLimit = maxTokens): Promise<{ tokens: number; row: Row }> {
  const turns = turnsAt(batch);
  const generate = (seed: number) =>
    backend.doGenerate({
      prompt: { messages: [], text: promptText },
      responseFormat: { type: 'json', schema },
      seed,
      maxTokens: tokenLimit,
      temperature: 1,
    });
  const started = performance.now();
  const cpu = process.cpuUsage();
  let tokens = 0;
  // `batch` requests in flight at all times: a new turn starts as soon as one ends, as a server's
  // clients would, so rows of short turns are refilled (continuous batching) instead of the batch
  // waiting for its longest turn.
  let next = 0;
  const client = async () => {
    while (next < turns) {
      const seed = next++;
      // Not `tokens += await ...`: that reads `tokens` before the await and loses other clients' adds.
      const result = await generate(seed);
      tokens += result.usage.completionTokens;
    }
  };
  await Promise.all(Array.from({ length: batch }, client));
  const seconds = (performance.now() - started) / 1000;
  return {
    tokens,
    row: {
      row: `haggle OnnxBackend, batch ${batch}`,
      batch,
      tokensPerSecond: tokens / seconds,
      msPerTurn: (seconds * 1000) / turns,
      cpuMsPerToken: cpuMs(cpu) / tokens,
    },
  };
}
// ---- bare session.run loop: same number of tokens per turn, no grammar, no sampling, main thread ----
const tokenizer = await loadTokenizer(folder);
const promptIds = tokenizer.encode(promptText);
const session = await ort.InferenceSession.create(join(folder, 'onnx', modelFile), {
  graphOptimizationLevel: 'all',
});
async function bare(
  batch: number,
  tokensPerTurn: number,
  choose: 'argmax' | 'sampler' | 'none' = 'argmax',
): Promise<Row> {
  const turns = turnsAt(batch);
  const vocab = shape.vocab;
  const sampled = choose === 'sampler';
  // `sampled`: draw each token with the decoder's TokenSampler (no grammar), to split the overhead
  // between sampling over a 151k vocabulary and the rest of the loop.
  const samplers = Array.from({ length: batch }, (_, i) => new TokenSampler({ seed: i, temperature: 1 }));
  const runTurns = async (count: number, steps = tokensPerTurn) => {
    for (let done = 0; done < count; done += batch) {
      let past: Record<string, ort.Tensor> = {};
      for (let l = 0; l < shape.layers; l++)
        for (const kind of ['key', 'value'])
          past[`present.${l}.${kind}`] = new ort.Tensor(
            kvType,
            kvType === 'float32' ? new Float32Array(0) : new Uint16Array(0),
            [batch, shape.kvHeads, 0, shape.headDim],
          );
      let ids = promptIds;
      let length = 0;
      for (let step = 0; step <= steps; step++) {
        const width = ids.length;
        const feeds: Record<string, ort.Tensor> = {
          input_ids: new ort.Tensor(
            'int64',
            BigInt64Array.from({ length: batch * width }, (_, i) => BigInt(ids[i % width] as number)),
            [batch, width],
          ),
          attention_mask: new ort.Tensor('int64', new BigInt64Array(batch * (length + width)).fill(1n), [
            batch,
            length + width,
          ]),
          position_ids: new ort.Tensor(
            'int64',
            BigInt64Array.from({ length: batch * width }, (_, i) => BigInt(length + (i % width))),
            [batch, width],
          ),
          num_logits_to_keep: new ort.Tensor('int64', BigInt64Array.of(1n), []),
        };
        for (let l = 0; l < shape.layers; l++)
          for (const kind of ['key', 'value'])
            feeds[`past_key_values.${l}.${kind}`] = past[`present.${l}.${kind}`] as ort.Tensor;
        const out = await session.run(feeds);
        const logits =
          out.logits?.type === 'float16'
            ? halfToFloat32(out.logits.data as Uint16Array, 0, batch * vocab)
            : (out.logits?.data as Float32Array);
        let best = 0;
        if (sampled) {
          for (let b = 0; b < batch; b++)
            best = (samplers[b] as TokenSampler).sample(
              logits.subarray(b * vocab, b * vocab + realVocab),
              null,
              [],
            );
        } else if (choose === 'argmax') {
          // Every row's argmax, as a real batch must pick a token per row; row 0's is fed to all.
          for (let b = batch - 1; b >= 0; b--) {
            const row = logits.subarray(b * vocab, b * vocab + realVocab);
            best = 0;
            for (let i = 1; i < row.length; i++) if ((row[i] as number) > (row[best] as number)) best = i;
          }
        }
        past = nextPast(past, out, shape.layers);
        length += width;
        ids = [best];
      }
    }
  };
  // Warm-up: onnxruntime's first runs at this batch size (a few steps are enough at real size).
  await runTurns(batch, realSize ? 3 : tokensPerTurn);
  const started = performance.now();
  const cpu = process.cpuUsage();
  await runTurns(turns);
  const seconds = (performance.now() - started) / 1000;
  return {
    row:
      choose === 'none'
        ? `bare session.run loop, forward only (no token chosen), batch ${batch}`
        : `bare session.run loop${sampled ? ' + TokenSampler' : ''}, batch ${batch}`,
    batch,
    tokensPerSecond: (tokensPerTurn * turns) / seconds,
    msPerTurn: (seconds * 1000) / turns,
    cpuMsPerToken: cpuMs(cpu) / (tokensPerTurn * turns),
  };
}
// ---- the rounds: every row once per round, interleaved, the median of each row reported ---------
// This machine's neighbours make any one run noisy (a row measured alone varied by half between
// runs); interleaving spreads a slow spell over all rows, and the median drops it.
const rounds = quick || realSize ? 1 : 3;
const samples = new Map<string, Row[]>();
const record = (row: Row) => {
  samples.set(row.row, [...(samples.get(row.row) ?? []), row]);
  // Progress on stderr: at real size a row takes a minute or more.
  console.error(
    `  ${row.row}: ${row.tokensPerSecond.toFixed(2)} tokens/s, ${row.msPerTurn.toFixed(0)} ms / turn`,
  );
};
// Warm up once for both batch sizes: the grammar, the string masks (cached per process, whichever row
// ran first used to pay for them) and onnxruntime's first runs.
// At real size a few tokens per sequence warm the same paths; a full turn would cost a minute.
await ours(8, realSize ? 4 : maxTokens);
const tokensPerTurn = { 1: 0, 8: 0 };
if (args.rows !== undefined) {
  // Only the listed rows: for profiling one of them, or an A/B of a change, without the whole table.
  const kinds = { bare: 'argmax', sampler: 'sampler', forward: 'none' } as const;
  const selected: Row[] = [];
  for (const name of args.rows.split(',')) {
    const match = /^(haggle|bare|sampler|forward)(1|8)$/.exec(name.trim());
    if (!match) {
      console.error(
        `--rows: unknown row ${name}; use haggle1, haggle8, bare1, bare8, sampler1, sampler8, forward1, forward8`,
      );
      process.exit(2);
    }
    const batch = Number(match[2]) as 1 | 8;
    const kind = match[1] as 'haggle' | keyof typeof kinds;
    let row: Row;
    if (kind === 'haggle') {
      const measured = await ours(batch);
      row = measured.row;
      tokensPerTurn[batch] = Math.round(measured.tokens / turnsAt(batch));
    } else row = await bare(batch, tokensPerTurn[batch] || maxTokens, kinds[kind]);
    record(row);
    selected.push(row);
  }
  await session.release();
  await backend.dispose();
  const endLoad = loadavg()[0] as number;
  console.log(
    `model: ${folder} (${modelFile}); load average ${startLoad.toFixed(1)} at start, ${endLoad.toFixed(1)} at end`,
  );
  console.log('| row | tokens/s | ms / turn | CPU ms / token |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const row of selected)
    console.log(
      `| ${row.row} | ${rate(row.tokensPerSecond)} | ${row.msPerTurn.toFixed(1)} | ${row.cpuMsPerToken?.toFixed(1) ?? ''} |`,
    );
  console.log(JSON.stringify({ bench: 'onnx', rows: selected, load: { start: startLoad, end: endLoad } }));
  process.exit(0);
}
for (let round = 0; round < rounds; round++) {
  for (const batch of [1, 8] as const) {
    const measured = await ours(batch);
    record(measured.row);
    tokensPerTurn[batch] = Math.round(measured.tokens / turnsAt(batch));
  }
  for (const choose of ['argmax', 'sampler', 'none'] as const)
    for (const batch of [1, 8] as const) record(await bare(batch, tokensPerTurn[batch], choose));
}
await session.release();
const rssPeakHaggleMB = process.resourceUsage().maxRSS / 1024;
for (const runs of samples.values()) {
  const sorted = [...runs].sort((a, b) => a.tokensPerSecond - b.tokensPerSecond);
  rows.push(sorted[Math.floor(sorted.length / 2)] as Row);
}
const [ours1, ours8, bare1, bare8, sampled1, sampled8, forward1, forward8] = rows as [
  Row,
  Row,
  Row,
  Row,
  Row,
  Row,
  Row,
  Row,
];

await backend.dispose();

// ---- prefix cache: one conversation growing by an exchange per turn, as a negotiation's prompts do ---
// The default backend (prefix cache on) against one with it off, the same requests and seeds.
async function conversation(target: OnnxBackend) {
  let text = promptText.slice(0, promptText.lastIndexOf('<|im_start|>assistant'));
  let promptTokens = 0;
  let cachedTokens = 0;
  const started = performance.now();
  const exchanges = quick ? 8 : 24;
  for (let turn = 0; turn < exchanges; turn++) {
    const result = await target.doGenerate({
      prompt: { messages: [], text: `${text}<|im_start|>assistant\n` },
      responseFormat: { type: 'json', schema },
      seed: turn,
      maxTokens,
      temperature: 1,
    });
    promptTokens += result.usage.promptTokens;
    cachedTokens += result.usage.cachedPromptTokens ?? 0;
    const reply = result.choices[0]?.text ?? '';
    text += `<|im_start|>assistant\n${reply}<|im_end|>\n<|im_start|>user\nCounter ${turn}: ${90 + turn}.00 USD.<|im_end|>\n`;
  }
  return { msPerTurn: (performance.now() - started) / exchanges, promptTokens, cachedTokens, exchanges };
}
let prefixCache:
  | { on: Awaited<ReturnType<typeof conversation>>; off: Awaited<ReturnType<typeof conversation>> }
  | undefined;
if (!realSize) {
  const cached = await OnnxBackend.load(folder, { maxBatchSize: 8 });
  const uncached = await OnnxBackend.load(folder, { maxBatchSize: 8, prefixCacheBytes: 0 });
  // Warm each worker (grammar, string masks) on a prompt that shares nothing but `<|im_start|>user`.
  for (const target of [cached, uncached]) {
    await target.doGenerate({
      prompt: { messages: [], text: '<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n' },
      responseFormat: { type: 'json', schema },
      seed: 99,
      maxTokens,
    });
  }
  const off = await conversation(uncached);
  const on = await conversation(cached);
  prefixCache = { on, off };
  await cached.dispose();
  await uncached.dispose();
}

// ---- memory: RSS after 200 and after 2,000 agent turns (this process holds the worker too) ----------
// Before transformers.js loads its own copy of the model into this process; the default backend
// (prefix cache on: its budget is part of what must stay flat).
let memory: { rssAfter200MB: number; rssAfter2000MB: number; deltaMB: number } | undefined;
if (!quick && !realSize) {
  const memoryBackend = await OnnxBackend.load(folder, { maxBatchSize: 8 });
  const agent = new NegotiationAgent({
    backend: memoryBackend,
    sampling: { temperature: 1.0, seed: 7, maxTokens: 160 },
  });
  const inputs = randomInputs(200, 5);
  const round = (r: number) =>
    Promise.all(inputs.map((input, i) => agent.predict(input, { seed: r * 1000 + i })));
  await round(0);
  global.gc?.();
  const after200 = process.memoryUsage().rss / 2 ** 20;
  for (let r = 1; r < 10; r++) await round(r);
  global.gc?.();
  const after2000 = process.memoryUsage().rss / 2 ** 20;
  memory = { rssAfter200MB: after200, rssAfter2000MB: after2000, deltaMB: after2000 - after200 };
  await memoryBackend.dispose();
}

// ---- transformers.js generate() with structured output ----------------------------------------------
let transformersRow: Row | { row: string; error: string };
try {
  const transformers = await import('@huggingface/transformers');
  const { StructuredOutputProcessor } = await import('@huggingface/transformers-structured-output');
  transformers.env.allowRemoteModels = false;
  transformers.env.localModelPath = `${dirname(folder)}/`;
  const id = basename(folder);
  const tjsTokenizer = await transformers.AutoTokenizer.from_pretrained(id);
  const model = await transformers.AutoModelForCausalLM.from_pretrained(id, { dtype, device: 'cpu' });
  const inputs = tjsTokenizer(promptText);
  const one = async () => {
    const processor = new StructuredOutputProcessor(
      tjsTokenizer as never,
      { type: 'json_schema', json_schema: schema } as never,
    );
    const output = (await model.generate({
      ...inputs,
      max_new_tokens: maxTokens,
      do_sample: true,
      temperature: 1,
      logits_processor: processor,
    } as never)) as { dims: number[] };
    return (output.dims[1] as number) - promptIds.length;
  };
  await one();
  const started = performance.now();
  const cpu = process.cpuUsage();
  let tokens = 0;
  const count = Math.min(turnsAt(1), 16);
  for (let i = 0; i < count; i++) tokens += await one();
  const seconds = (performance.now() - started) / 1000;
  transformersRow = {
    row: 'transformers.js generate() + structured output, batch 1',
    batch: 1,
    tokensPerSecond: tokens / seconds,
    msPerTurn: (seconds * 1000) / count,
    cpuMsPerToken: cpuMs(cpu) / tokens,
  };
  await model.dispose();
} catch (error) {
  transformersRow = {
    row: 'transformers.js generate() + structured output',
    error: String(error).split('\n')[0] ?? '',
  };
}

// ---- report -------------------------------------------------------------------------------------
const all = [...rows, transformersRow];
const endLoad = loadavg()[0] as number;
const rssPeakMB = process.resourceUsage().maxRSS / 1024;
console.log(
  `model: ${realSize ? `${folder} (${modelFile})` : 'tiny fixture'}; cpus: ${cpus().length} x ${cpus()[0]?.model ?? '?'}; ` +
    `${realSize ? `${turnsAt(1)} turns at batch 1, ${turnsAt(8)} at batch 8` : `${turns} turns per row`}; maxTokens ${maxTokens}; ` +
    `load average ${startLoad.toFixed(1)} at start, ${endLoad.toFixed(1)} at end`,
);
console.log('| row | tokens/s | ms / turn | vs bare loop, same batch | CPU ms / token |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const row of all) {
  if ('error' in row) {
    console.log(`| ${row.row} | failed: ${row.error} | | | |`);
    continue;
  }
  const peer = row.batch === 8 ? bare8 : bare1;
  console.log(
    `| ${row.row} | ${rate(row.tokensPerSecond)} | ${row.msPerTurn.toFixed(1)} | ${(row.tokensPerSecond / peer.tokensPerSecond).toFixed(2)}× | ${row.cpuMsPerToken?.toFixed(1) ?? ''} |`,
  );
}
const batchGain = ours8.tokensPerSecond / ours1.tokensPerSecond;
const gain = (a: Row, b: Row) => (b.tokensPerSecond / a.tokensPerSecond).toFixed(2);
console.log(
  `batch 8 / batch 1 tokens/s: haggle ${batchGain.toFixed(2)}×, bare argmax ${gain(bare1, bare8)}×, ` +
    `bare + TokenSampler ${gain(sampled1, sampled8)}×, forward only ${gain(forward1, forward8)}×`,
);
const forwardGain = forward8.tokensPerSecond / forward1.tokensPerSecond;
// The same gains in CPU time per token: what batching saves in work, whatever the neighbours do.
const cpuGain = (a: Row, b: Row) => (a.cpuMsPerToken ?? Number.NaN) / (b.cpuMsPerToken ?? Number.NaN);
console.log(
  `batch 8 / batch 1 in CPU time per token: haggle ${cpuGain(ours1, ours8).toFixed(2)}×, forward only ${cpuGain(forward1, forward8).toFixed(2)}× ` +
    `(haggle's is ${(cpuGain(ours1, ours8) / cpuGain(forward1, forward8)).toFixed(2)} of it); haggle batch 1 uses ` +
    `${((ours1.cpuMsPerToken ?? 0) / (bare1.cpuMsPerToken ?? 1)).toFixed(2)}x the bare loop's CPU per token`,
);
console.log(
  `haggle's batch-8 gain is ${(batchGain / forwardGain).toFixed(2)} of the forward-only gain; ` +
    `haggle batch 1 takes ${(bare1.tokensPerSecond / ours1.tokensPerSecond).toFixed(2)}x the bare loop's time per token`,
);
if (prefixCache) {
  const { on: withCache, off: withoutCache } = prefixCache;
  console.log(
    `prefix cache, one conversation of ${withCache.exchanges} turns (${withCache.promptTokens} prompt tokens in all): ` +
      `${withCache.cachedTokens} taken from the cache, ${withCache.msPerTurn.toFixed(1)} ms / turn; ` +
      `cache off: ${withoutCache.cachedTokens} cached, ${withoutCache.msPerTurn.toFixed(1)} ms / turn`,
  );
}
console.log(
  `RSS: ${rssAfterLoadMB.toFixed(0)} MB with haggle's backend loaded; peak ${rssPeakHaggleMB.toFixed(0)} MB ` +
    `through the haggle and bare rows (both models loaded), ${rssPeakMB.toFixed(0)} MB for the whole run`,
);
if (memory)
  console.log(
    `RSS after 200 turns ${memory.rssAfter200MB.toFixed(0)} MB, after 2,000 ${memory.rssAfter2000MB.toFixed(0)} MB (delta ${memory.deltaMB.toFixed(1)} MB)`,
  );
console.log(
  JSON.stringify({
    bench: 'onnx',
    quick,
    model: realSize ? { folder, file: modelFile, ...shape } : 'tiny',
    turns: { batch1: turnsAt(1), batch8: turnsAt(8) },
    maxTokens,
    rows: all,
    batchGain,
    forwardGain,
    gainRatio: batchGain / forwardGain,
    load: { start: startLoad, end: endLoad },
    rss: { afterLoadMB: rssAfterLoadMB, peakHaggleAndBareMB: rssPeakHaggleMB, peakMB: rssPeakMB },
    prefixCache,
    memory,
  }),
);
