// The CLI's names for the multi-issue baselines; the list itself lives with the evaluation layer so
// experiment files (src/evaluation/experiment-*.ts) build the same negotiators from the same names.
export {
  isMultiIssueBaselineName as isMultiIssueAgentName,
  MULTI_ISSUE_BASELINE_NAMES as MULTI_ISSUE_AGENT_NAMES,
  MULTI_ISSUE_BASELINES as MULTI_ISSUE_AGENTS,
  type MultiIssueBaselineName as MultiIssueAgentName,
} from '../multi-issue/multi-issue-baseline-registry.js';
