import { expect, it } from 'vitest';
import { redactSecrets } from '../../src/cli/redact-arguments.js';

it('replaces API keys typed on the command line, in both spellings, and nothing else', () => {
  expect(
    redactSecrets([
      'simulate',
      '--api-key',
      'sk-secret',
      '--server-api-key=abc',
      '--model',
      'm',
      '--out',
      'a.jsonl',
    ]),
  ).toEqual([
    'simulate',
    '--api-key',
    '"$HAGGLE_API_KEY"',
    '--server-api-key="$HAGGLE_API_KEY"',
    '--model',
    'm',
    '--out',
    'a.jsonl',
  ]);
});
