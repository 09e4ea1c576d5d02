import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CompiledGrammar,
  compileSchema,
  UnsatisfiableSchemaError,
  UnsupportedSchemaError,
} from '../../../src/decoding/index.js';
import { matchesFormat } from '../../../src/decoding/testing/format-check.js';
import { Random } from '../../../src/internal/random.js';
import { type Qwen3, qwen3 } from '../support/qwen3.js';
import { randomDecode } from '../support/random-decode.js';
import { expectAccepted, expectPrefixRefused, expectRefused } from '../support/walk.js';

let q: Qwen3;
beforeAll(async () => {
  q = await qwen3();
});

function grammar(schema: unknown): CompiledGrammar {
  return compileSchema(schema, q.vocabulary, { warm: false });
}

/** Each format: strings it must accept and strings it must refuse, all checked token by token. */
const FORMATS: Record<string, { accepted: string[]; refused: string[] }> = {
  'date-time': {
    accepted: [
      '2022-01-01T12:00:00Z',
      '2024-02-29t23:59:59.123z',
      '2022-01-01T00:00:00+09:00',
      '2000-02-29T00:00:00-23:59',
    ],
    refused: [
      '2022-01-01 12:00:00',
      '2022-01-01T12:00:00', // no offset
      '2022-01-01T12:00',
      '20220101T12:00:00Z',
      '2024-12-31T23:59:61Z',
      '2023-02-29T00:00:00Z', // not a leap year
      '1900-02-29T00:00:00Z', // a century not divisible by 400
      '2022-04-31T00:00:00Z',
      '0000-01-01T00:00:00Z',
      '2022-01-01T24:00:00Z',
    ],
  },
  date: {
    accepted: ['2022-12-31', '2000-02-29', '2024-02-29', '0001-01-01'],
    refused: ['2022-02-29', '2022-13-01', '2022-01-32', '2022-1-01', '2022-01-01T00:00:00Z', '0000-01-01'],
  },
  time: {
    accepted: ['12:00:00Z', '23:59:59.5+05:30', '00:00:00z'],
    refused: ['12:00:00', '24:00:00Z', '12:60:00Z', '12:00Z'],
  },
  duration: {
    accepted: ['P1D', 'P3DT12H30M5S', 'PT36H', 'P1Y2M', 'P4W'],
    refused: ['P', 'PT', '1D', 'P1H', 'PT1D', 'P1W2D', 'P1S'],
  },
  email: {
    accepted: ['john.doe@example.com', 'a+b@example', "o'neil@[192.168.0.1]", 'x@[IPv6:::1]'],
    refused: [
      'invalid-email',
      'example.com',
      'john doe@example.com',
      '.a@b.com',
      'a..b@c.com',
      'a@',
      '@b.com',
    ],
  },
  hostname: {
    accepted: ['localhost', 'ns1.example.com', 'example.com.', `${'a'.repeat(63)}.com`],
    refused: ['example.com:8080', 'ns1 example.com', '-a.com', 'a-.com', 'a..b', `${'a'.repeat(64)}.com`, ''],
  },
  ipv4: {
    accepted: ['192.168.1.1', '0.0.0.0', '255.255.255.255'],
    refused: ['256.1.1.1', '01.2.3.4', '1.2.3', '1.2.3.4.5'],
  },
  ipv6: {
    accepted: [
      '::',
      '::1',
      '2001:0db8:85a3:0000:0000:8a2e:0370:7334',
      'fe80::1:2',
      '::ffff:192.168.1.1',
      '1:2:3:4:5:6:7::',
    ],
    refused: [
      '1:2:3:4:5:6:7:8:9',
      '1::2::3',
      '12345::',
      '::01.2.3.4',
      'fe80::1%eth0',
      '1:2:3:4:5:6::1.2.3.4',
    ],
  },
  uuid: {
    accepted: ['123e4567-e89b-12d3-a456-426614174000', '01234567-89AB-CDEF-0123-456789ABCDEF'],
    refused: ['123e4567-e89b-12d3-a456-42661417400', '123e4567e89b12d3a456426614174000', 'not-a-uuid'],
  },
  uri: {
    accepted: [
      'https://example.com/child:5',
      'http://[::1]:8080/a?b=c#d',
      'urn:isbn:0451450523',
      'mailto:a@b.com',
      'https://en.wikipedia.org/wiki/Mass%E2%80%93energy_equivalence',
    ],
    refused: [
      'not a uri',
      'example.com',
      '/relative/path',
      ' https://x.com',
      'https://x.com/a b',
      'http://x/%zz',
      '1http://x',
    ],
  },
  'uri-reference': {
    accepted: ['/articles/1', '', 'a/b?c', '#frag', 'https://x.com'],
    refused: ['a b', ':a', '%', 'a\\b'],
  },
  iri: {
    accepted: ['https://例え.jp/パス', 'http://example.com/é?ü'],
    refused: ['例え', 'http://x.com/a b'],
  },
  'json-pointer': {
    accepted: ['', '/', '/a/b', '/a~0b/~1c'],
    refused: ['a', '/a~', '/a~2'],
  },
  'relative-json-pointer': {
    accepted: ['0', '1/a', '2#', '10'],
    refused: ['', '01', '-1', '/a', '1~'],
  },
};

