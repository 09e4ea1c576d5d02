import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { connectEnvironment } from '../../src/env/env-client.js';
import { generateSuite, saveSuite } from '../../src/evaluation/suite.js';
import { readTournamentFile } from '../../src/evaluation/tournament-file.js';
import { scriptedPolicy } from './policies.js';

const BIN = new URL('../../src/cli/bin.ts', import.meta.url).pathname;
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function startServer(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', BIN, 'env', 'serve', '--port', '0', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`no URL in 60 s; stderr: ${stderr}`)), 60_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /at (http:\/\/[\d.:]+)/.exec(stdout)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ child, url });
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`haggle env serve exited ${code}: ${stderr}`));
    });
  });
}

it('`haggle env serve`: every episode a client saw finish is on file after SIGKILL of the server', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'haggle-env-cli-'));
  const suitePath = join(dir, 'suite.json');
  const out = join(dir, 'episodes.jsonl');
  saveSuite(suitePath, generateSuite({ seed: 7, scenarios: 10, seedsPerPair: 4 }));
  const { child, url } = await startServer([
    '--env',
    'multi-issue-seller',
    '--suite',
    suitePath,
    '--opponent',
    'utility-tit-for-tat',
    '--out',
    out,
  ]);
  const finished = new Set<string>();
  let killed = false;
  // 8 clients play until the server dies under them; it is killed once 60 episodes have finished.
  await Promise.all(
    Array.from({ length: 8 }, async (_, lane) => {
      const client = await connectEnvironment(url);
      const policy = scriptedPolicy('seller');
      try {
        for (let n = 0; ; n++) {
          const id = `lane${lane}-${n}`;
          let result = await client.reset({ seed: lane * 1000 + n, episode_id: id });
          while (!result.done) result = await client.step({ text: policy(result.observation) });
          finished.add(id);
          if (finished.size >= 60 && !killed) {
            killed = true;
            child.kill('SIGKILL');
          }
        }
      } catch {
        // the connection died with the server
      }
    }),
  );
  expect(killed).toBe(true);
  await new Promise((resolve) =>
    child.exitCode !== null || child.signalCode ? resolve(null) : child.on('exit', resolve),
  );
  const file = readTournamentFile(out);
  expect(file.header?.config).toMatchObject({ env: 'multi-issue-seller' });
  const onFile = new Set(
    file.records.map((record) => (record as unknown as { episode: { id: string } }).episode.id),
  );
  for (const id of finished) expect(onFile.has(id), `episode ${id}`).toBe(true);
  expect(file.records.length).toBeGreaterThanOrEqual(finished.size);
}, 120_000);

it('two `haggle env serve` on one --out: the second is refused with the first named; the lock goes with the first', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'haggle-env-cli-'));
  const suitePath = join(dir, 'suite.json');
  const out = join(dir, 'episodes.jsonl');
  saveSuite(suitePath, generateSuite({ seed: 7, scenarios: 4, seedsPerPair: 2 }));
  const args = [
    '--env',
    'multi-issue-seller',
    '--suite',
    suitePath,
    '--opponent',
    'utility-linear',
    '--out',
    out,
  ];
  const first = await startServer(args);
  await expect(startServer(args)).rejects.toThrow(
    new RegExp(`exited 2: .*episodes\\.jsonl.*lock.*${first.child.pid}`, 's'),
  );
  // The first still writes: an episode played on it is on file.
  const client = await connectEnvironment(first.url);
  const policy = scriptedPolicy('seller');
  let result = await client.reset({ seed: 1, episode_id: 'only' });
  while (!result.done) result = await client.step({ text: policy(result.observation) });
  client.close();
  // SIGTERM stops it cleanly (it was not a stoppable verb: the default ended it with the lock left).
  first.child.kill('SIGTERM');
  const code = await new Promise((resolve) =>
    first.child.on('exit', (exitCode, signal) => resolve(exitCode ?? signal)),
  );
  expect(code).toBe(0);
  expect(existsSync(`${out}.lock`)).toBe(false);
  expect(readTournamentFile(out).records).toHaveLength(1);
  // Free again: a new server continues the file.
  const next = await startServer(args);
  next.child.kill('SIGTERM');
}, 120_000);

it('`haggle env serve` refuses a missing suite and an unknown environment before listening', async () => {
  await expect(
    startServer([
      '--env',
      'multi-issue-seller',
      '--suite',
      '/nonexistent/suite.json',
      '--opponent',
      'utility-linear',
    ]),
  ).rejects.toThrow(/exited 2/);
  await expect(
    startServer(['--env', 'chess', '--suite', 'x', '--opponent', 'utility-linear']),
  ).rejects.toThrow(/--env must be one of/);
}, 120_000);

it('`haggle env serve --env best-offer-seller` plays listings of the synthetic catalog against the population policy', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'haggle-env-cli-'));
  const out = join(dir, 'episodes.jsonl');
  const { child, url } = await startServer([
    '--env',
    'best-offer-seller',
    '--opponent',
    'population',
    '--out',
    out,
  ]);
  const client = await connectEnvironment(url);
  const rewards: (number | null)[] = [];
  for (let seed = 0; seed < 5; seed++) {
    let result = await client.reset({ seed });
    expect(result.observation.template).toBe('qwen3_nothink');
    while (!result.done) {
      const moves = result.observation.legal_moves as { action: string; price?: { max: number } }[];
      const accept = moves.find((m) => m.action === 'accept');
      const offer = moves.find((m) => m.action === 'offer');
      const turn = accept
        ? { action: 'accept', price: null }
        : { action: 'offer', price: Math.floor((offer?.price?.max ?? 2) * 90) / 100 };
      result = await client.step({
        text: JSON.stringify({ ...turn, message_labels: [], message: '', response_time: 1 }),
      });
    }
    rewards.push(result.reward);
  }
  client.close();
  expect(rewards.every((reward) => typeof reward === 'number' && reward >= 0 && reward <= 1)).toBe(true);
  child.kill('SIGTERM');
  await new Promise((resolve) => child.on('exit', resolve));
  const file = readTournamentFile(out);
  expect(file.header?.format).toBe('haggle-best-offer-episodes');
  expect(file.records).toHaveLength(5);
  await expect(startServer(['--env', 'best-offer-buyer', '--opponent', 'utility-conceder'])).rejects.toThrow(
    /a best-offer opponent is one of/,
  );
}, 120_000);
