/**
 * The simulator's own overhead, with baseline negotiators (PopulationAgent) on both sides, so nearly
 * all the time measured is haggle's: rules, clock, events, ordering, JSONL. Side by side in one process:
 *
 *   negotiators alone   the same predict() calls the sessions make, replayed in a loop: the floor
 *   Session, in a loop  one Session after another, no simulate(): the cost of the rules and events
 *   simulate(), no file concurrent sessions, summary, progress events
 *   simulate(), JSONL   the same, appending each session to a run file as it finishes (one synchronous
 *                       write per line), then putting the file in session order
 *
 *   npx tsx bench/simulate.ts [--sessions 5000] [--concurrency 8] [--repeats 5]
 *
 * Each row is timed `repeats` times after a warm-up; the median counts. Prints a table and one JSON line.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Negotiator,
  PopulationAgent,
  type PredictInput,
  type PredictOptions,
  Session,
  simulate,
  syntheticContext,
} from '../src/index.js';

function arg(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

const sessions = arg('sessions', 5000);
const concurrency = arg('concurrency', 8);
const repeats = arg('repeats', 5);
const seed = 7;
const agent = new PopulationAgent();
const dir = mkdtempSync(join(tmpdir(), 'haggle-bench-simulate-'));

/** Records every call the sessions make, to replay them without the simulator. */
function recording(calls: [PredictInput, PredictOptions | undefined][]): Negotiator {
  return {
    describe: () => agent.describe(),
    responseTimeUnit: agent.responseTimeUnit,
    predict(input, options) {
      calls.push([input, options]);
      return agent.predict(input, options);
    },
  };
}

const calls: [PredictInput, PredictOptions | undefined][] = [];
const recorder = recording(calls);
await simulate({ buyer: recorder, seller: recorder, sessions, seed, concurrency }).done();

const contexts = Array.from({ length: sessions }, (_, i) => syntheticContext(seed, i));

const rows: Record<string, () => Promise<unknown>> = {
  'negotiators alone': async () => {
    for (const [input, options] of calls) await agent.predict(input, options);
  },
  'Session, in a loop': async () => {
    for (let i = 0; i < sessions; i++) {
      await new Session({
        context: contexts[i] as (typeof contexts)[number],
        buyer: agent,
        seller: agent,
        seed: i,
      }).run();
    }
  },
  'simulate(), no file': () => simulate({ buyer: agent, seller: agent, sessions, seed, concurrency }).done(),
  'simulate(), JSONL': () =>
    simulate({
      buyer: agent,
      seller: agent,
      sessions,
      seed,
      concurrency,
      out: join(dir, 'run.jsonl'),
      overwrite: true,
    }).done(),
};

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const results: Record<string, { seconds: number; sessionsPerSecond: number }> = {};
for (const [name, run] of Object.entries(rows)) {
  await run(); // warm-up: JIT, file cache
  const times: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const started = performance.now();
    await run();
    times.push((performance.now() - started) / 1000);
  }
  const seconds = median(times);
  results[name] = { seconds, sessionsPerSecond: sessions / seconds };
}
const fileBytes = statSync(join(dir, 'run.jsonl')).size;
rmSync(dir, { recursive: true, force: true });

const reference = results['simulate(), no file'] as { seconds: number };
console.log(
  `simulate overhead: ${sessions} sessions, ${calls.length} turns, concurrency ${concurrency}, median of ${repeats}; ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`,
);
console.log('| row                 | sessions/s | ms / session | time vs simulate(), no file |');
console.log('| ------------------- | ---------: | -----------: | --------------------------: |');
for (const [name, r] of Object.entries(results)) {
  console.log(
    `| ${name.padEnd(19)} | ${r.sessionsPerSecond.toFixed(0).padStart(10)} | ${((r.seconds * 1000) / sessions).toFixed(3).padStart(12)} | ${`${(r.seconds / reference.seconds).toFixed(2)}×`.padStart(27)} |`,
  );
}
console.log(
  JSON.stringify({
    bench: 'simulate',
    sessions,
    turns: calls.length,
    concurrency,
    repeats,
    node: process.version,
    cpu: cpus()[0]?.model,
    jsonlBytesPerSession: Math.round(fileBytes / sessions),
    rows: results,
    ratios: {
      jsonlOverNoFile: (results['simulate(), JSONL'] as { seconds: number }).seconds / reference.seconds,
      noFileOverNegotiators:
        reference.seconds / (results['negotiators alone'] as { seconds: number }).seconds,
    },
  }),
);
