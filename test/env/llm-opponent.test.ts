import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { OpenAICompatibleBackend } from '../../src/backends/openai/node-backend.js';
import { createEnvironment } from '../../src/env/create-environment.js';
import { generateSuite } from '../../src/evaluation/suite.js';
import { MultiIssueLlmAgent } from '../../src/multi-issue/multi-issue-llm-agent.js';

// The opponent is an LLM behind an OpenAI-compatible server on loopback. The server here stands in for
// the user's model server (vLLM, haggle serve): it answers the buyer's turns from a script, or fails.

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function modelServer(
  answer: (body: { messages: { content: string }[] }) => { status: number; text: string },
) {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const { status, text } = answer(JSON.parse(body));
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(
        status === 200
          ? JSON.stringify({
              id: 'x',
              object: 'chat.completion',
              model: 'buyer',
              choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
              usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
            })
          : JSON.stringify({ error: { message: `upstream failure, api_key=sk-secret-123456789` } }),
      );
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

const suite = generateSuite({ seed: 9, scenarios: 4, seedsPerPair: 2 });

function llmBuyer(baseURL: string) {
  const backend = new OpenAICompatibleBackend({
    baseURL,
    model: 'buyer',
    apiKey: 'k',
    retry: { maxRetries: 0 },
  });
  return new MultiIssueLlmAgent({ backend, retries: 0 });
}

it('an LLM opponent that accepts: the episode ends in a deal with the seller’s utility as reward', async () => {
  const url = await modelServer(() => ({
    status: 200,
    text: '{"action":"accept","offer":null,"message":"ok"}',
  }));
  const env = createEnvironment({
    env: 'multi-issue-seller',
    suite,
    opponent: llmBuyer(url),
    opponentName: 'llm-buyer',
  });
  const first = await env.reset({ seed: 0 });
  const schema = first.observation.schema as {
    oneOf: {
      properties: {
        action: { const: string };
        offer: { properties: Record<string, { enum?: string[]; maximum?: number }> };
      };
    }[];
  };
  const issues =
    schema.oneOf.find((b) => b.properties.action.const === 'offer')?.properties.offer.properties ?? {};
  const offer = Object.fromEntries(
    Object.entries(issues).map(([name, issue]) => [name, issue.enum ? issue.enum[0] : issue.maximum]),
  );
  const result = await env.step(JSON.stringify({ action: 'offer', offer, message: '' }));
  expect(result.done).toBe(true);
  expect(result.observation.info).toMatchObject({ end_reason: 'accepted', deal: true });
  expect(result.reward).toBe(result.observation.info.utilities?.seller);
});

it('an LLM opponent that fails: the episode is void (reward null), the error redacted', async () => {
  const url = await modelServer(() => ({ status: 400, text: '' }));
  const env = createEnvironment({
    env: 'multi-issue-buyer',
    suite,
    opponent: llmBuyer(url),
    opponentName: 'llm-seller',
  });
  // The seller (the failing LLM) moves first: the episode ends at reset.
  const result = await env.reset({ seed: 1 });
  expect(result.done).toBe(true);
  expect(result.reward).toBeNull();
  expect(result.observation.info.void).toBe(true);
  expect(result.observation.info.end_reason).toBe('error');
  expect(result.observation.info.opponent_error?.message).toMatch(/400/);
  expect(result.observation.info.opponent_error?.message).not.toContain('sk-secret-123456789');
  expect(result.observation.info.opponent_error?.message).toContain('api_key=[redacted]');
});
