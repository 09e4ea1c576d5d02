import { type ChildProcess, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectEnvironment } from '../../src/env/env-client.js';
import { MAX_UNANSWERED } from '../../src/env/env-server.js';
import { generateSuite, saveSuite } from '../../src/evaluation/suite.js';
import { DATA_CEILING } from '../cli/ceiling-cli.js';
import { startEnvServe } from './env-serve-process.js';
import { scriptedPolicy } from './policies.js';
import { clientFrame, OPCODE } from './raw-websocket.js';

// A client that sends and never reads its answers: before, each answer (~6 KB) stayed in the server's
// memory, 100,000 messages took 700 MB and a few more would end the server and every episode on it.
// The server is the real CLI under a memory ceiling (RLIMIT_DATA, as in test/cli/hostile-files.test.ts)
// and a kill timer, so a regression fails here instead of taking the machine down.

const KILL_AFTER_MS = 170_000;
/** haggle's bound for these tests: the server's RSS may grow this much under either flood. */
const GROWTH_LIMIT_MIB = 64;

let child: ChildProcess;
let url: URL;
let stdout: () => string = () => '';
let secondClosed = false;
beforeAll(async () => {
  if (spawnSync('prlimit', ['--version']).status !== 0)
    throw new Error('these tests need prlimit (util-linux) on the PATH');
  const dir = mkdtempSync(join(tmpdir(), 'haggle-env-flood-'));
  const suite = join(dir, 'suite.json');
  saveSuite(suite, generateSuite({ seed: 3, scenarios: 4, seedsPerPair: 2 }));
  const server = await startEnvServe(
    ['--env', 'multi-issue-seller', '--suite', suite, '--opponent', 'utility-conceder'],
    { ceiling: { dataBytes: DATA_CEILING, killAfterMs: KILL_AFTER_MS } },
  );
  child = server.child;
  url = new URL(server.url);
  stdout = server.stdout;
}, 70_000);
afterAll(() => {
  child?.kill('SIGKILL');
});

/** The server's resident memory in MiB (prlimit execs it: the child's own pid). */
function serverRssMiB(): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
}

/** A WebSocket on `/ws` that reads nothing the server sends; `closed` turns true when the server drops it. */
async function nonReadingClient(): Promise<{ socket: Socket; closed: () => boolean }> {
  const socket = connect(Number(url.port), url.hostname);
  socket.pause();
  let closed = false;
  socket.on('close', () => (closed = true));
  socket.on('error', () => (closed = true));
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write(
    `GET /ws HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
  );
  return { socket, closed: () => closed };
}

const RESET = clientFrame(OPCODE.text, Buffer.from('{"type":"reset","data":{"seed":1}}'));

/** Sends `total` resets in bursts of `burst`, a pause between bursts, reading nothing. */
async function flood(burst: number, total: number): Promise<{ sent: number; closed: boolean }> {
  const client = await nonReadingClient();
  let sent = 0;
  const frames = Buffer.concat(Array.from({ length: burst }, () => RESET));
  while (sent < total && !client.closed()) {
    // The client's own buffer fills once the server stops reading: then only wait.
    if (client.socket.writableLength < 4 * 1024 * 1024) {
      client.socket.write(frames);
      sent += burst;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  // A server that closes drops a peer that does not take its close within 5 s (CLOSE_LINGER_MS);
  // a paused socket learns of it on its next write.
  for (let i = 0; i < 100 && !client.closed(); i++) {
    client.socket.write(RESET);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const closed = client.closed();
  client.socket.destroy();
  return { sent, closed };
}

/** The server still plays an episode for a well-behaved client. */
async function stillServes(): Promise<void> {
  const health = await fetch(new URL('/health', url));
  expect(health.status).toBe(200);
  const client = await connectEnvironment(url.href.replace(/\/$/, ''));
  const policy = scriptedPolicy('seller');
  let result = await client.reset({ seed: 5 });
  while (!result.done) result = await client.step({ text: policy(result.observation) });
  expect(typeof result.reward).toBe('number');
  await client.close();
}

describe('haggle env serve against clients that do not read (a child process under prlimit)', () => {
  it(`closes a connection with more than ${MAX_UNANSWERED} messages unanswered; memory stays flat`, async () => {
    const before = serverRssMiB();
    const { closed } = await flood(500, 60_000);
    expect(closed).toBe(true);
    expect(serverRssMiB() - before).toBeLessThan(GROWTH_LIMIT_MIB);
    await stillServes();
  }, 120_000);

  it('stops reading from a client that sends within the limit but never reads; memory stays flat', async () => {
    const before = serverRssMiB();
    // Bursts under the limit: what bounds memory here is the server pausing its reads (TCP backpressure).
    const { sent, closed } = await flood(Math.floor(MAX_UNANSWERED / 2), 30_000);
    // Never reading, this client too ends up past the limit once the server resumes reading.
    secondClosed = closed;
    expect(sent).toBeGreaterThan(10_000);
    expect(serverRssMiB() - before).toBeLessThan(GROWTH_LIMIT_MIB);
    await stillServes();
  }, 120_000);

  it('counts the flood as one connection closed for flooding, not as error answers, in the stop line', async () => {
    // 'close', not 'exit': the stop line is read from stdout, which may still be draining at 'exit'.
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // One count per flooding connection, however many frames it had sent past the limit; the
    // episodes played by well-behaved clients answered no errors.
    const flooded = secondClosed ? 2 : 1;
    expect(stdout()).toContain(
      `(0 error answers, 0 reaped idle, 0 refused at capacity, ${flooded} closed for flooding)`,
    );
  }, 30_000);
});