describe('format', () => {
  for (const [format, { accepted, refused }] of Object.entries(FORMATS)) {
    it(`${format}: accepts what the format allows and refuses the rest`, () => {
      const g = grammar({ type: 'string', format });
      for (const text of accepted) expectAccepted(g, q, JSON.stringify(text));
      for (const text of refused) expectRefused(g, q, JSON.stringify(text));
    });
  }

  it('refuses a bad date as soon as it is written, not only at the closing quote', () => {
    const g = grammar({ type: 'string', format: 'date' });
    expectPrefixRefused(g, q, '"2023-02-29');
    expectPrefixRefused(g, q, '"2022-13');
    expectPrefixRefused(g, q, '"hello');
  });

  it('ignores formats JSON Schema does not define (annotations)', () => {
    for (const format of ['int32', 'int64', 'double', 'byte', 'binary', 'password', 'flag-topic', 'color']) {
      const g = grammar({ type: 'string', format });
      expectAccepted(g, q, '"anything at all"');
    }
    // On other types a format says nothing either.
    expectAccepted(grammar({ type: 'integer', format: 'int32' }), q, '42');
  });

  it('refuses the defined formats it cannot enforce, naming keyword and path', () => {
    for (const format of ['regex', 'idn-email', 'idn-hostname', 'uri-template']) {
      try {
        grammar({ type: 'object', properties: { p: { type: 'string', format } } });
        expect.unreachable(`format ${format} should be refused`);
      } catch (error) {
        expect(error).toBeInstanceOf(UnsupportedSchemaError);
        expect((error as UnsupportedSchemaError).keyword).toBe('format');
        expect((error as UnsupportedSchemaError).schemaPath).toBe('#/properties/p');
      }
    }
  });

  it('combines with pattern: a string must match both', () => {
    const g = grammar({ type: 'string', format: 'date', pattern: '^2024-' });
    expectAccepted(g, q, '"2024-02-29"');
    expectPrefixRefused(g, q, '"2023-');
    expectRefused(g, q, '"2024-02-30"');
    expect(() => grammar({ type: 'string', format: 'uuid', pattern: '^x' })).toThrow(
      UnsatisfiableSchemaError,
    );
  });

  it('combines with minLength and maxLength', () => {
    const g = grammar({ type: 'string', format: 'email', maxLength: 8 });
    expectAccepted(g, q, '"ab@cd.ef"');
    expectPrefixRefused(g, q, '"abcdefg@');
    const long = grammar({ type: 'string', format: 'uri', minLength: 20 });
    expectAccepted(long, q, '"https://example.com/abc"');
    expectRefused(long, q, '"https://example.com"');
    expect(() => grammar({ type: 'string', format: 'date', maxLength: 9 })).toThrow(UnsatisfiableSchemaError);
  });

  it('bounds a hostname to 253 characters', () => {
    const g = grammar({ type: 'string', format: 'hostname' });
    const label = 'a'.repeat(63);
    const name = [label, label, label, 'a'.repeat(61)].join('.'); // 253 characters
    expectAccepted(g, q, JSON.stringify(name));
    expectRefused(g, q, JSON.stringify(`${name}a`));
  });

  it('leaves no dead end: random decoding always finds a way to a valid value', () => {
    const random = new Random(11);
    const checks: Array<[unknown, (v: string) => boolean]> = [
      [
        { type: 'string', format: 'date-time', maxLength: 24 },
        (v) => !Number.isNaN(Date.parse(v)) && v.length <= 24,
      ],
      [{ type: 'string', format: 'ipv4' }, (v) => v.split('.').every((o) => Number(o) <= 255)],
      [
        { type: 'string', format: 'email', minLength: 6, maxLength: 10 },
        (v) => v.includes('@') && v.length >= 6,
      ],
    ];
    for (const [schema, valid] of checks) {
      const g = grammar(schema);
      let completed = 0;
      for (let i = 0; i < 6; i++) {
        const { text, complete } = randomDecode(g, q, random, 60);
        if (!complete) continue;
        completed++;
        const value = JSON.parse(text) as string;
        expect(valid(value), `${JSON.stringify(schema)}: ${text}`).toBe(true);
      }
      expect(completed).toBeGreaterThan(0);
    }
  });

  it('checks single values the same way (for enum and const beside a format)', () => {
    expect(matchesFormat('date', '2024-02-29')).toBe(true);
    expect(matchesFormat('date', '2023-02-29')).toBe(false);
    expect(matchesFormat('hostname', 'a'.repeat(254))).toBe(false);
    expect(matchesFormat('int32', 'anything')).toBe(true);
    expect(matchesFormat('regex', '^a')).toBeNull();
  });
});
