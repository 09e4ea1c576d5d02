import { ACTIONS, type Action, ActionSchema } from '../contract/action.js';
import { InvalidInputError } from '../contract/errors.js';
import type { PredictInput } from '../contract/negotiator.js';

/**
 * Checks the parts of a predict input that baseline agents rely on and a caller could get wrong
 * (a Session always passes good ones): the role, the list price and the legal actions.
 */
export function checkPredictInput(input: PredictInput, agent: string): void {
  const issues: { path: string; message: string }[] = [];
  if (input.role !== 'buyer' && input.role !== 'seller') {
    issues.push({ path: 'role', message: `must be "buyer" or "seller", got ${JSON.stringify(input.role)}` });
  }
  if (!Array.isArray(input.history)) issues.push({ path: 'history', message: 'must be an array of turns' });
  const listPrice = (input.context as { listPrice?: unknown } | undefined)?.listPrice;
  if (typeof listPrice !== 'number' || !Number.isFinite(listPrice) || listPrice <= 0) {
    issues.push({ path: 'context.listPrice', message: 'must be a finite number above 0' });
  }
  if (input.legalActions !== undefined) {
    if (!Array.isArray(input.legalActions) || input.legalActions.length === 0) {
      issues.push({ path: 'legalActions', message: 'must list at least one action, or be left out' });
    } else {
      input.legalActions.forEach((action, i) => {
        if (!ActionSchema.safeParse(action).success) {
          issues.push({ path: `legalActions[${i}]`, message: `unknown action ${JSON.stringify(action)}` });
        }
      });
    }
  }
  if (issues.length > 0) throw new InvalidInputError({ subject: `${agent} input`, issues });
}

/** The actions the rules allow now; all six when the caller does not say. */
export function legalActionSet(legalActions: readonly Action[] | undefined): ReadonlySet<Action> {
  return new Set(legalActions ?? ACTIONS);
}
