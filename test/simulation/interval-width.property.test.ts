/**
 * Every interval haggle prints from a finite sample has positive width, or is no interval at all (null,
 * NaN, printed `–`), unless the quantity is fixed by construction: the metrics table, `compare` against a
 * run and against the card, the report's data and chart whiskers, `analyse` and `evaluate`'s analysis,
 * `compareArms`. A zero-width [x, x] from 16 sessions claims a certainty 16 sessions cannot give.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CARD_REFERENCE_SET,
  clopperPearson,
  compare,
  compareToReferences,
  computeMetrics,
  differenceOfIntervals,
  judgeReference,
  pairedProportionInterval,
  proportionDifferenceInterval,
} from '../../src/entries/metrics.js';
import {
  analyseTournament,
  compareArms,
  type Estimate,
  type MatchRecord,
  pairedComparison,
  pairedProportionEstimate,
  proportionEstimate,
  tabulateTournament,
} from '../../src/evaluation/index.js';
import { buildReportData } from '../../src/report/report-data.js';
import type { SessionResult } from '../../src/simulation/session-result.js';

/** A positive-width interval, or none. */
function widthProblem(where: string, interval: readonly [number, number] | null | undefined): string[] {
  if (interval === null || interval === undefined) return [];
  const [low, high] = interval;
  if (Number.isNaN(low) && Number.isNaN(high)) return [];
  return high > low ? [] : [`${where}: [${low}, ${high}]`];
}
const estimateProblem = (where: string, e: Estimate) => widthProblem(where, [e.low, e.high]);

// --- sessions: a short negotiation, a deal or not, a message or not, a chosen response time -------------

interface SessionSpec {
  deal: boolean;
  message: boolean;
  price: number;
  hours: number;
  label: 'build_rapport' | 'invoke_compromise';
}

const sessionSpec = fc.record({
  deal: fc.boolean(),
  message: fc.boolean(),
  price: fc.constantFrom(60, 80, 95),
  hours: fc.constantFrom(1, 3),
  label: fc.constantFrom('build_rapport' as const, 'invoke_compromise' as const),
});

function session(i: number, spec: SessionSpec): SessionResult {
  const side = { kind: 'llm', profile: 'qwen3-4b-negotiation-50k-ep3' };
  const offer = spec.message
    ? {
        action: 'offer_with_message' as const,
        price: spec.price,
        message_labels: [spec.label],
        message: 'Would you take this?',
        response_time: spec.hours,
      }
    : {
        action: 'offer' as const,
        price: spec.price,
        message_labels: [],
        message: '',
        response_time: spec.hours,
      };
  const answer = {
    action: spec.deal ? ('accept' as const) : ('decline' as const),
    price: null,
    message_labels: [],
    message: '',
    response_time: spec.hours,
  };
  return {
    sessionId: `s${i}`,
    seed: i,
    context: { item: { title: 'x', category: 'books' }, listPrice: 100, currency: 'USD' },
    turns: [
      { role: 'buyer', turn: offer, elapsedHours: spec.hours },
      { role: 'seller', turn: answer, elapsedHours: 2 * spec.hours },
    ],
    outcome: {
      status: spec.deal ? 'deal' : 'no-deal',
      reason: spec.deal ? 'accepted' : 'declined',
      price: spec.deal ? spec.price : null,
      turns: 2,
      elapsedHours: 2 * spec.hours,
    },
    negotiators: { buyer: side, seller: side },
    rules: {},
  } as SessionResult;
}

const run = fc
  .array(sessionSpec, { minLength: 1, maxLength: 24 })
  .map((specs) => specs.map((spec, i) => session(i, spec)));

// --- tournament matches: two arms (one the other's base) against two opponents ----------------------

const utility = fc.constantFrom(0, 0.25, 0.5, 1);
const outcome = fc.record({
  deal: fc.boolean(),
  arm: utility,
  opponent: utility,
  rounds: fc.constantFrom(2, 4),
});

interface Outcome {
  deal: boolean;
  arm: number;
  opponent: number;
  rounds: number;
}

