import { statSync } from 'node:fs';
import { InputTooLargeError, readTextWithLimit } from './bounded-read.js';
import { maxInputBytes } from './environment.js';

/**
 * Reading one file of a model folder (a tokenizer's, an ONNX export's, a checkpoint's, a LoRA adapter's)
 * for the three layers that read them, each of which throws its own typed error: they pass `fail`,
 * which turns the problem into that error. One reader, so each bound and check lands everywhere: the
 * input ceiling (a folder's file may be a link to `/dev/zero`), a named pipe refused before it is
 * opened (opening one blocks until some process writes to it, and a stopping CLI cannot interrupt a
 * blocked open), JSON that is an object (`null` in config.json used to reach `config[key]`).
 */

/** What went wrong, in words that read after the file's name ("config.json is not valid JSON: ..."). */
export interface ModelFileProblem {
  kind: 'missing' | 'unreadable' | 'too-large' | 'not-json' | 'not-object';
  words: string;
  cause?: unknown;
}

/** Throws the caller's typed error for a problem. */
export type ModelFileFail = (problem: ModelFileProblem) => never;

/** The file's text; a missing file is `fail`ed, or `undefined` when `optional`. */
export function readModelFolderText(path: string, fail: ModelFileFail, optional: true): string | undefined;
export function readModelFolderText(path: string, fail: ModelFileFail, optional?: false): string;
export function readModelFolderText(path: string, fail: ModelFileFail, optional = false): string | undefined {
  const unreadable = (error: unknown): never =>
    fail({
      kind: 'unreadable',
      words: `cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      cause: error,
    });
  let isPipe: boolean;
  try {
    isPipe = statSync(path).isFIFO();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      if (optional) return undefined;
      fail({ kind: 'missing', words: 'is missing', cause: error });
    }
    return unreadable(error);
  }
  if (isPipe)
    fail({
      kind: 'unreadable',
      words: 'is a named pipe (FIFO), not a file: a model folder holds regular files',
    });
  try {
    return readTextWithLimit(path, maxInputBytes());
  } catch (error) {
    if (error instanceof InputTooLargeError)
      fail({ kind: 'too-large', words: `cannot be read: ${error.message}`, cause: error });
    return unreadable(error);
  }
}

/** The file parsed as a JSON object; a missing file is `fail`ed, or `undefined` when `optional`. */
export function readModelFolderJson(
  path: string,
  fail: ModelFileFail,
  optional: true,
): Record<string, unknown> | undefined;
export function readModelFolderJson(
  path: string,
  fail: ModelFileFail,
  optional?: false,
): Record<string, unknown>;
export function readModelFolderJson(
  path: string,
  fail: ModelFileFail,
  optional = false,
): Record<string, unknown> | undefined {
  const text = optional ? readModelFolderText(path, fail, true) : readModelFolderText(path, fail);
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    fail({ kind: 'not-json', words: `is not valid JSON: ${(error as Error).message}`, cause: error });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail({ kind: 'not-object', words: 'does not hold a JSON object' });
  return value as Record<string, unknown>;
}
