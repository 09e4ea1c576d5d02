import * as z from 'zod';
import { InvalidInputError } from '../contract/errors.js';
import { nashPoint, paretoFrontier, type UtilityPoint } from './bargaining-geometry.js';
import { enumerateOutcomes, type IssueSpace, IssueSpaceSchema } from './issue-space.js';
import { parseSideUtility, SideUtilitySchema, utilityOf } from './utility.js';

/** One bilateral multi-issue bargaining problem: the issues and each side's private utility. */
export const ScenarioSchema = z.strictObject({
  id: z.string().min(1),
  title: z.string().min(1),
  space: IssueSpaceSchema,
  buyer: SideUtilitySchema,
  seller: SideUtilitySchema,
});
/** A multi-issue negotiation to play: the issue space and each side's private utility. */
export type Scenario = z.infer<typeof ScenarioSchema>;
/** A scenario as written, before validation. */
export type ScenarioInput = z.input<typeof ScenarioSchema>;

/** Validates a scenario, including each utility against the space. */
export function parseScenario(input: ScenarioInput): Scenario {
  const parsed = ScenarioSchema.safeParse(input);
  if (!parsed.success) {
    throw new InvalidInputError({
      subject: 'Scenario',
      issues: parsed.error.issues.map((i) => ({ path: i.path.join('.') || '(root)', message: i.message })),
    });
  }
  const scenario = parsed.data;
  parseSideUtility(scenario.space, scenario.buyer, `Scenario ${scenario.id} buyer utility`);
  parseSideUtility(scenario.space, scenario.seller, `Scenario ${scenario.id} seller utility`);
  return scenario;
}

/** Reference points of a scenario: every grid outcome's utilities, the frontier and the Nash point. */
export interface ScenarioGeometry {
  points: UtilityPoint[];
  frontier: UtilityPoint[];
  nash: UtilityPoint | null;
}

/** A scenario's utility points, Pareto frontier and Nash point. */
export function scenarioGeometry(scenario: Scenario): ScenarioGeometry {
  const points = utilityPoints(scenario.space, scenario);
  return {
    points,
    frontier: paretoFrontier(points),
    nash: nashPoint(points, { buyer: scenario.buyer.reservation, seller: scenario.seller.reservation }),
  };
}

function utilityPoints(space: IssueSpace, scenario: Scenario): UtilityPoint[] {
  return enumerateOutcomes(space).map((outcome) => ({
    outcome,
    buyer: utilityOf(space, scenario.buyer, outcome),
    seller: utilityOf(space, scenario.seller, outcome),
  }));
}