function match(arm: string, opponent: string, scenario: number, o: Outcome): MatchRecord {
  return {
    type: 'match',
    index: 0,
    arm,
    armRole: 'seller',
    opponent,
    scenarioId: `scenario-${scenario}`,
    seed: 100 + scenario,
    metrics: {
      deal: o.deal,
      armUtility: o.arm,
      opponentUtility: o.opponent,
      distanceToNash: o.deal ? o.arm / 4 : null,
      distanceToPareto: o.deal ? o.opponent / 4 : null,
      armIrViolation: false,
      rounds: o.rounds,
    },
    result: {
      agreement: o.deal ? { price: 10 } : null,
      reason: o.deal ? 'accepted' : 'deadline',
      rounds: o.rounds,
      utilities: { seller: o.arm, buyer: o.opponent },
      turns: [],
    },
  } as MatchRecord;
}

const tournament = fc
  .array(fc.tuple(outcome, outcome, outcome, outcome), { minLength: 1, maxLength: 10 })
  .map((rows) =>
    rows.flatMap(([baseGpt, trainedGpt, baseClaude, trainedClaude], scenario) => [
      match('base', 'gpt', scenario, baseGpt),
      match('trained', 'gpt', scenario, trainedGpt),
      match('base', 'claude', scenario, baseClaude),
      match('trained', 'claude', scenario, trainedClaude),
    ]),
  );

const FAST = { resamples: 40, seed: 1 };

