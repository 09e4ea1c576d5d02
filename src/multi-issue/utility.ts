import * as z from 'zod';
import { InvalidInputError } from '../contract/errors.js';
import { checkInput } from '../contract/validate.js';
import type { Issue, IssueSpace, Outcome } from './issue-space.js';

/**
 * How one side values one issue, on [0, 1]. `linear`: for price and integer issues, the position in the
 * range (`increasing`: more is better, a seller's price; `decreasing`: less is better, a buyer's price).
 * `table`: for options, a value per option.
 */
export const IssueValuationSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('linear'), direction: z.enum(['increasing', 'decreasing']) }),
  z.strictObject({ kind: z.literal('table'), values: z.record(z.string(), z.number().min(0).max(1)) }),
]);
/** How one side values one issue: a linear range or a value per option. */
export type IssueValuation = z.infer<typeof IssueValuationSchema>;

/**
 * A side's private linear-additive utility: `u(o) = δ^round · Σ_i w_i · v_i(o_i)`, weights summing to 1,
 * so utilities lie in [0, 1]. `reservation` is the utility of no agreement.
 */
export const SideUtilitySchema = z.strictObject({
  weights: z.record(z.string(), z.number().min(0)),
  valuations: z.record(z.string(), IssueValuationSchema),
  reservation: z.number().min(0).max(1),
  /** Per-round discount factor δ in (0, 1]; 1 (default) means no time pressure. */
  discount: z.number().gt(0).max(1).default(1),
});
/** A side's private linear-additive utility over an issue space. */
export type SideUtility = z.infer<typeof SideUtilitySchema>;
/** A side's utility as written, before validation. */
export type SideUtilityInput = z.input<typeof SideUtilitySchema>;

const WEIGHT_TOLERANCE = 1e-9;

/** Validates a utility against its space: a weight and a fitting valuation for every issue. */
export function parseSideUtility(
  space: IssueSpace,
  input: SideUtilityInput,
  subject = 'SideUtility',
): SideUtility {
  const parsed = checkInput(SideUtilitySchema, input);
  if (!parsed.ok) throw new InvalidInputError({ subject, issues: parsed.issues });
  const utility = parsed.value;
  const problems: { path: string; message: string }[] = [];
  let weightSum = 0;
  for (const issue of space.issues) {
    const weight = utility.weights[issue.name];
    if (weight === undefined) problems.push({ path: `weights.${issue.name}`, message: 'missing' });
    else weightSum += weight;
    const valuation = utility.valuations[issue.name];
    if (!valuation) {
      problems.push({ path: `valuations.${issue.name}`, message: 'missing' });
    } else if (issue.kind === 'options') {
      if (valuation.kind !== 'table') {
        problems.push({
          path: `valuations.${issue.name}`,
          message: 'an options issue needs a table valuation',
        });
      } else {
        for (const option of issue.options) {
          if (valuation.values[option] === undefined) {
            problems.push({ path: `valuations.${issue.name}.values.${option}`, message: 'missing' });
          }
        }
      }
    } else if (valuation.kind !== 'linear') {
      problems.push({
        path: `valuations.${issue.name}`,
        message: `a ${issue.kind} issue needs a linear valuation`,
      });
    }
  }
  for (const name of Object.keys(utility.weights)) {
    if (!space.issues.some((issue) => issue.name === name))
      problems.push({ path: `weights.${name}`, message: 'not an issue of the space' });
  }
  if (problems.length === 0 && Math.abs(weightSum - 1) > WEIGHT_TOLERANCE) {
    problems.push({ path: 'weights', message: `must sum to 1 (they sum to ${weightSum})` });
  }
  if (problems.length > 0) throw new InvalidInputError({ subject, issues: problems });
  return utility;
}

function issueValue(issue: Issue, valuation: IssueValuation, value: number | string): number {
  if (issue.kind === 'options') {
    return valuation.kind === 'table' ? (valuation.values[value as string] ?? 0) : 0;
  }
  const position = ((value as number) - issue.min) / (issue.max - issue.min);
  if (valuation.kind !== 'linear') return 0;
  return valuation.direction === 'increasing' ? position : 1 - position;
}

/**
 * The utility of an agreement to one side, discounted by the round it was reached in (0 = the first).
 * The outcome is assumed valid for the space (see `checkOutcome`).
 */
export function utilityOf(space: IssueSpace, utility: SideUtility, outcome: Outcome, round = 0): number {
  let total = 0;
  for (const issue of space.issues) {
    const weight = utility.weights[issue.name] ?? 0;
    const valuation = utility.valuations[issue.name];
    const value = outcome[issue.name];
    if (weight === 0 || !valuation || value === undefined) continue;
    total += weight * issueValue(issue, valuation, value);
  }
  return total * utility.discount ** round;
}
