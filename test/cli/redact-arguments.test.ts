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

it('keeps a base URL’s host and path, and turns its user:password and query values into placeholders', () => {
  expect(
    redactSecrets([
      'simulate',
      '--base-url',
      'http://alice:PWSECRET@127.0.0.1:8000/v1?api-key=QSECRET&x=1',
      '--base-url=http://10.0.0.2:8000/v1,http://bob:PW2SECRET@10.0.0.3:8000/v1',
    ]),
  ).toEqual([
    'simulate',
    '--base-url',
    'http://USER:PASSWORD@127.0.0.1:8000/v1?api-key=REDACTED&x=REDACTED',
    '--base-url=http://10.0.0.2:8000/v1,http://USER:PASSWORD@10.0.0.3:8000/v1',
  ]);
});

it('passes every other argument through the shared redaction', () => {
  expect(
    redactSecrets(['show', 'http://bob:pw-secret@host/run.jsonl', '--note', 'token=abc123', 'runs/a.jsonl']),
  ).toEqual(['show', 'http://[redacted]@host/run.jsonl', '--note', 'token=[redacted]', 'runs/a.jsonl']);
});
