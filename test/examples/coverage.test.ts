import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './run-example.js';

describe('examples', () => {
  it('every example has a test that runs it (test/examples/<name>.test.ts)', () => {
    const untested = readdirSync(join(repoRoot, 'examples'))
      .filter((file) => file.endsWith('.ts'))
      .filter((file) => !existsSync(join(repoRoot, 'test', 'examples', file.replace(/\.ts$/, '.test.ts'))));
    expect(untested).toEqual([]);
  });
});
