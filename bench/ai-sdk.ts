/**
 * The AI SDK adapters' cost per turn, side by side in one run against a loopback server that answers
 * every request in 50 ms (64 turns in flight):
 *   - fromLanguageModel: `AiSdkBackend.doGenerate` over @ai-sdk/openai's chat model, against that
 *     model's own `doGenerate` (the call the adapter wraps);
 *   - createHaggle: `HaggleLanguageModel.doGenerate` over haggle's OpenAICompatibleBackend, against the
 *     backend's own `doGenerate`.
 * Each pair runs interleaved (A B, then B A, ...) so load on the machine falls on both; the table gives wall
 * time and CPU time per turn and the adapter's overhead as a ratio. Target (issue 31): <= 5% wall.
 * Last, each adapter's own cost per call, in process against a model that answers at once.
 *
 *   npx tsx bench/ai-sdk.ts [--turns 1280] [--concurrency 64] [--latency 50] [--runs 5]
 *
 * The server runs in a child process, as a real one would. Prints a table and one JSON line (last).
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModelV4, LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { createHaggle, fromLanguageModel } from '../src/ai-sdk/index.js';
import type { GenerateOptions, LanguageBackend } from '../src/backends/language-backend.js';
import { OpenAICompatibleBackend } from '../src/backends/openai/node-backend.js';
import { turnJsonSchema } from '../src/contract/index.js';
import { chatCompletionBody } from './shared/chat-completion.js';

function arg(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  return Number.isFinite(value) ? value : fallback;
}

/** Calls per sample of an adapter's own cost. */
const OWN_CALLS = 20_000;

const TURN = { action: 'offer', price: 42.5, message_labels: [], message: '', response_time: 2 };

// ---- server mode (child process) -------------------------------------------------------------
if (process.argv.includes('--server')) {
  const latency = arg('latency', 50);
  let requests = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      requests++;
      setTimeout(() => {
        const text = chatCompletionBody(`bench-${requests}`, TURN, {
          prompt_tokens: 100,
          completion_tokens: 20,
        });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      }, latency);
    });
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
} else {
  await main();
}

/** Runs `turns` calls with `concurrency` in flight; wall and CPU milliseconds. */
async function measure(
  turns: number,
  concurrency: number,
  call: () => PromiseLike<unknown>,
): Promise<{ wallMs: number; cpuMs: number }> {
  let next = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < turns) {
        next++;
        await call();
      }
    }),
  );
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { wallMs, cpuMs: (used.user + used.system) / 1000 };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function main(): Promise<void> {
  const turns = arg('turns', 1280);
  const concurrency = arg('concurrency', 64);
  const latency = arg('latency', 50);
  const runs = arg('runs', 5);
  const child = spawn(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), '--server', '--latency', String(latency)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const port = await new Promise<number>((resolve) => {
    child.stdout.once('data', (data: Buffer) => resolve(Number(data.toString().trim())));
  });
  const baseURL = `http://127.0.0.1:${port}/v1`;
  try {
    const schema = turnJsonSchema({ role: 'buyer', guardrails: { buyer: { maxPrice: 60 } } });
    const messages = [
      { role: 'system' as const, content: 'You are a buyer on a marketplace.' },
      { role: 'user' as const, content: 'The lamp is listed at 50. Your turn.' },
    ];
    // fromLanguageModel: the AI SDK model alone, and behind the adapter.
    const model = createOpenAI({ baseURL, apiKey: 'bench' }).chat('bench-model');
    const adapter = fromLanguageModel(model, { maxConcurrency: concurrency });
    const specCall: LanguageModelV4CallOptions = {
      prompt: messages.map((m) =>
        m.role === 'system'
          ? { role: 'system', content: m.content }
          : { role: 'user', content: [{ type: 'text', text: m.content }] },
      ),
      responseFormat: { type: 'json', schema: schema as never, name: 'turn' },
      temperature: 1,
      seed: 7,
      maxOutputTokens: 256,
    };
    const haggleCall: GenerateOptions = {
      prompt: { messages },
      responseFormat: { type: 'json', schema, name: 'turn' },
      temperature: 1,
      seed: 7,
      maxTokens: 256,
    };
    // createHaggle: haggle's HTTP backend alone, and as an AI SDK model.
    const backend = new OpenAICompatibleBackend({
      baseURL,
      model: 'bench-model',
      endpoint: 'chat',
      dialect: 'openai',
    });
    const provided = createHaggle({ backend, specificationVersion: 'v4' })();

    const pairs = [
      {
        name: 'fromLanguageModel',
        direct: ['@ai-sdk/openai chat model.doGenerate', () => model.doGenerate(specCall)],
        adapted: ['fromLanguageModel(model).doGenerate', () => adapter.doGenerate(haggleCall)],
      },
      {
        name: 'createHaggle',
        direct: ['OpenAICompatibleBackend.doGenerate', () => backend.doGenerate(haggleCall)],
        adapted: ['createHaggle({ backend })().doGenerate', () => provided.doGenerate(specCall)],
      },
    ] as const;
    // Warm-up: connections, JIT.
    for (const pair of pairs) {
      await measure(concurrency * 2, concurrency, pair.direct[1]);
      await measure(concurrency * 2, concurrency, pair.adapted[1]);
    }
    const rows: Array<Record<string, string | number>> = [];
    const summary: Record<string, unknown> = {};
    for (const pair of pairs) {
      const direct: Array<{ wallMs: number; cpuMs: number }> = [];
      const adapted: Array<{ wallMs: number; cpuMs: number }> = [];
      // A B B A ...: whichever goes second in a run (warmer, or later under growing load) alternates.
      for (let run = 0; run < runs; run++) {
        if (run % 2 === 0) {
          direct.push(await measure(turns, concurrency, pair.direct[1]));
          adapted.push(await measure(turns, concurrency, pair.adapted[1]));
        } else {
          adapted.push(await measure(turns, concurrency, pair.adapted[1]));
          direct.push(await measure(turns, concurrency, pair.direct[1]));
        }
      }
      const wallDirect = median(direct.map((r) => r.wallMs));
      const wallAdapted = median(adapted.map((r) => r.wallMs));
      const cpuDirect = median(direct.map((r) => r.cpuMs)) / turns;
      const cpuAdapted = median(adapted.map((r) => r.cpuMs)) / turns;
      const overhead = wallAdapted / wallDirect - 1;
      rows.push(
        {
          call: pair.direct[0],
          wall: wallDirect,
          perTurn: (wallDirect / turns) * concurrency,
          cpu: cpuDirect,
          ratio: '1.000',
        },
        {
          call: pair.adapted[0],
          wall: wallAdapted,
          perTurn: (wallAdapted / turns) * concurrency,
          cpu: cpuAdapted,
          ratio: (wallAdapted / wallDirect).toFixed(3),
        },
      );
      summary[pair.name] = {
        wallOverhead: Number(overhead.toFixed(4)),
        cpuPerTurnMs: { direct: Number(cpuDirect.toFixed(4)), adapted: Number(cpuAdapted.toFixed(4)) },
        withinTarget: overhead <= 0.05,
      };
    }
    // The adapters' own CPU, without the network: each wraps a model (or backend) that answers at once
    // with the same answer, so the difference to calling that one directly is the adapter alone.
    const own = await ownCost(specCall, haggleCall);
    summary.ownCostUs = own;
    console.log(
      `turns ${turns} x ${runs} runs per row (medians), ${concurrency} in flight, server latency ${latency} ms, ` +
        `${cpus().length} CPUs, load ${loadavg()[0]?.toFixed(2)}, Node ${process.version}`,
    );
    console.log('| call | wall ms | wall ms per turn in flight | CPU ms per turn | wall vs direct |');
    console.log('|---|---:|---:|---:|---:|');
    for (const row of rows)
      console.log(
        `| ${row.call} | ${(row.wall as number).toFixed(0)} | ${(row.perTurn as number).toFixed(1)} | ${(row.cpu as number).toFixed(3)} | ${row.ratio} |`,
      );
    console.log(
      `\nthe adapters' own cost (in process, an answer at once, ${OWN_CALLS} calls one after another): ` +
        `fromLanguageModel ${own.fromLanguageModel.toFixed(1)} us per call, createHaggle ${own.createHaggle.toFixed(1)} us per call ` +
        `(${((own.fromLanguageModel / 1000 / latency) * 100).toFixed(3)}% and ${((own.createHaggle / 1000 / latency) * 100).toFixed(3)}% of a ${latency} ms turn)`,
    );
    console.log(
      JSON.stringify({ bench: 'ai-sdk', turns, concurrency, latencyMs: latency, runs, ...summary }),
    );
  } finally {
    child.kill();
  }
}

