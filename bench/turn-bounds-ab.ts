// A/B/C of the turn bounds (issue 28): the fixture model on both sides, `haggle simulate --backend onnx`
// as a user runs it, on this repository and on source trees of earlier commits (peers), the same
// listings, the same seeds, the same model folder, on the same machine. The listings are split into
// chunks; each chunk is played by every tree in turn, the order rotating from chunk to chunk, so a
// change in the machine's load falls on all of them alike. Reports per tree: CPU seconds (user + sys
// of the CLI process, its ONNX work included), wall seconds, turns, the longest label and message, the
// largest response_time, the turns past a bound, illegal turns and errors; then the CPU ratio of each
// peer to this tree, and one JSON line.
//   npx tsx bench/turn-bounds-ab.ts --model DIR --peer NAME=TREE [--peer ...] [--sessions 200]
//        [--chunk 20] [--seed 1] [--out DIR]
// TREE is a source tree of another commit with node_modules (e.g. `git archive a636554 | tar -x -C
// /tmp/before` and a node_modules link); its CLI runs from source through tsx, as this one does.
// Linux: CPU time is read from /usr/bin/time.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { generateContexts } from '../src/simulation/synthetic-contexts.js';
import { requiredModelFolder } from './shared/bare-model.js';

// The bounds of this tree (haggle's choices, src/contract/turn-rules.ts), counted in every tree's run.
const MAX_LABEL_LENGTH = 48;
const MAX_MESSAGE_LENGTH = 500;
const MAX_RESPONSE_HOURS = 720;

const { values: args } = parseArgs({
  options: {
    model: { type: 'string' },
    peer: { type: 'string', multiple: true, default: [] },
    sessions: { type: 'string', default: '200' },
    chunk: { type: 'string', default: '20' },
    seed: { type: 'string', default: '1' },
    out: { type: 'string', default: 'runs/turn-bounds-ab' },
  },
});
const model = resolve(requiredModelFolder(args.model));
const sessions = Number(args.sessions);
const chunk = Number(args.chunk);
const seed = Number(args.seed);
const outDir = resolve(args.out as string);
if (!existsSync('/usr/bin/time')) {
  console.error('this bench reads CPU time from /usr/bin/time (Linux): install it (apt-get install time)');
  process.exit(2);
}
const trees: { name: string; root: string }[] = [{ name: 'this tree', root: process.cwd() }];
for (const spec of args.peer as string[]) {
  const [name, root] = spec.split('=');
  if (!name || !root || !existsSync(join(root, 'src', 'cli', 'bin.ts'))) {
    console.error(`--peer must be NAME=TREE, a source tree with src/cli/bin.ts; got ${spec}`);
    process.exit(2);
  }
  trees.push({ name, root: resolve(root) });
}

interface Totals {
  cpu: number;
  wall: number;
  sessions: number;
  finished: number;
  errors: number;
  illegal: number;
  turns: number;
  longestLabel: number;
  longestMessage: number;
  messageChars: number;
  messages: number;
  largestResponse: number;
  labelsOver: number;
  messagesOver: number;
  responsesOver: number;
}
const totals = new Map<string, Totals>(
  trees.map((t) => [
    t.name,
    {
      cpu: 0,
      wall: 0,
      sessions: 0,
      finished: 0,
      errors: 0,
      illegal: 0,
      turns: 0,
      longestLabel: 0,
      longestMessage: 0,
      messageChars: 0,
      messages: 0,
      largestResponse: 0,
      labelsOver: 0,
      messagesOver: 0,
      responsesOver: 0,
    },
  ]),
);

