/**
 * `npm run abuse`: 1,000 hostile schemas, generated from a seed, against a real `haggle serve`
 * (the fixture model, a child process under ceilings). Every answer must be 200, 400 or 504 within
 * the request timeout plus 2 s (or 503 for a request held by a worker that ended, which the server
 * logs and restarts; the run then waits for /health 200), the server must stay up, and 20 ordinary
 * requests must all succeed afterwards. Prints a table of outcomes and times per family, then one JSON line.
 *   npm run abuse -- [--count 1000] [--seed 26] [--request-timeout 5000] [--compile-budget 2500]
 */
import { parseArgs } from 'node:util';
import { fixtureModel } from '../test/onnx/fixture-model.js';
import { FAMILIES, generateSchemas } from './abuse/generate.js';
import { type Answer, chatBody, health, ORDINARY_SCHEMA, postJson, spawnServe } from './abuse/serve-child.js';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '26' },
    'request-timeout': { type: 'string', default: '5000' },
    'compile-budget': { type: 'string', default: '2500' },
  },
});
const count = Number(values.count);
const seed = Number(values.seed);
const requestTimeout = Number(values['request-timeout']);
const SLACK_MS = 2_000;
const ALLOWED = new Set([200, 400, 504]);

const server = await spawnServe({
  model: fixtureModel(1),
  args: [
    '--request-timeout',
    String(requestTimeout),
    '--compile-budget',
    String(values['compile-budget']),
    '--worker-heap',
    '1024',
  ],
  heapMb: 1024,
  // Every request within its budget, and more: a run that outlasts this is a failure anyway.
  killAfterMs: count * (requestTimeout + SLACK_MS) + 300_000,
});

const rows = new Map<string, { answers: Answer[] }>();
const problems: string[] = [];
await postJson(`${server.url}/chat/completions`, chatBody(server.model, ORDINARY_SCHEMA), 120_000);
const workerExits = () => (server.stderr().match(/the model worker ended/g) ?? []).length;
for (const [i, generated] of generateSchemas(seed, count).entries()) {
  const body = chatBody(server.model, generated.schema, generated.stream ? { stream: true } : {});
  const exitsBefore = workerExits();
  const answer = await postJson(`${server.url}/chat/completions`, body, requestTimeout + 60_000);
  const row = rows.get(generated.family) ?? { answers: [] };
  row.answers.push(answer);
  rows.set(generated.family, row);
  const late = answer.ms > requestTimeout + SLACK_MS;
  // A 503 is right only for a request the worker held when it ended (the log says so once).
  const restarted = answer.status === 503 && workerExits() > exitsBefore;
  if ((!ALLOWED.has(answer.status) && !restarted) || late || !server.alive()) {
    problems.push(
      `#${i} ${generated.family}: ${answer.status} in ${Math.round(answer.ms)} ms${server.alive() ? '' : ' (server died)'}: ${JSON.stringify(generated.schema).slice(0, 160)}`,
    );
    if (!server.alive()) break;
  }
  if (answer.status === 503) {
    // As a client honouring Retry-After would: wait for the model to be back (/health 200).
    for (let wait = 0; wait < 600 && (await health(server.url, 5_000)) !== 200; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  if ((i + 1) % 100 === 0) process.stderr.write(`${i + 1}/${count}\n`);
}

let healthStatus = 0;
for (let i = 0; i < 600 && healthStatus !== 200 && server.alive(); i++) {
  healthStatus = await health(server.url, 5_000);
  if (healthStatus !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
}
const ordinary = server.alive()
  ? await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        postJson(
          `${server.url}/chat/completions`,
          chatBody(server.model, ORDINARY_SCHEMA, { seed: i }),
          60_000,
        ),
      ),
    )
  : [];
const ordinaryOk = ordinary.filter((answer) => answer.status === 200).length;
const restarts = (server.stderr().match(/the model worker ended/g) ?? []).length;
const alive = server.alive();
await server.stop();

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const table: Record<string, unknown>[] = [];
for (const family of FAMILIES) {
  const answers = rows.get(family)?.answers ?? [];
  const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
  const by = (status: number) => answers.filter((a) => a.status === status).length;
  table.push({
    family,
    requests: answers.length,
    'ok (200)': by(200),
    'refused (400)': by(400),
    'deadline (504)': by(504),
    'restart (503)': by(503),
    other: answers.filter((a) => !ALLOWED.has(a.status) && a.status !== 503).length,
    'p50 ms': Math.round(quantile(ms, 0.5)),
    'p95 ms': Math.round(quantile(ms, 0.95)),
    'max ms': Math.round(ms[ms.length - 1] ?? 0),
  });
}
// Without the index column: the family names the row.
console.table(Object.fromEntries(table.map(({ family, ...row }) => [family as string, row])));
console.log(
  `server ${alive ? 'alive' : 'DEAD'}; worker restarts ${restarts}; /health ${healthStatus}; ordinary requests after: ${ordinaryOk}/20`,
);
// Why each worker ended, as the server logged it (once per restart).
for (const line of server
  .stderr()
  .split('\n')
  .filter((l) => l.includes('the model worker ended')))
  console.log(line.slice(0, 300));
for (const problem of problems) console.log(`PROBLEM ${problem}`);
console.log(
  JSON.stringify({
    bench: 'abuse',
    seed,
    count,
    requestTimeout,
    alive,
    restarts,
    health: healthStatus,
    ordinaryOk,
    problems: problems.length,
    table,
  }),
);
process.exitCode = problems.length === 0 && alive && healthStatus === 200 && ordinaryOk === 20 ? 0 : 1;
