import { describe, expect, it } from 'vitest';
import { PopulationAgent } from '../../src/baselines/population-agent.js';
import { createEnvironment } from '../../src/env/create-environment.js';
import { connectEnvironment } from '../../src/env/env-client.js';
import { EnvironmentServer } from '../../src/env/env-server.js';

// `await using` closes an EnvironmentServer as it closes an OpenAIServer: its port stops answering and
// an open client's connection ends, without a `close()` in a finally block.
describe('EnvironmentServer is AsyncDisposable', () => {
  it('closes its port and its connections when the block ends', async () => {
    let url = '';
    const client = await (async () => {
      await using server = new EnvironmentServer({
        createEnvironment: () =>
          createEnvironment({
            env: 'best-offer-seller',
            opponent: new PopulationAgent(),
            opponentName: 'population',
          }),
        name: 'best-offer-seller',
        description: 'test',
      });
      url = await server.listen({ port: 0 });
      const connected = await connectEnvironment(url);
      const first = await connected.reset({ seed: 1 });
      expect(first.done).toBe(false);
      return connected;
    })();
    await expect(fetch(`${url}/health`)).rejects.toThrow();
    await expect(client.reset({ seed: 2 })).rejects.toThrow();
    await client.close();
  });
});
