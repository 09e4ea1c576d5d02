import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NegotiationAgent } from '../../../src/agent/negotiation-agent.js';
import { NotFoundError } from '../../../src/backends/errors.js';
import { suggestedBaseURL } from '../../../src/backends/openai/base-url-hint.js';
import { OpenAICompatibleBackend } from '../../../src/backends/openai/openai-compatible-backend.js';
import { buyerOpenedAt80, camera } from '../../agent/fixtures.js';
import { completionBody, startUpstream, type Upstream } from '../../security/loopback.js';
import { FAST, turnRequest } from './support.js';

// A real HTTP server on loopback that serves what vLLM serves: /v1/chat/completions for one model,
// a 404 for every other path and for an unknown model.
let upstream: Upstream;
let origin: string;
beforeAll(async () => {
  upstream = await startUpstream((req, res, body) => {
    const known = req.url === '/v1/chat/completions' && body.model === 'qwen3-4b-negotiation';
    if (known) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(completionBody(body));
      return;
    }
    const detail =
      req.url === '/v1/chat/completions' ? `The model \`${body.model}\` does not exist.` : 'Not Found';
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ detail }));
  });
  origin = upstream.url.replace(/\/v1$/, '');
});
afterAll(async () => {
  await upstream?.close();
});

async function notFound(baseURL: string, model = 'qwen3-4b-negotiation'): Promise<NotFoundError> {
  const backend = new OpenAICompatibleBackend({ baseURL, model, ...FAST });
  const error = await backend.doGenerate(turnRequest()).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(NotFoundError);
  return error as NotFoundError;
}

describe('a 404 from a wrong baseURL says which URL was meant', () => {
  it('no /v1: did you mean <origin>/v1, and that URL works', async () => {
    const error = await notFound(origin);
    expect(error.status).toBe(404);
    expect(error.suggestedBaseURL).toBe(upstream.url);
    expect(error.message).toContain(`did you mean baseURL "${upstream.url}"?`);
    const fixed = new OpenAICompatibleBackend({
      baseURL: error.suggestedBaseURL as string,
      model: 'qwen3-4b-negotiation',
    });
    const agent = new NegotiationAgent({ backend: fixed });
    const turn = await agent.predict({ context: camera, history: buyerOpenedAt80, role: 'seller' });
    expect(turn.action).toBeTruthy();
  });

  it.each(['/v1/chat/completions', '/v1/chat/completions/', '/v1/completions'])(
    'the full endpoint %s as the base: did you mean <origin>/v1',
    async (suffix) => {
      const error = await notFound(`${origin}${suffix}`);
      expect(error.suggestedBaseURL).toBe(upstream.url);
      expect(error.message).toContain(`did you mean baseURL "${upstream.url}"?`);
    },
  );

  it('credentials in the base URL never reach the suggestion', async () => {
    const withUser = origin.replace('http://', 'http://alice:s3cret-pw@');
    const error = await notFound(withUser);
    expect(error.suggestedBaseURL).toBe(upstream.url);
    expect(error.message).not.toContain('s3cret-pw');
  });

  it('a right baseURL and an unknown model: a 404 without a guess at the URL', async () => {
    const error = await notFound(upstream.url, 'no-such-adapter');
    expect(error.suggestedBaseURL).toBeUndefined();
    expect(error.message).not.toContain('did you mean');
    expect(error.message).toContain('does not exist');
  });
});

describe('suggestedBaseURL', () => {
  it.each([
    ['http://h:8000', 'http://h:8000/v1'],
    ['http://h:8000/', 'http://h:8000/v1'],
    ['http://h:8000/openai', 'http://h:8000/openai/v1'],
    ['http://h:8000/chat/completions', 'http://h:8000/v1'],
    ['https://api.example.com/v1/chat/completions', 'https://api.example.com/v1'],
    ['http://h/api/v1/completions', 'http://h/api/v1'],
    ['http://h:8000/v1', undefined],
    ['http://h/api/v1', undefined],
    ['https://g.example.com/v1beta/openai', undefined],
    ['not a url', undefined],
  ])('%s -> %s', (label, expected) => {
    expect(suggestedBaseURL(label)).toBe(expected);
  });
});
