// Where haggle's MaskBench mask time goes: runs a sample of the dev set in this process (no worker, no
// XGrammar), walks every valid test's tokens through mask() and accept() as bench/maskbench.ts does,
// and buckets each mask that missed the grammar's caches by what the position is: the leaf on top (or
// the leaves, for a set of positions), inside or outside a string, how many positions the set holds.
// Prints, per bucket, how many misses, their total and p50/p99 time, and how many took over 533 µs
// (llguidance's published p99, issue 19's target), so the slowest kinds of position show first.
// Then the tail band (issue 45): every mask at or above the sample's p90 (and p99), cached or not,
// attributed by kind of grammar state (a cache hit; a first visit inside a string that walked the
// whole trie for a new string state, or read the shared inside mask; a key of a large object; a number
// with bounds; several positions at once, an anyOf's fan-out; ...), by schema family, and whether a
// garbage collection pause (a PerformanceObserver 'gc' entry) overlapped the mask.
//   npx tsx bench/maskbench/profile.ts [--dir DIR] [--every N] [--filter SUBSTR] [--limit N] [--over US]
//                                      [--examples N] [--all-tests]
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { compileSchema } from '../../src/decoding/compiler/grammar-compiler.js';
import { KeyLeaf } from '../../src/decoding/grammar/key-leaf.js';
import { NumberLeaf } from '../../src/decoding/grammar/number-leaf.js';
import type { Frame } from '../../src/decoding/grammar/stack-machine.js';
import { StringLeaf } from '../../src/decoding/grammar/string-leaf.js';
import { isInsideString } from '../../src/decoding/mask/frame-kinds.js';
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
    // Invalid tests too, as bench/maskbench.ts walks them (each until its first refused token).
    'all-tests': { type: 'boolean', default: false },
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

/** Every mask of the run, for the tail band: its time, when it started, its kind and schema family. */
const tail = { us: [] as number[], start: [] as number[], kind: [] as string[], family: [] as string[] };
/** Garbage collection pauses seen while the sample ran (start, end; performance.now() time). */
const pauses: Array<[number, number]> = [];
const gcObserver = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) pauses.push([entry.startTime, entry.startTime + entry.duration]);
});
gcObserver.observe({ entryTypes: ['gc'] });

/** A schema's family: its file name up to the number or `---` id (`Github_hard---o123` → `Github_hard`). */
const familyOf = (file: string) => file.replace(/(---.*|_\d+)?\.json$/, '');

interface InsideCounts {
  whole: { size: number; evictions: number };
  below: { size: number; evictions: number };
}
/** Entries the shared inside-string cache made so far (a private field: looked at on purpose). */
function insideMade(grammar: ReturnType<typeof compileSchema>): number {
  const inside = (grammar as unknown as { inside: InsideCounts }).inside;
  return inside.whole.size + inside.whole.evictions + inside.below.size + inside.below.evictions;
}

/** Over this many names, a key's trie counts as a large object's. */
const LARGE_OBJECT_NAMES = 32;

/**
 * The kind of grammar state a mask was for, for the tail band: a hit of either cache, or for a miss
 * what its walk had to do (`newInside`: it made an entry of the shared inside-string cache, i.e.
 * walked the vocabulary for a string or key state no grammar had met before).
 */
function kindOf(frames: readonly Frame[], missed: boolean, newInside: boolean): string {
  if (!missed) return 'cached (hit of either cache)';
  const inside = newInside ? 'new inside state (whole-trie walk)' : 'shared inside mask + quote tokens';
  if (frames.length > 1) {
    return frames.some(isInsideString)
      ? `several positions (anyOf fan-out), in strings: ${inside}`
      : 'several positions (anyOf fan-out), outside strings';
  }
  const top = frames[0] as Frame;
  const leaf = top.node;
  if (leaf instanceof KeyLeaf && leaf.isInside(top.state)) {
    const large =
      leaf.trie.size > LARGE_OBJECT_NAMES ? `key of a large object (>${LARGE_OBJECT_NAMES} names)` : 'key';
    return `${large}: ${inside}`;
  }
  if (leaf instanceof StringLeaf && leaf.isInside(top.state)) {
    const kind = leaf.options.pattern !== null ? 'pattern string' : 'free string';
    return `${kind}: ${inside}`;
  }
  if (leaf instanceof NumberLeaf) {
    const { lower, upper, multipleOf } = leaf.options;
    return lower || upper || multipleOf !== undefined ? 'number with bounds' : 'number';
  }
  return `outside strings: ${leaf === null ? 'end' : leaf.constructor.name}`;
}

