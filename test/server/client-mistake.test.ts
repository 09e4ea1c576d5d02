import { describe, expect, it } from 'vitest';
import { HaggleError } from '../../src/contract/errors.js';
import { SchemaLimitError } from '../../src/decoding/errors.js';
import { clientMistake } from '../../src/server/client-mistake.js';

describe('clientMistake', () => {
  it("a schema past the compiler bounds is the request's fault (400 on response_format), not retried", () => {
    const answer = clientMistake(
      new SchemaLimitError({ limit: 'depth', value: 256, schemaPath: '#/definitions/a' }),
    );
    expect(answer?.status).toBe(400);
    expect(answer?.errorCode).toBe('schema-limit');
    expect(answer?.param).toBe('response_format');
    expect(answer?.message).toContain('maxDepth');
  });

  it('as rebuilt from the ONNX worker (a HaggleError carrying the code) too', () => {
    expect(
      clientMistake(new HaggleError({ code: 'schema-limit', message: 'took longer than 10000 ms' }))?.status,
    ).toBe(400);
  });

  it("other errors are not the client's", () => {
    expect(clientMistake(new HaggleError({ code: 'backend', message: 'down' }))).toBeUndefined();
  });
});
