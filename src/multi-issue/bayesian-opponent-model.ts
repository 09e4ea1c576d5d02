import { InvalidInputError } from '../contract/errors.js';
import type { Issue, IssueSpace, Outcome } from './issue-space.js';
import { modelledUtility, type OpponentModel, positionInIssue } from './opponent-model.js';

/** Options of `BayesianOpponentModel`: the concession the other side is assumed to follow. */
export interface BayesianOpponentModelOptions {
  /**
   * How far the other side's own utility of its offers is assumed to fall by the deadline: its offer at
   * time t is expected to be worth `1 - concession · t` to it. Default 0.5 (haggle's choice).
   */
  concession?: number;
  /** Spread (standard deviation) of that expectation in the likelihood. Default 0.15 (haggle's choice). */
  sigma?: number;
}

/** A value function hypothesis: the value of a position in the issue (see `positionInIssue`). */
type Shape = (position: number) => number;

/** Issues up to which every ranking of the weights is a hypothesis (6! = 720). */
const MAX_RANKED_ISSUES = 6;
/** Options up to which every ranking of the options is a hypothesis (4! = 24). */
const MAX_RANKED_OPTIONS = 4;

function permutations(n: number): number[][] {
  if (n === 0) return [[]];
  const out: number[][] = [];
  for (const rest of permutations(n - 1)) {
    for (let at = 0; at <= rest.length; at++) out.push([...rest.slice(0, at), n - 1, ...rest.slice(at)]);
  }
  return out;
}

/**
 * Weight hypotheses. Up to 6 issues, every ranking, weights linear in rank (`2r / n(n+1)`, as Hindriks &
 * Tykhonov derive weights from rankings); above, haggle's choice to stay small: "issue k counts double"
 * for each k, and equal weights.
 */
function weightHypotheses(n: number): number[][] {
  if (n <= MAX_RANKED_ISSUES) {
    const total = (n * (n + 1)) / 2;
    return permutations(n).map((ranks) => ranks.map((r) => (r + 1) / total));
  }
  const lead = Array.from({ length: n }, (_, k) =>
    Array.from({ length: n }, (_, i) => (i === k ? 2 : 1) / (n + 1)),
  );
  return [...lead, new Array<number>(n).fill(1 / n)];
}

/**
 * Value hypotheses of one issue. Price and integer: rising, falling, and triangles peaking at a quarter,
 * half and three quarters of the range (the shapes of Hindriks & Tykhonov; the peak positions are
 * haggle's choice). Options, which have no order: every ranking of up to 4 options with values evenly
 * spaced from 0 to 1; with more, "option k is the one it wants" for each k (haggle's choice).
 */
function valueHypotheses(issue: Issue): Shape[] {
  if (issue.kind !== 'options') {
    const triangle =
      (peak: number): Shape =>
      (p) =>
        1 - Math.abs(p - peak) / Math.max(peak, 1 - peak);
    return [(p) => p, (p) => 1 - p, triangle(0.25), triangle(0.5), triangle(0.75)];
  }
  const m = issue.options.length;
  const index = (p: number) => Math.round(p * (m - 1));
  if (m <= MAX_RANKED_OPTIONS)
    return permutations(m).map((ranks) => (p: number) => (ranks[index(p)] as number) / (m - 1));
  return Array.from({ length: m }, (_, k) => (p: number) => (index(p) === k ? 1 : 0));
}

function normalise(probabilities: number[]): void {
  const total = probabilities.reduce((a, b) => a + b, 0);
  if (!(total > 0) || !Number.isFinite(total)) {
    probabilities.fill(1 / probabilities.length); // every hypothesis ruled out: start over, not NaN
    return;
  }
  for (let i = 0; i < probabilities.length; i++) probabilities[i] = (probabilities[i] as number) / total;
}

/**
 * The Bayesian model of Hindriks & Tykhonov (2008), re-implemented from the paper's description: a
 * hypothesis space over the ranking of the other side's issue weights and over the shape of each
 * issue's value function, with a uniform prior, updated by Bayes' rule after each offer with the
 * likelihood that the offer is worth to the other side what a conceding negotiator would ask at that
 * time. As in the paper, weights and each issue's values are learnt as separate factors (the joint space
 * is too large): a factor's hypotheses are scored with the other factors at their current expectation.
 *
 * haggle's choices (labelled in docs/evaluation.md): the assumed concession (linear from 1 to 0.5 over
 * the deadline), the Gaussian likelihood's spread (0.15), the shapes listed at `valueHypotheses`, and a
 * reset to uniform should every hypothesis of a factor be ruled out.
 */
