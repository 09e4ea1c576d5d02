import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
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
    expect(problemOf(() => readModelFolderJson(pipe, fail))).toMatchObject({ kind: 'not-a-file' });
    expect(problemOf(() => readModelFolderText(pipe, fail, true)).words).toMatch(/named pipe/);
  });

  it('refuses a device, and a link that leaves the folder, without reading either', () => {
    // Before, a link to /dev/urandom was read (to the input ceiling) and copied into a built folder.
    const link = join(folder, 'zero.json');
    symlinkSync('/dev/zero', link);
    expect(problemOf(() => readModelFolderJson(link, fail))).toMatchObject({
      kind: 'outside-folder',
      words: expect.stringMatching(/^is a symbolic link to \/dev\/zero, outside its folder/),
    });
    expect(problemOf(() => readModelFolderText('/dev/zero', fail))).toMatchObject({
      kind: 'not-a-file',
      words: expect.stringMatching(/^is a device, not a file/),
    });
    const outside = mkdtempSync(join(tmpdir(), 'haggle-model-file-outside-'));
    writeFileSync(join(outside, 'secret.json'), '{"token":"hf_secret"}');
    symlinkSync(join(outside, 'secret.json'), join(folder, 'secret.json'));
    expect(problemOf(() => readModelFolderJson(join(folder, 'secret.json'), fail)).kind).toBe(
      'outside-folder',
    );
  });

  it('follows a link inside the folder, and into the blobs of a Hugging Face cache snapshot', () => {
    file('real.json', '{"a":2}');
    symlinkSync('real.json', join(folder, 'alias.json'));
    expect(readModelFolderJson(join(folder, 'alias.json'), fail)).toEqual({ a: 2 });
    // models--ORG--NAME/snapshots/REV/config.json -> ../../blobs/HASH, as huggingface_hub lays it out.
    const repo = mkdtempSync(join(tmpdir(), 'models--acme--tiny-'));
    const snapshot = join(repo, 'snapshots', 'abc123');
    mkdirSync(snapshot, { recursive: true });
    mkdirSync(join(repo, 'blobs'));
    writeFileSync(join(repo, 'blobs', 'f00d'), '{"model_type":"qwen3"}');
    symlinkSync('../../blobs/f00d', join(snapshot, 'config.json'));
    expect(readModelFolderJson(join(snapshot, 'config.json'), fail)).toEqual({ model_type: 'qwen3' });
  });

  it('stops a regular file over the input ceiling before reading it', () => {
    vi.stubEnv('HAGGLE_MAX_INPUT_MIB', '1');
    try {
      const big = file('big.json', `"${'x'.repeat(2 * 1024 * 1024)}"`);
      const problem = problemOf(() => readModelFolderJson(big, fail));
      expect(problem.kind).toBe('too-large');
      expect(problem.words).toMatch(/^cannot be read: it is larger than the 1 MiB limit for inputs/);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('says where a file stops being JSON without quoting it', () => {
    const problem = problemOf(() =>
      readModelFolderJson(file('passwd.json', 'root:x:0:0:root:/root:/bin/bash'), fail),
    );
    expect(problem).toEqual({ kind: 'not-json', words: expect.stringMatching(/^is not valid JSON/) });
    expect(problem.words).not.toMatch(/root/);
  });
});
