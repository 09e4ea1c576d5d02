import { beforeAll, describe, it } from 'vitest';
import { Random } from '../../../src/internal/random.js';
import { type Qwen3, qwen3 } from '../support/qwen3.js';
import { expectMasksMatchBytesAtEveryCut } from '../support/walk.js';

let q: Qwen3;
beforeAll(async () => {
  q = await qwen3();
});

// Keys bound by patterns refuse characters, so their inside masks come from a pass of their own
// (key-inside.ts): it must agree with accepting each token byte by byte, mid-character and mid-escape.
describe('masks inside keys bound by patterns', () => {
  it('agree with accepting each token', () => {
    const random = new Random(7);
    const cases: Array<[unknown, string]> = [
      [
        {
          type: 'object',
          properties: { name: { type: 'string' }, nameé: { type: 'string' } },
          patternProperties: { '^x-[a-zé]+$': { type: 'string' }, '^[0-9]{2,4}$': { type: 'number' } },
          additionalProperties: false,
        },
        '{"x-aé\\u00e9b',
      ],
      [
        {
          type: 'object',
          properties: { abba: {} },
          propertyNames: { pattern: '^[a-d]+é?$' },
          additionalProperties: { type: 'string' },
        },
        '{"ab\\u00e9',
      ],
      [{ type: 'object', propertyNames: { maxLength: 5 }, additionalProperties: {} }, '{"日\\n本é'],
    ];
    expectMasksMatchBytesAtEveryCut(q, cases, random, { highBytes: 300, randomIds: 600 });
  });
});
