import { parseModelOutput } from '../agent/output-parsing.js';
import type { InvalidInputError, ValidationIssue } from '../contract/errors.js';
import { issuesFromZod } from '../contract/errors.js';
import { checkOutcome } from './issue-space.js';
import { type MultiIssueInput, type MultiIssueTurn, MultiIssueTurnSchema } from './multi-issue-turn.js';

/**
 * Reads a model's text as a multi-issue turn and checks it against the issue space: the one check that
 * `MultiIssueLlmAgent` and the training environments (`haggle/env`) share, so a text a trainer's policy
 * writes is judged exactly as a tournament judges an LLM arm's.
 */
export function validateMultiIssueText(
  text: string,
  input: Pick<MultiIssueInput, 'space'>,
  canAccept: boolean,
): { turn?: MultiIssueTurn; issues: ValidationIssue[] } {
  const parsed = parseModelOutput(text);
  if (!parsed.ok) return { issues: parsed.issues };
  const turn = MultiIssueTurnSchema.safeParse(parsed.value);
  if (!turn.success) return { issues: issuesFromZod(turn.error) };
  if (turn.data.action === 'accept' && !canAccept)
    return { issues: [{ path: 'action', message: 'no proposal stands to accept' }] };
  if (turn.data.action === 'offer') {
    try {
      checkOutcome(input.space, turn.data.offer ?? {});
    } catch (error) {
      return { issues: (error as InvalidInputError).issues.map((i) => ({ ...i, path: `offer.${i.path}` })) };
    }
  } else if (turn.data.offer !== null) {
    return { issues: [{ path: 'offer', message: `must be null for ${turn.data.action}` }] };
  }
  return { turn: turn.data, issues: [] };
}
