import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  compareArms,
  generateSuite,
  type MultiIssueNegotiator,
  runTournament,
  UtilityTitForTatNegotiator,
  utilityConceder,
  utilityLinear,
} from '../../src/evaluation/index.js';
import {
  HaggleError,
  InvalidInputError,
  type Negotiator,
  PopulationAgent,
  RunFailedEarlyError,
  readRunFile,
  simulate,
} from '../../src/index.js';
import { EarlyStop } from '../../src/simulation/early-stop.js';

const population = new PopulationAgent();
const tmp = () => mkdtempSync(join(tmpdir(), 'haggle-early-stop-'));

/** A negotiator whose every call fails the way a dead server does, and that counts its calls. */
function deadNegotiator(message = 'connect ECONNREFUSED 127.0.0.1:9'): Negotiator & { calls: number } {
  const negotiator = {
    calls: 0,
    describe: () => ({ kind: 'dead' }),
    async predict() {
      negotiator.calls++;
      await new Promise((resolve) => setTimeout(resolve, 2));
      throw Object.assign(new Error(message), { name: 'RemoteConnectionError' });
    },
  };
  return negotiator;
}

describe('EarlyStop', () => {
  const fail = (message: string) => ({ name: 'RemoteConnectionError', message });

  it('trips on the limit-th failure, all alike, none finished', () => {
    const stop = new EarlyStop(3, 100, 'sessions');
    expect(stop.record(false, fail('down'))).toBeUndefined();
    expect(stop.record(false, fail('down'))).toBeUndefined();
    const error = stop.record(false, fail('down'));
    expect(error).toBeInstanceOf(RunFailedEarlyError);
    expect(error?.failures).toBe(3);
    expect(error?.errorMessage).toBe('RemoteConnectionError: down');
    expect(error?.code).toBe('run-failed-early');
    // It trips once.
    expect(stop.record(false, fail('down'))).toBeUndefined();
  });

  it('a finished session or a second message disarms it for good', () => {
    const finishedFirst = new EarlyStop(2, 100, 'sessions');
    finishedFirst.record(true, undefined);
    for (let i = 0; i < 5; i++) expect(finishedFirst.record(false, fail('down'))).toBeUndefined();
    const mixed = new EarlyStop(2, 100, 'sessions');
    mixed.record(false, fail('down'));
    expect(mixed.record(false, fail('HTTP 404'))).toBeUndefined();
    expect(mixed.record(false, fail('down'))).toBeUndefined();
  });

  it('a run shorter than the limit stops after all of its sessions; 0 never stops', () => {
    const short = new EarlyStop(4, 2, 'sessions');
    short.record(false, fail('down'));
    expect(short.record(false, fail('down'))?.failures).toBe(2);
    const off = new EarlyStop(0, 100, 'sessions');
    for (let i = 0; i < 10; i++) expect(off.record(false, fail('down'))).toBeUndefined();
  });
});

