import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hubEnvironment, maxInputBytes, processEnvironment } from '../../src/internal/environment.js';

const SRC = join(import.meta.dirname, '../../src');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(folder, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(folder, entry.name)]
        : [],
  );
}

/** The code of a module without its comments, so a doc example's `process.env` is not counted. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

describe('environment: the one module that reads process.env', () => {
  it('reads the process environment by default', () => {
    const before = process.env.HAGGLE_MAX_INPUT_MIB;
    process.env.HAGGLE_MAX_INPUT_MIB = '3';
    try {
      expect(processEnvironment().HAGGLE_MAX_INPUT_MIB).toBe('3');
      expect(maxInputBytes()).toBe(3 * 1024 * 1024);
    } finally {
      if (before === undefined) delete process.env.HAGGLE_MAX_INPUT_MIB;
      else process.env.HAGGLE_MAX_INPUT_MIB = before;
    }
  });

  it('gives the hub pull HF_ENDPOINT and HF_TOKEN only when they are set', () => {
    expect(hubEnvironment({ HF_ENDPOINT: 'http://127.0.0.1:9', HF_TOKEN: 'hf_x' })).toEqual({
      endpoint: 'http://127.0.0.1:9',
      token: 'hf_x',
    });
    expect(hubEnvironment({})).toEqual({});
  });

  it('no other module of src/ reads process.env', () => {
    const files = sourceFiles(SRC);
    // A scan that found nothing would pass.
    expect(files.length).toBeGreaterThan(300);
    const readers = files
      .filter((file) => /\bprocess\.env\b/.test(withoutComments(readFileSync(file, 'utf8'))))
      .map((file) => relative(SRC, file));
    expect(readers).toEqual([]);
  });
});
