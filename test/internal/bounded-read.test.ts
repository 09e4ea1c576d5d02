import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type FileLine, forEachLine } from '../../src/internal/bounded-read.js';
import { DEFAULT_MAX_LINE_BYTES, maxLineBytes } from '../../src/internal/environment.js';
import { LineTooLongError } from '../../src/internal/errors.js';

function file(content: string | Buffer): string {
  const path = join(mkdtempSync(join(tmpdir(), 'haggle-lines-')), 'lines.jsonl');
  writeFileSync(path, content);
  return path;
}

function lines(path: string, limit: number): (Omit<FileLine, 'bytes'> & { text: string })[] {
  const seen: (Omit<FileLine, 'bytes'> & { text: string })[] = [];
  forEachLine(path, limit, ({ bytes, ...rest }) => {
    seen.push({ ...rest, text: bytes.toString('utf8') });
  });
  return seen;
}

describe('forEachLine: a line file read one bounded line at a time', () => {
  it('gives each line with its number and byte span; a last line without newline is marked torn', () => {
    const path = file('{"a":1}\n\nä\n{"torn"');
    expect(lines(path, 100)).toEqual([
      { number: 1, start: 0, end: 8, complete: true, text: '{"a":1}' },
      { number: 2, start: 8, end: 9, complete: true, text: '' },
      { number: 3, start: 9, end: 12, complete: true, text: 'ä' },
      { number: 4, start: 12, end: 19, complete: false, text: '{"torn"' },
    ]);
  });

  it('reads a line that spans many chunks whole, and stops when the visitor says so', () => {
    const long = 'y'.repeat(2.5 * 1024 * 1024);
    const path = file(`x\n${long}\nz\n`);
    const seen = lines(path, 3 * 1024 * 1024);
    expect(seen.map((line) => line.text?.length)).toEqual([1, long.length, 1]);
    expect(seen[2]).toMatchObject({ number: 3, start: 2 + long.length + 1 });
    let visited = 0;
    forEachLine(path, 3 * 1024 * 1024, () => {
      visited++;
      return false;
    });
    expect(visited).toBe(1);
  });

  it('a line of exactly the limit is read; one byte more is refused, naming the line and the limit', () => {
    const limit = 1000;
    expect(lines(file(`ok\n${'a'.repeat(limit)}\n`), limit)[1]?.text).toHaveLength(limit);
    const over = file(`ok\n${'a'.repeat(limit + 1)}\n`);
    expect(() => lines(over, limit)).toThrow(LineTooLongError);
    expect(() => lines(over, limit)).toThrow(/^line 2 is longer than the 1000 bytes limit for a line/);
    // A torn last line is held to the limit too: it is still read into memory.
    expect(() => lines(file(`ok\n${'a'.repeat(limit + 1)}`), limit)).toThrow(/^line 2 /);
  });

  it('refuses an endless device without a newline after the limit, instead of reading forever', () => {
    let error: unknown;
    try {
      forEachLine('/dev/zero', 2 * 1024 * 1024, () => {});
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(LineTooLongError);
    expect(error).toMatchObject({ lineNumber: 1, limitBytes: 2 * 1024 * 1024 });
  });

  it('the default line limit is 8 MiB, and HAGGLE_MAX_LINE_MIB changes it', () => {
    expect(DEFAULT_MAX_LINE_BYTES).toBe(8 * 1024 * 1024);
    expect(maxLineBytes({})).toBe(DEFAULT_MAX_LINE_BYTES);
    expect(maxLineBytes({ HAGGLE_MAX_LINE_MIB: '32' })).toBe(32 * 1024 * 1024);
    expect(maxLineBytes({ HAGGLE_MAX_LINE_MIB: 'big' })).toBe(DEFAULT_MAX_LINE_BYTES);
    expect(maxLineBytes({ HAGGLE_MAX_LINE_MIB: '-1' })).toBe(DEFAULT_MAX_LINE_BYTES);
  });
});
