import { dirname, resolve } from 'node:path';
import type { z } from 'zod';
import { InvalidInputError, readablePath, type ValidationIssue } from '../contract/errors.js';
import { maxInputBytes, readTextWithLimit } from '../internal/bounded-read.js';
import { type Experiment, ExperimentSchema } from './experiment-schema.js';

/**
 * An experiment file that cannot be used: each issue names the JSON path (`arms.grpo.llm.apiKeyEnv`) and
 * what to write instead. An `InvalidInputError`, so the CLI exits 2 with one line.
 */
export class ExperimentFileError extends InvalidInputError {
  /** The file, as the user named it; undefined for an experiment given as a value. */
  readonly file: string | undefined;

  constructor(file: string | undefined, issues: ValidationIssue[], options?: { cause?: unknown }) {
    super(file === undefined ? 'experiment' : `experiment ${file}`, issues, options);
    this.name = 'ExperimentFileError';
    this.file = file;
  }
}

/** A parsed experiment and the folder its relative paths (`suite.file`, `out`) start from. */
export interface LoadedExperiment {
  experiment: Experiment;
  /** Absolute folder of the experiment file (the working folder for an experiment given as a value). */
  baseDir: string;
  /** The file as the user named it, for messages. */
  file?: string;
}

const LOOKS_SECRET = /key|token|secret|password|passwd|credential|authorization/i;

/** zod's issues as readable ones; a stray key that looks like a secret gets the secret's message. */
function experimentIssues(error: z.core.$ZodError): ValidationIssue[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        path: readablePath([...issue.path, key]),
        message: LOOKS_SECRET.test(key)
          ? 'looks like an inline secret, which an experiment file never holds: put it in an environment variable and name the variable with "apiKeyEnv", e.g. "apiKeyEnv": "OPENAI_API_KEY"'
          : 'is not an experiment field (see docs/evaluation.md#experiment-files); remove it or fix its spelling',
      }));
    }
    // A bad arm or opponent name: zod says "Invalid key in record"; the name's own rule says what to fix.
    if (issue.code === 'invalid_key' && issue.issues[0] !== undefined)
      return [{ path: readablePath(issue.path), message: `invalid name: ${issue.issues[0].message}` }];
    return [{ path: readablePath(issue.path), message: issue.message }];
  });
}

// Keys that change an object's prototype when copied into one (`{ ...}`, `Object.assign`, zod's records):
// JSON.parse keeps `"__proto__"` as an own key, but the copy drops it (an arm vanishes) or worse.
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** JSON paths of every prototype key in a parsed JSON value, the first few. */
function prototypeKeyPaths(value: unknown, path: (string | number)[] = [], found: string[] = []): string[] {
  if (found.length >= 5 || value === null || typeof value !== 'object') return found;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) prototypeKeyPaths(item, [...path, i], found);
    return found;
  }
  for (const key of Object.keys(value)) {
    if (PROTOTYPE_KEYS.has(key)) found.push(readablePath([...path, key]));
    else prototypeKeyPaths((value as Record<string, unknown>)[key], [...path, key], found);
  }
  return found;
}

/** Validates an experiment given as a value (every problem at once, never echoing a value). */
export function parseExperiment(value: unknown, file?: string): Experiment {
  const reserved = prototypeKeyPaths(value);
  if (reserved.length > 0)
    throw new ExperimentFileError(
      file,
      reserved.map((path) => ({
        path,
        message:
          'is a name JavaScript reserves for prototypes (__proto__, constructor, prototype), which would be lost or change objects when read: rename it',
      })),
    );
  const parsed = ExperimentSchema.safeParse(value);
  if (!parsed.success) throw new ExperimentFileError(file, experimentIssues(parsed.error));
  return parsed.data;
}

/** Reads and validates an experiment file (bounded like every JSON input, see HAGGLE_MAX_INPUT_MIB). */
export function loadExperiment(file: string): LoadedExperiment {
  let raw: unknown;
  try {
    raw = JSON.parse(readTextWithLimit(file, maxInputBytes()));
  } catch (error) {
    throw new ExperimentFileError(file, [
      { path: '(root)', message: `cannot read it as JSON: ${(error as Error).message}` },
    ]);
  }
  return { experiment: parseExperiment(raw, file), baseDir: dirname(resolve(file)), file };
}
