import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runExample } from './run-example.js';

it('research-experiment: three sellers, 1,000 sessions each', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'haggle-example-'));
  const out = await runExample('research-experiment.ts', dir);
  for (const seller of ['population', 'boulware', 'conceder']) {
    expect(out).toMatch(new RegExp(`^${seller}\\s+1000\\s+\\d+\\.\\d%`, 'm'));
  }
  expect(readdirSync(dir).sort()).toEqual(['boulware.jsonl', 'conceder.jsonl', 'population.jsonl']);
});
