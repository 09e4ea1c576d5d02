/**
 * Training environments: steps per second against a baseline opponent with 64 episodes in flight, in
 * process (`createEnvironment`) beside the same episodes over OpenEnv's WebSocket protocol
 * (`haggle env serve` in a child process, as a trainer would run it; the clients in this process).
 * The figure is the ratio server / in-process (target ≥ 0.8): what the protocol costs a trainer.
 *
 *   npx tsx bench/env.ts [--episodes 1280] [--lanes 64] [--rounds 4] [--opponent utility-conceder]
 *     [--observation full|minimal]
 *
 * Both sides play the same seeds with the same scripted policy (which reads only the observation), in
 * alternating rounds so the machine's other load moves both; the first round is a warm-up, not counted. Prints a table and one JSON line (last).
 * Beside steps/s it prints CPU microseconds per step of this process (in-process: the environment and the
 * policy; served: the client and the policy) and of the server process (Linux: read from /proc), so a
 * loaded machine's effect on the ratio can be told from the work each side does.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEnvironment } from '../src/env/create-environment.js';
import { connectEnvironment } from '../src/env/env-client.js';
import { generateSuite, saveSuite } from '../src/evaluation/suite.js';
import {
  MULTI_ISSUE_BASELINES,
  type MultiIssueBaselineName,
} from '../src/multi-issue/multi-issue-baseline-registry.js';

function arg(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? (process.argv[index + 1] ?? fallback) : fallback;
}
const EPISODES = Number(arg('episodes', '1280'));
const LANES = Number(arg('lanes', '64'));
const ROUNDS = Number(arg('rounds', '4'));
const OPPONENT = arg('opponent', 'utility-conceder') as MultiIssueBaselineName;
// The server's observation fields (`haggle env serve --observation`); the policy reads no omitted field.
const OBSERVATION = arg('observation', 'full');

type Observation = Record<string, unknown>;

/** A fixed policy (open high, concede a tenth of each range per turn, accept from the fifth turn). */
function policy(seen: object): string {
  const observation = seen as Observation;
  const turn = observation.turn as number;
  const moves = (observation.legal_moves as { action: string }[]).map((m) => m.action);
  if (turn >= 4 && moves.includes('accept')) return '{"action":"accept","offer":null,"message":""}';
  const schema = observation.schema as {
    oneOf: {
      properties: Record<
        string,
        {
          const?: string;
          properties?: Record<string, { enum?: string[]; type?: string; minimum?: number; maximum?: number }>;
        }
      >;
    }[];
  };
  const offer =
    schema.oneOf.find((b) => b.properties.action?.const === 'offer')?.properties.offer?.properties ?? {};
  const values: Record<string, number | string> = {};
  for (const [name, issue] of Object.entries(offer)) {
    if (issue.enum) values[name] = issue.enum[0] as string;
    else {
      const min = issue.minimum ?? 0;
      const max = issue.maximum ?? 0;
      const value = max - (max - min) * Math.min(1, turn / 10);
      values[name] = issue.type === 'integer' ? Math.round(value) : Math.round(value * 100) / 100;
    }
  }
  return JSON.stringify({ action: 'offer', offer: values, message: 'My best offer.' });
}

const suite = generateSuite({ seed: 2026, scenarios: 48, seedsPerPair: 12 });
const environmentOptions = {
  env: 'multi-issue-seller' as const,
  suite,
  opponent: MULTI_ISSUE_BASELINES[OPPONENT](),
  opponentName: OPPONENT,
};

interface Side {
  reset(seed: number): Promise<{ observation: object; done: boolean }>;
  step(text: string): Promise<{ observation: object; done: boolean }>;
}

/** CPU microseconds a process has used (user + system), from /proc; undefined where there is none. */
function processCpuMicros(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // utime and stime, in clock ticks (assumed 100 per second, Linux's USER_HZ on x86 and arm64).
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return undefined;
  }
}

interface Played {
  steps: number;
  seconds: number;
  /** CPU µs per step of this process, and of the server process (undefined in process or without /proc). */
  clientCpuPerStep: number;
  serverCpuPerStep: number | undefined;
}

