import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = new URL('..', import.meta.url).pathname;

/** Runs an example as a user would (`npx tsx examples/x.ts`); 'haggle' resolves to the source. */
async function example(name: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', join(root, 'examples', name), ...args], {
    cwd: root,
    timeout: 120_000,
  });
  return stdout;
}

describe('examples', () => {
  it('every example is covered here', () => {
    expect(readdirSync(join(root, 'examples')).sort()).toEqual([
      'custom-negotiator.ts',
      'marketplace-suggest-reply.ts',
      'research-experiment.ts',
    ]);
  });

  it('marketplace-suggest-reply: the below-floor counter is re-asked, the suggestion respects the floor', async () => {
    const out = await example('marketplace-suggest-reply.ts');
    expect(out).toMatch(/suggested reply: offer_with_message 104/);
    expect(out).toMatch(/model calls: 2/);
    expect(out.match(/^option:/gm)).toHaveLength(2);
  });

  it('custom-negotiator: a custom seller plays a session to its end', async () => {
    const out = await example('custom-negotiator.ts');
    expect(out).toMatch(/#0 .* buyer /);
    expect(out).toMatch(/^outcome: (deal|no-deal) \(/m);
  });

  it('research-experiment: three sellers, 1,000 sessions each', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'haggle-example-'));
    const out = await example('research-experiment.ts', dir);
    for (const seller of ['population', 'boulware', 'conceder']) {
      expect(out).toMatch(new RegExp(`^${seller}\\s+1000\\s+\\d+\\.\\d%`, 'm'));
    }
    expect(readdirSync(dir).sort()).toEqual(['boulware.jsonl', 'conceder.jsonl', 'population.jsonl']);
  });
});
