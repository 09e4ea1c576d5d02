import { afterAll, beforeAll, expect, it } from 'vitest';
import { OpenAICompatibleBackend } from '../../../src/index.js';
import { completionBody, startUpstream, type Upstream } from '../../security/loopback.js';
import { FAST, turnRequest } from './support.js';

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

it('over a passed-in fetch, a base URL with user:password works as over node:http (Basic, unless a key)', async () => {
  const baseURL = `http://alice:p%40ss@${upstream.url.slice('http://'.length)}`;
  for (const fetchImpl of [undefined, globalThis.fetch]) {
    const options = { baseURL, model: 'm', ...FAST, ...(fetchImpl ? { fetch: fetchImpl } : {}) };
    await new OpenAICompatibleBackend(options).doGenerate(turnRequest());
    await new OpenAICompatibleBackend({ ...options, apiKey: 'sk-wins-0123456789' }).doGenerate(turnRequest());
  }
  const basic = `Basic ${Buffer.from('alice:p@ss').toString('base64')}`;
  expect(seen).toEqual([basic, 'Bearer sk-wins-0123456789', basic, 'Bearer sk-wins-0123456789']);
});
