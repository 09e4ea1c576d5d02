import { beforeAll, describe, expect, it } from 'vitest';
import { compileSchema, isAllowed } from '../../src/decoding/index.js';
import { Random } from '../../src/internal/random.js';
import { type Qwen3, qwen3 } from './qwen3.js';

let q: Qwen3;
beforeAll(async () => {
  q = await qwen3();
});

// Keys bound by patterns refuse characters, so their inside masks come from a pass of their own
// (key-inside.ts): it must agree with accepting each token byte by byte, mid-character and mid-escape.
describe('masks inside keys bound by patterns', () => {
  it('agree with accepting each token', () => {
    const random = new Random(7);
    const highBytes = q.vocabulary.tokens.flatMap((bytes, id) => ((bytes[0] ?? 0) >= 0x80 ? [id] : []));
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
    for (const [schema, text] of cases) {
      const g = compileSchema(schema, q.vocabulary);
      const bytes = new TextEncoder().encode(text);
      for (let cut = 1; cut <= bytes.length; cut++) {
        const m = g.matcher();
        let ok = true;
        for (const b of bytes.subarray(0, cut)) {
          const id = q.vocabulary.tokens.findIndex((t) => t.length === 1 && t[0] === b);
          ok &&= m.accept(id);
        }
        expect(ok, `${cut} of ${text}`).toBe(true);
        const mask = m.mask();
        const sample = [
          ...Array.from({ length: 300 }, () => random.pick(highBytes)),
          ...Array.from({ length: 600 }, () => random.int(0, 151_000)),
        ];
        for (const id of sample) {
          const token = q.vocabulary.tokens[id] as Uint8Array;
          expect(isAllowed(mask, id), `cut ${cut} of ${text}, token ${id}`).toBe(
            token.length > 0 && m.acceptsBytes(token),
          );
        }
      }
    }
  });
});
