import type { z } from 'zod';
import { HaggleError } from '../internal/errors.js';
import type { PriceBounds } from './guardrails.js';
import type { Role } from './history.js';

// The base class sits in internal/ (the lowest layer) so that every layer's errors can extend it;
// users import it from here, with the contract's other errors.
export { HaggleError };

/** One problem found while validating input, with a path a person can read (`history[2].turn.price`). */
export interface ValidationIssue {
  path: string;
  message: string;
}

/** Converts zod's issue paths into `a.b[2].c` strings. */
export function readablePath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(root)' : out;
}

/** Turns zod's issues into haggle's `ValidationIssue`s, with readable paths such as `history[2].turn.price`. */
export function issuesFromZod(error: z.core.$ZodError): ValidationIssue[] {
  return error.issues.map((issue) => ({ path: readablePath(issue.path), message: issue.message }));
}

function describeIssues(issues: ValidationIssue[]): string {
  const shown = issues.slice(0, 5).map((issue) => `${issue.path}: ${issue.message}`);
  const more = issues.length > 5 ? ` (and ${issues.length - 5} more)` : '';
  return shown.join('; ') + more;
}

/** Input from the caller (a context, a history, options) does not satisfy the contract. */
export class InvalidInputError extends HaggleError {
  static override readonly marker: string = 'haggle.error.InvalidInputError';
  readonly issues: ValidationIssue[];
  /** What was being validated, e.g. `ListingContext`. */
  readonly subject: string;

  constructor({ subject, issues, cause }: { subject: string; issues: ValidationIssue[]; cause?: unknown }) {
    super({ code: 'invalid-input', message: `Invalid ${subject}: ${describeIssues(issues)}`, cause });
    this.name = 'InvalidInputError';
    this.subject = subject;
    this.issues = issues;
  }
}

/** A model produced text that is not a valid turn, after every retry the policy allowed. */
export class InvalidModelOutputError extends HaggleError {
  static override readonly marker: string = 'haggle.error.InvalidModelOutputError';
  /** The raw text of the last attempt, exactly as the backend returned it. */
  readonly rawText: string;
  /** Raw text of every attempt, oldest first. */
  readonly rawTexts: string[];
  readonly issues: ValidationIssue[];
  readonly attempts: number;

  constructor(args: { rawTexts: string[]; issues: ValidationIssue[]; attempts: number }) {
    const last = args.rawTexts[args.rawTexts.length - 1] ?? '';
    const preview = last.length > 200 ? `${last.slice(0, 200)}…` : last;
    super({
      code: 'invalid-model-output',
      message:
        `The model's output is not a valid turn after ${args.attempts} attempt(s): ${describeIssues(args.issues)}. ` +
        `Last output: ${JSON.stringify(preview)}`,
    });
    this.name = 'InvalidModelOutputError';
    this.rawText = last;
    this.rawTexts = args.rawTexts;
    this.issues = args.issues;
    this.attempts = args.attempts;
  }
}

/** A backend failed to produce text: a network error, an HTTP error status, a crashed runtime. */
export class BackendError extends HaggleError {
  static override readonly marker: string = 'haggle.error.BackendError';
  /** HTTP status when the backend is a server; undefined otherwise. */
  readonly status: number | undefined;
  /** Whether trying again may succeed (rate limits, 5xx, connection resets). */
  readonly retryable: boolean;
  readonly attempts: number;
  /** Which backend (and replica) failed, never with credentials. */
  readonly backend: string;

  constructor(args: {
    message: string;
    backend: string;
    status?: number;
    retryable?: boolean;
    attempts?: number;
    cause?: unknown;
  }) {
    super({ code: 'backend-error', message: args.message, cause: args.cause });
    this.name = 'BackendError';
    this.status = args.status;
    this.retryable = args.retryable ?? false;
    this.attempts = args.attempts ?? 1;
    this.backend = args.backend;
  }
}

/** The caller's `AbortSignal` fired; work stopped and nothing partial was returned. */
export class HaggleAbortError extends HaggleError {
  static override readonly marker: string = 'haggle.error.HaggleAbortError';
  readonly reason: unknown;

  constructor(reason?: unknown) {
    const why = reason instanceof Error ? reason.message : reason === undefined ? '' : String(reason);
    super({ code: 'aborted', message: why ? `Aborted: ${why}` : 'Aborted', cause: reason });
    this.name = 'HaggleAbortError';
    this.reason = reason;
  }
}

/** Throws a `HaggleAbortError` when the signal has fired. Call at every await boundary of long work. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new HaggleAbortError(signal.reason);
}

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
    super({ subject: 'guardrails', issues: [args.issue] });
    this.name = 'UnsatisfiableGuardrailsError';
    this.role = args.role;
    this.bounds = args.bounds;
  }
}

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
    super({ subject: args.subject, issues: [args.issue] });
    this.name = 'NotYourTurnError';
    this.role = args.role;
    this.nextRole = args.nextRole;
  }
}

/**
 * A package that a feature needs and haggle does not install is missing where haggle can import it:
 * an optional peer dependency (onnxruntime-node for `haggle/onnx`) or a package a setting names (an
 * `@ai-sdk/*` provider for an experiment participant). The message gives the command that installs it;
 * haggle never installs anything itself.
 */
export class OptionalDependencyMissingError extends HaggleError {
  static override readonly marker: string = 'haggle.error.OptionalDependencyMissingError';
  /** The npm package that is missing, e.g. `onnxruntime-node`. */
  readonly packageName: string;
  /** The command that installs it, e.g. `npm install onnxruntime-node`. */
  readonly installCommand: string;

  constructor(args: {
    /** The package to install (a version range may follow, e.g. `@ai-sdk/openai@3`). */
    packageName: string;
    /** What needs it, as the message's subject: `haggle/onnx (OnnxBackend)`. */
    neededFor: string;
    /** Whether haggle lists it as an optional peer dependency (the message then says why npm left it out). */
    optionalPeer?: boolean;
    cause?: unknown;
  }) {
    const installCommand = `npm install ${args.packageName}`;
    super({
      code: 'optional-dependency-missing',
      message:
        `${args.neededFor} needs the ${args.optionalPeer ? 'optional ' : ''}package ${args.packageName}, which is not installed: run \`${installCommand}\` in your project` +
        (args.optionalPeer
          ? ' (haggle lists it as an optional peer dependency, so npm does not install it for you).'
          : '.'),
      cause: args.cause,
    });
    this.name = 'OptionalDependencyMissingError';
    this.packageName = args.packageName;
    this.installCommand = installCommand;
  }
}
