import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Role } from '../../src/contract/history.js';
import { generateSuite } from '../../src/evaluation/suite.js';
import { runTournament } from '../../src/evaluation/tournament.js';
import { AdaptiveConcessionNegotiator } from '../../src/multi-issue/adaptive-concession-negotiator.js';
import { HardHeadedNegotiator } from '../../src/multi-issue/hard-headed-negotiator.js';
import {
  checkOutcome,
  type Issue,
  type IssueSpace,
  type Outcome,
} from '../../src/multi-issue/issue-space.js';
import {
  MULTI_ISSUE_BASELINE_NAMES,
  MULTI_ISSUE_BASELINES,
} from '../../src/multi-issue/multi-issue-baseline-registry.js';
import type { MultiIssueHistoryEntry, MultiIssueNegotiator } from '../../src/multi-issue/multi-issue-turn.js';
import { NashSeekingNegotiator } from '../../src/multi-issue/nash-seeking-negotiator.js';
import { rankOutcomes } from '../../src/multi-issue/outcome-ranking.js';
import { type SideUtility, utilityOf } from '../../src/multi-issue/utility.js';

const NEW = ['utility-hard-headed', 'utility-nash-seeker', 'utility-adaptive-concession'] as const;

const issueArb: fc.Arbitrary<Omit<Issue, 'name'>> = fc.oneof(
  fc
    .record({
      min: fc.integer({ min: 0, max: 500 }),
      span: fc.integer({ min: 1, max: 500 }),
      steps: fc.integer({ min: 2, max: 9 }),
    })
    .map(({ min, span, steps }) => ({ kind: 'price' as const, min, max: min + span, steps })),
  fc
    .record({ min: fc.integer({ min: -3, max: 5 }), span: fc.integer({ min: 1, max: 6 }) })
    .map(({ min, span }) => ({ kind: 'integer' as const, min, max: min + span })),
  fc.integer({ min: 2, max: 5 }).map((n) => ({
    kind: 'options' as const,
    options: Array.from({ length: n }, (_, i) => `option_${i}`),
  })),
);

function valuation(issue: Issue, values: number[], increasing: boolean): SideUtility['valuations'][string] {
  if (issue.kind !== 'options')
    return { kind: 'linear', direction: increasing ? 'increasing' : 'decreasing' };
  return {
    kind: 'table',
    values: Object.fromEntries(issue.options.map((o, i) => [o, values[i % values.length] as number])),
  };
}

/** A random scenario-side: 1 to 3 issues, random weights, valuations, reservation (up to 1) and discount. */
const caseArb = fc
  .record({
    issues: fc.array(issueArb, { minLength: 1, maxLength: 3 }),
    weights: fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 3, maxLength: 3 }),
    values: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 5, maxLength: 5 }),
    increasing: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
    reservation: fc.double({ min: 0, max: 1, noNaN: true }),
    discount: fc.oneof(fc.constant(1), fc.double({ min: 0.5, max: 1, noNaN: true })),
    role: fc.constantFrom<Role>('seller', 'buyer'),
    maxRounds: fc.integer({ min: 1, max: 12 }),
    historySeed: fc.array(fc.nat(), { minLength: 12, maxLength: 12 }),
  })
  .map((c) => {
    const space: IssueSpace = {
      issues: c.issues.map((issue, i) => ({ ...issue, name: `issue_${i}` }) as Issue),
    };
    const raw = space.issues.map((_, i) => (c.weights[i] as number) + 1);
    const total = raw.reduce((a, b) => a + b, 0);
    const utility: SideUtility = {
      weights: Object.fromEntries(space.issues.map((issue, i) => [issue.name, (raw[i] as number) / total])),
      valuations: Object.fromEntries(
        space.issues.map((issue, i) => [issue.name, valuation(issue, c.values, c.increasing[i] as boolean)]),
      ),
      reservation: c.reservation,
      discount: c.discount,
    };
    return { ...c, space, utility };
  });

/** A grid outcome (or an off-grid price, as an LLM might offer) picked by `n`. */
function someOutcome(space: IssueSpace, n: number): Outcome {
  const outcome: Outcome = {};
  space.issues.forEach((issue, i) => {
    const k = Math.floor(n / (i + 1)) + i;
    if (issue.kind === 'options') outcome[issue.name] = issue.options[k % issue.options.length] as string;
    else if (issue.kind === 'integer') outcome[issue.name] = issue.min + (k % (issue.max - issue.min + 1));
    else outcome[issue.name] = issue.min + ((k % 1000) / 999) * (issue.max - issue.min);
  });
  return outcome;
}

