// Where haggle's MaskBench mask time goes: runs a sample of the dev set in this process (no worker, no
// XGrammar), walks every valid test's tokens through mask() and accept() as bench/maskbench.ts does,
// and buckets each mask that missed the grammar's caches by what the position is: the leaf on top (or
// the leaves, for a set of positions), inside or outside a string, how many positions the set holds.
// Prints, per bucket, how many misses, their total and p50/p99 time, and how many took over 533 µs
// (llguidance's published p99, issue 19's target), so the slowest kinds of position show first.
//   npx tsx bench/maskbench/profile.ts [--dir DIR] [--every N] [--filter SUBSTR] [--limit N] [--over US]
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { compileSchema } from '../../src/decoding/compiler/grammar-compiler.js';
import type { Frame } from '../../src/decoding/grammar/stack-machine.js';
import { StringLeaf } from '../../src/decoding/grammar/string-leaf.js';
import { GrammarMatcher } from '../../src/decoding/matcher/grammar-matcher.js';
import { loadEngineSetup } from './engine-setup.js';
import { MASKBENCH_OPTIONS } from './haggle-engine.js';
import { type PyObject, type PyValue, parsePythonJson, pythonDumps, toPlain } from './python-json.js';

const { values: args } = parseArgs({
  options: {
    dir: { type: 'string', default: '../shared/data/maskbench-dev' },
    every: { type: 'string', default: '8' },
    filter: { type: 'string' },
    limit: { type: 'string' },
    over: { type: 'string', default: '533' },
    examples: { type: 'string', default: '0' },
  },
});
const dir = args.dir as string;
const every = Number(args.every);
const overUs = Number(args.over);
let files = readdirSync(dir)
  .filter((file) => file.endsWith('.json') && (!args.filter || file.includes(args.filter)))
  .sort()
  .filter((_file, i) => i % every === 0);
if (args.limit !== undefined) files = files.slice(0, Number(args.limit));

const setup = await loadEngineSetup();
const { loadTokenizer } = await import('../../src/prompt/tokenizer.js');
const { QWEN3_FOLDER } = await import('./engine-setup.js');
const tokenizer = await loadTokenizer(QWEN3_FOLDER);

interface Bucket {
  times: number[];
  /** CPU time of the process over the mask (user + system), less sensitive to the machine's load. */
  cpuUs: number;
  visited: number;
  examples: string[];
}
const buckets = new Map<string, Bucket>();
/** Compile time of each schema that compiled, in ms (precomputation included, as bench/maskbench.ts times it). */
const compiles: number[] = [];
const all: number[] = [];
let hits = 0;
let cpuTotal = 0;
let missCpu = 0;

/** The current positions of a matcher (a private field: the profile looks inside on purpose). */
const framesOf = (matcher: GrammarMatcher): readonly Frame[] =>
  (matcher as unknown as { current: { frames: Frame[] } }).current.frames;

function leafName(frame: Frame): string {
  const node = frame.node;
  if (node === null) return 'end';
  const name = node.constructor.name;
  return node instanceof StringLeaf && node.isInside(frame.state) ? `${name}(in)` : name;
}

/** The bucket of a position: its leaves on top (sorted, distinct) and how many positions. */
function bucketOf(frames: readonly Frame[]): string {
  const names = [...new Set(frames.map(leafName))].sort().join('+');
  const size = frames.length === 1 ? '1' : frames.length <= 4 ? '2-4' : frames.length <= 16 ? '5-16' : '17+';
  return `${names} [${size}]`;
}

