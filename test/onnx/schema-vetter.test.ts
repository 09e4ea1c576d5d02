import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { SchemaVetter } from '../../src/onnx/schema-vetter.js';
import { workerEntry } from '../../src/onnx/worker-entry.js';

// Issue 26: a client's schema compiles first in a worker of its own (haggle serve's untrustedSchemas),
// under a heap limit, so a schema that would exhaust memory is a typed refusal and the next is served.

const entry = workerEntry(
  pathToFileURL(`${process.cwd()}/src/onnx/worker-entry.ts`).href,
  'schema-vetting-worker',
);
let vetter: SchemaVetter | undefined;
afterEach(async () => {
  await vetter?.dispose();
});

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: { code?: string; message: string }) => ({ code: error.code, message: error.message }),
  );

describe('SchemaVetter', () => {
  it('compiles a new schema once; the same schema again is answered from memory', async () => {
    vetter = new SchemaVetter(entry, { budgetMs: 10_000, heapMb: 256 });
    await vetter.vet({ type: 'string', maxLength: 5 });
    await vetter.vet({ type: 'string', maxLength: 5 });
    expect(vetter.stats).toMatchObject({ compiled: 1, remembered: 1, refused: 0, ended: 0 });
  }, 60_000);

  it("refuses what the compiler refuses, with the compiler's typed code, and remembers the refusal", async () => {
    vetter = new SchemaVetter(entry, { budgetMs: 10_000, heapMb: 256 });
    const backReference = { type: 'string', pattern: '^(a)\\1$' };
    expect(await refusal(vetter.vet(backReference))).toMatchObject({ code: 'unsupported-schema' });
    expect(await refusal(vetter.vet(backReference))).toMatchObject({ code: 'unsupported-schema' });
    expect(vetter.stats).toMatchObject({ compiled: 0, refused: 1, remembered: 1 });
    const tooLong = { type: 'string', minLength: 1e9 };
    expect(await refusal(vetter.vet(tooLong))).toMatchObject({ code: 'schema-limit' });
  }, 60_000);

  it('a schema past the heap limit is a schema-limit refusal (memory); the worker is replaced', async () => {
    vetter = new SchemaVetter(entry, { budgetMs: 30_000, heapMb: 16 });
    // Within every bound of the compiler (enum values, const text, nodes), but not the heap's.
    const huge = {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 40_000 }, (_, i) => [
          `property-${i}-${'x'.repeat(40)}`,
          { type: 'string', maxLength: 64 },
        ]),
      ),
    };
    const refused = await refusal(vetter.vet(huge));
    expect(refused).toMatchObject({ code: 'schema-limit' });
    expect(refused?.message).toContain('more than 16 MB of memory');
    expect(vetter.stats.ended).toBe(1);
    // A new worker serves the next schema.
    await vetter.vet({ type: 'integer' });
    expect(vetter.stats.compiled).toBe(1);
  }, 120_000);

  it('an abort answers the caller at once; the compile is not repeated for the next caller', async () => {
    vetter = new SchemaVetter(entry, { budgetMs: 10_000, heapMb: 256 });
    const controller = new AbortController();
    const schema = { type: 'array', items: { type: 'string', pattern: '^[a-z]{3,8}$' } };
    const first = refusal(vetter.vet(schema, controller.signal));
    controller.abort(new Error('deadline'));
    expect(await first).toMatchObject({ code: 'aborted' });
    await vetter.vet(schema);
    expect(vetter.stats.compiled).toBe(1);
  }, 60_000);
});

// Issue 40: one client's slow schemas (each spends the whole compile budget) must not starve another
// client's new schema. Before, schemas were vetted one at a time in arrival order.
describe('SchemaVetter: fair between clients', () => {
  /** A schema that compiles through its whole budget, then is refused (k makes each one new). */
  const slow = (k: number) => ({
    type: 'object',
    properties: Object.fromEntries(
      Array.from({ length: 20_000 }, (_, i) => [`k${k}_${i}`, { type: 'string', pattern: `^a{${i % 50}}$` }]),
    ),
  });

  it("a second client's new schema is vetted beside the first client's queue of slow ones", async () => {
    vetter = new SchemaVetter(entry, { budgetMs: 2_000, heapMb: 256 });
    const slowOnes = [1, 2, 3, 4].map((k) =>
      refusal((vetter as SchemaVetter).vet(slow(k), undefined, 'client-a')),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = performance.now();
    await vetter.vet({ type: 'object', properties: { ok: { type: 'boolean' } } }, undefined, 'client-b');
    const waited = performance.now() - started;
    // Behind four compiles of 2 s each it would wait 8 s; beside them it waits for nothing.
    expect(waited).toBeLessThan(2_000);
    // Past the budget, or (on a fast machine) too deep for the compiler's stack: refused either way.
    for (const refused of await Promise.all(slowOnes))
      expect(['schema-limit', 'unsupported-schema']).toContain(refused?.code);
    // A refused schema sent again costs nothing: answered from memory.
    const again = performance.now();
    expect(['schema-limit', 'unsupported-schema']).toContain(
      (await refusal(vetter.vet(slow(1), undefined, 'client-a')))?.code,
    );
    expect(performance.now() - again).toBeLessThan(1_000);
    expect(vetter.stats.remembered).toBeGreaterThanOrEqual(1);
  }, 120_000);
});
