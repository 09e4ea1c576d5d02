import type { Action } from '../contract/action.js';
import type { ValidationIssue } from '../contract/errors.js';
import { issuesFromZod } from '../contract/errors.js';
import type { PriceBounds } from '../contract/guardrails.js';
import { priceWithinBounds } from '../contract/guardrails.js';
import type { Role } from '../contract/history.js';
import type { LabelVocabulary } from '../contract/model-profile.js';
import { type Turn, TurnSchema } from '../contract/turn.js';

/** What a turn must satisfy beyond `TurnSchema` at this point of this negotiation. */
export interface TurnConstraints {
  role: Role;
  actions: readonly Action[];
  bounds: PriceBounds;
  labels: LabelVocabulary;
}

export type TurnCheck = { ok: true; turn: Turn } | { ok: false; issues: ValidationIssue[] };

/**
 * Validates a candidate with `TurnSchema`, then against the moment: the action must be allowed, an
 * offer's price inside the role's guardrails, and labels in the vocabulary when the vocabulary is known.
 * The constrained decoder should make these impossible; this check is what makes them impossible for
 * every backend, including remote servers that ignore the schema.
 */
export function checkTurn(candidate: unknown, constraints: TurnConstraints): TurnCheck {
  const parsed = TurnSchema.safeParse(candidate);
  if (!parsed.success) return { ok: false, issues: issuesFromZod(parsed.error) };
  const turn = parsed.data;
  const issues: ValidationIssue[] = [];

  if (!constraints.actions.includes(turn.action)) {
    issues.push({
      path: 'action',
      message: `"${turn.action}" is not allowed now; allowed: ${constraints.actions.join(', ')}`,
    });
  }
  if (turn.price !== null && !priceWithinBounds(turn.price, constraints.bounds)) {
    issues.push({ path: 'price', message: describeBoundsBreach(turn.price, constraints) });
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

function describeBoundsBreach(price: number, { role, bounds }: TurnConstraints): string {
  if (bounds.minPrice !== undefined && price < bounds.minPrice) {
    return `${price} is below the ${role}'s guardrail minPrice ${bounds.minPrice}`;
  }
  return `${price} is above the ${role}'s guardrail maxPrice ${bounds.maxPrice}`;
}