async function playAll(makeSide: () => Promise<Side>, serverPid?: number): Promise<Played> {
  const sides = await Promise.all(Array.from({ length: LANES }, makeSide));
  let next = 0;
  let steps = 0;
  const cpuBefore = process.cpuUsage();
  const serverBefore = serverPid === undefined ? undefined : processCpuMicros(serverPid);
  const started = process.hrtime.bigint();
  await Promise.all(
    sides.map(async (side) => {
      while (next < EPISODES) {
        let result = await side.reset(next++);
        while (!result.done) {
          result = await side.step(policy(result.observation));
          steps++;
        }
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuBefore);
  const serverAfter = serverPid === undefined ? undefined : processCpuMicros(serverPid);
  return {
    steps,
    seconds,
    clientCpuPerStep: (cpu.user + cpu.system) / steps,
    serverCpuPerStep:
      serverBefore === undefined || serverAfter === undefined
        ? undefined
        : (serverAfter - serverBefore) / steps,
  };
}

async function startServer(): Promise<{ child: ChildProcess; url: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'haggle-bench-env-'));
  const suitePath = join(dir, 'suite.json');
  saveSuite(suitePath, suite);
  const bin = new URL('../src/cli/bin.ts', import.meta.url).pathname;
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      bin,
      'env',
      'serve',
      '--env',
      'multi-issue-seller',
      '--suite',
      suitePath,
      '--opponent',
      OPPONENT,
      '--port',
      '0',
      '--out',
      join(dir, 'episodes.jsonl'),
      '--observation',
      OBSERVATION,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /at (http:\/\/[\d.:]+)/.exec(out)?.[1];
      if (found) resolve(found);
    });
    child.on('exit', (code) => reject(new Error(`haggle env serve exited ${code}`)));
  });
  return { child, url };
}

const { child, url } = await startServer();
const inProcess: number[] = [];
const served: number[] = [];
const inProcessCpu: number[] = [];
const clientCpu: number[] = [];
const serverCpu: number[] = [];
try {
  for (let round = 0; round < ROUNDS; round++) {
    const local = await playAll(async () => {
      const env = createEnvironment(environmentOptions);
      return { reset: (seed) => env.reset({ seed }), step: (text) => env.step(text) };
    });
    // Round 0 warms both sides up (JIT, the server's module loading) and is not counted.
    if (round > 0) {
      inProcess.push(local.steps / local.seconds);
      inProcessCpu.push(local.clientCpuPerStep);
    }
    const clients: Awaited<ReturnType<typeof connectEnvironment>>[] = [];
    const remote = await playAll(async () => {
      const client = await connectEnvironment(url);
      clients.push(client);
      return { reset: (seed) => client.reset({ seed }), step: (text) => client.step({ text }) };
    }, child.pid);
    for (const client of clients) client.close();
    if (round > 0) {
      served.push(remote.steps / remote.seconds);
      clientCpu.push(remote.clientCpuPerStep);
      if (remote.serverCpuPerStep !== undefined) serverCpu.push(remote.serverCpuPerStep);
    }
  }
} finally {
  child.kill('SIGTERM');
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const local = median(inProcess);
const remote = median(served);
const micros = (values: number[]) => (values.length > 0 ? median(values).toFixed(0) : 'n/a');
const rows = [
  [
    'createEnvironment (in-process)',
    local.toFixed(0),
    (1e6 / local).toFixed(0),
    micros(inProcessCpu),
    '-',
    '1.00',
  ],
  [
    'haggle env serve (WebSocket, child process)',
    remote.toFixed(0),
    (1e6 / remote).toFixed(0),
    micros(clientCpu),
    micros(serverCpu),
    (remote / local).toFixed(2),
  ],
];
console.log(
  `${EPISODES} episodes x ${ROUNDS - 1} counted rounds (after a warm-up), ${LANES} in flight, opponent ${OPPONENT}, observation ${OBSERVATION}; ${cpus().length} CPUs, load ${loadavg()[0]?.toFixed(1)}`,
);
console.log(
  '| side | steps/s (median) | wall µs/step | this process CPU µs/step | server CPU µs/step | ratio to in-process |',
);
console.log('|---|---:|---:|---:|---:|---:|');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
console.log(
  JSON.stringify({
    bench: 'env',
    episodes: EPISODES,
    lanes: LANES,
    rounds: ROUNDS,
    opponent: OPPONENT,
    observation: OBSERVATION,
    inProcessStepsPerSecond: inProcess,
    serverStepsPerSecond: served,
    inProcessCpuMicrosPerStep: inProcessCpu,
    clientCpuMicrosPerStep: clientCpu,
    serverCpuMicrosPerStep: serverCpu,
    ratio: remote / local,
  }),
);
