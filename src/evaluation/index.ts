export type { UtilityPoint } from './bargaining-geometry.js';
export { distanceToFrontier, nashPoint, paretoFrontier, utilityDistance } from './bargaining-geometry.js';
export type { PrivateValues, TradeScore } from './bilateral-trade.js';
export { scoreTrade } from './bilateral-trade.js';
export { canonicalJson, contentHash } from './canonical-json.js';
export type { Issue, IssueSpace, IssueSpaceInput, Outcome } from './issue-space.js';
export {
  checkOutcome,
  enumerateOutcomes,
  IssueSchema,
  IssueSpaceSchema,
  issueGrid,
  MAX_ENUMERATED_OUTCOMES,
} from './issue-space.js';
export type { Scenario, ScenarioGeometry, ScenarioInput } from './scenario.js';
export { parseScenario, ScenarioSchema, scenarioGeometry } from './scenario.js';
export { generateScenario } from './scenario-generator.js';
export type { GenerateSuiteOptions, Suite, SuiteMatch } from './suite.js';
export {
  generateSuite,
  loadSuite,
  SUITE_FORMAT,
  SUITE_VERSION,
  SuiteFileError,
  SuiteSchema,
  saveSuite,
  suiteIdentity,
  suiteMatches,
} from './suite.js';
export type { IssueValuation, SideUtility, SideUtilityInput } from './utility.js';
export { IssueValuationSchema, parseSideUtility, SideUtilitySchema, utilityOf } from './utility.js';
