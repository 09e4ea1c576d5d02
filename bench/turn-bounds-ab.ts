// A/B/C of the turn bounds (issue 28): the fixture model on both sides, `haggle simulate --backend onnx`
// as a user runs it, on this repository and on source trees of earlier commits (peers), the same
// listings, the same seeds, the same model folder, on the same machine. The listings are split into
// chunks; each chunk is played by every tree in turn, the order rotating from chunk to chunk, so a
// change in the machine's load falls on all of them alike. Reports per tree: CPU seconds (user + sys
// of the CLI process, its ONNX work included), wall seconds, turns, the longest label and message, the
// largest response_time, the turns past a bound, illegal turns and errors; then the CPU ratio of each
// peer to this tree on the sessions both played, and one JSON line. Peers are slower (that is the
// point), so `--peer-sessions N` lets them play only the first N sessions (whole chunks) while this
// tree plays all of them: the ratio stands on the first N, the bounds on all.
//   npx tsx bench/turn-bounds-ab.ts --model DIR --peer NAME=TREE [--peer ...] [--sessions 200]
//        [--peer-sessions N] [--chunk 20] [--seed 1] [--out DIR]
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
    'peer-sessions': { type: 'string' },
    chunk: { type: 'string', default: '20' },
    seed: { type: 'string', default: '1' },
    out: { type: 'string', default: 'runs/turn-bounds-ab' },
  },
});
const model = resolve(requiredModelFolder(args.model));
const sessions = Number(args.sessions);
const peerSessions = Number(args['peer-sessions'] ?? args.sessions);
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
const empty = (): Totals => ({
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
});
/** Per tree, over the chunks every tree played: what the ratio stands on. */
const totals = new Map<string, Totals>(trees.map((t) => [t.name, empty()]));
/** This tree over every chunk: what the bounds are checked on. */
const allOfThisTree = empty();

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

function add(into: Totals, from: Totals): void {
  for (const key of Object.keys(into) as (keyof Totals)[]) {
    into[key] =
      key.startsWith('longest') || key === 'largestResponse'
        ? Math.max(into[key], from[key])
        : into[key] + from[key];
  }
}

mkdirSync(outDir, { recursive: true });
const contexts = generateContexts({ count: sessions, seed });
const chunks = Math.ceil(sessions / chunk);
const sharedChunks = Math.ceil(Math.min(peerSessions, sessions) / chunk);
console.error(
  `turn-bounds-ab: ${sessions} sessions in ${chunks} chunks of ${chunk} (peers: the first ${sharedChunks}), seed ${seed}, model ${model}, load ${loadavg()[0]?.toFixed(1)}`,
);
for (let c = 0; c < chunks; c++) {
  const file = join(outDir, `contexts-${c}.json`);
  writeFileSync(file, JSON.stringify(contexts.slice(c * chunk, (c + 1) * chunk)));
  // Rotate the order so no tree always goes first (or last) in a chunk.
  const players = c < sharedChunks ? trees : trees.slice(0, 1);
  const order = players.map((_, i) => players[(i + c) % players.length] as (typeof trees)[number]);
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
    const cpu = Number(cpuLine[1]) + Number(cpuLine[2]);
    const here = empty();
    here.cpu = cpu;
    here.wall = wall;
    count(out, here);
    const into = [...(c < sharedChunks ? [totals.get(tree.name) as Totals] : [])];
    if (tree === trees[0]) into.push(allOfThisTree);
    for (const t of into) add(t, here);
    // One line per chunk, so a run cut short still says what it measured.
    console.error(
      `  chunk ${c + 1}/${chunks} ${tree.name}: load ${loadavg()[0]?.toFixed(1)} ${JSON.stringify(here)}`,
    );
  }
}

const base = totals.get('this tree') as Totals;
const rows = [
  ...trees.map(({ name }) => {
    const t = totals.get(name) as Totals;
    return { tree: name, ...t, cpuRatio: t.cpu / base.cpu };
  }),
  ...(sharedChunks < chunks
    ? [{ tree: 'this tree, all sessions', ...allOfThisTree, cpuRatio: Number.NaN }]
    : []),
];
const commit = (root: string) => {
  try {
    return execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return '(not a git tree)';
  }
};
console.log(
  `this tree: ${commit(process.cwd())}; ${sessions} sessions, seed ${seed}; peers and the ratio: the first ${Math.min(sessions, sharedChunks * chunk)}`,
);
console.log(
  '| tree | CPU s | wall s | CPU vs this tree | sessions finished | errors | illegal turns | turns | longest label | longest message | mean message | largest response_time | labels > 48 | messages > 500 | response_time > 720 h |',
);
console.log(
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
);
for (const r of rows) {
  console.log(
    `| ${r.tree} | ${r.cpu.toFixed(1)} | ${r.wall.toFixed(1)} | ${Number.isNaN(r.cpuRatio) ? '–' : `${r.cpuRatio.toFixed(2)}x`} | ${r.finished} of ${r.sessions} | ${r.errors} | ${r.illegal} | ${r.turns} | ${r.longestLabel} | ${r.longestMessage} | ${r.messages ? (r.messageChars / r.messages).toFixed(0) : '–'} | ${r.largestResponse} | ${r.labelsOver} | ${r.messagesOver} | ${r.responsesOver} |`,
  );
}
console.log(JSON.stringify({ bench: 'turn-bounds-ab', sessions, peerSessions, seed, chunk, rows }));