describe('no zero-width interval from a finite sample', () => {
  it('proportions: Clopper-Pearson, Newcombe, Tango and their MOVER differences', () => {
    const count = fc
      .integer({ min: 1, max: 400 })
      .chain((n) => fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n)));
    fc.assert(
      fc.property(count, count, ([a, n1], [b, n2]) => {
        expect(widthProblem('clopperPearson', clopperPearson(a, n1))).toEqual([]);
        expect(widthProblem('newcombe', proportionDifferenceInterval(a, n1, b, n2))).toEqual([]);
      }),
    );
    const paired = fc
      .integer({ min: 1, max: 300 })
      .chain((n) =>
        fc
          .integer({ min: 0, max: n })
          .chain((onlyA) =>
            fc.tuple(fc.constant(onlyA), fc.integer({ min: 0, max: n - onlyA }), fc.constant(n)),
          ),
      );
    fc.assert(
      fc.property(paired, paired, ([x, y, n], [u, v, m]) => {
        const first = pairedProportionInterval(x, y, n);
        const second = pairedProportionInterval(u, v, m);
        expect(widthProblem('tango', first)).toEqual([]);
        const moved = differenceOfIntervals(
          { estimate: (x - y) / n, low: first[0], high: first[1] },
          { estimate: (u - v) / m, low: second[0], high: second[1] },
        );
        expect(widthProblem('mover', moved)).toEqual([]);
      }),
    );
  });

  it('the card comparison: every difference interval, at every count, for every published value', () => {
    const count = fc
      .integer({ min: 1, max: 5000 })
      .chain((n) => fc.tuple(fc.integer({ min: 0, max: n }), fc.constant(n)));
    fc.assert(
      fc.property(count, ([successes, n]) => {
        for (const reference of CARD_REFERENCE_SET.values) {
          const judged = judgeReference(successes, n, reference, 0.95);
          expect(widthProblem(reference.id, judged.differenceCi)).toEqual([]);
        }
      }),
    );
  });

  it('the metrics table, compare against a run and the card, and the report', () => {
    fc.assert(
      fc.property(run, run, (a, b) => {
        const problems: string[] = [];
        for (const e of computeMetrics(a, FAST)) problems.push(...widthProblem(`metrics ${e.id}`, e.ci));
        for (const row of compare(a, b, FAST).rows)
          problems.push(...widthProblem(`compare ${row.id}`, row.ci));
        for (const row of compareToReferences(a, CARD_REFERENCE_SET).rows) {
          problems.push(...widthProblem(`card ${row.reference.id}`, row.ci));
          problems.push(...widthProblem(`card difference ${row.reference.id}`, row.differenceCi));
        }
        const report = buildReportData({
          run: { name: 'a', sessions: a },
          reference: { name: 'b', sessions: b },
          bootstrap: FAST,
          transcripts: 0,
        });
        for (const row of report.comparison?.rows ?? [])
          problems.push(...widthProblem(`report ${row.id}`, row.ci));
        const alone = buildReportData({
          run: { name: 'a', sessions: a },
          bootstrap: FAST,
          transcripts: 0,
          published: CARD_REFERENCE_SET,
        });
        for (const e of alone.estimates ?? []) problems.push(...widthProblem(`report ${e.id}`, e.ci));
        for (const row of alone.published?.rows ?? [])
          problems.push(...widthProblem(`report card ${row.reference.id}`, row.differenceCi));
        const charts = alone.run.intervals;
        for (const [i, interval] of charts.priceBins.entries())
          problems.push(...widthProblem(`price bin ${i}`, interval));
        for (const map of [charts.sessionLength, charts.tiers, charts.labelDealRate, charts.labelConcession])
          for (const [key, interval] of map) problems.push(...widthProblem(`chart ${key}`, interval));
        expect(problems).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });

  it('analyse and evaluate (scores, comparisons, gains, interactions, groups) and compareArms', () => {
    fc.assert(
      fc.property(tournament, (records) => {
        const problems: string[] = [];
        const analysis = analyseTournament(
          {
            records,
            header: {
              labels: {
                arms: { trained: { base: 'base' } },
                opponents: {
                  gpt: { family: 'gpt', trainingPool: true },
                  claude: { family: 'claude', trainingPool: false },
                },
              },
            } as never,
          },
          { resamples: 40, permutations: 50 },
        );
        for (const s of analysis.scores)
          for (const key of [
            'dealRate',
            'armUtility',
            'opponentUtility',
            'distanceToNash',
            'distanceToPareto',
            'welfare',
            'rounds',
          ] as const)
            problems.push(...estimateProblem(`score ${s.arm}/${s.opponent} ${key}`, s[key]));
        const rows = [...analysis.comparisons, ...analysis.gains, ...analysis.groups.flatMap((g) => g.gains)];
        for (const r of rows) problems.push(...estimateProblem(`${r.kind} ${r.key}`, r.difference));
        for (const c of [...analysis.interactions, ...analysis.groups.flatMap((g) => g.contrasts)]) {
          problems.push(...estimateProblem(`contrast ${c.key}`, c.difference));
          problems.push(...estimateProblem(`gain ${c.key} first`, c.gainFirst));
          problems.push(...estimateProblem(`gain ${c.key} second`, c.gainSecond));
        }
        const results = tabulateTournament([...records]);
        for (const metric of ['armUtility', 'deal', 'opponentUtility'] as const)
          problems.push(
            ...estimateProblem(
              `compareArms ${metric}`,
              compareArms(results, 'trained', 'base', metric).difference,
            ),
          );
        expect(problems).toEqual([]);
      }),
      { numRuns: 40 },
    );
  });

  it('the estimates behind them, on samples with ties and with one value only', () => {
    const zeroOne = fc.array(fc.constantFrom(0, 1), { minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(zeroOne, zeroOne, (a, b) => {
        const n = Math.min(a.length, b.length);
        const [x, y] = [a.slice(0, n), b.slice(0, n)];
        expect(estimateProblem('proportion', proportionEstimate(x.map(Boolean)))).toEqual([]);
        const diffs = x.map((v, i) => v - (y[i] as number));
        expect(estimateProblem('paired proportion', pairedProportionEstimate(diffs))).toEqual([]);
        expect(
          estimateProblem('paired binary', pairedComparison(x, y, { outcomes: 'binary' }).difference),
        ).toEqual([]);
        expect(estimateProblem('paired mean', pairedComparison(x, y, { resamples: 40 }).difference)).toEqual(
          [],
        );
      }),
    );
  });

  it('the one exception is fixed by construction: an arm compared with itself', () => {
    const records = [match('a', 'gpt', 1, { deal: true, arm: 0.5, opponent: 0.5, rounds: 2 })];
    const self = compareArms(tabulateTournament(records), 'a', 'a', 'deal');
    expect(self.difference).toMatchObject({ low: 0, high: 0 });
    expect(self.verdict).toMatch(/0 by construction/);
  });
});
