import { InvalidInputError, type ValidationIssue } from './errors.js';
import type { Role } from './history.js';

/**
 * A turn was asked of (or recorded for) a side whose turn it is not: the other side moves next, or the
 * thread has ended and nobody does. Raised before any backend call, so a wrong `role` costs no tokens.
 *
 * A subclass of `InvalidInputError` (code `invalid-input`): whoever already treats bad input as the
 * caller's mistake (the CLI's exit code 2, a 400 from a server) treats this one the same way.
 */
export class NotYourTurnError extends InvalidInputError {
  static override readonly marker: string = 'haggle.error.NotYourTurnError';
  /** The side that was asked to move (or that a history entry gave the move to), where one was named. */
  readonly role: Role | undefined;
  /** The side the rules give the move to; `null` when the thread has ended. */
  readonly nextRole: Role | null;

  constructor(args: {
    subject: string;
    role: Role | undefined;
    nextRole: Role | null;
    issue: ValidationIssue;
  }) {
    super(args.subject, [args.issue]);
    this.name = 'NotYourTurnError';
    this.role = args.role;
    this.nextRole = args.nextRole;
  }
}
