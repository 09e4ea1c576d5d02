import * as z from 'zod';
import { InvalidInputError } from '../contract/errors.js';
import { SNAKE_CASE } from '../contract/turn-rules.js';

const IssueNameSchema = z
  .string()
  .regex(SNAKE_CASE, 'an issue name is a snake_case identifier such as delivery_days');

/**
 * One negotiable issue. `price`: a continuous amount in [min, max] (enumerated in `steps` for frontier
 * computations); `options`: one of a few named choices (shipping speed, warranty); `integer`: a whole
 * number in [min, max] (delivery days, quantity).
 */
export const IssueSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('price'),
    name: IssueNameSchema,
    min: z.number().finite().min(0),
    max: z.number().finite().positive(),
    /** Grid points used when outcomes are enumerated (Pareto frontier, Nash point). Default 21. */
    steps: z.number().int().min(2).max(10_001).default(21),
  }),
  z.strictObject({
    kind: z.literal('options'),
    name: IssueNameSchema,
    options: z.array(z.string().min(1)).min(2).max(64),
  }),
  z.strictObject({
    kind: z.literal('integer'),
    name: IssueNameSchema,
    min: z.number().int(),
    max: z.number().int(),
  }),
]);
/** One negotiable issue: a numeric range or a set of options. */
export type Issue = z.infer<typeof IssueSchema>;

/** Validates an issue space: 1 to 16 issues with distinct names. */
export const IssueSpaceSchema = z
  .strictObject({ issues: z.array(IssueSchema).min(1).max(16) })
  .superRefine((space, ctx) => {
    const seen = new Set<string>();
    space.issues.forEach((issue, index) => {
      if (seen.has(issue.name))
        ctx.addIssue({
          code: 'custom',
          path: ['issues', index, 'name'],
          message: 'issue names must be unique',
        });
      seen.add(issue.name);
      if ((issue.kind === 'price' || issue.kind === 'integer') && issue.min >= issue.max) {
        ctx.addIssue({ code: 'custom', path: ['issues', index, 'max'], message: 'max must be above min' });
      }
      if (issue.kind === 'options' && new Set(issue.options).size !== issue.options.length) {
        ctx.addIssue({
          code: 'custom',
          path: ['issues', index, 'options'],
          message: 'options must be unique',
        });
      }
    });
  });
/** The issues of a multi-issue negotiation. */
export type IssueSpace = z.infer<typeof IssueSpaceSchema>;
/** An issue space as written, before validation. */
export type IssueSpaceInput = z.input<typeof IssueSpaceSchema>;

/** An agreement: a value for every issue of the space. */
export type Outcome = Record<string, number | string>;

/** Checks that `outcome` names every issue of `space` with a value inside its range. */
export function checkOutcome(space: IssueSpace, outcome: Outcome): void {
  const problems: { path: string; message: string }[] = [];
  for (const issue of space.issues) {
    const value = outcome[issue.name];
    if (value === undefined) {
      problems.push({ path: issue.name, message: 'missing' });
    } else if (issue.kind === 'options') {
      if (typeof value !== 'string' || !issue.options.includes(value)) {
        problems.push({ path: issue.name, message: `must be one of ${issue.options.join(', ')}` });
      }
    } else if (
      typeof value !== 'number' ||
      !Number.isFinite(value) ||
      value < issue.min ||
      value > issue.max
    ) {
      problems.push({ path: issue.name, message: `must be a number from ${issue.min} to ${issue.max}` });
    } else if (issue.kind === 'integer' && !Number.isInteger(value)) {
      problems.push({ path: issue.name, message: 'must be a whole number' });
    }
  }
  for (const name of Object.keys(outcome)) {
    if (!space.issues.some((issue) => issue.name === name))
      problems.push({ path: name, message: 'is not an issue of this space' });
  }
  if (problems.length > 0) throw new InvalidInputError({ subject: 'Outcome', issues: problems });
}

/** The values an issue takes when outcomes are enumerated. */
export function issueGrid(issue: Issue): (number | string)[] {
  switch (issue.kind) {
    case 'options':
      return [...issue.options];
    case 'integer':
      return Array.from({ length: issue.max - issue.min + 1 }, (_, i) => issue.min + i);
    case 'price': {
      const span = issue.max - issue.min;
      return Array.from({ length: issue.steps }, (_, i) =>
        roundCents(issue.min + (span * i) / (issue.steps - 1)),
      );
    }
  }
}

function roundCents(value: number): number {
  return Math.round(value * 100) / 100;
}

/** Outcomes beyond this count are refused by `enumerateOutcomes`: a frontier over more is not brute force. */
export const MAX_ENUMERATED_OUTCOMES = 2_000_000;

/** Every outcome of the space's grid (the cartesian product of `issueGrid` of each issue). */
export function enumerateOutcomes(space: IssueSpace): Outcome[] {
  const grids = space.issues.map(issueGrid);
  const total = grids.reduce((n, grid) => n * grid.length, 1);
  if (total > MAX_ENUMERATED_OUTCOMES) {
    throw new InvalidInputError({
      subject: 'IssueSpace',
      issues: [
        {
          path: 'issues',
          message: `${total} outcomes to enumerate, above ${MAX_ENUMERATED_OUTCOMES}: use fewer price steps or narrower ranges`,
        },
      ],
    });
  }
  const outcomes: Outcome[] = [];
  const current: Outcome = {};
  const walk = (depth: number) => {
    const issue = space.issues[depth];
    const grid = grids[depth];
    if (!issue || !grid) {
      outcomes.push({ ...current });
      return;
    }
    for (const value of grid) {
      current[issue.name] = value;
      walk(depth + 1);
    }
  };
  walk(0);
  return outcomes;
}
