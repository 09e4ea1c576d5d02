/**
 * Remote backend throughput: 64 concurrent sessions through OpenAICompatibleBackend against a loopback
 * server that answers every request in 50 ms, compared with the ideal request rate (64 / 50 ms) and with
 * a peer in the same run: 64 bare `fetch` loops against the same server, the ceiling of the transport.
 *
 *   npx tsx bench/remote.ts [--sessions 1280] [--concurrency 64] [--latency 50] [--runs 3]
 *
 * The server runs in a child process, as a real one would, so its work does not share the event loop
 * being measured. Prints a table and one JSON line.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createNodeTransport } from '../src/backends/openai/node-transport.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../src/backends/openai/response-limit.js';
import { NegotiationAgent, OpenAICompatibleBackend, simulate } from '../src/index.js';
import { chatCompletionBody } from './shared/chat-completion.js';

function arg(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  return Number.isFinite(value) ? value : fallback;
}

// ---- server mode (child process) -------------------------------------------------------------
if (process.argv.includes('--server')) {
  const latency = arg('latency', 50);
  let requests = 0;
  let bytes = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/count') {
        res.end(JSON.stringify({ requests, bytes }));
        return;
      }
      requests++;
      bytes += chunks.reduce((sum, chunk) => sum + chunk.length, 0);
      type Bounds = {
        minimum?: number;
        exclusiveMinimum?: number;
        maximum?: number;
        exclusiveMaximum?: number;
      };
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
        response_format?: {
          json_schema?: {
            schema?: { oneOf?: { properties: { action: { const: string }; price: Bounds } }[] };
          };
        };
      };
      const branches = body.response_format?.json_schema?.schema?.oneOf ?? [];
      const actions = branches.map((b) => b.properties.action.const);
      // An offer in the middle of the legal interval the schema gives, in cents: what a model under
      // guided decoding could write.
      const bounds = branches.find((b) => b.properties.action.const === 'offer')?.properties.price ?? {};
      const low = bounds.minimum ?? bounds.exclusiveMinimum ?? 0;
      const high = bounds.maximum ?? bounds.exclusiveMaximum ?? low + 20;
      const offerPrice = Math.round(((low + high) / 2) * 100) / 100;
      // Accept every other time it is allowed, so sessions run a few turns, as real ones do.
      const bare = (action: string) => ({
        action,
        price: null,
        message_labels: [],
        message: '',
        response_time: 1,
      });
      const turn =
        actions.includes('accept') && requests % 2 === 0
          ? bare('accept')
          : actions.includes('offer')
            ? { action: 'offer', price: offerPrice, message_labels: [], message: '', response_time: 2 }
            : bare(actions.includes('decline') ? 'decline' : 'no_response');
      setTimeout(() => {
        const text = chatCompletionBody(`bench-${requests}`, turn, {
          prompt_tokens: 100,
          completion_tokens: 20,
        });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      }, latency);
    });
  });
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
  });
} else {
  await main();
}

async function main(): Promise<void> {
  const sessions = arg('sessions', 1280);
  const concurrency = arg('concurrency', 64);
  const latency = arg('latency', 50);
  const runs = arg('runs', 3);
  const child = spawn(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), '--server', '--latency', String(latency)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve) => {
    child.stdout.once('data', (data: Buffer) => resolve(Number(data.toString().trim())));
  });
  const baseURL = `http://127.0.0.1:${port}/v1`;
  const count = async () =>
    (await (await fetch(`http://127.0.0.1:${port}/count`, { method: 'POST' })).json()) as {
      requests: number;
      bytes: number;
    };

  try {
    const ideal = concurrency / (latency / 1000);

    // Warm-up through haggle; it also tells the peers how large haggle's request bodies are.
    const backend = new OpenAICompatibleBackend({ baseURL, model: 'qwen3-4b-negotiation', dialect: 'vllm' });
    const agent = new NegotiationAgent({ backend });
    await simulate({ buyer: agent, seller: agent, sessions: concurrency, concurrency, seed: 1 }).done();
    const warm = await count();
    const bodyBytes = Math.round(warm.bytes / warm.requests);

    // Peers: bare request loops, same concurrency, same body size, for about as long as the haggle run.
    const body = JSON.stringify({
      model: 'm',
      messages: [{ role: 'user', content: 'x'.repeat(Math.max(0, bodyBytes - 140)) }],
      response_format: { type: 'json_schema', json_schema: { name: 'turn', schema: { oneOf: [] } } },
    });
    const transport = createNodeTransport(concurrency);
    // Client CPU per request says what this process could sustain with a core to itself, whatever the
    // machine's load: on a busy machine the wall-clock rates below measure the neighbours too.
    const peer = async (send: () => Promise<unknown>): Promise<{ rate: number; cpuMs: number }> => {
      const started = performance.now();
      const cpuStart = process.cpuUsage();
      let done = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (performance.now() - started < 3000) {
            await send();
            done++;
          }
        }),
      );
      const cpu = process.cpuUsage(cpuStart);
      return {
        rate: done / ((performance.now() - started) / 1000),
        cpuMs: (cpu.user + cpu.system) / 1000 / done,
      };
    };
    const url = `${baseURL}/chat/completions`;
    const fetchPeer = await peer(async () => (await fetch(url, { method: 'POST', body })).text());
    const headers = { 'content-type': 'application/json' };
    const httpRun = () =>
      peer(async () => {
        const signal = new AbortController().signal;
        const maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES;
        return (await transport(url, { method: 'POST', headers, body, signal, maxResponseBytes })).text();
      });

    // haggle: simulate() through NegotiationAgent -> OpenAICompatibleBackend.
    let summary: Awaited<ReturnType<ReturnType<typeof simulate>['done']>> | undefined;
    let requests = 0;
    let seconds = 0;
    const haggleRun = async (seed: number) => {
      const before = (await count()).requests;
      const start = performance.now();
      const cpuStart = process.cpuUsage();
      summary = await simulate({ buyer: agent, seller: agent, sessions, concurrency, seed }).done();
      const cpu = process.cpuUsage(cpuStart);
      seconds = (performance.now() - start) / 1000;
      requests = (await count()).requests - before;
      return { rate: requests / seconds, cpuMs: (cpu.user + cpu.system) / 1000 / requests };
    };

    // Best of `runs`, alternating peer and haggle: on a shared machine a neighbour's burst slows one
    // run, never speeds one up, so the best run is the closest to what the code itself allows.
    const best = (a: { rate: number; cpuMs: number }, b: { rate: number; cpuMs: number }) =>
      b.rate > a.rate ? b : a;
    let httpPeer = { rate: 0, cpuMs: 0 };
    let haggle = { rate: 0, cpuMs: 0 };
    for (let run = 0; run < runs; run++) {
      httpPeer = best(httpPeer, await httpRun());
      haggle = best(haggle, await haggleRun(7 + run));
    }
    const rate = haggle.rate;
    const cpuMs = haggle.cpuMs;

    // What one core could carry at this CPU cost, capped by the server: the rate on a quiet machine.
    const ceiling = (ms: number) => Math.min(ideal, 1000 / ms);
    const rows = [
      ['ideal (64 / 50 ms)', ideal, undefined],
      ['peer: bare fetch() loops', fetchPeer.rate, fetchPeer.cpuMs],
      ['peer: bare node:http loops', httpPeer.rate, httpPeer.cpuMs],
      ['haggle simulate via OpenAICompatibleBackend', rate, cpuMs],
    ] as const;
    const pct = (value: number) => `${((value / ideal) * 100).toFixed(1)}%`;
    const lines = [
      '| path | requests/s | ratio to ideal | client CPU ms/request | one-core ceiling, ratio to ideal |',
      '| --- | ---: | ---: | ---: | ---: |',
      ...rows.map(
        ([name, r, ms]) =>
          `| ${name} | ${r.toFixed(0)} | ${pct(r)} | ${ms === undefined ? '' : ms.toFixed(3)} | ${ms === undefined ? '' : pct(ceiling(ms))} |`,
      ),
    ];
    process.stdout.write(`${lines.join('\n')}\n\n`);
    process.stdout.write(
      `sessions ${sessions}, concurrency ${concurrency}, server latency ${latency} ms, request body ${bodyBytes} B, ` +
        `${requests} requests in ${seconds.toFixed(2)} s, ` +
        `${(requests / sessions).toFixed(2)} requests/session (last run), errors ${summary?.errors ?? 0}; best of ${runs} runs\n`,
    );
    process.stdout.write(
      `${JSON.stringify({
        bench: 'remote',
        sessions,
        concurrency,
        runs,
        latencyMs: latency,
        bodyBytes,
        idealRps: ideal,
        fetchPeerRps: Math.round(fetchPeer.rate),
        httpPeerRps: Math.round(httpPeer.rate),
        haggleCpuMsPerRequest: Number(cpuMs.toFixed(3)),
        httpPeerCpuMsPerRequest: Number(httpPeer.cpuMs.toFixed(3)),
        haggleCeilingRatio: Number((ceiling(cpuMs) / ideal).toFixed(3)),
        haggleRps: Math.round(rate),
        haggleRatio: Number((rate / ideal).toFixed(3)),
        httpPeerRatio: Number((httpPeer.rate / ideal).toFixed(3)),
        cpus: cpus().length,
        loadAverage: Number(loadavg()[0]?.toFixed(2)),
        node: process.version,
      })}\n`,
    );
  } finally {
    child.kill();
  }
}
