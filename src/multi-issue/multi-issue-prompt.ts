import type { ChatMessage } from '../backends/language-backend.js';
import { sanitizeUntrustedText } from '../prompt/sanitize.js';
import type { Issue } from './issue-space.js';
import type { MultiIssueInput } from './multi-issue-turn.js';

const SYSTEM = [
  'You negotiate one side of a marketplace deal over several issues at once, by alternating proposals.',
  'Answer with one JSON object and nothing else: {"action": ..., "offer": ..., "message": ...}.',
  'action "offer": offer is an object with a value for every issue; "accept": take the other side\'s latest',
  'proposal, offer null; "walk_away": end without a deal, offer null. message is a short note or "".',
  'Your preferences are private: never state your weights or your walk-away value.',
].join('\n');

function describeIssue(issue: Issue): string {
  switch (issue.kind) {
    case 'price':
      return `${issue.name}: a price from ${issue.min} to ${issue.max}`;
    case 'integer':
      return `${issue.name}: a whole number from ${issue.min} to ${issue.max}`;
    case 'options':
      return `${issue.name}: one of ${issue.options.join(', ')}`;
  }
}

function describePreference(input: MultiIssueInput, issue: Issue): string {
  const weight = input.utility.weights[issue.name] ?? 0;
  const valuation = input.utility.valuations[issue.name];
  let how = '';
  if (valuation?.kind === 'linear')
    how = valuation.direction === 'increasing' ? 'higher is better' : 'lower is better';
  if (valuation?.kind === 'table') {
    how = Object.entries(valuation.values)
      .sort((a, b) => b[1] - a[1])
      .map(([option, value]) => `${option} ${value.toFixed(2)}`)
      .join(', ');
  }
  return `- ${issue.name} (weight ${weight.toFixed(2)}): ${how}`;
}

/**
 * The prompt of a multi-issue turn: the task, the issues, the side's own private utility, and the
 * history. Messages from the other side and the item title are untrusted and sanitised.
 */
export function multiIssueMessages(input: MultiIssueInput): ChatMessage[] {
  const lines = [
    `You are the ${input.role}${input.title ? ` of: ${JSON.stringify(sanitizeUntrustedText(input.title))}` : ''}.`,
    'Issues:',
    ...input.space.issues.map((issue) => `- ${describeIssue(issue)}`),
    'Your private preferences (utility = weighted sum, 0..1):',
    ...input.space.issues.map((issue) => describePreference(input, issue)),
    `A deal worth less than ${input.utility.reservation.toFixed(2)} to you is worse than no deal.`,
    `Turn ${input.round + 1} of at most ${input.maxRounds}.`,
    'History:',
    ...(input.history.length === 0
      ? ['(none: you move first)']
      : input.history.map(
          (entry) =>
            `- ${entry.role}: ${entry.turn.action}${entry.turn.offer ? ` ${JSON.stringify(entry.turn.offer)}` : ''}${
              entry.turn.message ? ` ${JSON.stringify(sanitizeUntrustedText(entry.turn.message))}` : ''
            }`,
        )),
  ];
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: lines.join('\n') },
  ];
}
