import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NegotiationAgent, OpenAICompatibleBackend, type SessionResult, simulate } from '../../src/index.js';
import { OpenAIServer } from '../../src/server/index.js';
import { leaks } from './leaks.js';
import { completionBody, postTurnRequest, startProxy, startUpstream, type Upstream } from './loopback.js';

// A hostile upstream echoes the client's API key back (in the reason phrase, the body, or the warnings
// header of a good answer), in one of the forms a key is disguised in. Through the real chain (the
// remote backend, the agent, simulate writing a run file, and the server of `haggle serve --backend
// openai` proxying for a client that sent no key) the key must appear in no error, record, log line or
// proxied answer. The property builds the proxy as `haggle serve` does (an OpenAIServer in front of an
// OpenAICompatibleBackend) but with fast retries; the CLI itself is checked after it, on a few forms.

const b64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));
const FORMS: Record<string, (key: string, cut: number) => string> = {
  raw: (key) => key,
  upper: (key) => key.toUpperCase(),
  lower: (key) => key.toLowerCase(),
  spaced: (key, cut) => key.replace(new RegExp(`(.{${cut}})`, 'g'), '$1 ').trim(),
  base64: (key) => b64(key),
  base64url: (key) => b64(key).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, ''),
  'base64 of the Authorization header': (key) => b64(`Bearer ${key}`),
  'base64 of JSON': (key) => b64(JSON.stringify({ echoed: key })),
  'url-encoded': (key) => encodeURIComponent(key),
  'every byte percent-encoded': (key) =>
    [...key].map((char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`).join(''),
  'url userinfo': (key) => `http://client:${encodeURIComponent(key)}@upstream.internal/v1`,
  'query parameter': (key) => `https://upstream.internal/v1?api_key=${encodeURIComponent(key)}`,
};
const PLACES = [
  'reason phrase',
  'error body',
  'non-JSON 200 body',
  'warnings header',
  'model answer',
] as const;
type Place = (typeof PLACES)[number];

const keyArbitrary = fc
  .string({
    unit: fc.constantFrom(
      ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/=.~:'.split(''),
    ),
    minLength: 16,
    maxLength: 40,
  })
  .map((body) => `sk-${body}`);

describe('0 secrets out, whatever form a hostile upstream echoes the key in', () => {
  let upstream: Upstream;
  let echo = { place: 'error body' as Place, text: '' };
  beforeAll(async () => {
    upstream = await startUpstream((_req, res, body) => {
      const { place, text } = echo;
      if (place === 'reason phrase') {
        res.writeHead(500, `Bad key ${text}`, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"internal"}}');
      } else if (place === 'error body') {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `your key ${text} is not allowed`, headers: text } }));
      } else if (place === 'model answer') {
        // Not a turn: the agent re-asks, then records the raw answer in its error.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(completionBody(body, `my key is ${text}`));
      } else if (place === 'non-JSON 200 body') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<html>proxy login for ${text}</html>`);
      } else {
        const warnings = JSON.stringify([{ type: 'other', message: `upstream saw ${text}` }]);
        res.writeHead(200, { 'content-type': 'application/json', 'x-haggle-warnings': warnings });
        res.end(completionBody(body));
      }
    });
  });
  afterAll(() => upstream.close());

  it('through OpenAICompatibleBackend + NegotiationAgent + simulate({ out }) + haggle serve', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'haggle-redaction-'));
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        keyArbitrary,
        fc.constantFrom(...Object.keys(FORMS)),
        fc.constantFrom(...PLACES),
        fc.integer({ min: 1, max: 5 }),
        async (key, form, place, cut) => {
          echo = { place, text: (FORMS[form] as (key: string, cut: number) => string)(key, cut) };
          const outputs: [string, string][] = [];

          const logged: string[] = [];
          const backend = new OpenAICompatibleBackend({
            baseURL: upstream.url,
            model: 'm',
            apiKey: key,
            retry: { maxRetries: 1, initialDelayMs: 1, maxDelayMs: 2 },
            random: () => 0.5,
            logger: { warn: (line) => logged.push(line) },
          });
          const agent = new NegotiationAgent({ backend });
          const out = join(dir, `run-${run++}.jsonl`);
          const results: SessionResult[] = [];
          const simulation = simulate({
            buyer: agent,
            seller: agent,
            sessions: 2,
            concurrency: 2,
            seed: 1,
            out,
            earlyStop: 0,
          });
          simulation.on('session-end', ({ result }) => results.push(result));
          await simulation.done();
          const file = readFileSync(out, 'utf8');
          outputs.push(['run file', file], ['logger', logged.join('\n')]);
          for (const result of results) outputs.push(['session error', result.error?.message ?? '']);
          outputs.push(['describe()', JSON.stringify(backend.describe())]);

          const proxy = new OpenAIServer({
            backend: new OpenAICompatibleBackend({
              baseURL: upstream.url,
              model: 'm',
              apiKey: key,
              retry: { maxRetries: 1, initialDelayMs: 1, maxDelayMs: 2 },
            }),
          });
          const answer = await postTurnRequest(await proxy.listen(), 'm').finally(() => proxy.close());
          outputs.push(
            ['proxied body', answer.text],
            ['proxied warnings', answer.headers.get('x-haggle-warnings') ?? ''],
          );

          // The echo really got through each surface (redacted), so the check below is not vacuous.
          if (place === 'warnings header') {
            expect(file).toContain('upstream saw');
            expect(answer.status).toBe(200);
            expect(answer.headers.get('x-haggle-warnings')).toContain('upstream saw');
          } else if (place === 'model answer') {
            expect(results.every((result) => result.error?.name === 'InvalidModelOutputError')).toBe(true);
            expect(file).toContain('my key is');
            expect(answer.status).toBe(200);
            expect(answer.text).toContain('my key is');
          } else {
            expect(results.every((result) => result.outcome.reason === 'error')).toBe(true);
            expect(answer.status).toBe(502);
            if (place !== 'non-JSON 200 body') expect(logged.length).toBeGreaterThan(0);
          }
          for (const [where, text] of outputs) {
            const how = leaks(text, key);
            expect(
              how,
              `the key (${form}, in the ${place}) leaked ${how} in ${where}: ${text.slice(0, 400)}`,
            ).toBeUndefined();
          }
        },
      ),
      { numRuns: 60 },
    );
  }, 240_000);

  it.each([
    ['raw', 'reason phrase'],
    ['base64 of the Authorization header', 'error body'],
    ['spaced', 'warnings header'],
  ] as const)(
    'haggle serve --backend openai itself: key echoed %s in the %s',
    async (form, place) => {
      const key = 'sk-cli-proxy-Zx9/Qw+Er=Ty';
      echo = { place, text: (FORMS[form] as (key: string, cut: number) => string)(key, 3) };
      const proxy = await startProxy({ upstreamUrl: upstream.url, model: 'm', apiKey: key });
      const answer = await postTurnRequest(proxy.url, 'm');
      const stopped = await proxy.stop();
      expect(answer.status).toBe(place === 'warnings header' ? 200 : 502);
      for (const text of [
        answer.text,
        answer.headers.get('x-haggle-warnings') ?? '',
        stopped.out,
        stopped.err,
      ])
        expect(leaks(text, key), text).toBeUndefined();
      expect(stopped.code).toBe(0);
    },
    60_000,
  );
});
