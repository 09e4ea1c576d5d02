import { InvalidInputError } from '../contract/errors.js';
import type { Issue, IssueSpace, Outcome } from './issue-space.js';
import { modelledUtility, type OpponentModel, positionInIssue } from './opponent-model.js';

/** Options of `FrequencyOpponentModel`. */
export interface FrequencyOpponentModelOptions {
  /**
   * What an issue's weight gains (before renormalising) each time the other side keeps its value from
   * one offer to the next. Default 0.2 (haggle's choice: large enough to separate issues within the
   * handful of offers a 10-round negotiation gives).
   */
  learningRate?: number;
}

/** Bins a price or integer issue's range is counted in (haggle's choice: the default price grid's 21). */
const MAX_NUMERIC_BINS = 21;

function binCount(issue: Issue): number {
  if (issue.kind === 'options') return issue.options.length;
  if (issue.kind === 'integer') return Math.min(MAX_NUMERIC_BINS, issue.max - issue.min + 1);
  return Math.min(MAX_NUMERIC_BINS, issue.steps);
}

/** How far apart two values of an issue are: 0 or 1 for options, the share of the range for numbers. */
function issueDistance(issue: Issue, a: number, b: number): number {
  if (issue.kind === 'options') return a === b ? 0 : 1;
  return Math.abs(a - b);
}

/**
 * How far apart two values drawn at random are on average: (m-1)/m for m options, 1/3 for a range. A
 * move is judged against it, so a 3-option issue and a 10-day range that the other side varies at
 * random both gain nothing, whatever their number of values.
 */
function chanceDistance(issue: Issue): number {
  return issue.kind === 'options' ? (issue.options.length - 1) / issue.options.length : 1 / 3;
}

/**
 * The frequency model of HardHeaded (van Krimpen, Looije & Hajizadeh 2013), re-implemented from its
 * published description: an issue whose value the other side keeps from one offer to the next matters
 * to it (its weight gains `learningRate`, then all weights are renormalised), and a value it offers
 * often is one it likes (a value's estimate is its count over the issue's largest count).
 *
 * haggle's choices: counts start at 1 (no value is worth 0 before anything is seen); price and integer
 * values are counted in up to 21 equal bins; and a price or integer issue is "kept" in proportion to how
 * little it moved (`1 - |Δposition|`), because an opponent that concedes on price a grid step at a time
 * still holds price, where an all-or-nothing test would call its most important issue its least.
 */
export class FrequencyOpponentModel implements OpponentModel {
  readonly learningRate: number;
  private readonly issueWeights: number[];
  private readonly counts: number[][];
  private previous: (number | undefined)[] | null = null;

  constructor(
    readonly space: IssueSpace,
    options: FrequencyOpponentModelOptions = {},
  ) {
    this.learningRate = options.learningRate ?? 0.2;
    if (!(this.learningRate > 0) || !Number.isFinite(this.learningRate))
      throw new InvalidInputError({
        subject: 'FrequencyOpponentModelOptions',
        issues: [{ path: 'learningRate', message: 'must be a positive number' }],
      });
    const n = space.issues.length;
    this.issueWeights = space.issues.map(() => 1 / n);
    this.counts = space.issues.map((issue) => new Array<number>(binCount(issue)).fill(1));
  }

  describe() {
    return { kind: 'frequency', learningRate: this.learningRate };
  }

  update(offer: Outcome): void {
    const positions = this.space.issues.map((issue) => positionInIssue(issue, offer[issue.name]));
    if (this.previous) {
      let added = 0;
      this.space.issues.forEach((issue, i) => {
        const now = positions[i];
        const before = this.previous?.[i];
        if (now === undefined || before === undefined) return;
        const kept = Math.max(0, 1 - issueDistance(issue, now, before) / chanceDistance(issue));
        const gain = this.learningRate * kept;
        this.issueWeights[i] = (this.issueWeights[i] as number) + gain;
        added += gain;
      });
      for (let i = 0; i < this.issueWeights.length; i++)
        this.issueWeights[i] = (this.issueWeights[i] as number) / (1 + added);
    }
    positions.forEach((position, i) => {
      if (position === undefined) return;
      const bins = this.counts[i] as number[];
      const bin = Math.round(position * (bins.length - 1));
      bins[bin] = (bins[bin] as number) + 1;
    });
    this.previous = positions;
  }

  weights(): Record<string, number> {
    return Object.fromEntries(
      this.space.issues.map((issue, i) => [issue.name, this.issueWeights[i] as number]),
    );
  }

  valueEstimate(name: string, value: number | string): number {
    const i = this.space.issues.findIndex((issue) => issue.name === name);
    const issue = this.space.issues[i];
    const position = issue ? positionInIssue(issue, value) : undefined;
    if (!issue || position === undefined) return 0;
    const bins = this.counts[i] as number[];
    return (bins[Math.round(position * (bins.length - 1))] as number) / Math.max(...bins);
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
