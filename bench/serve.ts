/**
 * `haggle serve --backend onnx` under load, on the tiny Qwen3 fixture (context 40,960 tokens): small
 * completions alone, then the same small completions while one 30,000-token prompt is served (the
 * ratio of their p99 latencies is the figure: a long prompt must not starve short requests), idle
 * connections held, and the server's RSS before and after abuse (a prompt over the context,
 * `max_tokens: 1e9` with `n: 16`, a burst beyond `--max-queue`).
 *
 *   npx tsx bench/serve.ts [--small 120] [--concurrency 4] [--long-tokens 30000] [--long-max-tokens 16]
 *                          [--connections 1000] [--slow-schemas 13] [--malloc-env]
 *
 * Hostile schemas (issue 40): small completions while one client sends the 90-byte `uniqueItems`
 * schema with `minItems: 20000` (answered how fast, and what it costs the others), and how long a new
 * trivial schema from a second client (another loopback address) waits behind `--slow-schemas`
 * schemas from the first that each spend the whole compile budget.
 *
 * The server is `haggle serve` in a child process (run with --expose-gc so its RSS is read after a
 * collection), as a real one would run. Prints a table and one JSON line (last). Latencies are
 * ratios within one run, never absolute targets: the machine's other load moves both sides.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFixtureModel } from '../scripts/fixture-model/write-model-folder.js';
import { runCli } from '../src/cli/main.js';

function arg(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  return Number.isFinite(value) ? value : fallback;
}

const folder = join(process.cwd(), '.cache', 'fixture-model-v4-seed-1');
const MAX_QUEUE = 64;

/** About 3.5 characters a token with the Qwen3 tokenizer. */
const PHRASE = 'hello world, the price is 42 dollars. ';
const textOfTokens = (tokens: number) => PHRASE.repeat(Math.ceil((tokens * 3.6) / PHRASE.length));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

