import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  generateContexts,
  type Negotiator,
  PopulationAgent,
  RunFileError,
  readRunFile,
  Session,
  syntheticContext,
} from '../../src/index.js';
import { CONTEXT } from '../helpers/fixtures.js';

const FIXTURE = new URL('./fixtures/small-real-sessions.jsonl', import.meta.url).pathname;
const population = new PopulationAgent();

/** Stands in for a NegotiationAgent whose backend reported that it could not honour a setting. */
function warned(warnings: unknown[]): Negotiator & { warnings: unknown[] } {
  return { warnings, describe: () => ({ kind: 'warned' }), predict: (i, o) => population.predict(i, o) };
}

describe('the session record', () => {
  it('carries the backend warnings each side reported, once per agent, and none for the baselines', async () => {
    const warning = { type: 'unsupported-setting', setting: 'seed' };
    const agent = warned([warning]);
    const mixed = await new Session({ context: CONTEXT, buyer: agent, seller: population, seed: 3 }).run();
    expect(mixed.warnings).toEqual([{ role: 'buyer', warning }]);
    const both = await new Session({ context: CONTEXT, buyer: agent, seller: agent, seed: 3 }).run();
    expect(both.warnings).toEqual([{ role: 'buyer', warning }]);
    const baseline = await new Session({
      context: CONTEXT,
      buyer: population,
      seller: population,
      seed: 3,
    }).run();
    expect('warnings' in baseline).toBe(false);
  });

  it('is checked line by line when read, so a wrong number never comes from a broken record', () => {
    const dir = mkdtempSync(join(tmpdir(), 'haggle-record-'));
    const [first] = readFileSync(FIXTURE, 'utf8').split('\n');
    // biome-ignore lint/suspicious/noExplicitAny: a parsed record, broken on purpose field by field
    const broken = (mutate: (record: Record<string, any>) => void) => {
      const record = JSON.parse(first as string);
      mutate(record);
      const path = join(dir, `broken-${Math.random()}.jsonl`);
      writeFileSync(path, `${readFileSync(FIXTURE, 'utf8')}${JSON.stringify(record)}\n`);
      return () => readRunFile(path);
    };
    expect(broken((r) => (r.outcome.price = null))).toThrow(/line 5 is not a valid session record: outcome/);
    expect(broken((r) => (r.outcome.turns = 7))).toThrow(
      /outcome.turns: must equal the number of recorded turns/,
    );
    expect(broken((r) => delete r.context.listPrice)).toThrow(RunFileError);
    expect(broken((r) => (r.turns[0].turn.action = 'haggle'))).toThrow(/turns\[0\]\.turn\.action/);
    // Fields a later version may add are accepted.
    expect(broken((r) => (r.marketplace = 'ebay'))().sessions).toHaveLength(5);
  });

  it('synthetic context i is the same made alone or in a set', () => {
    const set = generateContexts({ count: 30, seed: 12 });
    expect(syntheticContext(12, 29)).toEqual(set[29]);
    expect(syntheticContext(12, 0)).toEqual(set[0]);
    expect(() => syntheticContext(12, -1)).toThrow(/index/);
  });
});
