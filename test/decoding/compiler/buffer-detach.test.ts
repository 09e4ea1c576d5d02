import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const CHILD = join(import.meta.dirname, 'fixtures/detach-child.ts');

/** Runs the child under V8's test hooks; what it printed. */
function run(...args: string[]): { optimizedBefore: boolean; optimizedAfter: boolean } {
  const output = execFileSync(
    process.execPath,
    ['--allow-natives-syntax', '--import', 'tsx', CHILD, ...args],
    {
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  return JSON.parse(output.trim().split('\n').pop() as string);
}

describe("a neighbour's detached buffer and the decoder's optimized code (buffer-detach.ts)", () => {
  it('without a compiler, a buffer detached elsewhere deoptimizes the mask copy (what the compiler prevents)', () => {
    expect(run()).toEqual({ optimizedBefore: true, optimizedAfter: false });
  });

  it('once a GrammarCompiler exists, the same detach leaves it optimized', () => {
    expect(run('--compiler')).toEqual({ optimizedBefore: true, optimizedAfter: true });
  });
});