export class BayesianOpponentModel implements OpponentModel {
  readonly concession: number;
  readonly sigma: number;
  private readonly weightSets: number[][];
  private readonly weightBelief: number[];
  private readonly shapes: Shape[][];
  private readonly shapeBeliefs: number[][];
  private expectedWeights: number[] | null = null;

  constructor(
    readonly space: IssueSpace,
    options: BayesianOpponentModelOptions = {},
  ) {
    this.concession = options.concession ?? 0.5;
    this.sigma = options.sigma ?? 0.15;
    const problems: { path: string; message: string }[] = [];
    if (!(this.concession >= 0 && this.concession <= 1))
      problems.push({ path: 'concession', message: 'must be a number from 0 to 1' });
    if (!(this.sigma > 0) || !Number.isFinite(this.sigma))
      problems.push({ path: 'sigma', message: 'must be a positive number' });
    if (problems.length > 0)
      throw new InvalidInputError({ subject: 'BayesianOpponentModelOptions', issues: problems });
    this.weightSets = weightHypotheses(space.issues.length);
    this.weightBelief = this.weightSets.map(() => 1 / this.weightSets.length);
    this.shapes = space.issues.map(valueHypotheses);
    this.shapeBeliefs = this.shapes.map((set) => set.map(() => 1 / set.length));
  }

  describe() {
    return { kind: 'bayesian', concession: this.concession, sigma: this.sigma };
  }

  private likelihood(utility: number, expected: number): number {
    const z = (utility - expected) / this.sigma;
    return Math.exp(-0.5 * z * z);
  }

  private expectedValue(i: number, position: number): number {
    const shapes = this.shapes[i] as Shape[];
    const belief = this.shapeBeliefs[i] as number[];
    let total = 0;
    for (let h = 0; h < shapes.length; h++) total += (belief[h] as number) * (shapes[h] as Shape)(position);
    return total;
  }

  private meanWeights(): number[] {
    if (!this.expectedWeights) {
      const n = this.space.issues.length;
      const mean = new Array<number>(n).fill(0);
      this.weightSets.forEach((set, h) => {
        const p = this.weightBelief[h] as number;
        for (let i = 0; i < n; i++) mean[i] = (mean[i] as number) + p * (set[i] as number);
      });
      this.expectedWeights = mean;
    }
    return this.expectedWeights;
  }

  update(offer: Outcome, time: number): void {
    const issues = this.space.issues;
    const positions = issues.map((issue) => positionInIssue(issue, offer[issue.name]));
    if (positions.some((p) => p === undefined)) return; // an offer outside the space teaches nothing
    const expected = 1 - this.concession * Math.min(1, Math.max(0, time));
    // Every factor is scored against the beliefs before this offer, then all are updated together.
    const values = issues.map((_, i) => this.expectedValue(i, positions[i] as number));
    const weights = this.meanWeights();
    const newWeightBelief = this.weightSets.map((set, h) => {
      let u = 0;
      for (let i = 0; i < issues.length; i++) u += (set[i] as number) * (values[i] as number);
      return (this.weightBelief[h] as number) * this.likelihood(u, expected);
    });
    const newShapeBeliefs = issues.map((_, i) => {
      let rest = 0;
      for (let j = 0; j < issues.length; j++)
        if (j !== i) rest += (weights[j] as number) * (values[j] as number);
      const shapes = this.shapes[i] as Shape[];
      return shapes.map((shape, h) => {
        const u = rest + (weights[i] as number) * shape(positions[i] as number);
        return ((this.shapeBeliefs[i] as number[])[h] as number) * this.likelihood(u, expected);
      });
    });
    normalise(newWeightBelief);
    newWeightBelief.forEach((p, h) => {
      this.weightBelief[h] = p;
    });
    newShapeBeliefs.forEach((belief, i) => {
      normalise(belief);
      this.shapeBeliefs[i] = belief;
    });
    this.expectedWeights = null;
  }

  weights(): Record<string, number> {
    const mean = this.meanWeights();
    return Object.fromEntries(this.space.issues.map((issue, i) => [issue.name, mean[i] as number]));
  }

  valueEstimate(name: string, value: number | string): number {
    const i = this.space.issues.findIndex((issue) => issue.name === name);
    const issue = this.space.issues[i];
    const position = issue ? positionInIssue(issue, value) : undefined;
    return position === undefined ? 0 : this.expectedValue(i, position);
  }

  utility(outcome: Outcome): number {
    return modelledUtility(
      this.space,
      this.weights(),
      (name, value) => this.valueEstimate(name, value),
      outcome,
    );
  }
}
