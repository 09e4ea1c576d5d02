import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GenerateOptions } from '../../src/index.js';
import { OpenAIServer } from '../../src/server/index.js';
import { MockLanguageBackend } from '../../src/testing/index.js';
import { turnForSchema } from '../backends/openai/turn-for-schema.js';

// The real CLI, in its own process, against a real server on loopback: a password and a key in
// --base-url, and an --api-key, must reach no file, log, hint or report.
const BIN = new URL('../../src/cli/bin.ts', import.meta.url).pathname;
const PASSWORD = 'PWsecret7f1c';
const QUERY_KEY = 'Qsecret93ab';
const API_KEY = 'sk-KEYsecret5d20e';
const SECRETS = [PASSWORD, QUERY_KEY, API_KEY];

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function haggle(args: string[], options: { interruptWhen?: () => boolean } = {}): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', BIN, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, HAGGLE_API_KEY: '', OPENAI_API_KEY: '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += String(chunk)));
    child.stderr.on('data', (chunk) => (stderr += String(chunk)));
    let timer: NodeJS.Timeout | undefined;
    if (options.interruptWhen) {
      const check = options.interruptWhen;
      timer = setInterval(() => {
        if (check()) {
          clearInterval(timer);
          child.kill('SIGINT');
        }
      }, 10);
    }
    child.on('exit', (code) => {
      if (timer) clearInterval(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
}

function sessionsOnFile(path: string): number {
  try {
    return readFileSync(path, 'utf8').split('\n').length - 2;
  } catch {
    return 0;
  }
}

describe('secrets in --base-url and --api-key', () => {
  let server: OpenAIServer;
  let port: string;
  const dir = mkdtempSync(join(tmpdir(), 'haggle-secrets-'));
  const outputs: string[] = [];

  beforeAll(async () => {
    const local = new MockLanguageBackend({
      modelId: 'negotiator-lora',
      responses: Array.from(
        { length: 20_000 },
        () => (options: GenerateOptions) =>
          turnForSchema(options.responseFormat?.type === 'json' ? options.responseFormat.schema : undefined),
      ),
    });
    // The server insists on the key: a run that plays proves the key was sent.
    server = new OpenAIServer({ backend: local, apiKey: API_KEY });
    port = new URL(await server.listen()).port;
  });
  afterAll(async () => {
    await server.close();
  });

  const backend = (host: string) => [
    '--backend',
    'openai',
    '--base-url',
    `http://alice:${PASSWORD}@${host}/v1?api-key=${QUERY_KEY}`,
    '--api-key',
    API_KEY,
    '--model',
    'negotiator-lora',
  ];

  it('a run, its report, its transcripts, an interrupted run and a dead server: no secret anywhere', async () => {
    const run = join(dir, 'run.jsonl');
    const played = await haggle([
      'simulate',
      '-n',
      '6',
      '-c',
      '2',
      ...backend(`127.0.0.1:${port}`),
      '--out',
      run,
    ]);
    outputs.push(played.stdout, played.stderr);
    expect(played.code, played.stderr).toBe(0);
    expect(played.stdout).toMatch(/sessions\s+6/);

    // The header says what produced the run: server without credentials, dialect, model, hashes.
    const header = JSON.parse(readFileSync(run, 'utf8').split('\n')[0] as string);
    expect(header.provenance.locations.buyer).toEqual([{ replicas: [`http://127.0.0.1:${port}/v1`] }]);
    expect(header.config.buyer.backend).toMatchObject({
      provider: 'openai-compatible',
      modelId: 'negotiator-lora',
      dialect: 'vllm',
      endpoint: 'chat',
    });
    expect(header.config.buyer.templateHash).toMatch(/^sha256:[0-9a-f]{16}$/);
    expect(header.provenance.node).toBe(process.version);

    for (const args of [
      ['report', run, '--out', join(dir, 'run.html'), '--resamples', '50'],
      ['report', run, '--reference', 'card:qwen3-4b-negotiation-50k-ep3', '--out', join(dir, 'card.html')],
      ['show', run],
      ['show', run, '--session', 's1'],
      ['show', run, '--session', '2', '--json'],
    ]) {
      const result = await haggle(args);
      outputs.push(result.stdout, result.stderr);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    }
    expect(readFileSync(join(dir, 'run.html'), 'utf8')).toContain(`http://127.0.0.1:${port}/v1`);

    // Ctrl-C: the resume hint keeps the command's shape, with placeholders where the secrets were.
    const interrupted = join(dir, 'interrupted.jsonl');
    const stopped = await haggle(
      ['simulate', '-n', '100000', '-c', '2', ...backend(`127.0.0.1:${port}`), '--out', interrupted],
      { interruptWhen: () => sessionsOnFile(interrupted) >= 2 },
    );
    outputs.push(stopped.stdout, stopped.stderr);
    expect(stopped.code).toBe(130);
    expect(stopped.stderr).toContain(
      `--base-url 'http://USER:PASSWORD@127.0.0.1:${port}/v1?api-key=REDACTED' --api-key "$HAGGLE_API_KEY"`,
    );

    // Nobody listening: the error names the server without its credentials.
    const dead = await haggle([
      'simulate',
      '-n',
      '2',
      ...backend('127.0.0.1:9'),
      '--out',
      join(dir, 'dead.jsonl'),
    ]);
    outputs.push(dead.stdout, dead.stderr);
    const deadFile = (() => {
      try {
        return readFileSync(join(dir, 'dead.jsonl'), 'utf8');
      } catch {
        return '';
      }
    })();
    // The error is shown (on stderr, or recorded with the failed sessions), naming the server.
    expect(dead.stdout + dead.stderr + deadFile).toContain('http://127.0.0.1:9/v1');

    const written = filesUnder(dir);
    expect(written.length).toBeGreaterThanOrEqual(5);
    for (const secret of SECRETS) {
      for (const path of written)
        expect(readFileSync(path, 'utf8'), `${secret} in ${path}`).not.toContain(secret);
      for (const text of outputs) expect(text, `${secret} in output`).not.toContain(secret);
    }
  }, 120_000);
});
