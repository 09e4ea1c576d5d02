import type { ValidationIssue } from '../contract/errors.js';
import { issuesFromZod } from '../contract/errors.js';
import type { Role } from '../contract/history.js';
import { describeInterval, type LegalMove, priceInInterval } from '../contract/legal-moves.js';
import type { LabelVocabulary } from '../contract/model-profile.js';
import { type TimeUnit, toHours } from '../contract/time-unit.js';
import { type Turn, turnSchemaFor } from '../contract/turn.js';

/** What a turn must satisfy beyond `TurnSchema` at this point of this negotiation. */
export interface TurnConstraints {
  role: Role;
  /** The legal moves, already narrowed by the guardrails. */
  moves: readonly LegalMove[];
  labels: LabelVocabulary;
  responseTimeUnit: TimeUnit;
}

export type TurnCheck = { ok: true; turn: Turn } | { ok: false; issues: ValidationIssue[] };

/**
 * Validates a candidate with `TurnSchema` (in the profile's unit), then against the moment: the action must be one of the moves,
 * an offer's price inside that move's interval (rules and guardrails together), the response time within
 * the move's bound, and labels in the vocabulary when the vocabulary is known.
 * The constrained decoder should make these impossible; this check is what makes them impossible for
 * every backend, including remote servers that ignore the schema.
 */
export function checkTurn(candidate: unknown, constraints: TurnConstraints): TurnCheck {
  const parsed = turnSchemaFor(constraints.responseTimeUnit).safeParse(candidate);
  if (!parsed.success) return { ok: false, issues: issuesFromZod(parsed.error) };
  const turn = parsed.data;
  const issues: ValidationIssue[] = [];

  const move = constraints.moves.find((candidate) => candidate.action === turn.action);
  if (!move) {
    issues.push({
      path: 'action',
      message: `"${turn.action}" is not allowed now; allowed: ${constraints.moves.map((m) => m.action).join(', ')}`,
    });
  }
  if (move?.price && turn.price !== null && !priceInInterval(turn.price, move.price)) {
    issues.push({
      path: 'price',
      message: `${turn.price} is outside the ${constraints.role}'s legal prices ${describeInterval(move.price)} (rules and guardrails)`,
    });
  }
  if (
    move?.maxResponseHours !== undefined &&
    toHours(turn.response_time, constraints.responseTimeUnit) > move.maxResponseHours + 1e-9
  ) {
    issues.push({
      path: 'response_time',
      message: `${turn.response_time} ${constraints.responseTimeUnit} lands too late: ${move.maxResponseHours} hours are left before the standing offer lapses or the listing ends`,
    });
  }
  if (constraints.labels.kind === 'known') {
    const known = new Set(constraints.labels.values);
    turn.message_labels.forEach((label, index) => {
      if (!known.has(label)) {
        issues.push({
          path: `message_labels[${index}]`,
          message: `"${label}" is not in the profile's label vocabulary`,
        });
      }
    });
  }
  return issues.length === 0 ? { ok: true, turn } : { ok: false, issues };
}
