// Local ONNX backend benchmark on the tiny Qwen3 fixture (scripts/build-fixture-model.ts): tokens per
// second and time per turn for haggle's decode loop (worker thread, KV cache, grammar mask and
// jump-forward every step) against a bare `session.run` loop (same tokens, no grammar, no worker:
// the overhead) and against transformers.js `generate()` with @huggingface/transformers-structured-output
// on the same model, prompt and schema; batch 1 against batch 8; one conversation growing turn by
// turn with the prefix cache on and off; then RSS after 200 and 2,000 agent turns. Prints a table,
// then ONE JSON line (last).
//   npx tsx --expose-gc bench/onnx.ts            (about a minute and a half on two cores)
//   npx tsx bench/onnx.ts --quick                (fewer turns and rounds; no memory run)
import { existsSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { writeFixtureModel } from '../scripts/fixture-model/write-model-folder.js';
import { NegotiationAgent } from '../src/agent/negotiation-agent.js';
import { TokenSampler } from '../src/decoding/index.js';
import { OnnxBackend } from '../src/onnx/index.js';
import { loadTokenizer } from '../src/prompt/tokenizer.js';
import { randomInputs } from '../test/onnx/random-contexts.js';

const quick = process.argv.includes('--quick');
const folder = join(process.cwd(), '.cache', 'fixture-model-v2-seed-1');
if (!existsSync(join(folder, 'fixture.json'))) writeFixtureModel(folder, 1, { replace: false });

// No `pattern` anywhere: transformers-structured-output rejects it, and all three must run one schema.
const schema = {
  type: 'object',
  properties: {
    action: { enum: ['offer', 'offer_with_message', 'accept', 'decline'] },
    price: { type: 'number', minimum: 0, maximum: 10000 },
    message: { type: 'string', maxLength: 60 },
  },
  required: ['action', 'price', 'message'],
  additionalProperties: false,
};
const promptText =
  '<|im_start|>system\nYou are a seller on a marketplace. Reply with one JSON turn.<|im_end|>\n' +
  '<|im_start|>user\nListing: Nikon F3 camera body, list price 120.00 USD. The buyer offers 80.00 USD.<|im_end|>\n' +
  '<|im_start|>assistant\n';
const maxTokens = 96;
const turns = quick ? 16 : 64;

interface Row {
  row: string;
  batch: number;
  tokensPerSecond: number;
  msPerTurn: number;
  forwardPassesPerTurn?: number;
}
const rows: Row[] = [];

// ---- haggle's loop ------------------------------------------------------------------------------
// The throughput rows send one prompt again and again: with the prefix cache on, haggle would skip
// every prefill the bare loops pay for. Off here; the conversation section below measures it.
const backend = await OnnxBackend.load(folder, { maxBatchSize: 8, prefixCacheBytes: 0 });
async function ours(batch: number): Promise<{ tokens: number; row: Row }> {
  const generate = (seed: number) =>
    backend.doGenerate({
      prompt: { messages: [], text: promptText },
      responseFormat: { type: 'json', schema },
      seed,
      maxTokens,
      temperature: 1,
    });
  const started = performance.now();
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
    },
  };
}
// ---- bare session.run loop: same number of tokens per turn, no grammar, no sampling, main thread ----
const tokenizer = await loadTokenizer(folder);
const promptIds = tokenizer.encode(promptText);
const session = await ort.InferenceSession.create(join(folder, 'onnx', 'model.onnx'), {
  graphOptimizationLevel: 'all',
});
async function bare(
  batch: number,
  tokensPerTurn: number,
  choose: 'argmax' | 'sampler' | 'none' = 'argmax',
): Promise<Row> {
  const sampled = choose === 'sampler';
  // `sampled`: draw each token with the decoder's TokenSampler (no grammar), to split the overhead
  // between sampling over a 151k vocabulary and the rest of the loop.
  const samplers = Array.from({ length: batch }, (_, i) => new TokenSampler({ seed: i, temperature: 1 }));
  const runTurns = async (count: number) => {
    for (let done = 0; done < count; done += batch) {
      let past: Record<string, ort.Tensor> = {};
      for (let l = 0; l < 2; l++)
        for (const kind of ['key', 'value'])
          past[`present.${l}.${kind}`] = new ort.Tensor('float32', new Float32Array(0), [batch, 2, 0, 16]);
      let ids = promptIds;
      let length = 0;
      for (let step = 0; step <= tokensPerTurn; step++) {
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
        for (let l = 0; l < 2; l++)
          for (const kind of ['key', 'value'])
            feeds[`past_key_values.${l}.${kind}`] = past[`present.${l}.${kind}`] as ort.Tensor;
        const out = await session.run(feeds);
        const logits = out.logits?.data as Float32Array;
        let best = 0;
        if (sampled) {
          for (let b = 0; b < batch; b++)
            best = (samplers[b] as TokenSampler).sample(
              logits.subarray(b * 151_936, b * 151_936 + 151_669),
              null,
              [],
            );
        } else if (choose === 'argmax') {
          // Every row's argmax, as a real batch must pick a token per row; row 0's is fed to all.
          for (let b = batch - 1; b >= 0; b--) {
            const row = logits.subarray(b * 151_936, b * 151_936 + 151_669);
            best = 0;
            for (let i = 1; i < row.length; i++) if ((row[i] as number) > (row[best] as number)) best = i;
          }
        }
        past = out;
        length += width;
        ids = [best];
      }
    }
  };
  await runTurns(batch);
  const started = performance.now();
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
  };
}
// ---- the rounds: every row once per round, interleaved, the median of each row reported ---------
// This machine's neighbours make any one run noisy (a row measured alone varied by half between
// runs); interleaving spreads a slow spell over all rows, and the median drops it.
const rounds = quick ? 1 : 3;
const samples = new Map<string, Row[]>();
const record = (row: Row) => samples.set(row.row, [...(samples.get(row.row) ?? []), row]);
// Warm up once for both batch sizes: the grammar, the string masks (cached per process, whichever row
// ran first used to pay for them) and onnxruntime's first runs.
await ours(8);
const tokensPerTurn = { 1: 0, 8: 0 };
for (let round = 0; round < rounds; round++) {
  for (const batch of [1, 8] as const) {
    const measured = await ours(batch);
    record(measured.row);
    tokensPerTurn[batch] = Math.round(measured.tokens / turns);
  }
  for (const choose of ['argmax', 'sampler', 'none'] as const)
    for (const batch of [1, 8] as const) record(await bare(batch, tokensPerTurn[batch], choose));
}
await session.release();
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
const cached = await OnnxBackend.load(folder, { maxBatchSize: 8 });
const uncached = await OnnxBackend.load(folder, { maxBatchSize: 8, prefixCacheBytes: 0 });
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
// Warm each worker (grammar, string masks) on a prompt that shares nothing but `<|im_start|>user`.
for (const target of [cached, uncached]) {
  await target.doGenerate({
    prompt: { messages: [], text: '<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n' },
    responseFormat: { type: 'json', schema },
    seed: 99,
    maxTokens,
  });
}
const withoutCache = await conversation(uncached);
const withCache = await conversation(cached);
await cached.dispose();
await uncached.dispose();