describe('the learning strategies', () => {
  it('are in the registry under their names', () => {
    for (const name of NEW) expect(MULTI_ISSUE_BASELINE_NAMES).toContain(name);
    expect(MULTI_ISSUE_BASELINES['utility-hard-headed']()).toBeInstanceOf(HardHeadedNegotiator);
    expect(MULTI_ISSUE_BASELINES['utility-nash-seeker']()).toBeInstanceOf(NashSeekingNegotiator);
    expect(MULTI_ISSUE_BASELINES['utility-adaptive-concession']()).toBeInstanceOf(
      AdaptiveConcessionNegotiator,
    );
  });

  it('each offers only legal outcomes and never proposes or accepts below the reservation (2,000 random scenarios, all three on each)', async () => {
    const negotiators: Record<string, MultiIssueNegotiator> = Object.fromEntries(
      NEW.map((name) => [name, MULTI_ISSUE_BASELINES[name]()]),
    );
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const round = (c.historySeed[0] as number) % c.maxRounds;
        const other: Role = c.role === 'seller' ? 'buyer' : 'seller';
        // Whoever moved at round 0, the side to move now is c.role; the turns before alternate back from it.
        const history: MultiIssueHistoryEntry[] = Array.from({ length: round }, (_, k) => ({
          role: (round - k) % 2 === 1 ? other : c.role,
          turn: {
            action: 'offer',
            offer: someOutcome(c.space, c.historySeed[k % 12] as number),
            message: '',
          },
        }));
        const input = {
          space: c.space,
          role: c.role,
          utility: c.utility,
          history,
          round,
          maxRounds: c.maxRounds,
        };
        for (const strategy of NEW) {
          const turn = await (negotiators[strategy] as MultiIssueNegotiator).predict(input, { seed: 1 });
          if (turn.action === 'offer') {
            expect(() => checkOutcome(c.space, turn.offer ?? {})).not.toThrow();
            // a proposal is accepted a round later at the earliest: worth the reservation even then
            expect(utilityOf(c.space, c.utility, turn.offer ?? {}, round + 1)).toBeGreaterThanOrEqual(
              c.reservation - 1e-9,
            );
          } else if (turn.action === 'accept') {
            const standing = history.at(-1);
            expect(standing?.role).toBe(other);
            expect(utilityOf(c.space, c.utility, standing?.turn.offer ?? {}, round)).toBeGreaterThanOrEqual(
              c.reservation - 1e-9,
            );
          } else {
            expect(turn.action).toBe('walk_away');
            // only when nothing is worth proposing: no outcome reaches the reservation a round later
            const best = rankOutcomes(c.space, c.utility).utilities[0] as number;
            expect(best * c.utility.discount ** (round + 1)).toBeLessThan(c.reservation + 1e-9);
          }
        }
      }),
      { numRuns: 2000, seed: 46 },
    );
  }, 120_000);

  it('tournaments with them are reproducible byte for byte (same seed, same file at any concurrency)', async () => {
    const suite = generateSuite({
      seed: 46,
      scenarios: 4,
      seedsPerPair: 2,
      opponents: [...NEW, 'utility-conceder'],
    });
    const dir = mkdtempSync(join(tmpdir(), 'haggle-learning-'));
    const play = async (out: string, concurrency: number) => {
      const build = () =>
        Object.fromEntries(
          suite.opponents.map((n) => [n, MULTI_ISSUE_BASELINES[n as (typeof NEW)[number]]()]),
        );
      await runTournament({
        suite,
        arms: build(),
        opponents: build(),
        armRoles: ['seller', 'buyer'],
        out,
        concurrency,
      }).done();
      return readFileSync(out, 'utf8');
    };
    const first = await play(join(dir, 'a.jsonl'), 1);
    const second = await play(join(dir, 'b.jsonl'), 5);
    expect(second).toBe(first);
    expect(first.split('\n').filter((l) => l.includes('"type":"match"'))).toHaveLength(4 * 4 * 2 * 4 * 2);
  }, 60_000);
});
