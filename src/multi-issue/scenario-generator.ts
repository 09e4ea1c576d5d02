import { InvalidInputError, type ValidationIssue } from '../contract/errors.js';
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

/** The secondary issues the generator knows, in the order it draws from. */
export const SECONDARY_ISSUE_NAMES: readonly string[] = SECONDARY.map((s) => s.issue.name);

/**
 * How scenarios are drawn: every default is haggle's choice (see docs/evaluation.md, "Facts and
 * choices"); none comes from the preprint, whose abstract gives no issue space or utilities.
 */
export interface ScenarioGeneratorOptions {
  /**
   * Secondary issues a scenario may add to the price, by name (`SECONDARY_ISSUE_NAMES`: shipping_speed,
   * warranty, returns, delivery_days, quantity). Default all five; `[]` gives single-issue (price) scenarios.
   */
  issues?: readonly string[];
  /**
   * Relative weights of drawing 0, 1, 2, ... secondary issues; at most one more entry than `issues`.
   * Default [1, 3, 3, 2] (cut to the issues there are).
   */
  extraIssueWeights?: readonly number[];
  /** Grid points of the price issue (for the frontier and the Nash point). Default 21. */
  priceSteps?: number;
  /** Each side's reservation utility is drawn uniformly from [low, high]. Default [0.2, 0.45] for both. */
  reservation?: { seller?: readonly [number, number]; buyer?: readonly [number, number] };
}

const DEFAULT_EXTRA_WEIGHTS = [1, 3, 3, 2];
const DEFAULT_RESERVATION: readonly [number, number] = [0.2, 0.45];

/** The problems with generator options, as validation issues (empty when they are fine). */
export function checkScenarioGeneratorOptions(options: ScenarioGeneratorOptions): ValidationIssue[] {
  const problems: ValidationIssue[] = [];
  const issues = options.issues ?? SECONDARY_ISSUE_NAMES;
  const unknown = issues.filter((name) => !SECONDARY_ISSUE_NAMES.includes(name));
  if (unknown.length > 0)
    problems.push({
      path: 'issues',
      message: `unknown ${unknown.join(', ')}; choose from ${SECONDARY_ISSUE_NAMES.join(', ')}`,
    });
  if (new Set(issues).size !== issues.length) problems.push({ path: 'issues', message: 'must be distinct' });
  const weights = options.extraIssueWeights;
  if (weights !== undefined) {
    if (weights.length === 0 || weights.length > issues.length + 1)
      problems.push({
        path: 'extraIssueWeights',
        message: `needs 1 to ${issues.length + 1} weights (for 0 to ${issues.length} secondary issues)`,
      });
    if (weights.some((w) => !(Number.isFinite(w) && w >= 0)) || !weights.some((w) => w > 0))
      problems.push({
        path: 'extraIssueWeights',
        message: 'must be non-negative numbers, at least one positive',
      });
  }
  const steps = options.priceSteps;
  if (steps !== undefined && (!Number.isInteger(steps) || steps < 2 || steps > 201))
    problems.push({ path: 'priceSteps', message: 'must be an integer from 2 to 201' });
  for (const side of ['seller', 'buyer'] as const) {
    const range = options.reservation?.[side];
    if (range === undefined) continue;
    const [low, high] = range;
    if (!(range.length === 2 && low >= 0 && high <= 1 && low <= high))
      problems.push({
        path: `reservation.${side}`,
        message: 'must be [low, high] with 0 <= low <= high <= 1',
      });
  }
  return problems;
}

/**
 * Draws scenario `index` of a suite; it depends only on `seed`, `index` and the options (whose
 * defaults draw exactly what earlier versions drew, so existing suites keep their ids).
 */
export function generateScenario(
  seed: number,
  index: number,
  options: ScenarioGeneratorOptions = {},
): Scenario {
  const problems = checkScenarioGeneratorOptions(options);
  if (problems.length > 0)
    throw new InvalidInputError({ subject: 'ScenarioGeneratorOptions', issues: problems });
  const available = SECONDARY.filter((s) => (options.issues ?? SECONDARY_ISSUE_NAMES).includes(s.issue.name));
  const extraWeights = options.extraIssueWeights ?? DEFAULT_EXTRA_WEIGHTS.slice(0, available.length + 1);
  const [sellerLow, sellerHigh] = options.reservation?.seller ?? DEFAULT_RESERVATION;
  const [buyerLow, buyerHigh] = options.reservation?.buyer ?? DEFAULT_RESERVATION;
  for (let draw = 0; draw < MAX_DRAWS; draw++) {
    const random = new Random(deriveSeed(seed, index, draw));
    const listPrice = Math.round(random.logNormal(250, 0.9));
    const priceIssue: Issue = {
      kind: 'price',
      name: 'price',
      min: Math.round(listPrice * 0.5),
      max: listPrice,
      steps: options.priceSteps ?? 21,
    };
    const extraCount = random.weighted(extraWeights.map((weight, value) => ({ value, weight })));
    const pool = [...available];
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
      reservation: round3(random.uniform(sellerLow, sellerHigh)),
      discount: 1,
    };
    const buyer: SideUtility = {
      weights: drawWeights(names, random, 0.8),
      valuations: {
        price: { kind: 'linear', direction: 'decreasing' },
        ...Object.fromEntries(extras.map((e) => [e.issue.name, e.buyer(random)])),
      },
      reservation: round3(random.uniform(buyerLow, buyerHigh)),
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
  throw new InvalidInputError({
    subject: 'ScenarioGeneratorOptions',
    issues: [
      {
        path: 'reservation',
        message: `no scenario with a zone of agreement after ${MAX_DRAWS} draws (seed ${seed}, scenario ${index}): lower the reservation ranges`,
      },
    ],
  });
}
