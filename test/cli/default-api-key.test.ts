import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCliBackend } from '../../src/cli/backend-options.js';
import { defaultApiKey } from '../../src/cli/default-api-key.js';
import type { OpenAICompatibleBackend } from '../../src/index.js';
import { turnRequest } from '../backends/openai/support.js';
import { completionBody, startUpstream, type Upstream } from '../security/loopback.js';

it('takes $HAGGLE_API_KEY, then $OPENAI_API_KEY, an empty variable counting as unset', () => {
  expect(defaultApiKey({ HAGGLE_API_KEY: 'sk-h', OPENAI_API_KEY: 'sk-o' })).toBe('sk-h');
  expect(defaultApiKey({ HAGGLE_API_KEY: '', OPENAI_API_KEY: 'sk-o' })).toBe('sk-o');
  expect(defaultApiKey({ OPENAI_API_KEY: 'sk-o' })).toBe('sk-o');
  expect(defaultApiKey({ HAGGLE_API_KEY: '', OPENAI_API_KEY: '' })).toBeUndefined();
  expect(defaultApiKey({})).toBeUndefined();
});

let upstream: Upstream;
const seen: (string | undefined)[] = [];
beforeAll(async () => {
  upstream = await startUpstream((req, res, body) => {
    seen.push(req.headers.authorization);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(completionBody(body));
  });
});
afterAll(() => upstream.close());

it('--backend openai sends the key of the first non-empty variable, and --api-key over both', async () => {
  const options = { backend: 'openai' as const, baseUrl: [upstream.url], model: 'm' };
  const run = (extra: object, env: Record<string, string>) =>
    (createCliBackend({ ...options, ...extra }, env) as OpenAICompatibleBackend).doGenerate(turnRequest());
  await run({}, { HAGGLE_API_KEY: '', OPENAI_API_KEY: 'sk-openai-0123456789' });
  await run({ apiKey: 'sk-flag-0123456789' }, { HAGGLE_API_KEY: 'sk-haggle-0123456789' });
  await run({}, { HAGGLE_API_KEY: '', OPENAI_API_KEY: '' });
  expect(seen).toEqual(['Bearer sk-openai-0123456789', 'Bearer sk-flag-0123456789', undefined]);
});
