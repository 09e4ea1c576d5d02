import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/entries/metrics.js';
import {
  HaggleAbortError,
  InvalidInputError,
  loadSessions,
  type Negotiator,
  PopulationAgent,
  RunFileError,
  readRunFile,
  simulate,
} from '../../src/index.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'haggle-simulate-'));
const population = new PopulationAgent();

function failingEvery(n: number): Negotiator {
  return {
    describe: () => ({ kind: 'flaky', every: n }),
    async predict(input, options) {
      if ((options?.seed ?? 0) % n === 0) throw new Error('flaky negotiator failed');
      return population.predict(input, options);
    },
  };
}

describe('simulate', () => {
  it('the same seed gives byte-identical JSONL at any concurrency; another seed differs', async () => {
    const dir = tmp();
    const paths = ['a', 'b', 'c'].map((name) => join(dir, `${name}.jsonl`));
    await simulate({
      buyer: population,
      seller: population,
      sessions: 120,
      seed: 9,
      concurrency: 1,
      out: paths[0],
    }).done();
    await simulate({
      buyer: population,
      seller: population,
      sessions: 120,
      seed: 9,
      concurrency: 16,
      out: paths[1],
    }).done();
    await simulate({
      buyer: population,
      seller: population,
      sessions: 120,
      seed: 10,
      concurrency: 16,
      out: paths[2],
    }).done();
    const [a, b, c] = paths.map((p) => readFileSync(p as string, 'utf8'));
    expect(a).toBe(b);
    expect(a).not.toBe(c);
    const { header, sessions } = readRunFile(paths[0] as string);
    expect(header?.seed).toBe(9);
    expect(sessions.map((s) => s.index)).toEqual(Array.from({ length: 120 }, (_, i) => i));
  });

  it('returns a summary consistent with the sessions on file', async () => {
    const out = join(tmp(), 'run.jsonl');
    const summary = await simulate({
      buyer: population,
      seller: population,
      sessions: 200,
      seed: 3,
      out,
    }).done();
    expect(summary.sessions).toBe(200);
    expect(summary).toEqual(summarize(loadSessions(out)));
    expect(summary.dealRate).toBeCloseTo(summary.deals / 200, 10);
    expect(Object.values(summary.outcomes).reduce((a, b) => a + b, 0)).toBe(200);
    expect(Object.values(summary.sessionLengths).reduce((a, b) => a + b, 0)).toBe(200);
  });

  it('a killed run resumes to exactly the file of an uninterrupted run, torn last line included', async () => {
    const dir = tmp();
    const whole = join(dir, 'whole.jsonl');
    const broken = join(dir, 'broken.jsonl');
    await simulate({ buyer: population, seller: population, sessions: 150, seed: 5, out: whole }).done();

    const controller = new AbortController();
    const run = simulate({
      buyer: population,
      seller: population,
      sessions: 150,
      seed: 5,
      out: broken,
      concurrency: 4,
      signal: controller.signal,
    });
    run.on('progress', (p) => {
      if (p.completed === 60) controller.abort(new Error('killed'));
    });
    await expect(run.done()).rejects.toBeInstanceOf(HaggleAbortError);
    const partial = readRunFile(broken).sessions.length;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(150);
    appendFileSync(broken, '{"type":"session","index":'); // a crash in the middle of a write

    const progress: number[] = [];
    const resumed = simulate({
      buyer: population,
      seller: population,
      sessions: 150,
      seed: 5,
      out: broken,
      resume: true,
    });
    resumed.on('progress', (p) => progress.push(p.resumed));
    const summary = await resumed.done();
    expect(summary.sessions).toBe(150);
    expect(progress[0]).toBe(partial);
    expect(readFileSync(broken, 'utf8')).toBe(readFileSync(whole, 'utf8'));
  });

  it('never overwrites a run silently, and refuses to resume a run with other settings', async () => {
    const out = join(tmp(), 'run.jsonl');
    await simulate({ buyer: population, seller: population, sessions: 10, seed: 1, out }).done();
    expect(() => simulate({ buyer: population, seller: population, sessions: 10, seed: 1, out })).toThrow(
      /resume: true/,
    );
    await expect(
      simulate({ buyer: population, seller: population, sessions: 10, seed: 2, out, resume: true }).done(),
    ).rejects.toBeInstanceOf(RunFileError);
    const again = await simulate({
      buyer: population,
      seller: population,
      sessions: 10,
      seed: 2,
      out,
      overwrite: true,
    }).done();
    expect(again.sessions).toBe(10);
  });

  it('resuming a missing or header-less file starts the run', async () => {
    const dir = tmp();
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    const a = await simulate({
      buyer: population,
      seller: population,
      sessions: 5,
      out: join(dir, 'new.jsonl'),
      resume: true,
    }).done();
    const b = await simulate({
      buyer: population,
      seller: population,
      sessions: 5,
      out: empty,
      resume: true,
    }).done();
    expect(a).toEqual(b);
  });

  it('records failing sessions with reason error and goes on, unless stopOnError', async () => {
    const flaky = failingEvery(7);
    const errors: unknown[] = [];
    const run = simulate({ buyer: flaky, seller: population, sessions: 100, seed: 4 });
    run.on('error', (e) => errors.push(e.error));
    const summary = await run.done();
    expect(summary.sessions).toBe(100);
    expect(summary.errors).toBeGreaterThan(0);
    expect(errors).toHaveLength(summary.errors);
    await expect(
      simulate({ buyer: flaky, seller: population, sessions: 100, seed: 4, stopOnError: true }).done(),
    ).rejects.toThrow('flaky negotiator failed');
  });

  it('emits progress to the total, and survives a throwing listener', async () => {
    const run = simulate({ buyer: population, seller: population, sessions: 40, seed: 2, concurrency: 4 });
    const seen: number[] = [];
    run.on('progress', () => {
      throw new Error('bad listener');
    });
    run.on('progress', (p) => seen.push(p.completed));
    const listenerErrors: unknown[] = [];
    run.on('error', (e) => listenerErrors.push(e.source));
    const summary = await run.done();
    expect(summary.sessions).toBe(40);
    expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(listenerErrors).toHaveLength(40);
  });

  it('plays the given contexts in turn only with cycleContexts, and checks its options', async () => {
    const contexts = [
      { item: { title: 'Desk lamp' }, listPrice: 25 },
      { item: { title: 'Road bike' }, listPrice: 900 },
    ];
    const titles: string[] = [];
    const run = simulate({
      buyer: population,
      seller: population,
      contexts,
      sessions: 6,
      cycleContexts: true,
    });
    run.on('session-end', (e) => titles.push(`${e.index}:${e.result.context.item.title}`));
    await run.done();
    expect(titles.sort()).toEqual([
      '0:Desk lamp',
      '1:Road bike',
      '2:Desk lamp',
      '3:Road bike',
      '4:Desk lamp',
      '5:Road bike',
    ]);
    // One session per context unless cycling is asked for.
    expect(() => simulate({ buyer: population, seller: population, contexts, sessions: 3 })).toThrow(
      /3 is more than the 2 contexts given.*cycleContexts: true/,
    );
    expect(() => simulate({ buyer: population, seller: population, sessions: 0 })).toThrow(InvalidInputError);
    expect(() => simulate({ buyer: population, seller: population, concurrency: 0 })).toThrow(/concurrency/);
    expect(() => simulate({ buyer: population, seller: population, contexts: [] })).toThrow(/contexts/);
    expect(() => simulate({ buyer: population, seller: population, resume: true })).toThrow(/needs `out`/);
  });

  it('an aborted signal stops the run before it starts', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      simulate({ buyer: population, seller: population, signal: controller.signal }).done(),
    ).rejects.toBeInstanceOf(HaggleAbortError);
  });
});
