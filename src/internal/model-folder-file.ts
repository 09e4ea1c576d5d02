import { closeSync, fstatSync, lstatSync, openSync, realpathSync, type Stats, statSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { readTextWithLimit } from './bounded-read.js';
import { maxInputBytes } from './environment.js';
import { InputTooLargeError } from './errors.js';

/**
 * Reading one file of a model folder (a tokenizer's, an ONNX export's, a checkpoint's, a LoRA adapter's)
 * for the layers that read them, each of which throws its own typed error: they pass `fail`, which
 * turns the problem into that error. One reader, so each bound and check lands everywhere:
 * - the input ceiling on text files;
 * - a regular file only: a device (`/dev/urandom` as tokenizer.json was "built" into a 0-byte copy)
 *   and a named pipe are refused before they are opened (opening a pipe blocks until some process
 *   writes to it, and a stopping CLI cannot interrupt a blocked open);
 * - a symbolic link only to a file inside the file's own folder (haggle's choice: a folder holds its
 *   own files, so `config.json -> /etc/passwd` is refused by name and never read), with one exception,
 *   the Hugging Face cache's layout, where `snapshots/REV/NAME` links to `../../blobs/HASH` of the same
 *   repository;
 * - JSON that is an object (`null` in config.json used to reach `config[key]`);
 * - words that never quote the file's content: V8's JSON errors quote the text they stopped at, which
 *   put `root:x:0:0` into an error when config.json was a link to /etc/passwd.
 */

/** What went wrong, in words that read after the file's name ("config.json is not valid JSON: ..."). */
export interface ModelFileProblem {
  kind: 'missing' | 'unreadable' | 'not-a-file' | 'outside-folder' | 'too-large' | 'not-json' | 'not-object';
  words: string;
  cause?: unknown;
}

/** Throws the caller's typed error for a problem. */
export type ModelFileFail = (problem: ModelFileProblem) => never;

const errorCode = (error: unknown): string =>
  (error as NodeJS.ErrnoException).code ?? (error as Error).message;

/**
 * An open descriptor (read-only) of a model folder's regular file, after the checks above; a missing
 * file is `fail`ed, or `undefined` when `optional`. The caller closes it. For files read by position
 * (safetensors shards) as much as for text files.
 */
export function openModelFolderFile(path: string, fail: ModelFileFail, optional: true): number | undefined;
export function openModelFolderFile(path: string, fail: ModelFileFail, optional?: false): number;
export function openModelFolderFile(path: string, fail: ModelFileFail, optional = false): number | undefined {
  const unreadable = (error: unknown): never =>
    fail({ kind: 'unreadable', words: `cannot be read (${errorCode(error)})`, cause: error });
  let stat: Stats;
  let outside: string | undefined;
  try {
    if (lstatSync(path).isSymbolicLink()) outside = linkTargetOutsideFolder(path);
    stat = statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      if (optional) return undefined;
      fail({ kind: 'missing', words: 'is missing', cause: error });
    }
    return unreadable(error);
  }
  if (outside !== undefined)
    fail({
      kind: 'outside-folder',
      words: `is a symbolic link to ${outside}, outside its folder: a model folder holds its own files (copy the file in instead)`,
    });
  refuseUnlessRegular(stat, fail);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    return unreadable(error);
  }
  // The file checked above and the one opened are the same kind: a swap in between is refused too.
  try {
    refuseUnlessRegular(fstatSync(fd), fail);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return fd;
}

/** The file's text; a missing file is `fail`ed, or `undefined` when `optional`. */
export function readModelFolderText(path: string, fail: ModelFileFail, optional: true): string | undefined;
export function readModelFolderText(path: string, fail: ModelFileFail, optional?: false): string;
export function readModelFolderText(path: string, fail: ModelFileFail, optional = false): string | undefined {
  const fd = optional ? openModelFolderFile(path, fail, true) : openModelFolderFile(path, fail);
  if (fd === undefined) return undefined;
  try {
    return readTextWithLimit(fd, maxInputBytes());
  } catch (error) {
    if (error instanceof InputTooLargeError)
      fail({ kind: 'too-large', words: `cannot be read: ${error.message}`, cause: error });
    return fail({ kind: 'unreadable', words: `cannot be read (${errorCode(error)})`, cause: error });
  } finally {
    closeSync(fd);
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
  const value = parseModelFolderJson(text, fail);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    fail({ kind: 'not-object', words: 'does not hold a JSON object' });
  return value as Record<string, unknown>;
}

/**
 * `JSON.parse`, failing with where the text stopped being JSON and nothing of the text itself: V8's
 * message quotes the text around the fault, and the cause (which library users may log) is left out
 * for the same reason.
 */
export function parseModelFolderJson(text: string, fail: ModelFileFail): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const position = /position (\d+)/.exec((error as Error).message)?.[1];
    const where = position !== undefined ? ` (at character ${position})` : '';
    return fail({ kind: 'not-json', words: `is not valid JSON${where}` });
  }
}

function refuseUnlessRegular(stat: Stats, fail: ModelFileFail): void {
  if (stat.isFile()) return;
  const what = stat.isFIFO()
    ? 'a named pipe (FIFO)'
    : stat.isCharacterDevice() || stat.isBlockDevice()
      ? 'a device'
      : stat.isDirectory()
        ? 'a folder'
        : stat.isSocket()
          ? 'a socket'
          : 'not a regular file';
  fail({ kind: 'not-a-file', words: `is ${what}, not a file: a model folder holds regular files` });
}

/** The link's target when it lies outside the file's folder (and its Hugging Face cache blobs). */
function linkTargetOutsideFolder(path: string): string | undefined {
  // realpath of a dangling link throws ENOENT: the caller reports that as missing.
  const target = realpathSync(path);
  const folder = realpathSync(dirname(path));
  const allowed = [folder + sep];
  // huggingface_hub's cache: models--ORG--NAME/snapshots/REV/config.json -> ../../blobs/SHA.
  if (basename(dirname(folder)) === 'snapshots') allowed.push(join(dirname(dirname(folder)), 'blobs') + sep);
  return allowed.some((prefix) => target.startsWith(prefix)) ? undefined : target;
}
