// Every error class that any entry exports answers `isInstance` for itself and its subclasses only:
// `RateLimitError.isInstance(new BadRequestError(…))` is false. Before, subclasses inherited the base
// class's marker, so every `Subclass.isInstance` was `HaggleError.isInstance`.
import { describe, expect, it } from 'vitest';
import * as backendErrors from '../../src/backends/errors.js';
import * as cliErrors from '../../src/cli/errors.js';
import * as decodingErrors from '../../src/decoding/errors.js';
import * as aiSdk from '../../src/entries/ai-sdk.js';
import * as decoding from '../../src/entries/decoding.js';
import * as env from '../../src/entries/env.js';
import * as evaluation from '../../src/entries/evaluation.js';
import * as onnx from '../../src/entries/onnx.js';
import * as report from '../../src/entries/report.js';
import * as server from '../../src/entries/server.js';
import * as testing from '../../src/entries/testing.js';
import * as main from '../../src/index.js';
import * as internalErrors from '../../src/internal/errors.js';
import * as node from '../../src/node/index.js';
import * as serverErrors from '../../src/server/errors.js';

const { HaggleError } = main;
type ErrorClass = (abstract new (
  ...args: never[]
) => InstanceType<typeof HaggleError>) & {
  marker: string;
  isInstance(error: unknown): boolean;
};

// The errors no entry exports but a user can still meet (the CLI's usage errors, the server's answers,
// the transports' and readers' limits) are read from their layers' errors.ts.
const layers = { backendErrors, cliErrors, decodingErrors, internalErrors, serverErrors };
const entries = { main, node, aiSdk, decoding, env, evaluation, onnx, report, server, testing, ...layers };
const classes = new Map<string, ErrorClass>();
for (const [entry, exports] of Object.entries(entries)) {
  for (const [name, value] of Object.entries(exports)) {
    if (typeof value !== 'function') continue;
    if (value !== HaggleError && !(value.prototype instanceof HaggleError)) continue;
    const known = classes.get(name);
    if (known && known !== value) throw new Error(`${entry} exports another class named ${name}`);
    classes.set(name, value as unknown as ErrorClass);
  }
}

/**
 * An instance of `type` as its own constructor would mark it: markers depend only on the class
 * constructed (`new.target`), so the base constructor with `type` as new.target gives the same ones
 * without knowing each class's arguments.
 */
function instanceOf(type: ErrorClass): object {
  return Reflect.construct(HaggleError, [{ code: 'test', message: 'test' }], type);
}

const isSubclass = (child: ErrorClass, parent: ErrorClass) =>
  child === parent || child.prototype instanceof parent;

describe('error classes and their markers', () => {
  it('finds the exported error classes', () => {
    expect(classes.size).toBeGreaterThan(40);
    for (const name of ['RateLimitError', 'BadRequestError', 'InvalidModelOutputError', 'HaggleAbortError'])
      expect(classes.has(name), name).toBe(true);
    // The internal errors that once extended plain Error are HaggleErrors with markers of their own.
    for (const name of [
      'HttpError',
      'PatternSyntaxError',
      'CliUsageError',
      'SseLineTooLongError',
      'ResponseOverLimitError',
      'InputTooLargeError',
      'LineTooLongError',
    ])
      expect(classes.has(name), name).toBe(true);
  });

  it('every class declares its own marker, and no two share one', () => {
    const seen = new Map<string, string>();
    for (const [name, type] of classes) {
      expect(Object.hasOwn(type, 'marker'), `${name} declares no marker of its own`).toBe(true);
      const other = seen.get(type.marker);
      expect(other, `${name} and ${other} share the marker ${type.marker}`).toBeUndefined();
      seen.set(type.marker, name);
    }
  });

  it('A.isInstance(new B) is true exactly when B is A or a subclass of A', () => {
    const wrong: string[] = [];
    for (const [nameA, a] of classes) {
      for (const [nameB, b] of classes) {
        if (a.isInstance(instanceOf(b)) !== isSubclass(b, a)) wrong.push(`${nameA}.isInstance(new ${nameB})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('real constructions agree, across copies of the package too', () => {
    const args = {
      message: 'x',
      backend: 'remote',
      replica: 'r',
      kind: 'status',
      retryable: false,
      attempts: 1,
    };
    const rateLimit = new main.RateLimitError({ ...args, status: 429 } as never);
    const badRequest = new main.BadRequestError({ ...args, status: 400 } as never);
    expect(main.RateLimitError.isInstance(rateLimit)).toBe(true);
    expect(main.RateLimitError.isInstance(badRequest)).toBe(false);
    expect(main.BackendError.isInstance(badRequest)).toBe(true);
    expect(main.InvalidModelOutputError.isInstance(new main.HaggleAbortError('stop'))).toBe(false);
    // Another copy's error: a plain object with the same global symbols.
    const foreign = Object.assign(new Error('x'), {
      [Symbol.for('haggle.error')]: true,
      [Symbol.for(main.RateLimitError.marker)]: true,
    });
    expect(main.RateLimitError.isInstance(foreign)).toBe(true);
    expect(main.BadRequestError.isInstance(foreign)).toBe(false);
  });
});
