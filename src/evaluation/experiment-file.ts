import { dirname, resolve } from 'node:path';
import type { z } from 'zod';
import { readablePath, type ValidationIssue } from '../contract/errors.js';
import { readTextWithLimit } from '../internal/bounded-read.js';
import { maxInputBytes } from '../internal/environment.js';
import { ExperimentFileError } from './errors.js';
import { type Experiment, ExperimentSchema } from './experiment-schema.js';

export { ExperimentFileError };

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

/**
 * Deepest nesting an experiment file may have (haggle's choice: a real one is under 10 levels deep; a
 * limit keeps every later walk, zod's included, off the call stack's edge).
 */
const MAX_EXPERIMENT_DEPTH = 64;

interface Visit {
  value: unknown;
  key: string | number;
  parent: Visit | undefined;
  depth: number;
  /** A prototype key found here, to report when the walk reaches it (the order of a recursive walk). */
  reserved: boolean;
}

function visitPath(visit: Visit): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Visit | undefined = visit; at?.parent !== undefined; at = at.parent) path.unshift(at.key);
  return path;
}

/**
 * The problems a walk of the whole value finds before any schema sees it: every prototype key (the
 * first few), or nesting past `MAX_EXPERIMENT_DEPTH`. A loop with its own stack, not recursion: a file
 * 100,000 levels deep is an error message, not a stack overflow. Only objects and prototype keys go on
 * the stack: an array of 30 million numbers must not become 30 million stack entries.
 */
function structuralProblems(value: unknown): ValidationIssue[] {
  const found: ValidationIssue[] = [];
  const stack: Visit[] = [{ value, key: '', parent: undefined, depth: 0, reserved: false }];
  while (stack.length > 0 && found.length < 5) {
    const visit = stack.pop() as Visit;
    if (visit.reserved) {
      found.push({
        path: readablePath(visitPath(visit)),
        message:
          'is a name JavaScript reserves for prototypes (__proto__, constructor, prototype), which would be lost or change objects when read: rename it',
      });
      continue;
    }
    const current = visit.value;
    if (current === null || typeof current !== 'object') continue;
    if (visit.depth >= MAX_EXPERIMENT_DEPTH) {
      return [
        {
          path: readablePath(visitPath(visit)),
          message: `is nested ${MAX_EXPERIMENT_DEPTH} levels deep; an experiment file needs far fewer: flatten it`,
        },
      ];
    }
    const keys = Array.isArray(current) ? undefined : Object.keys(current);
    const count = keys === undefined ? (current as unknown[]).length : keys.length;
    // Pushed last to first, so they are popped (and reported) in the file's order.
    for (let i = count - 1; i >= 0; i--) {
      const key = keys === undefined ? i : (keys[i] as string);
      const item = (current as Record<string | number, unknown>)[key];
      const reserved = typeof key === 'string' && PROTOTYPE_KEYS.has(key);
      if (reserved || (item !== null && typeof item === 'object'))
        stack.push({ value: item, key, parent: visit, depth: visit.depth + 1, reserved });
    }
  }
  return found;
}

/** Validates an experiment given as a value (every problem at once, never echoing a value). */
export function parseExperiment(value: unknown, file?: string): Experiment {
  const problems = structuralProblems(value);
  if (problems.length > 0) throw new ExperimentFileError({ file, issues: problems });
  const parsed = ExperimentSchema.safeParse(value);
  if (!parsed.success) throw new ExperimentFileError({ file, issues: experimentIssues(parsed.error) });
  return parsed.data;
}

/** Reads and validates an experiment file (bounded like every JSON input, see HAGGLE_MAX_INPUT_MIB). */
export function loadExperiment(file: string): LoadedExperiment {
  let text: string;
  try {
    text = readTextWithLimit(file, maxInputBytes());
  } catch (error) {
    throw ExperimentFileError.unreadable(file, error);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ExperimentFileError({
      file,
      issues: [{ path: '(root)', message: `cannot read it as JSON: ${(error as Error).message}` }],
    });
  }
  return { experiment: parseExperiment(raw, file), baseDir: dirname(resolve(file)), file };
}
