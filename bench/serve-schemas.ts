/**
 * `haggle serve --backend onnx` (fixture model, a child process under `prlimit --data`) given 2,000
 * requests, each under a response_format schema no other request used: its resident memory (VmRSS)
 * after each step. The grammar cache holds 16 compiled grammars, so past the first steps the RSS must
 * not grow with the count; the bound checked (docs/remote.md, "Memory"): RSS after the last step
 * within 128 MiB of RSS after `--first` requests. test/cli/serve-memory.test.ts checks the same on 400.
 *
 *   npx tsx bench/serve-schemas.ts [--count 2000] [--first 200] [--concurrency 4]
 *
 * Prints a table and one JSON line (last). Exits 1 when the bound is crossed or a request failed.
 */
import { residentKiB } from '../scripts/abuse/distinct-schemas.js';
import { churnSchemas } from '../scripts/abuse/schema-churn.js';
import { spawnServe } from '../scripts/abuse/serve-child.js';
import { fixtureModel } from '../test/onnx/fixture-model.js';

function arg(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  return Number.isFinite(value) ? value : fallback;
}

/** haggle's choice, as in the test: over the ±40 MiB V8's heap and glibc's arenas move by. */
const GROWTH_LIMIT_KIB = 128 * 1024;

async function main(): Promise<void> {
  const count = arg('count', 2000);
  const first = arg('first', 200);
  const concurrency = arg('concurrency', 4);
  const server = await spawnServe({
    model: fixtureModel(1),
    args: ['--max-tokens', '8', '--request-timeout', '60000'],
    dataLimitBytes: 2 * 1024 ** 3,
    killAfterMs: 3_600_000,
  });
  const rows: { requests: number; rssMiB: number; seconds: number; failed: number }[] = [];
  let failed = 0;
  try {
    const idle = await residentKiB(server.pid);
    rows.push({ requests: 0, rssMiB: idle / 1024, seconds: 0, failed: 0 });
    const steps = [
      16,
      first,
      ...Array.from({ length: 4 }, (_, i) => Math.round(first + ((count - first) * (i + 1)) / 4)),
    ];
    let done = 0;
    for (const to of steps) {
      const started = performance.now();
      const result = await churnSchemas(server, done, to, { concurrency, timeoutMs: 60_000 });
      const bad = to - done - (result.statuses[200] ?? 0);
      failed += bad;
      for (const failure of result.failures) console.error(failure);
      rows.push({
        requests: to,
        rssMiB: (await residentKiB(server.pid)) / 1024,
        seconds: (performance.now() - started) / 1000,
        failed: bad,
      });
      done = to;
    }
  } finally {
    await server.stop();
  }
  const atFirst = rows.find((row) => row.requests === first)?.rssMiB ?? Number.NaN;
  const atLast = rows.at(-1)?.rssMiB ?? Number.NaN;
  const growthMiB = atLast - atFirst;
  console.log('| distinct schemas | RSS (MiB) | seconds for the step | failed |');
  console.log('| ---: | ---: | ---: | ---: |');
  for (const row of rows)
    console.log(`| ${row.requests} | ${row.rssMiB.toFixed(0)} | ${row.seconds.toFixed(1)} | ${row.failed} |`);
  const within = growthMiB <= GROWTH_LIMIT_KIB / 1024;
  console.log(
    `RSS growth from ${first} to ${count} schemas: ${growthMiB.toFixed(0)} MiB (bound ${GROWTH_LIMIT_KIB / 1024} MiB): ${within ? 'within' : 'OVER'}`,
  );
  console.log(
    JSON.stringify({ bench: 'serve-schemas', count, first, concurrency, rows, growthMiB, within, failed }),
  );
  if (!within || failed > 0) process.exitCode = 1;
}

await main();
