import { type ChildProcess, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectEnvironment } from '../../src/env/env-client.js';
import { generateSuite, saveSuite } from '../../src/evaluation/suite.js';
import { DATA_CEILING } from '../cli/ceiling-cli.js';
import { startEnvServe } from './env-serve-process.js';
import { scriptedPolicy } from './policies.js';
import { clientFrame, closePayload, OPCODE, type RawWebSocket, rawWebSocket } from './raw-websocket.js';

// Floods made of frames rather than messages (issue 40), against the real CLI under a memory ceiling
// (RLIMIT_DATA, as test/cli/ceiling-cli.ts) and a kill timer. With the hand-written framing each took
// the machine's memory: millions of empty continuation frames (RSS 76 MB -> 3.3 GB, never closed),
// one-byte fragments each padded to its own socket chunk with pongs (-> 1.9 GB for 30 KB of payload),
// pings from a client that never reads (pongs written without back-pressure, -> 3.4 GB). Each must now
// end with the server closing the connection, its peak RSS under GROWTH_LIMIT_MIB above where it began.

const KILL_AFTER_MS = 280_000;
/** haggle's bound for these tests: the server's peak RSS may rise this much during one flood. */
const GROWTH_LIMIT_MIB = 64;

let child: ChildProcess;
let url: URL;
let stdout: () => string = () => '';
beforeAll(async () => {
  if (spawnSync('prlimit', ['--version']).status !== 0)
    throw new Error('these tests need prlimit (util-linux) on the PATH');
  const dir = mkdtempSync(join(tmpdir(), 'haggle-env-frame-flood-'));
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

const status = () => readFileSync(`/proc/${child.pid}/status`, 'utf8');
const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status())?.[1]);

/**
 * Runs `attack` and returns how far the server's peak RSS rose above its RSS before it, in MiB: the
 * peak (VmHWM) is reset first (`clear_refs` 5), so a flood that grew memory and freed it still counts.
 */
async function peakGrowthMiB(attack: () => Promise<void>): Promise<number> {
  writeFileSync(`/proc/${child.pid}/clear_refs`, '5');
  const before = kib('VmRSS');
  await attack();
  return (kib('VmHWM') - before) / 1024;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Writes `next()` blocks while the client's own buffer has room, until the server closes the
 * connection or `maxBytes` are sent; then, for a client that does not read, keeps poking until the
 * server's drop shows (a paused socket learns of it on a write). Returns the bytes sent.
 */
async function pour(client: RawWebSocket, next: () => Buffer, maxBytes: number): Promise<number> {
  let sent = 0;
  while (sent < maxBytes && !client.closed()) {
    if (client.socket.writableLength < 4 * 1024 * 1024) {
      const block = next();
      client.socket.write(block);
      sent += block.length;
      // Let the socket's events (the server's close, a write error) in between blocks.
      await new Promise((resolve) => setImmediate(resolve));
    } else await pause(5);
  }
  for (let i = 0; i < 150 && !client.closed(); i++) {
    if (!client.socket.destroyed) client.socket.write(clientFrame(OPCODE.ping));
    await pause(100);
  }
  return sent;
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
  client.close();
}

describe('haggle env serve against frame floods (a child process under prlimit)', () => {
  it('closes a message of millions of empty continuation frames (1008); memory stays flat', async () => {
    let client: RawWebSocket | undefined;
    const growth = await peakGrowthMiB(async () => {
      client = await rawWebSocket(Number(url.port), url.hostname);
      client.socket.write(clientFrame(OPCODE.text, Buffer.alloc(0), { fin: false }));
      // 174,762 empty masked continuation frames (6 bytes each) per MiB; 200 MB is 35 million.
      const empty = clientFrame(OPCODE.continuation, Buffer.alloc(0), { fin: false });
      const block = Buffer.concat(Array.from({ length: 174_762 }, () => empty));
      await pour(client, () => block, 200 * 1024 * 1024);
    });
    expect(client?.closed()).toBe(true);
    expect(client?.closeCode()).toBe(1008);
    expect(growth).toBeLessThan(GROWTH_LIMIT_MIB);
    await stillServes();
  }, 120_000);

  it('closes one-byte fragments padded with pongs long before --max-message-bytes of payload; memory stays flat', async () => {
    let client: RawWebSocket | undefined;
    let sent = 0;
    const growth = await peakGrowthMiB(async () => {
      client = await rawWebSocket(Number(url.port), url.hostname);
      client.socket.write(clientFrame(OPCODE.text, Buffer.from('{'), { fin: false }));
      // Each one-byte fragment behind 64 KiB of 125-byte pongs, so each lands in a socket chunk of its own.
      const pongs = Buffer.concat(
        Array.from({ length: 500 }, () => clientFrame(OPCODE.pong, Buffer.alloc(125))),
      );
      const fragment = clientFrame(OPCODE.continuation, Buffer.from(' '), { fin: false });
      const block = Buffer.concat([pongs, fragment]);
      // 30,000 fragments: 30 KB of payload in 2 GB of frames.
      sent = await pour(client, () => block, 30_000 * block.length);
    });
    expect(client?.closed()).toBe(true);
    expect(client?.closeCode()).toBe(1008);
    expect(sent).toBeLessThan(30_000 * 65_500);
    expect(growth).toBeLessThan(GROWTH_LIMIT_MIB);
    await stillServes();
  }, 150_000);

  it('closes a client that pings and never reads; memory stays flat', async () => {
    let client: RawWebSocket | undefined;
    const growth = await peakGrowthMiB(async () => {
      client = await rawWebSocket(Number(url.port), url.hostname, { read: false });
      const pings = Buffer.concat(
        Array.from({ length: 512 }, () => clientFrame(OPCODE.ping, Buffer.alloc(125))),
      );
      await pour(client, () => pings, 256 * 1024 * 1024);
    });
    expect(client?.closed()).toBe(true);
    client?.socket.destroy();
    expect(growth).toBeLessThan(GROWTH_LIMIT_MIB);
    await stillServes();
  }, 120_000);

  it('answers close code 0 (which RFC 6455 forbids) with 1002 instead of echoing it', async () => {
    const client = await rawWebSocket(Number(url.port), url.hostname);
    client.socket.write(clientFrame(OPCODE.close, closePayload(0)));
    await client.gone;
    expect(client.closeCode()).toBe(1002);
  }, 30_000);

  it('counts each flood as one connection closed for flooding in the stop line', async () => {
    // 'close', not 'exit': the stop line is read from stdout, which may still be draining at 'exit'.
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    // Close code 0 is a protocol error, not a flood; no flood got an error answer.
    expect(stdout()).toContain(
      '(0 error answers, 0 reaped idle, 0 refused at capacity, 3 closed for flooding)',
    );
  }, 30_000);
});