// ---- memory: RSS after 200 and after 2,000 agent turns (this process holds the worker too) ----------
// Before transformers.js loads its own copy of the model into this process; the default backend
// (prefix cache on: its budget is part of what must stay flat).
let memory: { rssAfter200MB: number; rssAfter2000MB: number; deltaMB: number } | undefined;
const memoryBackend = await OnnxBackend.load(folder, { maxBatchSize: 8 });
if (!quick) {
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
}
await memoryBackend.dispose();

// ---- transformers.js generate() with structured output ----------------------------------------------
let transformersRow: Row | { row: string; error: string };
try {
  const transformers = await import('@huggingface/transformers');
  const { StructuredOutputProcessor } = await import('@huggingface/transformers-structured-output');
  transformers.env.allowRemoteModels = false;
  transformers.env.localModelPath = join(process.cwd(), '.cache');
  const id = 'fixture-model-v2-seed-1';
  const tjsTokenizer = await transformers.AutoTokenizer.from_pretrained(id);
  const model = await transformers.AutoModelForCausalLM.from_pretrained(id, { dtype: 'fp32', device: 'cpu' });
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
  let tokens = 0;
  const count = Math.min(turns, 16);
  for (let i = 0; i < count; i++) tokens += await one();
  const seconds = (performance.now() - started) / 1000;
  transformersRow = {
    row: 'transformers.js generate() + structured output, batch 1',
    batch: 1,
    tokensPerSecond: tokens / seconds,
    msPerTurn: (seconds * 1000) / count,
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
console.log(
  `cpus: ${cpus().length} x ${cpus()[0]?.model ?? '?'}; ${turns} turns per row; maxTokens ${maxTokens}`,
);
console.log('| row | tokens/s | ms / turn | vs bare loop, same batch |');
console.log('| --- | ---: | ---: | ---: |');
for (const row of all) {
  if ('error' in row) {
    console.log(`| ${row.row} | failed: ${row.error} | | |`);
    continue;
  }
  const peer = row.batch === 8 ? bare8 : bare1;
  console.log(
    `| ${row.row} | ${row.tokensPerSecond.toFixed(0)} | ${row.msPerTurn.toFixed(1)} | ${(row.tokensPerSecond / peer.tokensPerSecond).toFixed(2)}× |`,
  );
}
const batchGain = ours8.tokensPerSecond / ours1.tokensPerSecond;
const gain = (a: Row, b: Row) => (b.tokensPerSecond / a.tokensPerSecond).toFixed(2);
console.log(
  `batch 8 / batch 1 tokens/s: haggle ${batchGain.toFixed(2)}×, bare argmax ${gain(bare1, bare8)}×, ` +
    `bare + TokenSampler ${gain(sampled1, sampled8)}×, forward only ${gain(forward1, forward8)}×`,
);
console.log(
  `prefix cache, one conversation of ${withCache.exchanges} turns (${withCache.promptTokens} prompt tokens in all): ` +
    `${withCache.cachedTokens} taken from the cache, ${withCache.msPerTurn.toFixed(1)} ms / turn; ` +
    `cache off: ${withoutCache.cachedTokens} cached, ${withoutCache.msPerTurn.toFixed(1)} ms / turn`,
);
if (memory)
  console.log(
    `RSS after 200 turns ${memory.rssAfter200MB.toFixed(0)} MB, after 2,000 ${memory.rssAfter2000MB.toFixed(0)} MB (delta ${memory.deltaMB.toFixed(1)} MB)`,
  );
console.log(
  JSON.stringify({
    bench: 'onnx',
    quick,
    turns,
    rows: all,
    batchGain,
    prefixCache: { on: withCache, off: withoutCache },
    memory,
  }),
);
