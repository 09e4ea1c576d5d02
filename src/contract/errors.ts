import type { z } from 'zod';

// Markers rather than `instanceof` alone: a user's app can hold two copies of `haggle` (an ESM and a
// CJS build, or two versions), and `instanceof` fails across copies. Each class names its own marker
// (a string, so minifiers cannot rename it), and every instance carries the markers of its class and
// of each class above it, so `RateLimitError.isInstance(e)` is true for rate limits only and
// `BackendError.isInstance(e)` for every backend failure, as the AI SDK's per-class markers are.
const HAGGLE_ERROR_MARKER = 'haggle.error';

type ErrorClass = abstract new (...args: never[]) => HaggleError;

/** Base class of every error `haggle` throws on purpose. */
export class HaggleError extends Error {
  /**
   * The name of this class's `Symbol.for` marker. Every subclass declares its own (a test checks it),
   * since an inherited one would make its `isInstance` answer for the parent class.
   */
  static readonly marker: string = HAGGLE_ERROR_MARKER;
  /** A stable machine-readable code, e.g. `invalid-input`. */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'HaggleError';
    this.code = code;
    // new.target is the class constructed; its chain up to HaggleError gives every marker.
    for (let type: unknown = new.target; typeof type === 'function'; type = Object.getPrototypeOf(type)) {
      if (Object.hasOwn(type, 'marker')) {
        Object.defineProperty(this, Symbol.for((type as unknown as { marker: string }).marker), {
          value: true,
        });
      }
      if (type === HaggleError) break;
    }
  }

  /**
   * True when `error` is an instance of the class this is called on (or of a subclass), whichever copy
   * of the package created it: `RateLimitError.isInstance(e)` narrows `e` to `RateLimitError`.
   */
  static isInstance<T extends ErrorClass>(this: T, error: unknown): error is InstanceType<T> {
    // biome-ignore lint/complexity/noThisInStatic: the class it is called on decides the marker
    const marker = (this as unknown as { marker: string }).marker;
    return typeof error === 'object' && error !== null && Symbol.for(marker) in error;
  }
}

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

  constructor(subject: string, issues: ValidationIssue[], options?: { cause?: unknown }) {
    super('invalid-input', `Invalid ${subject}: ${describeIssues(issues)}`, options);
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
    super(
      'invalid-model-output',
      `The model's output is not a valid turn after ${args.attempts} attempt(s): ${describeIssues(args.issues)}. ` +
        `Last output: ${JSON.stringify(preview)}`,
    );
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
    super('backend-error', args.message, { cause: args.cause });
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
    super('aborted', why ? `Aborted: ${why}` : 'Aborted', { cause: reason });
    this.name = 'HaggleAbortError';
    this.reason = reason;
  }
}

/** Throws a `HaggleAbortError` when the signal has fired. Call at every await boundary of long work. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new HaggleAbortError(signal.reason);
}