const started = performance.now();
for (const file of files) {
  const document = parsePythonJson(readFileSync(join(dir, file), 'utf8')) as PyObject;
  let grammar: ReturnType<typeof compileSchema>;
  const compileStart = performance.now();
  try {
    grammar = compileSchema(toPlain(document.get('schema') ?? null), setup.vocabulary, MASKBENCH_OPTIONS);
  } catch {
    continue;
  }
  compiles.push(performance.now() - compileStart);
  const buffer = new Uint32Array(grammar.maskWords);
  for (const raw of (document.get('tests') ?? []) as PyValue[]) {
    const test = raw as PyObject;
    if (test.get('valid') !== true) continue;
    const ids = tokenizer.encode(pythonDumps(test.get('data') ?? null));
    const matcher = new GrammarMatcher(grammar);
    for (let step = 0; step <= ids.length; step++) {
      const frames = framesOf(matcher);
      const misses = grammar.stats.misses;
      const visited = grammar.stats.nodesVisited;
      const cpu = process.cpuUsage();
      const t = performance.now();
      matcher.fillMask(buffer);
      const us = (performance.now() - t) * 1000;
      const spent = process.cpuUsage(cpu);
      const cpuUs = spent.user + spent.system;
      cpuTotal += cpuUs;
      all.push(us);
      if (grammar.stats.misses === misses) hits++;
      else {
        const key = bucketOf(frames);
        let bucket = buckets.get(key);
        if (bucket === undefined) {
          bucket = { times: [], cpuUs: 0, visited: 0, examples: [] };
          buckets.set(key, bucket);
        }
        bucket.times.push(us);
        bucket.cpuUs += cpuUs;
        missCpu += cpuUs;
        bucket.visited += grammar.stats.nodesVisited - visited;
        if (us > overUs && bucket.examples.length < 3) {
          const text = new TextDecoder().decode(
            new Uint8Array(ids.slice(0, step).flatMap((id) => [...(setup.vocabulary.tokens[id] ?? [])])),
          );
          bucket.examples.push(`${file} …${JSON.stringify(text.slice(-40))} ${us.toFixed(0)}µs`);
        }
      }
      if (step === ids.length || !matcher.accept(ids[step] as number)) break;
    }
  }
}

const pct = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const sortedAll = [...all].sort((a, b) => a - b);
const over = all.filter((us) => us > overUs).length;
console.log(
  `${files.length} schemas (every ${every}th), ${all.length} masks, ${hits} hits, ${all.length - hits} misses; ` +
    `p50 ${pct(sortedAll, 0.5).toFixed(1)} µs, p90 ${pct(sortedAll, 0.9).toFixed(0)} µs, p99 ${pct(sortedAll, 0.99).toFixed(0)} µs; ` +
    `${over} masks over ${overUs} µs (${((100 * over) / all.length).toFixed(2)}%); ${((performance.now() - started) / 1000).toFixed(0)} s`,
);
const sortedCompiles = [...compiles].sort((a, b) => a - b);
console.log(
  `compile: p50 ${pct(sortedCompiles, 0.5).toFixed(1)} ms, p90 ${pct(sortedCompiles, 0.9).toFixed(1)} ms, ` +
    `p99 ${pct(sortedCompiles, 0.99).toFixed(1)} ms, max ${(sortedCompiles[sortedCompiles.length - 1] ?? 0).toFixed(1)} ms`,
);
const rows = [...buckets.entries()]
  .map(([key, b]) => {
    const sorted = [...b.times].sort((x, y) => x - y);
    return {
      key,
      count: b.times.length,
      over: b.times.filter((us) => us > overUs).length,
      totalMs: b.times.reduce((s, x) => s + x, 0) / 1000,
      cpuMs: b.cpuUs / 1000,
      p50: pct(sorted, 0.5),
      p99: pct(sorted, 0.99),
      nodes: b.visited / b.times.length,
      examples: b.examples,
    };
  })
  .sort((x, y) => y.over - x.over || y.totalMs - x.totalMs);
console.log(
  `CPU time in masks ${(cpuTotal / 1000).toFixed(0)} ms, of which misses ${(missCpu / 1000).toFixed(0)} ms (load: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')})`,
);
console.log(`over ${overUs}µs | misses | total ms | cpu ms | p50 µs | p99 µs | trie nodes/miss | position`);
for (const r of rows.slice(0, 30)) {
  console.log(
    `${String(r.over).padStart(6)} | ${String(r.count).padStart(6)} | ${r.totalMs.toFixed(0).padStart(8)} | ${r.cpuMs.toFixed(0).padStart(6)} | ${r.p50.toFixed(0).padStart(6)} | ${r.p99.toFixed(0).padStart(6)} | ${r.nodes.toFixed(0).padStart(7)} | ${r.key}`,
  );
  if (Number(args.examples) > 0)
    for (const e of r.examples.slice(0, Number(args.examples))) console.log(`         ${e}`);
}
