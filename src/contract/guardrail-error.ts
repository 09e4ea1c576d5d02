import { InvalidInputError, type ValidationIssue } from './errors.js';
import type { PriceBounds } from './guardrails.js';
import type { Role } from './history.js';

/**
 * An agent's guardrails leave a side no price it may name or accept, where the rules allowed it to
 * name one: a seller's `minPrice` above every counter Best Offer allows (at or above the list price),
 * say. Without this error the model could only decline or stall, every time, and the guardrail's
 * mistake would read as the model's choice.
 *
 * A subclass of `InvalidInputError` (code `invalid-input`): a configuration the caller must fix.
 */
export class UnsatisfiableGuardrailsError extends InvalidInputError {
  static override readonly marker: string = 'haggle.error.UnsatisfiableGuardrailsError';
  /** The side whose guardrails leave no price. */
  readonly role: Role;
  /** That side's bounds, as configured. */
  readonly bounds: PriceBounds;

  constructor(args: { role: Role; bounds: PriceBounds; issue: ValidationIssue }) {
    super('guardrails', [args.issue]);
    this.name = 'UnsatisfiableGuardrailsError';
    this.role = args.role;
    this.bounds = args.bounds;
  }
}
