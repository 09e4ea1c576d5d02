import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { type GenerateOptions, readRunFile, syntheticContext } from '../../src/index.js';
import { OpenAIServer } from '../../src/server/index.js';
import { MockLanguageBackend } from '../../src/testing/index.js';
import { turnForSchema } from '../backends/openai/turn-for-schema.js';
import { captureIo } from '../helpers/capture-io.js';

const BIN = new URL('../../src/cli/bin.ts', import.meta.url).pathname;

/** Runs the real CLI in its own process, as a user's shell does. */
function runProcess(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

/** A loopback port with nothing listening: bound once to learn a free number, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A loopback HTTP server that answers `respond(body)`, or forwards to `forward` when that returns undefined. */
async function startServer(
  respond: (body: string) => { status: number; body: unknown } | undefined,
  forward?: string,
): Promise<{ url: string; server: Server; requests: () => number }> {
  let requests = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += String(chunk)));
    req.on('end', async () => {
      requests++;
      const answer = respond(body);
      if (answer || !forward) {
        const { status, body: payload } = answer ?? {
          status: 500,
          body: { error: { message: 'no answer' } },
        };
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
        return;
      }
      const upstream = await fetch(`${forward}${(req.url ?? '').replace(/^\/v1/, '')}`, {
        method: req.method ?? 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      res.writeHead(upstream.status, { 'content-type': 'application/json' });
      res.end(await upstream.text());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, server, requests: () => requests };
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));
/** The deal-rate line of the summary table, and whether it shows a percentage. */
const dealRateLine = (stdout: string) =>
  stdout.split('\n').find((line) => line.startsWith('deal rate')) ?? '';

describe('haggle simulate against a server that is not there', () => {
  it('exits 3 with the error in one line, and prints no deal rate (a real process, a closed port)', async () => {
    const port = await closedPort();
    const { code, stdout, stderr } = await runProcess([
      'simulate',
      '--backend',
      'openai',
      '--base-url',
      `http://127.0.0.1:${port}/v1`,
      '--model',
      'm',
      '--sessions',
      '2',
    ]);
    expect(code).toBe(3);
    expect(stdout).toBe('');
    // Off a terminal the progress bar may write a plain line (`simulate 1/2 deals 0, failed 1 …`) when a
    // session ends more than 2 s in; every other line is the error.
    const lines = stderr.split('\n').filter((line) => line !== '' && !/^simulate \d+\/2 /.test(line));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^haggle: stopped early: the first 2 sessions all failed with the same error and none finished: RemoteConnectionError: .*ECONNREFUSED/,
    );
    expect(stderr).not.toMatch(/deal rate|\d+\.\d%/);
  });

  it('with --early-stop 0 it plays both, shows "—" for the deal rate, lists the error and exits 3', async () => {
    const port = await closedPort();
    const { code, stdout, stderr } = await runProcess([
      'simulate',
      '--backend',
      'openai',
      '--base-url',
      `http://127.0.0.1:${port}/v1`,
      '--model',
      'm',
      '--sessions',
      '2',
      '--early-stop',
      '0',
      '--no-progress',
    ]);
    expect(code).toBe(3);
    expect(dealRateLine(stdout)).toBe('deal rate           — (all 2 sessions failed; no result)');
    expect(stdout).toMatch(/^sessions\s+2 \(0 finished, 2 failed: not counted as no-deals\)$/m);
    const lines = stderr.trim().split('\n');
    expect(lines[0]).toBe('haggle: 2 of 2 sessions failed:');
    expect(lines[1]).toMatch(/^haggle: {3}2 × RemoteConnectionError: .*ECONNREFUSED/);
    expect(lines[2]).toBe('haggle: all 2 sessions failed; there is no result');
    expect(lines).toHaveLength(3);
  });
});

