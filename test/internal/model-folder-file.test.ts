import { spawnSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type ModelFileProblem,
  readModelFolderJson,
  readModelFolderText,
} from '../../src/internal/model-folder-file.js';

/** The problem the reader reports, caught from the `fail` it calls. */
class Failed extends Error {
  constructor(readonly problem: ModelFileProblem) {
    super(problem.words);
  }
}
const fail = (problem: ModelFileProblem): never => {
  throw new Failed(problem);
};
function problemOf(read: () => unknown): ModelFileProblem {
  try {
    read();
  } catch (error) {
    if (error instanceof Failed) return error.problem;
    throw error;
  }
  throw new Error('expected the reader to fail');
}

describe('readModelFolderJson: one bounded reader for every model folder file', () => {
  const folder = mkdtempSync(join(tmpdir(), 'haggle-model-file-'));
  const file = (name: string, text: string): string => {
    const path = join(folder, name);
    writeFileSync(path, text);
    return path;
  };

  it('reads a JSON object, and a byte-order mark does not stop it', () => {
    expect(readModelFolderJson(file('ok.json', '\ufeff{"a":1}'), fail)).toEqual({ a: 1 });
  });

  it('names each problem: missing, not JSON, not an object', () => {
    expect(problemOf(() => readModelFolderJson(join(folder, 'none.json'), fail))).toMatchObject({
      kind: 'missing',
      words: 'is missing',
    });
    expect(problemOf(() => readModelFolderJson(file('bad.json', '{"a":'), fail)).kind).toBe('not-json');
    for (const text of ['null', '[1]', '"text"', '3'])
      expect(problemOf(() => readModelFolderJson(file('scalar.json', text), fail))).toMatchObject({
        kind: 'not-object',
        words: 'does not hold a JSON object',
      });
  });

  it('gives undefined for a missing optional file, and still fails a present bad one', () => {
    expect(readModelFolderJson(join(folder, 'none.json'), fail, true)).toBeUndefined();
    expect(readModelFolderText(join(folder, 'none.txt'), fail, true)).toBeUndefined();
    expect(problemOf(() => readModelFolderJson(file('bad2.json', 'null'), fail, true)).kind).toBe(
      'not-object',
    );
  });

  it('refuses a named pipe without opening it (open() would wait for a writer)', () => {
    const pipe = join(folder, 'pipe.json');
    expect(spawnSync('mkfifo', [pipe]).status).toBe(0);
    // Were it opened, this call would never return and the test would time out.
    expect(problemOf(() => readModelFolderJson(pipe, fail))).toMatchObject({ kind: 'unreadable' });
    expect(problemOf(() => readModelFolderText(pipe, fail, true)).words).toMatch(/named pipe/);
  });

  it('stops a link to an endless device at the input ceiling', () => {
    const link = join(folder, 'zero.json');
    symlinkSync('/dev/zero', link);
    const problem = problemOf(() => readModelFolderJson(link, fail));
    expect(problem.kind).toBe('too-large');
    expect(problem.words).toMatch(/^cannot be read: it is larger than the \d+ MiB limit for inputs/);
  });
});