const started = performance.now();
for (const file of files) {
  // Let the collector's observer deliver its entries between schemas.
  await new Promise((resolve) => setImmediate(resolve));
  const family = familyOf(file);
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
    if (test.get('valid') !== true && !args['all-tests']) continue;
    const ids = tokenizer.encode(pythonDumps(test.get('data') ?? null));
    const matcher = new GrammarMatcher(grammar);
    for (let step = 0; step <= ids.length; step++) {
      const frames = framesOf(matcher);
      const misses = grammar.stats.misses;
      const visited = grammar.stats.nodesVisited;
      const made = insideMade(grammar);
      const cpu = process.cpuUsage();
      const t = performance.now();
      matcher.fillMask(buffer);
      const us = (performance.now() - t) * 1000;
      const spent = process.cpuUsage(cpu);
      const cpuUs = spent.user + spent.system;
      cpuTotal += cpuUs;
      all.push(us);
      tail.us.push(us);
      tail.start.push(t);
      tail.kind.push(kindOf(frames, grammar.stats.misses !== misses, insideMade(grammar) !== made));
      tail.family.push(family);
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

// The tail band: which kinds of state and which families the masks at or above p90 (and p99) are.
await new Promise((resolve) => setImmediate(resolve));
gcObserver.disconnect();
pauses.sort((a, b) => a[0] - b[0]);
/** Whether a pause overlapped [from, to] (binary search over the sorted pauses). */
function overlapsPause(from: number, to: number): boolean {
  let lo = 0;
  let hi = pauses.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((pauses[mid] as [number, number])[1] < from) lo = mid + 1;
    else hi = mid;
  }
  const pause = pauses[lo];
  return pause !== undefined && pause[0] <= to;
}
const p90 = pct(sortedAll, 0.9);
const p99 = pct(sortedAll, 0.99);
interface BandRow {
  masks: number;
  band: number;
  bandUs: number;
  top: number;
  gc: number;
}
function band(by: string[]): Array<[string, BandRow]> {
  const rows = new Map<string, BandRow>();
  for (let i = 0; i < tail.us.length; i++) {
    const key = by[i] as string;
    let row = rows.get(key);
    if (row === undefined) {
      row = { masks: 0, band: 0, bandUs: 0, top: 0, gc: 0 };
      rows.set(key, row);
    }
    row.masks++;
    const us = tail.us[i] as number;
    if (us < p90) continue;
    row.band++;
    row.bandUs += us;
    if (us >= p99) row.top++;
    const from = tail.start[i] as number;
    if (overlapsPause(from, from + us / 1000)) row.gc++;
  }
  return [...rows.entries()].filter(([, r]) => r.band > 0).sort((a, b) => b[1].bandUs - a[1].bandUs);
}
const bandCount = tail.us.filter((us) => us >= p90).length;
const bandUs = tail.us.reduce((sum, us) => (us >= p90 ? sum + us : sum), 0);
const topCount = tail.us.filter((us) => us >= p99).length;
const gcMs = pauses.reduce((sum, [a, b]) => sum + b - a, 0);
console.log(
  `\nTail band: ${bandCount} masks at or above p90 (${p90.toFixed(0)} µs), ${topCount} at or above p99 (${p99.toFixed(0)} µs); ` +
    `${pauses.length} GC pauses, ${gcMs.toFixed(0)} ms in all`,
);
for (const [title, by] of [
  ['kind of grammar state', tail.kind],
  ['schema family', tail.family],
] as const) {
  console.log(`\n| ${title} | masks | ≥ p90 | share of the band's time | ≥ p99 | ≥ p90 with a GC pause |`);
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  for (const [key, r] of band(by)) {
    const share = `${((100 * r.bandUs) / bandUs).toFixed(1)}%`;
    console.log(
      `| ${key} | ${r.masks} | ${r.band} (${((100 * r.band) / bandCount).toFixed(1)}%) | ${share} | ${r.top} | ${r.gc} |`,
    );
  }
}
