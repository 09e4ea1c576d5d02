import { describe, expect, it } from 'vitest';
import { TooManyFailuresError } from '../../src/cli/errors.js';
import { formatScores } from '../../src/cli/evaluate-output.js';
import { enforceFailureLimit, printFailures } from '../../src/cli/failure-limit.js';
import {
  generateSuite,
  type MultiIssueNegotiator,
  runTournament,
  UtilityTitForTatNegotiator,
  utilityConceder,
  utilityLinear,
} from '../../src/evaluation/index.js';
import { renderTournamentReport } from '../../src/report/index.js';
import { captureIo } from '../helpers/capture-io.js';

const suite = generateSuite({ seed: 4, scenarios: 2, seedsPerPair: 2 });
const opponents = {
  'utility-conceder': utilityConceder(),
  'utility-tit-for-tat': new UtilityTitForTatNegotiator(),
};
const dead: MultiIssueNegotiator = {
  describe: () => ({ kind: 'dead' }),
  async predict() {
    throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { name: 'RemoteConnectionError' });
  },
};

describe('a tournament with an arm whose every match failed', async () => {
  const results = await runTournament({
    suite,
    arms: { dead, linear: utilityLinear() },
    opponents,
    earlyStop: 0,
  }).done();
  const deadMatches = results.matches.filter((m) => m.arm === 'dead').length;

  it('counts the failures and shows no rate for the dead arm', () => {
    expect(results.errors).toBe(deadMatches);
    expect(results.errorMessages).toEqual([
      { message: 'RemoteConnectionError: connect ECONNREFUSED 127.0.0.1:9', count: deadMatches },
    ]);
    const table = formatScores(results.scores);
    const pooledDead = table.split('\n').find((line) => /^dead\s+all\s/.test(line)) ?? '';
    expect(pooledDead.split(/\s{2,}/)).toEqual([
      'dead',
      'all',
      String(deadMatches),
      String(deadMatches),
      ...Array.from({ length: 8 }, () => '–'), // deal rate to IR violations: nothing finished
    ]);
    const pooledLinear = table.split('\n').find((line) => /^linear\s+all\s/.test(line)) ?? '';
    expect(pooledLinear).toMatch(/^linear\s+all\s+\d+\s+0\s+\d\.\d{3} \[/);
  });

  it('the tournament report lists the failures and a failed column', () => {
    const html = renderTournamentReport(results, { title: 't' });
    expect(html).toContain('<th>failed</th>');
    expect(html).toContain(`${deadMatches} of ${results.matches.length} matches failed`);
    expect(html).toContain(
      `<tr data-error-count="${deadMatches}"><td class="error-message">RemoteConnectionError: connect ECONNREFUSED 127.0.0.1:9</td>`,
    );
  });

  it('the CLI lists the error once with its count, and the limit throws the exit-3 error', () => {
    const io = captureIo();
    const counts = {
      total: results.matches.length,
      unfinished: results.errors,
      errorMessages: results.errorMessages,
    };
    printFailures(io, counts, 'matches');
    expect(io.err()).toBe(
      `haggle: ${deadMatches} of ${results.matches.length} matches failed:\nhaggle:   ${deadMatches} × RemoteConnectionError: connect ECONNREFUSED 127.0.0.1:9\n`,
    );
    expect(() => enforceFailureLimit(counts, 0, 'matches')).toThrow(TooManyFailuresError);
    expect(() => enforceFailureLimit(counts, 0.5, 'matches')).not.toThrow();
    // Nothing finished: no limit lets that pass.
    expect(() => enforceFailureLimit({ ...counts, unfinished: counts.total }, 1, 'matches')).toThrow(
      /^all \d+ matches failed; there is no result$/,
    );
  });
});