describe('haggle simulate against a loopback server that answers errors', () => {
  it('a 404 (unknown model) stops the run after the first sessions, with the server’s message', async () => {
    const { url, server, requests } = await startServer(() => ({
      status: 404,
      body: { error: { message: 'The model `no-such-lora` does not exist.', type: 'NotFoundError' } },
    }));
    const out = join(mkdtempSync(join(tmpdir(), 'haggle-cli-failures-')), 'run.jsonl');
    try {
      const io = captureIo();
      const code = await runCli(
        [
          'simulate',
          '-n',
          '200',
          '--backend',
          'openai',
          '--base-url',
          url,
          '--model',
          'no-such-lora',
          '--no-progress',
          '--out',
          out,
        ],
        io,
      );
      expect(code).toBe(3);
      expect(io.out()).toBe('');
      expect(io.err().trim().split('\n')).toHaveLength(1);
      expect(io.err()).toMatch(
        /^haggle: stopped early: the first 4 sessions all failed .*NotFoundError: .*HTTP 404/,
      );
      expect(io.err()).toContain('The model `no-such-lora` does not exist.');
      // The file holds what was played, as failures, and the line says so.
      expect(io.err().trimEnd()).toMatch(
        new RegExp(
          `; ${out.replaceAll('.', '\\.')} holds the sessions played, as failures \\(--resume plays them again once the cause is fixed\\)$`,
        ),
      );
      const played = readRunFile(out).sessions;
      // A 4xx is not retried: one request per session played, far fewer than 200 sessions.
      expect(played.length).toBe(requests());
      expect(played.length).toBeLessThanOrEqual(8 + 3);
      expect(played.every((s) => s.outcome.reason === 'error')).toBe(true);
    } finally {
      await close(server);
    }
  });

  it('a 500 on every request is retried, then stops the run the same way', async () => {
    const { url, server, requests } = await startServer(() => ({
      status: 500,
      body: { error: { message: 'CUDA out of memory' } },
    }));
    try {
      const io = captureIo();
      const code = await runCli(
        [
          'simulate',
          '-n',
          '50',
          '-c',
          '2',
          '--backend',
          'openai',
          '--base-url',
          url,
          '--model',
          'm',
          '--json',
          '--no-progress',
        ],
        io,
      );
      expect(code).toBe(3);
      expect(io.out()).toBe('');
      expect(io.err()).toMatch(
        /^haggle: stopped early: the first 4 sessions all failed .*InternalServerError: .*failed after 5 attempt\(s\): HTTP 500.*CUDA out of memory/,
      );
      // Five attempts per failed session (the retry policy's default), for the few sessions played.
      expect(requests() % 5).toBe(0);
      expect(requests()).toBeLessThanOrEqual(5 * (2 + 3));
    } finally {
      await close(server);
    }
  }, 30_000);
});

describe('haggle simulate with some failed sessions', () => {
  let upstream: OpenAIServer;
  let proxy: { url: string; server: Server };
  // The server fails every request about session 1's listing: one session of six fails, as a real
  // deployment fails a request now and then; the others are played by a real model server on loopback.
  const failingTitle = syntheticContext(0, 1).item.title;
  beforeAll(async () => {
    upstream = new OpenAIServer({
      backend: new MockLanguageBackend({
        modelId: 'negotiator-lora',
        responses: Array.from(
          { length: 400 },
          () => (options: GenerateOptions) =>
            turnForSchema(
              options.responseFormat?.type === 'json' ? options.responseFormat.schema : undefined,
            ),
        ),
      }),
    });
    const upstreamUrl = await upstream.listen();
    proxy = await startServer(
      (body) =>
        body.includes(failingTitle)
          ? { status: 404, body: { error: { message: 'adapter unloaded', type: 'NotFoundError' } } }
          : undefined,
      upstreamUrl,
    );
  });
  afterAll(async () => {
    await close(proxy.server);
    await upstream.close();
  });

  const args = () => [
    'simulate',
    '-n',
    '6',
    '-c',
    '1',
    '--backend',
    'openai',
    '--base-url',
    proxy.url,
    '--model',
    'negotiator-lora',
    '--json',
  ];

  it('the summary counts the failure apart; past --max-error-rate (default 0) the exit code is 3', async () => {
    const io = captureIo();
    expect(await runCli(args(), io)).toBe(3);
    const summary = JSON.parse(io.out());
    expect(summary).toMatchObject({ sessions: 6, finished: 5, errors: 1 });
    expect(summary.errorMessages).toHaveLength(1);
    expect(summary.errorMessages[0].count).toBe(1);
    expect(summary.errorMessages[0].message).toMatch(/^NotFoundError: .*HTTP 404.*adapter unloaded/);
    // The deal rate stands on the 5 that finished.
    expect(summary.dealRate).toBeCloseTo(summary.deals / 5, 12);
    const lines = io.err().trim().split('\n');
    expect(lines[0]).toBe('haggle: 1 of 6 sessions failed:');
    expect(lines[1]).toMatch(/^haggle: {3}1 × NotFoundError: /);
    expect(lines[2]).toBe(
      'haggle: 16.7% of sessions failed, more than --max-error-rate 0 allows; the results above stand on the ones that finished',
    );
  });

  it('within --max-error-rate the run exits 0, and still lists the failure', async () => {
    const io = captureIo();
    expect(await runCli([...args(), '--max-error-rate', '0.2'], io)).toBe(0);
    expect(io.err()).toMatch(/^haggle: 1 of 6 sessions failed:\nhaggle: {3}1 × NotFoundError: /);
  });

  it('--max-error-rate outside 0..1 is a usage error (exit 2)', async () => {
    const io = captureIo();
    expect(await runCli(['simulate', '--max-error-rate', '5'], io)).toBe(2);
    expect(io.err()).toBe('haggle: --max-error-rate must be a share from 0 to 1 (0.05 for 5%), got "5"\n');
  });
});
