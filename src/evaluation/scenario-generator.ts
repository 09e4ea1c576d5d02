import { deriveSeed, Random } from '../internal/random.js';
import type { Issue } from './issue-space.js';
import { type Scenario, scenarioGeometry } from './scenario.js';
import type { IssueValuation, SideUtility } from './utility.js';

/**
 * Seeded generation of multi-issue scenarios. Every scenario has a price issue; most add one to three
 * of the secondary issues marketplaces negotiate (shipping, warranty, returns, delivery time, quantity).
 * Preferences are opposed on price and partly aligned elsewhere, which is what makes integrative
 * bargaining (and a Pareto frontier worth reaching) possible.
 */

interface SecondaryIssue {
  issue: Issue;
  /** The seller's valuation; the buyer's is drawn to mostly oppose it. */
  seller: (random: Random) => IssueValuation;
  buyer: (random: Random) => IssueValuation;
}

const ITEMS = [
  'refurbished laptop',
  'road bike',
  'espresso machine',
  'camera lens',
  'standing desk',
  'drone',
  'guitar amplifier',
  'smartwatch',
];

// Options are listed cheapest for the seller first; values descend for the seller, rise for the buyer.
function optionValues(options: readonly string[], random: Random, forSeller: boolean): IssueValuation {
  const values: Record<string, number> = {};
  options.forEach((option, index) => {
    const position = index / (options.length - 1);
    const base = forSeller ? 1 - position : position;
    values[option] = round3(clamp01(base + random.uniform(-0.15, 0.15)));
  });
  return { kind: 'table', values };
}

const SECONDARY: readonly SecondaryIssue[] = [
  {
    issue: { kind: 'options', name: 'shipping_speed', options: ['standard', 'expedited', 'overnight'] },
    seller: (r) => optionValues(['standard', 'expedited', 'overnight'], r, true),
    buyer: (r) => optionValues(['standard', 'expedited', 'overnight'], r, false),
  },
  {
    issue: { kind: 'options', name: 'warranty', options: ['none', 'days_90', 'year_1'] },
    seller: (r) => optionValues(['none', 'days_90', 'year_1'], r, true),
    buyer: (r) => optionValues(['none', 'days_90', 'year_1'], r, false),
  },
  {
    issue: { kind: 'options', name: 'returns', options: ['no_returns', 'days_14', 'days_30'] },
    seller: (r) => optionValues(['no_returns', 'days_14', 'days_30'], r, true),
    buyer: (r) => optionValues(['no_returns', 'days_14', 'days_30'], r, false),
  },
  {
    issue: { kind: 'integer', name: 'delivery_days', min: 1, max: 10 },
    seller: () => ({ kind: 'linear', direction: 'increasing' }),
    buyer: () => ({ kind: 'linear', direction: 'decreasing' }),
  },
  {
    // Both sides gain from a larger quantity here: an aligned issue, free value to find.
    issue: { kind: 'integer', name: 'quantity', min: 1, max: 4 },
    seller: () => ({ kind: 'linear', direction: 'increasing' }),
    buyer: () => ({ kind: 'linear', direction: 'increasing' }),
  },
];

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** Random weights summing exactly to 1 (rounded to 3 decimals, the rounding error folded into the first). */
function drawWeights(names: readonly string[], random: Random, priceFloor: number): Record<string, number> {
  const raw = names.map((_, i) => (i === 0 ? priceFloor + random.next() : random.uniform(0.1, 1)));
  const total = raw.reduce((a, b) => a + b, 0);
  const weights = raw.map((w) => round3(w / total));
  const drift = round3(1 - weights.reduce((a, b) => a + b, 0));
  weights[0] = round3((weights[0] ?? 0) + drift);
  return Object.fromEntries(names.map((name, i) => [name, weights[i] ?? 0]));
}

const MAX_DRAWS = 50;

/** Draws scenario `index` of a suite; it depends only on `seed` and `index`. */
export function generateScenario(seed: number, index: number): Scenario {
  for (let draw = 0; draw < MAX_DRAWS; draw++) {
    const random = new Random(deriveSeed(seed, index, draw));
    const listPrice = Math.round(random.logNormal(250, 0.9));
    const priceIssue: Issue = {
      kind: 'price',
      name: 'price',
      min: Math.round(listPrice * 0.5),
      max: listPrice,
      steps: 21,
    };
    const extraCount = random.weighted([
      { value: 0, weight: 1 },
      { value: 1, weight: 3 },
      { value: 2, weight: 3 },
      { value: 3, weight: 2 },
    ]);
    const pool = [...SECONDARY];
    const extras: SecondaryIssue[] = [];
    for (let i = 0; i < extraCount; i++)
      extras.push(pool.splice(random.int(0, pool.length - 1), 1)[0] as SecondaryIssue);
    const issues = [priceIssue, ...extras.map((e) => e.issue)];
    const names = issues.map((issue) => issue.name);

    const seller: SideUtility = {
      weights: drawWeights(names, random, 0.8),
      valuations: {
        price: { kind: 'linear', direction: 'increasing' },
        ...Object.fromEntries(extras.map((e) => [e.issue.name, e.seller(random)])),
      },
      reservation: round3(random.uniform(0.2, 0.45)),
      discount: 1,
    };
    const buyer: SideUtility = {
      weights: drawWeights(names, random, 0.8),
      valuations: {
        price: { kind: 'linear', direction: 'decreasing' },
        ...Object.fromEntries(extras.map((e) => [e.issue.name, e.buyer(random)])),
      },
      reservation: round3(random.uniform(0.2, 0.45)),
      discount: 1,
    };
    const scenario: Scenario = {
      id: `scenario-${String(index).padStart(3, '0')}`,
      title: `${random.pick(ITEMS)} (${issues.length} issue${issues.length > 1 ? 's' : ''})`,
      space: { issues },
      buyer,
      seller,
    };
    // Keep only scenarios with a zone of agreement: a suite of impossible deals measures nothing.
    if (scenarioGeometry(scenario).nash !== null) return scenario;
  }
  throw new Error(
    `no scenario with a zone of agreement after ${MAX_DRAWS} draws (seed ${seed}, index ${index})`,
  );
}
