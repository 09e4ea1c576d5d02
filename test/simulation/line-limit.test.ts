import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadTournament } from '../../src/evaluation/load-tournament.js';
import { readTournamentFile } from '../../src/evaluation/tournament-file.js';
import { HaggleError } from '../../src/index.js';
import { firstLineType } from '../../src/simulation/indexed-jsonl.js';
import { mergeRuns } from '../../src/simulation/merge-runs.js';
import { loadSessions, RunFileError, readRunFile } from '../../src/simulation/run-file.js';

// Issue 26: every reader of a JSONL file (the library's, which the CLI verbs and --resume use) holds a
// line to the limit and says which line of which file passed it.

afterEach(() => {
  vi.unstubAllEnvs();
});

/** A header line (a tournament's, or a run's), then a line of 1 MiB and a byte. */
function fileWithLongSecondLine(kind: 'tournament' | 'run' = 'tournament'): string {
  const path = join(mkdtempSync(join(tmpdir(), 'haggle-line-limit-')), 'long.jsonl');
  const header = JSON.stringify({ type: kind, format: `haggle-${kind}`, version: 1 });
  writeFileSync(path, `${header}\n${'x'.repeat(1024 * 1024 + 1)}\n`);
  return path;
}

function refusal(read: () => unknown): RunFileError {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(RunFileError);
    return error as RunFileError;
  }
  throw new Error('the read was not refused');
}

describe('the per-line limit in every JSONL reader', () => {
  it.each([
    ['readRunFile', 'run', (path: string) => readRunFile(path)],
    ['loadSessions', 'run', (path: string) => loadSessions(path)],
    ['readTournamentFile', 'tournament', (path: string) => readTournamentFile(path)],
    ['loadTournament', 'tournament', (path: string) => loadTournament(path)],
    ['mergeRuns', 'tournament', (path: string) => mergeRuns([path, path], `${path}.merged`)],
  ] as const)(
    '%s refuses a line past HAGGLE_MAX_LINE_MIB with a run-file error naming the file and the line',
    (_name, kind, read) => {
      vi.stubEnv('HAGGLE_MAX_LINE_MIB', '1');
      const path = fileWithLongSecondLine(kind);
      const error = refusal(() => read(path));
      expect(HaggleError.isInstance(error) && error.code).toBe('run-file');
      expect(error.message).toBe(
        `${path}: line 2 is longer than the 1 MiB limit for a line; is it a haggle JSONL file? (raise the limit with HAGGLE_MAX_LINE_MIB)`,
      );
    },
  );

  it('the same file is read with the limit raised; the header alone is read without touching the long line', () => {
    const path = fileWithLongSecondLine();
    vi.stubEnv('HAGGLE_MAX_LINE_MIB', '1');
    expect(firstLineType(path)).toBe('tournament');
    vi.stubEnv('HAGGLE_MAX_LINE_MIB', '2');
    // Past the limit, the line is read and judged for what it is.
    expect(refusal(() => readTournamentFile(path)).message).toBe(`${path}: line 2 is not JSON`);
  });
});