/** Microseconds per call each adapter adds over calling what it wraps, when that answers at once. */
async function ownCost(
  specCall: LanguageModelV4CallOptions,
  haggleCall: GenerateOptions,
): Promise<{ fromLanguageModel: number; createHaggle: number }> {
  const text = JSON.stringify(TURN);
  const instantModel: LanguageModelV4 = {
    specificationVersion: 'v4',
    provider: 'instant',
    modelId: 'instant',
    supportedUrls: {},
    doGenerate: async () => ({
      content: [{ type: 'text', text }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: {
        inputTokens: { total: 100, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 20, text: undefined, reasoning: undefined },
      },
      warnings: [],
    }),
    doStream: async () => {
      throw new Error('not used');
    },
  };
  const instantBackend: LanguageBackend = {
    specificationVersion: 'v1',
    provider: 'instant',
    modelId: 'instant',
    doGenerate: async () => ({
      choices: [{ text, finishReason: 'stop' }],
      usage: { promptTokens: 100, completionTokens: 20 },
      warnings: [],
    }),
  };
  const perCall = async (call: () => PromiseLike<unknown>) => {
    for (let i = 0; i < 2000; i++) await call();
    const start = performance.now();
    for (let i = 0; i < OWN_CALLS; i++) await call();
    return ((performance.now() - start) / OWN_CALLS) * 1000;
  };
  const adapter = fromLanguageModel(instantModel);
  const provided = createHaggle({ backend: instantBackend, specificationVersion: 'v4' })();
  const samples = { fromLanguageModel: [] as number[], createHaggle: [] as number[] };
  for (let run = 0; run < 5; run++) {
    samples.fromLanguageModel.push(
      (await perCall(() => adapter.doGenerate(haggleCall))) -
        (await perCall(() => instantModel.doGenerate(specCall))),
    );
    samples.createHaggle.push(
      (await perCall(() => provided.doGenerate(specCall))) -
        (await perCall(() => instantBackend.doGenerate(haggleCall))),
    );
  }
  return { fromLanguageModel: median(samples.fromLanguageModel), createHaggle: median(samples.createHaggle) };
}
