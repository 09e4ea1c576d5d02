// The example of docs/testing.md, with the package imports pointed at the sources.
import { expect, it } from 'vitest';
import { NegotiationAgent } from '../../src/agent/index.js';
import { InvalidModelOutputError } from '../../src/contract/index.js';
import { MockLanguageBackend } from '../../src/testing/index.js';

const context = { item: { title: 'Nikon F3 body' }, listPrice: 120 };
const history = [
  {
    role: 'buyer' as const,
    turn: { action: 'offer' as const, price: 80, message_labels: [], message: '', response_time: 1 },
    elapsedHours: 0,
  },
];

it('suggests a counter-offer to the seller', async () => {
  const mock = new MockLanguageBackend({
    responses: ['{"action":"offer","price":110,"message_labels":[],"message":"","response_time":2}'],
  });
  const agent = new NegotiationAgent({ backend: mock, guardrails: { seller: { minPrice: 90 } } });

  const turn = await agent.predict({ context, history, role: 'seller' });

  expect(turn).toMatchObject({ action: 'offer', price: 110 });
  expect(mock.calls).toHaveLength(1);
  expect(mock.calls[0]?.prompt.text).toContain('Nikon F3 body');
  // The seller's floor is 90, so accepting the buyer's 80 is not even offered to the model.
  const format = mock.calls[0]?.responseFormat;
  const schema = format?.type === 'json' ? format.schema : {};
  expect(JSON.stringify(schema)).not.toContain('"const":"accept"');
  expect(JSON.stringify(schema)).toContain('"const":"offer"');
});

it('shows an error when the model keeps breaking the guardrails', async () => {
  const tooLow = '{"action":"offer","price":50,"message_labels":[],"message":"","response_time":2}';
  const mock = new MockLanguageBackend({ responses: [tooLow, tooLow, tooLow] });
  const agent = new NegotiationAgent({ backend: mock, guardrails: { seller: { minPrice: 90 } } });

  await expect(agent.predict({ context, history, role: 'seller' })).rejects.toBeInstanceOf(
    InvalidModelOutputError,
  );
});