describe('simulate() stops early when its first sessions all fail alike', () => {
  it('stops after 4 alike failures at concurrency 8, with a typed error carrying the message', async () => {
    const dead = deadNegotiator();
    const out = join(tmp(), 'run.jsonl');
    const run = simulate({ buyer: dead, seller: population, sessions: 500, concurrency: 8, out });
    const error = await run.done().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunFailedEarlyError);
    expect(HaggleError.isInstance(error)).toBe(true);
    const stopped = error as RunFailedEarlyError;
    expect(stopped.failures).toBe(4);
    expect(stopped.errorMessage).toBe('RemoteConnectionError: connect ECONNREFUSED 127.0.0.1:9');
    expect(stopped.message).toMatch(/^stopped early: the first 4 sessions all failed with the same error/);
    // Not the 500: the 8 started at once, plus the 3 that workers freed by the first 3 failures started
    // before the 4th ended. Each one played is on file as a failure.
    expect(dead.calls).toBeLessThanOrEqual(8 + 3);
    const onFile = readRunFile(out).sessions;
    expect(onFile.length).toBe(dead.calls);
    expect(onFile.every((s) => s.outcome.reason === 'error')).toBe(true);
  });

  it('earlyStop: 0 plays every session and summarises them as failed, with no deal rate', async () => {
    const dead = deadNegotiator();
    const summary = await simulate({ buyer: dead, seller: population, sessions: 12, earlyStop: 0 }).done();
    expect(dead.calls).toBe(12);
    expect(summary).toMatchObject({ sessions: 12, finished: 0, errors: 12, dealRate: null });
    expect(summary.errorMessages).toEqual([
      { message: 'RemoteConnectionError: connect ECONNREFUSED 127.0.0.1:9', count: 12 },
    ]);
  });

  it('does not stop a run whose failures differ, or whose first session finished', async () => {
    let call = 0;
    const distinct: Negotiator = {
      describe: () => ({ kind: 'distinct-failures' }),
      async predict() {
        throw new Error(`failure number ${call++}`);
      },
    };
    const summary = await simulate({ buyer: distinct, seller: population, sessions: 10 }).done();
    expect(summary.errors).toBe(10);
    expect(summary.errorMessages).toHaveLength(10);

    // Concurrency 1: session 0 finishes (the negotiator works at first), then it dies.
    let calls = 0;
    const diesLater: Negotiator = {
      describe: () => ({ kind: 'dies-later' }),
      async predict(input, options) {
        if (calls++ >= 3) throw new Error('server went away');
        return population.predict(input, options);
      },
    };
    const later = await simulate({
      buyer: diesLater,
      seller: population,
      sessions: 10,
      concurrency: 1,
    }).done();
    expect(later.finished).toBeGreaterThanOrEqual(1);
    expect(later.sessions).toBe(10);
    expect(later.errors).toBe(10 - later.finished);
  });

  it('refuses a negative or fractional earlyStop', () => {
    expect(() => simulate({ buyer: population, seller: population, earlyStop: -1 })).toThrow(
      InvalidInputError,
    );
    expect(() => simulate({ buyer: population, seller: population, earlyStop: 1.5 })).toThrow(/earlyStop/);
  });
});

describe('tournaments count failed matches apart and stop early', () => {
  const suite = generateSuite({ seed: 3, scenarios: 3, seedsPerPair: 2 });
  const opponents = {
    'utility-conceder': utilityConceder(),
    'utility-tit-for-tat': new UtilityTitForTatNegotiator(),
  };
  /** Fails on every match of the suite's first scenario, the same way each time: a flaky remote model. */
  function flakyArm(): MultiIssueNegotiator {
    const inner = utilityLinear();
    const failing = suite.scenarios[0]?.title;
    return {
      describe: () => ({ kind: 'flaky-arm' }),
      async predict(input) {
        if (input.title === failing) throw new Error('HTTP 500 from the model server');
        return inner.predict(input);
      },
    };
  }

  it('scores stand on finished matches; paired comparisons skip pairs where either failed', async () => {
    const arms = { flaky: flakyArm(), linear: utilityLinear() };
    const results = await runTournament({ suite, arms, opponents, earlyStop: 0 }).done();
    const failedFlaky = results.matches.filter((m) => m.arm === 'flaky' && m.result.reason === 'error');
    expect(failedFlaky.length).toBeGreaterThan(0);
    expect(results.errors).toBe(failedFlaky.length);
    expect(results.errorMessages).toEqual([
      { message: 'HTTP 500 from the model server', count: failedFlaky.length },
    ]);
    const pooled = results.scores.find((s) => s.arm === 'flaky' && s.opponent === '*');
    const flakyMatches = results.matches.filter((m) => m.arm === 'flaky');
    expect(pooled).toMatchObject({
      matches: flakyMatches.length,
      errors: failedFlaky.length,
      finished: flakyMatches.length - failedFlaky.length,
    });
    const finishedFlaky = flakyMatches.filter((m) => m.result.reason !== 'error');
    expect(pooled?.dealRate.n).toBe(finishedFlaky.length);
    expect(pooled?.dealRate.mean).toBeCloseTo(
      finishedFlaky.filter((m) => m.metrics.deal).length / finishedFlaky.length,
      12,
    );
    const paired = compareArms(results, 'flaky', 'linear', 'deal');
    expect(paired.n).toBe(finishedFlaky.length);
  });

  it('a dead arm stops the tournament with RunFailedEarlyError', async () => {
    const dead: MultiIssueNegotiator = {
      describe: () => ({ kind: 'dead' }),
      async predict() {
        throw new Error('connect ECONNREFUSED');
      },
    };
    const error = await runTournament({ suite, arms: { dead }, opponents })
      .done()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunFailedEarlyError);
    expect((error as RunFailedEarlyError).message).toMatch(/^stopped early: the first 4 matches all failed/);
    expect((error as RunFailedEarlyError).errorMessage).toBe('connect ECONNREFUSED');
  });
});
