import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  NegotiationAgent,
  OpenAICompatibleBackend,
  type SessionResult,
  simulate,
  TurnSchema,
} from '../../src/index.js';
import { captureIo } from '../helpers/capture-io.js';
import {
  completionBody,
  postTurnRequest,
  startProxy,
  startUpstream,
  streamBytes,
  type Upstream,
} from './loopback.js';

// The reproduction: a server answering more than the process can hold. Every answer must end
// as a typed error on record, and the process (a run, `haggle serve`) must carry on.
const MiB = 1024 * 1024;
const upstreams: Upstream[] = [];
afterEach(async () => {
  await Promise.all(upstreams.splice(0).map((upstream) => upstream.close()));
});

const STACK_LINE = /^\s+at .+\(.*:\d+:\d+\)$/m;

describe('an upstream that answers 5 MiB, against a 1 MiB cap', () => {
  it('simulate records ResponseTooLargeError for each of 20 sessions, all on file', async () => {
    const upstream = await startUpstream((_req, res) => streamBytes(res, 5 * MiB));
    upstreams.push(upstream);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    const backend = new OpenAICompatibleBackend({
      baseURL: upstream.url,
      model: 'm',
      apiKey: 'sk-oversized-0123456789',
      maxResponseBytes: MiB,
    });
    const agent = new NegotiationAgent({ backend });
    const out = join(mkdtempSync(join(tmpdir(), 'haggle-oversized-')), 'run.jsonl');
    const results: SessionResult[] = [];
    const run = simulate({
      buyer: agent,
      seller: agent,
      sessions: 20,
      concurrency: 4,
      seed: 3,
      out,
      earlyStop: 0,
    });
    run.on('session-end', ({ result }) => results.push(result));
    const summary = await run.done();
    process.off('unhandledRejection', onUnhandled);

    expect(summary.sessions).toBe(20);
    expect(results).toHaveLength(20);
    for (const result of results) {
      expect(result.outcome.reason).toBe('error');
      expect(result.error?.name).toBe('ResponseTooLargeError');
      expect(result.error?.message).toMatch(/over the limit of 1048576|past the limit of 1048576/);
    }
    // Not retried: one request per session (each fails at its first model turn).
    expect(upstream.requests).toBe(20);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(21);
    const records = lines.slice(1).map((line) => JSON.parse(line));
    expect(records.every((record) => record.error?.name === 'ResponseTooLargeError')).toBe(true);
    expect(unhandled).toEqual([]);
  });
});

describe('--max-response-mib', () => {
  it("sets the cap of the CLI's backend: 2 MiB answers fail a 1 MiB cap, and it is refused for onnx", async () => {
    const upstream = await startUpstream((_req, res) => streamBytes(res, 2 * MiB));
    upstreams.push(upstream);
    const io = captureIo();
    const args = ['simulate', '--backend', 'openai', '--base-url', upstream.url, '--model', 'm'];
    const code = await runCli([...args, '-n', '2', '--max-response-mib', '1', '--no-progress'], io);
    expect(code).not.toBe(0);
    expect(io.err()).toMatch(/ResponseTooLargeError.*1048576 bytes/);
    const onnx = captureIo();
    const refused = ['simulate', '--backend', 'onnx', '--model', 'm', '--max-response-mib', '1'];
    expect(await runCli(refused, onnx)).toBe(2);
    expect(onnx.err()).toMatch(/--max-response-mib needs --backend openai/);
  });
});

describe('the default cap (16 MiB), an upstream answering a little over it', () => {
  it('haggle simulate writes every session with its error, one-line messages, no stack trace', async () => {
    const upstream = await startUpstream((_req, res) =>
      streamBytes(res, DEFAULT_MAX_RESPONSE_BYTES + 64 * 1024),
    );
    upstreams.push(upstream);
    const out = join(mkdtempSync(join(tmpdir(), 'haggle-oversized-cli-')), 'run.jsonl');
    const io = captureIo();
    const code = await runCli(
      [
        'simulate',
        '--backend',
        'openai',
        '--base-url',
        upstream.url,
        '--model',
        'm',
        '--api-key',
        'sk-oversized-cli-0123456789',
        '-n',
        '3',
        '-c',
        '3',
        '--early-stop',
        '0',
        '--no-progress',
        '--out',
        out,
      ],
      io,
    );
    // Failures are reflected in the exit code, and shown; never a crash.
    expect(code).not.toBe(0);
    expect(io.out() + io.err()).toMatch(/ResponseTooLargeError/);
    expect(io.out() + io.err()).not.toMatch(STACK_LINE);
    expect(io.out() + io.err()).not.toContain('sk-oversized-cli-0123456789');
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(4);
    for (const line of lines.slice(1)) expect(JSON.parse(line).error.name).toBe('ResponseTooLargeError');
  });

  it('haggle serve --backend openai answers 502 with the typed error, then serves the next request', async () => {
    let oversized = true;
    const upstream = await startUpstream((_req, res, body) => {
      if (oversized) return streamBytes(res, DEFAULT_MAX_RESPONSE_BYTES + 64 * 1024);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(completionBody(body));
    });
    upstreams.push(upstream);
    const proxy = await startProxy({ upstreamUrl: upstream.url, model: 'm' });
    try {
      const failed = await postTurnRequest(proxy.url, 'm');
      expect(failed.status).toBe(502);
      const error = JSON.parse(failed.text).error;
      expect(error.type).toBe('server_error');
      expect(error.code).toBe('backend-error');
      expect(error.message).toMatch(/16777216 bytes \(maxResponseBytes\)/);
      expect(failed.text).not.toMatch(STACK_LINE);

      oversized = false;
      const served = await postTurnRequest(proxy.url, 'm');
      expect(served.status).toBe(200);
      const content = JSON.parse(served.text).choices[0].message.content;
      expect(() => TurnSchema.parse(JSON.parse(content))).not.toThrow();
    } finally {
      const stopped = await proxy.stop();
      expect(stopped.code).toBe(0);
      // serve logs each failed request once, with its typed cause (and nothing else).
      expect(stopped.err).toMatch(
        /^haggle serve: 502 POST \/v1\/chat\/completions: ResponseTooLargeError: [^\n]*maxResponseBytes[^\n]*\n$/,
      );
    }
  });
});
