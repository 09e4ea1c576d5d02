import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runExample } from './run-example.js';

it('paper-evaluation: starts two haggle serve processes, runs the experiment file, prints the table', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'haggle-paper-'));
  // The smallest suite (1 scenario x 2 buyers x 1 seed): 6 matches, three arms.
  const out = await runExample('paper-evaluation.ts', dir, '--scenarios', '1', '--seeds', '1');
  for (const arm of ['qwen3-4b-base', 'qwen3-4b-grpo', 'utility-boulware']) {
    for (const buyer of ['frontier-a', 'frontier-b'])
      expect(out).toMatch(new RegExp(`^${arm}\\s+${buyer}\\s+1\\s`, 'm'));
  }
  const [header, ...matches] = readFileSync(join(dir, 'tournament.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  expect(matches).toHaveLength(6);
  expect(header.labels.arms['qwen3-4b-grpo']).toEqual({
    kind: 'llm',
    family: 'qwen3',
    base: 'qwen3-4b-base',
  });
  expect(header.experiment.hash).toMatch(/^[0-9a-f]{64}$/);
}, 180_000);