async function main(): Promise<void> {
  const smallCount = arg('small', 120);
  const concurrency = arg('concurrency', 4);
  const longTokens = arg('long-tokens', 30_000);
  const longMaxTokens = arg('long-max-tokens', 16);
  const connections = arg('connections', 1000);
  const slowSchemas = arg('slow-schemas', 13);
  if (!existsSync(join(folder, 'fixture.json'))) writeFixtureModel(folder, 1, { replace: false });

  const child: ChildProcess = spawn(
    process.execPath,
    ['--expose-gc', ...process.execArgv, fileURLToPath(import.meta.url), '--server'],
    {
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
      // --malloc-env: glibc gives freed blocks back (see docs/remote.md, "Memory").
      env: process.argv.includes('--malloc-env')
        ? { ...process.env, MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' }
        : process.env,
    },
  );
  const { url, model } = await new Promise<{ url: string; model: string }>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (data: Buffer) => {
      out += data.toString();
      const match = /model "([^"]+)" at (http:\/\/\S+)/.exec(out);
      if (match?.[1] && match[2]) resolve({ model: match[1], url: match[2] });
    });
    child.once('exit', (code) => reject(new Error(`haggle serve exited (${code})`)));
  });
  const rss = () =>
    new Promise<number>((resolve) => {
      child.once('message', (message: { rss: number }) => resolve(message.rss));
      child.send('rss');
    });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 2500)); // the decoder frees its buffers after 1 s idle
  // node:http, not fetch: fetch gives up on a response whose headers take over 300 s (the long prompt
  // on a busy 2-core machine can), and keeps no pool of its own to compare with.
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const post = (body: unknown, path = '/completions', localAddress?: string) =>
    new Promise<{
      status: number;
      ms: number;
      json: { usage?: { prompt_tokens: number; completion_tokens: number } };
    }>((resolve, reject) => {
      const started = performance.now();
      const text = JSON.stringify(body);
      const req = request(
        `${url}${path}`,
        {
          method: 'POST',
          // A second client is another loopback address (its own share of schema vetting).
          ...(localAddress ? { localAddress } : { agent }),
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              ms: performance.now() - started,
              json: parseOrEmpty(Buffer.concat(chunks).toString('utf8')),
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(text);
    });
  let smallSeed = 0;
  const small = () =>
    post({ model, prompt: `The buyer offers ${smallSeed} USD. Reply:`, max_tokens: 8, seed: smallSeed++ });

  /** Small requests, `concurrency` at a time, until `count` are done or `until` says stop. */
  async function smallLoad(count: number, until?: () => boolean): Promise<number[]> {
    const latencies: number[] = [];
    let started = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (until ? !until() : started < count) {
          started++;
          const answer = await small();
          if (answer.status !== 200) throw new Error(`a small request got ${answer.status}`);
          latencies.push(answer.ms);
        }
      }),
    );
    return latencies.sort((a, b) => a - b);
  }

  try {
    await smallLoad(2 * concurrency); // warm-up: grammar-free path, buffers, JIT
    await settle();
    const rssBefore = await rss();

    // Connections held: idle keep-alive sockets open at once, then a request still served beside them.
    const sockets: Socket[] = await Promise.all(
      Array.from(
        { length: connections },
        () =>
          new Promise<Socket>((resolve, reject) => {
            const socket = connect(Number(new URL(url).port), '127.0.0.1', () => resolve(socket));
            socket.once('error', reject);
          }),
      ),
    );
    const besideHeld = await small();
    const held = sockets.filter((socket) => !socket.destroyed).length;
    for (const socket of sockets) socket.destroy();

    // Alone before and after the long prompt, each for half as long as it took: a neighbour's burst
    // on a shared machine then lands on both sides alike.
    const aloneBefore = await smallLoad(smallCount);
    const longStarted = performance.now();

    let longDone = false;
    const long = post({ model, prompt: textOfTokens(longTokens), max_tokens: longMaxTokens, seed: 1 }).then(
      (answer) => {
        longDone = true;
        return answer;
      },
    );
    const beside = await smallLoad(0, () => longDone);
    const longAnswer = await long;
    if (longAnswer.status !== 200) throw new Error(`the long request got ${longAnswer.status}`);
    const longPromptTokens = longAnswer.json.usage?.prompt_tokens ?? 0;
    const longSeconds = (performance.now() - longStarted) / 1000;
    const halfway = performance.now() + (longSeconds * 1000) / 2;
    const aloneAfter = await smallLoad(0, () => performance.now() > halfway);
    const alone = [...aloneBefore, ...aloneAfter].sort((a, b) => a - b);

    // Hostile schemas (issue 40): the 90-byte uniqueItems schema, small completions beside it.
    const chat = (schema: unknown, localAddress?: string) =>
      post(
        {
          model,
          messages: [{ role: 'user', content: 'Your next turn?' }],
          max_tokens: 24,
          seed: 1,
          response_format: { type: 'json_schema', json_schema: { name: 'x', schema } },
        },
        '/chat/completions',
        localAddress,
      );
    let hostileDone = false;
    const hostile = chat({
      type: 'array',
      items: { type: 'string' },
      uniqueItems: true,
      minItems: 20_000,
    }).then((answer) => {
      hostileDone = true;
      return answer;
    });
    const besideHostile = await smallLoad(0, () => hostileDone);
    const hostileAnswer = await hostile;
    // Slow schemas from one client (each spends the compile budget), then a new trivial one from another.
    const slow = Array.from({ length: slowSchemas }, (_, k) =>
      chat({
        type: 'object',
        properties: Object.fromEntries(
          Array.from({ length: 20_000 }, (_, i) => [
            `k${k}_${i}`,
            { type: 'string', pattern: `^a{${i % 50}}$` },
          ]),
        ),
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    const trivial = await chat(
      { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      '127.0.0.2',
    );
    const slowAnswers = await Promise.all(slow);

    await settle();
    const rssAfterLong = await rss();
    // Abuse, then RSS once the server is idle again.
    const over = await post({ model, prompt: textOfTokens(45_000), max_tokens: 4 });
    const huge = await post({ model, prompt: 'Tell me:', max_tokens: 1e9, n: 16, seed: 2 });
    const burst = await Promise.all(Array.from({ length: MAX_QUEUE + 36 }, () => small()));
    const refused = burst.filter((answer) => answer.status === 429).length;
    await settle();
    const rssAfter = await rss();

    const row = (name: string, sorted: number[]) =>
      `| ${name} | ${sorted.length} | ${percentile(sorted, 50).toFixed(0)} | ${percentile(sorted, 99).toFixed(0)} |`;
    const p99Ratio = percentile(beside, 99) / percentile(alone, 99);
    const p50Ratio = percentile(beside, 50) / percentile(alone, 50);
    const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
    const lines = [
      `| small completions (max_tokens 8, ${concurrency} in flight) | requests | p50 ms | p99 ms |`,
      '| --- | ---: | ---: | ---: |',
      row('alone', alone),
      row(`while a ${longPromptTokens}-token prompt is served (${longSeconds.toFixed(0)} s)`, beside),
      `| ratio, beside / alone | | ${p50Ratio.toFixed(2)}x | ${p99Ratio.toFixed(2)}x |`,
      row('while a uniqueItems/minItems 20000 schema is sent', besideHostile),
      '',
      '| hostile schemas | status | ms |',
      '| --- | ---: | ---: |',
      `| uniqueItems, minItems 20000 (90 bytes) | ${hostileAnswer.status} | ${hostileAnswer.ms.toFixed(0)} |`,
      `| a new trivial schema from a 2nd client behind ${slowSchemas} slow ones | ${trivial.status} | ${trivial.ms.toFixed(0)} |`,
      `| the slow ones: statuses | ${[...new Set(slowAnswers.map((a) => a.status))].join(', ')} | ${Math.max(...slowAnswers.map((a) => a.ms)).toFixed(0)} (last) |`,
      '',
      '| server | value |',
      '| --- | ---: |',
      `| idle connections held at once (then a request served: ${besideHeld.status}) | ${held} |`,
      `| RSS before abuse (MiB) | ${mb(rssBefore)} |`,
      `| RSS after the long prompt, idle (MiB) | ${mb(rssAfterLong)} |`,
      `| RSS after abuse, idle (MiB) | ${mb(rssAfter)} |`,
      `| prompt over the context: status | ${over.status} |`,
      `| max_tokens 1e9, n 16: status, completion tokens | ${huge.status}, ${huge.json.usage?.completion_tokens} |`,
      `| burst of ${burst.length} beyond --max-queue ${MAX_QUEUE}: 429s | ${refused} |`,
    ];
    process.stdout.write(`${lines.join('\n')}\n\n`);
    process.stdout.write(
      `${JSON.stringify({
        bench: 'serve',
        concurrency,
        longPromptTokens,
        longMaxTokens,
        longSeconds: Number(longSeconds.toFixed(1)),
        aloneRequests: alone.length,
        aloneP50Ms: Math.round(percentile(alone, 50)),
        aloneP99Ms: Math.round(percentile(alone, 99)),
        besideRequests: beside.length,
        besideP50Ms: Math.round(percentile(beside, 50)),
        besideP99Ms: Math.round(percentile(beside, 99)),
        p99Ratio: Number(p99Ratio.toFixed(2)),
        p50Ratio: Number(p50Ratio.toFixed(2)),
        besideHostileRequests: besideHostile.length,
        besideHostileP99Ms: Math.round(percentile(besideHostile, 99)),
        hostileStatus: hostileAnswer.status,
        hostileMs: Math.round(hostileAnswer.ms),
        slowSchemas,
        trivialStatus: trivial.status,
        trivialMs: Math.round(trivial.ms),
        connectionsHeld: held,
        mallocEnv: process.argv.includes('--malloc-env'),
        rssBeforeMiB: Number(mb(rssBefore)),
        rssAfterLongMiB: Number(mb(rssAfterLong)),
        rssAfterMiB: Number(mb(rssAfter)),
        overContextStatus: over.status,
        hugeStatus: huge.status,
        burst: burst.length,
        burstRefused: refused,
        cpus: cpus().length,
        loadAverage: Number(loadavg()[0]?.toFixed(2)),
        node: process.version,
      })}\n`,
    );
  } finally {
    agent.destroy();
    child.disconnect();
    child.kill();
  }
}

function parseOrEmpty(text: string): { usage?: { prompt_tokens: number; completion_tokens: number } } {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

// ---- server mode (child process) -------------------------------------------------------------
if (process.argv.includes('--server')) {
  const io = {
    stdout: { write: (text: string) => process.stdout.write(text), isTTY: false },
    stderr: { write: (text: string) => process.stderr.write(text), isTTY: false },
    readStdin: () => '',
  };
  process.on('message', () => {
    (globalThis as { gc?: () => void }).gc?.();
    process.send?.({ rss: process.memoryUsage().rss });
  });
  const controller = new AbortController();
  process.on('disconnect', () => controller.abort());
  const code = await runCli(
    [
      'serve',
      '--backend',
      'onnx',
      '--model',
      folder,
      '--port',
      '0',
      '--max-queue',
      String(MAX_QUEUE),
      '--request-timeout',
      '0',
    ],
    io,
    controller.signal,
  );
  process.exit(code);
} else {
  await main();
}