/** What a run file holds, counted here (not by either tree's own summary), against this tree's bounds. */
function count(file: string, into: Totals): void {
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const record = JSON.parse(line);
    if (record.type !== 'session') continue;
    into.sessions++;
    if (record.outcome.reason === 'error' || record.outcome.reason === 'aborted') into.errors++;
    else into.finished++;
    for (const entry of record.turns) {
      const turn = entry.turn;
      into.turns++;
      if (entry.violation) into.illegal++;
      for (const label of turn.message_labels) {
        into.longestLabel = Math.max(into.longestLabel, label.length);
        if (label.length > MAX_LABEL_LENGTH) into.labelsOver++;
      }
      if (turn.message !== '') {
        into.messages++;
        into.messageChars += turn.message.length;
      }
      into.longestMessage = Math.max(into.longestMessage, turn.message.length);
      if (turn.message.length > MAX_MESSAGE_LENGTH) into.messagesOver++;
      into.largestResponse = Math.max(into.largestResponse, turn.response_time);
      if (turn.response_time > MAX_RESPONSE_HOURS) into.responsesOver++;
    }
  }
}

mkdirSync(outDir, { recursive: true });
const contexts = generateContexts({ count: sessions, seed });
const chunks = Math.ceil(sessions / chunk);
console.error(
  `turn-bounds-ab: ${sessions} sessions in ${chunks} chunks of ${chunk}, seed ${seed}, model ${model}, load ${loadavg()[0]?.toFixed(1)}`,
);
for (let c = 0; c < chunks; c++) {
  const file = join(outDir, `contexts-${c}.json`);
  writeFileSync(file, JSON.stringify(contexts.slice(c * chunk, (c + 1) * chunk)));
  // Rotate the order so no tree always goes first (or last) in a chunk.
  const order = trees.map((_, i) => trees[(i + c) % trees.length] as (typeof trees)[number]);
  for (const tree of order) {
    const out = join(outDir, `${tree.name.replace(/\W+/g, '-')}-${c}.jsonl`);
    const started = performance.now();
    const result = spawnSync(
      '/usr/bin/time',
      [
        '-f',
        'cpu %U %S',
        process.execPath,
        '--import',
        'tsx',
        join(tree.root, 'src', 'cli', 'bin.ts'),
        'simulate',
        '--backend',
        'onnx',
        '--model',
        model,
        '--contexts',
        file,
        '--seed',
        String(seed + c),
        '--no-progress',
        '--json',
        '--out',
        out,
        '--overwrite',
      ],
      { cwd: tree.root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
    );
    const wall = (performance.now() - started) / 1000;
    const cpuLine = /cpu ([\d.]+) ([\d.]+)/.exec(result.stderr ?? '');
    if (result.status !== 0 || !cpuLine) {
      console.error(`${tree.name}, chunk ${c}: exit ${result.status}\n${result.stderr}`);
      process.exit(1);
    }
    const t = totals.get(tree.name) as Totals;
    t.cpu += Number(cpuLine[1]) + Number(cpuLine[2]);
    t.wall += wall;
    count(out, t);
    console.error(
      `  chunk ${c + 1}/${chunks} ${tree.name}: ${wall.toFixed(1)} s wall, load ${loadavg()[0]?.toFixed(1)}`,
    );
  }
}

const base = totals.get('this tree') as Totals;
const rows = trees.map(({ name }) => {
  const t = totals.get(name) as Totals;
  return {
    tree: name,
    ...t,
    cpuRatio: t.cpu / base.cpu,
  };
});
const commit = (root: string) => {
  try {
    return execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return '(not a git tree)';
  }
};
console.log(`this tree: ${commit(process.cwd())}; ${sessions} sessions, seed ${seed}`);
console.log(
  '| tree | CPU s | wall s | CPU vs this tree | sessions finished | errors | illegal turns | turns | longest label | longest message | mean message | largest response_time | labels > 48 | messages > 500 | response_time > 720 h |',
);
console.log(
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
);
for (const r of rows) {
  console.log(
    `| ${r.tree} | ${r.cpu.toFixed(1)} | ${r.wall.toFixed(1)} | ${r.cpuRatio.toFixed(2)}x | ${r.finished} of ${r.sessions} | ${r.errors} | ${r.illegal} | ${r.turns} | ${r.longestLabel} | ${r.longestMessage} | ${r.messages ? (r.messageChars / r.messages).toFixed(0) : '–'} | ${r.largestResponse} | ${r.labelsOver} | ${r.messagesOver} | ${r.responsesOver} |`,
  );
}
console.log(JSON.stringify({ bench: 'turn-bounds-ab', sessions, seed, chunk, rows }));
