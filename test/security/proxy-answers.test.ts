import { afterEach, describe, expect, it } from 'vitest';
import { BadRequestError, OpenAICompatibleBackend, TurnSchema } from '../../src/index.js';
import { FAST, turnRequest } from '../backends/openai/support.js';
import { completionBody, postTurnRequest, startProxy, startUpstream, type Upstream } from './loopback.js';

const upstreams: Upstream[] = [];
afterEach(async () => {
  await Promise.all(upstreams.splice(0).map((upstream) => upstream.close()));
});

describe('an emoji in the upstream x-haggle-warnings header, through haggle serve --backend openai', () => {
  it.each([
    // JSON escapes: plain ASCII on the wire, an emoji once parsed (what made the proxy answer 500).
    ['as JSON \\u escapes', '[{"type":"other","message":"fallback \\ud83d\\ude00 to cpu"}]'],
    // Raw UTF-8 bytes on the wire (Node writes a header string's characters as bytes).
    [
      'as raw UTF-8 bytes',
      Buffer.from('[{"type":"other","message":"fallback 😀 to cpu"}]', 'utf8').toString('latin1'),
    ],
  ])('%s: the good answer arrives, with the warning intact', async (_name, header) => {
    const upstream = await startUpstream((_req, res, body) => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-haggle-warnings': header });
      res.end(completionBody(body));
    });
    upstreams.push(upstream);
    const proxy = await startProxy({ upstreamUrl: upstream.url, model: 'm' });
    try {
      const answer = await postTurnRequest(proxy.url, 'm');
      expect(answer.status, answer.text).toBe(200);
      const content = JSON.parse(answer.text).choices[0].message.content;
      expect(() => TurnSchema.parse(JSON.parse(content))).not.toThrow();
      const warnings = answer.headers.get('x-haggle-warnings') ?? '';
      expect(warnings).toMatch(/^[\x20-\x7e]+$/);
      expect(JSON.parse(warnings)).toEqual([{ type: 'other', message: 'fallback 😀 to cpu' }]);

      // A remote backend in front of the proxy reads the same warning back.
      const client = new OpenAICompatibleBackend({ baseURL: proxy.url, model: 'm', ...FAST });
      const result = await client.doGenerate(turnRequest());
      expect(result.warnings).toContainEqual({ type: 'other', message: 'fallback 😀 to cpu' });
    } finally {
      await proxy.stop();
    }
  });
});

describe('a request the upstream refuses (400, as for a schema it cannot take)', () => {
  it('is sent once, and reaches the client through the proxy as a 400, not a retried 502', async () => {
    const upstream = await startUpstream((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { message: 'unsupported response_format schema', type: 'invalid_request_error' },
        }),
      );
    });
    upstreams.push(upstream);

    const direct = new OpenAICompatibleBackend({ baseURL: upstream.url, model: 'm', ...FAST });
    const error = await direct.doGenerate(turnRequest()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).attempts).toBe(1);
    expect(upstream.requests).toBe(1);

    const proxy = await startProxy({ upstreamUrl: upstream.url, model: 'm' });
    try {
      const client = new OpenAICompatibleBackend({ baseURL: proxy.url, model: 'm', ...FAST });
      const proxied = await client.doGenerate(turnRequest()).catch((caught: unknown) => caught);
      expect(proxied).toBeInstanceOf(BadRequestError);
      expect((proxied as BadRequestError).attempts).toBe(1);
      expect((proxied as Error).message).toMatch(/unsupported response_format schema/);
      // One more request upstream: neither the proxy nor its client tried again.
      expect(upstream.requests).toBe(2);
    } finally {
      await proxy.stop();
    }
  });
});
