import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  HaggleError,
  InternalServerError,
  OpenAICompatibleBackend,
  ResponseTooLargeError,
} from '../../../src/index.js';
import { completionBody, startUpstream, streamBytes, type Upstream } from '../../security/loopback.js';
import { FAST, turnRequest } from './support.js';

const MiB = 1024 * 1024;
const upstreams: Upstream[] = [];
afterEach(async () => {
  await Promise.all(upstreams.splice(0).map((upstream) => upstream.close()));
});

async function upstreamWith(handler: Upstream['handler']): Promise<Upstream> {
  const upstream = await startUpstream(handler);
  upstreams.push(upstream);
  return upstream;
}

/** The socket the server wrote to was closed by the client before the whole answer went out. */
function cutOff(upstream: Upstream, total: number) {
  const seen = { written: 0, closedEarly: false };
  upstream.handler = (_req, res) => {
    res.on('close', () => {
      seen.closedEarly = !res.writableFinished;
    });
    const write = res.write.bind(res);
    res.write = ((chunk: Buffer, ...rest: never[]) => {
      seen.written += chunk.length;
      return write(chunk, ...rest);
    }) as typeof res.write;
    streamBytes(res, total);
  };
  return seen;
}

describe.each([
  ['node:http', undefined],
  ['fetch', globalThis.fetch],
])('maxResponseBytes over %s', (_name, fetchImpl) => {
  const options = (url: string, maxResponseBytes?: number) => ({
    // fetch itself refuses user:password in a URL; the fetch transport moves it out, as node:http does.
    baseURL: `http://alice:PW-secret-1234@${url.slice('http://'.length)}?api-key=Q-secret-5678`,
    model: 'm',
    apiKey: 'sk-limit-test-0123456789',
    ...(maxResponseBytes !== undefined ? { maxResponseBytes } : {}),
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
    ...FAST,
  });

  it('a 5 MiB answer against a 1 MiB cap: cut off while streaming, typed, not retried', async () => {
    const upstream = await upstreamWith(() => undefined);
    const seen = cutOff(upstream, 5 * MiB);
    const backend = new OpenAICompatibleBackend(options(upstream.url, MiB));

    const error = await backend.doGenerate(turnRequest()).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(HaggleError.isInstance(error)).toBe(true);
    const tooLarge = error as ResponseTooLargeError;
    expect(tooLarge.limitBytes).toBe(MiB);
    expect(tooLarge.url).toBe(`${upstream.url}/chat/completions`);
    expect(tooLarge.retryable).toBe(false);
    expect(tooLarge.attempts).toBe(1);
    expect(tooLarge.message).toMatch(/limit of 1048576 bytes \(maxResponseBytes\)/);
    for (const secret of ['PW-secret-1234', 'Q-secret-5678', 'sk-limit-test-0123456789'])
      expect(`${tooLarge.message} ${tooLarge.url}`).not.toContain(secret);
    // One request, and the client hung up long before the 5 MiB were written.
    expect(upstream.requests).toBe(1);
    await expect.poll(() => seen.closedEarly).toBe(true);
    expect(seen.written).toBeLessThan(5 * MiB);
  });

  it('a declared content-length over the cap fails before the body is read', async () => {
    const upstream = await upstreamWith((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(3 * MiB) });
      res.write(Buffer.alloc(1024, 0x20));
      // The rest never comes: only the declared length can fail this attempt quickly.
    });
    const backend = new OpenAICompatibleBackend({ ...options(upstream.url, MiB), timeoutMs: 20_000 });
    const error = await backend.doGenerate(turnRequest()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as Error).message).toMatch(/declares 3145728 bytes, over the limit of 1048576/);
  });

  it('an answer under the cap, padded close to it, is read whole', async () => {
    const upstream = await upstreamWith((_req, res, body) => {
      const answer = completionBody(body);
      const padded = `${answer.slice(0, -1)}, "pad": "${'x'.repeat(MiB - answer.length - 64)}"}`;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(padded);
    });
    const backend = new OpenAICompatibleBackend(options(upstream.url, MiB));
    const result = await backend.doGenerate(turnRequest());
    expect(JSON.parse(result.choices[0]?.text ?? '')).toHaveProperty('action');
  });

  it('a 5 MiB error page is read only at its start, and the status decides (a retried 500)', async () => {
    const upstream = await upstreamWith((_req, res) => streamBytes(res, 5 * MiB, 500));
    const backend = new OpenAICompatibleBackend({ ...options(upstream.url, MiB), retry: { maxRetries: 1 } });
    const error = await backend.doGenerate(turnRequest()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).attempts).toBe(2);
    expect(((error as InternalServerError).responseBody ?? '').length).toBeLessThanOrEqual(301);
  });
});

it('the default cap (16 MiB) holds for an answer a little over it, and is documented as exported', async () => {
  expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(16 * MiB);
  const upstream = await upstreamWith(() => undefined);
  const seen = cutOff(upstream, DEFAULT_MAX_RESPONSE_BYTES + 256 * 1024);
  const backend = new OpenAICompatibleBackend({ baseURL: upstream.url, model: 'm', ...FAST });
  const error = await backend.doGenerate(turnRequest()).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ResponseTooLargeError);
  expect((error as ResponseTooLargeError).limitBytes).toBe(DEFAULT_MAX_RESPONSE_BYTES);
  expect(seen.written).toBeGreaterThan(DEFAULT_MAX_RESPONSE_BYTES);
});

it('refuses a cap that protects nothing or cannot hold a turn, saying which option', () => {
  for (const maxResponseBytes of [0, 100, 1024 ** 3, 1.5]) {
    expect(
      () => new OpenAICompatibleBackend({ baseURL: 'http://x/v1', model: 'm', maxResponseBytes }),
    ).toThrow(/maxResponseBytes/);
  }
});
